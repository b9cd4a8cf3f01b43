/* Unit tests for filling the report model from a store and a run folder
 * (src/lib/report/load.c, src/lib/store/run_read.c): the header, cases from
 * the store completed by summary.json, relative links, EP ladders and their
 * groups, history with change points and ignored points, secrets from the
 * environment, and the errors for an unknown run or a missing folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/gate.h"
#include "assay/json.h"
#include "assay/report.h"
#include "assay/run.h"
#include "assay/store.h"

static char tmp[] = "/tmp/assay-test-report-load-XXXXXX";
static char store[600], out[600];

static int setup(void **state)
{
	(void)state;
	static int n;
	if (!n++)
		assert_non_null(mkdtemp(tmp));
	snprintf(store, sizeof(store), "%s/s%d.db", tmp, n);
	snprintf(out, sizeof(out), "%s/out%d", tmp, n);
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void ok(assay_err rc, const struct assay_error *e)
{
	if (rc != ASSAY_OK)
		fail_msg("%s", e->message);
}

/* An EP row as the assay-ep format makes it. */
static void ep_row(struct assay_rows *rows, const char *backend, int ep, const char *component,
		   long long tokens, const char *metric, const char *stat, double v)
{
	struct assay_row *r = assay_rows_add(rows);
	assay_row_init(r);
	json_t *s = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:I, s:s, s:s}", "cluster",
			      "lab", "scale", "1x2", "precision", "bf16", "backend", backend,
			      "phase", "decode", "ep", ep, "component", component, "tokens",
			      (json_int_t)tokens, "verdict", "valid", "routing", "zipf:1.2");
	bool bw = !strcmp(metric, "gbps_per_rank"), pass = !strcmp(metric, "oracle_pass");
	const char *unit = bw                                      ? "GB/s"
			   : pass                                  ? "bool"
			   : !strcmp(metric, "max_relative_error") ? "ratio"
			   : !strcmp(component, "routing")         ? "ratio"
								   : "us";
	assay_row_set(r, s, metric, stat, v, unit, bw || pass ? ASSAY_DIR_HIGHER : ASSAY_DIR_LOWER);
	struct assay_error e;
	ok(assay_row_finish(r, &e), &e);
}

/* A plain (not EP) row. */
static void plain_row(struct assay_rows *rows, const char *metric, double v, const char *rev)
{
	struct assay_row *r = assay_rows_add(rows);
	assay_row_init(r);
	assay_row_set(r,
		      json_pack("{s:s, s:s, s:s, s:s}", "cluster", "lab", "scale", "1x8",
				"precision", "bf16", "workload", "train"),
		      metric, "mean", v, "tokens/s", ASSAY_DIR_HIGHER);
	r->revision = xstrdup(rev);
	struct assay_error e;
	ok(assay_row_finish(r, &e), &e);
}

static void write_text(const char *path, const char *text)
{
	struct assay_error e;
	ok(assay_write_file_atomic(path, text, strlen(text), &e), &e);
}

/* One run of revision rev: case "ep-mpi" (EP rows, ep given), "train" (one
 * plain row of value v), "bad" (workload-failed) and, in summary.json only,
 * "nccl" (unsupported). Returns the run id in id. */
