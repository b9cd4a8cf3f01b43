/* Iteration lines: "iteration N/ M | label: value | ..." into a step. The
 * line is split at its bars, each segment's label looked up in one table
 * (the labels of both dialects), its value read as a metric, an instant /
 * running-average pair, a count or memory sizes; a step number seen before
 * counts as a duplicate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "train_scan_int.h"

/* The first c in [p, end), or NULL: memchr for the short stretches of a
 * line (segments of 20 to 60 bytes), where the call costs more than the
 * search. */
static inline const char *byte_in(const char *p, const char *end, char c)
{
#ifdef __SSE2__
	const __m128i cc = _mm_set1_epi8(c);
	for (; end - p >= 16; p += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), cc));
		if (m)
			return p + __builtin_ctz(m);
	}
#endif
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
}

/* Adds step to the set; false when it was there already. */
static bool set_add(struct scan *s, long long step)
{
	if ((s->set_n + 1) * 2 > s->set_cap) {
		size_t cap = s->set_cap ? s->set_cap * 2 : 1024;
		long long *set = xmalloc(cap * sizeof(*set));
		for (size_t i = 0; i < cap; i++)
			set[i] = -1;
		for (size_t i = 0; i < s->set_cap; i++) {
			if (s->set[i] < 0)
				continue;
			size_t h = assay_mix64((uint64_t)s->set[i]) & (cap - 1);
			while (set[h] >= 0)
				h = (h + 1) & (cap - 1);
			set[h] = s->set[i];
		}
		free(s->set);
		s->set = set;
		s->set_cap = cap;
	}
	size_t h = assay_mix64((uint64_t)step) & (s->set_cap - 1);
	while (s->set[h] >= 0) {
		if (s->set[h] == step)
			return false;
		h = (h + 1) & (s->set_cap - 1);
	}
	s->set[h] = step;
	s->set_n++;
	return true;
}

/* True the first time a step number is seen. Logs count up, so while they
 * do, a new step is simply a larger one; the first step out of order
 * switches to a hash set of the steps seen (of at most opts.keep_steps:
 * beyond that, or once steps were thinned out, a step not above the
 * largest seen counts as a repeat). */
static bool first_sight(struct scan *s, long long step)
{
	struct assay_train_result *r = s->r;
	size_t cap = r->keep ? r->keep : ASSAY_TRAIN_KEEP_STEPS;
	if (!r->n_logged || step > s->max_step) {
		s->max_step = step;
		if (s->unordered && s->set_n < cap)
			set_add(s, step);
		return true;
	}
	if (s->unordered)
		return s->set_n < cap ? set_add(s, step) : false;
	if (r->stride > 1)
		return false;
	size_t lo = 0, hi = r->n_steps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->steps[mid].step < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->n_steps && r->steps[lo].step == step)
		return false;
	s->unordered = true;
	for (size_t i = 0; i < r->n_steps; i++)
		set_add(s, r->steps[i].step);
	return set_add(s, step);
}

enum seg_kind { SEG_METRIC, SEG_COMPUTE, SEG_COUNT, SEG_HIP, SEG_ROCM };
enum count_field { F_CONSUMED, F_GBS, F_SKIPPED, F_NAN };

struct label {
	const char *text;
	size_t len;
	unsigned char kind, id, dialects;
};

#define ALL    (TRAIN_LABELS_MEGATRON | TRAIN_LABELS_PRIMUS)
#define PRIMUS TRAIN_LABELS_PRIMUS
static const struct label labels[] = {
    {LIT("consumed samples"), SEG_COUNT, F_CONSUMED, ALL},
    {LIT("elapsed time per iteration (ms)"), SEG_METRIC, ASSAY_TM_ELAPSED_MS, ALL},
    {LIT("throughput per GPU (TFLOP/s/GPU)"), SEG_METRIC, ASSAY_TM_TFLOPS, ALL},
    {LIT("learning rate"), SEG_METRIC, ASSAY_TM_LR, ALL},
    {LIT("global batch size"), SEG_COUNT, F_GBS, ALL},
    {LIT("lm loss"), SEG_METRIC, ASSAY_TM_LM_LOSS, ALL},
    {LIT("loss scale"), SEG_METRIC, ASSAY_TM_LOSS_SCALE, ALL},
    {LIT("grad norm"), SEG_METRIC, ASSAY_TM_GRAD_NORM, ALL},
    {LIT("number of skipped iterations"), SEG_COUNT, F_SKIPPED, ALL},
    {LIT("number of nan iterations"), SEG_COUNT, F_NAN, ALL},
    {LIT("mem usages"), SEG_METRIC, ASSAY_TM_MEM_RATIO, ALL},
    {LIT("tokens per GPU (tokens/s/GPU)"), SEG_METRIC, ASSAY_TM_TOKENS, ALL},
    {LIT("compute per GPU (TFLOP/s/GPU)"), SEG_COMPUTE, ASSAY_TM_TFLOPS, PRIMUS},
    {LIT("tokens/s/GPU inst/harmonic mean"), SEG_METRIC, ASSAY_TM_TOKENS, PRIMUS},
    {LIT("hip mem usage/free/total/usage_ratio"), SEG_HIP, 0, PRIMUS},
    {LIT("rocm mem usage/free/total/usage_ratio"), SEG_ROCM, 0, PRIMUS},
};
#undef ALL
#undef PRIMUS

