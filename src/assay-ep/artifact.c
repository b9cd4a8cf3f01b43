/* The assay-ep outputs on rank 0: the case artifact (schema
 * assay.ep.case/1, docs/ep.md) and the readable table on stdout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/util.h"
#include "assay/version.h"
#include "bench.h"

/* Statistics of one component; false when it was not timed. */
static bool comp_stats(struct ep_point *pt, int comp, int m, struct assay_ep_stats *st)
{
	if (!pt->samples[comp][m] || !pt->nsamples[comp])
		return false;
	assay_ep_stats_compute(pt->samples[comp][m], pt->nsamples[comp], st);
	return true;
}

static double gbps(const struct ep_point *pt, int comp, double us)
{
	return (double)ep_point_bytes(pt, comp) / (double)pt->p.ep / (us * 1e-6) / 1e9;
}

static double tokens_per_s(const struct ep_point *pt, double us)
{
	return (double)(pt->p.tokens * pt->p.ep) / (us * 1e-6);
}

static json_t *stats_json(const struct assay_ep_stats *s)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "p50", s->p50, "p90", s->p90, "p95",
			 s->p95, "p99", s->p99, "min", s->min, "max", s->max);
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *us_or_null(double v)
{
	return v >= 0 && isfinite(v) ? json_real(v) : json_null();
}

static double p50_of(const double *samples, size_t n)
{
	struct assay_ep_stats st;
	double *v = xmalloc(n * sizeof(*v));
	memcpy(v, samples, n * sizeof(*v));
	assay_ep_stats_compute(v, n, &st);
	free(v);
	return st.p50;
}

/* p50 of the bare copy pattern timed in the trials; -1 when not measured. */
static double pattern_p50(const struct ep_point *pt)
{
	return pt->pattern && pt->npattern ? p50_of(pt->pattern, pt->npattern) : -1;
}

/* The ceiling of dispatch: the p50 of the point's own copy pattern timed in
 * the same trials (ceiling.c); efficiency = ceiling / dispatch p50, not
 * clipped (assay_ep_efficiency): above 1 when dispatch beat its copy, which
 * the artifact's efficiency_note and the table then say. */
void ep_point_ceiling(const struct ep_point *pt, double *ceiling, double *efficiency)
{
	*ceiling = *efficiency = -1;
	double pat = pattern_p50(pt);
	if (pat < 0 || !pt->samples[EP_DISPATCH][0] || !pt->nsamples[EP_DISPATCH])
		return;
	double d = p50_of(pt->samples[EP_DISPATCH][0], pt->nsamples[EP_DISPATCH]);
	assay_ep_efficiency(pat, d, ceiling, efficiency);
}

static json_t *verdict_json(const struct ep_point *pt, int pass)
{
	if (!pt->checked[pass])
		return json_null();
	const struct assay_ep_verdict *v = &pt->verdict[pass];
	json_t *checks = json_object();
	for (int c = 0; c < ASSAY_EP_CHECK_COUNT; c++)
		json_object_set_new(checks, assay_ep_check_name((enum assay_ep_check)c),
				    json_pack("{s:b, s:I}", "pass", v->failures[c] == 0, "failures",
					      (json_int_t)v->failures[c]));
	return json_pack("{s:o, s:o}", "max_relative_error", real_or_null(v->max_relative_error),
			 "checks", checks);
}

static double point_error(const struct ep_point *pt)
{
	double worst = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (!pt->checked[pass])
			continue;
		double e = pt->verdict[pass].max_relative_error;
		if (isnan(e))
			return NAN;
		if (e > worst)
			worst = e;
	}
	/* And every checked timed call (verify.c). */
	double t = pt->timed.verdict.max_relative_error;
	if (pt->timed.checked && isnan(t))
		return NAN;
	if (pt->timed.checked && t > worst)
		worst = t;
	return worst;
}

