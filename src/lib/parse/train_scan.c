/* The streaming scanner shared by the Megatron-LM and Primus parsers: whole
 * lines are scanned in blocks as they arrive (a line longer than the cap in
 * pieces); iteration, memory, evaluation, checkpoint, timer, summary,
 * completion, exit and world-size lines are found with memmem() over each
 * block, iteration lines split into "label: value" segments, numbers read on
 * a fast exact path, other lines checked against the error signatures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <strings.h>

#include <stdio.h>

#include "assay/watch.h"
#include "train_scan.h"

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool is_word(char c)
{
	return is_alpha(c) || is_digit(c) || c == '_';
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The first needle (n >= 2 bytes) in [p, end). With SSE2, 16 places at a
 * time are tested for the needle's first two bytes and only those compared
 * whole: about twice as fast as memmem on log lines, where the call itself
 * was most of the cost. */
static const char *find(const char *p, const char *end, const char *needle, size_t n)
{
	if (p >= end || (size_t)(end - p) < n)
		return NULL;
#ifdef __SSE2__
	if (n < 2)
		return memchr(p, needle[0], (size_t)(end - p));
	const __m128i c0 = _mm_set1_epi8(needle[0]), c1 = _mm_set1_epi8(needle[1]);
	const char *last = end - n; /* the last place a match can start */
	const char *q = p;
	for (; end - q >= 17; q += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(q + 1));
		unsigned m = (unsigned)_mm_movemask_epi8(
		    _mm_and_si128(_mm_cmpeq_epi8(a, c0), _mm_cmpeq_epi8(b, c1)));
		while (m) {
			const char *c = q + __builtin_ctz(m);
			if (c > last)
				return NULL;
			if (!memcmp(c + 2, needle + 2, n - 2))
				return c;
			m &= m - 1;
		}
	}
	if (q > last)
		return NULL;
	p = q;
#endif
	return memmem(p, (size_t)(end - p), needle, n);
}

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

/* Does [start, at) end with the literal s? */
static bool preceded_by(const char *start, const char *at, const char *s, size_t n)
{
	return (size_t)(at - start) >= n && !memcmp(at - n, s, n);
}

#define LIT(s) s, sizeof(s) - 1

