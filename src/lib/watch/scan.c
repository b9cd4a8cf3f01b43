/* The incremental scanner. Complete lines are scanned in blocks as they
 * arrive; the unterminated tail waits for the next read (or, after
 * ASSAY_PARTIAL_WAIT_S without a byte, is scanned as it stands). Until the
 * first match, one pass over a block looks for the built-in signatures'
 * anchor literals (a bigram table, then memcmp); suite patterns without
 * anchors are searched with PCRE2 over the block. Only a line where either
 * hits is matched against the signatures (the highest priority wins, then
 * set order), and a line a benign pattern matches is skipped. After it, the
 * settle window's few lines are matched one by one: a higher priority takes
 * the match over, and a Python traceback's exception line becomes its line. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/watch.h"

/* A line longer than this without a line end is scanned as it stands. */
#define PARTIAL_MAX   (256 * 1024)
#define LINE_MAX_KEEP 1000

static unsigned bigram_of(const char *p)
{
	return (unsigned)(unsigned char)p[0] | (unsigned)(unsigned char)p[1] << 8;
}

static int cmp_anchor(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	unsigned bx = bigram_of(x), by = bigram_of(y);
	return bx < by ? -1 : bx > by ? 1 : strcmp(x, y);
}

static void build_prefilter(struct assay_scanner *s)
{
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < s->set->n; i++) {
		const struct assay_signature *sig = &s->set->v[i];
		if (sig->benign)
			continue;
		if (!sig->anchors) {
			ALLOC_GROW(s->unanchored, s->n_unanchored + 1, alloc);
			s->unanchored[s->n_unanchored++] = i;
			continue;
		}
		for (const char *const *a = sig->anchors; *a; a++)
			n++;
	}
	s->anchors = xcalloc(n ? n : 1, sizeof(*s->anchors));
	size_t k = 0;
	for (size_t i = 0; i < s->set->n; i++)
		for (const char *const *a = s->set->v[i].anchors; !s->set->v[i].benign && a && *a;
		     a++)
			s->anchors[k++] = *a; /* anchors are at least two bytes (unit-tested) */
	qsort(s->anchors, n, sizeof(*s->anchors), cmp_anchor);
	s->bigram = xcalloc(65536, 1);
	s->bucket_start = xcalloc(n + 2, sizeof(*s->bucket_start));
	for (size_t i = 0; i < n; i++) {
		unsigned bg = bigram_of(s->anchors[i]);
		if (s->bigram[bg])
			continue;
		if (s->n_buckets == 254)
			break; /* more distinct bigrams than the table holds: see below */
		s->bucket_start[s->n_buckets] = i;
		s->bigram[bg] = (unsigned char)++s->n_buckets;
	}
	s->bucket_start[s->n_buckets] = n;
	if (s->n_buckets == 254 && s->bucket_start[254] != n) {
		/* Never with the built-ins; scan every anchored signature instead. */
		memset(s->bigram, 0, 65536);
		s->n_buckets = 0;
		for (size_t i = 0; i < s->set->n; i++)
			if (!s->set->v[i].benign && s->set->v[i].anchors) {
				ALLOC_GROW(s->unanchored, s->n_unanchored + 1, alloc);
				s->unanchored[s->n_unanchored++] = i;
			}
	}
}

void assay_scanner_init(struct assay_scanner *s, const struct assay_sigset *set, const char *source)
{
	memset(s, 0, sizeof(*s));
	s->set = set;
	s->source = xstrdup(source);
	s->md = pcre2_match_data_create(1, NULL);
	if (!s->md)
		abort();
	build_prefilter(s);
}

void assay_scanner_release(struct assay_scanner *s)
{
	free(s->source);
	free(s->tb_prefix);
	sbuf_release(&s->partial);
	pcre2_match_data_free(s->md);
	assay_match_release(&s->match);
	free(s->bigram);
	free(s->anchors);
	free(s->bucket_start);
	free(s->unanchored);
	memset(s, 0, sizeof(*s));
}

static bool is_eol(char c)
{
	return c == '\n' || c == '\r';
}

/* The first anchor occurrence at or after pos, or len. */
static size_t find_anchor(const struct assay_scanner *s, const char *block, size_t len, size_t pos)
{
	if (!s->n_buckets)
		return len;
	const unsigned char *table = s->bigram;
	for (size_t i = pos; i + 1 < len; i++) {
		unsigned b = table[bigram_of(block + i)];
		if (!b)
			continue;
		for (size_t k = s->bucket_start[b - 1]; k < s->bucket_start[b]; k++) {
			size_t n = strlen(s->anchors[k]);
			if (n <= len - i && !memcmp(block + i, s->anchors[k], n))
				return i;
		}
	}
	return len;
}

