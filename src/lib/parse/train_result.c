/* A training result as steps are added: the aggregates over every unique
 * step, the kept steps (thinned by doubling strides), the warm-up record,
 * the first NaN/Inf, and at the end world size, derived tokens and the
 * warm-up split. Shared by the log scanner and the golden-values parser. */
#include <math.h>
#include <string.h>

#include "train_scan.h"

void train_result_init(struct assay_train_result *r, const char *format)
{
	memset(r, 0, sizeof(*r));
	r->format = format;
	r->nonfinite_step = -1;
	r->mem_max_allocated_mb = NAN;
	r->mem_max_reserved_mb = NAN;
	r->stride = 1;
	r->keep = ASSAY_TRAIN_KEEP_STEPS;
	r->exit_iteration = -1;
	r->nan_first_step = -1;
}

void train_step_init(struct assay_train_step *s)
{
	memset(s, 0, sizeof(*s));
	s->total = -1;
	s->consumed_samples = -1;
	s->gbs = -1;
	s->skipped = -1;
	s->nan_iters = -1;
}

static double tokens_from(long long gbs, long long seq_len, double elapsed_ms, long long world)
{
	return (double)gbs * (double)seq_len * 1000.0 / (elapsed_ms * (double)world);
}

/* Tokens/s/GPU from global batch size, sequence length and elapsed time. */
void train_derive_tokens(struct assay_train_step *s, long long seq_len, long long world)
{
	const uint32_t tok = 1u << ASSAY_TM_TOKENS, el = 1u << ASSAY_TM_ELAPSED_MS;
	if (seq_len <= 0 || world <= 0 || (s->has & tok) || !(s->has & el) || s->gbs <= 0)
		return;
	if (!(s->v[ASSAY_TM_ELAPSED_MS] > 0) || !isfinite(s->v[ASSAY_TM_ELAPSED_MS]))
		return;
	s->v[ASSAY_TM_TOKENS] = tokens_from(s->gbs, seq_len, s->v[ASSAY_TM_ELAPSED_MS], world);
	s->has |= tok;
	s->derived |= tok;
	double a = s->avg[ASSAY_TM_ELAPSED_MS];
	if ((s->has_avg & el) && a > 0 && isfinite(a)) {
		s->avg[ASSAY_TM_TOKENS] = tokens_from(s->gbs, seq_len, a, world);
		s->has_avg |= tok;
	}
}

/* One finite value of metric m for CVS's fallback mean; k 1: from a label
 * CVS reads. */
static void cvs_add(struct assay_train_result *r, int k, int m, double v)
{
	if (!r->cvs_n[k][m]++)
		r->cvs_first[k][m] = v;
	r->cvs_sum[k][m] += v;
}

void train_cvs_count(struct assay_train_result *r, const struct assay_train_step *s, bool unique)
{
	for (int m = 0; m < ASSAY_TM_COUNT; m++) {
		if (!(s->has & (1u << m)) || !isfinite(s->v[m]))
			continue;
		if (unique)
			cvs_add(r, 0, m, s->v[m]);
		if ((s->cvs_label & (1u << m)) && !(s->derived & (1u << m)))
			cvs_add(r, 1, m, s->v[m]);
	}
}

/* The aggregates over every unique step, and the step's running sums. */
static void aggregate(struct assay_train_result *r, struct assay_train_step *s)
{
	train_cvs_count(r, s, true);
	for (int m = 0; m < ASSAY_TM_COUNT; m++) {
		if (!(s->has & (1u << m)) || !isfinite(s->v[m]))
			continue;
		if (!r->agg_n[m]++ || s->v[m] > r->agg_max[m])
			r->agg_max[m] = s->v[m];
		r->agg_last[m] = s->v[m];
		r->agg_last_step[m] = s->step;
		if (m < ASSAY_TM_AVG_COUNT) {
			r->agg_sum[m] += s->v[m];
			r->agg_sum_n[m]++;
			if (!r->counts)
				r->counts =
				    xcalloc(ASSAY_TM_AVG_COUNT, sizeof(struct train_counts));
			train_counts_add(&((struct train_counts *)r->counts)[m], s->v[m], 1);
		}
	}
	for (int m = 0; m < ASSAY_TM_AVG_COUNT; m++) {
		if ((s->has_avg & (1u << m)) && isfinite(s->avg[m])) {
			r->agg_avg_last[m] = s->avg[m];
			r->agg_has_avg |= 1u << m;
		}
		s->cum[m] = (double)r->agg_sum[m];
		s->cum_n[m] = r->agg_sum_n[m];
	}
	if (s->skipped >= 0) {
		r->skipped_total += s->skipped;
		r->skipped_lines++;
	}
	if (s->nan_iters >= 0) {
		r->nan_lines++;
		if (s->nan_iters > 0 && !r->nan_iters_total) {
			r->nan_first_step = s->step;
			r->nan_first_line = s->line;
		}
		r->nan_iters_total += s->nan_iters;
	}
}

/* Keep the step: every one until r->keep are kept, then every other one
 * of those and of what follows (the stride doubles), and so on. */