/* ---- numbers ---- */

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* nan, inf, infinity in any case, not followed by a letter. */
static const char *special(const char *p, const char *end, bool neg, double *out)
{
	if (end - p < 3)
		return NULL;
	char a = (char)(p[0] | 0x20), b = (char)(p[1] | 0x20), c = (char)(p[2] | 0x20);
	const char *q;
	double v;
	if (a == 'n' && b == 'a' && c == 'n') {
		q = p + 3;
		v = NAN;
	} else if (a == 'i' && b == 'n' && c == 'f') {
		q = p + 3;
		if (end - q >= 5 && !strncasecmp(q, "inity", 5))
			q += 5;
		v = neg ? -INFINITY : INFINITY;
	} else {
		return NULL;
	}
	if (q < end && is_alpha(*q))
		return NULL;
	*out = v;
	return q;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_DIGITS 1
/* How many of the 8 bytes of w (the first in its low byte) lead with ASCII
 * digits: a byte is one when its high nibble is 3 both as it is and plus 6.
 * A carry out of a byte >= 0xFA only reaches later bytes, past the count. */
static inline unsigned swar_count(uint64_t w)
{
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0ULL, threes = 0x3030303030303030ULL;
	uint64_t f = ((w & hi) ^ threes) | (((w + 0x0606060606060606ULL) & hi) ^ threes);
	return f ? (unsigned)__builtin_ctzll(f) / 8 : 8;
}

/* The value of the first k (1 to 8) digits of w: pairs, then fours, then
 * eight, each step a multiply and a shift over every lane at once (the
 * bytes past the digits are shifted out first; their borrows only go up). */
static inline uint64_t swar_value(uint64_t w, unsigned k)
{
	uint64_t v = (w - 0x3030303030303030ULL) << (8 * (8 - k));
	v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFULL;
	v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFULL;
	return (v * 10000 + (v >> 32)) & 0xFFFFFFFFULL;
}

static const uint64_t pow10_int[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
#endif

/* The number at p times 10^shift, correctly rounded on the fast path. */
static inline __attribute__((always_inline)) const char *decimal(const char *p, const char *end,
								 int shift, double *out)
{
	const char *start = p;
	bool neg = false;
	if (p < end && (*p == '-' || *p == '+')) {
		neg = *p == '-';
		p++;
	}
	if (p < end && !is_digit(*p) && *p != '.')
		return special(p, end, neg, out);
	uint64_t m = 0;
	long exp10 = shift;
	bool any = false, exact = true;
	const uint64_t limit = 100000000000000000ULL; /* 1e17: m * 10 + 9 fits */
#ifdef SWAR_DIGITS
	/* Up to 7 digits at once, without a branch per digit (the loops below
	 * then stop at once; 8 or more digits take the loops from the start). */
	uint64_t w;
	unsigned k;
	if (end - p >= 8 && (memcpy(&w, p, 8), k = swar_count(w)) < 8 && k > 0) {
		m = swar_value(w, k);
		any = true;
		p += k;
	}
#endif
	while (p < end && is_digit(*p)) {
		any = true;
		if (m < limit)
			m = m * 10 + (uint64_t)(*p - '0');
		else {
			exp10++;
			exact = false;
		}
		p++;
	}
	if (p < end && *p == '.') {
		const char *q = p + 1;
#ifdef SWAR_DIGITS
		if (m < 10000000000ULL && end - q >= 8 &&
		    (memcpy(&w, q, 8), k = swar_count(w)) < 8 && k > 0) {
			m = m * pow10_int[k] + swar_value(w, k);
			exp10 -= (long)k;
			any = true;
			q += k;
		}
#endif
		while (q < end && is_digit(*q)) {
			any = true;
			if (m < limit) {
				m = m * 10 + (uint64_t)(*q - '0');
				exp10--;
			} else if (*q != '0') {
				exact = false;
			}
			q++;
		}
		if (any)
			p = q;
	}
	if (!any)
		return NULL;
	if (p < end && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;
		bool eneg = false;
		if (q < end && (*q == '+' || *q == '-')) {
			eneg = *q == '-';
			q++;
		}
		if (q < end && is_digit(*q)) {
			long e = 0;
			while (q < end && is_digit(*q)) {
				if (e < 100000)
					e = e * 10 + (*q - '0');
				q++;
			}
			exp10 += eneg ? -e : e;
			p = q;
		}
	}
	double v;
	if (exact && m <= (1ULL << 53) && exp10 >= -22 && exp10 <= 22) {
		/* Both operands exact, so one rounding: the correctly rounded value. */
		v = exp10 < 0 ? (double)m / pow10_exact[-exp10] : (double)m * pow10_exact[exp10];
	} else {
		char buf[80];
		size_t n = (size_t)(p - start);
		if (n < sizeof(buf)) {
			memcpy(buf, start, n);
			buf[n] = '\0';
			*out = strtod(buf, NULL) * pow(10.0, shift);
			return p;
		}
		v = (double)m * pow(10.0, (double)exp10);
	}
	*out = neg ? -v : v;
	return p;
}

const char *train_number(const char *p, const char *end, double *out)
{
	return decimal(p, end, 0, out);
}

bool train_has_mark(const char *data, size_t len, size_t limit, const char *const marks[], size_t n)
{
	if (len > limit)
		len = limit;
	for (size_t i = 0; i < n; i++)
		if (memmem(data, len, marks[i], strlen(marks[i])))
			return true;
	return false;
}

/* ---- result helpers ---- */

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
static void derive_tokens(struct assay_train_step *s, long long seq_len, long long world)
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

/* The aggregates over every unique step, and the step's running sums. */
static void aggregate(struct assay_train_result *r, struct assay_train_step *s)
{
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
			derive_tokens(s, o->seq_len, r->world_size);
			derived_now |= !had && (s->has & (1u << ASSAY_TM_TOKENS));
		}
	if (derived_now && r->stride == 1) {
		/* Recompute the token aggregates from the kept (= all) steps. */
		const int m = ASSAY_TM_TOKENS;
		r->agg_n[m] = 0;
		r->agg_sum[m] = 0;
		r->agg_sum_n[m] = 0;
		r->agg_has_avg &= ~(1u << m);
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
/* ---- the scanner ---- */

struct scan {
	const struct train_dialect *d;
	const struct assay_train_opts *o;
	struct assay_train_result *r;
	const char *counted;  /* line numbers are known up to here */
	long line_no;         /* the line that `counted` is on */
	long long log_world;  /* from a logger prefix (Primus rank-R/W) */
	long long line_world; /* from a line that states it */
	long long max_step;   /* the largest step number seen */
	bool unordered;       /* a step came out of order: use the set from then on */
	long long *set;       /* open-addressing set of step numbers seen */
	size_t set_cap, set_n;
	/* Evidence of the format: lines only Primus prints, lines Megatron-LM
	 * prints (Primus prints them too). */
	bool auto_format, ev_primus, ev_megatron;
	unsigned long long fed; /* bytes scanned so far */
	struct assay_classifier *cls;
};

/* The 1-based number of the line starting at ls; lines are counted by
 * their \n (a \r ends a line for the scanner, not for line numbers). */
static long line_of(struct scan *s, const char *ls)
{
	const char *p = s->counted;
	if (ls < p) {
		/* Back within the current block (a classified line came first). */
		for (const char *q = ls; q < p && (q = memchr(q, '\n', (size_t)(p - q))); q++)
			s->line_no--;
		s->counted = ls;
		return s->line_no;
	}
	while (p < ls && (p = memchr(p, '\n', (size_t)(ls - p)))) {
		s->line_no++;
		p++;
	}
	s->counted = ls;
	return s->line_no;
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

/* A non-negative integer of at most 18 digits at p. */
static const char *read_count(const char *p, const char *end, long long *out)
{
	long long v = 0;
	int n = 0;
	while (p < end && is_digit(*p) && n < 18) {
		v = v * 10 + (*p - '0');
		p++;
		n++;
	}
	if (!n || (p < end && is_digit(*p)))
		return NULL;
	*out = v;
	return p;
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
			decimal(start, q, -2, &v[n]);
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
static bool step_line(struct scan *s, const char *ls, const char *it, const char *le)
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
		derive_tokens(&st, s->o->seq_len, world);
		train_push_step(s->r, &st); /* sets st.index */
		if (s->o->on_step)
			s->o->on_step(&st, s->o->on_step_arg);
	} else {
		s->r->duplicates++;
	}
	return true;
}

/* "[Rank R] (after N iterations) memory (MB) | allocated: X | max allocated: X | ..." */
static void memory_line(struct scan *s, const char *ls, const char *p, const char *le)
{
	struct assay_train_result *r = s->r;
	long line = line_of(s, ls);
	r->n_mem_lines++;
	s->ev_megatron = true;
	while (p && p < le) {
		const char *seg = p + 1;
		const char *bar = seg < le ? memchr(seg, '|', (size_t)(le - seg)) : NULL;
		const char *seg_end = bar ? bar : le;
		const char *q = skip_spaces(seg, seg_end);
		const char *colon = q < seg_end ? memchr(q, ':', (size_t)(seg_end - q)) : NULL;
		p = bar;
		if (!colon)
			continue;
		double v;
		const char *ve = train_number(skip_spaces(colon + 1, seg_end), seg_end, &v);
		if (!ve)
			continue;
		size_t n = (size_t)(colon - q);
		if (!isfinite(v)) {
			train_note_nonfinite(r, -1, line, q, n, colon + 1,
					     (size_t)(ve - colon - 1));
			continue;
		}
		double *slot = NULL;
		if (n == 13 && !memcmp(q, "max allocated", 13))
			slot = &r->mem_max_allocated_mb;
		else if (n == 12 && !memcmp(q, "max reserved", 12))
			slot = &r->mem_max_reserved_mb;
		if (slot && (isnan(*slot) || v > *slot))
			*slot = v;
	}
}

static void add_ckpt(struct assay_train_result *r, enum assay_ckpt_op op, long long iteration,
		     double ms, long line)
{
	ALLOC_GROW(r->ckpts, r->n_ckpts + 1, r->alloc_ckpts);
	r->ckpts[r->n_ckpts++] = (struct assay_train_ckpt){op, iteration, ms, line};
}

/* "save-checkpoint ....: (min, max)" or "...: max": the duration (the max)
 * goes to the last save (load) without one. h points at "-checkpoint". */
static void timer_line(struct scan *s, const char *ls, const char *h, const char *le)
{
	enum assay_ckpt_op op;
	if (preceded_by(ls, h, LIT("save")))
		op = ASSAY_CKPT_SAVE;
	else if (preceded_by(ls, h, LIT("load")))
		op = ASSAY_CKPT_LOAD;
	else
		return;
	const char *p = h + 11;
	while (p < le && (*p == ' ' || *p == '.'))
		p++;
	if (p >= le || *p != ':')
		return;
	p = skip_spaces(p + 1, le);
	double ms;
	if (p < le && *p == '(') {
		double lo;
		p = train_number(skip_spaces(p + 1, le), le, &lo);
		if (!p)
			return;
		p = skip_spaces(p, le);
		if (p >= le || *p != ',')
			return;
		p = skip_spaces(p + 1, le);
	}
	const char *num = p;
	p = train_number(num, le, &ms);
	if (!p)
		return;
	struct assay_train_result *r = s->r;
	long line = line_of(s, ls);
	if (!isfinite(ms)) {
		train_note_nonfinite(r, -1, line, h - 4, 15, num, (size_t)(p - num));
		return;
	}
	for (size_t i = r->n_ckpts; i-- > 0;) {
		if (r->ckpts[i].op != op)
			continue;
		if (isnan(r->ckpts[i].ms)) {
			r->ckpts[i].ms = ms;
			return;
		}
		break;
	}
	add_ckpt(r, op, -1, ms, line);
}

/* "validation loss at ... | lm loss value: X |" with its step (-1: end of training). */
static void eval_line(struct scan *s, const char *ls, const char *from, const char *le,
		      long long step)
{
	const char *v = find(from, le, LIT("lm loss value:"));
	if (!v)
		return;
	const char *val = skip_spaces(v + 14, le);
	double loss;
	const char *ve = train_number(val, le, &loss);
	if (!ve)
		return;
	struct assay_train_result *r = s->r;
	long line = line_of(s, ls);
	if (!isfinite(loss))
		train_note_nonfinite(r, step, line, "lm loss value", 13, val, (size_t)(ve - val));
	ALLOC_GROW(r->evals, r->n_evals + 1, r->alloc_evals);
	r->evals[r->n_evals++] = (struct assay_train_eval){step, loss, line};
}

static void summary(struct scan *s, int metric, const char *val, const char *le, const char *ls)
{
	double v;
	const char *ve = train_number(skip_spaces(val, le), le, &v);
	if (!ve)
		return;
	if (!isfinite(v)) {
		const char *name = assay_train_metric_name(metric);
		train_note_nonfinite(s->r, -1, line_of(s, ls), name, strlen(name), val,
				     (size_t)(ve - val));
		return;
	}
	s->r->summary[metric] = v;
	s->r->summary_has |= 1u << metric;
}

/* A line with "iteration" at h: true when it was one of ours. */
static bool iteration_word(struct scan *s, const char *ls, const char *h, const char *le)
{
	const char *a = h + 9;
	if (a < le && *a == 's') {
		if (le - a >= 14 && !memcmp(a, "s) memory (MB)", 14)) {
			memory_line(s, ls, memchr(a, '|', (size_t)(le - a)), le);
			return true;
		}
		return false;
	}
	if (h > ls && is_word(h[-1]))
		return false;
	const char *p = skip_spaces(a, le);
	if (p < le && is_digit(*p)) {
		if (step_line(s, ls, h, le))
			return true;
		long long n;
		const char *q = read_count(p, le, &n);
		if (!q)
			return false;
		struct assay_train_result *r = s->r;
		if (preceded_by(ls, h, LIT("validation loss at "))) {
			s->ev_megatron = true;
			eval_line(s, ls, q, le, n);
			return true;
		}
		if (preceded_by(ls, h, LIT("saved checkpoint from "))) {
			add_ckpt(r, ASSAY_CKPT_SAVE, n, NAN, line_of(s, ls));
		} else if (preceded_by(ls, h, LIT(" at ")) &&
			   find((size_t)(h - ls) > 512 ? h - 512 : ls, h,
				LIT("loaded checkpoint"))) {
			add_ckpt(r, ASSAY_CKPT_LOAD, n, NAN, line_of(s, ls));
		} else {
			return false;
		}
		s->ev_megatron = true;
		/* Some launchers flatten the timer report onto the same line. */
		const char *t = find(q, le, LIT("-checkpoint"));
		if (t)
			timer_line(s, ls, t, le);
		return true;
	}
	if (preceded_by(ls, h, LIT("elapsed time per "))) {
		if (le - p >= 4 && !memcmp(p, "(ms)", 4))
			p = skip_spaces(p + 4, le);
		if (p < le && *p == ':') {
			summary(s, ASSAY_TM_ELAPSED_MS, p + 1, le, ls);
			return true;
		}
	}
	return false;
}

static bool iteration_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	for (; h; h = find(h + 9, le, LIT("iteration")))
		if (iteration_word(s, ls, h, le))
			return true;
	return false;
}

static void torchrun_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	(void)h;
	(void)le;
	s->ev_primus = true;
	if (!s->r->complete_marker) {
		s->r->complete_marker = true;
		s->r->marker_line = line_of(s, ls);
	}
}

static void timer_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	timer_line(s, ls, h, le);
}

