/* Job-shape rules for madengine manifests: node and GPU counts are integers
 * that agree (slurm.nodes, distributed.nnodes, the nodes slurm.nodelist
 * names), ranks fit the GPUs, and deployment timeouts are positive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
	{"count-invalid", "job", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
	 "a node or GPU count that is not a positive integer"},
	{"node-count-mismatch", "job", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
	 "slurm.nodes, distributed.nnodes and the length of slurm.nodelist disagree"},
	{"nproc-exceeds-gpus", "job", ASSAY_LINT_WARNING, true, KIND(MANIFEST),
	 "distributed.nproc_per_node is larger than slurm.gpus_per_node"},
	{"timeout-literal", "job", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
	 "a deployment timeout of 0 or less, which is rendered into the job as it stands"},
};
#define R_INVALID (&rules[0])
#define R_MISMATCH (&rules[1])
#define R_NPROC (&rules[2])
#define R_TIMEOUT (&rules[3])

#define COUNT_CAP 1000000L

/* Hosts in one Slurm hostlist range body such as "01-04,07". */
static long range_count(const char *s, size_t n)
{
	long total = 0;
	size_t i = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && s[j] != ',')
			j++;
		const char *dash = memchr(s + i, '-', j - i);
		long cnt = 1;
		if (dash) {
			char *end;
			long a = strtol(s + i, &end, 10), b = strtol(dash + 1, NULL, 10);
			if (end == dash && b >= a)
				cnt = b - a < COUNT_CAP ? b - a + 1 : COUNT_CAP;
		}
		if (j > i)
			total += cnt;
		if (total > COUNT_CAP)
			return COUNT_CAP;
		i = j + 1;
	}
	return total ? total : 1;
}

/* Hosts named by a Slurm hostlist expression: "gpu[01-04,07],login1" is 5. */
static long hostlist_count(const char *s)
{
	long total = 0, host = 1;
	bool any = false;
	for (const char *p = s;; p++) {
		if (*p == '[') {
			const char *close = strchr(p, ']');
			if (!close)
				close = p + strlen(p);
			host *= range_count(p + 1, (size_t)(close - p - 1));
			if (host > COUNT_CAP)
				host = COUNT_CAP;
			any = true;
			p = *close ? close : close - 1;
		} else if (*p == ',' || *p == '\0') {
			if (any)
				total += host;
			if (total > COUNT_CAP)
				total = COUNT_CAP;
			host = 1;
			any = false;
			if (!*p)
				break;
		} else if (*p != ' ') {
			any = true;
		}
	}
	return total;
}

/* Nodes named by slurm.nodelist (a string or an array of strings); -1 when
 * it is absent or names none. */
static long nodelist_count(const json_t *v)
{
	long n = 0;
	if (json_is_string(v)) {
		n = hostlist_count(json_string_value(v));
	} else if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (json_is_string(e))
				n += hostlist_count(json_string_value(e));
			if (n > COUNT_CAP)
				n = COUNT_CAP;
		}
	}
	return n > 0 ? n : -1;
}

bool lint_multinode(const json_t *doc)
{
	const json_t *n = lint_get(doc, "deployment_config.slurm.nodes");
	const json_t *nn = lint_get(doc, "deployment_config.distributed.nnodes");
	return (json_is_integer(n) && json_integer_value(n) > 1) ||
	       (json_is_integer(nn) && json_integer_value(nn) > 1) ||
	       nodelist_count(lint_get(doc, "deployment_config.slurm.nodelist")) > 1;
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
		lint_report(c, R_NPROC, "$.deployment_config.distributed.nproc_per_node",
			    "distributed.nproc_per_node %lld is more than slurm.gpus_per_node %lld: "
			    "ranks share GPUs or fail to start", nproc, gpn);
	if (!json_is_object(slurm) || has_nodes < 0 || has_nnodes < 0)
		return;
	const json_t *nl = json_object_get(slurm, "nodelist");
	long listed = nodelist_count(nl);
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
		sbuf_addf(&msg, ", slurm.nodelist names %ld node%s", listed, listed == 1 ? "" : "s");
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
					     "deployment_config.k8s", "deployment_config.kubernetes"};
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
			    "\"no limit\" there); give a positive number of seconds", s);
		free(s);
		free(p);
	}
}

static void check(struct lint_ctx *c)
{
	if (c->kind != ASSAY_LINT_MANIFEST || !json_is_object(c->doc))
		return;
	check_nodes(c);
	check_timeouts(c);
}

const struct lint_family lint_family_job = {"job", rules, ARRAY_SIZE(rules), check};
