/* A fast reader of strict JSON into jansson values, for lint's hot path:
 * jansson's own reader spends most of lint's time lexing byte by byte.
 * It accepts exactly what assay_json_loadb accepts or gives up (NULL), and
 * then the caller reads the text with assay_json_loadb, which also words
 * the error: invalid text, duplicate keys, \u0000, numbers out of range and
 * deep nesting all take that path, so messages stay the same. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

#define MAX_DEPTH 1024 /* below jansson's own limit (2048): deeper goes the slow way */

struct rd {
	const unsigned char *p, *end;
	struct sbuf tmp; /* decoded strings with escapes */
	int depth;
};

static void ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
		r->p++;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 when
 * invalid: no overlongs, no surrogates, nothing above U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len = c >= 0xc2 && c <= 0xdf   ? 2
		     : c >= 0xe0 && c <= 0xef ? 3
		     : c >= 0xf0 && c <= 0xf4 ? 4
					      : 0;
	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

static int hex4(const unsigned char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (int)(c - 'A' + 10);
		else
			return -1;
	}
	return v;
}

static void put_utf8(struct sbuf *sb, unsigned cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	sbuf_add(sb, b, n);
}

/* A \u escape at q (past the "u"), with the low surrogate that must follow
 * a high one, as UTF-8 into sb; the end of it, NULL when jansson refuses it. */
static const unsigned char *unicode_escape(struct sbuf *sb, const unsigned char *q,
					   const unsigned char *stop)
{
	if (stop - q < 4)
		return NULL;
	int cp = hex4(q);
	q += 4;
	if (cp <= 0) /* invalid, or \u0000, which jansson refuses */
		return NULL;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return NULL;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (stop - q < 6 || q[0] != '\\' || q[1] != 'u')
			return NULL;
		int lo = hex4(q + 2);
		if (lo < 0xdc00 || lo > 0xdfff)
			return NULL;
		q += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	put_utf8(sb, (unsigned)cp);
	return q;
}

/* The text of [q, stop) with its escapes decoded, into sb; false when an
 * escape is not one jansson accepts. */
static bool unescape(struct sbuf *sb, const unsigned char *q, const unsigned char *stop)
{
	sbuf_reset(sb);
	while (q < stop) {
		if (*q != '\\') {
			const unsigned char *run = q;
			while (q < stop && *q != '\\')
				q++;
			sbuf_add(sb, (const char *)run, (size_t)(q - run));
			continue;
		}
		q++;
		if (q >= stop)
			return false;
		switch (*q++) {
		case '"': sbuf_addch(sb, '"'); break;
		case '\\': sbuf_addch(sb, '\\'); break;
		case '/': sbuf_addch(sb, '/'); break;
		case 'b': sbuf_addch(sb, '\b'); break;
		case 'f': sbuf_addch(sb, '\f'); break;
		case 'n': sbuf_addch(sb, '\n'); break;
		case 'r': sbuf_addch(sb, '\r'); break;
		case 't': sbuf_addch(sb, '\t'); break;
		case 'u':
			if (!(q = unicode_escape(sb, q, stop)))
				return false;
			break;
		default: return false;
		}
	}
	return true;
}

/* r->p at the opening quote: the string's text in *s, *n (valid until the
 * next string is read). False when it is not one jansson accepts. */
static bool string(struct rd *r, const char **s, size_t *n)
{
	/* Bytes that end the plain run: the quote, a backslash, controls, and
	 * the lead bytes of UTF-8 sequences (checked one by one). */
	static const unsigned char special[256] = {
	    [0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x80 ... 0xff] = 1};
	const unsigned char *start = ++r->p;
	bool escaped = false;
	while (r->p < r->end) {
		while (r->p < r->end && !special[*r->p])
			r->p++;
		if (r->p >= r->end)
			break;
		unsigned c = *r->p;
		if (c == '"')
			break;
		if (c < 0x20)
			return false;
		if (c == '\\') {
			escaped = true;
			r->p += 2;
			continue;
		}
		size_t k = utf8_len(r->p, (size_t)(r->end - r->p));
		if (!k)
			return false;
		r->p += k;
	}
	if (r->p >= r->end)
		return false;
	const unsigned char *stop = r->p++;
	if (!escaped) {
		*s = (const char *)start;
		*n = (size_t)(stop - start);
		return true;
	}
	if (!unescape(&r->tmp, start, stop))
		return false;
	*s = r->tmp.buf ? r->tmp.buf : "";
	*n = r->tmp.len;
	return true;
}