static void eval_end_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	if (find((size_t)(h - ls) > 512 ? h - 512 : ls, h, LIT("validation loss at "))) {
		s->ev_megatron = true;
		eval_line(s, ls, h, le, -1);
	}
}

static void tflops_summary_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	summary(s, ASSAY_TM_TFLOPS, h + 19, le, ls);
}

static void tokens_summary_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	summary(s, ASSAY_TM_TOKENS, h + 13, le, ls);
}

static void mem_summary_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	summary(s, ASSAY_TM_MEM_RATIO, h + 11, le, ls);
}

static void set_exit(struct scan *s, const char *ls, enum assay_train_exit kind, long long it)
{
	struct assay_train_result *r = s->r;
	s->ev_megatron = true;
	/* The first exit line says why; "[after training is done]" follows a
	 * normal end only. */
	if (r->exit_kind != ASSAY_TRAIN_EXIT_NONE)
		return;
	r->exit_kind = kind;
	r->exit_iteration = it;
	r->exit_line = line_of(s, ls);
}

/* Megatron-LM's print_datetime('after training is done'): "[after training
 * is done] datetime: ...". */
static void done_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	(void)h;
	(void)le;
	set_exit(s, ls, ASSAY_TRAIN_EXIT_DONE, -1);
}

/* checkpoint_and_decide_exit(): "exiting program at iteration N",
 * "exiting program after X minutes", "exiting program after receiving SIGTERM." */
