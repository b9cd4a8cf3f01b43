/* assay detect: change points in stored series (or in one series from a
 * CSV file), and regression gates of new result files against the stored
 * history. Algorithm and options: docs/detect.md. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "cli.h"
#include "store_cli.h"

const char cmd_detect_help[] =
    "usage: assay detect [--store PATH] [filters] [detection] [--format table|json|csv]\n"
    "       assay detect --input FILE.csv [--direction higher|lower] [detection] [--format F]\n"
    "       assay detect --gate changepoint,rolling-mean [--store PATH] [gates] [input] FILE...\n"
    "\n"
    "Find change points (E-divisive means, Otava flavour) in every stored series that\n"
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
    "change pass (assay store annotate). Nothing is written.\n"
    "\n"
    "filters: --series KEY[,KEY]  --match FIELD=VALUE  --since DATE\n"
    "detection (defaults for CI use):\n"
    "  --window N           window length (50)\n"
    "  --max-pvalue P       significance (1e-4)\n"
    "  --min-magnitude M    smallest relative change kept, e.g. 0.02 (0)\n"
    "  --min-segment N      shortest run of points between changes kept (5)\n"
    "  --otava-compat       Apache Otava's exact algorithm; defaults become its own\n"
    "                       (window 50, max p-value 0.001, min magnitude 0)\n"
    "  --fail-on-regression exit 1 when an unacknowledged regression is reported\n"
    "gates: --threshold F (changepoint: smallest |change| that fails, 0),\n"
    "       --train-threshold F (0.02), --infer-threshold F (0.05)\n"
    "input (gate files): --input-format F --cluster NAME --scale NxG --precision P\n"
    "       --set FIELD=VALUE --revision R (as for assay store ingest)\n"
    "\n"
    "examples:\n"
    "  assay detect --match workload=llama3-70b-pretrain\n"
    "  assay detect --input tigerbeetle.csv --otava-compat --window 30 --max-pvalue 0.01\n"
    "  assay detect --gate rolling-mean --cluster mi300x-a new/perf.csv\n"
    "\n"
    "Exit codes: 0 reported, 1 a gate failed (or a regression with --fail-on-regression),\n"
    "2 bad arguments or input, 5 the store failed. See docs/detect.md.\n";

enum {
	D_INPUT = PO_NEXT,
	D_DIRECTION,
	D_WINDOW,
	D_PVALUE,
	D_MAGNITUDE,
	D_SEGMENT,
	D_COMPAT,
	D_FORMAT,
	D_FAIL,
	D_GATE,
	D_THRESHOLD,
	D_TRAIN,
	D_INFER,
};

/* One reported change with what the output needs. */
struct report {
	const char *key;      /* series key, or the input file */
	const json_t *fields; /* may be NULL (--input) */
	const char *unit;
	enum assay_direction dir;
	struct assay_change c;
	const char *revision, *previous, *timestamp;
	const char *annotation; /* "ack", "expected" or NULL */
};

struct printer {
	const char *format;
	json_t *json;
	size_t changes, series, points;
	bool regression; /* an unacknowledged one */
	bool header;
};

