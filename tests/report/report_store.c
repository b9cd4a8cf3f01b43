/* Writes a synthetic results store shaped like real runs, for
 * bench/report-speed.sh and the report tests: RUNS runs (revisions r01,
 * r02, ...) of one suite of CASES cases, each case's rows made by the real
 * parsers from synthetic inputs (assay-ep artifacts with decode ladders of 10
 * points or prefill ladders of 4, Megatron training logs), stored through the
 * runner's store calls; and the last run's output folder as `assay run`
 * leaves it (summary.json, a folder per case with its logs and artifact).
 * Gates as `assay run` stores them: thresholds (a failed one makes a case
 * gate-failed), the loss curve of every training case (its steps.ndjson
 * too), and a regression verdict on the roundtrip p50 of every EP case's
 * first point. Every outcome appears; earlier runs all pass. Prints the last
 * run's id.
 *   report_store [--cases N] [--runs R] [--secret VALUE] STORE OUTDIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/json.h"
#include "assay/parse.h"
#include "assay/run.h"
#include "assay/store.h"
#include "assay/training.h"
#include "assay/util.h"

static uint64_t rng_state;

/* xorshift64*: deterministic noise in [0, 1). */
static double noise(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static const char *const skus[] = {"mi300x", "h200", "mi355x", "b200", "cpu-local"};
static const char *const backends[] = {"mpi", "shm", "nccl"};
static const char *const precisions[] = {"bf16", "fp8"};
static const char *const modes[] = {"normal", "low-latency"};
static const int eps[] = {2, 4, 8, 16};

struct gen_case {
	char id[160];
	char sku[32];
	bool train;
	size_t j; /* index among EP (or training) cases */
	enum assay_outcome outcome;
	bool slower; /* the last run's EP case is slower: a regression */
};

/* The last run's outcome of case i; earlier runs pass. Every outcome
 * appears within the first 32 cases. */
static enum assay_outcome outcome_of(size_t i, bool train)
{
	if (i % 16 == 3)
		return ASSAY_OUTCOME_GATE_FAILED;
	if (train)
		return ASSAY_OUTCOME_PASSED;
	if (i % 16 == 5)
		return ASSAY_OUTCOME_WORKLOAD_FAILED;
	if (i % 32 == 11)
		return ASSAY_OUTCOME_NO_METRICS;
	if (i % 16 == 14)
		return ASSAY_OUTCOME_SKIPPED;
	return ASSAY_OUTCOME_PASSED;
}

static void ep_case_id(size_t j, char *id, size_t size, char sku[32])
{
	size_t b = j % 3, p = (j / 3) % 2, decode = (j / 6) % 2 == 0, e = (j / 12) % 4;
	size_t m = (j / 48) % 2, k = j / 96;
	if (k < ARRAY_SIZE(skus))
		snprintf(sku, 32, "%s", skus[k]);
	else
		snprintf(sku, 32, "sku%02zu", k);
	snprintf(id, size, "%s-%s-deepseek-v3-%s-%s-ep%d-uniform-%s", sku, backends[b], modes[m],
		 decode ? "decode" : "prefill", eps[e], precisions[p]);
}

static json_t *stats(double p50)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "p50", p50, "p90", p50 * 1.06, "p95",
			 p50 * 1.09, "p99", p50 * (1.12 + 0.2 * noise()), "min", p50 * 0.93, "max",
			 p50 * 1.6);
}

/* An assay.ep.case/1 artifact for EP case j at revision run (slower by
 * `slow` as a factor). */
