/* assay matrix: expand a sweep over the platform registry and print counts,
 * the case list, one shard, or the whole document as JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/matrix.h"
#include "cli.h"

const char cmd_matrix_help[] =
    "usage: assay matrix --platforms FILE [filters] [--json | --list | --shard ID] SWEEP\n"
    "\n"
    "Expand SWEEP (a sweep config) over a platform registry into cases: one per\n"
    "SKU x backend x EP x mode x phase x precision, runnable or unsupported with\n"
    "a reason, grouped into shards. Prints the counts and the two digests.\n"
    "\n"
    "options:\n"
    "  --platforms FILE   the platform registry (e.g. configs/platforms.json)\n"
    "  --json             print the whole matrix document (schema assay.matrix/1)\n"
    "  --list             print one line per case\n"
    "  --shard ID         print only the cases of shard ID\n"
    "filters (comma-separated or repeated; they only remove cases):\n"
    "  --sku LIST  --backend LIST  --ep LIST  --precision LIST  --mode LIST  --phase LIST\n"
    "\n"
    "example:\n"
    "  assay matrix --platforms configs/platforms.json --sku h100 configs/sweep-ep.json\n"
    "\n"
    "Exit codes: 0 printed, 2 bad arguments or invalid config. See docs/matrix.md.\n";

static void print_summary(const struct assay_matrix *m, const struct assay_registry *reg,
			  const struct assay_sweep *sw)
{
	printf(
	    "suite %s: workload %s (hidden %lld, experts %lld, top-%lld, seed %lld), routing %s, "
	    "timing %s\n",
	    sw->suite, sw->workload.name, sw->workload.hidden, sw->workload.experts,
	    sw->workload.topk, sw->workload.seed, sw->routing, sw->timing.profile);
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
	enum {
		O_PLATFORMS = 256,
		O_JSON,
		O_LIST,
		O_SHARD,
		O_SKU,
		O_BACKEND,
		O_EP,
		O_PRECISION,
		O_MODE,
		O_PHASE
	};
	static const struct option opts[] = {
	    {"platforms", required_argument, NULL, O_PLATFORMS},
	    {"json", no_argument, NULL, O_JSON},
	    {"list", no_argument, NULL, O_LIST},
	    {"shard", required_argument, NULL, O_SHARD},
	    {"sku", required_argument, NULL, O_SKU},
	    {"backend", required_argument, NULL, O_BACKEND},
	    {"ep", required_argument, NULL, O_EP},
	    {"precision", required_argument, NULL, O_PRECISION},
	    {"mode", required_argument, NULL, O_MODE},
	    {"phase", required_argument, NULL, O_PHASE},
	    {NULL, 0, NULL, 0},
	};
	const char *platforms = NULL, *shard = NULL;
	bool json = false, list = false;
	struct assay_filters f = {0};
	int rc = ASSAY_OK, opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case O_PLATFORMS: platforms = optarg; break;
		case O_JSON: json = true; break;
		case O_LIST: list = true; break;
		case O_SHARD: shard = optarg; break;
		case O_SKU: cli_split_list(&f.sku, optarg); break;
		case O_BACKEND: cli_split_list(&f.backend, optarg); break;
		case O_EP: cli_split_list(&f.ep, optarg); break;
		case O_PRECISION: cli_split_list(&f.precision, optarg); break;
		case O_MODE: cli_split_list(&f.mode, optarg); break;
		case O_PHASE: cli_split_list(&f.phase, optarg); break;
		default:
			assay_filters_release(&f);
			return cli_usage_error("matrix", "unknown option or missing value: '%s'",
					       argv[optind - 1]);
		}
	}
	if (!platforms) {
		assay_filters_release(&f);
		return cli_usage_error("matrix", "--platforms FILE is required");
	}
	if (optind != argc - 1) {
		assay_filters_release(&f);
		return cli_usage_error("matrix", "expected one sweep file, got %d", argc - optind);
	}
	if (list && json) {
		assay_filters_release(&f);
		return cli_usage_error("matrix", "--list and --json cannot be combined");
	}
	struct assay_error err;
	struct assay_registry reg;
	struct assay_sweep sw;
	struct assay_matrix m;
	if (assay_registry_load(platforms, &reg, &err) != ASSAY_OK) {
		assay_filters_release(&f);
		return cli_report(&err);
	}
	if (assay_sweep_load(argv[optind], &sw, &err) != ASSAY_OK) {
		rc = cli_report(&err);
		goto out_reg;
	}
	if (assay_matrix_build(&reg, &sw, &f, &m, &err) != ASSAY_OK) {
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
	} else if (list) {
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
	assay_filters_release(&f);
	return rc;
}
