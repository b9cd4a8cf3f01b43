/* Unit tests for measurement rows: series keys, validation and NDJSON. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/measure.h"
#include "measure/measure_int.h"

static void make(struct assay_row *r, const char *precision, double v)
{
	assay_row_init(r);
	assay_row_set(
	    r,
	    json_pack("{s:s, s:s, s:s}", "workload", "w", "precision", precision, "scale", "1x8"),
	    "roundtrip_us", "p99", v, "us", ASSAY_DIR_LOWER);
}

static void test_series_key(void **state)
{
	(void)state;
	struct assay_row a, b, c;
	struct assay_error e;
	make(&a, "bf16", 10);
	make(&b, "bf16", 12);
	make(&c, "fp8", 10);
	assert_int_equal(assay_row_finish(&a, &e), ASSAY_OK);
	assert_int_equal(assay_row_finish(&b, &e), ASSAY_OK);
	assert_int_equal(assay_row_finish(&c, &e), ASSAY_OK);
	assert_string_equal(a.series_key, b.series_key);     /* value is not identity */
	assert_string_not_equal(a.series_key, c.series_key); /* precision is */
	/* The key is the SHA-256 of the canonical series, which names metric and statistic. */
	char want[65];
	json_t *s = json_pack("{s:s, s:s, s:s, s:s, s:s}", "workload", "w", "precision", "bf16",
			      "scale", "1x8", "metric", "roundtrip_us", "statistic", "p99");
	assay_json_sha256(s, want);
	json_decref(s);
	assert_string_equal(a.series_key, want);
	assay_row_release(&a);
	assay_row_release(&b);
	assay_row_release(&c);
}

static void test_validation(void **state)
{
	(void)state;
	struct assay_row r;
	struct assay_error e;
	make(&r, "bf16", NAN);
	assert_int_equal(assay_row_finish(&r, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "roundtrip_us/p99: value is not finite");
	assay_row_release(&r);
	make(&r, "bf16", 1);
	r.direction = ASSAY_DIR_NONE;
	assert_int_equal(assay_row_finish(&r, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "roundtrip_us/p99: direction must be higher or lower");
	assay_row_release(&r);
}

static void test_ndjson_roundtrip(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT, back = ASSAY_ROWS_INIT;
	struct assay_error e;
	for (int i = 0; i < 3; i++) {
		struct assay_row *r = assay_rows_add(&rows);
		make(r, i == 2 ? "fp8" : "bf16", 1.5 + i);
		r->samples = 128;
		r->run_id = xstrdup("run-1");
		r->revision = xstrdup("abc123");
		r->timestamp = xstrdup("2026-11-30T19:15:02Z");
		assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
	}
	struct sbuf sb = SBUF_INIT;
	assay_rows_ndjson(&rows, &sb);
	assert_int_equal(assay_rows_parse_ndjson(sb.buf, sb.len, "rows.ndjson", &back, &e),
			 ASSAY_OK);
	assert_int_equal(back.n, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(back.v[i].series_key, rows.v[i].series_key);
		assert_true(back.v[i].value == rows.v[i].value);
		assert_int_equal(back.v[i].samples, 128);
		assert_string_equal(back.v[i].revision, "abc123");
		assert_null(back.v[i].case_id);
	}
	sbuf_release(&sb);
	assay_rows_release(&back);
	assay_rows_release(&rows);
}

static void test_ndjson_errors(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[512];
	const char *good =
	    "{\"series\":{\"a\":\"b\"},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":1,"
	    "\"unit\":\"us\",\"direction\":\"lower\"}\n";
	char *text = xasprintf("%s\n%s{\"series\":{},\"metric\":\"m\"}\n", good, good);
	assert_int_equal(assay_rows_parse_ndjson(text, strlen(text), "r.ndjson", &rows, &e),
			 ASSAY_USAGE);
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)),
			    "r.ndjson:4: $.statistic: missing (expected a non-empty string)");
	assert_int_equal(rows.n, 0); /* all or nothing */
	free(text);
	text = xasprintf("%s{\"series\":{}, \"metric\":\"m\", \"statistic\":\"s\", \"value\":1, "
			 "\"unit\":\"u\", \"direction\":\"up\"}",
			 good);
	assert_int_equal(assay_rows_parse_ndjson(text, strlen(text), "r.ndjson", &rows, &e),
			 ASSAY_USAGE);
	assert_string_equal(
	    assay_error_format(&e, buf, sizeof(buf)),
	    "r.ndjson:2: $.direction: expected one of \"higher\", \"lower\", got \"up\"");
	free(text);
	text = xasprintf("%s{not json", good);
	assert_int_equal(assay_rows_parse_ndjson(text, strlen(text), "r.ndjson", &rows, &e),
			 ASSAY_USAGE);
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)),
			    "r.ndjson:2:4: invalid JSON: string or '}' expected near 'not'");
	free(text);
	assert_int_equal(assay_rows_parse_ndjson(good, strlen(good), "r.ndjson", &rows, &e),
			 ASSAY_OK);
	assert_int_equal(rows.n, 1);
	assay_rows_release(&rows);
}

