/* assay serve's request targets: the path names a page (nothing percent-
 * encoded, no "." or ".." segment), the query its filters, each parameter
 * decoded once and checked; anything else is refused with its status. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/serve.h"

void assay_serve_route_release(struct assay_serve_route *r)
{
	strlist_clear(&r->match);
	free(r->file);
	r->file = NULL;
	free(r->since);
	free(r->until);
	r->since = r->until = NULL;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* Decode n bytes of a query component ('+' is a space); NULL when an escape
 * is malformed or the text holds a control character (NUL included). */
static char *decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == '%') {
			int hi = i + 2 < n ? hexval(s[i + 1]) : -1;
			int lo = i + 2 < n ? hexval(s[i + 2]) : -1;
			if (hi < 0 || lo < 0) {
				free(out);
				return NULL;
			}
			c = hi * 16 + lo;
			i += 2;
		} else if (c == '+') {
			c = ' ';
		}
		if (c < 0x20 || c == 0x7f) {
			free(out);
			return NULL;
		}
		out[k++] = (char)c;
	}
	out[k] = '\0';
	return out;
}

static bool hex_key(const char *s, size_t n)
{
	if (n < 8 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

/* A date or RFC 3339 time: digits and the few characters they use. */
static bool date_ok(const char *s)
{
	if (!*s || strlen(s) > 40)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && !strchr("-:TZ.+", *s))
			return false;
	return true;
}

/* Say why in e and give the status. */
#define bad(e, status, ...) (assay_error_set(e, ASSAY_USAGE, __VA_ARGS__), (status))

static int param(struct assay_serve_route *r, const char *name, char *value, struct assay_error *e)
{
	static const char *const sorts[] = {"key", "label", "count", "last"};
	long long n;
	if (!*value)
		return 200; /* an empty field of a form: not given */
	if (!strcmp(name, "match")) {
		if (!strchr(value, '=') || *value == '=' || r->match.n >= ASSAY_SERVE_MAX_MATCH)
			return bad(e, 400, "match: expected FIELD=VALUE (at most 16)");
		strlist_push(&r->match, value);
	} else if (!strcmp(name, "since") || !strcmp(name, "until")) {
		char **slot = name[0] == 's' ? &r->since : &r->until;
		if (*slot || !date_ok(value))
			return bad(e, 400, "%s: expected one date (2026-11-01) or RFC 3339 time",
				   name);
		*slot = xstrdup(value);
	} else if (!strcmp(name, "last") || !strcmp(name, "page") || !strcmp(name, "per")) {
		long long *slot = name[0] == 'l'   ? &r->last
				  : name[1] == 'a' ? &r->page_no
						   : &r->per;
		long long max = name[1] == 'e' ? 500 : 1000000000;
		if (*slot || !assay_parse_long(value, &n) || n < 1 || n > max)
			return bad(e, 400, "%s: expected one positive integer", name);
		*slot = n;
	} else if (!strcmp(name, "sort")) {
		for (size_t i = 0; i < ARRAY_SIZE(sorts); i++)
			if (!strcmp(value, sorts[i]))
				r->sort = sorts[i];
		if (!r->sort)
			return bad(e, 400, "sort: expected key, label, count or last");
	} else {
		return bad(e, 400, "unknown parameter '%s'", name);
	}
	return 200;
}

static int parse_query(struct assay_serve_route *r, const char *q, struct assay_error *e)
{
	while (*q) {
		size_t n = strcspn(q, "&");
		const char *eq = memchr(q, '=', n);
		if (n) {
			if (!eq)
				return bad(e, 400, "query: expected NAME=VALUE");
			char *name = decode(q, (size_t)(eq - q));
			char *value = name ? decode(eq + 1, n - (size_t)(eq + 1 - q)) : NULL;
			int st = name && value ? param(r, name, value, e)
					       : bad(e, 400, "query: bad percent-encoding");
			free(name);
			free(value);
			if (st != 200)
				return st;
		}
		q += n + (q[n] == '&');
	}
	return 200;
}

struct path_rule {
	const char *prefix; /* exact path, or a prefix followed by a series key */
	bool keyed;
	enum assay_serve_page page;
	const char *method; /* "GET" (HEAD too) or "POST" */
};

static const struct path_rule paths[] = {
    {"/", false, ASSAY_SERVE_OVERVIEW, "GET"},
    {"/series/", true, ASSAY_SERVE_SERIES, "GET"},
    {"/api/v1/series", false, ASSAY_SERVE_API_SERIES, "GET"},
    {"/api/v1/series/", true, ASSAY_SERVE_API_HISTORY, "GET"},
    {"/api/v1/state", false, ASSAY_SERVE_API_STATE, "GET"},
    {"/api/v1/annotations", false, ASSAY_SERVE_API_ANNOTATE, "POST"},
    {"/publications", false, ASSAY_SERVE_PUBLICATIONS, "GET"},
    {"/assets/report.css", false, ASSAY_SERVE_ASSET_CSS, "GET"},
    {"/assets/report.js", false, ASSAY_SERVE_ASSET_JS, "GET"},
    {"/assets/serve.js", false, ASSAY_SERVE_ASSET_SERVE, "GET"},
};

/* The path's characters and segments; 200 or 400. */
static int path_check(const char *p, size_t n, struct assay_error *e)
{
	if (!n || p[0] != '/')
		return bad(e, 400, "the target must be a path starting with '/'");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == '%')
			return bad(e, 400, "percent-encoding is not allowed in a path");
		if (!isalnum(c) && !strchr("/-._~", c))
			return bad(e, 400, "the path holds a character that is not allowed");
		if (c == '/' && i + 1 < n && p[i + 1] == '/')
			return bad(e, 400, "the path holds an empty segment");
		if (c == '/' && p[i + 1] == '.' &&
		    (i + 2 >= n || p[i + 2] == '/' ||
		     (p[i + 2] == '.' && (i + 3 >= n || p[i + 3] == '/'))))
			return bad(e, 400, "the path holds a '.' or '..' segment");
	}
	return 200;
}