static void make_run(const char *rev, double v, int ep, bool folder, char id[64])
{
	struct assay_store *s;
	struct assay_error e;
	ok(assay_store_open(store, ASSAY_STORE_CREATE, &s, &e), &e);
	struct assay_run_info info = {NULL,   "suite-x", rev,     NULL, "m0123456789abcdef0123",
				      "c0ff", "node-1",  "local", NULL};
	ok(assay_store_run_begin(s, &info, id, &e), &e);
	char *run_dir = xasprintf("%s/%s", out, id);
	static const char *const ids[] = {"ep-mpi", "train", "bad"};
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		char *dir = xasprintf("%s/%s", run_dir, ids[i]);
		char *so = xasprintf("%s/stdout.log", dir), *se = xasprintf("%s/stderr.log", dir);
		if (folder) {
			ok(assay_mkdirs(dir, &e), &e);
			write_text(so, "out\n");
			write_text(se, "err\n");
			if (i == 0) {
				char *art = xasprintf("%s/result.json", dir);
				write_text(art, "{}");
				free(art);
			}
		}
		json_t *f = json_pack("{s:s, s:s, s:i, s:n}", "id", ids[i], "backend", "mpi", "ep",
				      ep, "reason");
		struct assay_case_info ci = {ids[i], f, dir, so, se, NULL};
		ok(assay_store_case_begin(s, id, &ci, &e), &e);
		struct assay_rows rows = ASSAY_ROWS_INIT;
		if (i == 0) {
			for (long long t = 1; t <= 4; t *= 2) {
				ep_row(&rows, "mpi", ep, "roundtrip", t, "latency_us", "p50",
				       10 * t);
				ep_row(&rows, "mpi", ep, "roundtrip", t, "latency_us", "p99",
				       12 * t);
				ep_row(&rows, "mpi", ep, "roundtrip", t, "gbps_per_rank", "p50", 3);
				ep_row(&rows, "mpi", ep, "dispatch", t, "latency_us", "p50", 4 * t);
				ep_row(&rows, "mpi", ep, "roundtrip", t, "cross_rank_min_us", "p50",
				       9);
				ep_row(&rows, "mpi", ep, "oracle", t, "max_relative_error", "max",
				       0.01);
				ep_row(&rows, "mpi", ep, "oracle", t, "oracle_pass", "all", t != 4);
				ep_row(&rows, "mpi", ep, "routing", t, "imbalance_expert",
				       "max_over_mean", 2.5 + t);
				ep_row(&rows, "mpi", ep, "routing", t, "imbalance_rank",
				       "max_over_mean", 1.5);
			}
		} else if (i == 1) {
			plain_row(&rows, "tokens_per_s", v, rev);
		}
		struct assay_case_result res = {i == 2 ? ASSAY_OUTCOME_WORKLOAD_FAILED
						       : ASSAY_OUTCOME_PASSED,
						i == 2 ? "exit code 7; stderr: boom" : NULL,
						NULL,
						i == 1 ? 600.5 : 2.0,
						&rows,
						NULL};
		ok(assay_store_case_finish(s, id, ids[i], &res, &e), &e);
		assay_rows_release(&rows);
		json_decref(f);
		free(dir);
		free(so);
		free(se);
	}
	ok(assay_store_run_end(s, id, ASSAY_WORKLOAD_FAILED, &e), &e);
	ok(assay_store_close(s, &e), &e);
	if (folder) {
		/* The runner's summary.json, with a case the store does not know. */
		struct assay_case_outcome cases[4] = {0};
		struct assay_run_result res = {0};
		snprintf(res.run_id, sizeof(res.run_id), "%s", id);
		res.cases = cases;
		res.n = 4;
		for (size_t i = 0; i < 3; i++)
			cases[i].case_id = (char *)ids[i];
		cases[2].outcome = ASSAY_OUTCOME_WORKLOAD_FAILED;
		cases[3].case_id = "nccl";
		cases[3].outcome = ASSAY_OUTCOME_UNSUPPORTED;
		cases[3].reason = "nccl needs a GPU";
		strlist_push(&res.secrets, "ASSAY_TEST_LOAD_SECRET");
		strlist_push(&res.secrets, "ASSAY_TEST_LOAD_UNSET");
		json_t *doc = assay_run_summary_json(&res);
		char *text = assay_json_dumps(doc, ASSAY_JSON_SORT);
		char *p = xasprintf("%s/summary.json", run_dir);
		write_text(p, text);
		free(p);
		free(text);
		json_decref(doc);
		strlist_clear(&res.secrets);
	}
	free(run_dir);
}

/* Open the store and begin a run of suite; its id in id. */
static struct assay_store *new_run(const char *suite, const char *rev, char id[64])
{
	struct assay_store *s;
	struct assay_error e;
	ok(assay_store_open(store, ASSAY_STORE_CREATE, &s, &e), &e);
	struct assay_run_info info = {NULL, suite, rev, NULL, NULL, NULL, "h", "local", NULL};
	ok(assay_store_run_begin(s, &info, id, &e), &e);
	return s;
}

static assay_err load(const char *run, const char *out_dir, struct assay_report *r,
		      struct assay_report_found *f, struct assay_error *e)
{
	struct assay_report_source src = {.store = store, .run = run, .out_dir = out_dir};
	assay_report_init(r);
	return assay_report_load(&src, r, f, e);
}

static const char *factor(const struct assay_report_case *c, const char *key)
{
	for (size_t i = 0; i < c->nfactors; i++)
		if (!strcmp(c->factors[i].key, key))
			return c->factors[i].value;
	return NULL;
}

static const char *link_of(const struct assay_report_case *c, const char *label)
{
	for (size_t i = 0; i < c->nlinks; i++)
		if (!strcmp(c->links[i].label, label))
			return c->links[i].href;
	return NULL;
}

