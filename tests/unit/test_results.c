/* Unit tests for the one place that decides how a result file is read
 * (assay_results_format, assay_read_results in src/lib/parse/formats.c):
 * a named format, detection by content or by the first record only, and the
 * training rows of the format table that assay_train_detect() tries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/parse.h"
#include "assay/training.h"

static char *slurp(const char *rel, size_t *len)
{
	char path[4096];
	struct assay_error e;
	snprintf(path, sizeof(path), "%s/%s", ASSAY_SOURCE_DIR, rel);
	char *data = assay_read_file(path, len, &e);
	assert_non_null(data);
	return data;
}

static void test_format(void **state)
{
	(void)state;
	size_t len;
	char *log = slurp("tests/fixtures/training/megatron-basic.log", &len);
	/* A training log shows by a mark anywhere, not by its first record. */
	assert_string_equal(assay_results_format(NULL, log, len, ASSAY_DETECT_CONTENT)->name,
			    "megatron");
	assert_string_equal(assay_results_format("auto", log, len, ASSAY_DETECT_CONTENT)->name,
			    "megatron");
	assert_null(assay_results_format(NULL, log, len, ASSAY_DETECT_RECORD));
	/* A named format wins over the content; an unknown name is no format. */
	assert_string_equal(assay_results_format("primus", log, len, ASSAY_DETECT_RECORD)->name,
			    "primus");
	assert_null(assay_results_format("xls", log, len, ASSAY_DETECT_CONTENT));
	free(log);
	char *csv = slurp("tests/fixtures/ingest/perf.csv", &len);
	assert_string_equal(assay_results_format(NULL, csv, len, ASSAY_DETECT_RECORD)->name,
			    "madengine-csv");
	free(csv);
}

static void test_read(void **state)
{
	(void)state;
	char path[4096];
	struct assay_error e;
	struct assay_parse_opts o = {0};
	struct assay_results r = {.rows = ASSAY_ROWS_INIT};
	snprintf(path, sizeof(path), "%s/tests/fixtures/ingest/perf.csv", ASSAY_SOURCE_DIR);
	assert_int_equal(assay_read_results(path, NULL, ASSAY_DETECT_RECORD, &o, &r, &e), ASSAY_OK);
	assert_string_equal(r.format->name, "madengine-csv");
	assert_int_equal(strlen(r.sha256), 64);
	assert_true(r.rows.n > 0);
	assay_rows_release(&r.rows);
	/* Read, but no format: the format is NULL and the digest is set. */
	snprintf(path, sizeof(path), "%s/tests/fixtures/training/megatron-basic.log",
		 ASSAY_SOURCE_DIR);
	assert_int_equal(assay_read_results(path, NULL, ASSAY_DETECT_RECORD, &o, &r, &e),
			 ASSAY_USAGE);
	assert_null(r.format);
	assert_int_equal(strlen(r.sha256), 64);
	assert_int_equal(assay_read_results(path, "xls", ASSAY_DETECT_CONTENT, &o, &r, &e),
			 ASSAY_USAGE);
	assert_non_null(strstr(e.message, "unknown format 'xls'"));
	/* Not read at all: no digest. */
	assert_int_not_equal(
	    assay_read_results("/nonexistent/x.csv", NULL, ASSAY_DETECT_CONTENT, &o, &r, &e),
	    ASSAY_OK);
	assert_null(r.format);
	assert_string_equal(r.sha256, "");
	assay_rows_release(&r.rows);
}

/* The training formats are the table's rows marked training, in its order. */
static void test_training_rows(void **state)
{
	(void)state;
	size_t n = 0;
	for (const struct assay_format *f = assay_formats; f->name; f++) {
		assert_int_equal(assay_train_format_known(f->name), f->training);
		n += f->training;
	}
	assert_int_equal(n, 3);
	assert_false(assay_train_format_known("rows"));
	assert_false(assay_train_format_known("auto"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_read),
	    cmocka_unit_test(test_training_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