static void exiting_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	const char *p = h + 16;
	long long n;
	if (le - p >= 13 && !memcmp(p, "at iteration ", 13)) {
		if (read_count(p + 13, le, &n))
			set_exit(s, ls, ASSAY_TRAIN_EXIT_INTERVAL, n);
	} else if (le - p >= 25 && !memcmp(p, "after receiving SIGTERM.", 24)) {
		set_exit(s, ls, ASSAY_TRAIN_EXIT_SIGNAL, -1);
	} else if (le - p >= 6 && !memcmp(p, "after ", 6)) {
		double x;
		const char *q = train_number(p + 6, le, &x);
		if (q && le - q >= 8 && !memcmp(q, " minutes", 8))
			set_exit(s, ls, ASSAY_TRAIN_EXIT_DURATION, -1);
	}
}

static void world_from(struct scan *s, const char *ls, const char *p, const char *le)
{
	long long w;
	if (s->line_world || !read_count(skip_spaces(p, le), le, &w) || w <= 0)
		return;
	s->line_world = w;
	s->r->world_line = line_of(s, ls);
}

/* Megatron-LM's validate_args(): "using world size: N, data-parallel size: ...". */
static void world_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	s->ev_megatron = true;
	world_from(s, ls, h + 17, le);
}

/* Primus's training_log patch: "ThroughputAverageExtension initialized with
 * seq_len: S world_size: W ...". */