static json_t *number(struct rd *r)
{
	const unsigned char *s = r->p;
	bool real = false;
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end)
		return NULL;
	if (*r->p == '0') {
		r->p++;
	} else if (*r->p >= '1' && *r->p <= '9') {
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	} else {
		return NULL;
	}
	if (r->p < r->end && *r->p == '.') {
		real = true;
		r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return NULL;
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		real = true;
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return NULL;
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	char buf[64];
	size_t n = (size_t)(r->p - s);
	if (n >= sizeof(buf))
		return NULL; /* long numbers: let jansson judge them */
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	if (!real) {
		long long v = strtoll(buf, NULL, 10);
		if (errno)
			return NULL;
		return json_integer(v);
	}
	double d = strtod(buf, NULL);
	if (isinf(d))
		return NULL;
	return json_real(d);
}

static json_t *value(struct rd *r);

static json_t *object(struct rd *r)
{
	json_t *o = json_object();
	r->p++;
	ws(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		return o;
	}
	for (;;) {
		if (r->p >= r->end || *r->p != '"')
			goto fail;
		const char *k;
		size_t kn;
		if (!string(r, &k, &kn))
			goto fail;
		/* The key may sit in r->tmp, which the value can overwrite. */
		char kb[256];
		char *key = kn < sizeof(kb) ? kb : xmalloc(kn + 1);
		memcpy(key, k, kn);
		key[kn] = '\0';
		ws(r);
		if (r->p >= r->end || *r->p != ':') {
			if (key != kb)
				free(key);
			goto fail;
		}
		r->p++;
		ws(r);
		json_t *v = value(r);
		size_t before = json_object_size(o);
		/* A key set twice replaces the value and keeps the size: a
		 * duplicate, which jansson words. */
		if (!v || json_object_setn_new_nocheck(o, key, kn, v) ||
		    json_object_size(o) == before) {
			if (key != kb)
				free(key);
			goto fail;
		}
		if (key != kb)
			free(key);
		ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			ws(r);
			continue;
		}
		if (r->p < r->end && *r->p == '}') {
			r->p++;
			return o;
		}
		goto fail;
	}
fail:
	json_decref(o);
	return NULL;
}

static json_t *array(struct rd *r)
{
	json_t *a = json_array();
	r->p++;
	ws(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		return a;
	}
	for (;;) {
		json_t *v = value(r);
		if (!v || json_array_append_new(a, v))
			goto fail;
		ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			ws(r);
			continue;
		}
		if (r->p < r->end && *r->p == ']') {
			r->p++;
			return a;
		}
		goto fail;
	}
fail:
	json_decref(a);
	return NULL;
}

static bool word(struct rd *r, const char *w, size_t n)
{
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
		return false;
	r->p += n;
	return true;
}

static json_t *value(struct rd *r)
{
	if (r->p >= r->end)
		return NULL;
	json_t *v = NULL;
	switch (*r->p) {
	case '{':
	case '[':
		if (++r->depth > MAX_DEPTH)
			return NULL;
		v = *r->p == '{' ? object(r) : array(r);
		r->depth--;
		return v;
	case '"': {
		const char *s;
		size_t n;
		return string(r, &s, &n) ? json_stringn_nocheck(s, n) : NULL;
	}
	case 't': return word(r, "true", 4) ? json_true() : NULL;
	case 'f': return word(r, "false", 5) ? json_false() : NULL;
	case 'n': return word(r, "null", 4) ? json_null() : NULL;
	default: return number(r);
	}
}

json_t *lint_json_fast(const char *text, size_t len)
{
	struct rd r = {(const unsigned char *)text, (const unsigned char *)text + len, SBUF_INIT,
		       0};
	ws(&r);
	json_t *v = NULL;
	if (r.p < r.end && (*r.p == '{' || *r.p == '['))
		v = value(&r);
	if (v) {
		ws(&r);
		if (r.p != r.end) {
			json_decref(v);
			v = NULL;
		}
	}
	sbuf_release(&r.tmp);
	return v;
}
