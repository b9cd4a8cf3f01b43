/* Token formats (include/assay/redact.h): text shaped like a known
 * credential (Hugging Face, GitHub, AWS key ids, Slack), found by its shape
 * alone, and masked wherever a message could quote it: config errors, value
 * briefs, lint findings. The one copy of these formats. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "assay/redact.h"

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

const char *assay_token_find(const char *s, size_t len, size_t *start, size_t *end)
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
			if (!cut &&
			    (tokens[t].exact16 ? body != 16 || run_of(s, len, i + pl, NULL) != 16
					       : body < tokens[t].min))
				continue;
			*start = i;
			*end = i + pl + body;
			return tokens[t].kind;
		}
	}
	return NULL;
}

size_t assay_token_mask(struct sbuf *sb)
{
	size_t from = 0, start, end, n = 0;
	while (from < sb->len && assay_token_find(sb->buf + from, sb->len - from, &start, &end)) {
		/* The word the token ends in goes too: a second token glued to the
		 * first would otherwise lose only its prefix. */
		while (from + end < sb->len &&
		       (isalnum((unsigned char)sb->buf[from + end]) || sb->buf[from + end] == '_' ||
			sb->buf[from + end] == '-'))
			end++;
		struct sbuf out = SBUF_INIT;
		sbuf_add(&out, sb->buf, from + start);
		sbuf_adds(&out, ASSAY_TOKEN_MASK);
		size_t next = out.len;
		sbuf_add(&out, sb->buf + from + end, sb->len - from - end);
		sbuf_release(sb);
		*sb = out;
		from = next;
		n++;
	}
	return n;
}

size_t assay_token_mask_str(char *buf, size_t size)
{
	size_t start, end;
	if (!size || !assay_token_find(buf, strnlen(buf, size), &start, &end))
		return 0;
	struct sbuf sb = SBUF_INIT;
	sbuf_add(&sb, buf, strnlen(buf, size));
	size_t n = assay_token_mask(&sb);
	snprintf(buf, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
	return n;
}
