/* Unit tests for secret redaction (src/lib/util/redact.c): whole buffers,
 * overlapping secrets, the plain-list interface, and streams split at every
 * byte so a secret across two reads is still caught; token formats
 * (src/lib/util/tokens.c): what counts as a token and how it is masked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/redact.h"

static void test_buffer(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "TOKEN", "hunter2");
	assay_redactor_add(&r, "KEY", "s3cr3t-k3y");
	char *s = assay_redactor_str(&r, "a hunter2 b s3cr3t-k3y hunter2hunter2 hunter");
	assert_string_equal(s, "a *** b *** *** hunter");
	free(s);
	assert_string_equal(assay_redactor_find(&r, "xx s3cr3t-k3y", 13, NULL), "KEY");
	size_t at = 0;
	assert_string_equal(assay_redactor_find(&r, "..hunter2", 9, &at), "TOKEN");
	assert_int_equal(at, 2);
	assert_null(assay_redactor_find(&r, "hunter", 6, NULL));
	assay_redactor_release(&r);
}

static void test_overlap_longest_wins(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "SHORT", "abc");
	assay_redactor_add(&r, "LONG", "abcdef");
	char *s = assay_redactor_str(&r, "abcdef abcxyz aabcdef");
	assert_string_equal(s, "*** ***xyz a***");
	free(s);
	/* Overlapping or touching occurrences leave nothing of either. */
	struct assay_redactor o = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&o, "A", "abab");
	assay_redactor_add(&o, "B", "cdef");
	s = assay_redactor_str(&o, "x ababab y abcdef z ababcdef");
	assert_string_equal(s, "x *** y ab*** z ***");
	assay_redactor_release(&o);
	free(s);
	assay_redactor_release(&r);
}

static void test_empty_value(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "UNSET", NULL);
	assay_redactor_add(&r, "EMPTY", "");
	assert_true(assay_redactor_empty(&r));
	char *s = assay_redactor_str(&r, "nothing to hide");
	assert_string_equal(s, "nothing to hide");
	free(s);
	assay_redactor_release(&r);
}

/* Feed text in two pieces split at every offset, and in single bytes: the
 * result must equal the whole-buffer redaction. */
static void check_stream(const struct assay_redactor *r, const char *text)
{
	char *want = assay_redactor_str(r, text);
	size_t n = strlen(text);
	for (size_t cut = 0; cut <= n; cut++) {
		struct assay_redact_stream st;
		struct sbuf out = SBUF_INIT;
		assay_redact_stream_init(&st, r);
		assay_redact_stream_feed(&st, text, cut, &out);
		assay_redact_stream_feed(&st, text + cut, n - cut, &out);
		assay_redact_stream_flush(&st, &out);
		assert_string_equal(sbuf_str(&out), want);
		assay_redact_stream_release(&st);
		sbuf_release(&out);
	}
	struct assay_redact_stream st;
	struct sbuf out = SBUF_INIT;
	assay_redact_stream_init(&st, r);
	for (size_t i = 0; i < n; i++)
		assay_redact_stream_feed(&st, text + i, 1, &out);
	assay_redact_stream_flush(&st, &out);
	assert_string_equal(sbuf_str(&out), want);
	assay_redact_stream_release(&st);
	sbuf_release(&out);
	free(want);
}

static void test_stream_split(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "A", "CANARY-0123456789");
	assay_redactor_add(&r, "B", "CAN");
	check_stream(&r,
		     "line CANARY-0123456789 and CANARY-01 then CAN and CANCANARY-0123456789\n");
	check_stream(&r, "CANARY-012345678CANARY-0123456789");
	check_stream(&r, "CANCAN CANARY-0123456789CANARY-0123456789CAN.");
	assay_redactor_release(&r);
}

/* A line that ends the stream so far must come out at once, line end and all,
 * so the watcher sees it without waiting for more output. */
static void test_stream_no_needless_holdback(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "A", "CANARY-0123456789");
	struct assay_redact_stream st;
	struct sbuf out = SBUF_INIT;
	assay_redact_stream_init(&st, &r);
	assay_redact_stream_feed(&st, "NCCL error: x\n", 14, &out);
	assert_string_equal(sbuf_str(&out), "NCCL error: x\n");
	/* The start of the secret is held back until it is decided. */
	assay_redact_stream_feed(&st, "tok CANARY-01", 13, &out);
	assert_string_equal(sbuf_str(&out), "NCCL error: x\ntok ");
	assay_redact_stream_feed(&st, "23456789\n", 9, &out);
	assert_string_equal(sbuf_str(&out), "NCCL error: x\ntok ***\n");
	assay_redact_stream_release(&st);
	sbuf_release(&out);
	assay_redactor_release(&r);
}

/* A secret's value comes from the environment in one place
 * (assay_redactor_add_env); unset or empty ones are kept by name only. */
static void test_add_env(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	setenv("ASSAY_TEST_REDACT_SET", "abc", 1);
	setenv("ASSAY_TEST_REDACT_EMPTY", "", 1);
	unsetenv("ASSAY_TEST_REDACT_UNSET");
	assert_true(assay_redactor_add_env(&r, "ASSAY_TEST_REDACT_SET"));
	assert_false(assay_redactor_add_env(&r, "ASSAY_TEST_REDACT_EMPTY"));
	assert_false(assay_redactor_add_env(&r, "ASSAY_TEST_REDACT_UNSET"));
	char *s = assay_redactor_str(&r, "1 abc 2");
	assert_string_equal(s, "1 *** 2");
	free(s);
	struct assay_redactor copy = ASSAY_REDACTOR_INIT;
	assay_redactor_add_all(&copy, &r);
	assert_int_equal(copy.n, r.n);
	assert_string_equal(assay_redactor_find(&copy, "xabcx", 5, NULL), "ASSAY_TEST_REDACT_SET");
	assay_redactor_release(&copy);
	assay_redactor_release(&r);
}

