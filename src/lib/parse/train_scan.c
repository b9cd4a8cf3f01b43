/* The single-pass scanner shared by the Megatron-LM and Primus parsers: finds
 * iteration, memory, evaluation, checkpoint, timer, summary and completion
 * lines with memmem() over the whole buffer (no regular expressions, no
 * backtracking), splits iteration lines into "label: value" segments and reads
 * numbers with a fast exact path. Never reads outside [data, data + len). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static const char *find(const char *p, const char *end, const char *needle, size_t n)
{
	if (p >= end)
		return NULL;
	return memmem(p, (size_t)(end - p), needle, n);
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

/* The number at p times 10^shift, correctly rounded on the fast path. */
static const char *decimal(const char *p, const char *end, int shift, double *out)
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

void train_push_step(struct assay_train_result *r, const struct assay_train_step *s)
{
	ALLOC_GROW(r->steps, r->n_steps + 1, r->alloc_steps);
	r->steps[r->n_steps++] = *s;
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

static double tokens_from(long long gbs, long long seq_len, double elapsed_ms, long long world)
{
	return (double)gbs * (double)seq_len * 1000.0 / (elapsed_ms * (double)world);
}

void train_finish(struct assay_train_result *r, const struct assay_train_opts *o,
		  long long log_world)
{
	r->world_size = o->world_size > 0 ? o->world_size : log_world;
	if (o->seq_len > 0 && r->world_size > 0) {
		const uint32_t tok = 1u << ASSAY_TM_TOKENS, el = 1u << ASSAY_TM_ELAPSED_MS;
		for (size_t i = 0; i < r->n_steps; i++) {
			struct assay_train_step *s = &r->steps[i];
			if ((s->has & tok) || !(s->has & el) || s->gbs <= 0)
				continue;
			if (!(s->v[ASSAY_TM_ELAPSED_MS] > 0) ||
			    !isfinite(s->v[ASSAY_TM_ELAPSED_MS]))
				continue;
			s->v[ASSAY_TM_TOKENS] = tokens_from(
			    s->gbs, o->seq_len, s->v[ASSAY_TM_ELAPSED_MS], r->world_size);
			s->has |= tok;
			s->derived |= tok;
			r->tokens_derived = true;
			double a = s->avg[ASSAY_TM_ELAPSED_MS];
			if ((s->has_avg & el) && a > 0 && isfinite(a)) {
				s->avg[ASSAY_TM_TOKENS] =
				    tokens_from(s->gbs, o->seq_len, a, r->world_size);
				s->has_avg |= tok;
			}
		}
	}
	size_t n = r->n_steps, w;
	if (o->warmup_steps >= 0) {
		w = (size_t)o->warmup_steps;
	} else {
		double pct = ceil((double)n * o->warmup_percent / 100.0 - 1e-9);
		w = o->warmup_min > 0 ? (size_t)o->warmup_min : 0;
		if (pct > (double)w)
			w = (size_t)pct;
	}
	if (w > n)
		w = n;
	r->warmup = w;
	for (size_t i = 0; i < n; i++)
		r->steps[i].warmup = i < w;
}

/* ---- the scanner ---- */

struct scan {
	const struct train_dialect *d;
	struct assay_train_result *r;
	const char *counted; /* line numbers are known up to here */
	long line_no;        /* the line that `counted` is on */
	long long log_world;
	bool unordered; /* a step came out of order: use the set from then on */
	long long *set; /* open-addressing set of step numbers seen */
	size_t set_cap, set_n;
};

/* The 1-based number of the line starting at ls (ls >= s->counted). */
static long line_of(struct scan *s, const char *ls)
{
	const char *p = s->counted;
	while (p < ls && (p = memchr(p, '\n', (size_t)(ls - p)))) {
		s->line_no++;
		p++;
	}
	s->counted = ls;
	return s->line_no;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
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
			size_t h = mix((uint64_t)s->set[i]) & (cap - 1);
			while (set[h] >= 0)
				h = (h + 1) & (cap - 1);
			set[h] = s->set[i];
		}
		free(s->set);
		s->set = set;
		s->set_cap = cap;
	}
	size_t h = mix((uint64_t)step) & (s->set_cap - 1);
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
 * do, the steps array is sorted and a new step is simply a larger one; the
 * first step out of order switches to the hash set. */
