/* Slurm hostlist expressions ("node[01-04,07]", "a1,b[2-3]-ib", "r[1-2]n[1-2]"):
 * expansion into host names, for node-count checks and allocation fitting.
 * Ranges keep the zero padding of their lower bound, as Slurm does. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/slurm.h"

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n';
}

/* A name without brackets: prefix + s[0..len) is one host. */
static assay_err add_host(const char *expr, const char *s, size_t len, struct sbuf *prefix,
			  struct strlist *out, struct assay_error *e)
{
	if (out->n >= ASSAY_HOSTLIST_MAX)
		return assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": more than %d hosts", expr,
				       ASSAY_HOSTLIST_MAX);
	size_t keep = prefix->len;
	sbuf_add(prefix, s, len);
	strlist_push(out, sbuf_str(prefix));
	prefix->len = keep;
	prefix->buf[keep] = '\0';
	return ASSAY_OK;
}

/* One item p[0..q) inside brackets, "N" or "N-M": its bounds, and the width
 * of N (its zero padding). */
static assay_err range_item(const char *expr, const char *p, const char *q,
			    unsigned long long *lo_out, unsigned long long *hi_out, int *width,
			    struct assay_error *e)
{
	const char *dash = memchr(p, '-', (size_t)(q - p));
	const char *lo_s = p, *lo_e = dash ? dash : q;
	const char *hi_s = dash ? dash + 1 : p, *hi_e = q;
	unsigned long long lo = 0, hi = 0;
	bool ok = lo_e > lo_s && hi_e > hi_s && lo_e - lo_s <= 18 && hi_e - hi_s <= 18;
	for (const char *c = lo_s; ok && c < lo_e; c++)
		ok = isdigit((unsigned char)*c), lo = lo * 10 + (unsigned)(*c - '0');
	for (const char *c = hi_s; ok && c < hi_e; c++)
		ok = isdigit((unsigned char)*c), hi = hi * 10 + (unsigned)(*c - '0');
	if (!ok)
		return assay_error_set(e, ASSAY_USAGE,
				       "hostlist \"%s\": bad range \"%.*s\" (expected N or N-M)",
				       expr, (int)(q - p), p);
	if (hi < lo)
		return assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": reversed range \"%.*s\"",
				       expr, (int)(q - p), p);
	if (hi - lo >= ASSAY_HOSTLIST_MAX)
		return assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": more than %d hosts", expr,
				       ASSAY_HOSTLIST_MAX);
	*lo_out = lo;
	*hi_out = hi;
	*width = (int)(lo_e - lo_s);
	return ASSAY_OK;
}

/* Expand one host expression s[0..len) after prefix into out. */
static assay_err expand_one(const char *expr, const char *s, size_t len, struct sbuf *prefix,
			    struct strlist *out, struct assay_error *e)
{
	size_t lb = 0;
	while (lb < len && s[lb] != '[' && s[lb] != ']')
		lb++;
	if (lb < len && s[lb] == ']')
		return assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": unmatched ']'", expr);
	if (lb == len)
		return add_host(expr, s, len, prefix, out, e);
	size_t rb = lb + 1;
	while (rb < len && s[rb] != ']' && s[rb] != '[')
		rb++;
	if (rb == len || s[rb] != ']')
		return assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": unmatched '['", expr);
	if (rb == lb + 1)
		return assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": empty range \"[]\"", expr);

	size_t keep = prefix->len;
	sbuf_add(prefix, s, lb);
	size_t base = prefix->len;
	/* Items inside the brackets: "N" or "N-M", separated by commas. */
	const char *p = s + lb + 1, *end = s + rb;
	while (p < end) {
		const char *q = p;
		while (q < end && *q != ',')
			q++;
		unsigned long long lo, hi;
		int width;
		if (range_item(expr, p, q, &lo, &hi, &width, e) != ASSAY_OK)
			goto fail;
		for (unsigned long long v = lo; v <= hi; v++) {
			prefix->len = base;
			prefix->buf[base] = '\0';
			sbuf_addf(prefix, "%0*llu", width, v);
			if (expand_one(expr, s + rb + 1, len - rb - 1, prefix, out, e) != ASSAY_OK)
				goto fail;
		}
		p = q < end ? q + 1 : q;
		if (q < end && p == end) {
			assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": empty range item", expr);
			goto fail;
		}
	}
	prefix->len = keep;
	prefix->buf[keep] = '\0';
	return ASSAY_OK;
fail:
	prefix->len = keep;
	if (prefix->buf)
		prefix->buf[keep] = '\0';
	return e ? e->code : ASSAY_USAGE;
}

assay_err assay_hostlist_expand(const char *expr, struct strlist *out, struct assay_error *e)
{
	struct sbuf prefix = SBUF_INIT;
	size_t start_n = out->n;
	const char *s = expr;
	assay_err rc = ASSAY_OK;
	sbuf_grow(&prefix, 64);
	while (*s) {
		while (is_sep(*s))
			s++;
		if (!*s)
			break;
		/* One element: up to a separator outside brackets. */
		const char *t = s;
		int depth = 0;
		while (*t && (depth || !is_sep(*t))) {
			if (*t == '[')
				depth++;
			else if (*t == ']' && depth)
				depth--;
			t++;
		}
		if (*s == '[') {
			rc = assay_error_set(e, ASSAY_USAGE,
					     "hostlist \"%s\": a name cannot start with '['", expr);
			break;
		}
		rc = expand_one(expr, s, (size_t)(t - s), &prefix, out, e);
		if (rc != ASSAY_OK)
			break;
		s = t;
	}
	if (rc == ASSAY_OK && out->n == start_n)
		rc = assay_error_set(e, ASSAY_USAGE, "hostlist \"%s\": no hosts", expr);
	if (rc != ASSAY_OK) {
		while (out->n > start_n)
			free(out->v[--out->n]);
	}
	sbuf_release(&prefix);
	return rc;
}

long long assay_hostlist_count(const char *expr, struct assay_error *e)
{
	struct strlist l = STRLIST_INIT;
	long long n = assay_hostlist_expand(expr, &l, e) == ASSAY_OK ? (long long)l.n : -1;
	strlist_clear(&l);
	return n;
}
