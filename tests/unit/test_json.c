/* Unit tests for the JSON helpers: located load errors, the serializer,
 * canonical digests, path strings and value briefs (tokens masked). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"

static const char *load_error(const char *text)
{
	static char buf[1024];
	struct assay_error e;
	json_t *v = assay_json_loadb(text, strlen(text), "in.json", &e);
	if (v) {
		json_decref(v);
		return "loaded";
	}
	assert_int_equal(e.code, ASSAY_USAGE);
	return assay_error_format(&e, buf, sizeof(buf));
}

static void test_duplicate_keys(void **state)
{
	(void)state;
	assert_string_equal(load_error("{\"timing\": {\"trials\": 1, \"trials\": 2}}"),
			    "in.json:1:33: $.timing.trials: duplicate key \"trials\"");
	assert_string_equal(load_error("{\"a\": [1, {\"b\": 1,\n \"b\": 2}]}"),
			    "in.json:2:4: $.a[1].b: duplicate key \"b\"");
	assert_string_equal(load_error("{\"x\": 1, \"x\": 1}"),
			    "in.json:1:12: $.x: duplicate key \"x\"");
}

static void test_syntax_errors(void **state)
{
	(void)state;
	assert_string_equal(load_error("{\"a\": [1,2,}"),
			    "in.json:1:12: invalid JSON: unexpected token near '}'");
	assert_string_equal(load_error(""),
			    "in.json:1:1: invalid JSON: '[' or '{' expected near end of file");
	assert_string_equal(load_error("{\"a\":1}\n{"),
			    "in.json:2:1: invalid JSON: end of file expected near '{'");
}

static void test_missing_file(void **state)
{
	(void)state;
	struct assay_error e;
	char buf[512];
	assert_null(assay_json_load_file("/nonexistent/x.json", &e));
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)),
			    "/nonexistent/x.json: cannot read: No such file or directory");
}

static void test_serializer(void **state)
{
	(void)state;
	json_t *v = json_pack("{s:f, s:f, s:f, s:I, s:s, s:[i,i], s:{}, s:f}", "b", 0.1, "a", 3.0,
			      "c", 1e300, "d", (json_int_t)-7, "e", "q\"\\\n\x01é", "f", 1, 2, "g",
			      "h", 1.0 / 3.0);
	char *s = assay_json_dumps(v, ASSAY_JSON_SORT);
	assert_string_equal(
	    s, "{\"a\":3.0,\"b\":0.1,\"c\":1e+300,\"d\":-7,\"e\":\"q\\\"\\\\\\n\\u0001é\","
	       "\"f\":[1,2],\"g\":{},\"h\":0.3333333333333333}");
	free(s);
	s = assay_json_dumps(v, 0); /* insertion order */
	assert_true(!strncmp(s, "{\"b\":0.1,\"a\":3.0", 16));
	free(s);
	json_decref(v);
	v = json_pack("{s:[i,i], s:[{s:i}]}", "x", 1, 2, "y", "z", 3);
	s = assay_json_dumps(v, ASSAY_JSON_PRETTY | ASSAY_JSON_SORT);
	assert_string_equal(
	    s, "{\n  \"x\": [1, 2],\n  \"y\": [\n    {\n      \"z\": 3\n    }\n  ]\n}");
	free(s);
	json_decref(v);
}

static void test_canonical_digest(void **state)
{
	(void)state;
	const char *a = "{\"b\": [1, 2, {\"y\": 1, \"x\": \"é\"}], \"a\": 0.5}";
	const char *b = "{ \"a\":0.5,\n\t\"b\":[1,2,{\"x\":\"é\",\"y\":1}] }";
	json_t *va = json_loads(a, 0, NULL), *vb = json_loads(b, 0, NULL);
	char da[65], db[65];
	assay_json_sha256(va, da);
	assay_json_sha256(vb, db);
	assert_string_equal(da, db);
	char *c = assay_json_canonical(va);
	assert_string_equal(c, "{\"a\":0.5,\"b\":[1,2,{\"x\":\"é\",\"y\":1}]}");
	free(c);
	json_object_set_new(vb, "a", json_real(0.25));
	assay_json_sha256(vb, db);
	assert_string_not_equal(da, db);
	json_decref(va);
	json_decref(vb);
	/* Known answer: SHA-256 of "abc". */
	assay_sha256_hex("abc", 3, da);
	assert_string_equal(da, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_paths(void **state)
{
	(void)state;
	char p[128];
	assay_json_path_key(p, sizeof(p), "$", "timing");
	assert_string_equal(p, "$.timing");
	assay_json_path_key(p, sizeof(p), "$.a", "odd key");
	assert_string_equal(p, "$.a[\"odd key\"]");
	assay_json_path_index(p, sizeof(p), "$.a", 3);
	assert_string_equal(p, "$.a[3]");
	const char *t = "{\"a\": {\"b\": [10, 20, {\"c\": 1}]}}";
	assay_json_path_at(t, strlen(t), (size_t)(strstr(t, "1}") - t), p, sizeof(p));
	assert_string_equal(p, "$.a.b[2].c");
	char brief[80];
	json_t *s = json_string("8");
	assert_string_equal(assay_json_brief(s, brief, sizeof(brief)), "\"8\"");
	json_decref(s);
}

/* A brief never quotes a token, neither whole nor the part before its cut. */
static void test_brief_masks_tokens(void **state)
{
	(void)state;
	char brief[80];
	json_t *v = json_string("hf_QwErTyUiOpAsDfGhJkLzXcVbNm0123456789");
	assert_string_equal(assay_json_brief(v, brief, sizeof(brief)), "\"[redacted]\"");
	json_decref(v);
	/* The token straddles the 56-byte cut. */
	v = json_string("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
			"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB and more text after it");
	assay_json_brief(v, brief, sizeof(brief));
	assert_null(strstr(brief, "ghp_"));
	assert_string_equal(brief,
			    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa [red...\"");
	json_decref(v);
	v = json_pack("[s]", "AKIAABCDEFGHIJKLMNOP");
	assert_string_equal(assay_json_brief(v, brief, sizeof(brief)), "[...]");
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_duplicate_keys),     cmocka_unit_test(test_syntax_errors),
	    cmocka_unit_test(test_missing_file),       cmocka_unit_test(test_serializer),
	    cmocka_unit_test(test_canonical_digest),   cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_brief_masks_tokens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