static char *ep_artifact(size_t j, int run, double slow, json_t **factors)
{
	size_t b = j % 3, p = (j / 3) % 2, decode = (j / 6) % 2 == 0, e = (j / 12) % 4;
	size_t m = (j / 48) % 2;
	static const double base[] = {38, 14, 22}, per_token[] = {0.9, 0.35, 0.12};
	double scale = (p ? 0.62 : 1.0) * (1 + 0.18 * (double)e);
	json_t *points = json_array(), *ladder = json_array();
	for (double t = decode ? 1 : 1024; t <= (decode ? 512 : 8192); t *= 2) {
		double lat = (base[b] + per_token[b] * t * scale) * (1 + 0.04 * noise()) * slow;
		double bytes = t * eps[e] * 6 * 7168 * (p ? 1.03 : 2.0);
		json_t *comps = json_object();
		static const char *const names[] = {"dispatch", "combine", "roundtrip",
						    "pair_period"};
		static const double share[] = {0.45, 0.55, 1.0, 0.97};
		for (size_t c = 0; c < ARRAY_SIZE(names); c++) {
			double l = lat * share[c];
			json_object_set_new(comps, names[c],
					    json_pack("{s:i, s:o, s:o, s:f, s:f, s:f}", "samples",
						      2048, "latency_us", stats(l),
						      "cross_rank_min_us", stats(l * 0.9), "bytes",
						      bytes * share[c], "gbps_per_rank",
						      bytes * share[c] / eps[e] / (l * 1e-6) / 1e9,
						      "tokens_per_s", t * eps[e] / (l * 1e-6)));
		}
		json_array_append_new(
		    points,
		    json_pack("{s:I, s:s, s:{s:f, s:f}, s:o}", "tokens", (json_int_t)t, "verdict",
			      "valid", "correctness", "gate", 0.03125, "max_relative_error",
			      (p ? 0.011 : 0.0021) * (1 + noise()), "components", comps));
		json_array_append_new(ladder, json_integer((json_int_t)t));
	}
	char finished[32];
	assay_time_rfc3339(1795000000 + (int64_t)run * 86400 + (int64_t)j, finished);
	json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i}",
			      "workload", "deepseek-v3", "backend", backends[b], "mode", modes[m],
			      "phase", decode ? "decode" : "prefill", "precision", precisions[p],
			      "routing", "uniform", "ep", eps[e], "hidden", 7168, "experts", 256,
			      "topk", 8, "seed", 67, "scale_up_domain", eps[e] > 8 ? 8 : eps[e]);
	*factors = json_deep_copy(c);
	json_object_set_new(*factors, "tokens", ladder);
	json_t *doc = json_pack("{s:s, s:s, s:s, s:o, s:{s:s}, s:o}", "schema", "assay.ep.case/1",
				"outcome", "success", "finished_at", finished, "case", c, "timing",
				"profile", "reference", "points", points);
	char *text = assay_json_dumps(doc, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
	json_decref(doc);
	return text;
}

/* A Megatron-LM log of 100 steps for training case j. */
static char *train_log(size_t j, int run, bool diverge, double slow)
{
	struct sbuf sb = SBUF_INIT;
	int tp = 1 << (j % 3);
	double tflops = 480.0 / slow;
	sbuf_addf(&sb,
		  "using world size: 8, data-parallel size: %d, tensor-model-parallel size: "
		  "%d, pipeline-model-parallel size: 1\n",
		  8 / tp, tp);
	for (int s = 1; s <= 100; s++) {
		double loss = 2.1 + 9.8 * exp(-(double)s / 38.0) + 0.12 * (noise() - 0.5);
		if (diverge && s > 70)
			loss += 0.04 * (s - 70);
		double ms = s <= 2 ? 2400.0 : 540.0 * slow * (1 + 0.03 * noise());
		sbuf_addf(
		    &sb,
		    "[2026-11-%02d 10:%02d:%02d] iteration %8d/     100 | consumed samples: "
		    "%12d | elapsed time per iteration (ms): %.1f | throughput per GPU "
		    "(TFLOP/s/GPU): %.1f | learning rate: 1.000000E-04 | global batch size:    "
		    "64 | lm loss: %.6E | loss scale: 1.0 | grad norm: 2.500 | number of skipped "
		    "iterations:   0 | number of nan iterations:   0 |\n",
		    1 + run % 28, s / 60, s % 60, s, s * 64, ms,
		    s <= 2 ? tflops * 0.2 : tflops * (0.97 + 0.05 * noise()), loss);
	}
	return sbuf_detach(&sb, NULL);
}

