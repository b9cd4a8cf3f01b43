/* assay matrix: expand a sweep over the platform registry and print counts,
 * the case list, one shard, or the whole document as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/matrix.h"
#include "cli.h"
#include "opt.h"

struct matrix_args {
	const char *platforms, *shard, *format;
	bool list;
	struct assay_filters f;
};

#define FILTER(n, field)                                                                           \
	{                                                                                          \
		.type = CLI_LIST, .name = n, .arg = "LIST",                                        \
		.off = offsetof(struct matrix_args, f.field),                                      \
		.help = "keep only cases whose " n " is in LIST"                                   \
	}

static const char *const formats[] = {"text", "json", NULL};

static const struct cli_opt matrix_opts[] = {
    CLI_OPT_STRING("platforms", "FILE", struct matrix_args, platforms,
		   "the platform registry (e.g. configs/platforms.json); required"),
    CLI_OPT_FORMAT(struct matrix_args, format,
		   "what is printed: text, or json (the whole matrix document, schema\n"
		   "assay.matrix/1)",
		   "text", formats),
    CLI_OPT_JSON,
    CLI_OPT_FLAG("list", struct matrix_args, list, "print one line per case"),
    CLI_OPT_STRING("shard", "ID", struct matrix_args, shard, "print only the cases of shard ID"),
    CLI_OPT_GROUP("filters (comma-separated or repeated; they only remove cases)"),
    FILTER("sku", sku),
    FILTER("backend", backend),
    FILTER("ep", ep),
    FILTER("precision", precision),
    FILTER("mode", mode),
    FILTER("phase", phase),
    CLI_OPT_END,
};

const struct cli_spec cmd_matrix_spec = {
    .name = "matrix",
    .usage =
	"assay matrix --platforms FILE [filters] [--format text|json | --list | --shard ID] SWEEP",
    .about = "Expand SWEEP (a sweep config) over a platform registry into cases: one per\n"
	     "SKU x backend x EP x mode x phase x precision, runnable or unsupported with\n"
	     "a reason, grouped into shards. Prints the counts and the two digests.\n",
    .opts = matrix_opts,
    .examples = "assay matrix --platforms configs/platforms.json --sku h100 configs/sweep-ep.json",
    .exits = "Exit codes: 0 printed, 2 bad arguments or invalid config. See docs/matrix.md.\n",
    .min_args = 1,
    .max_args = 1,
    .args_what = "sweep file",
};

static void print_summary(const struct assay_matrix *m, const struct assay_registry *reg,
			  const struct assay_sweep *sw)
{
	char *routings = sw->routings.n ? strlist_join(&sw->routings, ", ") : xstrdup(sw->routing);
	printf(
	    "suite %s: workload %s (hidden %lld, experts %lld, top-%lld, seed %lld), routing %s, "
	    "timing %s\n",
	    sw->suite, sw->workload.name, sw->workload.hidden, sw->workload.experts,
	    sw->workload.topk, sw->workload.seed, routings, sw->timing.profile);
	free(routings);
	int w = 10; /* the sku column: as wide as the longest name */
	for (size_t i = 0; i < reg->n; i++)
		if ((int)strlen(reg->v[i].sku) > w)
			w = (int)strlen(reg->v[i].sku);
	printf("\n%-*s %9s %12s %7s %14s\n", w, "sku", "runnable", "unsupported", "shards",
	       "ladder points");
	for (size_t i = 0; i < reg->n; i++) {
		const char *sku = reg->v[i].sku;
		size_t run = 0, uns = 0, shards = 0, points = 0;
		for (size_t j = 0; j < m->n; j++) {
			const struct assay_case *c = &m->cases[j];
			if (strcmp(c->sku, sku))
				continue;
			if (c->runnable) {
				run++;
				points += c->n_tokens;
			} else {
				uns++;
			}
		}
		for (size_t j = 0; j < m->n_shards; j++)
			shards += !strcmp(m->shards[j].sku, sku);
		if (run + uns)
			printf("%-*s %9zu %12zu %7zu %14zu\n", w, sku, run, uns, shards, points);
	}
	printf("%-*s %9zu %12zu %7zu %14zu\n", w, "total", m->runnable, m->unsupported, m->n_shards,
	       m->ladder_points);
	printf("\ncases requested: %zu (runnable %zu, unsupported %zu)\n", m->n, m->runnable,
	       m->unsupported);
	printf("shards: %zu\nladder points: %zu\n", m->n_shards, m->ladder_points);
	printf("matrix_sha256: %s\ncatalog_sha256: %s\n", m->matrix_sha256, m->catalog_sha256);
}

static void print_case(const struct assay_case *c)
{
	printf("%-64s %-11s %5lld %5lld  %-9s %-20s %s\n", c->id,
	       c->runnable ? "runnable" : "unsupported", c->ep, c->nodes, c->scope, c->topology,
	       c->runnable ? c->shard : c->reason);
}

static void print_cases(const struct assay_matrix *m, const char *only_shard)
{
	printf("%-64s %-11s %5s %5s  %-9s %-20s %s\n", "case", "disposition", "ep", "nodes",
	       "scope", "topology", only_shard ? "shard" : "shard or reason");
	for (size_t i = 0; i < m->n; i++) {
		const struct assay_case *c = &m->cases[i];
		if (only_shard && (!c->shard || strcmp(c->shard, only_shard)))
			continue;
		print_case(c);
	}
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_args a = {.format = "text"};
	struct assay_filters *f = &a.f;
	int first, rc = cli_parse(&cmd_matrix_spec, argc, argv, &a, &first);
	if (!rc && !a.platforms)
		rc = cli_usage_error("matrix", "--platforms FILE is required");
	bool json = !strcmp(a.format, "json");
	if (!rc && a.list && json)
		rc = cli_usage_error("matrix", "--list and --json cannot be combined");
	if (rc) {
		assay_filters_release(f);
		return rc < 0 ? ASSAY_OK : rc;
	}
	const char *platforms = a.platforms, *shard = a.shard;
	struct assay_error err;
	struct assay_registry reg;
	struct assay_sweep sw;
	struct assay_matrix m;
	if (assay_registry_load(platforms, &reg, &err) != ASSAY_OK) {
		assay_filters_release(f);
		return cli_report(&err);
	}
	if (assay_sweep_load(argv[first], &sw, &err) != ASSAY_OK) {
		rc = cli_report(&err);
		goto out_reg;
	}
	if (assay_matrix_build(&reg, &sw, f, &m, &err) != ASSAY_OK) {
		rc = cli_usage_error("matrix", "%s", err.message);
		goto out_sweep;
	}
	if (shard && !assay_matrix_shard(&m, shard)) {
		rc = cli_usage_error("matrix", "--shard: no shard \"%s\" in this matrix", shard);
		goto out_matrix;
	}
	if (json) {
		json_t *doc = assay_matrix_to_json(&m, shard);
		char *s = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
		printf("%s\n", s);
		free(s);
		json_decref(doc);
	} else if (shard) {
		print_cases(&m, shard);
	} else if (a.list) {
		print_cases(&m, NULL);
	} else {
		print_summary(&m, &reg, &sw);
	}
out_matrix:
	assay_matrix_release(&m);
out_sweep:
	assay_sweep_release(&sw);
out_reg:
	assay_registry_release(&reg);
	assay_filters_release(f);
	return rc;
}
