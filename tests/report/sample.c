/* A synthetic report model shaped like a real sweep (EP ladders per backend
 * and precision, training combos with warm-up and a loss fit, history series
 * with a change point, every case outcome), deterministic for a given size:
 * the input of the report tests, bench/report-speed.sh and docs screenshots. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assay/json.h"
#include "sample.h"

/* xorshift64*: deterministic noise in [0, 1). */
static double noise(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static const char *const skus[] = {"mi300x", "h200", "mi355x", "b200", "cpu-local"};
static const char *const backends[] = {"mpi", "shm", "nccl"};
static const char *const precisions[] = {"bf16", "fp8"};
static const char *const modes[] = {"normal", "low-latency"};
static const int eps[] = {2, 4, 8, 16};

/* Which outcome case i gets; every outcome appears in the first 16 cases. */
static enum assay_report_outcome outcome_of(size_t i)
{
	if (i % 16 == 3)
		return ASSAY_REPORT_GATE_FAILED;
	if (i % 16 == 5)
		return ASSAY_REPORT_WORKLOAD_FAILED;
	if (i % 32 == 11)
		return ASSAY_REPORT_NO_METRICS;
	if (i % 64 == 13)
		return ASSAY_REPORT_INFRA;
	if (i % 16 == 14)
		return ASSAY_REPORT_SKIPPED;
	if (i % 16 == 9)
		return ASSAY_REPORT_UNSUPPORTED;
	return ASSAY_REPORT_PASSED;
}

static void links(struct assay_report_case *c)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "cases/%s/stdout.log", c->id);
	assay_report_case_link(c, "stdout", buf);
	snprintf(buf, sizeof(buf), "cases/%s/stderr.log", c->id);
	assay_report_case_link(c, "stderr", buf);
	if (c->outcome == ASSAY_REPORT_PASSED || c->outcome == ASSAY_REPORT_GATE_FAILED) {
		snprintf(buf, sizeof(buf), "cases/%s/result.json", c->id);
		assay_report_case_link(c, "artifact", buf);
	}
}

