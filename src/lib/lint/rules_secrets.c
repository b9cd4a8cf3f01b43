/* Secret rules: literal values under secret-named keys, and values anywhere
 * (build args, commands, args) that look like a known token format. The
 * finding never quotes the secret; the driver masks token formats in every
 * message and path (assay_token_mask, include/assay/redact.h). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "assay/redact.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"secret-literal", "secrets", ASSAY_LINT_ERROR, true, KIND_ALL,
     "a literal value under a secret-named key (*TOKEN, *SECRET*, *PASSWORD*, *API_KEY*)"},
    {"secret-pattern", "secrets", ASSAY_LINT_ERROR, true, KIND_ALL,
     "a value that looks like a known token format (hf_, ghp_, github_pat_, AKIA, xoxb-)"},
};
#define R_LITERAL (&rules[0])
#define R_PATTERN (&rules[1])

/* The last components of names that point at a secret rather than hold it. */
static const char *const pointer_words[] = {"PATH", "FILE", "DIR", "NAME", "NAMES",
					    "ENV",  "ID",   "REF", NULL};

static bool upper_contains(const char *s, size_t n, const char *w)
{
	size_t m = strlen(w);
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;
		while (j < m && toupper((unsigned char)s[i + j]) == w[j])
			j++;
		if (j == m)
			return true;
	}
	return false;
}

static bool upper_equals(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && upper_contains(s, n, w);
}

/* Whether key holds, in any case, one of the words every secret-named key
 * has: TOKEN, SECRET, PASSW(ORD|D) or KEY (APIKEY, API_KEY, PRIVATE_KEY). */
static bool word_at(const char *p, const char *w)
{
	for (; *w; p++, w++)
		if ((*p & ~0x20) != *w) /* w is upper case; p may end first (NUL fails) */
			return false;
	return true;
}

static bool maybe_secret(const char *key)
{
	for (const char *p = key; *p; p++) {
		switch (*p | 0x20) {
		case 't':
			if (word_at(p, "TOKEN"))
				return true;
			break;
		case 's':
			if (word_at(p, "SECRET"))
				return true;
			break;
		case 'p':
			if (word_at(p, "PASSW"))
				return true;
			break;
		case 'k':
			if (word_at(p, "KEY"))
				return true;
			break;
		}
	}
	return false;
}

bool lint_key_is_secret(const char *key)
{
	if (!maybe_secret(key))
		return false;
	/* Components: runs of letters and digits. */
	const char *comp[16];
	size_t clen[16], nc = 0;
	for (const char *p = key; *p && nc < ARRAY_SIZE(comp);) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (isalnum((unsigned char)*p))
			p++;
		comp[nc] = s;
		clen[nc++] = (size_t)(p - s);
	}
	/* "secrets" alone names a list or block of secrets (their names, a
	 * strategy), not a value. */
	if (!nc || (nc == 1 && upper_equals(comp[0], clen[0], "SECRETS")))
		return false;
	const char *last = comp[nc - 1];
	size_t ll = clen[nc - 1];
	for (size_t i = 0; pointer_words[i]; i++)
		if (upper_equals(last, ll, pointer_words[i]))
			return false;
	for (size_t i = 0; i < nc; i++) {
		if (upper_contains(comp[i], clen[i], "SECRET") ||
		    upper_contains(comp[i], clen[i], "PASSWORD") ||
		    upper_contains(comp[i], clen[i], "PASSWD") ||
		    upper_contains(comp[i], clen[i], "APIKEY"))
			return true;
		if (i + 1 < nc && upper_equals(comp[i + 1], clen[i + 1], "KEY") &&
		    (upper_equals(comp[i], clen[i], "API") ||
		     upper_equals(comp[i], clen[i], "PRIVATE")))
			return true;
	}
	/* *TOKEN as the last word: HF_TOKEN, MAD_SECRETS_HFTOKEN; not MAX_TOKENS. */
	return ll >= 5 && upper_equals(last + ll - 5, 5, "TOKEN");
}

/* A value that stands for a secret instead of holding one (placeholders are
 * the placeholder rule's). */
static bool reference_or_empty(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!len)
		return true;
	if (s[0] == '<' && s[len - 1] == '>')
		return true;
	if (s[0] != '$' || len < 2)
		return false;
	if (s[1] == '{')
		return s[len - 1] == '}' && !memchr(s + 2, '}', len - 3);
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* Whether s can hold a token assay_token_find knows: each starts with hf_,
 * gh?_ or github_pat_, AKIA/ASIA, or xox (a cheap superset, so the full
 * search runs on few strings). */
static bool maybe_token(const char *s, size_t len)
{
	static const unsigned char starts[256] = {['h'] = 1, ['g'] = 1, ['A'] = 1, ['x'] = 1};
	for (size_t i = 0; i + 3 <= len; i++) {
		if (!starts[(unsigned char)s[i]])
			continue;
		const char *p = s + i;
		size_t rem = len - i;
		if ((p[0] == 'h' && p[1] == 'f' && p[2] == '_') ||
		    (p[0] == 'g' && p[1] == 'h' && rem >= 4 && p[3] == '_') ||
		    (rem >= 11 && !memcmp(p, "github_pat_", 11)) ||
		    (p[0] == 'A' && rem >= 4 && (p[1] == 'K' || p[1] == 'S') && p[2] == 'I' &&
		     p[3] == 'A') ||
		    (p[0] == 'x' && p[1] == 'o' && p[2] == 'x'))
			return true;
	}
	return false;
}

/* Which rules run, told once per walk. */
struct which {
	bool literal, pattern;
};

static void visit(struct lint_ctx *c, const struct lint_str *s, void *arg)
{
	const struct which *w = arg;
	size_t start, end;
	if (w->literal && !s->is_key && s->key && lint_key_is_secret(s->key) &&
	    !reference_or_empty(s->s, s->len) &&
	    !lint_find_placeholder(s->s, s->len, &start, &end)) {
		char b[96];
		lint_report(
		    c, R_LITERAL, lint_str_path(s),
		    "%s holds a literal secret (not shown): pass it through the environment "
		    "(e.g. MAD_SECRETS_* on the host), never in the file",
		    lint_brief(s->key, b, sizeof(b)));
		return;
	}
	const char *kind =
	    maybe_token(s->s, s->len) ? assay_token_find(s->s, s->len, &start, &end) : NULL;
	if (kind)
		lint_report(
		    c, R_PATTERN, lint_str_path(s),
		    "this %s holds what looks like %s (not shown): pass secrets through the "
		    "environment, never in the file",
		    s->is_key ? "key" : "value", kind);
}

static void check(struct lint_ctx *c)
{
	struct which w = {lint_on(c, R_LITERAL), lint_on(c, R_PATTERN)};
	if (w.literal || w.pattern)
		lint_walk_strings(c, visit, &w);
}

const struct lint_family lint_family_secrets = {"secrets", rules, ARRAY_SIZE(rules), check};
