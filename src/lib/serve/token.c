/* assay serve's bearer tokens: parsed from the text of an environment
 * variable, compared in constant time, never copied into a message. */
#include <stdlib.h>
#include <string.h>

#include "assay/serve.h"

void assay_serve_tokens_release(struct assay_serve_tokens *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].name);
		if (t->v[i].secret)
			explicit_bzero(t->v[i].secret, strlen(t->v[i].secret));
		free(t->v[i].secret);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

static bool name_ok(const char *s, size_t n)
{
	if (!n || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@",
			    s[i]))
			return false;
	return true;
}

/* One "NAME:SCOPE:SECRET" entry of n bytes into t->v[t->n]. */
static assay_err token_add(struct assay_serve_tokens *t, const char *s, size_t n, size_t k,
			   struct assay_error *e)
{
	const char *c1 = memchr(s, ':', n);
	const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - s)) : NULL;
	size_t namelen = c1 ? (size_t)(c1 - s) : 0;
	if (!c2 || !name_ok(s, namelen))
		return assay_error_set(e, ASSAY_USAGE,
				       "token %zu: expected NAME:read:SECRET or NAME:write:SECRET "
				       "(NAME of letters, digits, '-', '_', '.', '@')",
				       k);
	size_t scope = (size_t)(c2 - c1 - 1), slen = n - (size_t)(c2 + 1 - s);
	bool write = scope == 5 && !strncmp(c1 + 1, "write", 5);
	if (!write && !(scope == 4 && !strncmp(c1 + 1, "read", 4)))
		return assay_error_set(e, ASSAY_USAGE,
				       "token %zu (%.*s): scope must be read or write", k,
				       (int)namelen, s);
	if (slen < 16)
		return assay_error_set(
		    e, ASSAY_USAGE, "token %zu (%.*s): the secret must be at least 16 characters",
		    k, (int)namelen, s);
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->v[i].name) == namelen && !strncmp(t->v[i].name, s, namelen))
			return assay_error_set(e, ASSAY_USAGE, "token %zu: the name %.*s repeats",
					       k, (int)namelen, s);
	t->v[t->n++] =
	    (struct assay_serve_token){xstrndup(s, namelen), xstrndup(c2 + 1, slen), write};
	return ASSAY_OK;
}

assay_err assay_serve_tokens_parse(const char *spec, struct assay_serve_tokens *out,
				   struct assay_error *e)
{
	static const char *const sep = " ,\n\t\r";
	size_t count = 0;
	for (const char *p = spec; *p;) {
		p += strspn(p, sep);
		size_t n = strcspn(p, sep);
		count += n > 0;
		p += n;
	}
	out->v = xcalloc(count + 1, sizeof(*out->v));
	out->n = 0;
	size_t k = 0;
	for (const char *p = spec; *p;) {
		p += strspn(p, sep);
		size_t n = strcspn(p, sep);
		if (n && token_add(out, p, n, ++k, e) != ASSAY_OK) {
			assay_serve_tokens_release(out);
			return ASSAY_USAGE;
		}
		p += n;
	}
	return ASSAY_OK;
}

bool assay_serve_secret_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Every byte of a is looked at whatever b is; only the lengths leak. */
	volatile unsigned char diff = (unsigned char)(alen != blen);
	for (size_t i = 0; i < alen; i++)
		diff |= (unsigned char)(a[i] ^ (blen ? b[i % blen] : 0));
	return diff == 0;
}

const struct assay_serve_token *assay_serve_token_find(const struct assay_serve_tokens *t,
						       const char *authorization)
{
	static const char bearer[] = "Bearer ";
	if (!authorization || strncmp(authorization, bearer, sizeof(bearer) - 1))
		return NULL;
	const char *given = authorization + sizeof(bearer) - 1;
	size_t glen = strlen(given);
	const struct assay_serve_token *found = NULL;
	for (size_t i = 0; i < t->n; i++) {
		const char *s = t->v[i].secret;
		if (assay_serve_secret_equal(s, strlen(s), given, glen) && !found)
			found = &t->v[i];
	}
	return found;
}