static void ep_case(struct assay_report *r, size_t i, size_t j, uint64_t *rng)
{
	size_t b = j % 3, p = (j / 3) % 2, decode = (j / 6) % 2 == 0, e = (j / 12) % 4;
	size_t m = (j / 48) % 2, k = j / 96;
	char sku[32], id[256], group[96], epbuf[16];
	if (k < ARRAY_SIZE(skus))
		snprintf(sku, sizeof(sku), "%s", skus[k]);
	else
		snprintf(sku, sizeof(sku), "sku%02zu", k);
	const char *phase = decode ? "decode" : "prefill";
	snprintf(id, sizeof(id), "%s-%s-deepseek-v3-%s-%s-ep%d-uniform-%s", sku, backends[b],
		 modes[m], phase, eps[e], precisions[p]);
	enum assay_report_outcome o = outcome_of(i);
	/* shm needs every rank on one node: ep16 spans two. */
	if (b == 1 && eps[e] == 16)
		o = ASSAY_REPORT_UNSUPPORTED;
	struct assay_report_case *c = assay_report_add_case(r, id, o);
	snprintf(epbuf, sizeof(epbuf), "%d", eps[e]);
	assay_report_case_factor(c, "sku", sku);
	assay_report_case_factor(c, "backend", backends[b]);
	assay_report_case_factor(c, "mode", modes[m]);
	assay_report_case_factor(c, "phase", phase);
	assay_report_case_factor(c, "ep", epbuf);
	assay_report_case_factor(c, "precision", precisions[p]);
	c->duration_s = 20 + 40 * noise(rng) + (decode ? 0 : 35);
	switch (o) {
	case ASSAY_REPORT_WORKLOAD_FAILED:
		assay_report_set(
		    &c->reason,
		    "error signature nccl-error matched stderr.log:212:\n"
		    "\x1b[31m[rank3] NCCL WARN Call to ibv_modify_qp failed with error "
		    "Connection timed out\x1b[0m\n"
		    "environment: ASSAY_SAMPLE_TOKEN=hf_sampleSECRET42 (from the case env)");
		c->duration_s = 8.5;
		break;
	case ASSAY_REPORT_NO_METRICS:
		assay_report_set(&c->reason, "exit 0, but result.json has no ladder points");
		break;
	case ASSAY_REPORT_INFRA:
		assay_report_set(&c->reason,
				 "mpirun: could not launch on node gpu-node-07: "
				 "ssh: connect to host gpu-node-07 port 22: No route to host");
		c->duration_s = 1.2;
		break;
	case ASSAY_REPORT_UNSUPPORTED:
		assay_report_set(&c->reason,
				 b == 1 ? "backend-platform-unsupported: shm needs all "
					  "ranks on one node (ep 16 spans 2 nodes)"
					: "backend-platform-unsupported: nccl needs a GPU");
		c->duration_s = NAN;
		break;
	case ASSAY_REPORT_SKIPPED:
		assay_report_set(&c->reason, "skipped: --filter excluded it");
		c->duration_s = NAN;
		break;
	default: break;
	}
	links(c);
	if (o != ASSAY_REPORT_PASSED && o != ASSAY_REPORT_GATE_FAILED)
		return;

	snprintf(group, sizeof(group), "ep=%d · %s · %s", eps[e], sku, modes[m]);
	struct assay_report_ep *ep = assay_report_add_ep(r, id, backends[b], precisions[p], phase);
	assay_report_set(&ep->component, "roundtrip");
	assay_report_set(&ep->group, group);
	static const double base[] = {38, 14, 22}, per_token[] = {0.9, 0.35, 0.12};
	double scale = (p ? 0.62 : 1.0) * (1 + 0.18 * (double)e);
	double worst_p99_128 = 0;
	for (double t = decode ? 1 : 1024; t <= (decode ? 512 : 8192); t *= 2) {
		struct assay_report_ep_point *pt = assay_report_ep_point(ep, t);
		double lat = (base[b] + per_token[b] * t * scale) * (1 + 0.05 * noise(rng));
		pt->p50_us = lat;
		pt->p99_us = lat * (1.12 + 0.2 * noise(rng));
		/* 6 routed copies per token, 7168 columns, 2 bytes (FP8: 1 + scales). */
		double bytes = t * eps[e] * 6 * 7168 * (p ? 1.03 : 2.0);
		pt->bw_gbps = bytes / eps[e] / (lat * 1e-6) / 1e9;
		pt->max_rel_error = (p ? 0.011 : 0.0021) * (1 + noise(rng));
		pt->valid = true;
		if (t == 128)
			worst_p99_128 = pt->p99_us;
	}
	double limit = o == ASSAY_REPORT_GATE_FAILED ? worst_p99_128 * 0.8 : worst_p99_128 * 1.25;
	if (!decode)
		limit = 0;
	struct assay_report_gate *g = assay_report_add_gate(
	    r, id, "threshold",
	    o == ASSAY_REPORT_GATE_FAILED ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_PASS);
	char spec[64];
	if (decode) {
		assay_report_set(&g->metric, "roundtrip_us p99 @ T=128");
		g->value = worst_p99_128;
		snprintf(spec, sizeof(spec), "<= %.0f", limit);
	} else {
		assay_report_set(&g->metric, "roundtrip_us p99 @ T=1024");
		g->value = ep->points[0].p99_us;
		snprintf(spec, sizeof(spec), "<= %.0f",
			 g->value * (o == ASSAY_REPORT_GATE_FAILED ? 0.8 : 1.25));
	}
	assay_report_set(&g->unit, "us");
	assay_report_set(&g->spec, spec);
	if (o == ASSAY_REPORT_GATE_FAILED)
		assay_report_set(&g->message, "p99 latency above the threshold by 25%");
	g = assay_report_add_gate(r, id, "correctness", ASSAY_VERDICT_PASS);
	assay_report_set(&g->metric, "max_relative_error");
	g->value = p ? 0.021 : 0.0041;
	assay_report_set(&g->spec, "< 0.03125");
	if (o == ASSAY_REPORT_GATE_FAILED)
		assay_report_set(&c->reason, "gate threshold failed: roundtrip_us p99 above the "
					     "threshold by 25%");
}