static const char *kind(const struct report *r)
{
	return assay_change_is_regression(&r->c, r->dir) ? "regression" : "improvement";
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

static void print_report(struct printer *p, const struct report *r)
{
	p->changes++;
	if (!strcmp(kind(r), "regression") && !r->annotation)
		p->regression = true;
	char label[1024] = "";
	if (!r->fields)
		snprintf(label, sizeof(label), "%s", r->key);
	if (r->fields) {
		struct sbuf sb = SBUF_INIT;
		store_cli_series_label(r->fields, &sb);
		snprintf(label, sizeof(label), "%s", sbuf_str(&sb));
		sbuf_release(&sb);
	}
	if (!strcmp(p->format, "json")) {
		json_t *o = json_pack(
		    "{s:s, s:O?, s:I, s:s?, s:s?, s:s?, s:f, s:f, s:f, s:f, s:I, s:I, s:f, s:f, "
		    "s:s, "
		    "s:s?, s:s, s:s?}",
		    "series_key", r->key, "series", r->fields, "index", (json_int_t)r->c.index,
		    "revision", r->revision, "previous_revision", r->previous, "timestamp",
		    r->timestamp, "mean_before", r->c.mean_before, "mean_after", r->c.mean_after,
		    "stddev_before", r->c.std_before, "stddev_after", r->c.std_after, "n_before",
		    (json_int_t)r->c.n_before, "n_after", (json_int_t)r->c.n_after,
		    "change_percent", r->c.rel_change * 100, "pvalue", r->c.pvalue, "kind", kind(r),
		    "annotation", r->annotation, "direction", assay_direction_name(r->dir), "unit",
		    r->unit);
		json_array_append_new(p->json, o);
		return;
	}
	if (!strcmp(p->format, "csv")) {
		double nums[] = {r->c.mean_before, r->c.std_before,       r->c.mean_after,
				 r->c.std_after,   r->c.rel_change * 100, r->c.pvalue};
		char num[6][40];
		for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
			shortest(nums[i], num[i], sizeof(num[i]));
		if (!p->header)
			printf(
			    "series_key,index,revision,previous_revision,timestamp,mean_before,"
			    "stddev_before,n_before,mean_after,stddev_after,n_after,change_percent,"
			    "pvalue,kind,annotation,direction,unit,series\n");
		p->header = true;
		store_cli_csv(stdout, r->key);
		printf(",%zu,", r->c.index);
		store_cli_csv(stdout, r->revision);
		putchar(',');
		store_cli_csv(stdout, r->previous);
		printf(",%s,%s,%s,%zu,%s,%s,%zu,%s,%s,%s,%s,%s,", r->timestamp ? r->timestamp : "",
		       num[0], num[1], r->c.n_before, num[2], num[3], r->c.n_after, num[4], num[5],
		       kind(r), r->annotation ? r->annotation : "", assay_direction_name(r->dir));
		store_cli_csv(stdout, r->unit);
		putchar(',');
		if (r->fields) {
			char *t = assay_json_canonical(r->fields);
			store_cli_csv(stdout, t);
			free(t);
		}
		putchar('\n');
		return;
	}
	if (!p->header)
		printf("%-12s %5s %-10s %-10s %-24s %-24s %9s %8s  %s\n", "series", "point",
		       "revision", "previous", "before: mean sd n", "after: mean sd n", "change",
		       "p-value", "kind");
	p->header = true;
	char before[64], after[64], k[64];
	snprintf(before, sizeof(before), "%.6g %.3g %zu", r->c.mean_before, r->c.std_before,
		 r->c.n_before);
	snprintf(after, sizeof(after), "%.6g %.3g %zu", r->c.mean_after, r->c.std_after,
		 r->c.n_after);
	snprintf(k, sizeof(k), "%s%s%s%s", kind(r), r->annotation ? " (" : "",
		 r->annotation ? r->annotation : "", r->annotation ? ")" : "");
	printf("%-12.12s %5zu %-10.10s %-10.10s %-24s %-24s %+8.2f%% %8.2g  %s%s%s\n",
	       r->fields ? r->key : "-", r->c.index, r->revision ? r->revision : "-",
	       r->previous ? r->previous : "-", before, after, r->c.rel_change * 100, r->c.pvalue,
	       k, label[0] ? "  " : "", label);
}

static int finish_print(struct printer *p, bool fail_on_regression)
{
	if (!strcmp(p->format, "json")) {
		char *t = assay_json_dumps(p->json, ASSAY_JSON_PRETTY);
		printf("%s\n", t);
		free(t);
	} else if (!strcmp(p->format, "table")) {
		printf("%s%zu change point%s in %zu series (%zu points)\n", p->changes ? "\n" : "",
		       p->changes, p->changes == 1 ? "" : "s", p->series, p->points);
	}
	return fail_on_regression && p->regression ? ASSAY_GATE_FAILED : ASSAY_OK;
}

/* One series on its way through detection: its points (those annotated
 * ignore left out of x), and the changes found. */
struct series_job {
	const struct assay_points *pts;
	const struct assay_annotations *ann;
	const struct assay_detect_opts *o;
	double *x;
	size_t *idx, n;
	struct assay_changes ch;
	assay_err rc;
	char err[512];
};

static void job_prepare(struct series_job *j)
{
	const struct assay_points *pts = j->pts;
	j->x = xmalloc((pts->n + 1) * sizeof(*j->x));
	j->idx = xmalloc((pts->n + 1) * sizeof(*j->idx));
	j->n = 0;
	for (size_t i = 0; i < pts->n; i++) {
		const char *rev = pts->v[i].revision;
		if (j->ann && rev && assay_annotations_has(j->ann, rev, ASSAY_ANN_IGNORE))
			continue;
		j->idx[j->n] = i;
		j->x[j->n++] = pts->v[i].value;
	}
}

/* The detection itself: pure computation, safe on any thread. */
static void job_detect(struct series_job *j)
{
	struct assay_error e;
	j->rc = assay_detect(j->x, j->n, j->o, &j->ch, &e);
	if (j->rc != ASSAY_OK)
		snprintf(j->err, sizeof(j->err), "%s", e.message);
}

/* Print a detected series' changes and release the job. */
static int job_print(struct printer *p, struct series_job *j, const char *key, const json_t *fields,
		     const char *unit, enum assay_direction dir)
{
	int rc = ASSAY_OK;
	if (j->rc != ASSAY_OK) {
		fprintf(stderr, "%s: %s\n", key, j->err);
		rc = ASSAY_USAGE;
	}
	p->series++;
	p->points += j->n;
	const struct assay_points *pts = j->pts;
	const struct assay_annotations *ann = j->ann;
	for (size_t i = 0; rc == ASSAY_OK && i < j->ch.n; i++) {
		const struct assay_point *now = &pts->v[j->idx[j->ch.v[i].index]];
		const struct assay_point *before = &pts->v[j->idx[j->ch.v[i].index - 1]];
		struct report r = {key,           fields,           unit,           dir, j->ch.v[i],
				   now->revision, before->revision, now->timestamp, NULL};
		r.c.index = j->idx[j->ch.v[i].index]; /* position in the stored series */
		if (ann && now->revision) {
			if (assay_annotations_has(ann, now->revision, ASSAY_ANN_ACK))
				r.annotation = "ack";
			else if (assay_annotations_has(ann, now->revision, ASSAY_ANN_EXPECTED))
				r.annotation = "expected";
		}
		print_report(p, &r);
	}
	assay_changes_release(&j->ch);
	free(j->x);
	free(j->idx);
	j->x = NULL;
	j->idx = NULL;
	return rc;
}

/* Detect on one series' points and print its changes. */
static int detect_points(struct printer *p, const struct assay_detect_opts *o,
			 const struct assay_points *pts, const char *key, const json_t *fields,
			 const char *unit, enum assay_direction dir,
			 const struct assay_annotations *ann)
{
	struct series_job j = {.pts = pts, .ann = ann, .o = o};
	job_prepare(&j);
	job_detect(&j);
	return job_print(p, &j, key, fields, unit, dir);
}

/* Detection threads: each takes the next job of the batch until none is left. */
struct job_pool {
	struct series_job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
};

static void *job_worker(void *arg)
{
	struct job_pool *jp = arg;
	for (;;) {
		pthread_mutex_lock(&jp->lock);
		size_t i = jp->next++;
		pthread_mutex_unlock(&jp->lock);
		if (i >= jp->n)
			return NULL;
		job_detect(&jp->jobs[i]);
	}
}

static void detect_batch(struct series_job *jobs, size_t n, int nthreads)
{
	struct job_pool jp = {jobs, n, 0, PTHREAD_MUTEX_INITIALIZER};
	pthread_t th[64];
	int started = 0;
	for (int t = 1; t < nthreads && t < 64 && (size_t)t < n; t++)
		if (pthread_create(&th[started], NULL, job_worker, &jp) == 0)
			started++;
	job_worker(&jp); /* this thread works too */
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&jp.lock);
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
	int out = detect_points(p, o, &pts, file, NULL, "value", dir, NULL);
	assay_points_release(&pts);
	return out;
}