/* Does pattern sig match somewhere in [from, len) of block? *at gets the start. */
static bool find(const struct assay_scanner *s, const struct assay_signature *sig,
		 const char *block, size_t len, size_t from, size_t *at)
{
	int rc = pcre2_match(sig->code, (PCRE2_SPTR)block, len, from, 0, s->md, NULL);
	if (rc < 0)
		return false;
	*at = (size_t)pcre2_get_ovector_pointer(s->md)[0];
	return true;
}

/* The signature of the highest priority (then the first in set order) that
 * matches line, unless a benign pattern matches it too. */
static const struct assay_signature *match_line(const struct assay_scanner *s, const char *line,
						size_t len)
{
	const struct assay_signature *hit = NULL;
	size_t at;
	for (size_t i = 0; i < s->set->n; i++) {
		const struct assay_signature *sig = &s->set->v[i];
		if (!sig->benign && (!hit || sig->priority > hit->priority) &&
		    find(s, sig, line, len, 0, &at))
			hit = sig;
	}
	for (size_t i = 0; hit && i < s->set->n; i++)
		if (s->set->v[i].benign && find(s, &s->set->v[i], line, len, 0, &at))
			return NULL;
	return hit;
}

/* The line as it is shown: without terminal escapes, at most LINE_MAX_KEEP. */
static char *shown(const char *line, size_t len)
{
	char *t = xstrndup(line, len);
	len = assay_ansi_strip(t, len);
	if (len > LINE_MAX_KEEP)
		t[LINE_MAX_KEEP] = '\0';
	return t;
}

static void set_line(struct assay_scanner *s, const char *line, size_t len)
{
	free(s->match.line);
	s->match.line = shown(line, len);
}

static void record(struct assay_scanner *s, const struct assay_signature *sig, const char *line,
		   size_t len)
{
	if (!s->matched) {
		s->match.at = assay_monotonic();
		s->match.settle_s = sig->settle_s;
		s->match.settle_lines = sig->settle_lines;
	}
	free(s->match.signature);
	free(s->match.family);
	free(s->match.source);
	s->matched = true;
	s->match.signature = xstrdup(sig->name);
	s->match.family = xstrdup(sig->family);
	s->match.source = xstrdup(s->source);
	s->match.priority = sig->priority;
	s->in_traceback = false;
	set_line(s, line, len);
	if (sig->context == ASSAY_SIG_PY_TRACEBACK) {
		/* What comes before the header ("[rank0]: ", as written, escapes
		 * and all) comes before each line of the same traceback. */
		static const char hdr[] = "Traceback (most recent call last):";
		const char *h = memmem(line, len, hdr, sizeof(hdr) - 1);
		free(s->tb_prefix);
		s->tb_prefix = xstrndup(line, h ? (size_t)(h - line) : 0);
		s->in_traceback = true;
	}
}

static bool starts_with(const char *p, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && !memcmp(p, lit, k);
}

/* A line of the open traceback's body: its prefix, then indented (a frame,
 * its source line, a caret line) or the sentence joining chained ones. The
 * settle window counts a frame's lines as none, so it ends at the exception
 * line however deep the stack (the window's time still bounds it). */
static bool traceback_body(const struct assay_scanner *s, const char *line, size_t len)
{
	if (!s->in_traceback)
		return false;
	size_t pre = strlen(s->tb_prefix);
	if (len < pre || memcmp(line, s->tb_prefix, pre))
		return false;
	const char *p = line + pre;
	size_t n = len - pre;
	return !n || *p == ' ' || *p == '\t' || starts_with(p, n, "During handling of the above") ||
	       starts_with(p, n, "The above exception was the direct cause");
}

/* A line of an open traceback (CPython's format, Lib/traceback.py: the
 * header, frames and source lines indented, then the exception line
 * "Type: message" at the start of a line, chained tracebacks joined by a
 * sentence). The exception line becomes the match's line. */
static void traceback_line(struct assay_scanner *s, const char *line, size_t len)
{
	size_t pre = strlen(s->tb_prefix);
	if (pre && (len < pre || memcmp(line, s->tb_prefix, pre)))
		return; /* another rank's or process's line */
	if (traceback_body(s, line, len))
		return;
	set_line(s, line, len);
	s->in_traceback = false;
}

