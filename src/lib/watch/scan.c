/* The incremental scanner: complete lines are matched in blocks as they
 * arrive (each error pattern runs once over a block, not once per line),
 * the unterminated tail waits for the next read, and a match on a line that
 * a benign pattern also matches is skipped. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "assay/watch.h"

/* A line longer than this without a line end is scanned as it stands. */
#define PARTIAL_MAX (256 * 1024)
#define LINE_MAX_KEEP 1000

void assay_scanner_init(struct assay_scanner *s, const struct assay_sigset *set, const char *source)
{
	memset(s, 0, sizeof(*s));
	s->set = set;
	s->source = xstrdup(source);
	s->md = pcre2_match_data_create(1, NULL);
	if (!s->md)
		abort();
}

void assay_scanner_release(struct assay_scanner *s)
{
	free(s->source);
	sbuf_release(&s->partial);
	pcre2_match_data_free(s->md);
	assay_match_release(&s->match);
	memset(s, 0, sizeof(*s));
}

static bool is_eol(char c)
{
	return c == '\n' || c == '\r';
}

/* Does pattern re match somewhere in [from, len) of block? *at gets the start. */
static bool find(const struct assay_scanner *s, const struct assay_signature *sig, const char *block,
		 size_t len, size_t from, size_t *at)
{
	int rc = pcre2_match(sig->code, (PCRE2_SPTR)block, len, from, 0, s->md, NULL);
	if (rc < 0)
		return false;
	*at = (size_t)pcre2_get_ovector_pointer(s->md)[0];
	return true;
}

static bool benign(const struct assay_scanner *s, const char *line, size_t len)
{
	for (size_t i = 0; i < s->set->n; i++) {
		size_t at;
		if (s->set->v[i].benign && find(s, &s->set->v[i], line, len, 0, &at))
			return true;
	}
	return false;
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
	size_t pos = 0;
	while (pos < len) {
		const struct assay_signature *best = NULL;
		size_t best_at = len;
		for (size_t i = 0; i < s->set->n; i++) {
			const struct assay_signature *sig = &s->set->v[i];
			size_t at;
			if (sig->benign || !find(s, sig, block, len, pos, &at))
				continue;
			if (!best || at < best_at) {
				best = sig;
				best_at = at;
			}
		}
		if (!best)
			return;
		size_t start = best_at, end = best_at;
		while (start > pos && !is_eol(block[start - 1]))
			start--;
		while (end < len && !is_eol(block[end]))
			end++;
		if (!benign(s, block + start, end - start)) {
			/* Within the line, the first signature in set order names it: a
			 * specific one (host-oom) before a generic one (abort). */
			for (size_t i = 0; i < s->set->n; i++) {
				size_t at;
				const struct assay_signature *sig = &s->set->v[i];
				if (!sig->benign && find(s, sig, block + start, end - start, 0, &at)) {
					best = sig;
					break;
				}
			}
			record(s, best, block + start, end - start);
			return;
		}
		pos = end + 1;
	}
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
