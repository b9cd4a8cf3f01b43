/* Unit tests for the "assay-ep" input format: real assay-ep artifacts
 * (tests/fixtures/unit/ep-case-*.json, written by assay-ep run) become rows with
 * the documented series, directions and verdicts; bad artifacts give located
 * errors and no rows; no prefix of an artifact crashes the parser. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/util.h"

static char *load(const char *name, size_t *len)
{
	char path[512];
	struct assay_error e;
	snprintf(path, sizeof(path), "%s/tests/fixtures/unit/%s", ASSAY_SOURCE_DIR, name);
	char *s = assay_read_file(path, len, &e);
	assert_non_null(s);
	return s;
}

static const struct assay_row *find(const struct assay_rows *rows, long long tokens,
				    const char *component, const char *metric, const char *stat)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (json_integer_value(json_object_get(r->series, "tokens")) == tokens &&
		    !strcmp(json_string_value(json_object_get(r->series, "component")),
			    component) &&
		    !strcmp(r->metric, metric) && !strcmp(r->statistic, stat))
			return r;
	}
	return NULL;
}

static void test_valid(void **state)
{
	(void)state;
	size_t len;
	char *text = load("ep-case-valid.json", &len);
	const struct assay_format *f = assay_format_detect(text, len);
	assert_non_null(f);
	assert_string_equal(f->name, "assay-ep");
	assert_ptr_equal(assay_format_find("assay-ep"), f);

	json_t *ctx = json_pack("{s:s}", "suite", "local-ep");
	struct assay_parse_opts o = {
	    .file = "case.json", .context = ctx, .run_id = "r1", .case_id = "c1"};
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(f->parse(text, len, &o, &rows, &e), ASSAY_OK);
	/* 2 points x (4 components x (6 latency + 6 cross-rank-min + GB/s + tokens/s) + 2 oracle)
	 */
	assert_int_equal(rows.n, 2 * (4 * 14 + 2));

	const struct assay_row *r = find(&rows, 4, "roundtrip", "latency_us", "p50");
	assert_non_null(r);
	assert_int_equal(r->direction, ASSAY_DIR_LOWER);
	assert_string_equal(r->unit, "us");
	assert_int_equal(r->samples, 4);
	assert_true(r->value > 0);
	assert_string_equal(r->run_id, "r1");
	assert_string_equal(r->case_id, "c1");
	assert_non_null(r->timestamp);
	static const char *const fields[] = {
	    "workload",  "backend",         "ep",        "phase",   "mode",
	    "precision", "tokens",          "hidden",    "topk",    "experts",
	    "routing",   "scale_up_domain", "seed",      "profile", "component",
	    "verdict",   "metric",          "statistic", "suite"};
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		assert_non_null(json_object_get(r->series, fields[i]));
	assert_int_equal(json_object_size(r->series), ARRAY_SIZE(fields));
	assert_string_equal(json_string_value(json_object_get(r->series, "verdict")), "valid");
	assert_string_equal(json_string_value(json_object_get(r->series, "precision")), "fp8_e4m3");
	assert_string_equal(json_string_value(json_object_get(r->series, "backend")), "shm");

	r = find(&rows, 1, "dispatch", "gbps_per_rank", "p50");
	assert_true(r && r->direction == ASSAY_DIR_HIGHER && !strcmp(r->unit, "GB/s"));
	r = find(&rows, 1, "pair_period", "tokens_per_s", "p50");
	assert_true(r && r->direction == ASSAY_DIR_HIGHER);
	r = find(&rows, 1, "combine", "cross_rank_min_us", "p99");
	assert_true(r && r->direction == ASSAY_DIR_LOWER);
	r = find(&rows, 1, "oracle", "oracle_pass", "all");
	assert_true(r && r->value == 1 && r->direction == ASSAY_DIR_HIGHER);
	r = find(&rows, 1, "oracle", "max_relative_error", "max");
	assert_true(r && r->value == 0 && r->direction == ASSAY_DIR_LOWER);
	/* A series differs from its neighbour's by the component alone. */
	const struct assay_row *a = find(&rows, 1, "dispatch", "latency_us", "p50");
	const struct assay_row *b = find(&rows, 1, "combine", "latency_us", "p50");
	assert_string_not_equal(a->series_key, b->series_key);
	assay_rows_release(&rows);
	json_decref(ctx);
	free(text);
}

