/* Classifying lines after the fact: the built-in signature table (the one
 * the watcher uses while a case runs) applied to every line of a block, for
 * parsers that read a finished log. Anchors first (a bigram table, then
 * memcmp), the PCRE2 pattern only on a line where an anchor occurs. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "assay/watch.h"

struct anchor_ref {
	const char *text;
	size_t len;
	unsigned sig; /* index into assay_builtin_signatures */
};

struct assay_classifier {
	unsigned char bigram[65536 / 8]; /* bit set: an anchor starts with these two bytes */
	struct anchor_ref *anchors;      /* sorted by their first two bytes */
	unsigned short first[65536];     /* bigram -> its first anchor (when its bit is set) */
	size_t n_anchors;
	size_t n_sigs;
	pcre2_code **code;
	pcre2_match_data *md;
};

static unsigned bigram_of(const char *p)
{
	return (unsigned)(unsigned char)p[0] | (unsigned)(unsigned char)p[1] << 8;
}

static int cmp_ref(const void *a, const void *b)
{
	const struct anchor_ref *x = a, *y = b;
	unsigned bx = bigram_of(x->text), by = bigram_of(y->text);
	return bx < by ? -1 : bx > by ? 1 : (x->sig > y->sig) - (x->sig < y->sig);
}

struct assay_classifier *assay_classifier_new(void)
{
	struct assay_classifier *c = xcalloc(1, sizeof(*c));
	size_t n = 0, alloc = 0;
	for (const struct assay_builtin_signature *b = assay_builtin_signatures; b->name; b++)
		c->n_sigs++;
	c->code = xcalloc(c->n_sigs + 1, sizeof(*c->code));
	for (size_t i = 0; i < c->n_sigs; i++) {
		const struct assay_builtin_signature *b = &assay_builtin_signatures[i];
		int code;
		PCRE2_SIZE off;
		c->code[i] = pcre2_compile((PCRE2_SPTR)b->pattern, PCRE2_ZERO_TERMINATED, 0, &code,
					   &off, NULL);
		if (!c->code[i])
			abort(); /* the table is fixed and unit-tested */
		pcre2_jit_compile(c->code[i], PCRE2_JIT_COMPLETE);
		for (const char *const *a = b->anchors; a && *a; a++) {
			ALLOC_GROW(c->anchors, n + 1, alloc);
			c->anchors[n++] = (struct anchor_ref){*a, strlen(*a), (unsigned)i};
		}
	}
	c->n_anchors = n;
	qsort(c->anchors, n, sizeof(*c->anchors), cmp_ref);
	if (n >= 65535)
		abort(); /* the built-in table has a few dozen */
	for (size_t i = n; i-- > 0;) {
		unsigned bg = bigram_of(c->anchors[i].text);
		c->bigram[bg >> 3] |= (unsigned char)(1u << (bg & 7));
		c->first[bg] = (unsigned short)i;
	}
	c->md = pcre2_match_data_create(4, NULL);
	return c;
}

void assay_classifier_free(struct assay_classifier *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_sigs; i++)
		pcre2_code_free(c->code[i]);
	free(c->code);
	free(c->anchors);
	pcre2_match_data_free(c->md);
	free(c);
}

static const char *line_end(const char *p, const char *end)
{
	while (p < end && *p != '\n' && *p != '\r')
		p++;
	return p;
}

/* The first signature (in table order) that matches [ls, le), or -1. Only
 * signatures with an anchor in the line are tried. */
static int match_line(struct assay_classifier *c, const char *ls, const char *le)
{
	int best = -1;
	for (const char *p = ls; p + 1 < le; p++) {
		unsigned bg = bigram_of(p);
		if (!(c->bigram[bg >> 3] & (1u << (bg & 7))))
			continue;
		for (size_t i = c->first[bg]; i < c->n_anchors; i++) {
			const struct anchor_ref *a = &c->anchors[i];
			if (bigram_of(a->text) != bg)
				break;
			if (best >= 0 && (int)a->sig >= best)
				continue;
			if ((size_t)(le - p) < a->len || memcmp(p, a->text, a->len))
				continue;
			if (pcre2_match(c->code[a->sig], (PCRE2_SPTR)ls, (PCRE2_SIZE)(le - ls), 0,
					0, c->md, NULL) >= 0)
				best = (int)a->sig;
		}
	}
	return best;
}

size_t assay_classify(struct assay_classifier *c, const char *data, size_t len,
		      void (*hit)(void *arg, const struct assay_builtin_signature *sig,
				  const char *line, size_t n, size_t offset),
		      void *arg)
{
	const char *p = data, *end = data + len;
	size_t hits = 0;
	while (p + 1 < end) {
		unsigned bg = bigram_of(p);
		if (!(c->bigram[bg >> 3] & (1u << (bg & 7)))) {
			p++;
			continue;
		}
		/* A candidate: classify its whole line once, then go past it. */
		const char *ls = p;
		while (ls > data && ls[-1] != '\n' && ls[-1] != '\r')
			ls--;
		const char *le = line_end(p, end);
		int sig = match_line(c, ls, le);
		if (sig >= 0) {
			hits++;
			hit(arg, &assay_builtin_signatures[sig], ls, (size_t)(le - ls),
			    (size_t)(ls - data));
		}
		p = le < end ? le + 1 : end;
	}
	return hits;
}