/* shm's copy routine and the p50s it was chosen on (docs/ep.md). */
static json_t *copy_json(const struct ep_run *run, const struct ep_point *pt)
{
	if (!run->be || !run->be->host_copy)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "routine", ep_copy_names[pt->copy],
			 "chosen_by", pt->copy_forced ? "--copy" : "measurement", "memcpy_us",
			 us_or_null(pt->copy_us[EP_COPY_MEMCPY]), "nt_us",
			 us_or_null(pt->copy_us[EP_COPY_NT]), "dispatch_memcpy_us",
			 us_or_null(pt->dispatch_us[EP_COPY_MEMCPY]), "dispatch_nt_us",
			 us_or_null(pt->dispatch_us[EP_COPY_NT]));
}

static json_t *point_json(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	json_t *recv = json_array();
	for (int64_t r = 0; r < pt->p.ep; r++)
		json_array_append_new(recv, json_integer(pt->rs.recv_copies[r]));
	json_t *comps = json_object();
	for (int c = 0; c < EP_COMPONENTS; c++) {
		struct assay_ep_stats mx, mn;
		if (!comp_stats(pt, c, 0, &mx) || !comp_stats(pt, c, 1, &mn))
			continue;
		json_object_set_new(
		    comps, ep_component_names[c],
		    json_pack("{s:I, s:o, s:o, s:I, s:f, s:f}", "samples", (json_int_t)mx.n,
			      "latency_us", stats_json(&mx), "cross_rank_min_us", stats_json(&mn),
			      "bytes", (json_int_t)ep_point_bytes(pt, c), "gbps_per_rank",
			      gbps(pt, c, mx.p50), "tokens_per_s", tokens_per_s(pt, mx.p50)));
	}
	bool timed = json_object_size(comps) > 0;
	json_t *reasons = json_array();
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < ASSAY_EP_CHECK_COUNT && pt->checked[pass]; c++)
			if (pt->verdict[pass].failures[c])
				json_array_append_new(
				    reasons,
				    json_sprintf("%s timing: %s failed (%lld)",
						 pass ? "after" : "before",
						 assay_ep_check_name((enum assay_ep_check)c),
						 (long long)pt->verdict[pass].failures[c]));
	struct strlist timed_why = STRLIST_INIT;
	ep_verify_reasons(pt, false, &timed_why);
	for (size_t i = 0; i < timed_why.n; i++)
		json_array_append_new(reasons, json_string(timed_why.v[i]));
	strlist_clear(&timed_why);
	json_t *copy = copy_json(run, pt);
	double ceiling = -1, efficiency = -1;
	ep_point_ceiling(pt, &ceiling, &efficiency);
	json_t *doc = json_pack(
	    "{s:I, s:I, s:s, s:o, s:b, s:{s:I, s:f, s:I, s:I, s:o}, s:{s:I, s:I, s:I},"
	    " s:{s:f, s:o, s:o, s:o}, s:o}",
	    "tokens", (json_int_t)pt->p.tokens, "global_tokens",
	    (json_int_t)(pt->p.tokens * pt->p.ep), "verdict", pt->valid ? "valid" : "invalid",
	    "reasons", reasons, "timed", timed, "routing", "routed_copies",
	    (json_int_t)pt->rs.routed_copies, "fanout_mean", pt->rs.fanout_mean, "fanout_min",
	    (json_int_t)pt->rs.fanout_min, "fanout_max", (json_int_t)pt->rs.fanout_max,
	    "recv_copies", recv, "bytes", "dispatch", (json_int_t)ep_point_bytes(pt, EP_DISPATCH),
	    "combine", (json_int_t)ep_point_bytes(pt, EP_COMBINE), "roundtrip",
	    (json_int_t)ep_point_bytes(pt, EP_ROUNDTRIP), "correctness", "gate", ASSAY_EP_GATE,
	    "max_relative_error", real_or_null(point_error(pt)), "before", verdict_json(pt, 0),
	    "after", verdict_json(pt, 1), "components",
	    timed ? comps : (json_decref(comps), json_null()));
	json_object_set_new(json_object_get(doc, "correctness"), "timed", ep_verify_json(pt));
	json_object_set_new(doc, "wall_seconds", json_real(pt->seconds));
	json_t *rj = json_object_get(doc, "routing");
	json_object_set_new(rj, "expert_load_max", json_integer(pt->rs.expert_load_max));
	json_object_set_new(rj, "expert_load_mean", json_real(pt->rs.expert_load_mean));
	json_object_set_new(rj, "imbalance_expert", json_real(pt->rs.imbalance_expert));
	json_object_set_new(rj, "imbalance_rank", json_real(pt->rs.imbalance_rank));
	json_object_set_new(doc, "copy", copy);
	json_object_set_new(doc, "copy_pattern_us", us_or_null(pattern_p50(pt)));
	json_object_set_new(doc, "ceiling_us", us_or_null(ceiling));
	json_object_set_new(doc, "efficiency", us_or_null(efficiency));
	if (run->ll)
		ep_ll_point_json(run, pt, doc);
	json_object_set_new(
	    doc, "efficiency_note",
	    efficiency > 1
		? json_sprintf("above 1: dispatch (p50 %.3f us) beat its same-shape copy "
			       "(p50 %.3f us), which is no bound at this point",
			       ceiling / efficiency, ceiling)
		: json_null());
	return doc;
}

