/* Unit tests for secret redaction (src/lib/util/redact.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/redact.h"

static char *red(const char *text, const char *const *secrets, size_t n, size_t *count)
{
	struct strlist l = STRLIST_INIT;
	for (size_t i = 0; i < n; i++)
		strlist_push(&l, secrets[i]);
	struct sbuf out = SBUF_INIT;
	size_t c = assay_redact_append(&out, text, strlen(text), &l);
	if (count)
		*count = c;
	strlist_clear(&l);
	return sbuf_detach(&out, NULL);
}

static void check(const char *text, const char *const *secrets, size_t n, const char *want,
		  size_t want_count)
{
	size_t count = 0;
	char *got = red(text, secrets, n, &count);
	assert_string_equal(got, want);
	assert_int_equal(count, want_count);
	free(got);
}

static void test_basic(void **state)
{
	(void)state;
	const char *one[] = {"hf_abc123"};
	check("token=hf_abc123 and hf_abc123.", one, 1, "token=*** and ***.", 2);
	check("nothing here", one, 1, "nothing here", 0);
	check("hf_abc12", one, 1, "hf_abc12", 0); /* a prefix is not the secret */
	check("", one, 1, "", 0);
	const char *empty[] = {""};
	check("an empty secret matches nothing", empty, 1, "an empty secret matches nothing", 0);
}

static void test_overlap(void **state)
{
	(void)state;
	/* Overlapping and touching occurrences leave nothing of either secret. */
	const char *two[] = {"abc", "cdef"};
	check("xxabcdefyy", two, 2, "xx***yy", 1);
	const char *rep[] = {"secret"};
	check("secretsecret!", rep, 1, "***!", 1);
	/* The longer of two secrets sharing a prefix is not cut short. */
	const char *pre[] = {"ab", "abcd"};
	check("-abcd-", pre, 2, "-***-", 1);
	const char *self[] = {"aa"};
	check("aaa", self, 1, "***", 1);
}

static void test_helpers(void **state)
{
	(void)state;
	struct strlist l = STRLIST_INIT;
	strlist_push(&l, "p4ss");
	char *s = assay_redact_str("user:p4ss@host", &l);
	assert_string_equal(s, "user:***@host");
	free(s);
	assert_null(assay_redact_str(NULL, &l));
	assert_true(assay_redact_contains("xp4ssx", 6, &l));
	assert_false(assay_redact_contains("xp4sx", 5, &l));
	assert_false(assay_redact_contains("p4ss", 4, NULL));

	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "a p4ss b p4ss");
	assert_int_equal(assay_redact_sbuf(&sb, &l), 2);
	assert_string_equal(sbuf_str(&sb), "a *** b ***");
	assert_int_equal(assay_redact_sbuf(&sb, &l), 0);
	sbuf_release(&sb);

	/* Without secrets the text is copied as is. */
	struct sbuf out = SBUF_INIT;
	assert_int_equal(assay_redact_append(&out, "p4ss", 4, NULL), 0);
	assert_string_equal(sbuf_str(&out), "p4ss");
	sbuf_release(&out);
	strlist_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
