/* The streaming scanner shared by the Megatron-LM and Primus parsers: whole
 * lines are scanned in blocks as they arrive (train_stream.c); iteration
 * lines are found with a fast substring search over each block and read in
 * train_iteration.c, the lines between them (memory, evaluation,
 * checkpoint, timer, summary, completion, exit and world-size lines, the
 * error signatures) in train_events.c. */
#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "assay/watch.h"
#include "train_scan_int.h"

/* The first needle (n >= 2 bytes) in [p, end). With SSE2, 16 places at a
 * time are tested for the needle's first two bytes and only those compared
 * whole: about twice as fast as memmem on log lines, where the call itself
 * was most of the cost. */
const char *train_find(const char *p, const char *end, const char *needle, size_t n)
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

bool train_has_mark(const char *data, size_t len, size_t limit, const char *const marks[], size_t n)
{
	if (len > limit)
		len = limit;
	for (size_t i = 0; i < n; i++)
		if (memmem(data, len, marks[i], strlen(marks[i])))
			return true;
	return false;
}

/* A line with "iteration" at h: true when it was one of ours. */
static bool iteration_word(struct scan *s, const char *ls, const char *h, const char *le)
{
	const char *a = h + 9;
	if (a < le && *a == 's') {
		if (le - a >= 14 && !memcmp(a, "s) memory (MB)", 14)) {
			train_memory_line(s, ls, memchr(a, '|', (size_t)(le - a)), le);
			return true;
		}
		return false;
	}
	if (h > ls && is_word(h[-1]))
		return false;
	const char *p = skip_spaces(a, le);
	if (p < le && is_digit(*p)) {
		if (train_step_line(s, ls, h, le))
			return true;
		long long n;
		const char *q = read_count(p, le, &n);
		if (!q)
			return false;
		struct assay_train_result *r = s->r;
		if (preceded_by(ls, h, LIT("validation loss at "))) {
			s->ev_megatron = true;
			train_eval_line(s, ls, q, le, n);
			return true;
		}
		if (preceded_by(ls, h, LIT("saved checkpoint from "))) {
			train_add_ckpt(r, ASSAY_CKPT_SAVE, n, NAN, line_of(s, ls));
		} else if (preceded_by(ls, h, LIT(" at ")) &&
			   train_find((size_t)(h - ls) > 512 ? h - 512 : ls, h,
				      LIT("loaded checkpoint"))) {
			train_add_ckpt(r, ASSAY_CKPT_LOAD, n, NAN, line_of(s, ls));
		} else {
			return false;
		}
		s->ev_megatron = true;
		/* Some launchers flatten the timer report onto the same line. */
		const char *t = train_find(q, le, LIT("-checkpoint"));
		if (t)
			train_timer_line(s, ls, t, le);
		return true;
	}
	if (preceded_by(ls, h, LIT("elapsed time per "))) {
		if (le - p >= 4 && !memcmp(p, "(ms)", 4))
			p = skip_spaces(p + 4, le);
		if (p < le && *p == ':') {
			train_summary(s, ASSAY_TM_ELAPSED_MS, p + 1, le, ls);
			return true;
		}
	}
	return false;
}

static bool iteration_hit(struct scan *s, const char *ls, const char *h, const char *le)
{
	for (; h; h = train_find(h + 9, le, LIT("iteration")))
		if (iteration_word(s, ls, h, le))
			return true;
	return false;
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
void train_scan_lines(struct scan *s, const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	s->counted = data;
	if (s->auto_format && s->fed < (4u << 20))
		marks(s, data, len);
	while (p < end) {
		const char *it = train_find(p, end, LIT("iteration"));
		const char *ls = it ? line_start(p, it) : end;
		if (ls > p)
			train_scan_gap(s, p, ls);
		if (!it)
			break;
		const char *le = line_end(it, end);
		if (!iteration_hit(s, ls, it, le))
			train_scan_gap(s, ls, le < end ? le + 1 : end);
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