/* Redaction of a list of values, as the report writers use it. */
static char *red(const char *text, const char *const *secrets, size_t n, size_t *count)
{
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	for (size_t i = 0; i < n; i++)
		assay_redactor_add(&r, "secret", secrets[i]);
	struct sbuf out = SBUF_INIT;
	size_t c = assay_redactor_append(&r, text, strlen(text), &out);
	if (count)
		*count = c;
	assay_redactor_release(&r);
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
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "P", "p4ss");
	char *s = assay_redactor_str(&r, "user:p4ss@host");
	assert_string_equal(s, "user:***@host");
	free(s);
	assert_null(assay_redactor_str(&r, NULL));
	assert_non_null(assay_redactor_find(&r, "xp4ssx", 6, NULL));
	assert_null(assay_redactor_find(&r, "xp4sx", 5, NULL));

	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "a p4ss b p4ss");
	assert_int_equal(assay_redactor_sbuf(&r, &sb), 2);
	assert_string_equal(sbuf_str(&sb), "a *** b ***");
	assert_int_equal(assay_redactor_sbuf(&r, &sb), 0);
	assert_int_equal(assay_redactor_sbuf(NULL, &sb), 0);
	sbuf_release(&sb);

	/* Without a redactor the text is copied as is. */
	struct sbuf out = SBUF_INIT;
	assert_int_equal(assay_redactor_append(NULL, "p4ss", 4, &out), 0);
	assert_string_equal(sbuf_str(&out), "p4ss");
	sbuf_release(&out);
	assay_redactor_release(&r);
}

#define HF  "hf_QwErTyUiOpAsDfGhJkLzXcVbNm0123456789"
#define GHP "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
#define AWS "AKIAABCDEFGHIJKLMNOP"

static void test_token_find(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		const char *kind; /* NULL: none */
		size_t start, end;
	} cases[] = {
	    {"x " HF " y", "a Hugging Face token", 2, 2 + strlen(HF)},
	    {"hf_short", NULL, 0, 0},
	    {"xhf_QwErTyUiOpAsDfGhJkLzXcVbNm0123456789", NULL, 0, 0},
	    {"user:" GHP "@h", "a GitHub token", 5, 5 + strlen(GHP)},
	    {"github_pat_11ABCDEFG0123456789_abcdefghijkl", "a GitHub fine-grained token", 0, 43},
	    {AWS, "an AWS access key id", 0, 20},
	    {AWS "Q", NULL, 0, 0},
	    {"AKIAabcdefghijklmnop", NULL, 0, 0},
	    {"xoxb-1234567890-abcdef", "a Slack token", 0, 22},
	    {"HF_HUB_ENABLE_HF_TRANSFER", NULL, 0, 0},
	    /* A value quoted in a message and cut short. */
	    {"got \"xxxx hf_AbCd...\"", "a Hugging Face token", 10, 17},
	    {"AKIAAB...", "an AWS access key id", 0, 6},
	    {"hf_...", NULL, 0, 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t st = 0, en = 0;
		const char *k = assay_token_find(cases[i].s, strlen(cases[i].s), &st, &en);
		if (!cases[i].kind) {
			if (k)
				fail_msg("%s: found %s", cases[i].s, k);
			continue;
		}
		if (!k || strcmp(k, cases[i].kind) || st != cases[i].start || en != cases[i].end)
			fail_msg("%s: got %s [%zu, %zu)", cases[i].s, k ? k : "none", st, en);
	}
}

static void test_token_mask(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "a=" HF ",b=" GHP GHP " c=" AWS "; hf_short");
	/* Two GitHub tokens back to back: the mask takes the whole word. */
	assert_int_equal(assay_token_mask(&sb), 3);
	assert_string_equal(sb.buf, "a=[redacted],b=[redacted] c=[redacted]; hf_short");
	sbuf_release(&sb);

	char buf[64] = "x " HF " y";
	assert_int_equal(assay_token_mask_str(buf, sizeof(buf)), 1);
	assert_string_equal(buf, "x [redacted] y");
	/* Nothing to mask: the buffer is left alone. */
	char plain[16] = "plain text";
	assert_int_equal(assay_token_mask_str(plain, sizeof(plain)), 0);
	assert_string_equal(plain, "plain text");
	/* A mask longer than what it replaces (a token cut short) is cut to fit. */
	char small[10] = "AKIAAB...";
	assert_int_equal(assay_token_mask_str(small, sizeof(small)), 1);
	assert_string_equal(small, "[redacted");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buffer),
	    cmocka_unit_test(test_overlap_longest_wins),
	    cmocka_unit_test(test_empty_value),
	    cmocka_unit_test(test_stream_split),
	    cmocka_unit_test(test_stream_no_needless_holdback),
	    cmocka_unit_test(test_add_env),
	    cmocka_unit_test(test_basic),
	    cmocka_unit_test(test_overlap),
	    cmocka_unit_test(test_helpers),
	    cmocka_unit_test(test_token_find),
	    cmocka_unit_test(test_token_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