/* assay run hands the report its redactor: the environment is not read. */
static void test_secrets_given(void **state)
{
	(void)state;
	char id[64];
	make_run("r1", 100, 2, true, id);
	setenv("ASSAY_TEST_LOAD_SECRET", "from-env", 1);
	struct assay_redactor given = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&given, "ASSAY_TEST_LOAD_SECRET", "from-run");
	struct assay_report_source src = {.store = store, .run = "last", .redact = &given};
	struct assay_report r;
	struct assay_report_found f;
	struct assay_error e;
	assay_report_init(&r);
	ok(assay_report_load(&src, &r, &f, &e), &e);
	assert_non_null(assay_redactor_find(&r.secrets, "from-run", 8, NULL));
	assert_null(assay_redactor_find(&r.secrets, "from-env", 8, NULL));
	assert_int_equal(f.unset_secrets.n, 0);
	assay_report_release(&r);
	assay_report_found_release(&f);
	assay_redactor_release(&given);
}

static void test_cases_and_header(void **state)
{
	(void)state;
	char id[64];
	make_run("r1", 100, 2, true, id);
	setenv("ASSAY_TEST_LOAD_SECRET", "hunter2", 1);
	unsetenv("ASSAY_TEST_LOAD_UNSET");
	struct assay_report r;
	struct assay_report_found f;
	struct assay_error e;
	ok(load("last", NULL, &r, &f, &e), &e);
	assert_string_equal(f.run_id, id);
	assert_string_equal(r.suite, "suite-x");
	assert_string_equal(r.revision, "r1");
	assert_string_equal(r.host, "node-1");
	assert_string_equal(r.launcher, "local");
	assert_string_equal(r.matrix_digest, "m0123456789abcdef0123");
	assert_string_equal(r.catalog_digest, "c0ff");
	assert_non_null(r.ended);
	assert_int_equal(r.exit_code, ASSAY_WORKLOAD_FAILED);
	assert_int_equal(r.notes.n, 0);
	/* summary.json's order; the store's record for finished cases. */
	assert_int_equal(r.ncases, 4);
	assert_string_equal(r.cases[0].id, "ep-mpi");
	assert_int_equal(r.cases[0].outcome, ASSAY_REPORT_PASSED);
	assert_string_equal(r.cases[1].id, "train");
	assert_true(fabs(r.cases[1].duration_s - 600.5) < 1e-9);
	assert_int_equal(r.cases[2].outcome, ASSAY_REPORT_WORKLOAD_FAILED);
	assert_string_equal(r.cases[2].reason, "exit code 7; stderr: boom");
	assert_string_equal(r.cases[3].id, "nccl");
	assert_int_equal(r.cases[3].outcome, ASSAY_REPORT_UNSUPPORTED);
	assert_string_equal(r.cases[3].reason, "nccl needs a GPU");
	assert_true(isnan(r.cases[3].duration_s));
	assert_int_equal(r.cases[3].nlinks, 0);
	/* Factors without the id and nulls. */
	assert_null(factor(&r.cases[0], "id"));
	assert_null(factor(&r.cases[0], "reason"));
	assert_string_equal(factor(&r.cases[0], "backend"), "mpi");
	assert_string_equal(factor(&r.cases[0], "ep"), "2");
	/* Links relative to the run folder, to files that exist. */
	assert_string_equal(link_of(&r.cases[0], "stdout"), "ep-mpi/stdout.log");
	assert_string_equal(link_of(&r.cases[0], "artifact"), "ep-mpi/result.json");
	assert_string_equal(link_of(&r.cases[0], "folder"), "ep-mpi");
	assert_null(link_of(&r.cases[1], "artifact"));
	/* Secrets: named by the run, valued by this environment. */
	assert_non_null(assay_redactor_find(&r.secrets, "x hunter2 x", 11, NULL));
	assert_int_equal(f.unset_secrets.n, 1);
	assert_string_equal(f.unset_secrets.v[0], "ASSAY_TEST_LOAD_UNSET");
	char *want = xasprintf("%s/%s", out, id);
	assert_string_equal(f.out_dir, want);
	assert_string_equal(f.run_dir, want);
	free(want);
	assay_report_found_release(&f);
	assay_report_release(&r);

	/* Written elsewhere, the links climb back to the run folder. */
	char *elsewhere = xasprintf("%s/reports/x", tmp);
	ok(load(id, elsewhere, &r, &f, &e), &e);
	want = xasprintf("../../out1/%s/ep-mpi/stdout.log", id);
	assert_string_equal(link_of(&r.cases[0], "stdout"), want);
	free(want);
	free(elsewhere);
	assay_report_found_release(&f);
	assay_report_release(&r);
	unsetenv("ASSAY_TEST_LOAD_SECRET");
}

