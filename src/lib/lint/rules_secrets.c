/* Secret rules: literal values under secret-named keys, and values anywhere
 * (build args, commands, args) that look like a known token format. The
 * finding never quotes the secret; the driver masks token formats in every
 * message and path through lint_find_token. */
#include <ctype.h>
#include <string.h>

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
static const char *const pointer_words[] = {"PATH", "FILE", "DIR", "NAME", "NAMES", "ENV",
					    "ID", "REF", NULL};

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

bool lint_key_is_secret(const char *key)
{
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
		    (upper_equals(comp[i], clen[i], "API") || upper_equals(comp[i], clen[i], "PRIVATE")))
			return true;
	}
	/* *TOKEN as the last word: HF_TOKEN, MAD_SECRETS_HFTOKEN; not MAX_TOKENS. */
	return ll >= 5 && upper_equals(last + ll - 5, 5, "TOKEN");
}

static size_t run_of(const char *s, size_t len, size_t i, const char *extra)
{
	size_t j = i;
	while (j < len && (isalnum((unsigned char)s[j]) || (extra && s[j] && strchr(extra, s[j]))))
		j++;
	return j - i;
}

static size_t run_upper_digits(const char *s, size_t len, size_t i)
{
	size_t j = i;
	while (j < len && (isupper((unsigned char)s[j]) || isdigit((unsigned char)s[j])))
		j++;
	return j - i;
}

static const struct {
	const char *prefix;
	const char *extra; /* characters besides letters and digits in the body */
	size_t min;        /* body length at least */
	bool exact16;      /* AWS key ids: exactly 16 upper-case letters or digits */
	const char *kind;
} tokens[] = {
	{"github_pat_", "_", 22, false, "a GitHub fine-grained token"},
	{"hf_", NULL, 30, false, "a Hugging Face token"},
	{"ghp_", NULL, 36, false, "a GitHub token"},
	{"gho_", NULL, 36, false, "a GitHub token"},
	{"ghu_", NULL, 36, false, "a GitHub token"},
	{"ghs_", NULL, 36, false, "a GitHub token"},
	{"ghr_", NULL, 36, false, "a GitHub token"},
	{"AKIA", NULL, 16, true, "an AWS access key id"},
	{"ASIA", NULL, 16, true, "an AWS access key id"},
	{"xoxb-", "-", 10, false, "a Slack token"},
	{"xoxp-", "-", 10, false, "a Slack token"},
	{"xoxa-", "-", 10, false, "a Slack token"},
	{"xoxr-", "-", 10, false, "a Slack token"},
	{"xoxs-", "-", 10, false, "a Slack token"},
};

const char *lint_find_token(const char *s, size_t len, size_t *start, size_t *end)
{
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (ch != 'g' && ch != 'h' && ch != 'A' && ch != 'x')
			continue;
		if (i > 0 && isalnum((unsigned char)s[i - 1]))
			continue;
		for (size_t t = 0; t < ARRAY_SIZE(tokens); t++) {
			size_t pl = strlen(tokens[t].prefix);
			if (i + pl > len || memcmp(s + i, tokens[t].prefix, pl))
				continue;
			size_t body = tokens[t].exact16 ? run_upper_digits(s, len, i + pl)
							: run_of(s, len, i + pl, tokens[t].extra);
			/* A message may quote a value cut short with "...": a token's
			 * start before the cut counts too. */
			bool cut = body && i + pl + body + 3 <= len &&
				   !memcmp(s + i + pl + body, "...", 3);
			if (!cut && (tokens[t].exact16 ? body != 16 || run_of(s, len, i + pl, NULL) != 16
						       : body < tokens[t].min))
				continue;
			*start = i;
			*end = i + pl + body;
			return tokens[t].kind;
		}
	}
	return NULL;
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

static void visit(struct lint_ctx *c, const struct lint_str *s, void *arg)
{
	(void)arg;
	size_t start, end;
	if (lint_on(c, R_LITERAL) && !s->is_key && s->key && lint_key_is_secret(s->key) &&
	    !reference_or_empty(s->s, s->len) && !lint_find_placeholder(s->s, s->len, &start, &end)) {
		char b[96];
		lint_report(c, R_LITERAL, lint_str_path(s),
			    "%s holds a literal secret (not shown): pass it through the environment "
			    "(e.g. MAD_SECRETS_* on the host), never in the file",
			    lint_brief(s->key, b, sizeof(b)));
		return;
	}
	const char *kind = lint_find_token(s->s, s->len, &start, &end);
	if (kind)
		lint_report(c, R_PATTERN, lint_str_path(s),
			    "this %s holds what looks like %s (not shown): pass secrets through the "
			    "environment, never in the file", s->is_key ? "key" : "value", kind);
}

static void check(struct lint_ctx *c)
{
	if (lint_on(c, R_LITERAL) || lint_on(c, R_PATTERN))
		lint_walk_strings(c, visit, NULL);
}

const struct lint_family lint_family_secrets = {"secrets", rules, ARRAY_SIZE(rules), check};