static const struct label *find_label(const char *p, size_t n, unsigned dialects)
{
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++)
		if (labels[i].len == n && (labels[i].dialects & dialects) &&
		    !memcmp(labels[i].text, p, n))
			return &labels[i];
	return NULL;
}

/* Per-line state while reading an iteration line's segments. */
struct line_ctx {
	struct scan *s;
	struct assay_train_step *st;
	long line;
	double compute,
	    compute_avg; /* "compute per GPU", used when "throughput per GPU" is absent */
	bool has_compute, has_compute_avg;
};

static void nonfinite(struct line_ctx *c, const char *label, size_t label_len, const char *text,
		      const char *text_end, int metric)
{
	if (metric >= 0)
		c->st->nonfinite |= 1u << metric;
	train_note_nonfinite(c->s->r, c->st->step, c->line, label, label_len, text,
			     (size_t)(text_end - text));
}

/* Up to 4 numbers separated by units and slashes: "170.86GB/117.12GB/287.98GB/59.33%".
 * Sizes are scaled to GB; a percentage is returned as a ratio (*percent set). */
static int mem_numbers(const char *p, const char *end, double v[4], bool *percent)
{
	int n = 0;
	*percent = false;
	while (n < 4) {
		const char *start = p, *q = train_number(p, end, &v[n]);
		if (!q)
			break;
		p = q;
		if (p < end && (*p == 'M' || *p == 'K' || *p == 'T'))
			v[n] *= *p == 'M' ? 1.0 / 1024 : *p == 'K' ? 1.0 / 1048576 : 1024;
		while (p < end && is_alpha(*p))
			p++;
		if (p < end && *p == '%') {
			/* A percentage becomes a ratio, rounded once: 59.33% -> 0.5933. */
			train_decimal(start, q, -2, &v[n]);
			*percent = true;
			p++;
		}
		n++;
		if (p >= end || *p != '/')
			break;
		p++;
	}
	return n;
}

static void set_metric(struct assay_train_step *st, int m, double v)
{
	st->v[m] = v;
	st->has |= 1u << m;
}

static void memory_segment(struct line_ctx *c, const struct label *l, const char *label,
			   const char *val, const char *end)
{
	double v[4];
	bool percent;
	int n = mem_numbers(val, end, v, &percent);
	int ratio = l->kind == SEG_HIP ? ASSAY_TM_MEM_RATIO : ASSAY_TM_ROCM_RATIO;
	int gb = l->kind == SEG_HIP ? ASSAY_TM_MEM_GB : ASSAY_TM_ROCM_GB;
	for (int i = 0; i < n; i++)
		if (!isfinite(v[i]))
			nonfinite(c, label, l->len, val, end, i == 3 ? ratio : gb);
	if (n >= 1)
		set_metric(c->st, gb, v[0]);
	if (n == 4)
		set_metric(c->st, ratio, v[3]);
}

/* "X", "X/Y" (instant / running average) or "X (avg Y)". */
static void metric_segment(struct line_ctx *c, const struct label *l, const char *label,
			   const char *val, const char *end)
{
	double x, y = NAN;
	const char *p = train_number(val, end, &x);
	if (!p)
		return;
	int m = l->id;
	if (!isfinite(x))
		nonfinite(c, label, l->len, val, p, m);
	bool has_y = false;
	const char *q = skip_spaces(p, end);
	const char *yp = NULL;
	if (q < end && *q == '/')
		yp = q + 1;
	else if (end - q >= 5 && !memcmp(q, "(avg ", 5))
		yp = q + 5;
	if (yp) {
		const char *ye = train_number(skip_spaces(yp, end), end, &y);
		if (ye) {
			has_y = true;
			if (!isfinite(y))
				nonfinite(c, label, l->len, yp, ye, m);
		}
	}
	if (l->kind == SEG_COMPUTE) {
		c->compute = x;
		c->has_compute = true;
		c->compute_avg = y;
		c->has_compute_avg = has_y;
		return;
	}
	set_metric(c->st, m, x);
	/* CVS's per-iteration patterns read these three labels, no other. */
	if (m == ASSAY_TM_ELAPSED_MS || m == ASSAY_TM_TFLOPS || m == ASSAY_TM_MEM_RATIO)
		c->st->cvs_label |= 1u << m;
	if (m == ASSAY_TM_MEM_RATIO && isfinite(x)) {
		c->s->r->mem_iter_last = x;
		c->s->r->mem_iter_line = c->line;
	}
	if (has_y && m < ASSAY_TM_AVG_COUNT) {
		c->st->avg[m] = y;
		c->st->has_avg |= 1u << m;
	}
}