static void same_text(const char *a, const char *b)
{
	if (a || b) {
		assert_non_null(a);
		assert_non_null(b);
		assert_string_equal(a, b);
	}
}

/* The fast row reader against the general one, line by line: what the fast
 * one takes the general one takes too, to the same row; what it leaves
 * (0) the general one decides. Returns whether the fast one took it. */
static bool fast_agrees(struct row_memo *memo, const char *line)
{
	struct assay_row f, g;
	struct assay_error e;
	int took = row_parse_fast(memo, line, strlen(line), &f);
	json_error_t je;
	json_t *o = json_loadb(line, strlen(line), JSON_REJECT_DUPLICATES, &je);
	assay_err rc = o ? assay_row_from_json(o, &g, "f", 1, &e) : ASSAY_USAGE;
	json_decref(o);
	if (!took) {
		if (rc == ASSAY_OK)
			assay_row_release(&g);
		return false;
	}
	if (rc != ASSAY_OK)
		fail_msg("the fast reader took a line the general one refuses: %s", line);
	assert_string_equal(f.series_key, g.series_key);
	assert_true(json_equal(f.series, g.series));
	assert_string_equal(f.metric, g.metric);
	assert_string_equal(f.statistic, g.statistic);
	assert_string_equal(f.unit, g.unit);
	assert_memory_equal(&f.value, &g.value, sizeof(f.value)); /* -0 too */
	assert_int_equal(f.direction, g.direction);
	assert_int_equal(f.samples, g.samples);
	same_text(f.run_id, g.run_id);
	same_text(f.case_id, g.case_id);
	same_text(f.revision, g.revision);
	same_text(f.timestamp, g.timestamp);
	assay_row_release(&f);
	assay_row_release(&g);
	return true;
}

