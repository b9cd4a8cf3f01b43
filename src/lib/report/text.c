/* Safe text for the report writers: redact secrets, drop ANSI escapes, make
 * the text valid UTF-8 without control characters (XML 1.0 forbids them),
 * escape it for HTML/XML or a Markdown table cell; and number formatting. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/redact.h"
#include "report/report_internal.h"

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s[0..len) that XML 1.0 allows, or 0. */
static size_t utf8_valid(const unsigned char *s, size_t len)
{
	unsigned c = s[0];
	size_t n;
	unsigned cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF)
		return 0; /* overlong or out of range */
	if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
		return 0; /* surrogates and non-characters XML rejects */
	return n;
}

/* Clean s into out: no ANSI escapes, valid UTF-8, no control characters
 * other than tab and newline (CR dropped). */
static void clean(struct sbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < len) {
		unsigned c = p[i];
		if (c == 0x1B) {
			/* CSI: ESC [ parameters... final byte in 0x40..0x7E. */
			i++;
			if (i < len && p[i] == '[') {
				i++;
				while (i < len && !(p[i] >= 0x40 && p[i] <= 0x7E))
					i++;
				if (i < len)
					i++;
			}
			continue;
		}
		if (c == '\r') {
			i++;
			continue;
		}
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
			sbuf_adds(out, replacement);
			i++;
			continue;
		}
		size_t n = utf8_valid(p + i, len - i);
		if (!n) {
			sbuf_adds(out, replacement);
			i++;
			continue;
		}
		sbuf_add(out, p + i, n);
		i += n;
	}
}

static void escape(struct sbuf *out, enum rep_kind kind, const char *s, size_t len)
{
	size_t run = 0; /* bytes copied verbatim are flushed in runs */
	for (size_t i = 0; i < len; i++) {
		const char *rep = NULL;
		char c = s[i];
		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = kind == REP_XML ? "&quot;" : NULL; break;
		case '\'': rep = kind == REP_XML ? "&#39;" : NULL; break;
		case '\n': rep = kind == REP_MD ? " " : NULL; break;
		case '\t': rep = kind == REP_MD ? " " : NULL; break;
		case '|': rep = kind == REP_MD ? "\\|" : NULL; break;
		case '\\': rep = kind == REP_MD ? "\\\\" : NULL; break;
		case '*': rep = kind == REP_MD ? "\\*" : NULL; break;
		case '_': rep = kind == REP_MD ? "\\_" : NULL; break;
		case '`': rep = kind == REP_MD ? "\\`" : NULL; break;
		case '[': rep = kind == REP_MD ? "\\[" : NULL; break;
		case ']': rep = kind == REP_MD ? "\\]" : NULL; break;
		default: break;
		}
		if (!rep)
			continue;
		sbuf_add(out, s + run, i - run);
		sbuf_adds(out, rep);
		run = i + 1;
	}
	sbuf_add(out, s + run, len - run);
}

void rep_text(struct sbuf *out, enum rep_kind kind, const char *s, size_t max,
	      const struct assay_redactor *secrets)
{
	if (!s || !*s)
		return;
	size_t len = strlen(s);
	struct sbuf red = SBUF_INIT, cl = SBUF_INIT;
	if (secrets && assay_redactor_find(secrets, s, len, NULL)) {
		assay_redactor_append(secrets, s, len, &red);
		s = red.buf;
		len = red.len;
	}
	clean(&cl, s, len);
	size_t n = cl.len;
	bool cut = false;
	if (max && n > max) {
		n = max;
		/* Back up to the start of a UTF-8 character. */
		while (n > 0 && ((unsigned char)cl.buf[n] & 0xC0) == 0x80)
			n--;
		cut = true;
	}
	escape(out, kind, sbuf_str(&cl), n);
	if (cut)
		sbuf_adds(out, "…");
	sbuf_release(&cl);
	sbuf_release(&red);
}

void rep_redact_all(struct sbuf *sb, enum rep_kind kind, const struct assay_redactor *secrets)
{
	if (!secrets || assay_redactor_empty(secrets))
		return;
	/* Each value, and its escaped form where escaping changes it. */
	struct assay_redactor forms = ASSAY_REDACTOR_INIT;
	struct sbuf esc = SBUF_INIT;
	for (size_t i = 0; i < secrets->n; i++) {
		const struct assay_secret *v = &secrets->v[i];
		if (!v->value)
			continue;
		assay_redactor_add(&forms, v->name, v->value);
		sbuf_reset(&esc);
		rep_text(&esc, kind, v->value, 0, NULL);
		if (esc.len && strcmp(esc.buf, v->value))
			assay_redactor_add(&forms, v->name, esc.buf);
	}
	assay_redactor_sbuf(&forms, sb);
	sbuf_release(&esc);
	assay_redactor_release(&forms);
}

/* Drop trailing zeros of a fixed or exponent rendering in place. */
static void trim_zeros(char *buf, size_t size)
{
	char *e = strchr(buf, 'e');
	char exp[16] = "";
	if (e) {
		snprintf(exp, sizeof(exp), "%s", e);
		*e = '\0';
	}
	if (strchr(buf, '.')) {
		size_t n = strlen(buf);
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (e) {
		/* e+05 -> e5, e-05 -> e-5 */
		const char *d = exp + 1;
		bool neg = *d == '-';
		if (*d == '+' || *d == '-')
			d++;
		while (*d == '0' && d[1])
			d++;
		size_t n = strlen(buf);
		if (n < size)
			snprintf(buf + n, size - n, "e%s%s", neg ? "-" : "", d);
	}
}

const char *rep_num(char *buf, size_t size, double v, int sig)
{
	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (sig <= 0)
		sig = 4;
	if (v == 0) {
		snprintf(buf, size, "0");
		return buf;
	}
	double a = fabs(v);
	if (a >= 1e-3 && a < 1e9) {
		int mag = (int)floor(log10(a));
		int dec = sig - 1 - mag;
		if (dec < 0)
			dec = 0;
		snprintf(buf, size, "%.*f", dec, v);
		/* Rounding may carry into one more digit (9.9996 -> 10.000): fine. */
	} else {
		snprintf(buf, size, "%.*e", sig - 1, v);
	}
	trim_zeros(buf, size);
	if (!strcmp(buf, "-0"))
		snprintf(buf, size, "0");
	return buf;
}

bool rep_href_ok(const char *href)
{
	if (!href || !*href || href[0] == '/' || href[0] == '\\')
		return false;
	/* A scheme is letters, digits, + - . before the first ':'. */
	for (const char *p = href; *p && *p != '/' && *p != '?' && *p != '#'; p++)
		if (*p == ':')
			return false;
	return true;
}

void rep_href(struct sbuf *out, const char *href, const struct assay_redactor *secrets)
{
	static const char hex[] = "0123456789ABCDEF";
	char *red = assay_redactor_str(secrets, href);
	for (const unsigned char *p = (const unsigned char *)red; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/+,=@", *p)) {
			sbuf_addch(out, (char)*p);
		} else {
			sbuf_addch(out, '%');
			sbuf_addch(out, hex[*p >> 4]);
			sbuf_addch(out, hex[*p & 15]);
		}
	}
	free(red);
}

size_t rep_first_line(const char *s)
{
	if (!s)
		return 0;
	const char *nl = strchr(s, '\n');
	return nl ? (size_t)(nl - s) : strlen(s);
}
