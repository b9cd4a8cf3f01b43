/* The lines other than iteration lines: memory reports, checkpoints and
 * their timers, evaluations, summaries, completion and exit lines and the
 * world size. Between iteration lines each is found by its keyword; the
 * error signatures are matched over the same stretch. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assay/watch.h"
#include "train_scan_int.h"

/* "[Rank R] (after N iterations) memory (MB) | allocated: X | max allocated: X | ..." */
void train_memory_line(struct scan *s, const char *ls, const char *p, const char *le)
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

void train_add_ckpt(struct assay_train_result *r, enum assay_ckpt_op op, long long iteration,
		    double ms, long line)
{
	ALLOC_GROW(r->ckpts, r->n_ckpts + 1, r->alloc_ckpts);
	r->ckpts[r->n_ckpts++] = (struct assay_train_ckpt){op, iteration, ms, line};
}

/* "save-checkpoint ....: (min, max)" or "...: max": the duration (the max)
 * goes to the last save (load) without one. h points at "-checkpoint". */
void train_timer_line(struct scan *s, const char *ls, const char *h, const char *le)
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
	train_add_ckpt(r, op, -1, ms, line);
}

/* "validation loss at ... | lm loss value: X |" with its step (-1: end of training). */
void train_eval_line(struct scan *s, const char *ls, const char *from, const char *le,
		     long long step)
{
	const char *v = train_find(from, le, LIT("lm loss value:"));
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

void train_summary(struct scan *s, int metric, const char *val, const char *le, const char *ls)
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
	s->r->summary_line[metric] = line_of(s, ls);
	/* CVS's per-iteration patterns for these two match the summary line
	 * too, so its fallback mean counts it. */
	if (metric == ASSAY_TM_TOKENS || metric == ASSAY_TM_MEM_RATIO) {
		if (!s->r->cvs_line_n[metric]++)
			s->r->cvs_line_first[metric] = v;
		s->r->cvs_line_sum[metric] += v;
	}
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
	train_timer_line(s, ls, h, le);
}

static void eval_end_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	if (train_find((size_t)(h - ls) > 512 ? h - 512 : ls, h, LIT("validation loss at "))) {
		s->ev_megatron = true;
		train_eval_line(s, ls, h, le, -1);
	}
}

static void tflops_summary_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	train_summary(s, ASSAY_TM_TFLOPS, h + 19, le, ls);
}

static void tokens_summary_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	train_summary(s, ASSAY_TM_TOKENS, h + 13, le, ls);
}

static void mem_summary_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	train_summary(s, ASSAY_TM_MEM_RATIO, h + 11, le, ls);
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
	const char *w = train_find(h, le, LIT(" world_size:"));
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
    {LIT("[direct] python3 finished successfully (code 0)"), torchrun_hit},
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
	/* Without terminal escapes (colours), printable bytes only: the text
	 * goes into JSON and onto terminals. */
	char shown[1024];
	n = n < sizeof(shown) ? n : sizeof(shown);
	memcpy(shown, line, n);
	n = assay_ansi_strip(shown, n);
	if (n >= sizeof(x->text))
		n = sizeof(x->text) - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)shown[i];
		x->text[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	x->text[n] = '\0';
}

/* Lines of [lo, hi) (whole lines, no iteration line among them) holding a
 * gap keyword, in order; then the error signatures. */
void train_scan_gap(struct scan *s, const char *lo, const char *hi)
{
	if (lo >= hi)
		return;
	const char *next[N_GAP];
	for (size_t k = 0; k < N_GAP; k++)
		next[k] = train_find(lo, hi, gap_keywords[k].text, gap_keywords[k].len);
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
				next[k] =
				    train_find(cur, hi, gap_keywords[k].text, gap_keywords[k].len);
	}
	if (s->cls)
		assay_classify(s->cls, lo, (size_t)(hi - lo), error_hit, s);
}

void train_scan_cut(struct scan *s, const char *data, size_t len)
{
	s->counted = data;
	if (s->cls)
		assay_classify(s->cls, data, len, error_hit, s);
	s->fed += len;
}