static void train_case(struct assay_report *r, size_t i, size_t n, uint64_t *rng)
{
	static const char *const models[] = {"llama3-8b", "llama3-70b", "mixtral-8x7b"};
	char id[160], label[160];
	const char *model = models[n % 3];
	int tp = 1 << (n % 3);
	snprintf(id, sizeof(id), "mi355x-primus-%s-tp%d-bf16-%zu", model, tp, n);
	snprintf(label, sizeof(label), "%s · tp=%d · bf16 · 8 GPUs", model, tp);
	enum assay_report_outcome o = outcome_of(i) == ASSAY_REPORT_GATE_FAILED
					  ? ASSAY_REPORT_GATE_FAILED
					  : ASSAY_REPORT_PASSED;
	struct assay_report_case *c = assay_report_add_case(r, id, o);
	assay_report_case_factor(c, "workload", "primus-megatron");
	assay_report_case_factor(c, "model", model);
	char tpb[8];
	snprintf(tpb, sizeof(tpb), "%d", tp);
	assay_report_case_factor(c, "tp", tpb);
	assay_report_case_factor(c, "precision", "bf16");
	c->duration_s = 600 + 300 * noise(rng);
	links(c);

	struct assay_report_train *t = assay_report_add_train(r, id, label);
	assay_report_set(&t->throughput_unit, "tokens/s/GPU");
	t->warmup_steps = 2;
	const int steps = 120;
	double target = 7673.2 / tp;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
	for (int s = 1; s <= steps; s++) {
		double loss = 2.1 + 9.8 * exp(-(double)s / 38.0) + 0.12 * (noise(rng) - 0.5);
		if (o == ASSAY_REPORT_GATE_FAILED && s > 80)
			loss += 0.04 * (s - 80); /* diverging */
		assay_report_train_loss(t, s, loss);
		double tp_v = s == 1   ? target * 0.18
			      : s == 2 ? target * 0.55
				       : target * (0.97 + 0.05 * noise(rng));
		assay_report_train_throughput(t, s, tp_v);
		if (s > 2 && s > steps - 40) {
			sx += s;
			sy += loss;
			sxx += (double)s * s;
			sxy += s * loss;
			m++;
		}
	}
	t->has_fit = true;
	t->slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
	t->intercept = (sy - t->slope * sx) / m;
	t->fit_from = steps - 39;
	t->fit_to = steps;

	struct assay_report_gate *g = assay_report_add_gate(r, id, "threshold", ASSAY_VERDICT_PASS);
	assay_report_set(&g->metric, "tokens_per_gpu steady_mean");
	g->value = target * 0.995;
	assay_report_set(&g->unit, "tokens/s/GPU");
	char spec[64];
	snprintf(spec, sizeof(spec), ">= %.0f", target * 0.9);
	assay_report_set(&g->spec, spec);
	g = assay_report_add_gate(r, id, "loss-slope",
				  t->slope < 0 ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL);
	assay_report_set(&g->metric, "lm_loss slope");
	g->value = t->slope;
	assay_report_set(&g->unit, "per step");
	assay_report_set(&g->spec, "< 0 over the last 40 steps");
	if (t->slope >= 0) {
		assay_report_set(&g->message, "loss is rising: the run diverges after step 80");
		assay_report_set(&c->reason, "gate loss-slope failed: lm_loss slope >= 0 over the "
					     "last 40 steps");
		c->outcome = ASSAY_REPORT_GATE_FAILED;
	} else if (o == ASSAY_REPORT_GATE_FAILED) {
		c->outcome = ASSAY_REPORT_PASSED;
	}
	g = assay_report_add_gate(r, id, "threshold", ASSAY_VERDICT_RECORD);
	assay_report_set(&g->metric, "hip_memory_percent max");
	g->value = 59.33;
	assay_report_set(&g->unit, "%");
	assay_report_set(&g->spec, "record only");
	g = assay_report_add_gate(r, id, "checkpoint", ASSAY_VERDICT_SKIPPED);
	assay_report_set(&g->metric, "resume step");
	assay_report_set(&g->spec, "resume = last checkpoint + 1");
	assay_report_set(&g->message, "no checkpoint was saved in this run");
}