/* A skewed routing (written by assay-ep run --routing hot:2:0.6, 16
 * experts, top-4, EP 2): its imbalance per point becomes rows of component
 * "routing", and its series differ from the uniform case's. */
static void test_routing(void **state)
{
	(void)state;
	size_t len, ulen;
	char *text = load("ep-case-routing.json", &len), *utext = load("ep-case-valid.json", &ulen);
	struct assay_parse_opts o = {.file = "case.json"};
	struct assay_rows rows = ASSAY_ROWS_INIT, urows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(assay_parse_ep_case(text, len, &o, &rows, &e), ASSAY_OK);
	assert_int_equal(assay_parse_ep_case(utext, ulen, &o, &urows, &e), ASSAY_OK);
	/* 2 points x (4 x 14 timed + 2 oracle + 2 imbalance) */
	assert_int_equal(rows.n, 2 * (4 * 14 + 2 + 2));
	const struct assay_row *r = find(&rows, 1, "routing", "imbalance_expert", "max_over_mean");
	assert_true(r && r->value == 4.0 && r->direction == ASSAY_DIR_LOWER);
	assert_string_equal(r->unit, "ratio");
	r = find(&rows, 1, "routing", "imbalance_rank", "max_over_mean");
	assert_true(r && r->value == 2.0);
	r = find(&rows, 4, "routing", "imbalance_rank", "max_over_mean");
	assert_true(r && r->value > 1.142857 && r->value < 1.142858);
	r = find(&rows, 4, "dispatch", "latency_us", "p50");
	assert_string_equal(json_string_value(json_object_get(r->series, "routing")), "hot:2:0.6");
	const struct assay_row *u = find(&urows, 4, "dispatch", "latency_us", "p50");
	assert_string_equal(json_string_value(json_object_get(u->series, "routing")), "uniform");
	assert_string_not_equal(r->series_key, u->series_key);
	/* A bad imbalance is located. */
	const char *at = strstr(text, "\"imbalance_rank\": 2.0");
	assert_non_null(at);
	char *bad = xasprintf("%.*s\"imbalance_rank\": \"x\"%s", (int)(at - text), text,
			      at + strlen("\"imbalance_rank\": 2.0"));
	assay_rows_release(&rows);
	assert_int_equal(assay_parse_ep_case(bad, strlen(bad), &o, &rows, &e), ASSAY_USAGE);
	assert_string_equal(e.path, "$.points[0].routing.imbalance_rank");
	free(bad);
	assay_rows_release(&rows);
	assay_rows_release(&urows);
	free(text);
	free(utext);
}

static void test_invalid_and_unsupported(void **state)
{
	(void)state;
	size_t len;
	struct assay_parse_opts o = {.file = "x.json"};
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	/* Oracle failed before timing: verdict rows only, nothing that looks timed. */
	char *text = load("ep-case-invalid.json", &len);
	assert_int_equal(assay_parse_ep_case(text, len, &o, &rows, &e), ASSAY_OK);
	assert_int_equal(rows.n, 2);
	const struct assay_row *r = find(&rows, 2, "oracle", "oracle_pass", "all");
	assert_true(r && r->value == 0);
	assert_string_equal(json_string_value(json_object_get(r->series, "verdict")), "invalid");
	r = find(&rows, 2, "oracle", "max_relative_error", "max");
	assert_true(r && r->value == 2);
	assay_rows_release(&rows);
	free(text);

	/* Timed, then failed after timing: numbers kept, in the invalid series. */
	text = load("ep-case-valid.json", &len);
	json_t *doc = assay_json_loadb(text, len, "v", &e);
	json_object_set_new(json_array_get(json_object_get(doc, "points"), 1), "verdict",
			    json_string("invalid"));
	char *mod = json_dumps(doc, 0);
	assert_int_equal(assay_parse_ep_case(mod, strlen(mod), &o, &rows, &e), ASSAY_OK);
	r = find(&rows, 4, "roundtrip", "latency_us", "p50");
	assert_string_equal(json_string_value(json_object_get(r->series, "verdict")), "invalid");
	const struct assay_row *v = find(&rows, 1, "roundtrip", "latency_us", "p50");
	assert_string_equal(json_string_value(json_object_get(v->series, "verdict")), "valid");
	assay_rows_release(&rows);
	free(mod);
	json_decref(doc);
	free(text);

	text = load("ep-case-unsupported.json", &len);
	assert_int_equal(assay_parse_ep_case(text, len, &o, &rows, &e), ASSAY_OK);
	assert_int_equal(rows.n, 0);
	free(text);
}