/* The row of metric/statistic of component comp at the ladder's first
 * point, or NULL. */
static const struct assay_row *ep_row(const struct assay_rows *rows, const char *metric,
				      const char *stat, const char *comp, bool last_point)
{
	const struct assay_row *found = NULL;
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		const char *c = json_string_value(json_object_get(r->series, "component"));
		if (!strcmp(r->metric, metric) && !strcmp(r->statistic, stat) && c &&
		    !strcmp(c, comp)) {
			found = r;
			if (!last_point)
				break;
		}
	}
	return found;
}

/* An EP case's gates: a threshold on the roundtrip p99 of its last point,
 * and a regression gate on the roundtrip p50 of its first. */
static void ep_gates(const struct assay_rows *rows, bool fail, bool slower,
		     struct assay_verdicts *out)
{
	const struct assay_row *p99 = ep_row(rows, "latency_us", "p99", "roundtrip", true);
	const struct assay_row *p50 = ep_row(rows, "latency_us", "p50", "roundtrip", false);
	if (p99) {
		double limit = p99->value * (fail ? 0.8 : 1.25);
		struct assay_verdict *v =
		    assay_verdicts_add(out, fail ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_PASS,
				       "threshold", "latency_us/p99", p99->value, "us", "<= limit",
				       "%.1f %s %.1f", p99->value, fail ? ">" : "<=", limit);
		v->series_key = xstrdup(p99->series_key);
	}
	if (p50) {
		struct assay_verdict *v = assay_verdicts_add(
		    out, slower ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_PASS, "rolling-mean",
		    "latency_us/p50", p50->value, "us", "worse by < 5% vs mean of last 5", "%s",
		    slower ? "30% worse than the mean of the last 5" : "within 5% of the mean");
		v->series_key = xstrdup(p50->series_key);
	}
}

/* A training case as the runner handles one: the log parsed, its steps
 * into dir/steps.ndjson (when dir), rows, the loss-curve gate and a
 * threshold on tflops_per_gpu (350). */
static assay_err train_case(const char *log, const struct assay_parse_opts *po, const char *dir,
			    struct assay_rows *rows, struct assay_verdicts *vs,
			    struct assay_error *e)
{
	struct assay_train_opts to;
	struct assay_train_result tr;
	assay_train_opts_init(&to);
	assay_err rc = assay_train_parse("megatron", log, strlen(log), &to, po->file, &tr, e);
	if (rc != ASSAY_OK)
		return rc;
	if (dir) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < tr.n_steps; i++) {
			json_t *o = assay_train_step_to_json(&tr.steps[i]);
			assay_json_write(&sb, o, ASSAY_JSON_SORT);
			sbuf_addch(&sb, '\n');
			json_decref(o);
		}
		char *path = xasprintf("%s/steps.ndjson", dir);
		rc = assay_write_file_atomic(path, sbuf_str(&sb), sb.len, e);
		free(path);
		sbuf_release(&sb);
	}
	if (rc == ASSAY_OK)
		rc = assay_train_rows(&tr, po, rows, e);
	if (rc == ASSAY_OK) {
		struct assay_loss_curve_spec spec = {0, 1, NULL, 0, true};
		assay_gate_loss_curve(&spec, &tr, vs);
		for (size_t i = 0; i < rows->n; i++) {
			const struct assay_row *r = &rows->v[i];
			if (strcmp(r->metric, "tflops_per_gpu") ||
			    strcmp(r->statistic, "steady_mean"))
				continue;
			struct assay_verdict *v = assay_verdicts_add(
			    vs, r->value >= 350 ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
			    "threshold", "tflops_per_gpu/steady_mean", r->value, "TFLOP/s/GPU",
			    ">= 350", "%g %s 350", r->value, r->value >= 350 ? ">=" : "<");
			v->series_key = xstrdup(r->series_key);
		}
	}
	assay_train_result_release(&tr);
	return rc;
}

