/* Job-shape rules for madengine manifests: node and GPU counts are integers
 * and a valid hostlist that agree (slurm.nodes, distributed.nnodes, the nodes
 * slurm.nodelist names), ranks fit the GPUs, and deployment timeouts are
 * positive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/slurm.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"count-invalid", "job", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "a node or GPU count that is not a positive integer, or a nodelist that is not a hostlist"},
    {"node-count-mismatch", "job", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "slurm.nodes, distributed.nnodes and the length of slurm.nodelist disagree"},
    {"nproc-exceeds-gpus", "job", ASSAY_LINT_WARNING, true, KIND(MANIFEST) | KIND(CONTEXT),
     "distributed.nproc_per_node is larger than slurm.gpus_per_node"},
    {"timeout-literal", "job", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT),
     "a deployment timeout of 0 or less, which is rendered into the job as it stands"},
};
#define R_INVALID  (&rules[0])
#define R_MISMATCH (&rules[1])
#define R_NPROC    (&rules[2])
#define R_TIMEOUT  (&rules[3])

/* Nodes named by slurm.nodelist (a hostlist string, or an array of them):
 * 0 when it is absent or empty (madengine then drops it), -1 with e filled
 * when it is not a valid hostlist. */
static long long nodelist_count(const json_t *v, struct assay_error *e)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (!s[strspn(s, " \t,")])
			return 0;
		return assay_hostlist_count(s, e);
	}
	long long n = 0;
	size_t i;
	json_t *el;
	if (json_is_array(v)) {
		json_array_foreach(v, i, el)
		{
			long long k = nodelist_count(el, e);
			if (k < 0)
				return -1;
			n += k;
		}
	}
	return n;
}

bool lint_multinode(const json_t *doc)
{
	const json_t *n = lint_get(doc, "deployment_config.slurm.nodes");
	const json_t *nn = lint_get(doc, "deployment_config.distributed.nnodes");
	return (json_is_integer(n) && json_integer_value(n) > 1) ||
	       (json_is_integer(nn) && json_integer_value(nn) > 1) ||
	       nodelist_count(lint_get(doc, "deployment_config.slurm.nodelist"), NULL) > 1;
}

/* A positive integer count at chain.key: 0 when absent, -1 (reported) when
 * invalid, 1 with *out set. */
static int count(struct lint_ctx *c, const char *chain, const char *key, long long *out)
{
	const json_t *obj = lint_get(c->doc, chain);
	const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
	if (!v)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 1) {
		*out = json_integer_value(v);
		return 1;
	}
	char *parent = xasprintf("$.%s", chain);
	char *p = lint_path_key(parent, key);
	char b[96];
	lint_report(c, R_INVALID, p, "%s must be a positive integer, got %s", key,
		    assay_json_brief(v, b, sizeof(b)));
	free(p);
	free(parent);
	return -1;
}

static void check_nodes(struct lint_ctx *c)
{
	const json_t *slurm = lint_get(c->doc, "deployment_config.slurm");
	long long nodes = 1, nnodes = 0, gpn = 0, nproc = 0;
	int has_nodes = count(c, "deployment_config.slurm", "nodes", &nodes);
	int has_nnodes = count(c, "deployment_config.distributed", "nnodes", &nnodes);
	int has_gpn = count(c, "deployment_config.slurm", "gpus_per_node", &gpn);
	int has_nproc = count(c, "deployment_config.distributed", "nproc_per_node", &nproc);
	if (has_gpn == 1 && has_nproc == 1 && nproc > gpn)
		lint_report(
		    c, R_NPROC, "$.deployment_config.distributed.nproc_per_node",
		    "distributed.nproc_per_node %lld is more than slurm.gpus_per_node %lld: "
		    "ranks share GPUs or fail to start",
		    nproc, gpn);
	if (!json_is_object(slurm) || has_nodes < 0 || has_nnodes < 0)
		return;
	struct assay_error e;
	long long listed = nodelist_count(json_object_get(slurm, "nodelist"), &e);
	if (listed < 0) {
		lint_report(c, R_INVALID, "$.deployment_config.slurm.nodelist", "%s", e.message);
		return;
	}
	bool bad_nnodes = has_nnodes == 1 && nnodes != nodes;
	bool bad_list = listed > 0 && listed != nodes;
	if (!bad_nnodes && !bad_list)
		return;
	struct sbuf msg = SBUF_INIT;
	if (has_nodes)
		sbuf_addf(&msg, "slurm.nodes is %lld", nodes);
	else
		sbuf_adds(&msg, "slurm.nodes is not set (madengine uses 1)");
	if (has_nnodes)
		sbuf_addf(&msg, ", distributed.nnodes is %lld", nnodes);
	if (listed > 0)
		sbuf_addf(&msg, ", slurm.nodelist names %lld node%s", listed,
			  listed == 1 ? "" : "s");
	sbuf_adds(&msg, ": sbatch and the launcher disagree on the world size; make them agree");
	lint_report(c, R_MISMATCH,
		    bad_nnodes ? "$.deployment_config.distributed.nnodes"
			       : "$.deployment_config.slurm.nodelist",
		    "%s", msg.buf);
	sbuf_release(&msg);
}

static void check_timeouts(struct lint_ctx *c)
{
	static const char *const blocks[] = {"deployment_config", "deployment_config.slurm",
					     "deployment_config.k8s",
					     "deployment_config.kubernetes"};
	for (size_t i = 0; i < ARRAY_SIZE(blocks); i++) {
		const json_t *b = lint_get(c->doc, blocks[i]);
		const json_t *v = json_is_object(b) ? json_object_get(b, "timeout") : NULL;
		double t;
		long long ll;
		if (json_is_number(v))
			t = json_number_value(v);
		else if (lint_int_value(v, true, &ll))
			t = (double)ll;
		else
			continue;
		if (t > 0)
			continue;
		char *p = xasprintf("$.%s.timeout", blocks[i]);
		char *s = assay_json_dumps(v, 0);
		lint_report(c, R_TIMEOUT, p,
			    "timeout %s is rendered into the job as it stands (it does not mean "
			    "\"no limit\" there); give a positive number of seconds",
			    s);
		free(s);
		free(p);
	}
}

static void check(struct lint_ctx *c)
{
	if (!lint_manifest_like(c))
		return;
	check_nodes(c);
	check_timeouts(c);
}

const struct lint_family lint_family_job = {"job", rules, ARRAY_SIZE(rules), check};
