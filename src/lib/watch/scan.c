/* The incremental scanner. Complete lines are scanned in blocks as they
 * arrive; the unterminated tail waits for the next read. One pass over a
 * block looks for the built-in signatures' anchor literals (a bigram table,
 * then memcmp); suite patterns without anchors are searched with PCRE2 over
 * the block. Only a line where either hits is matched against the
 * signatures, in set order, and a line a benign pattern matches is skipped. */
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

/* The first signature (in set order) that matches line, unless a benign
 * pattern matches it too. */
static const struct assay_signature *match_line(const struct assay_scanner *s, const char *line,
						size_t len)
{
	const struct assay_signature *hit = NULL;
	size_t at;
	for (size_t i = 0; i < s->set->n && !hit; i++)
		if (!s->set->v[i].benign && find(s, &s->set->v[i], line, len, 0, &at))
			hit = &s->set->v[i];
	for (size_t i = 0; hit && i < s->set->n; i++)
		if (s->set->v[i].benign && find(s, &s->set->v[i], line, len, 0, &at))
			return NULL;
	return hit;
}

static void record(struct assay_scanner *s, const struct assay_signature *sig, const char *line,
		   size_t len)
{
	s->matched = true;
	s->match.signature = xstrdup(sig->name);
	s->match.family = xstrdup(sig->family);
	s->match.source = xstrdup(s->source);
	s->match.line = xstrndup(line, len > LINE_MAX_KEEP ? LINE_MAX_KEEP : len);
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
			break;
		}
		pos = end + 1;
	}
	if (next != next_small)
		free(next);
}

bool assay_scanner_feed(struct assay_scanner *s, const char *data, size_t len)
{
	if (s->matched || !len)
		return s->matched;
	s->bytes += len;
	size_t last = len;
	while (last > 0 && !is_eol(data[last - 1]))
		last--;
	if (!last) {
		/* No line end yet: keep waiting, unless the line grows without bound. */
		sbuf_add(&s->partial, data, len);
		if (s->partial.len >= PARTIAL_MAX) {
			scan_block(s, s->partial.buf, s->partial.len);
			sbuf_reset(&s->partial);
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
		scan_block(s, s->partial.buf, s->partial.len);
		sbuf_reset(&s->partial);
		if (s->matched)
			return true;
	}
	if (last > head)
		scan_block(s, data + head, last - head);
	if (!s->matched && last < len)
		sbuf_add(&s->partial, data + last, len - last);
	return s->matched;
}

bool assay_scanner_finish(struct assay_scanner *s)
{
	if (!s->matched && s->partial.len)
		scan_block(s, s->partial.buf, s->partial.len);
	sbuf_reset(&s->partial);
	return s->matched;
}