static void test_ep_ladders(void **state)
{
	(void)state;
	char id[64];
	make_run("r1", 100, 2, true, id);
	struct assay_report r;
	struct assay_report_found f;
	struct assay_error e;
	ok(load(id, NULL, &r, &f, &e), &e);
	/* One roundtrip ladder per EP case; dispatch and diagnostics left out. */
	assert_int_equal(r.nep, 1);
	const struct assay_report_ep *ep = &r.ep[0];
	assert_string_equal(ep->case_id, "ep-mpi");
	assert_string_equal(ep->backend, "mpi");
	assert_string_equal(ep->precision, "bf16");
	assert_string_equal(ep->phase, "decode");
	assert_string_equal(ep->component, "roundtrip");
	assert_null(ep->group); /* nothing varies among one ladder */
	assert_int_equal(ep->npoints, 3);
	assert_true(ep->points[2].tokens == 4);
	assert_true(ep->points[2].p50_us == 40);
	assert_true(ep->points[2].p99_us == 48);
	assert_true(ep->points[2].bw_gbps == 3);
	assert_true(ep->points[2].max_rel_error == 0.01);
	assert_true(ep->points[0].valid);
	assert_false(ep->points[2].valid);
	/* The routing and its imbalance (issue 36), not followed in history. */
	assert_string_equal(ep->routing, "zipf:1.2");
	assert_true(ep->points[2].imbalance_expert == 6.5);
	assert_true(ep->points[2].imbalance_rank == 1.5);
	/* History follows roundtrip p50, p99, bandwidth and max_relative_error
	 * per point, and every plain series. */
	assert_int_equal(r.nhistory, 3 * 4 + 1);
	for (size_t i = 0; i < r.nhistory; i++) {
		assert_null(strstr(r.history[i].label, "dispatch"));
		assert_null(strstr(r.history[i].label, "cross_rank_min_us"));
		assert_int_equal(r.history[i].npoints, 1);
		assert_int_equal(r.history[i].new_point, 0);
		assert_int_equal(r.history[i].verdict, ASSAY_VERDICT_RECORD);
	}
	assay_report_found_release(&f);
	assay_report_release(&r);
}

/* The history series whose label starts with prefix and holds also. */
static const struct assay_report_history *find_history2(const struct assay_report *r,
							const char *prefix, const char *also)
{
	for (size_t i = 0; i < r->nhistory; i++)
		if (!strncmp(r->history[i].label, prefix, strlen(prefix)) &&
		    (!also || strstr(r->history[i].label, also)))
			return &r->history[i];
	return NULL;
}

static const struct assay_report_history *find_history(const struct assay_report *r,
						       const char *prefix)
{
	return find_history2(r, prefix, NULL);
}