static void test_rows_fast(void **state)
{
	(void)state;
#define S "\"series\":{\"cluster\":\"c\",\"scale\":\"2N/16GPU\",\"precision\":\"fp8\"}"
#define M "\"metric\":\"tok\",\"statistic\":\"mean\""
#define U "\"unit\":\"tok/s\",\"direction\":\"higher\""
	/* Taken: the shape bench/gen-rows.py and store export write, and
	 * variations of spacing, order and numbers. */
	static const char *const taken[] = {
	    "{" S "," M ",\"value\":758.631," U ",\"samples\":1,\"revision\":\"r00000\","
	    "\"timestamp\":\"2026-01-01T00:00:00Z\",\"run_id\":null,\"case_id\":null}",
	    "  { " U " , \"value\" : -0 , " M ", " S " }  \r",
	    "{" U ",\"value\":-0.0," M "," S ",\"samples\":123456789012345678}",
	    "{" U ",\"value\":1.5e-400," M "," S ",\"run_id\":\"ci-7\",\"case_id\":\"k\"}",
	    "{" U ",\"value\":12E+3," M "," S ",\"revision\":\"abc\"}",
	    "{" U ",\"value\":-7," M ",\"series\":{\"a\":{\"b\":[1,2.5,\"x\\\"}\"]},\"c\":null}}",
	    "{" U ",\"value\":3," M ",\"series\":{}}",
	    /* series_key: the canonical key or the key of the series as written */
	    "{" U ",\"value\":1," M ",\"series\":{\"precision\":\"fp8\"},\"series_key\":"
	    "\"b810ce76a43dda065c28bfe94fcc3d90fcc93cfe167f2be40ae61e8cc4c4b96e\"}",
	    "{" U ",\"value\":2," M ",\"series\":{\"precision\":\"fp8\"},\"series_key\":"
	    "\"efd6805437d830c2a573ed08aedfd500accd06c8c3ca4beff9a481e381d3280c\"}",
	};
	/* Left to the general reader (which takes some and refuses others). */
	static const char *const left[] = {
	    "{" U ",\"value\":1," M "," S ",\"series_key\":\"00\"}",
	    "{" U ",\"value\":1e400," M "," S "}",
	    "{" U ",\"value\":1234567890123456789," M "," S "}",
	    "{" U ",\"value\":\"1\"," M "," S "}",
	    "{" U ",\"value\":null," M "," S "}",
	    "{" U ",\"value\":01," M "," S "}",
	    "{" U ",\"value\":1.," M "," S "}",
	    "{" U ",\"value\":1," M "," S ",\"samples\":0}",
	    "{" U ",\"value\":1," M "," S ",\"samples\":2.0}",
	    "{" U ",\"value\":1," M "," S ",\"samples\":null}",
	    "{" U ",\"value\":1," M "," S ",\"run_id\":7}",
	    "{" U ",\"value\":1," M "," S ",\"run_id\":\"\"}",
	    "{" U ",\"value\":1," M "," S ",\"revision\":\"caf\\u00e9\"}",
	    "{" U ",\"value\":1," M "," S ",\"revision\":\"caf\xc3\xa9\"}",
	    "{" U ",\"value\":1," M "," S ",\"revision\":\"a\tb\"}",
	    "{" U ",\"value\":1," M "," S ",\"value\":2}",
	    "{" U ",\"value\":1," M "," S ",\"extra\":1}",
	    "{" U ",\"value\":1," M "," S ",}",
	    "{" U ",\"value\":1," M "," S "} x",
	    "{" U ",\"value\":1," M "," S,
	    "{\"unit\":\"tok/s\",\"direction\":\"up\",\"value\":1," M "," S "}",
	    "{\"unit\":\"\",\"direction\":\"lower\",\"value\":1," M "," S "}",
	    "{\"direction\":\"lower\",\"value\":1," M "," S "}",
	    "{" U ",\"value\":1,\"metric\":\"\",\"statistic\":\"s\"," S "}",
	    "{" U ",\"value\":1," M ",\"series\":[]}",
	    "{" U ",\"value\":1," M ",\"series\":{\"a\":1,\"a\":2}}",
	    "{" U ",\"value\":1," M ",\"series\":{\"a\":1}",
	    "{" U ",\"value\":1," M ",\"series\":\"x\"}",
	    "{}",
	    "[1]",
	    "",
	};
	struct row_memo *memo = row_memo_new();
	for (size_t i = 0; i < ARRAY_SIZE(taken); i++)
		if (!fast_agrees(memo, taken[i]))
			fail_msg("the fast reader left a plain line: %s", taken[i]);
	for (size_t i = 0; i < ARRAY_SIZE(left); i++)
		if (fast_agrees(memo, left[i]))
			fail_msg("the fast reader took: %s", left[i]);
	row_memo_free(memo);
#undef S
#undef M
#undef U
	/* Rows of one series share its object; changing one copies it first. */
	const char *text =
	    "{\"series\":{\"cluster\":\"c\",\"scale\":\"1x8\",\"precision\":\"bf16\"},\"metric\":"
	    "\"m\",\"statistic\":\"s\",\"value\":1,\"unit\":\"u\",\"direction\":\"lower\"}\n"
	    "{\"series\":{\"cluster\":\"c\",\"scale\":\"1x8\",\"precision\":\"bf16\"},\"metric\":"
	    "\"m\",\"statistic\":\"s\",\"value\":2,\"unit\":\"u\",\"direction\":\"lower\"}\n";
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(assay_rows_parse_ndjson(text, strlen(text), "r", &rows, &e), ASSAY_OK);
	assert_int_equal(rows.n, 2);
	assert_ptr_equal(rows.v[0].series, rows.v[1].series);
	char key[65];
	memcpy(key, rows.v[1].series_key, sizeof(key));
	assay_row_own_series(&rows.v[0]);
	assert_ptr_not_equal(rows.v[0].series, rows.v[1].series);
	json_object_set_new(rows.v[0].series, "cluster", json_string("d"));
	assert_int_equal(assay_row_finish(&rows.v[0], &e), ASSAY_OK);
	assert_string_not_equal(rows.v[0].series_key, key);
	assert_string_equal(rows.v[1].series_key, key);
	assert_string_equal(json_string_value(json_object_get(rows.v[1].series, "cluster")), "c");
	assay_rows_release(&rows);
}