static void primus_world_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	s->ev_primus = true;
	const char *w = find(h, le, LIT(" world_size:"));
	if (w)
		world_from(s, ls, w + 12, le);
}

/* Keywords of lines without "iteration", searched only between iteration lines. */
static const struct keyword {
	const char *text;
	size_t len;
	void (*hit)(struct scan *s, const char *ls, const char *h, const char *le);
} gap_keywords[] = {
    {LIT("-checkpoint"), timer_hit},
    {LIT("torchrun finished successfully"), torchrun_hit},
    {LIT("lm loss value:"), eval_end_hit},
    {LIT("throughput per GPU:"), tflops_summary_hit},
    {LIT("tokens/GPU/s:"), tokens_summary_hit},
    {LIT("mem usages:"), mem_summary_hit},
    {LIT("[after training is done]"), done_hit},
    {LIT("exiting program "), exiting_hit},
    {LIT("using world size:"), world_hit},
    {LIT("ThroughputAverageExtension initialized with"), primus_world_hit},
};
#define N_GAP ARRAY_SIZE(gap_keywords)

/* Lines end at \n or \r. */
static const char *line_start(const char *lo, const char *h)
{
	const char *nl = h > lo ? memrchr(lo, '\n', (size_t)(h - lo)) : NULL;
	const char *from = nl ? nl + 1 : lo;
	const char *cr = h > from ? memrchr(from, '\r', (size_t)(h - from)) : NULL;
	return cr ? cr + 1 : from;
}