static void test_history(void **state)
{
	(void)state;
	char id[64], first[64];
	/* Nine quiet runs, then three at a new level: a change point. */
	for (int i = 0; i < 12; i++) {
		char rev[8];
		snprintf(rev, sizeof(rev), "r%02d", i);
		make_run(rev, (i < 9 ? 100 : 70) + (i % 3) * 0.5, 2, i == 11, id);
		if (!i)
			snprintf(first, sizeof(first), "%s", id);
	}
	struct assay_report r;
	struct assay_report_found f;
	struct assay_error e;
	ok(load("last", NULL, &r, &f, &e), &e);
	/* Ranked first: the series with a change point. */
	const struct assay_report_history *h = &r.history[0];
	assert_ptr_equal(h, find_history(&r, "tokens_per_s mean"));
	assert_string_equal(h->unit, "tokens/s");
	assert_false(h->lower_is_better);
	assert_int_equal(h->npoints, 12);
	assert_int_equal(h->new_point, 11);
	assert_string_equal(h->points[0].revision, "r00");
	assert_int_equal(h->nchange_points, 1);
	assert_int_equal(h->change_points[0], 9);
	assert_non_null(strstr(h->message, "1 change point; the latest at r09: -29.9%"));
	assert_non_null(strstr(h->message, "(worse)"));
	/* Labels name what differs between the series that have a field: here
	 * the component, the scale and the tokens (ep and phase are the same). */
	h = find_history(&r, "latency_us p99 · component=roundtrip · scale=1x2 · tokens=4");
	assert_non_null(h);
	assert_string_equal(h->unit, "us");
	assert_true(h->lower_is_better);
	assert_string_equal(h->message,
			    "no regression gate ran on this series; no change point in 12 "
			    "points (this run +0.0% against the mean of the 11 before)");
	assay_report_found_release(&f);
	assay_report_release(&r);

	/* An earlier run sees the history up to its own point. */
	ok(load(first, tmp, &r, &f, &e), &e);
	h = find_history(&r, "tokens_per_s mean");
	assert_int_equal(h->npoints, 1);
	assert_int_equal(h->new_point, 0);
	/* That run's folder does not exist: said under the header. */
	assert_int_equal(r.notes.n, 1);
	assert_non_null(strstr(r.notes.v[0], "output folder was not found"));
	assert_int_equal(r.cases[0].nlinks, 0);
	assay_report_found_release(&f);
	assay_report_release(&r);

	/* Points of a revision annotated ignore are left out. */
	struct assay_store *s;
	ok(assay_store_open(store, 0, &s, &e), &e);
	struct assay_series_filter flt = {.keys = STRLIST_INIT, .match = STRLIST_INIT};
	strlist_push(&flt.match, "metric=tokens_per_s");
	struct assay_series_list l = {0};
	ok(assay_store_series(s, &flt, &l, &e), &e);
	assert_int_equal(l.n, 1);
	ok(assay_store_annotate(s, l.v[0].key, "r03", ASSAY_ANN_IGNORE, "bad node", &e), &e);
	assay_series_list_release(&l);
	assay_series_filter_release(&flt);
	ok(assay_store_close(s, &e), &e);
	ok(load("last", NULL, &r, &f, &e), &e);
	h = find_history(&r, "tokens_per_s mean");
	assert_int_equal(h->npoints, 11);
	assert_int_equal(h->new_point, 10);
	assert_string_equal(h->points[3].revision, "r04");
	assert_non_null(strstr(h->message, "1 point annotated ignore left out"));
	assay_report_found_release(&f);
	assay_report_release(&r);
}

/* History is capped at the newest 100 points up to the run's own, whatever
 * the store's depth: 130 revisions of two series (one gated, one with a
 * revision annotated ignore), reported at the last run and at an earlier one;
 * the store's walk hands over at most max_points per series. */
static int count_points(const struct assay_store_history *h, void *ctx)
{
	size_t *most = ctx;
	if (h->points->n > *most)
		*most = h->points->n;
	for (size_t i = 1; i < h->points->n; i++) /* oldest first: r030 ... r129 */
		assert_true(strcmp(h->points->v[i - 1].revision, h->points->v[i].revision) < 0);
	return 0;
}