/* Series are read (from the series index alone) and printed in order on
 * this thread, a batch at a time; the batch is detected on every CPU. */
#define DETECT_BATCH 512

static int detect_store(struct printer *p, const struct assay_detect_opts *o, struct store_cli *sc)
{
	struct assay_store *s;
	struct assay_series_list l = {0};
	struct assay_error e;
	int rc = store_cli_open_series(sc, false, &s, &l);
	if (rc != ASSAY_OK)
		return rc;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = cpus > 1 ? (int)(cpus < 64 ? cpus : 64) : 1;
	struct assay_points *pts = xcalloc(DETECT_BATCH, sizeof(*pts));
	struct assay_annotations *ann = xcalloc(DETECT_BATCH, sizeof(*ann));
	struct series_job *jobs = xcalloc(DETECT_BATCH, sizeof(*jobs));
	for (size_t base = 0; rc == ASSAY_OK && base < l.n; base += DETECT_BATCH) {
		size_t n = l.n - base < DETECT_BATCH ? l.n - base : DETECT_BATCH, got = 0;
		for (; got < n; got++) {
			const char *key = l.v[base + got].key;
			if (assay_store_series_values(s, key, sc->filter.since, &pts[got], &e) !=
				ASSAY_OK ||
			    assay_store_annotations(s, key, &ann[got], &e) != ASSAY_OK) {
				rc = cli_report(&e);
				break;
			}
			jobs[got] = (struct series_job){.pts = &pts[got], .ann = &ann[got], .o = o};
			job_prepare(&jobs[got]);
		}
		if (rc == ASSAY_OK)
			detect_batch(jobs, n, nthreads);
		for (size_t i = 0; i < got; i++) {
			const struct assay_series_info *si = &l.v[base + i];
			if (rc == ASSAY_OK)
				rc = job_print(p, &jobs[i], si->key, si->fields, si->unit,
					       si->direction);
			assay_changes_release(&jobs[i].ch);
			free(jobs[i].x);
			free(jobs[i].idx);
			assay_points_release(&pts[i]);
			assay_annotations_release(&ann[i]);
		}
		if (got < n) {
			assay_points_release(&pts[got]);
			assay_annotations_release(&ann[got]);
		}
	}
	free(jobs);
	free(pts);
	free(ann);
	assay_series_list_release(&l);
	return store_cli_close(s, rc);
}

