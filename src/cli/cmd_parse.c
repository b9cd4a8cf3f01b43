/* assay parse: read result files (training logs, NDJSON rows, any format in
 * the table) and print measurement rows, or a training log's per-step
 * records, as NDJSON; the exit code says whether the run completed. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"
#include "cli.h"

const char cmd_parse_help[] =
    "usage: assay parse [--format NAME] [--steps] [options] FILE...\n"
    "\n"
    "Parse each FILE (\"-\" for standard input) and print measurement rows as\n"
    "NDJSON, one object per line (docs/rows.md). Training logs give steady-state\n"
    "mean and median, the last running average, final loss, peak memory,\n"
    "checkpoint durations (docs/training.md).\n"
    "\n"
    "options:\n"
    "  --format NAME       auto (default), megatron, primus, megatron-golden, rows\n"
    "  --steps             print a training log's per-step records instead of rows\n"
    "  --warmup N          exclude exactly N leading steps from the steady state\n"
    "  --warmup MIN,PCT%   or the rule max(MIN, PCT% of the steps) (default 2,10%)\n"
    "  --seq-len N         sequence length, to derive tokens/s/GPU when the log lacks it\n"
    "  --world-size N      GPUs in the run (default: from a Primus rank-R/W prefix)\n"
    "  --series KEY=VALUE  add a series field to every row (repeatable)\n"
    "  --revision REV      stamp rows with a source revision\n"
    "  --run-id ID         stamp rows with a run id\n"
    "\n"
    "example:\n"
    "  assay parse --format primus --series workload=deepseek-v4 train.log\n"
    "\n"
    "Exit codes: 0 complete run with metrics, 2 bad arguments or unreadable input\n"
    "(nothing printed), 3 a training run that is incomplete or logged NaN/Inf\n"
    "(rows are still printed), 4 no metrics. See docs/parse.md.\n";

struct parse_args {
	const char *format;
	bool steps;
	struct assay_train_opts topts;
	struct assay_parse_opts popts;
};

/* KEY=VALUE into the context object: integers stay integers. */
static bool add_series(json_t *ctx, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return false;
	char *key = xstrndup(arg, (size_t)(eq - arg));
	long long n;
	json_object_set_new(ctx, key,
			    assay_parse_long(eq + 1, &n) ? json_integer(n) : json_string(eq + 1));
	free(key);
	return true;
}

struct parsed {
	const char *file;
	assay_err outcome;
	char reason[512];
};

/* Parse one file into rows (or step lines); fills p. ASSAY_USAGE on bad input. */
static assay_err parse_one(const struct parse_args *a, const char *file, struct assay_rows *rows,
			   struct sbuf *steps, struct parsed *p, struct assay_error *e)
{
	const char *path = strcmp(file, "-") ? file : "/dev/stdin";
	struct assay_file_map map;
	if (assay_map_file(path, &map, e) != ASSAY_OK)
		return ASSAY_USAGE;
	const char *data = map.data;
	size_t len = map.len;
	const char *format = a->format;
	if (!strcmp(format, "auto")) {
		const struct assay_format *f = assay_format_detect(data, len);
		if (!f) {
			assay_unmap_file(&map);
			return assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
					      "cannot tell the format (use --format; see "
					      "'assay help parse')");
		}
		format = f->name;
	}
	struct assay_parse_opts po = a->popts;
	po.file = file;
	p->file = file;
	p->outcome = ASSAY_OK;
	p->reason[0] = '\0';
	assay_err rc;
	if (assay_train_format_known(format)) {
		struct assay_train_result r;
		rc = assay_train_parse(format, data, len, &a->topts, file, &r, e);
		if (rc == ASSAY_OK && a->steps) {
			json_t *f = json_string(file);
			for (size_t i = 0; i < r.n_steps; i++) {
				json_t *o = assay_train_step_to_json(&r.steps[i]);
				json_object_set(o, "file", f);
				assay_json_write(steps, o, ASSAY_JSON_SORT);
				sbuf_addch(steps, '\n');
				json_decref(o);
			}
			json_decref(f);
		} else if (rc == ASSAY_OK) {
			rc = assay_train_rows(&r, &po, rows, e);
		}
		if (rc == ASSAY_OK) {
			p->outcome = assay_train_outcome(&r);
			assay_train_outcome_text(&r, p->reason, sizeof(p->reason));
		}
		assay_train_result_release(&r);
	} else {
		const struct assay_format *f = assay_format_find(format);
		if (a->steps) {
			rc = assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
					    "--steps needs a training log, not format %s", format);
		} else {
			size_t before = rows->n;
			rc = f->parse(data, len, &po, rows, e);
			if (rc == ASSAY_OK && rows->n == before) {
				p->outcome = ASSAY_NO_METRICS;
				snprintf(p->reason, sizeof(p->reason), "no metrics: no rows");
			}
		}
	}
	assay_unmap_file(&map);
	return rc;
}