static void test_history_depth(void **state)
{
	(void)state;
	char id[64], at110[64] = "", key[65] = "";
	struct assay_error e;
	struct assay_store *s;
	ok(assay_store_open(store, ASSAY_STORE_CREATE, &s, &e), &e);
	for (int i = 0; i < 130; i++) {
		char rev[8], when[32];
		snprintf(rev, sizeof(rev), "r%03d", i);
		assay_time_rfc3339(1790000000 + (int64_t)i * 3600, when);
		struct assay_run_info info = {NULL, "deep", rev,     NULL, NULL,
					      NULL, "h",    "local", when};
		ok(assay_store_run_begin(s, &info, id, &e), &e);
		struct assay_case_info ci = {"c", NULL, NULL, NULL, NULL, when};
		ok(assay_store_case_begin(s, id, &ci, &e), &e);
		struct assay_rows rows = ASSAY_ROWS_INIT;
		plain_row(&rows, "tokens_per_s", 100 + i % 3, rev);
		plain_row(&rows, "step_ms", 50 + i % 2, rev);
		for (size_t k = 0; k < rows.n; k++) {
			free(rows.v[k].timestamp);
			rows.v[k].timestamp = xstrdup(when);
		}
		snprintf(key, sizeof(key), "%s", rows.v[0].series_key);
		struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
		struct assay_verdict *v =
		    assay_verdicts_add(&vs, ASSAY_VERDICT_PASS, "rolling-mean", "tokens_per_s/mean",
				       100, "tokens/s", "worse by < 5%%", "within 5%%");
		v->series_key = xstrdup(key);
		struct assay_case_result res = {ASSAY_OUTCOME_PASSED, NULL, NULL, 1, &rows, &vs};
		ok(assay_store_case_finish(s, id, "c", &res, &e), &e);
		ok(assay_store_run_end(s, id, ASSAY_OK, &e), &e);
		if (i == 110)
			snprintf(at110, sizeof(at110), "%s", id);
		if (i == 120) /* a step_ms point left out */
			ok(assay_store_annotate(s, rows.v[1].series_key, rev, ASSAY_ANN_IGNORE,
						"bad node", &e),
			   &e);
		assay_rows_release(&rows);
		assay_verdicts_release(&vs);
	}
	struct strlist keys = STRLIST_INIT;
	strlist_push(&keys, key);
	size_t most = 0;
	ok(assay_store_run_history(s, "last", &keys, 100, count_points, &most, &e), &e);
	assert_int_equal(most, 100);
	strlist_clear(&keys);
	ok(assay_store_close(s, &e), &e);

	struct assay_report r;
	struct assay_report_found f;
	ok(load("last", tmp, &r, &f, &e), &e);
	assert_int_equal(r.nhistory, 2);
	const struct assay_report_history *h = find_history(&r, "tokens_per_s mean");
	assert_non_null(h);
	assert_int_equal(h->npoints, 100);
	assert_int_equal(h->new_point, 99);
	assert_string_equal(h->points[0].revision, "r030");
	assert_string_equal(h->points[99].revision, "r129");
	assert_true(h->points[99].value == 100 + 129 % 3);
	assert_int_equal(h->verdict, ASSAY_VERDICT_PASS);
	assert_non_null(strstr(h->message, "rolling-mean PASS: within 5%"));
	/* The gate's series is found (by its key): one series, nothing to name. */
	assert_int_equal(r.ngates, 1);
	assert_null(r.gates[0].series);
	h = find_history(&r, "step_ms mean");
	assert_int_equal(h->npoints, 99); /* r120 left out of the newest 100 */
	assert_string_equal(h->points[0].revision, "r030");
	assert_string_equal(h->points[90].revision, "r121");
	assert_non_null(strstr(h->message, "1 point annotated ignore left out"));
	assay_report_found_release(&f);
	assay_report_release(&r);

	/* An earlier run: the newest 100 up to its own point. */
	ok(load(at110, tmp, &r, &f, &e), &e);
	h = find_history(&r, "tokens_per_s mean");
	assert_int_equal(h->npoints, 100);
	assert_int_equal(h->new_point, 99);
	assert_string_equal(h->points[0].revision, "r011");
	assert_string_equal(h->points[99].revision, "r110");
	assay_report_found_release(&f);
	assay_report_release(&r);
}

static void test_groups(void **state)
{
	(void)state;
	/* Two EP cases of one run that differ in their EP degree: each ladder is
	 * grouped by what differs besides backend, precision and phase. */
	struct assay_error e;
	char id[64];
	struct assay_store *s = new_run("g", "r1", id);
	for (int k = 0; k < 2; k++) {
		char cid[8];
		snprintf(cid, sizeof(cid), "c%d", k);
		struct assay_case_info ci = {cid, NULL, NULL, NULL, NULL, NULL};
		ok(assay_store_case_begin(s, id, &ci, &e), &e);
		struct assay_rows rows = ASSAY_ROWS_INIT;
		ep_row(&rows, "shm", 2 + 2 * k, "roundtrip", 8, "latency_us", "p50", 5);
		struct assay_case_result res = {ASSAY_OUTCOME_PASSED, NULL, NULL, 1, &rows, NULL};
		ok(assay_store_case_finish(s, id, cid, &res, &e), &e);
		assay_rows_release(&rows);
	}
	ok(assay_store_run_end(s, id, ASSAY_OK, &e), &e);
	ok(assay_store_close(s, &e), &e);
	struct assay_report r;
	struct assay_report_found f;
	ok(load(id, out, &r, &f, &e), &e);
	assert_int_equal(r.nep, 2);
	assert_string_equal(r.ep[0].group, "ep=2");
	assert_string_equal(r.ep[1].group, "ep=4");
	assert_string_equal(r.ep[1].backend, "shm");
	assert_true(r.ep[1].points[0].p50_us == 5);
	assert_true(isnan(r.ep[1].points[0].p99_us));
	assert_int_equal(r.nhistory, 2);
	assert_string_equal(r.history[0].label, "latency_us p50 · ep=2");
	assay_report_found_release(&f);
	assay_report_release(&r);
}

