/* Unit tests for the error core: names, precedence, formatting, token-shaped
 * text masked in messages and paths, and the agreement of the enum,
 * assay_strerror() and docs/exit-codes.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/error.h"
#include "assay/util.h"

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(assay_strerror(ASSAY_OK), "ok");
	assert_string_equal(assay_strerror(ASSAY_GATE_FAILED), "gate-failed");
	assert_string_equal(assay_strerror(ASSAY_USAGE), "usage");
	assert_string_equal(assay_strerror(ASSAY_WORKLOAD_FAILED), "workload-failed");
	assert_string_equal(assay_strerror(ASSAY_NO_METRICS), "no-metrics");
	assert_string_equal(assay_strerror(ASSAY_INFRA), "infrastructure");
	assert_string_equal(assay_strerror((assay_err)99), "unknown");
	assert_int_equal(assay_err_from_name("no-metrics"), 4);
	assert_int_equal(assay_err_from_name("nope"), -1);
}

static void test_precedence(void **state)
{
	(void)state;
	/* 2 > 5 > 3 > 4 > 1 > 0 */
	const assay_err order[] = {ASSAY_OK,         ASSAY_GATE_FAILED,
				   ASSAY_NO_METRICS, ASSAY_WORKLOAD_FAILED,
				   ASSAY_INFRA,      ASSAY_USAGE};
	for (size_t i = 0; i < 6; i++)
		for (size_t j = 0; j < 6; j++) {
			assay_err want = order[i > j ? i : j];
			assert_int_equal(assay_err_worst(order[i], order[j]), want);
		}
}

static void test_format(void **state)
{
	(void)state;
	struct assay_error e;
	char buf[256];
	assay_error_at(&e, ASSAY_USAGE, "configs/sweep.json", "$.timing.trials", 0,
		       "expected a positive integer, got \"%s\"", "8");
	assert_string_equal(
	    assay_error_format(&e, buf, sizeof(buf)),
	    "configs/sweep.json: $.timing.trials: expected a positive integer, got \"8\"");
	assay_error_at(&e, ASSAY_USAGE, "a.log", NULL, 12, "bad line");
	e.column = 3;
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)), "a.log:12:3: bad line");
	assay_error_set(&e, ASSAY_INFRA, "disk full");
	assay_error_prefix(&e, "store %s", "x.db");
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)), "store x.db: disk full");
	assert_int_equal(e.code, ASSAY_INFRA);
	/* NULL error pointers are allowed and only return the code. */
	assert_int_equal(assay_error_set(NULL, ASSAY_NO_METRICS, "x"), ASSAY_NO_METRICS);
}

/* A token pasted into the wrong place never reaches a message or a path. */
static void test_tokens_masked(void **state)
{
	(void)state;
	struct assay_error e;
	char buf[512];
	assay_error_at(&e, ASSAY_USAGE, "s.json",
		       "$.env.ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", 0,
		       "unknown combo \"%s\"", "hf_QwErTyUiOpAsDfGhJkLzXcVbNm0123456789");
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)),
			    "s.json: $.env.[redacted]: unknown combo \"[redacted]\"");
	assay_error_set(&e, ASSAY_USAGE, "key AKIAABCDEFGHIJKLMNOP");
	assert_string_equal(e.message, "key [redacted]");
	assay_error_set(&e, ASSAY_USAGE, "bad value");
	assay_error_prefix(&e, "xoxb-%s", "1234567890-abcdef");
	assert_string_equal(e.message, "[redacted]: bad value");
}

/* docs/exit-codes.md's table lists exactly the enum, with the same names. */
static void test_doc_agrees(void **state)
{
	(void)state;
	struct assay_error e;
	size_t len;
	char *doc = assay_read_file(ASSAY_SOURCE_DIR "/docs/exit-codes.md", &len, &e);
	assert_non_null(doc);
	int seen[ASSAY_ERR_COUNT] = {0};
	int rows = 0;
	for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
		int code;
		char name[64];
		if (sscanf(line, "| %d | %63[a-z-] |", &code, name) != 2)
			continue;
		rows++;
		assert_true(code >= 0 && code < ASSAY_ERR_COUNT);
		assert_string_equal(name, assay_strerror((assay_err)code));
		assert_non_null(strstr(line, assay_err_meaning((assay_err)code)));
		seen[code]++;
	}
	assert_int_equal(rows, ASSAY_ERR_COUNT);
	for (int i = 0; i < ASSAY_ERR_COUNT; i++)
		assert_int_equal(seen[i], 1);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),      cmocka_unit_test(test_precedence),
	    cmocka_unit_test(test_format),     cmocka_unit_test(test_tokens_masked),
	    cmocka_unit_test(test_doc_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