assay_err ep_write_artifact(struct ep_run *run, const char *outcome, const struct strlist *reasons,
			    int exit_code, struct assay_error *e)
{
	const struct assay_ep_problem *p = &run->base;
	json_t *ladder = json_array(), *why = json_array(), *points = json_array();
	for (size_t i = 0; i < run->npoints; i++)
		json_array_append_new(ladder, json_integer(run->ladder[i]));
	for (size_t i = 0; i < reasons->n; i++)
		json_array_append_new(why, json_string(reasons->v[i]));
	for (size_t i = 0; run->points && i < run->npoints; i++)
		json_array_append_new(points, point_json(run, &run->points[i]));
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int len = 0;
	MPI_CHECK(MPI_Get_library_version(mpi, &len));
	char *nl = strchr(mpi, '\n');
	if (nl)
		*nl = '\0';
	json_t *timing = assay_timing_to_json(&run->timing);
	json_t *doc = json_pack(
	    "{s:s, s:s, s:o, s:i, s:{s:s, s:s, s:s}, s:s, s:s, s:f, s:{s:s, s:s, s:i},"
	    " s:{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:I, s:o, s:s?, s:s?, s:s},"
	    " s:o, s:o}",
	    "schema", "assay.ep.case/1", "outcome", outcome, "reasons", why, "exit_code", exit_code,
	    "tool", "name", "assay-ep", "version", assay_version_string, "revision",
	    assay_git_revision, "started_at", run->started_at, "finished_at", run->finished_at,
	    "wall_seconds", run->finished - run->started, "host", "hostname", host, "mpi", mpi,
	    "ranks", run->size, "case", "workload", run->workload, "backend", run->backend_name,
	    "mode", run->mode, "phase", run->phase, "precision", ep_precision_name(p->precision),
	    "ep", (json_int_t)p->ep, "hidden", (json_int_t)p->hidden, "experts",
	    (json_int_t)p->experts, "topk", (json_int_t)p->topk, "seed", (json_int_t)p->seed,
	    "routing", assay_ep_dist_label(p), "scale_up_domain", (json_int_t)p->scale_up_domain,
	    "tokens", ladder, "copy",
	    run->be && run->be->host_copy ? (run->copy_set ? ep_copy_names[run->copy] : "auto")
					  : NULL,
	    "reduce", run->be && run->be->host_data ? ep_reduce_names[ep_reduce_isa()] : NULL,
	    "inject", ep_inject_names[run->inject], "timing", timing, "points", points);
	if (!doc)
		return assay_error_set(e, ASSAY_INFRA, "cannot build the artifact JSON");
	if (run->ll)
		ep_ll_case_json(run, json_object_get(doc, "case"));
	json_object_set_new(json_object_get(doc, "case"), "verify",
			    json_pack("{s:s, s:I}", "calls", ep_verify_names[run->verify], "seed",
				      (json_int_t)run->verify_seed));
	char *text = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	json_decref(doc);
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, text);
	sbuf_addch(&sb, '\n');
	free(text);
	assay_err rc = assay_write_file_atomic(run->out_file, sb.buf, sb.len, e);
	sbuf_release(&sb);
	return rc;
}