static bool first_sight(struct scan *s, long long step)
{
	const struct assay_train_result *r = s->r;
	if (s->unordered)
		return set_add(s, step);
	if (!r->n_steps || step > r->steps[r->n_steps - 1].step)
		return true;
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
	const char *colon = p < end ? memchr(p, ':', (size_t)(end - p)) : NULL;
	if (!colon)
		return;
	const char *le = colon;
	while (le > p && (le[-1] == ' ' || le[-1] == '\t'))
		le--;
	const char *val = skip_spaces(colon + 1, end);
	const struct label *l = find_label(p, (size_t)(le - p), c->s->d->labels);
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
		const char *bar = seg < le ? memchr(seg, '|', (size_t)(le - seg)) : NULL;
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
	if (s->d->prefix_world && !s->log_world)
		s->log_world = s->d->prefix_world(ls, (size_t)(it - ls));
	if (first_sight(s, step))
		train_push_step(s->r, &st);
	else
		s->r->duplicates++;
	return true;
}

/* "[Rank R] (after N iterations) memory (MB) | allocated: X | max allocated: X | ..." */
static void memory_line(struct scan *s, const char *ls, const char *p, const char *le)
{
	struct assay_train_result *r = s->r;
	long line = line_of(s, ls);
	r->n_mem_lines++;
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
			eval_line(s, ls, q, le, n);
			return true;
		}
		if (preceded_by(ls, h, LIT("saved checkpoint from "))) {
			add_ckpt(r, ASSAY_CKPT_SAVE, n, NAN, line_of(s, ls));
		} else if (preceded_by(ls, h, LIT(" at ")) &&
			   find(ls, h, LIT("loaded checkpoint"))) {
			add_ckpt(r, ASSAY_CKPT_LOAD, n, NAN, line_of(s, ls));
		} else {
			return false;
		}
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
	if (find(ls, h, LIT("validation loss at ")))
		eval_line(s, ls, h, le, -1);
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
};
#define N_GAP ARRAY_SIZE(gap_keywords)

static const char *line_start(const char *lo, const char *h)
{
	const char *nl = h > lo ? memrchr(lo, '\n', (size_t)(h - lo)) : NULL;
	return nl ? nl + 1 : lo;
}

static const char *line_end(const char *h, const char *end)
{
	const char *nl = h < end ? memchr(h, '\n', (size_t)(end - h)) : NULL;
	return nl ? nl : end;
}

/* Lines of [lo, hi) (whole lines, no "iteration" in them) holding a gap keyword, in order. */
static void scan_gap(struct scan *s, const char *lo, const char *hi)
{
	const char *next[N_GAP];
	for (size_t k = 0; k < N_GAP; k++)
		next[k] = find(lo, hi, gap_keywords[k].text, gap_keywords[k].len);
	for (;;) {
		size_t best = N_GAP;
		for (size_t k = 0; k < N_GAP; k++)
			if (next[k] && (best == N_GAP || next[k] < next[best]))
				best = k;
		if (best == N_GAP)
			return;
		const char *h = next[best];
		const char *ls = line_start(lo, h), *le = line_end(h, hi);
		gap_keywords[best].hit(s, ls, h, le);
		const char *cur = le < hi ? le + 1 : hi;
		for (size_t k = 0; k < N_GAP; k++)
			if (next[k] && next[k] < cur)
				next[k] = find(cur, hi, gap_keywords[k].text, gap_keywords[k].len);
	}
}

long long train_scan(const struct train_dialect *d, const char *data, size_t len,
		     struct assay_train_result *r)
{
	struct scan s = {d, r, data, 1, 0, false, NULL, 0, 0};
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *it = find(p, end, LIT("iteration"));
		const char *ls = it ? line_start(p, it) : end;
		if (ls > p)
			scan_gap(&s, p, ls);
		if (!it)
			break;
		const char *le = line_end(it, end);
		if (!iteration_hit(&s, ls, it, le))
			scan_gap(&s, ls, le);
		p = le < end ? le + 1 : end;
	}
	free(s.set);
	r->format = d->name;
	return s.log_world;
}