int cmd_parse(int argc, char **argv)
{
	enum { O_FORMAT = 256, O_STEPS, O_WARMUP, O_SEQ, O_WORLD, O_SERIES, O_REV, O_RUN };
	static const struct option opts[] = {
	    {"format", required_argument, NULL, O_FORMAT},
	    {"steps", no_argument, NULL, O_STEPS},
	    {"warmup", required_argument, NULL, O_WARMUP},
	    {"seq-len", required_argument, NULL, O_SEQ},
	    {"world-size", required_argument, NULL, O_WORLD},
	    {"series", required_argument, NULL, O_SERIES},
	    {"revision", required_argument, NULL, O_REV},
	    {"run-id", required_argument, NULL, O_RUN},
	    {NULL, 0, NULL, 0},
	};
	struct parse_args a = {.format = "auto"};
	assay_train_opts_init(&a.topts);
	json_t *ctx = json_object();
	a.popts.context = ctx;
	int rc = ASSAY_OK, opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = true;
		switch (opt) {
		case O_FORMAT: a.format = optarg; break;
		case O_STEPS: a.steps = true; break;
		case O_WARMUP: ok = assay_train_warmup_parse(optarg, &a.topts); break;
		case O_SEQ:
			ok = assay_parse_long(optarg, &a.topts.seq_len) && a.topts.seq_len > 0;
			break;
		case O_WORLD:
			ok =
			    assay_parse_long(optarg, &a.topts.world_size) && a.topts.world_size > 0;
			break;
		case O_SERIES: ok = add_series(ctx, optarg); break;
		case O_REV: a.popts.revision = optarg; break;
		case O_RUN: a.popts.run_id = optarg; break;
		default:
			json_decref(ctx);
			return cli_usage_error("parse", "unknown option or missing value: '%s'",
					       argv[optind - 1]);
		}
		if (!ok) {
			json_decref(ctx);
			return cli_usage_error("parse", "bad value for %s: '%s'", argv[optind - 2],
					       optarg);
		}
	}
	if (strcmp(a.format, "auto") && !assay_format_find(a.format)) {
		struct sbuf sb = SBUF_INIT;
		for (const struct assay_format *f = assay_formats; f->name; f++)
			sbuf_addf(&sb, ", %s", f->name);
		rc = cli_usage_error("parse", "unknown format '%s' (expected auto%s)", a.format,
				     sbuf_str(&sb));
		sbuf_release(&sb);
		json_decref(ctx);
		return rc;
	}
	if (a.steps && strcmp(a.format, "auto") && !assay_train_format_known(a.format)) {
		json_decref(ctx);
		return cli_usage_error("parse",
				       "--steps needs a training format (megatron, primus, "
				       "megatron-golden or auto), not %s",
				       a.format);
	}
	if (optind >= argc) {
		json_decref(ctx);
		return cli_usage_error("parse", "expected at least one FILE");
	}
	size_t nfiles = (size_t)(argc - optind);
	struct parsed *p = xcalloc(nfiles, sizeof(*p));
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct sbuf steps = SBUF_INIT;
	struct assay_error err;
	for (size_t i = 0; i < nfiles; i++) {
		if (parse_one(&a, argv[optind + (int)i], &rows, &steps, &p[i], &err) != ASSAY_OK) {
			rc = cli_report(&err);
			goto out;
		}
	}
	if (a.steps) {
		fwrite(steps.buf ? steps.buf : "", 1, steps.len, stdout);
	} else {
		struct sbuf sb = SBUF_INIT;
		assay_rows_ndjson(&rows, &sb);
		fwrite(sbuf_str(&sb), 1, sb.len, stdout);
		sbuf_release(&sb);
	}
	for (size_t i = 0; i < nfiles; i++) {
		if (p[i].outcome != ASSAY_OK)
			fprintf(stderr, "%s: %s (%s)\n", p[i].file, p[i].reason,
				assay_strerror(p[i].outcome));
		rc = assay_err_worst(rc, p[i].outcome);
	}
out:
	assay_rows_release(&rows);
	sbuf_release(&steps);
	free(p);
	json_decref(ctx);
	return rc;
}