/* One line inside the settle window. */
static void window_line(struct assay_scanner *s, const char *line, size_t len)
{
	if (s->closed || !len)
		return;
	if (!traceback_body(s, line, len) && ++s->lines_after > s->match.settle_lines) {
		s->closed = true;
		return;
	}
	const struct assay_signature *sig = match_line(s, line, len);
	if (sig && (sig->priority > s->match.priority ||
		    (sig->context == ASSAY_SIG_PY_TRACEBACK && s->match.priority == sig->priority &&
		     !strcmp(sig->name, s->match.signature)))) {
		/* A higher priority takes over; a chained traceback starts again. */
		record(s, sig, line, len);
		return;
	}
	if (sig && !strcmp(sig->name, s->match.signature) && !s->in_traceback) {
		/* The rest of a line matched before its line end came. */
		char *t = shown(line, len);
		bool rest = !strncmp(t, s->match.line, strlen(s->match.line));
		if (rest) {
			free(s->match.line);
			s->match.line = t;
			return;
		}
		free(t);
	}
	if (s->in_traceback)
		traceback_line(s, line, len);
}

/* The lines of block (whole lines) inside the settle window. */
static void window_block(struct assay_scanner *s, const char *block, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i <= len && !s->closed; i++) {
		if (i < len && !is_eol(block[i]))
			continue;
		window_line(s, block + start, i - start);
		start = i + 1;
	}
}

/* Scan block, which holds whole lines (its end is a line end). */
static void scan_block(struct assay_scanner *s, const char *block, size_t len)
{
	/* Next match of each unanchored pattern at or after pos (len: none). */
	size_t next_small[16];
	size_t *next =
	    s->n_unanchored <= 16 ? next_small : xmalloc(s->n_unanchored * sizeof(*next));
	for (size_t u = 0; u < s->n_unanchored; u++)
		if (!find(s, &s->set->v[s->unanchored[u]], block, len, 0, &next[u]))
			next[u] = len;
	size_t pos = 0;
	while (pos < len) {
		size_t cand = find_anchor(s, block, len, pos);
		for (size_t u = 0; u < s->n_unanchored; u++) {
			if (next[u] < pos &&
			    !find(s, &s->set->v[s->unanchored[u]], block, len, pos, &next[u]))
				next[u] = len;
			if (next[u] < cand)
				cand = next[u];
		}
		if (cand >= len)
			break;
		size_t start = cand, end = cand;
		while (start > 0 && !is_eol(block[start - 1]))
			start--;
		while (end < len && !is_eol(block[end]))
			end++;
		const struct assay_signature *sig = match_line(s, block + start, end - start);
		if (sig) {
			record(s, sig, block + start, end - start);
			if (end < len)
				window_block(s, block + end + 1, len - end - 1);
			break;
		}
		pos = end + 1;
	}
	if (next != next_small)
		free(next);
}

/* Whole lines: the prefiltered pass until the first match, then the window. */
static void scan_lines(struct assay_scanner *s, const char *block, size_t len)
{
	if (s->closed)
		return;
	if (s->matched)
		window_block(s, block, len);
	else
		scan_block(s, block, len);
}

bool assay_scanner_feed(struct assay_scanner *s, const char *data, size_t len)
{
	if (s->closed || !len)
		return s->matched;
	s->fed_at = assay_monotonic();
	s->bytes += len;
	size_t last = len;
	while (last > 0 && !is_eol(data[last - 1]))
		last--;
	if (!last) {
		/* No line end yet: keep waiting, unless the line grows without bound. */
		sbuf_add(&s->partial, data, len);
		if (s->partial.len >= PARTIAL_MAX) {
			scan_lines(s, s->partial.buf, s->partial.len);
			sbuf_reset(&s->partial);
			s->partial_scanned = 0;
		}
		return s->matched;
	}
	size_t head = 0;
	if (s->partial.len) {
		/* Complete the held line with this read's first line. */
		while (!is_eol(data[head]))
			head++;
		head++;
		sbuf_add(&s->partial, data, head);
		scan_lines(s, s->partial.buf, s->partial.len);
		sbuf_reset(&s->partial);
		s->partial_scanned = 0;
	}
	if (last > head)
		scan_lines(s, data + head, last - head);
	if (!s->closed && last < len)
		sbuf_add(&s->partial, data + last, len - last);
	return s->matched;
}

bool assay_scanner_tick(struct assay_scanner *s, double now)
{
	if (s->closed || s->partial.len <= s->partial_scanned ||
	    now - s->fed_at < ASSAY_PARTIAL_WAIT_S)
		return s->matched;
	/* Scanned as it stands; kept, so the completed line is scanned again
	 * (a match of it then changes nothing: equal priority, later). */
	s->partial_scanned = s->partial.len;
	scan_lines(s, s->partial.buf, s->partial.len);
	return s->matched;
}

void assay_scanner_close(struct assay_scanner *s)
{
	s->closed = true;
}

bool assay_scanner_finish(struct assay_scanner *s)
{
	if (!s->closed && s->partial.len > s->partial_scanned)
		scan_lines(s, s->partial.buf, s->partial.len);
	sbuf_reset(&s->partial);
	s->partial_scanned = 0;
	return s->matched;
}
