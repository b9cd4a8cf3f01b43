/* What assay-coll prints: nccl-tests' table (the device report, header,
 * one row per size, footer) on rank 0, and its -J JSON with per-iteration
 * percentiles. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assay/ep.h"
#include "assay/json.h"
#include "assay/util.h"
#include "assay/version.h"
#include "coll.h"

/* nccl-tests' getFloatStr (src/util.cu): the widest of %.2f, %.1f, %.0f that
 * fits width, else an exponent. */
static void float_str(double v, int width, char *out, size_t size)
{
	if (snprintf(out, size, "%*.2f", width, v) <= width ||
	    snprintf(out, size, "%*.1f", width, v) <= width ||
	    snprintf(out, size, "%*.0f", width, v) <= width)
		return;
	if (width >= 7)
		snprintf(out, size, "%*.1e", width, v);
	else
		snprintf(out, size, "%*.0e", width, v);
}

/* A number as nccl-tests' jsonDouble writes it: "nan" when not finite. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_string("nan");
}

/* The -J statistics of one placement over the samples after skip (-K);
 * times_us keeps them all. */
static json_t *stats_json(double *all, size_t total, size_t skip)
{
	struct assay_ep_stats st;
	double *samples = all + skip;
	size_t n = total - skip;
	double sum = 0, var = 0;
	for (size_t i = 0; i < n; i++)
		sum += samples[i];
	double avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		var += (samples[i] - avg) * (samples[i] - avg);
	double sd = sqrt(var / (double)n);
	json_t *times = json_array();
	for (size_t i = 0; i < total; i++)
		json_array_append_new(times, num(all[i]));
	assay_ep_stats_compute(samples, n, &st);
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "skipped_iterations", (json_int_t)skip, "min_us", num(st.min), "max_us",
			 num(st.max), "avg_us", num(avg), "p50_us", num(st.p50), "p90_us",
			 num(st.p90), "p95_us", num(st.p95), "p99_us", num(st.p99), "stdev_us",
			 num(sd), "cv_pct", num(avg > 0 ? sd / avg * 100 : 0.0), "times_us", times);
}