void ep_print_table(struct ep_run *run)
{
	const struct assay_ep_problem *p = &run->base;
	printf("assay-ep %s: ep %lld, %s %s, %s, hidden %lld, top-%lld of %lld, seed %llu, "
	       "routing %s, scale-up domain %lld, profile %s\n",
	       run->backend_name, (long long)p->ep, run->mode, run->phase,
	       ep_precision_name(p->precision), (long long)p->hidden, (long long)p->topk,
	       (long long)p->experts, (unsigned long long)p->seed, assay_ep_dist_label(p),
	       (long long)p->scale_up_domain, run->timing.profile);
	printf("%7s  %-11s %10s %10s %10s %10s %10s %12s  %s\n", "tokens", "component", "p50_us",
	       "p99_us", "min_us", "xmin_p50", "GB/s/rank", "tokens/s", "verdict");
	for (size_t i = 0; i < run->npoints; i++) {
		struct ep_point *pt = &run->points[i];
		double err = point_error(pt);
		bool any = false;
		for (int c = 0; c < EP_COMPONENTS; c++) {
			struct assay_ep_stats mx, mn;
			if (!comp_stats(pt, c, 0, &mx) || !comp_stats(pt, c, 1, &mn))
				continue;
			any = true;
			printf("%7lld  %-11s %10.1f %10.1f %10.1f %10.1f %10.2f %12.0f  %s\n",
			       (long long)pt->p.tokens, ep_component_names[c], mx.p50, mx.p99,
			       mx.min, mn.p50, gbps(pt, c, mx.p50), tokens_per_s(pt, mx.p50),
			       pt->valid ? "valid" : "INVALID");
		}
		if (!any)
			printf("%7lld  %-11s %10s %10s %10s %10s %10s %12s  %s\n",
			       (long long)pt->p.tokens, "-", "-", "-", "-", "-", "-", "-",
			       pt->valid ? "valid" : "INVALID (not timed)");
		if (run->ll) {
			ep_ll_print_point(run, pt);
			continue;
		}
		printf(
		    "%7s  max_relative_error %s%.3g (gate %.5f), imbalance expert %.2f rank %.2f",
		    "", isnan(err) ? "not finite " : "", isnan(err) ? 0.0 : err, ASSAY_EP_GATE,
		    pt->rs.imbalance_expert, pt->rs.imbalance_rank);
		double ceiling, eff;
		ep_point_ceiling(pt, &ceiling, &eff);
		if (ceiling >= 0)
			printf(", dispatch ceiling %.1f us, efficiency %.2f%s", ceiling, eff,
			       eff > 1 ? " (above 1: dispatch beat its copy)" : "");
		if (pt->timed.checked)
			printf(", %lld timed calls checked (%lld failed)",
			       (long long)pt->timed.calls, (long long)pt->timed.failed);
		/* Which routine and the figures it was chosen on: dispatch's
		 * p50s, or the pattern's when --copy forced it. */
		const double *us = pt->dispatch_us[0] >= 0 ? pt->dispatch_us : pt->copy_us;
		if (run->be && run->be->host_copy && us[0] >= 0)
			printf(", copy %s (%s memcpy %.1f us, nt %.1f us)", ep_copy_names[pt->copy],
			       us == pt->dispatch_us ? "dispatch" : "pattern", us[EP_COPY_MEMCPY],
			       us[EP_COPY_NT]);
		printf("\n");
	}
}