static void test_unended(void **state)
{
	(void)state;
	struct assay_error e;
	char id[64];
	struct assay_store *s = new_run("killed", "r1", id);
	struct assay_case_info ci = {"c1", NULL, NULL, NULL, NULL, NULL};
	ok(assay_store_case_begin(s, id, &ci, &e), &e);
	ok(assay_store_close(s, &e), &e);
	struct assay_report r;
	struct assay_report_found f;
	/* No folder recorded: an output folder must be given. */
	assert_int_equal(load(id, NULL, &r, &f, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "has no output folder"));
	assay_report_found_release(&f);
	assay_report_release(&r);
	ok(load(id, out, &r, &f, &e), &e);
	assert_int_equal(r.exit_code, ASSAY_INFRA);
	assert_int_equal(r.notes.n, 1);
	assert_non_null(strstr(r.notes.v[0], "has not ended"));
	assert_int_equal(r.ncases, 1);
	assert_int_equal(r.cases[0].outcome, ASSAY_REPORT_SKIPPED);
	assert_non_null(strstr(r.cases[0].reason, "the run has not ended"));
	assert_null(r.ended);
	assay_report_found_release(&f);
	assay_report_release(&r);
}

/* A training case with its gates: verdicts become the gates table (a failed
 * one also a line of the case's reason), a regression gate's verdict the
 * history's, and steps.ndjson the training charts with the loss-curve
 * gate's line. */
static void test_gates_and_training(void **state)
{
	(void)state;
	struct assay_store *s;
	struct assay_error e;
	char id[64];
	char key[65];
	for (int run = 0; run < 2; run++) {
		s = new_run("train", run ? "r2" : "r1", id);
		char *dir = xasprintf("%s/%s/combo-a", out, id);
		ok(assay_mkdirs(dir, &e), &e);
		json_t *f = json_pack("{s:s, s:{s:i, s:s}}", "combo", "combo-a", "values", "MBS", 2,
				      "PRECISION", "BF16");
		struct assay_case_info ci = {"combo-a", f, dir, NULL, NULL, NULL};
		ok(assay_store_case_begin(s, id, &ci, &e), &e);
		struct assay_rows rows = ASSAY_ROWS_INIT;
		plain_row(&rows, "tflops_per_gpu", run ? 300 : 500, run ? "r2" : "r1");
		snprintf(key, sizeof(key), "%s", rows.v[0].series_key);
		struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
		struct assay_verdict *v = assay_verdicts_add(
		    &vs, ASSAY_VERDICT_FAIL, "threshold", "tflops_per_gpu/mean", run ? 300 : 500,
		    "TFLOP/s/GPU", ">= 400", "%s", run ? "300 < 400" : "500 >= 400");
		if (!run)
			v->status = ASSAY_VERDICT_PASS;
		v->series_key = xstrdup(key);
		v = assay_verdicts_add(&vs, run ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_SKIPPED,
				       "rolling-mean", "tflops_per_gpu/mean", run ? 300 : 500,
				       "TFLOP/s/GPU", "worse by < 2%", "%s",
				       run ? "-40% against the mean of 1" : "not enough history");
		v->series_key = xstrdup(key);
		assay_verdicts_add(&vs, ASSAY_VERDICT_PASS, "loss-curve", "lm_loss/slope", -0.5,
				   "nats/step", "<= 0",
				   "slope -0.5 <= 0 over 3 samples (steps 2..4)");
		assay_verdicts_add(&vs, ASSAY_VERDICT_RECORD, "convergence", "steps_to_target", 3,
				   "step", "", "first reached 9 at step 3");
		struct assay_case_result res = {run ? ASSAY_OUTCOME_GATE_FAILED
						    : ASSAY_OUTCOME_PASSED,
						run ? "gates: 2 FAIL" : NULL,
						NULL,
						5,
						&rows,
						&vs};
		ok(assay_store_case_finish(s, id, "combo-a", &res, &e), &e);
		ok(assay_store_run_end(s, id, run ? ASSAY_GATE_FAILED : ASSAY_OK, &e), &e);
		ok(assay_store_close(s, &e), &e);
		char *steps = xasprintf("%s/steps.ndjson", dir);
		write_text(
		    steps,
		    "{\"lm_loss\":11,\"step\":1,\"tokens_per_gpu\":100,\"warmup\":true}\n"
		    "{\"lm_loss\":10.5,\"step\":2,\"tokens_per_gpu\":7000,\"warmup\":false}\n"
		    "{\"lm_loss\":\"nan\",\"step\":3,\"tokens_per_gpu\":7100,\"warmup\":false}\n"
		    "{\"lm_loss\":9.5,\"step\":4,\"warmup\":false}\n");
		free(steps);
		assay_rows_release(&rows);
		assay_verdicts_release(&vs);
		json_decref(f);
		free(dir);
	}
	struct assay_report r;
	struct assay_report_found found;
	ok(load(id, NULL, &r, &found, &e), &e);
	/* Factors: the combo's values are the factors. */
	assert_string_equal(factor(&r.cases[0], "MBS"), "2");
	assert_string_equal(factor(&r.cases[0], "combo"), "combo-a");
	assert_null(factor(&r.cases[0], "values"));
	/* The verdicts, in the order the gates gave them. */
	assert_int_equal(r.ngates, 4);
	assert_string_equal(r.gates[0].case_id, "combo-a");
	assert_string_equal(r.gates[0].name, "threshold");
	assert_string_equal(r.gates[0].metric, "tflops_per_gpu/mean");
	assert_int_equal(r.gates[0].verdict, ASSAY_VERDICT_FAIL);
	assert_true(r.gates[0].value == 300);
	assert_string_equal(r.gates[0].unit, "TFLOP/s/GPU");
	assert_string_equal(r.gates[0].spec, ">= 400");
	assert_int_equal(r.gates[3].verdict, ASSAY_VERDICT_RECORD);
	assert_null(r.gates[3].spec);
	/* Each failed gate is a line of the case's reason. */
	assert_string_equal(r.cases[0].reason,
			    "gates: 2 FAIL\nFAIL threshold tflops_per_gpu/mean: 300 < 400\n"
			    "FAIL rolling-mean tflops_per_gpu/mean: -40% against the mean of 1");
	/* The regression gate's verdict is the history's, and it comes first. */
	const struct assay_report_history *h = &r.history[0];
	assert_int_equal(h->verdict, ASSAY_VERDICT_FAIL);
	assert_int_equal(h->npoints, 2);
	assert_non_null(
	    strstr(h->message, "rolling-mean FAIL: -40% against the mean of 1; detector: "));
	/* Training: loss with a gap, throughput, warm-up, the gate's line. */
	assert_int_equal(r.ntrain, 1);
	const struct assay_report_train *t = &r.train[0];
	assert_string_equal(t->case_id, "combo-a");
	assert_int_equal(t->nloss, 4);
	assert_true(isnan(t->loss[2].y));
	assert_int_equal(t->nthroughput, 3);
	assert_string_equal(t->throughput_unit, "tokens/s/GPU");
	assert_true(t->warmup_steps == 1);
	assert_true(t->has_fit);
	assert_true(t->slope == -0.5);
	assert_true(t->fit_from == 2 && t->fit_to == 4);
	/* Through the mean of y - slope * x over steps 2 and 4 (3 is a gap). */
	assert_true(fabs(t->intercept - (11.5 + 11.5) / 2) < 1e-12);
	assay_report_found_release(&found);
	assay_report_release(&r);
}