static void count_segment(struct line_ctx *c, const struct label *l, const char *label,
			  const char *val, const char *end)
{
	double x;
	const char *p = train_number(val, end, &x);
	if (!p)
		return;
	if (!isfinite(x)) {
		nonfinite(c, label, l->len, val, p, -1);
		return;
	}
	if (x < 0 || x > 9e15)
		return;
	long long v = (long long)x;
	switch (l->id) {
	case F_CONSUMED: c->st->consumed_samples = v; break;
	case F_GBS: c->st->gbs = v; break;
	case F_SKIPPED: c->st->skipped = v; break;
	case F_NAN: c->st->nan_iters = v; break;
	}
}

/* One "label: value" segment in [p, end). */
static void segment(struct line_ctx *c, const char *p, const char *end)
{
	p = skip_spaces(p, end);
	const char *colon = byte_in(p, end, ':');
	if (!colon)
		return;
	const char *le = colon;
	while (le > p && (le[-1] == ' ' || le[-1] == '\t'))
		le--;
	const char *val = skip_spaces(colon + 1, end);
	const struct label *l =
	    find_label(p, (size_t)(le - p), TRAIN_LABELS_MEGATRON | TRAIN_LABELS_PRIMUS);
	if (l && !(l->dialects & TRAIN_LABELS_MEGATRON)) {
		/* A label only Primus prints. */
		c->s->ev_primus = true;
		if (!(l->dialects & c->s->d->labels)) {
			if (!c->s->r->other_family_line)
				c->s->r->other_family_line = c->line;
			return;
		}
	}
	if (!l) {
		/* Unknown segment: still, NaN or Inf in any metric fails the run. */
		double x;
		const char *q = train_number(val, end, &x);
		if (q && !isfinite(x))
			nonfinite(c, p, (size_t)(le - p), val, q, -1);
		return;
	}
	switch (l->kind) {
	case SEG_METRIC:
	case SEG_COMPUTE: metric_segment(c, l, p, val, end); break;
	case SEG_COUNT: count_segment(c, l, p, val, end); break;
	case SEG_HIP:
	case SEG_ROCM: memory_segment(c, l, p, val, end); break;
	}
}

/* "iteration N/ M | label: value | ..." from p (after "iteration"). */
bool train_step_line(struct scan *s, const char *ls, const char *it, const char *le)
{
	long long step, total;
	const char *p = read_count(skip_spaces(it + 9, le), le, &step);
	if (!p)
		return false;
	p = skip_spaces(p, le);
	if (p >= le || *p != '/')
		return false;
	p = read_count(skip_spaces(p + 1, le), le, &total);
	if (!p)
		return false;
	p = skip_spaces(p, le);
	if (p >= le || *p != '|')
		return false;
	struct assay_train_step st;
	train_step_init(&st);
	st.step = step;
	st.total = total;
	struct line_ctx c = {s, &st, line_of(s, ls), 0, 0, false, false};
	st.line = c.line;
	while (p < le) {
		const char *seg = p + 1;
		const char *bar = byte_in(seg, le, '|');
		const char *seg_end = bar ? bar : le;
		segment(&c, seg, seg_end);
		p = seg_end;
	}
	if (!(st.has & (1u << ASSAY_TM_TFLOPS)) && c.has_compute) {
		set_metric(&st, ASSAY_TM_TFLOPS, c.compute);
		if (c.has_compute_avg) {
			st.avg[ASSAY_TM_TFLOPS] = c.compute_avg;
			st.has_avg |= 1u << ASSAY_TM_TFLOPS;
		}
	}
	if (s->d->prefix_world && !s->log_world) {
		s->log_world = s->d->prefix_world(ls, (size_t)(it - ls));
		if (s->log_world)
			s->ev_primus = true;
	}
	s->ev_megatron = true;
	if (first_sight(s, step)) {
		long long world = s->o->world_size > 0 ? s->o->world_size
				  : s->line_world      ? s->line_world
						       : s->log_world;
		train_derive_tokens(&st, s->o->seq_len, world);
		train_push_step(s->r, &st); /* sets st.index */
		if (s->o->on_step)
			s->o->on_step(&st, s->o->on_step_arg);
	} else {
		s->r->duplicates++;
		/* CVS's patterns read every copy of a line. */
		train_cvs_count(s->r, &st, false);
	}
	return true;
}