json_t *coll_row_start(struct coll_table *t, size_t bytes, size_t count, int type,
		       const char *redop_name, int root)
{
	char rootname[32];
	snprintf(rootname, sizeof(rootname), "%6i", root);
	printf("%12zu  %12zu  %8s  %6s  %6s", bytes, count, coll_types[type].name, redop_name,
	       rootname);
	if (!t->results)
		return NULL;
	json_t *row = json_pack("{s:I, s:I, s:s, s:s, s:s}", "size", (json_int_t)bytes, "count",
				(json_int_t)count, "type", coll_types[type].name, "redop",
				redop_name, "root", rootname);
	json_array_append_new(t->results, row);
	return row;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* -I: nccl-tests' writePerIterReport columns (i_min, i_max, i_p99, i_cv%)
 * over the samples after -K, p99 at the nearest rank (its percentileIndex)
 * and cv% the population deviation over the mean. */
static void per_iter_columns(const struct coll_point *pt)
{
	size_t n = pt->n - pt->skip;
	double *v = xmalloc(n * sizeof(double)), sum = 0, var = 0;
	memcpy(v, pt->samples + pt->skip, n * sizeof(double));
	qsort(v, n, sizeof(double), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	double avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		var += (v[i] - avg) * (v[i] - avg);
	double cv = avg > 0 ? sqrt(var / (double)n) / avg * 100.0 : 0.0;
	size_t p99 = (n * 99 + 99) / 100 - 1;
	char a[16], b[16], c[16], d[16];
	float_str(v[0], 7, a, sizeof(a));
	float_str(v[n - 1], 7, b, sizeof(b));
	float_str(v[p99 < n - 1 ? p99 : n - 1], 7, c, sizeof(c));
	float_str(cv, 7, d, sizeof(d));
	printf("  %7s  %7s  %7s  %7s", a, b, c, d);
	free(v);
}

void coll_row_point(const struct coll_call *c, const struct coll_point *pt, json_t *row)
{
	char ts[16], as[16], bs[16];
	float_str(pt->time, 7, ts, sizeof(ts));
	float_str(pt->algbw, 6, as, sizeof(as));
	float_str(pt->busbw, 6, bs, sizeof(bs));
	if (pt->report)
		printf("  %7s  %6s  %6s  %6g", ts, as, bs, (double)pt->wrong);
	else
		printf("  %7s  %6s  %6s    N/A", ts, as, bs);
	if (pt->per_iter)
		per_iter_columns(pt);
	if (!row)
		return;
	const char *key = c->in_place ? "in_place" : "out_of_place";
	json_object_set_new(row, key,
			    json_pack("{s:o, s:o, s:o, s:o}", pt->is_cputime ? "cpu_time" : "time",
				      num(pt->time), "alg_bw", num(pt->algbw), "bus_bw",
				      num(pt->busbw), "nwrong",
				      pt->report ? json_real((double)pt->wrong) : json_null()));
	char pk[32];
	snprintf(pk, sizeof(pk), "%s_per_iter", key);
	json_object_set_new(row, pk, stats_json(pt->samples, pt->n, pt->skip));
}

void coll_row_end(const struct coll_table *t, json_t *row)
{
	printf("\n");
	fflush(stdout);
	if (row) {
		json_object_set_new(row, "actual_iterations", json_integer(t->o->iters));
		json_object_set_new(row, "experiment_name", json_string(""));
	}
}

/* The devices of the -J JSON, with the pid and host of each rank's line. */
static json_t *device_json(const char *lines, size_t len, int nranks)
{
	json_t *devs = json_array();
	for (int r = 0; r < nranks; r++) {
		const char *l = lines + (size_t)r * len;
		fputs(l, stdout);
		json_array_append_new(devs,
				      json_pack("{s:i, s:i, s:i, s:s, s:i, s:s, s:s}", "rank", r,
						"group", 0, "pid", 0, "hostname", "", "device", -1,
						"device_hex", "0000:00:00", "device_info", ""));
		/* The pid and host from the line itself. */
		int pid = 0;
		char h[256] = "";
		const char *p = strstr(l, "Pid ");
		if (p && sscanf(p, "Pid %d on %255s", &pid, h) == 2) {
			json_t *d = json_array_get(devs, (size_t)r);
			json_object_set_new(d, "pid", json_integer(pid));
			json_object_set_new(d, "hostname", json_string(h));
		}
	}
	return devs;
}

/* nccl-tests' writeDeviceReport lines for -z and -I (src/util.cu); the
 * per-iteration line names the host clock where nccl-tests' says "CUDA
 * event timing". */
static void options_lines(const struct coll_opts *o)
{
	if (o->blocking == 1)
		printf("# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
	if (o->blocking == 2)
		printf("# Blocking Enabled: wait after each inner iteration (-m), no barrier \n");
	if (o->blocking == 3)
		printf("# Blocking Enabled: wait and barrier after each outer iteration (-n); "
		       "time excludes barrier \n");
	if (o->per_iter) {
		printf("# Per-Iteration Report: host clock timing; i_* uses max over process rows");
		if (o->skip)
			printf("; summary skips first %lld iterations", o->skip);
		printf(" \n");
	}
}

json_t *coll_device_report(struct coll_table *t, const char *prog)
{
	struct coll_opts *o = t->o;
	struct coll_run *run = &t->run;
	char line[512], host[256] = "";
	gethostname(host, sizeof(host) - 1);
	/* A GPU backend picks its device in setup, after this report. */
	snprintf(line, sizeof(line),
		 "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s (assay-coll "
		 "%s)\n",
		 run->rank, 0, (int)getpid(), host, -1, 0, 0, 0,
		 run->be->to_device ? "the local rank's GPU" : "host memory", run->be->name);
	char *lines = run->rank == 0 ? xmalloc((size_t)run->size * sizeof(line)) : NULL;
	MPI_CHECK(
	    MPI_Gather(line, sizeof(line), MPI_CHAR, lines, sizeof(line), MPI_CHAR, 0, run->comm));
	json_t *devs = NULL;
	if (run->rank == 0) {
		printf("# assay-coll version %s (%s) backend %s\n", assay_version_string,
		       assay_git_revision, run->be->name);
		printf("# Collective test starting: %s\n", prog);
		printf(
		    "# nThread %d nGpus %d minBytes %zu maxBytes %zu step: %zu(%s) warmup iters: "
		    "%lld iters: %lld agg iters: %d validation: %lld graph: %d unalign: %d\n",
		    1, 1, o->minb, o->maxb, o->stepf > 1 ? o->stepf : o->stepb,
		    o->stepf > 1 ? "factor" : "bytes", o->warmup, o->iters, (int)o->agg, o->check,
		    0, (int)o->unalign);
		options_lines(o);
		printf("#\n# Using devices\n");
		devs = device_json(lines, sizeof(line), run->size);
	}
	free(lines);
	return devs;
}

/* nccl-tests' writeResultHeader with -I (src/util.cu). */
static void per_iter_header(const char *tm)
{
	printf("# %10s  %12s  %8s  %6s  %6s              out-of-place (+ per-iteration)          "
	       "                      in-place (+ per-iteration)\n",
	       "", "", "", "", "");
	printf(
	    "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  "
	    "%6s  %7s  %7s  %7s  %7s %*s\n",
	    "size", "count", "type", "redop", "root", tm, "algbw", "busbw", "#wrong", "i_min",
	    "i_max", "i_p99", "i_cv%", tm, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99",
	    "i_cv%", 0, "");
	printf(
	    "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  "
	    "%6s  %7s  %7s  %7s  %7s %*s\n",
	    "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)",
	    "(%)", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", 0, "");
}

/* nccl-tests' writeResultHeader (src/util.cu); -C names the time
 * "cputime". */
void coll_table_header(const struct coll_opts *o)
{
	const char *tm = o->cputime ? "cputime" : "time";
	printf("#\n");
	if (o->per_iter) {
		per_iter_header(tm);
		return;
	}
	printf("# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
	       "in-place          \n",
	       "", "", "", "", "");
	printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n", "size",
	       "count", "type", "redop", "root", tm, "algbw", "busbw", "#wrong", tm, "algbw",
	       "busbw", "#wrong", 0, "");
	printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n", "(B)",
	       "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
	       "", 0, "");
}

/* nccl-tests' writeResultFooter, finalizeFooter and writeErrors; min_bw is
 * NCCL_TESTS_MIN_BW, -1 when unset (then the bandwidth is not judged). */
void coll_table_footer(int errors, double avg, double min_bw, const char *prog)
{
	printf("# %-20s : %d %s\n", "Out of bounds values", errors, errors ? "FAILED" : "OK");
	printf("# %-20s : %g %s\n", "Avg bus bandwidth", avg,
	       min_bw == -1 ? "" : (avg < min_bw * 0.9 ? "FAILED" : "OK"));
	printf("#\n");
	printf("# Collective test concluded: %s\n", prog);
	printf("#\n");
	printf("\n");
}

/* nccl-tests' jsonOutputInit: a new file, F or F.0, F.1 ... when F exists. */
static FILE *open_json(const char *path)
{
	FILE *f = fopen(path, "wx");
	char *try = xstrdup(path);
	for (int i = 0; !f && errno == EEXIST && i < 1000; i++) {
		free(try);
		size_t len = strlen(path) + 16;
		try = xmalloc(len);
		snprintf(try, len, "%s.%d", path, i);
		f = fopen(try, "wx");
	}
	if (f)
		printf("# Writing JSON output to %s\n", try);
	else
		printf("# skipping json output; %s not accessible\n", try);
	free(try);
	return f;
}

static void time_string(char *out, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm);
}

FILE *coll_json_open(struct coll_table *t, int argc, char **argv, json_t **doc)
{
	FILE *jf = open_json(t->o->json);
	if (!jf)
		return NULL;
	char ts[64];
	time_string(ts, sizeof(ts));
	json_t *args = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(args, json_string(argv[i]));
	/* No "env": the environment may hold secrets. */
	*doc = json_pack("{s:i, s:s, s:o, s:i, s:s, s:s, s:s}", "version", 3, "start_time", ts,
			 "args", args, "nccl_version", 0, "program", "assay-coll", "collective",
			 coll_op_names[t->o->op], "backend", t->run.be->name);
	t->results = json_array();
	return jf;
}

static json_t *config_json(const struct coll_opts *o, json_t *devs)
{
	return json_pack(
	    "{s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:i, s:I, s:i, s:b, s:b, s:i, s:b, s:o}",
	    "nthreads", 1, "ngpus", 1, "minimum_bytes", (json_int_t)o->minb, "maximum_bytes",
	    (json_int_t)o->maxb, o->stepf > 1 ? "step_factor" : "step_bytes",
	    (json_int_t)(o->stepf > 1 ? o->stepf : o->stepb), "warmup_iters", (json_int_t)o->warmup,
	    "iterations", (json_int_t)o->iters, "aggregated_iterations", (int)o->agg, "validation",
	    (json_int_t)o->check, "graph", 0, "blocking_collectives", (int)o->blocking,
	    "per_iter_timing", 1, "per_iter_skip", (int)o->skip, "parallel_init", 0, "devices",
	    devs);
}

int coll_json_finish(FILE *jf, json_t *doc, struct coll_table *t, json_t *devs, int errors,
		     double avg, double min_bw, int rc)
{
	char ts[64];
	time_string(ts, sizeof(ts));
	json_object_set_new(doc, "config", config_json(t->o, devs));
	json_object_set_new(doc, "results", t->results);
	t->results = NULL;
	json_object_set_new(doc, "out_of_bounds",
			    json_pack("{s:i, s:b}", "count", errors, "okay", errors == 0));
	json_object_set_new(
	    doc, "average_bus_bandwidth",
	    json_pack("{s:o, s:o}", "bandwidth", num(avg), "okay",
		      min_bw == -1 ? json_string("unchecked") : json_boolean(avg >= min_bw * 0.9)));
	json_object_set_new(doc, "end_time", json_string(ts));
	json_object_set_new(doc, "errors", json_array());
	char *text = assay_json_dumps(doc, JSON_COMPACT);
	bool wrote = fputs(text, jf) >= 0 && fputc('\n', jf) != EOF;
	wrote = (fclose(jf) == 0) && wrote;
	free(text);
	json_decref(doc);
	if (!wrote) {
		fprintf(stderr, "assay-coll: cannot write the JSON output %s\n", t->o->json);
		rc = ASSAY_INFRA;
	}
	return rc;
}