/* One run as it is being written. */
struct gen_run {
	char rev[16], started[32], run_id[64];
	char *dir;    /* its output folder (written for the last run only) */
	uint64_t rng; /* its noise state */
	assay_err worst;
};

/* Case c at revision run: stored through the runner's calls; for the last
 * run also its folder, logs and artifact, and co filled for summary.json. */
static assay_err gen_case_run(struct assay_store *s, const struct gen_case *c, int run, bool last,
			      struct gen_run *g, const char *secret, struct assay_case_outcome *co,
			      struct assay_error *e)
{
	enum assay_outcome o = last ? c->outcome : ASSAY_OUTCOME_PASSED;
	if (co) {
		co->case_id = xstrdup(c->id);
		co->outcome = o;
	}
	if (o == ASSAY_OUTCOME_SKIPPED || (o == ASSAY_OUTCOME_UNSUPPORTED && !c->train)) {
		const char *why = o == ASSAY_OUTCOME_SKIPPED
				      ? "not run: --fail-fast after an earlier failure"
				      : "backend-platform-unsupported: shm needs all ranks "
					"on one node (ep 16 spans 2 nodes)";
		struct assay_case_info ci = {c->id, NULL, NULL, NULL, NULL, g->started};
		struct assay_case_result cr = {o, why, NULL, -1, NULL, NULL};
		assay_err rc = assay_store_case_record(s, g->run_id, &ci, &cr, e);
		if (co)
			co->reason = xstrdup(why);
		return rc;
	}
	char *dir = xasprintf("%s/%s", g->dir, c->id);
	char *out_log = xasprintf("%s/stdout.log", dir);
	char *err_log = xasprintf("%s/stderr.log", dir);
	json_t *factors = NULL;
	bool gate_failed = o == ASSAY_OUTCOME_GATE_FAILED;
	bool slower = last && c->slower;
	/* A failed training case is slow and diverges. */
	char *input = c->train ? train_log(c->j, run, gate_failed, gate_failed ? 1.5 : 1)
			       : ep_artifact(c->j, run, slower ? 1.3 : 1, &factors);
	if (c->train)
		factors = json_pack("{s:s, s:s, s:i, s:s}", "workload", "megatron", "model",
				    "llama3-8b", "tp", 1 << (c->j % 3), "precision", "bf16");
	struct assay_case_info ci = {c->id, factors, dir, out_log, err_log, g->started};
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts verdicts = ASSAY_VERDICTS_INIT;
	const char *reason = NULL;
	double duration = c->train ? 600 + 300 * noise() : 20 + 40 * noise();
	char *why = NULL;
	assay_err rc = assay_store_case_begin(s, g->run_id, &ci, e);
	if (rc == ASSAY_OK && last)
		rc = assay_mkdirs(dir, e);
	if (rc != ASSAY_OK)
		goto out;
	if (o == ASSAY_OUTCOME_WORKLOAD_FAILED) {
		/* With --secret, a value the report must redact (as if the store
		 * held one that escaped the run's redaction). */
		why = xasprintf("signature nccl-error in stderr: [rank3] NCCL WARN connection to "
				"gpu-node-07 timed out%s%s",
				secret ? "; token " : "", secret ? secret : "");
		reason = why;
		duration = 8.5;
	} else if (o == ASSAY_OUTCOME_NO_METRICS) {
		reason = "exit code 0 but no measurements in result.json (parser assay-ep)";
	} else {
		json_t *ctx = json_pack("{s:s, s:s, s:s, s:s}", "suite", "synthetic", "cluster",
					"lab", "scale", "1x8", "sku", c->train ? "mi355x" : c->sku);
		if (c->train)
			json_object_set_new(ctx, "precision", json_string("bf16"));
		struct assay_parse_opts po = {c->id,  ctx,        g->run_id, c->id,
					      g->rev, g->started, NULL,      NULL};
		if (c->train)
			rc = train_case(input, &po, last ? dir : NULL, &rows, &verdicts, e);
		else if ((rc = assay_parse_ep_case(input, strlen(input), &po, &rows, e)) ==
			 ASSAY_OK)
			ep_gates(&rows, gate_failed && !slower, slower, &verdicts);
		json_decref(ctx);
		if (rc != ASSAY_OK)
			goto out;
		if (o == ASSAY_OUTCOME_GATE_FAILED)
			reason = "gates: 1 FAIL, 1 PASS";
	}
	if (last) {
		char *text = c->train ? xstrdup(input) : xstrdup("");
		rc = assay_write_file_atomic(out_log, text, strlen(text), e);
		if (rc == ASSAY_OK)
			rc = assay_write_file_atomic(err_log, reason ? reason : "",
						     reason ? strlen(reason) : 0, e);
		free(text);
		if (rc == ASSAY_OK && !c->train && o != ASSAY_OUTCOME_NO_METRICS) {
			char *art = xasprintf("%s/result.json", dir);
			rc = assay_write_file_atomic(art, input, strlen(input), e);
			free(art);
		}
		if (rc != ASSAY_OK)
			goto out;
		co->reason = reason ? xstrdup(reason) : NULL;
		for (size_t k = 0; k < verdicts.n; k++)
			assay_verdicts_push_copy(&co->verdicts, &verdicts.v[k]);
		co->duration_s = duration;
		co->rows = rows.n;
		co->dir = xstrdup(dir);
	}
	g->worst = assay_err_worst(g->worst, assay_outcome_exit(o));
	struct assay_case_result cr = {o, reason, NULL, duration, &rows, &verdicts};
	rc = assay_store_case_finish(s, g->run_id, c->id, &cr, e);
out:
	assay_rows_release(&rows);
	assay_verdicts_release(&verdicts);
	json_decref(factors);
	free(input);
	free(why);
	free(dir);
	free(out_log);
	free(err_log);
	return rc;
}

