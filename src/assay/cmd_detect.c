/* assay detect: change points in stored series (or in one series from a
 * CSV file), and regression gates of new result files against the stored
 * history. Algorithm and options: docs/detect.md. Here the options and the
 * output; the detection over a store is the library's (assay_detect_store). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "assay/notify.h"
#include "cli.h"
#include "notify_cli.h"
#include "opt.h"
#include "store_cli.h"

/* One reported change with what the output needs. */
struct report {
	const char *key;      /* series key, or the input file */
	const json_t *fields; /* may be NULL (--input) */
	const char *unit;
	enum assay_direction dir;
	const struct assay_change_point *cp;
};

struct printer {
	const char *format;
	json_t *json;
	size_t changes, series, points;
	bool regression; /* an unacknowledged one */
	bool header;
	bool regressions_only; /* --regressions-only: print regressions, one line each */
	struct assay_notify_events *events; /* --notify: the events found, else NULL */
};

static const char *kind(const struct report *r)
{
	return assay_change_is_regression(&r->cp->c, r->dir) ? "regression" : "improvement";
}

/* The shortest text that reads back as d. */
static void shortest(double d, char *out, size_t size)
{
	struct sbuf sb = SBUF_INIT;
	json_t *v = json_real(d);
	assay_json_write(&sb, v, 0);
	json_decref(v);
	snprintf(out, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
}

static void print_json(struct printer *p, const struct report *r)
{
	const struct assay_change *c = &r->cp->c;
	json_t *o = json_pack(
	    "{s:s, s:O?, s:I, s:s?, s:s?, s:s?, s:f, s:f, s:f, s:f, s:I, s:I, s:f, s:f, s:s, "
	    "s:s?, s:s, s:s?}",
	    "series_key", r->key, "series", r->fields, "index", (json_int_t)c->index, "revision",
	    r->cp->revision, "previous_revision", r->cp->previous, "timestamp", r->cp->timestamp,
	    "mean_before", c->mean_before, "mean_after", c->mean_after, "stddev_before",
	    c->std_before, "stddev_after", c->std_after, "n_before", (json_int_t)c->n_before,
	    "n_after", (json_int_t)c->n_after, "change_percent", c->rel_change * 100, "pvalue",
	    c->pvalue, "kind", kind(r), "annotation", r->cp->annotation, "direction",
	    assay_direction_name(r->dir), "unit", r->unit);
	json_array_append_new(p->json, o);
}

static void print_csv(struct printer *p, const struct report *r)
{
	const struct assay_change *c = &r->cp->c;
	double nums[] = {c->mean_before, c->std_before,       c->mean_after,
			 c->std_after,   c->rel_change * 100, c->pvalue};
	char num[6][40];
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		shortest(nums[i], num[i], sizeof(num[i]));
	if (!p->header)
		printf("series_key,index,revision,previous_revision,timestamp,mean_before,"
		       "stddev_before,n_before,mean_after,stddev_after,n_after,change_percent,"
		       "pvalue,kind,annotation,direction,unit,series\n");
	p->header = true;
	store_cli_csv(stdout, r->key);
	printf(",%zu,", c->index);
	store_cli_csv(stdout, r->cp->revision);
	putchar(',');
	store_cli_csv(stdout, r->cp->previous);
	printf(",%s,%s,%s,%zu,%s,%s,%zu,%s,%s,%s,%s,%s,", r->cp->timestamp ? r->cp->timestamp : "",
	       num[0], num[1], c->n_before, num[2], num[3], c->n_after, num[4], num[5], kind(r),
	       r->cp->annotation ? r->cp->annotation : "", assay_direction_name(r->dir));
	store_cli_csv(stdout, r->unit);
	putchar(',');
	if (r->fields) {
		char *t = assay_json_canonical(r->fields);
		store_cli_csv(stdout, t);
		free(t);
	}
	putchar('\n');
}

static void print_table(struct printer *p, const struct report *r)
{
	const struct assay_change *c = &r->cp->c;
	const char *ann = r->cp->annotation;
	char label[1024] = "";
	if (!r->fields)
		snprintf(label, sizeof(label), "%s", r->key);
	if (r->fields) {
		struct sbuf sb = SBUF_INIT;
		store_cli_series_label(r->fields, &sb);
		snprintf(label, sizeof(label), "%s", sbuf_str(&sb));
		sbuf_release(&sb);
	}
	if (!p->header)
		printf("%-12s %5s %-10s %-10s %-24s %-24s %9s %8s  %s\n", "series", "point",
		       "revision", "previous", "before: mean sd n", "after: mean sd n", "change",
		       "p-value", "kind");
	p->header = true;
	char before[64], after[64], k[64];
	snprintf(before, sizeof(before), "%.6g %.3g %zu", c->mean_before, c->std_before,
		 c->n_before);
	snprintf(after, sizeof(after), "%.6g %.3g %zu", c->mean_after, c->std_after, c->n_after);
	snprintf(k, sizeof(k), "%s%s%s%s", kind(r), ann ? " (" : "", ann ? ann : "",
		 ann ? ")" : "");
	printf("%-12.12s %5zu %-10.10s %-10.10s %-24s %-24s %+8.2f%% %8.2g  %s%s%s\n",
	       r->fields ? r->key : "-", c->index, r->cp->revision ? r->cp->revision : "-",
	       r->cp->previous ? r->cp->previous : "-", before, after, c->rel_change * 100,
	       c->pvalue, k, label[0] ? "  " : "", label);
}

/* --regressions-only, as a table: "metric: before -> after (-x%)", where,
 * and the series as the table names it. */
static void print_regression(const struct report *r)
{
	const struct assay_change *c = &r->cp->c;
	const json_t *metric = r->fields ? json_object_get(r->fields, "metric") : NULL;
	const char *ann = r->cp->annotation;
	printf("%s: %.6g -> %.6g (%+.2f%%%s%s)  at %s (after %s)",
	       json_is_string(metric) ? json_string_value(metric) : r->key, c->mean_before,
	       c->mean_after, c->rel_change * 100, ann ? ", " : "", ann ? ann : "",
	       r->cp->revision ? r->cp->revision : "-", r->cp->previous ? r->cp->previous : "-");
	if (r->fields) {
		struct sbuf sb = SBUF_INIT;
		store_cli_series_label(r->fields, &sb);
		printf("  %.12s %s", r->key, sbuf_str(&sb));
		sbuf_release(&sb);
	}
	putchar('\n');
}

static void print_report(struct printer *p, const struct report *r)
{
	bool regression = !strcmp(kind(r), "regression");
	if (p->regressions_only && !regression)
		return;
	p->changes++;
	if (regression && !r->cp->annotation)
		p->regression = true;
	if (p->regressions_only && !strcmp(p->format, "table"))
		print_regression(r);
	else if (!strcmp(p->format, "json"))
		print_json(p, r);
	else if (!strcmp(p->format, "csv"))
		print_csv(p, r);
	else
		print_table(p, r);
}

static int finish_print(struct printer *p, bool fail_on_regression)
{
	if (!strcmp(p->format, "json")) {
		char *t = assay_json_dumps(p->json, ASSAY_JSON_PRETTY);
		printf("%s\n", t);
		free(t);
	} else if (!strcmp(p->format, "table")) {
		printf("%s%zu %s%s in %zu series (%zu points)\n", p->changes ? "\n" : "",
		       p->changes, p->regressions_only ? "regression" : "change point",
		       p->changes == 1 ? "" : "s", p->series, p->points);
	}
	return fail_on_regression && p->regression ? ASSAY_GATE_FAILED : ASSAY_OK;
}

/* Print one series' change points. */
static void print_series(struct printer *p, const char *key, const json_t *fields, const char *unit,
			 enum assay_direction dir, const struct assay_change_points *cp)
{
	p->series++;
	p->points += cp->points;
	for (size_t i = 0; i < cp->n; i++) {
		struct report r = {key, fields, unit, dir, &cp->v[i]};
		print_report(p, &r);
	}
}

static int detect_input(struct printer *p, const struct assay_detect_opts *o, const char *file,
			enum assay_direction dir)
{
	struct assay_error e;
	size_t len;
	char *data = assay_read_file(file, &len, &e);
	if (!data)
		return cli_report(&e);
	struct assay_points pts = {0};
	assay_err rc = assay_detect_read_csv(data, len, file, &pts, &e);
	free(data);
	if (rc != ASSAY_OK)
		return cli_report(&e);
	struct assay_change_points cp = {0};
	if (assay_detect_points(&pts, NULL, o, &cp, &e) == ASSAY_OK) {
		print_series(p, file, NULL, "value", dir, &cp);
	} else {
		fprintf(stderr, "%s: %s\n", file, e.message);
		rc = ASSAY_USAGE;
	}
	assay_change_points_release(&cp);
	assay_points_release(&pts);
	return rc;
}

/* A stored series' change points, printed as the library hands them over
 * (in order); the fields are parsed for the series that report changes only. */
static int print_stored(void *ctx, struct assay_series_info *si,
			const struct assay_change_points *cp)
{
	const json_t *fields = cp->n ? assay_series_fields(si) : si->fields;
	struct printer *p = ctx;
	print_series(p, si->key, fields, si->unit, si->direction, cp);
	if (p->events)
		assay_notify_from_changes(p->events, si->key, fields, si->unit, si->direction, cp);
	return ASSAY_OK;
}

static int detect_store(struct printer *p, const struct assay_detect_opts *o, struct store_cli *sc)
{
	struct assay_store *s;
	struct assay_series_list l = {0};
	struct assay_error e;
	sc->filter.bare = true; /* a series without points is passed over */
	int rc = store_cli_open_series(sc, false, &s, &l);
	if (rc != ASSAY_OK)
		return rc;
	if (assay_detect_store(s, &l, &sc->filter, o, print_stored, p, &e) != ASSAY_OK)
		rc = cli_report(&e);
	assay_series_list_release(&l);
	return store_cli_close(s, rc);
}

/* --gate NAMES into the gates of c; the exit code of a bad name, or 0. */
static int gate_names(const char *gates, struct assay_gate_config *c)
{
	struct strlist names = STRLIST_INIT;
	int rc = ASSAY_OK;
	cli_split_list(&names, gates);
	c->changepoint = c->rolling_mean = false;
	for (size_t i = 0; rc == ASSAY_OK && i < names.n; i++) {
		if (!strcmp(names.v[i], "changepoint"))
			c->changepoint = true;
		else if (!strcmp(names.v[i], "rolling-mean"))
			c->rolling_mean = true;
		else
			rc = cli_usage_error("detect",
					     "--gate '%s': expected changepoint or "
					     "rolling-mean (ab is a library gate)",
					     names.v[i]);
	}
	strlist_clear(&names);
	return rc;
}

/* A failed verdict as a gate-failed event (--notify). */
static void verdict_event(struct assay_notify_events *ev, const struct assay_regression *vd,
			  const struct assay_row *row)
{
	if (!ev || vd->outcome != ASSAY_GATE_FAILED)
		return;
	char key[80];
	snprintf(key, sizeof(key), "%s/%s", vd->series_key, vd->gate);
	struct assay_notify_event *x =
	    assay_notify_add(ev, ASSAY_NOTIFY_GATE_FAILED, key, row->revision, vd->message);
	free(x->series_key);
	x->series_key = xstrdup(vd->series_key);
	x->series = json_incref(row->series);
	x->unit = row->unit ? xstrdup(row->unit) : NULL;
	x->direction = row->direction;
	x->timestamp = row->timestamp ? xstrdup(row->timestamp) : NULL;
}

/* The verdicts from..v->n of one file's rows: a line each, or JSON into arr. */
static void print_verdicts(const struct parsed_file *pf, const struct assay_regressions *v,
			   size_t from, size_t per, bool json, json_t *arr,
			   struct assay_notify_events *ev)
{
	for (size_t j = from; j < v->n; j++) {
		const struct assay_regression *vd = &v->v[j];
		const struct assay_row *row = &pf->rows.v[(j - from) / per];
		verdict_event(ev, vd, row);
		const char *status = vd->outcome == ASSAY_GATE_FAILED ? "FAIL"
				     : vd->acked                      ? "ack"
				     : vd->insufficient               ? "skip"
								      : "pass";
		if (json) {
			json_array_append_new(
			    arr,
			    json_pack("{s:s, s:s, s:O, s:s, s:s, s:f, s:s, s:b, s:b}", "file",
				      pf->path, "series_key", vd->series_key, "series", row->series,
				      "gate", vd->gate, "outcome", assay_strerror(vd->outcome),
				      "change", vd->change, "message", vd->message, "acked",
				      vd->acked, "insufficient", vd->insufficient));
			continue;
		}
		struct sbuf sb = SBUF_INIT;
		store_cli_series_label(row->series, &sb);
		printf("%-4s %-12s %.12s %s: %s\n", status, vd->gate, vd->series_key, sbuf_str(&sb),
		       vd->message);
		sbuf_release(&sb);
	}
}

static int gate_files(const char *gates, const struct assay_gate_config *base, struct store_cli *sc,
		      const struct parse_cli *pc, int nfiles, char **files, const char *format,
		      struct assay_notify_events *ev)
{
	struct assay_gate_config c = *base;
	if (gate_names(gates, &c) != ASSAY_OK)
		return ASSAY_USAGE;
	if (nfiles < 1)
		return cli_usage_error("detect", "--gate: expected one or more result files");
	if (!strcmp(format, "csv"))
		return cli_usage_error("detect", "--gate: --format must be table or json");
	struct parsed_file *pf = xcalloc((size_t)nfiles, sizeof(*pf));
	int rc = ASSAY_OK;
	for (int i = 0; rc == ASSAY_OK && i < nfiles; i++) {
		pf[i].path = files[i];
		rc = parse_cli_file("detect", pc, &pf[i]);
	}
	struct assay_store *s = NULL;
	if (rc == ASSAY_OK)
		rc = store_cli_open(sc, false, &s);
	json_t *arr = json_array();
	struct assay_regressions v = {0};
	for (int i = 0; s && rc == ASSAY_OK && i < nfiles; i++) {
		struct assay_error e;
		size_t from = v.n;
		if (assay_gate_history(s, &pf[i].rows, &c, &v, &e) != ASSAY_OK) {
			rc = cli_report(&e);
			break;
		}
		/* Verdicts come in row order, one per enabled gate. */
		size_t per = (size_t)c.changepoint + (size_t)c.rolling_mean;
		print_verdicts(&pf[i], &v, from, per, !strcmp(format, "json"), arr, ev);
	}
	if (rc == ASSAY_OK) {
		if (!strcmp(format, "json")) {
			char *t = assay_json_dumps(arr, ASSAY_JSON_PRETTY);
			printf("%s\n", t);
			free(t);
		}
		rc = assay_regressions_outcome(&v);
	}
	json_decref(arr);
	assay_regressions_release(&v);
	for (int i = 0; i < nfiles; i++)
		assay_rows_release(&pf[i].rows);
	free(pf);
	return s ? store_cli_close(s, rc) : rc;
}

struct detect_args {
	struct store_cli sc;
	struct parse_cli pc;
	struct assay_gate_config gc;
	struct notify_cli nc;
	const char *input, *format, *gates;
	double window, pvalue, magnitude, segment; /* < 0 (or 0): not given */
	enum assay_direction dir;
	bool compat, fail, regressions_only;
};

static bool parse_num(const char *s, double lo, double hi, double *out)
{
	return assay_parse_double(s, out) && *out >= lo && *out <= hi;
}

static int opt_direction(void *args, const char *arg, const char *cmd)
{
	int d = assay_direction_parse(arg);
	if (d < 0)
		return cli_usage_error(cmd, "--direction '%s': expected higher or lower", arg);
	((struct detect_args *)args)->dir = (enum assay_direction)d;
	return ASSAY_OK;
}

static int opt_window(void *args, const char *arg, const char *cmd)
{
	double *v = &((struct detect_args *)args)->window;
	if (!parse_num(arg, 2, 1000, v) || *v != floor(*v))
		return cli_usage_error(cmd, "--window '%s': expected an integer from 2 to 1000",
				       arg);
	return ASSAY_OK;
}

static int opt_pvalue(void *args, const char *arg, const char *cmd)
{
	if (!parse_num(arg, 1e-300, 1, &((struct detect_args *)args)->pvalue))
		return cli_usage_error(cmd, "--max-pvalue '%s': expected a number in (0, 1]", arg);
	return ASSAY_OK;
}

static int opt_magnitude(void *args, const char *arg, const char *cmd)
{
	if (!parse_num(arg, 0, 1e300, &((struct detect_args *)args)->magnitude))
		return cli_usage_error(
		    cmd, "--min-magnitude '%s': expected a number >= 0 (0.02 is 2%%)", arg);
	return ASSAY_OK;
}

static int opt_segment(void *args, const char *arg, const char *cmd)
{
	double *v = &((struct detect_args *)args)->segment;
	if (!parse_num(arg, 1, 1000, v) || *v != floor(*v))
		return cli_usage_error(
		    cmd, "--min-segment '%s': expected an integer from 1 to 1000", arg);
	return ASSAY_OK;
}

static int fraction(const char *cmd, const char *name, const char *arg, double *out)
{
	if (!parse_num(arg, 0, 1e300, out))
		return cli_usage_error(cmd, "--%s '%s': expected a fraction >= 0 (0.02 is 2%%)",
				       name, arg);
	return ASSAY_OK;
}

static int opt_threshold(void *args, const char *arg, const char *cmd)
{
	return fraction(cmd, "threshold", arg, &((struct detect_args *)args)->gc.cp_threshold);
}

static int opt_train(void *args, const char *arg, const char *cmd)
{
	return fraction(cmd, "train-threshold", arg,
			&((struct detect_args *)args)->gc.rm_train_threshold);
}

static int opt_infer(void *args, const char *arg, const char *cmd)
{
	return fraction(cmd, "infer-threshold", arg,
			&((struct detect_args *)args)->gc.rm_infer_threshold);
}

#define CALL(n, a, f, h)                                                                           \
	{                                                                                          \
		.type = CLI_CALL, .name = n, .arg = a, .call = f, .help = h                        \
	}

static const char *const formats[] = {"table", "json", "csv", NULL};

static const struct cli_opt detect_opts[] = {
    CLI_OPT_GROUP("filters (stored series)"),
    CLI_OPT_TABLE(store_cli_opts, struct detect_args, sc),
    CLI_OPT_GROUP("one series from a CSV"),
    CLI_OPT_STRING("input", "FILE.csv", struct detect_args, input,
		   "read one series from FILE.csv (header revision,value or\n"
		   "revision,timestamp,value; oldest first) instead of the store"),
    CALL("direction", "D", opt_direction, "higher or lower: which way is better for --input"),
    CLI_OPT_GROUP("detection (defaults for CI use)"),
    CALL("window", "N", opt_window, "window length, 2 to 1000 (default: 50)"),
    CALL("max-pvalue", "P", opt_pvalue, "significance (default: 1e-4)"),
    CALL("min-magnitude", "M", opt_magnitude,
	 "smallest relative change kept, e.g. 0.02 (default: 0)"),
    CALL("min-segment", "N", opt_segment,
	 "shortest run of points between changes kept (default: 5)"),
    CLI_OPT_FLAG("otava-compat", struct detect_args, compat,
		 "Apache Otava's exact algorithm; defaults become its own\n"
		 "(window 50, max p-value 0.001, min magnitude 0)"),
    CLI_OPT_FLAG("fail-on-regression", struct detect_args, fail,
		 "exit 1 when an unacknowledged regression is reported"),
    CLI_OPT_GROUP("output"),
    CLI_OPT_FLAG("regressions-only", struct detect_args, regressions_only,
		 "only changes for the worse (the series' direction), the table as one line\n"
		 "each: METRIC: BEFORE -> AFTER (-X%) at REVISION, then the series"),
    CLI_OPT_FORMAT(struct detect_args, format,
		   "what is printed: table, json or csv (--gate: table or json)", "table", formats),
    CLI_OPT_JSON,
    CLI_OPT_GROUP("gates of result files against the stored history"),
    CLI_OPT_STRING("gate", "G", struct detect_args, gates,
		   "changepoint, rolling-mean or both (comma-separated): gate FILEs"),
    CALL("threshold", "F", opt_threshold,
	 "changepoint: the smallest |change| that fails (default: 0)"),
    CALL("train-threshold", "F", opt_train, "rolling-mean, training rows (default: 0.02)"),
    CALL("infer-threshold", "F", opt_infer, "rolling-mean, other rows (default: 0.05)"),
    CLI_OPT_GROUP("reading the gate FILEs (as for assay store ingest)"),
    CLI_OPT_TABLE(parse_cli_opts, struct detect_args, pc),
    CLI_OPT_GROUP("notifications (stored series and --gate; docs/notify.md)"),
    CLI_OPT_TABLE(notify_cli_opts, struct detect_args, nc),
    CLI_OPT_END,
};

const struct cli_spec cmd_detect_spec = {
    .name = "detect",
    .usage = "assay detect [--store PATH] [filters] [detection] [--format table|json|csv]\n"
	     "assay detect --input FILE.csv [--direction higher|lower] [detection] [--format F]\n"
	     "assay detect --gate changepoint,rolling-mean [--store PATH] [gates] [input] FILE...",
    .about = "Find change points (E-divisive means, Otava flavour) in every stored series that\n"
	     "the filters select, or in one series read from a CSV with the header\n"
	     "revision,value or revision,timestamp,value. Each change is reported with the\n"
	     "revision that starts the new regime and the last of the old, mean, stddev and n\n"
	     "either side, percent change, p-value, and whether it is a regression for the\n"
	     "metric's direction. Points whose revision is annotated `ignore` are left out.\n"
	     "\n"
	     "With --gate, gate the rows of result FILEs (any ingest format) against the stored\n"
	     "history of their series instead, as `assay run` does for a new case: changepoint\n"
	     "fails while the newest regime is a regression started by a change point;\n"
	     "rolling-mean fails beyond -2% (training) or -5% (inference) of the mean of the\n"
	     "last 5 earlier points (at least 3 needed). An `ack` annotation lets a known\n"
	     "change pass (assay store annotate). Nothing is written.\n",
    .opts = detect_opts,
    .examples =
	"assay detect --match workload=llama3-70b-pretrain\n"
	"assay detect --input tigerbeetle.csv --otava-compat --window 30 --max-pvalue 0.01\n"
	"assay detect --gate rolling-mean --cluster mi300x-a new/perf.csv",
    .exits =
	"Exit codes: 0 reported, 1 a gate failed (or a regression with --fail-on-regression),\n"
	"2 bad arguments or input, 5 the store failed. See docs/detect.md.\n",
    .min_args = 0,
    .max_args = -1,
    .args_what = "result file",
};

/* The combinations of options that do not go together; a usage message or NULL. */
static const char *conflict(const struct detect_args *a, int nfiles)
{
	const struct assay_series_filter *f = &a->sc.filter;
	if (a->input && a->gates)
		return "--input and --gate cannot be combined";
	if (a->input && (a->nc.file || a->nc.required))
		return "--notify applies to stored series and --gate, not to --input";
	if (a->gates && a->regressions_only)
		return "--regressions-only applies to change points, not to --gate";
	if (a->input && (f->keys.n || f->match.n || f->since || f->until || f->last))
		return "--input reads one series: --series, --match, --since, --until and --last "
		       "do "
		       "not apply";
	if (!a->gates && parse_cli_given(&a->pc))
		return "--input-format, --cluster, --scale, --precision, --set, --revision and "
		       "--*-is-better apply to --gate files";
	if (!a->gates && nfiles)
		return "";
	if (a->compat && a->segment > 1)
		return "--min-segment is not part of --otava-compat";
	return NULL;
}

/* Send the events found (an infra event when the store failed); rc or 5. */
static int notify_detect(struct detect_args *a, struct assay_notify_events *ev, int rc)
{
	if (!a->nc.loaded || rc == ASSAY_USAGE)
		return rc;
	if (rc == ASSAY_INFRA) {
		char now[32];
		assay_now_rfc3339(now);
		assay_notify_add(ev, ASSAY_NOTIFY_INFRA, NULL, now,
				 "assay detect ended with exit 5 (infrastructure): see its log");
	}
	struct assay_notify_context ctx = {"detect", NULL};
	const char *path = a->sc.path ? a->sc.path : ASSAY_STORE_DEFAULT_PATH;
	return notify_cli_send(&a->nc, path, ev, &ctx, rc);
}

int cmd_detect(int argc, char **argv)
{
	struct detect_args a = {.format = "table",
				.window = -1,
				.pvalue = -1,
				.magnitude = -1,
				.segment = -1,
				.dir = ASSAY_DIR_HIGHER};
	parse_cli_init(&a.pc);
	assay_gate_defaults(&a.gc);
	int first, rc = cli_parse(&cmd_detect_spec, argc, argv, &a, &first);
	const char *why = rc ? NULL : conflict(&a, argc - first);
	if (why && *why)
		rc = cli_usage_error("detect", "%s", why);
	else if (why)
		rc = cli_usage_error("detect", "unexpected argument '%s' (files are for --gate)",
				     argv[first]);
	struct assay_detect_opts *o = &a.gc.detect;
	if (a.compat)
		assay_detect_otava_defaults(o);
	if (a.window > 0)
		o->window = (int)a.window;
	if (a.pvalue > 0)
		o->max_pvalue = a.pvalue;
	if (a.magnitude >= 0)
		o->min_magnitude = a.magnitude;
	if (a.segment > 0)
		o->min_segment = (int)a.segment;
	if (rc == ASSAY_OK)
		rc = notify_cli_load("detect", &a.nc, !a.input);
	struct assay_notify_events ev = {0}, *evp = a.nc.loaded ? &ev : NULL;
	if (rc == ASSAY_OK && a.gates) {
		rc = gate_files(a.gates, &a.gc, &a.sc, &a.pc, argc - first, argv + first, a.format,
				evp);
	} else if (rc == ASSAY_OK) {
		struct printer p = {.format = a.format,
				    .json = json_array(),
				    .regressions_only = a.regressions_only,
				    .events = evp};
		rc = a.input ? detect_input(&p, o, a.input, a.dir) : detect_store(&p, o, &a.sc);
		if (rc == ASSAY_OK)
			rc = finish_print(&p, a.fail);
		json_decref(p.json);
	}
	rc = notify_detect(&a, &ev, rc);
	assay_notify_events_release(&ev);
	notify_cli_release(&a.nc);
	parse_cli_release(&a.pc);
	store_cli_release(&a.sc);
	return rc < 0 ? ASSAY_OK : rc;
}