static int route_path(struct assay_serve_route *r, const char *method, const char *p, size_t n,
		      struct assay_error *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		const struct path_rule *pr = &paths[i];
		size_t pn = strlen(pr->prefix);
		if (pr->keyed ? n <= pn || strncmp(p, pr->prefix, pn) || !hex_key(p + pn, n - pn)
			      : n != pn || strncmp(p, pr->prefix, n))
			continue;
		bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
		r->page = pr->page;
		if (strcmp(pr->method, "GET") ? strcmp(method, pr->method) : !get)
			return bad(e, 405, "%s is not allowed here", method);
		if (pr->keyed)
			memcpy(r->key, p + pn, n - pn);
		return 200;
	}
	return bad(e, 404, "no such page");
}

/* One segment of a run folder path, percent-decoded into out: no encoded
 * '/', no control character, not "" "." or "..". */
static bool file_segment(const char *s, size_t n, struct sbuf *out)
{
	char *d = decode(s, n);
	bool ok =
	    d && *d && strcmp(d, ".") && strcmp(d, "..") && !strchr(d, '/') && !strchr(d, '\\');
	if (ok && memchr(s, '+', n)) /* a '+' is a space only in a query: refused */
		ok = false;
	if (ok) {
		if (out->len)
			sbuf_addch(out, '/');
		sbuf_adds(out, d);
	}
	free(d);
	return ok;
}

/* /run/RUN_ID[/PATH]: the id of [A-Za-z0-9._-], the path's segments
 * checked one by one. 200 or 400/404/405. */
static int route_run(struct assay_serve_route *r, const char *method, const char *p, size_t n,
		     struct assay_error *e)
{
	p += 5, n -= 5; /* "/run/" */
	size_t idn = 0;
	while (idn < n && p[idn] != '/')
		idn++;
	if (!idn || idn > 64 || (idn <= 2 && !strncmp(p, "..", idn)))
		return bad(e, 404, "no such run");
	for (size_t i = 0; i < idn; i++)
		if (!isalnum((unsigned char)p[i]) && !strchr("._-", p[i]))
			return bad(e, 400, "a run id has only letters, digits, '.', '_' and '-'");
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return bad(e, 405, "%s is not allowed here", method);
	memcpy(r->run, p, idn);
	r->page = ASSAY_SERVE_RUN;
	r->redirect = idn == n;
	if (idn + 1 >= n)
		return 200;
	struct sbuf path = SBUF_INIT;
	const char *s = p + idn + 1, *end = p + n;
	if (end[-1] == '/')
		end--;
	while (s <= end) {
		const char *slash = memchr(s, '/', (size_t)(end - s));
		size_t len = slash ? (size_t)(slash - s) : (size_t)(end - s);
		if (!file_segment(s, len, &path)) {
			sbuf_release(&path);
			return bad(e, 400,
				   "a path segment is empty, '.', '..', or holds an encoded "
				   "'/', '\\', '+' or a control character");
		}
		s += len + 1;
	}
	r->page = ASSAY_SERVE_RUN_FILE;
	r->file = sbuf_detach(&path, NULL);
	return 200;
}

int assay_serve_route_parse(const char *method, const char *target, struct assay_serve_route *r,
			    struct assay_error *e)
{
	memset(r, 0, sizeof(*r));
	if (strlen(target) > ASSAY_SERVE_MAX_TARGET)
		return bad(e, 414, "the request target is longer than %s bytes", "4096");
	size_t n = strcspn(target, "?");
	int st;
	if (!strncmp(target, "/run/", 5))
		st = route_run(r, method, target, n, e);
	else if ((st = path_check(target, n, e)) == 200)
		st = route_path(r, method, target, n, e);
	if (st == 200 && target[n] == '?')
		st = parse_query(r, target + n + 1, e);
	if (!r->page_no)
		r->page_no = 1;
	if (!r->per)
		r->per = ASSAY_SERVE_PAGE_SIZE;
	if (!r->sort)
		r->sort = "key";
	return st;
}
