/* `assay import cvs --cluster FILE`: the imported suite runs on the nodes of
 * a ROCm CVS cluster file through the ssh launcher (docs/ssh.md), as CVS runs
 * the config on the cluster file's nodes: as many nodes as the file lists,
 * NNODES, NODE_RANK and MASTER_ADDR set per node by the launcher, and the
 * config's container block kept: the launcher runs it on every node, as
 * CVS's training suites start the config's container on every host. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/import.h"
#include "assay/launch.h"
#include "suite_int.h"

static void cluster_note(struct assay_import *out, const char *path, const char *fmt, ...)
    ASSAY_PRINTF(3, 4);
static void cluster_note(struct assay_import *out, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char msg[600];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char *line = xasprintf("%s: not carried over: %s", path, msg);
	strlist_push(&out->notes, line);
	free(line);
}

int cvs_import_cluster(const char *cluster_file, json_t *suite, struct assay_import *out,
		       struct assay_error *e)
{
	struct strlist hosts = STRLIST_INIT;
	if (assay_ssh_cluster_hosts(cluster_file, &hosts, e) != ASSAY_OK)
		return -1;
	long long nodes = json_integer_value(json_object_get(suite, "nodes"));
	if (nodes != (long long)hosts.n)
		cluster_note(out, "$.config.nnodes",
			     "%lld, but %s lists %zu node(s): the suite runs on all of them, as "
			     "CVS does",
			     nodes, cluster_file, hosts.n);
	json_object_set_new(suite, "nodes", json_integer((json_int_t)hosts.n));
	json_t *env = json_object_get(suite, "env");
	if (json_object_get(env, "MASTER_ADDR"))
		cluster_note(out, "$.config.master_address",
			     "the ssh launcher sets MASTER_ADDR to the first node's vpc_ip");
	static const char *const per_node[] = {"NNODES", "NODE_RANK", "MASTER_ADDR"};
	for (size_t i = 0; i < 3; i++)
		json_object_del(env, per_node[i]);
	/* As given: relative to where import runs, as assay run reads it. */
	json_object_set_new(suite, "launcher",
			    json_pack("{s:s, s:s}", "type", "ssh", "cluster_file", cluster_file));
	strlist_clear(&hosts);
	return 0;
}