static void keep_step(struct assay_train_result *r, const struct assay_train_step *s)
{
	if (s->index % r->stride)
		return;
	size_t keep = r->keep ? r->keep : ASSAY_TRAIN_KEEP_STEPS;
	if (keep < 2)
		keep = 2;
	if (r->n_steps >= keep) {
		size_t j = 0;
		for (size_t i = 0; i < r->n_steps; i += 2)
			r->steps[j++] = r->steps[i];
		r->n_steps = j;
		r->stride *= 2;
		if (s->index % r->stride)
			return;
	}
	ALLOC_GROW(r->steps, r->n_steps + 1, r->alloc_steps);
	r->steps[r->n_steps++] = *s;
}

/* The metrics a warm-up takes out of the steady statistics, for the first
 * r->warm_cap unique steps. */
static void record_warm(struct assay_train_result *r, const struct assay_train_step *s)
{
	if (r->n_warm_rec >= r->warm_cap || (size_t)s->index != r->n_warm_rec)
		return;
	ALLOC_GROW(r->warm_rec, r->n_warm_rec + 1, r->alloc_warm_rec);
	for (int m = 0; m < ASSAY_TM_AVG_COUNT; m++)
		r->warm_rec[r->n_warm_rec][m] =
		    (s->has & (1u << m)) && isfinite(s->v[m]) ? s->v[m] : NAN;
	r->n_warm_rec++;
}

void train_push_step(struct assay_train_result *r, struct assay_train_step *s)
{
	s->index = (long long)r->n_logged++;
	aggregate(r, s);
	record_warm(r, s);
	keep_step(r, s);
	if (s->total > 0 && s->step == s->total)
		r->complete_iteration = true;
}

void train_note_nonfinite(struct assay_train_result *r, long long step, long line,
			  const char *label, size_t label_len, const char *text, size_t text_len)
{
	if (!r->n_nonfinite++) {
		r->nonfinite_step = step;
		r->nonfinite_line = line;
		if (label_len >= sizeof(r->nonfinite_label))
			label_len = sizeof(r->nonfinite_label) - 1;
		memcpy(r->nonfinite_label, label, label_len);
		r->nonfinite_label[label_len] = '\0';
		if (text_len >= sizeof(r->nonfinite_text))
			text_len = sizeof(r->nonfinite_text) - 1;
		memcpy(r->nonfinite_text, text, text_len);
		r->nonfinite_text[text_len] = '\0';
	}
}

void train_finish(struct assay_train_result *r, const struct assay_train_opts *o,
		  long long log_world)
{
	r->world_size = o->world_size > 0 ? o->world_size : log_world;
	r->seq_len = o->seq_len;
	/* Steps read before the world size was known get their tokens now;
	 * the aggregates have them only when no step was thinned out. */
	bool derived_now = false;
	if (o->seq_len > 0 && r->world_size > 0)
		for (size_t i = 0; i < r->n_steps; i++) {
			struct assay_train_step *s = &r->steps[i];
			bool had = s->has & (1u << ASSAY_TM_TOKENS);
			train_derive_tokens(s, o->seq_len, r->world_size);
			derived_now |= !had && (s->has & (1u << ASSAY_TM_TOKENS));
		}
	if (derived_now && r->stride == 1) {
		/* Recompute the token aggregates from the kept (= all) steps. */
		const int m = ASSAY_TM_TOKENS;
		r->agg_n[m] = 0;
		r->agg_sum[m] = 0;
		r->agg_sum_n[m] = 0;
		r->agg_has_avg &= ~(1u << m);
		r->cvs_n[0][m] = 0;
		r->cvs_sum[0][m] = 0;
		if (r->counts)
			train_counts_release(&((struct train_counts *)r->counts)[m]);
		for (size_t i = 0; i < r->n_steps; i++) {
			struct assay_train_step *s = &r->steps[i];
			if ((s->has & (1u << m)) && isfinite(s->v[m])) {
				if (!r->agg_n[m]++ || s->v[m] > r->agg_max[m])
					r->agg_max[m] = s->v[m];
				r->agg_last[m] = s->v[m];
				r->agg_last_step[m] = s->step;
				r->agg_sum[m] += s->v[m];
				r->agg_sum_n[m]++;
				cvs_add(r, 0, m, s->v[m]);
				if (!r->counts)
					r->counts = xcalloc(ASSAY_TM_AVG_COUNT,
							    sizeof(struct train_counts));
				train_counts_add(&((struct train_counts *)r->counts)[m], s->v[m],
						 1);
			}
			if ((s->has_avg & (1u << m)) && isfinite(s->avg[m])) {
				r->agg_avg_last[m] = s->avg[m];
				r->agg_has_avg |= 1u << m;
			}
			s->cum[m] = (double)r->agg_sum[m];
			s->cum_n[m] = r->agg_sum_n[m];
		}
	}
	for (size_t i = 0; i < r->n_steps; i++)
		if (r->steps[i].derived)
			r->tokens_derived = true;
	size_t w = train_warmup_rule(o, r->n_logged);
	/* Thinned: the warm-up ends at a kept step (rounded up). */
	size_t k = 0;
	while (k < r->n_steps && (size_t)r->steps[k].index < w)
		k++;
	if (r->stride > 1)
		w = k < r->n_steps ? (size_t)r->steps[k].index : r->n_logged;
	r->warmup = k;
	r->warmup_logged = w;
	for (size_t i = 0; i < r->n_steps; i++)
		r->steps[i].warmup = i < k;
}