static const char *line_end(const char *h, const char *end)
{
	const char *nl = h < end ? memchr(h, '\n', (size_t)(end - h)) : NULL;
	const char *stop = nl ? nl : end;
	const char *cr = h < stop ? memchr(h, '\r', (size_t)(stop - h)) : NULL;
	return cr ? cr : stop;
}

static void error_hit(void *arg, const struct assay_builtin_signature *sig, const char *line,
		      size_t n, size_t offset)
{
	(void)offset;
	struct scan *s = arg;
	struct assay_train_result *r = s->r;
	for (size_t i = 0; i < r->n_errors; i++)
		if (!strcmp(r->errors[i].signature, sig->name)) {
			r->errors[i].count++;
			return;
		}
	ALLOC_GROW(r->errors, r->n_errors + 1, r->alloc_errors);
	struct assay_train_error *x = &r->errors[r->n_errors++];
	memset(x, 0, sizeof(*x));
	snprintf(x->signature, sizeof(x->signature), "%s", sig->name);
	snprintf(x->family, sizeof(x->family), "%s", sig->family);
	x->line = line_of(s, line);
	x->count = 1;
	if (n >= sizeof(x->text))
		n = sizeof(x->text) - 1;
	/* Printable bytes only: the text goes into JSON and onto terminals. */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		x->text[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	x->text[n] = '\0';
}

/* Lines of [lo, hi) (whole lines, no iteration line among them) holding a
 * gap keyword, in order; then the error signatures. */
static void scan_gap(struct scan *s, const char *lo, const char *hi)
{
	if (lo >= hi)
		return;
	const char *next[N_GAP];
	for (size_t k = 0; k < N_GAP; k++)
		next[k] = find(lo, hi, gap_keywords[k].text, gap_keywords[k].len);
	for (;;) {
		size_t best = N_GAP;
		for (size_t k = 0; k < N_GAP; k++)
			if (next[k] && (best == N_GAP || next[k] < next[best]))
				best = k;
		if (best == N_GAP)
			break;
		const char *h = next[best];
		const char *ls = line_start(lo, h), *le = line_end(h, hi);
		gap_keywords[best].hit(s, ls, h, le);
		const char *cur = le < hi ? le + 1 : hi;
		for (size_t k = 0; k < N_GAP; k++)
			if (next[k] && next[k] < cur)
				next[k] = find(cur, hi, gap_keywords[k].text, gap_keywords[k].len);
	}
	if (s->cls)
		assay_classify(s->cls, lo, (size_t)(hi - lo), error_hit, s);
}

/* The marks the format detection of earlier versions looked for in a log's
 * first MiBs: still evidence, wherever they are. */
static void marks(struct scan *s, const char *data, size_t len)
{
	static const char *const primus[] = {
	    "tokens/s/GPU inst/harmonic mean",
	    "compute per GPU (TFLOP/s/GPU)",
	    "hip mem usage/free/total/usage_ratio",
	};
	static const char *const megatron[] = {
	    "------------------------ arguments ------------------------",
	    "Megatron",
	    "megatron",
	};
	if (!s->ev_primus && (train_has_mark(data, len, len, primus, ARRAY_SIZE(primus)) ||
			      assay_detect_primus(data, len)))
		s->ev_primus = true;
	if (!s->ev_megatron && train_has_mark(data, len, len, megatron, ARRAY_SIZE(megatron)))
		s->ev_megatron = true;
}

/* Whole lines [data, data + len): the last one may lack its line end. */
static void scan_lines(struct scan *s, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	s->counted = data;
	if (s->auto_format && s->fed < (4u << 20))
		marks(s, data, len);
	while (p < end) {
		const char *it = find(p, end, LIT("iteration"));
		const char *ls = it ? line_start(p, it) : end;
		if (ls > p)
			scan_gap(s, p, ls);
		if (!it)
			break;
		const char *le = line_end(it, end);
		if (!iteration_hit(s, ls, it, le))
			scan_gap(s, ls, le < end ? le + 1 : end);
		else if (s->counted == ls && le < end && *le == '\n') {
			/* Numbered up to this line: past its \n, without a search. */
			s->line_no++;
			s->counted = le + 1;
		}
		p = le < end ? le + 1 : end;
	}
	line_of(s, end);
	s->fed += len;
}

/* ---- streaming ---- */

struct assay_train_stream {
	struct scan s;
	struct assay_train_result *r;
	struct assay_train_opts o;
	char *carry; /* the unterminated last line so far, at most ASSAY_TRAIN_LINE_CAP */
	size_t carry_len;
	bool in_long; /* carry continues a line longer than the cap */
};

struct assay_train_stream *assay_train_stream_new(const char *format,
						  const struct assay_train_opts *o,
						  struct assay_train_result *r)
{
	struct assay_train_stream *st = xcalloc(1, sizeof(*st));
	if (o)
		st->o = *o;
	else
		assay_train_opts_init(&st->o);
	bool is_auto = !strcmp(format, "auto");
	const struct train_dialect *d =
	    !strcmp(format, "megatron") ? &train_megatron : &train_primus;
	train_result_init(r, d->name);
	r->keep = st->o.keep_steps ? st->o.keep_steps : ASSAY_TRAIN_KEEP_STEPS;
	r->warm_cap = st->o.warm_record ? st->o.warm_record : ASSAY_TRAIN_WARM_RECORD;
	st->r = r;
	st->s.d = d;
	st->s.o = &st->o;
	st->s.r = r;
	st->s.line_no = 1;
	st->s.auto_format = is_auto;
	if (!st->o.no_errors)
		st->s.cls = assay_classifier_new();
	st->carry = xmalloc(ASSAY_TRAIN_LINE_CAP);
	return st;
}

/* A piece of a line longer than the cap: scanned whole, and its last
 * PIECE_OVERLAP bytes begin the next piece, so a marker across the cut
 * (every keyword is shorter) is seen whole in one of them. */
#define PIECE_OVERLAP 256
static void long_piece(struct assay_train_stream *st)
{
	struct assay_train_result *r = st->r;
	if (!st->in_long) {
		st->in_long = true;
		if (!r->long_lines++)
			r->long_line_first = st->s.line_no;
	}
	long line = st->s.line_no;
	scan_lines(&st->s, st->carry, st->carry_len);
	st->s.line_no = line; /* the line goes on */
	memmove(st->carry, st->carry + st->carry_len - PIECE_OVERLAP, PIECE_OVERLAP);
	st->carry_len = PIECE_OVERLAP;
}

/* Append [p, p + n) to the carried line, scanning pieces of a long one. */
static void carry_add(struct assay_train_stream *st, const char *p, size_t n)
{
	while (n) {
		size_t room = ASSAY_TRAIN_LINE_CAP - st->carry_len;
		size_t take = n < room ? n : room;
		memcpy(st->carry + st->carry_len, p, take);
		st->carry_len += take;
		p += take;
		n -= take;
		if (st->carry_len == ASSAY_TRAIN_LINE_CAP)
			long_piece(st);
	}
}

static const char *first_eol(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *stop = nl ? nl : end;
	const char *cr = p < stop ? memchr(p, '\r', (size_t)(stop - p)) : NULL;
	return cr ? cr : nl;
}

static const char *last_eol(const char *p, const char *end)
{
	const char *nl = memrchr(p, '\n', (size_t)(end - p));
	const char *from = nl ? nl + 1 : p;
	const char *cr = from < end ? memrchr(from, '\r', (size_t)(end - from)) : NULL;
	return cr ? cr : nl;
}

void assay_train_stream_feed(struct assay_train_stream *st, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	if (!len)
		return;
	if (st->carry_len || st->in_long) {
		const char *eol = first_eol(p, end);
		if (!eol) {
			carry_add(st, p, len);
			return;
		}
		carry_add(st, p, (size_t)(eol + 1 - p));
		scan_lines(&st->s, st->carry, st->carry_len);
		st->carry_len = 0;
		st->in_long = false;
		p = eol + 1;
	}
	if (p >= end)
		return;
	const char *last = last_eol(p, end);
	if (last) {
		scan_lines(&st->s, p, (size_t)(last + 1 - p));
		p = last + 1;
	}
	carry_add(st, p, (size_t)(end - p));
}

assay_err assay_train_stream_end(struct assay_train_stream *st, const char *file,
				 struct assay_error *e)
{
	struct scan *s = &st->s;
	struct assay_train_result *r = st->r;
	if (st->carry_len)
		scan_lines(s, st->carry, st->carry_len);
	assay_err rc = ASSAY_OK;
	if (s->auto_format) {
		if (s->ev_primus)
			r->format = train_primus.name;
		else if (s->ev_megatron)
			r->format = train_megatron.name;
		else
			rc = assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
					    "cannot tell the format: not a Megatron-LM or Primus "
					    "log, nor a golden-values file (use --input-format)");
	}
	long long world = s->line_world ? s->line_world : s->log_world;
	train_finish(r, &st->o, world);
	free(s->set);
	assay_classifier_free(s->cls);
	free(st->carry);
	free(st);
	return rc;
}