static void test_errors(void **state)
{
	(void)state;
	struct assay_report r;
	struct assay_report_found f;
	struct assay_error e;
	char buf[1200];
	/* No store. */
	assert_int_equal(load("last", NULL, &r, &f, &e), ASSAY_USAGE);
	char *want = xasprintf("%s: no such store", store);
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)), want);
	free(want);
	assay_report_found_release(&f);
	assay_report_release(&r);
	/* No such run. */
	char id[64];
	make_run("r1", 1, 2, false, id);
	assert_int_equal(load("nope", NULL, &r, &f, &e), ASSAY_USAGE);
	want = xasprintf("%s: no run 'nope'", store);
	assert_string_equal(e.message, want);
	free(want);
	assay_report_found_release(&f);
	assay_report_release(&r);
	/* The run's folder is gone and no other place to write was given. */
	assert_int_equal(load(id, NULL, &r, &f, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "does not exist here"));
	assay_report_found_release(&f);
	assay_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_cases_and_header, setup),
	    cmocka_unit_test_setup(test_secrets_given, setup),
	    cmocka_unit_test_setup(test_ep_ladders, setup),
	    cmocka_unit_test_setup(test_history, setup),
	    cmocka_unit_test_setup(test_history_depth, setup),
	    cmocka_unit_test_setup(test_groups, setup),
	    cmocka_unit_test_setup(test_unended, setup),
	    cmocka_unit_test_setup(test_gates_and_training, setup),
	    cmocka_unit_test_setup(test_errors, setup),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_all);
}