static void history(struct assay_report *r, size_t n, uint64_t *rng)
{
	const struct assay_report_ep *ep = &r->ep[(n * 7) % r->nep];
	char label[320];
	snprintf(label, sizeof(label), "roundtrip_us p99 · %s · T=%s", ep->case_id,
		 !strcmp(ep->phase, "decode") ? "128" : "1024");
	struct assay_report_history *h = assay_report_add_history(r, label, "µs");
	h->lower_is_better = true;
	bool regress = n % 5 == 1;
	const int points = 24;
	double level = 40 + 30 * noise(rng);
	for (int k = 0; k < points; k++) {
		char rev[16];
		snprintf(rev, sizeof(rev), "%07llx",
			 (unsigned long long)(0x1a2b3c4 + 0x9e37 * (unsigned)k + n * 7) &
			     0xfffffff);
		double v = level * (1 + 0.04 * (noise(rng) - 0.5));
		if (k >= 14)
			v *= 0.88; /* an improvement landed */
		if (regress && k == points - 1)
			v *= 1.22;
		assay_report_history_point(h, rev, v);
	}
	assay_report_history_change(h, 14);
	h->new_point = points - 1;
	h->verdict = regress ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_PASS;
	char msg[160];
	snprintf(msg, sizeof(msg), "%s: %+.1f%% against the current regime mean (limit +5%%)",
		 regress ? "regression" : "within limits", regress ? 22.0 : 1.3);
	assay_report_set(&h->message, msg);
}

void assay_report_sample(struct assay_report *r, size_t ncases)
{
	uint64_t rng = 0x9E3779B97F4A7C15ULL ^ ncases;
	char digest[65];
	assay_report_set(&r->suite, "quickstart");
	char run[64];
	snprintf(run, sizeof(run), "20261130-191502-%04zx", ncases & 0xffff);
	assay_report_set(&r->run_id, run);
	assay_report_set(&r->revision, "4c1d2e9a7b30");
	assay_report_set(&r->host, "gpu-node-01");
	assay_report_set(&r->launcher, "mpirun");
	assay_report_set(&r->started, "2026-11-30T19:15:02Z");
	assay_report_set(&r->ended, "2026-11-30T20:02:47Z");
	assay_sha256_hex("sample matrix", 13, digest);
	assay_report_set(&r->matrix_digest, digest);
	assay_sha256_hex("sample catalog", 14, digest);
	assay_report_set(&r->catalog_digest, digest);
	assay_redactor_add(&r->secrets, "HF_TOKEN", "hf_sampleSECRET42");

	size_t nep = 0, ntrain = 0;
	for (size_t i = 0; i < ncases; i++) {
		if (i % 25 == 7)
			train_case(r, i, ntrain++, &rng);
		else
			ep_case(r, i, nep++, &rng);
	}
	size_t nhist = ncases / 10 < 2 ? 2 : ncases / 10;
	for (size_t n = 0; r->nep && n < nhist; n++)
		history(r, n, &rng);
	assay_err worst = ASSAY_OK;
	for (size_t i = 0; i < r->ncases; i++)
		worst = assay_err_worst(worst, assay_report_outcome_exit(r->cases[i].outcome));
	r->exit_code = worst;
}