static int gate_files(const char *gates, const struct assay_gate_config *base, struct store_cli *sc,
		      const struct parse_cli *pc, int nfiles, char **files, const char *format)
{
	struct assay_gate_config c = *base;
	struct strlist names = STRLIST_INIT;
	cli_split_list(&names, gates);
	c.changepoint = c.rolling_mean = false;
	for (size_t i = 0; i < names.n; i++) {
		if (!strcmp(names.v[i], "changepoint")) {
			c.changepoint = true;
		} else if (!strcmp(names.v[i], "rolling-mean")) {
			c.rolling_mean = true;
		} else {
			int rc = cli_usage_error("detect",
						 "--gate '%s': expected changepoint or "
						 "rolling-mean (ab is a library gate)",
						 names.v[i]);
			strlist_clear(&names);
			return rc;
		}
	}
	strlist_clear(&names);
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
		for (size_t j = from; j < v.n; j++) {
			const struct assay_regression *vd = &v.v[j];
			const struct assay_row *row = &pf[i].rows.v[(j - from) / per];
			const char *status = vd->outcome == ASSAY_GATE_FAILED ? "FAIL"
					     : vd->acked                      ? "ack"
					     : vd->insufficient               ? "skip"
									      : "pass";
			if (!strcmp(format, "json")) {
				json_array_append_new(
				    arr, json_pack("{s:s, s:s, s:O, s:s, s:s, s:f, s:s, s:b, s:b}",
						   "file", pf[i].path, "series_key", vd->series_key,
						   "series", row->series, "gate", vd->gate,
						   "outcome", assay_strerror(vd->outcome), "change",
						   vd->change, "message", vd->message, "acked",
						   vd->acked, "insufficient", vd->insufficient));
				continue;
			}
			struct sbuf sb = SBUF_INIT;
			store_cli_series_label(row->series, &sb);
			printf("%-4s %-12s %.12s %s: %s\n", status, vd->gate, vd->series_key,
			       sbuf_str(&sb), vd->message);
			sbuf_release(&sb);
		}
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

static bool parse_num(const char *s, double lo, double hi, double *out)
{
	return assay_parse_double(s, out) && *out >= lo && *out <= hi;
}

int cmd_detect(int argc, char **argv)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    PARSE_CLI_OPTIONS,
	    {"input-format", required_argument, NULL, PO_FORMAT},
	    {"input", required_argument, NULL, D_INPUT},
	    {"direction", required_argument, NULL, D_DIRECTION},
	    {"window", required_argument, NULL, D_WINDOW},
	    {"max-pvalue", required_argument, NULL, D_PVALUE},
	    {"min-magnitude", required_argument, NULL, D_MAGNITUDE},
	    {"min-segment", required_argument, NULL, D_SEGMENT},
	    {"otava-compat", no_argument, NULL, D_COMPAT},
	    {"format", required_argument, NULL, D_FORMAT},
	    {"fail-on-regression", no_argument, NULL, D_FAIL},
	    {"gate", required_argument, NULL, D_GATE},
	    {"threshold", required_argument, NULL, D_THRESHOLD},
	    {"train-threshold", required_argument, NULL, D_TRAIN},
	    {"infer-threshold", required_argument, NULL, D_INFER},
	    {NULL, 0, NULL, 0},
	};
	struct store_cli sc = {0};
	struct parse_cli pc;
	struct assay_gate_config gc;
	const char *input = NULL, *format = "table", *gates = NULL;
	double window = -1, pvalue = -1, magnitude = -1, segment = -1;
	enum assay_direction dir = ASSAY_DIR_HIGHER;
	bool compat = false, fail = false, parse_opts = false;
	int rc = ASSAY_OK, opt;
	parse_cli_init(&pc);
	assay_gate_defaults(&gc);
	opterr = 0;
	while (rc == ASSAY_OK && (opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int handled;
		if (store_cli_option(&sc, opt, optarg))
			continue;
		if ((handled = parse_cli_option("detect", &pc, opt, optarg)) == 1) {
			parse_opts = true;
			continue;
		}
		if (handled) {
			rc = handled;
			break;
		}
		switch (opt) {
		case D_INPUT: input = optarg; break;
		case D_DIRECTION:
			if (assay_direction_parse(optarg) < 0)
				rc = cli_usage_error(
				    "detect", "--direction '%s': expected higher or lower", optarg);
			else
				dir = (enum assay_direction)assay_direction_parse(optarg);
			break;
		case D_WINDOW:
			if (!parse_num(optarg, 2, 1000, &window) || window != floor(window))
				rc = cli_usage_error("detect",
						     "--window '%s': expected an integer from 2 "
						     "to 1000",
						     optarg);
			break;
		case D_PVALUE:
			if (!parse_num(optarg, 1e-300, 1, &pvalue))
				rc = cli_usage_error("detect",
						     "--max-pvalue '%s': expected a number in "
						     "(0, 1]",
						     optarg);
			break;
		case D_MAGNITUDE:
			if (!parse_num(optarg, 0, 1e300, &magnitude))
				rc = cli_usage_error("detect",
						     "--min-magnitude '%s': expected a number "
						     ">= 0 (0.02 is 2%%)",
						     optarg);
			break;
		case D_SEGMENT:
			if (!parse_num(optarg, 1, 1000, &segment) || segment != floor(segment))
				rc = cli_usage_error("detect",
						     "--min-segment '%s': expected an integer "
						     "from 1 to 1000",
						     optarg);
			break;
		case D_COMPAT: compat = true; break;
		case D_FORMAT: format = optarg; break;
		case D_FAIL: fail = true; break;
		case D_GATE: gates = optarg; break;
		case D_THRESHOLD:
		case D_TRAIN:
		case D_INFER: {
			double v;
			if (!parse_num(optarg, 0, 1e300, &v)) {
				rc = cli_usage_error("detect",
						     "--%s '%s': expected a fraction >= 0 "
						     "(0.02 is 2%%)",
						     opt == D_THRESHOLD ? "threshold"
						     : opt == D_TRAIN   ? "train-threshold"
									: "infer-threshold",
						     optarg);
				break;
			}
			*(opt == D_THRESHOLD ? &gc.cp_threshold
			  : opt == D_TRAIN   ? &gc.rm_train_threshold
					     : &gc.rm_infer_threshold) = v;
			break;
		}
		default:
			rc = cli_usage_error("detect", "unknown option or missing value: '%s'",
					     argv[optind - 1]);
			break;
		}
	}
	static const char *const formats[] = {"table", "json", "csv", NULL};
	if (rc == ASSAY_OK)
		rc = store_cli_format("detect", NULL, format, formats);
	if (rc == ASSAY_OK && input && gates)
		rc = cli_usage_error("detect", "--input and --gate cannot be combined");
	if (rc == ASSAY_OK && input && (sc.filter.keys.n || sc.filter.match.n || sc.filter.since))
		rc = cli_usage_error("detect",
				     "--input reads one series: --series, --match and --since "
				     "do not apply");
	if (rc == ASSAY_OK && !gates && parse_opts)
		rc = cli_usage_error("detect",
				     "--input-format, --cluster, --scale, --precision, --set, "
				     "--revision and --*-is-better apply to --gate files");
	if (rc == ASSAY_OK && !gates && optind != argc)
		rc = cli_usage_error("detect", "unexpected argument '%s' (files are for --gate)",
				     argv[optind]);
	struct assay_detect_opts *o = &gc.detect;
	if (compat)
		assay_detect_otava_defaults(o);
	if (window > 0)
		o->window = (int)window;
	if (pvalue > 0)
		o->max_pvalue = pvalue;
	if (magnitude >= 0)
		o->min_magnitude = magnitude;
	if (segment > 0)
		o->min_segment = (int)segment;
	if (rc == ASSAY_OK && compat && segment > 1)
		rc = cli_usage_error("detect", "--min-segment is not part of --otava-compat");
	if (rc == ASSAY_OK && gates) {
		rc = gate_files(gates, &gc, &sc, &pc, argc - optind, argv + optind, format);
	} else if (rc == ASSAY_OK) {
		struct printer p = {format, json_array(), 0, 0, 0, false, false};
		rc = input ? detect_input(&p, o, input, dir) : detect_store(&p, o, &sc);
		if (rc == ASSAY_OK)
			rc = finish_print(&p, fail);
		json_decref(p.json);
	}
	parse_cli_release(&pc);
	store_cli_release(&sc);
	return rc;
}