static int fail(const char *what, const struct assay_error *e)
{
	fprintf(stderr, "report_store: %s: %s\n", what, e->message);
	return 5;
}

static int usage(void)
{
	fprintf(stderr, "usage: report_store [--cases N] [--runs R] [--secret VALUE] STORE "
			"OUTDIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	long long ncases = 48, nruns = 3;
	const char *store = NULL, *outdir = NULL, *secret = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
			if (!assay_parse_long(argv[++i], &ncases) || ncases < 1)
				return usage();
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			if (!assay_parse_long(argv[++i], &nruns) || nruns < 1 || nruns > 999)
				return usage();
		} else if (!strcmp(argv[i], "--secret") && i + 1 < argc) {
			secret = argv[++i];
		} else if (argv[i][0] != '-' && !store) {
			store = argv[i];
		} else if (argv[i][0] != '-' && !outdir) {
			outdir = argv[i];
		} else {
			return usage();
		}
	}
	if (!store || !outdir)
		return usage();

	struct gen_case *cases = xcalloc((size_t)ncases, sizeof(*cases));
	size_t nep = 0, ntrain = 0;
	for (size_t i = 0; i < (size_t)ncases; i++) {
		struct gen_case *c = &cases[i];
		c->train = i % 25 == 7;
		c->j = c->train ? ntrain++ : nep++;
		if (c->train)
			snprintf(c->id, sizeof(c->id), "mi355x-megatron-llama3-8b-tp%d-bf16-%zu",
				 1 << (c->j % 3), c->j);
		else
			ep_case_id(c->j, c->id, sizeof(c->id), c->sku);
		c->outcome = outcome_of(i, c->train);
		/* shm needs every rank on one node: ep16 spans two. */
		if (!c->train && c->j % 3 == 1 && (c->j / 12) % 4 == 3)
			c->outcome = ASSAY_OUTCOME_UNSUPPORTED;
		/* A few regressions: 30% slower than before, caught by a gate. */
		c->slower = !c->train && i % 50 == 17 && c->outcome == ASSAY_OUTCOME_PASSED;
		if (c->slower)
			c->outcome = ASSAY_OUTCOME_GATE_FAILED;
	}

	struct assay_store *s;
	struct assay_error e;
	if (assay_store_open(store, ASSAY_STORE_CREATE, &s, &e))
		return fail(store, &e);
	char digest[65], matrix[65];
	assay_sha256_hex("report_store catalog", 20, digest);
	assay_sha256_hex("report_store matrix", 19, matrix);
	struct assay_run_result res = {0};
	/* Every run is begun first, then the cases are written case by case,
	 * each at every revision in turn (runs stay open meanwhile), then the
	 * runs end. The rows are the same as written run by run (each run's
	 * noise has its own state, drawn in case order), but a series' points
	 * now reach the series index one after another instead of one per run
	 * spread over the whole index: a 1,000 x 100 store is written in minutes
	 * instead of an hour of rewriting index pages. The index is then denser
	 * than one grown run by run (docs/performance.md, "Issue 16"). */
	struct gen_run *runs = xcalloc((size_t)nruns + 1, sizeof(*runs));
	for (int run = 1; run <= nruns; run++) {
		struct gen_run *g = &runs[run - 1];
		snprintf(g->rev, sizeof(g->rev), nruns > 99 ? "r%03d" : "r%02d", run);
		assay_time_rfc3339(1795000000 + (int64_t)run * 86400, g->started);
		struct assay_run_info info = {NULL,   "synthetic",   g->rev,  NULL,      matrix,
					      digest, "gpu-node-01", "local", g->started};
		g->rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)run;
		if (assay_store_run_begin(s, &info, g->run_id, &e))
			return fail("run", &e);
		g->dir = xasprintf("%s/%s", outdir, g->run_id);
	}
	const struct gen_run *lastg = &runs[nruns - 1];
	res.cases = xcalloc((size_t)ncases, sizeof(*res.cases));
	res.n = (size_t)ncases;
	snprintf(res.run_id, sizeof(res.run_id), "%s", lastg->run_id);
	res.suite = xstrdup("synthetic");
	res.revision = xstrdup(lastg->rev);
	res.store = xstrdup(store);
	res.run_dir = xstrdup(lastg->dir);
	strlist_push(&res.secrets, "REPORT_STORE_SECRET");
	if (assay_mkdirs(lastg->dir, &e))
		return fail(lastg->dir, &e);
	/* One transaction per few cases (every revision of them). */
	for (size_t i = 0; i < (size_t)ncases; i++) {
		if (i % 8 == 0 && assay_store_batch_begin(s, &e))
			return fail("batch", &e);
		for (int run = 1; run <= nruns; run++) {
			struct gen_run *g = &runs[run - 1];
			rng_state = g->rng;
			if (gen_case_run(s, &cases[i], run, run == nruns, g, secret,
					 run == nruns ? &res.cases[i] : NULL, &e))
				return fail(cases[i].id, &e);
			g->rng = rng_state;
		}
		if ((i % 8 == 7 || i + 1 == (size_t)ncases) && assay_store_batch_commit(s, &e))
			return fail("batch", &e);
	}
	for (int run = 1; run <= nruns; run++) {
		struct gen_run *g = &runs[run - 1];
		if (assay_store_run_end(s, g->run_id, g->worst, &e))
			return fail("run end", &e);
		free(g->dir);
	}
	res.exit_code = runs[nruns - 1].worst;
	for (size_t i = 0; i < res.n; i++)
		res.counts[res.cases[i].outcome]++;
	json_t *doc = assay_run_summary_json(&res);
	char *text = assay_json_dumps(doc, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
	char *path = xasprintf("%s/summary.json", res.run_dir);
	if (assay_write_file_atomic(path, text, strlen(text), &e))
		return fail(path, &e);
	free(path);
	free(text);
	json_decref(doc);
	printf("%s\n", res.run_id);
	free(runs);
	assay_run_result_release(&res);
	free(cases);
	if (assay_store_close(s, &e))
		return fail("close", &e);
	return 0;
}