static const char *parse_error(const char *text)
{
	static char msg[1024];
	struct assay_parse_opts o = {.file = "a.json"};
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(assay_parse_ep_case(text, strlen(text), &o, &rows, &e), ASSAY_USAGE);
	assert_int_equal(rows.n, 0);
	return assay_error_format(&e, msg, sizeof(msg));
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(parse_error("[1]"),
			    "a.json: $: expected an assay.ep.case/1 object, got [...]");
	assert_string_equal(
	    parse_error("{\"schema\": \"assay.ep.case/2\"}"),
	    "a.json: $.schema: expected \"assay.ep.case/1\", got \"assay.ep.case/2\"");
	size_t len;
	char *text = load("ep-case-valid.json", &len);
	struct assay_error e;
	json_t *doc = assay_json_loadb(text, len, "v", &e);
	json_t *lat = json_object_get(
	    json_object_get(
		json_object_get(json_array_get(json_object_get(doc, "points"), 1), "components"),
		"combine"),
	    "latency_us");
	json_object_set_new(lat, "p99", json_string("fast"));
	char *mod = json_dumps(doc, 0);
	assert_string_equal(parse_error(mod),
			    "a.json: $.points[1].components.combine.latency_us.p99: expected a "
			    "number >= 0, got \"fast\"");
	free(mod);
	json_object_del(json_object_get(doc, "case"), "hidden");
	mod = json_dumps(doc, 0);
	assert_string_equal(parse_error(mod),
			    "a.json: $.case.hidden: missing (expected a non-negative integer)");
	free(mod);
	json_decref(doc);
	free(text);
}

static void test_prefixes(void **state)
{
	(void)state;
	/* Every truncation is rejected cleanly (ASan would catch a crash). */
	size_t len;
	char *text = load("ep-case-valid.json", &len);
	struct assay_parse_opts o = {.file = "t.json"};
	size_t last = (size_t)(strrchr(text, '}') - text); /* prefixes end before it */
	for (size_t n = 0; n <= last; n += n < 200 ? 1 : 7) {
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct assay_error e;
		char *cut = xstrndup(text, n);
		if (assay_parse_ep_case(cut, n, &o, &rows, &e) != ASSAY_USAGE)
			fail_msg("prefix of %zu bytes accepted", n);
		assert_int_equal(rows.n, 0);
		free(cut);
	}
	free(text);
}

static void test_mutations(void **state)
{
	(void)state;
	/* Deterministic byte mutations of a real artifact: each is parsed or
	 * rejected, never crashes, and a rejection appends nothing. */
	size_t len;
	char *text = load("ep-case-valid.json", &len);
	static const char junk[] = "{}[]\",:-0e9.nulltrue\\x";
	uint64_t rng = 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < 3000; i++) {
		char *m = xstrndup(text, len);
		for (int k = 0; k < 1 + i % 4; k++) {
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			m[rng % len] = junk[(rng >> 32) % (sizeof(junk) - 1)];
		}
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct assay_error e;
		struct assay_parse_opts o = {.file = "m.json"};
		assay_err rc = assay_parse_ep_case(m, len, &o, &rows, &e);
		assert_true(rc == ASSAY_OK || (rc == ASSAY_USAGE && rows.n == 0));
		for (size_t r = 0; r < rows.n; r++)
			assert_true(isfinite(rows.v[r].value));
		assay_rows_release(&rows);
		free(m);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid),     cmocka_unit_test(test_invalid_and_unsupported),
	    cmocka_unit_test(test_errors),    cmocka_unit_test(test_prefixes),
	    cmocka_unit_test(test_mutations), cmocka_unit_test(test_routing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