/* One precision vocabulary: aliases meet at one canonical name, and every
 * finished row carries it (at 53f999a "fp8" from assay-ep and "fp8_e4m3"
 * from nccl-tests were two series). */
static void test_vocabulary(void **state)
{
	(void)state;
	static const char *const same[][2] = {
	    {"fp8", "fp8_e4m3"},      {"FP8", "fp8_e4m3"}, {"f8e4m3", "fp8_e4m3"},
	    {"e5m2", "fp8_e5m2"},     {"BF16", "bf16"},    {"bfloat16", "bf16"},
	    {"half", "fp16"},         {"float", "fp32"},   {"MXFP4", "mxfp4"},
	    {"fp8-e4m3", "fp8_e4m3"}, {" fp16 ", "fp16"},
	};
	char buf[64];
	for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
		assay_precision_canonical(same[i][0], buf, sizeof(buf));
		assert_string_equal(buf, same[i][1]);
	}
	assert_null(assay_precision_lookup("int3"));
	assay_precision_canonical("Int3", buf, sizeof(buf));
	assert_string_equal(buf, "int3");
	/* Every canonical name is its own canonical name; the sweep config's
	 * EP precisions are in the vocabulary. */
	size_t n;
	const char *const *names = assay_precision_names(&n);
	assert_true(n >= 6);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(assay_precision_lookup(names[i]), names[i]);
	assert_non_null(assay_precision_lookup("bf16"));
	assert_non_null(assay_precision_lookup("fp8"));
	/* The scale grammar. */
	static const char *const scales[][2] = {
	    {"2x8", "2x8"},      {"2X8", "2x8"},      {"2*8", "2x8"},
	    {"2N/16GPU", "2x8"}, {"2n/16gpu", "2x8"}, {"4N8G", "4x8"},
	    {"16", "1x16"},      {"8GPU", "1x8"},     {"1N/8GPUs", "1x8"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(scales); i++) {
		assert_true(assay_scale_canonical(scales[i][0], buf, sizeof(buf)));
		assert_string_equal(buf, scales[i][1]);
	}
	static const char *const bad[] = {"2N/15GPU", "0x8", "x8", "2x", "two", "", "2N", "2x8x1"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_false(assay_scale_canonical(bad[i], buf, sizeof(buf)));
	/* A row is canonical once finished. */
	struct assay_row r;
	struct assay_error e;
	assay_row_init(&r);
	assay_row_set(&r, json_pack("{s:s, s:s}", "precision", "FP8", "scale", "2N/16GPU"), "t",
		      "mean", 1.0, "s", ASSAY_DIR_LOWER);
	assert_int_equal(assay_row_finish(&r, &e), ASSAY_OK);
	assert_string_equal(json_string_value(json_object_get(r.series, "precision")), "fp8_e4m3");
	assert_string_equal(json_string_value(json_object_get(r.series, "scale")), "2x8");
	assay_row_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_series_key),       cmocka_unit_test(test_validation),
	    cmocka_unit_test(test_ndjson_roundtrip), cmocka_unit_test(test_ndjson_errors),
	    cmocka_unit_test(test_rows_fast),        cmocka_unit_test(test_vocabulary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
