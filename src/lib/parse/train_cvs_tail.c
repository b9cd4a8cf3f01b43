/* The values ROCm/cvs's older library reads from a Megatron training log
 * (dddd914, cvs/lib/megatron_training_lib.py: get_training_results_dict()
 * runs `tail -15` on the log, _parse_training_results() takes every match
 * of TRAINING_RESULT_PATTERNS with re.I, verify_training_results() checks
 * each against its minimum). The stream keeps the log's last lines as text
 * (at most CVS_TAIL_CAP bytes of them); at its end each older pattern is
 * matched over them, and the number and the least of the matches are kept
 * per metric. Rules: docs/gate.md, "CVS threshold files" (cvs_tail_min). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "train_scan_int.h"

#define CVS_TAIL_CAP (4u << 20)

/* Keep at most this many line ends: the last ASSAY_CVS_TAIL_LINES lines
 * and the one before them, whether or not the log ends with a line end. */
#define KEEP_EOLS (ASSAY_CVS_TAIL_LINES + 1)

/* Where the text after the n-th line end from the end of [p, end) starts;
 * p when there are fewer. */
static const char *after_eols(const char *p, const char *end, int n)
{
	const char *e = end;
	while (n-- > 0) {
		const char *nl = e > p ? memrchr(p, '\n', (size_t)(e - p)) : NULL;
		if (!nl)
			return p;
		if (n == 0)
			return nl + 1;
		e = nl;
	}
	return p;
}

void cvs_tail_feed(struct cvs_tail *t, const char *data, size_t len)
{
	const char *from = after_eols(data, data + len, KEEP_EOLS);
	if (data + len - from > CVS_TAIL_CAP)
		from = data + len - CVS_TAIL_CAP;
	if (from > data)
		t->len = 0; /* the block holds the whole tail */
	size_t n = (size_t)(data + len - from);
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (cap < t->len + n)
			cap *= 2;
		t->buf = xrealloc(t->buf, cap);
		t->cap = cap;
	}
	memcpy(t->buf + t->len, from, n);
	t->len += n;
	const char *keep = after_eols(t->buf, t->buf + t->len, KEEP_EOLS);
	if (t->len - (size_t)(keep - t->buf) > CVS_TAIL_CAP)
		keep = t->buf + t->len - CVS_TAIL_CAP;
	t->len -= (size_t)(keep - t->buf);
	memmove(t->buf, keep, t->len);
}

/* Python's \s on text (ASCII): space, \t \n \v \f \r and \x1c-\x1f. */
static bool py_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static const char *spaces(const char *p, const char *end)
{
	while (p < end && py_space(*p))
		p++;
	return p;
}

/* re.I on ASCII: the literal at p, any case. */
static bool lit_at(const char *p, const char *end, const char *lit, size_t n)
{
	if ((size_t)(end - p) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)p[i]) != tolower((unsigned char)lit[i]))
			return false;
	return true;
}

/* "\s+([0-9]+)" (digits) or "\s+([0-9\.]+)": the captured text in
 * [*cs, *ce); NULL when it does not match at p. */
static const char *number(const char *p, const char *end, bool dots, const char **cs,
			  const char **ce)
{
	const char *q = spaces(p, end);
	if (q == p)
		return NULL;
	p = q;
	while (q < end && (isdigit((unsigned char)*q) || (dots && *q == '.')))
		q++;
	if (q == p)
		return NULL;
	*cs = p;
	*ce = q;
	return q;
}

/* "\s*:" then the number. */
static const char *colon_number(const char *p, const char *end, const char **cs, const char **ce)
{
	p = spaces(p, end);
	if (p >= end || *p != ':')
		return NULL;
	return number(p + 1, end, true, cs, ce);
}

/* After "throughput per GPU": "(?:\s*\([^)]*\))?\s*:\s+([0-9\.]+)". */
static const char *tflops_rest(const char *p, const char *end, const char **cs, const char **ce)
{
	const char *q = spaces(p, end);
	if (q < end && *q == '(') {
		const char *close = memchr(q, ')', (size_t)(end - q));
		const char *m = close ? colon_number(close + 1, end, cs, ce) : NULL;
		if (m)
			return m;
	}
	return colon_number(p, end, cs, ce);
}

static const struct {
	enum assay_train_metric m;
	const char *lit;
	bool dots; /* [0-9\.]+, else [0-9]+ */
} older[] = {
    {ASSAY_TM_TFLOPS, "throughput per GPU", true},
    {ASSAY_TM_TOKENS, "tokens/GPU/s:", false},
    {ASSAY_TM_MEM_RATIO, "mem usages:", true},
    {ASSAY_TM_ELAPSED_MS, "elapsed time per iteration (ms):", true},
};

/* One capture, as Python's float() reads it: digits with at most one dot. */
static void take(struct assay_train_result *r, enum assay_train_metric m, const char *s,
		 const char *e)
{
	size_t dots = 0;
	for (const char *p = s; p < e; p++)
		dots += *p == '.';
	if (dots > 1 || (size_t)(e - s) == dots) {
		r->cvs_old_bad[m]++;
		return;
	}
	char buf[64];
	size_t n = (size_t)(e - s) < sizeof(buf) - 1 ? (size_t)(e - s) : sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	double v = strtod(buf, NULL);
	if (!r->cvs_old_n[m]++ || v < r->cvs_old_min[m])
		r->cvs_old_min[m] = v;
}

/* re.findall of each older pattern over [p, end). */
static void find_all(struct assay_train_result *r, const char *p, const char *end)
{
	for (size_t k = 0; k < ARRAY_SIZE(older); k++) {
		size_t n = strlen(older[k].lit);
		for (const char *q = p; q < end;) {
			const char *cs = NULL, *ce = NULL, *m = NULL;
			if (lit_at(q, end, older[k].lit, n))
				m = older[k].m == ASSAY_TM_TFLOPS
					? tflops_rest(q + n, end, &cs, &ce)
					: number(q + n, end, older[k].dots, &cs, &ce);
			if (!m) {
				q++;
				continue;
			}
			take(r, older[k].m, cs, ce);
			q = m;
		}
	}
}

void cvs_tail_end(struct cvs_tail *t, struct assay_train_result *r)
{
	if (!t->len) { /* nothing kept (an empty log): no match */
		free(t->buf);
		memset(t, 0, sizeof(*t));
		return;
	}
	const char *p = t->buf, *end = t->buf + t->len;
	/* tail -15: a last line without a line end is a line too. CVS reads
	 * the lines back each followed by a line end. */
	bool open = end[-1] != '\n';
	p = after_eols(p, end, ASSAY_CVS_TAIL_LINES + (open ? 0 : 1));
	if (open) {
		size_t off = (size_t)(p - t->buf);
		t->buf = xrealloc(t->buf, t->len + 1);
		t->buf[t->len++] = '\n';
		p = t->buf + off;
		end = t->buf + t->len;
	}
	find_all(r, p, end);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
