/* Unit tests for matrix expansion: unsupported rows, low-latency gating,
 * shards, filters that only remove, digest stability and id uniqueness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/matrix.h"

static const char *REG =
    "{\"platforms\": {"
    " \"h\": {\"arch\": \"hopper\", \"gpus_per_node\": 8, \"scale_up_domain\": 8,"
    "  \"scale_up_transport\": \"nvlink\", \"scale_out_transport\": \"ib\","
    "  \"backends\": {\"nccl\": [8, 16], \"deepep-v2\": [8]}, \"ll_backends\": [\"deepep-v2\"],"
    "  \"fabric\": {\"nic\": \"cx7\", \"switch\": \"q2\"}},"
    " \"g\": {\"arch\": \"blackwell\", \"gpus_per_node\": 4, \"scale_up_domain\": 72,"
    "  \"scale_up_transport\": \"nvl72\", \"scale_out_transport\": \"ib\","
    "  \"backends\": {\"nccl\": [8, 16]}, \"fabric\": {\"nic\": \"cx7\", \"switch\": \"q2\"}}}}";

/* The same registry with keys reordered and other whitespace. */
static const char *REG_REORDERED =
    "{\"platforms\":{\"g\":{\"fabric\":{\"switch\":\"q2\",\"nic\":\"cx7\"},"
    "\"backends\":{\"nccl\":[8,16]},\"scale_out_transport\":\"ib\",\"scale_up_transport\":"
    "\"nvl72\","
    "\"scale_up_domain\":72,\"gpus_per_node\":4,\"arch\":\"blackwell\"},"
    "\"h\":{\"ll_backends\":[\"deepep-v2\"],\"backends\":{\"deepep-v2\":[8],\"nccl\":[8,16]},"
    "\"fabric\":{\"nic\":\"cx7\",\"switch\":\"q2\"},\"scale_out_transport\":\"ib\","
    "\"scale_up_transport\":\"nvlink\",\"scale_up_domain\":8,\"gpus_per_node\":8,\"arch\":"
    "\"hopper\"}}}";

static const char *SWEEP =
    "{\"suite\": \"t\", \"routing\": \"uniform\","
    " \"modes\": {\"normal\": [\"decode\", \"prefill\"], \"low-latency\": [\"decode\"]},"
    " \"ep_degrees\": [8, 16], \"precisions\": [\"bf16\", \"fp8\"], \"timing\": {\"profile\": "
    "\"quick\"},"
    " \"workload\": {\"name\": \"DeepSeek V3\", \"hidden\": 7168, \"topk\": 8, \"experts\": 256,"
    " \"seed\": 67, \"token_ladders\": {\"decode\": [1, 2, 4], \"prefill\": [1024]}}}";

static const char *SWEEP_REORDERED =
    "{\"workload\":{\"token_ladders\":{\"prefill\":[1024],\"decode\":[1,2,4]},\"seed\":67,"
    "\"experts\":256,\"topk\":8,\"hidden\":7168,\"name\":\"DeepSeek V3\"},"
    "\"timing\":{\"profile\":\"quick\"},\"precisions\":[\"bf16\",\"fp8\"],\"ep_degrees\":[8,16],"
    "\"modes\":{\"low-latency\":[\"decode\"],\"normal\":[\"decode\",\"prefill\"]},"
    "\"routing\":\"uniform\",\"suite\":\"t\"}";

static void load(const char *reg_text, const char *sweep_text, struct assay_registry *reg,
		 struct assay_sweep *sw)
{
	struct assay_error e;
	json_t *r = json_loads(reg_text, 0, NULL), *s = json_loads(sweep_text, 0, NULL);
	assert_non_null(r);
	assert_non_null(s);
	assert_int_equal(assay_registry_parse(r, "p.json", reg, &e), ASSAY_OK);
	assert_int_equal(assay_sweep_parse(s, "s.json", sw, &e), ASSAY_OK);
	json_decref(r);
	json_decref(s);
}

static assay_err build(const char *reg_text, const char *sweep_text, struct assay_filters *f,
		       struct assay_matrix *m, struct assay_error *e)
{
	struct assay_registry reg;
	struct assay_sweep sw;
	struct assay_filters none = {0};
	load(reg_text, sweep_text, &reg, &sw);
	assay_err rc = assay_matrix_build(&reg, &sw, f ? f : &none, m, e);
	assay_registry_release(&reg);
	assay_sweep_release(&sw);
	return rc;
}

static void test_expansion(void **state)
{
	(void)state;
	struct assay_matrix m;
	struct assay_error e;
	assert_int_equal(build(REG, SWEEP, NULL, &m, &e), ASSAY_OK);
	/* h: nccl 2 ep x 2 phases x 2 prec = 8; deepep-v2 normal 8 + ll 2 ep x 1 phase x 2 = 4;
	 * g: nccl 8 (no ll_backends). */
	assert_int_equal(m.n, 28);
	/* deepep-v2 at ep16 is listed for h but not at 16: unsupported, once per case id. */
	assert_int_equal(m.unsupported, 6);
	assert_int_equal(m.runnable, 22);
	const struct assay_case *c =
	    assay_matrix_case(&m, "h-deepep-v2-deepseek-v3-normal-decode-ep16-uniform-fp8");
	assert_non_null(c);
	assert_false(c->runnable);
	assert_string_equal(c->reason, "backend-platform-unsupported");
	assert_null(c->shard);
	/* Low-latency cases only for ll_backends. */
	assert_non_null(
	    assay_matrix_case(&m, "h-deepep-v2-deepseek-v3-low-latency-decode-ep8-uniform-bf16"));
	assert_null(
	    assay_matrix_case(&m, "h-nccl-deepseek-v3-low-latency-decode-ep8-uniform-bf16"));
	assert_null(
	    assay_matrix_case(&m, "g-nccl-deepseek-v3-low-latency-decode-ep8-uniform-bf16"));
	/* Scope, nodes and topology. */
	c = assay_matrix_case(&m, "h-nccl-deepseek-v3-normal-prefill-ep16-uniform-bf16");
	assert_non_null(c);
	assert_int_equal(c->nodes, 2);
	assert_string_equal(c->scope, "scale-out");
	assert_string_equal(c->topology, "multi-node-scale-out");
	assert_int_equal(c->scale_up_domain, 8);
	assert_string_equal(c->shard, "h-nccl-bf16-n2");
	c = assay_matrix_case(&m, "g-nccl-deepseek-v3-normal-prefill-ep16-uniform-bf16");
	assert_int_equal(c->nodes, 4);
	assert_string_equal(c->scope, "scale-up");
	assert_string_equal(c->topology, "multi-node-scale-up");
	assert_string_equal(c->transport, "nvl72");
	assert_int_equal(c->scale_up_domain, 16);
	c = assay_matrix_case(&m, "h-deepep-v2-deepseek-v3-low-latency-decode-ep8-uniform-fp8");
	assert_string_equal(c->shard, "h-deepep-v2-ll-fp8-n1");
	assert_string_equal(c->topology, "single-node");
	/* Shards and points. */
	const struct assay_shard *s = assay_matrix_shard(&m, "h-nccl-bf16-n1");
	assert_non_null(s);
	assert_int_equal(s->cases.n, 2);
	assert_int_equal(m.n_shards, 12);
	size_t points = 0;
	for (size_t i = 0; i < m.n; i++)
		if (m.cases[i].runnable)
			points += !strcmp(m.cases[i].phase, "decode") ? 3 : 1;
	assert_int_equal(m.ladder_points, points);
	/* Sorted by id. */
	for (size_t i = 1; i < m.n; i++)
		assert_true(strcmp(m.cases[i - 1].id, m.cases[i].id) < 0);
	assay_matrix_release(&m);
}

static void test_digest_stability(void **state)
{
	(void)state;
	struct assay_matrix a, b;
	struct assay_error e;
	assert_int_equal(build(REG, SWEEP, NULL, &a, &e), ASSAY_OK);
	assert_int_equal(build(REG_REORDERED, SWEEP_REORDERED, NULL, &b, &e), ASSAY_OK);
	assert_string_equal(a.matrix_sha256, b.matrix_sha256);
	assert_string_equal(a.catalog_sha256, b.catalog_sha256);
	assay_matrix_release(&b);

	/* A value that changes cases (hidden) changes the matrix digest, not the catalog. */
	char *sweep2 = xstrdup(SWEEP);
	memcpy(strstr(sweep2, "7168"), "4096", 4);
	assert_int_equal(build(REG, sweep2, NULL, &b, &e), ASSAY_OK);
	assert_string_not_equal(a.matrix_sha256, b.matrix_sha256);
	assert_string_equal(a.catalog_sha256, b.catalog_sha256);
	assay_matrix_release(&b);
	free(sweep2);

	/* Supporting one more EP changes both. */
	struct assay_registry reg;
	json_t *j = json_loads(REG, 0, NULL);
	json_t *eps = json_object_get(
	    json_object_get(json_object_get(json_object_get(j, "platforms"), "h"), "backends"),
	    "deepep-v2");
	json_array_append_new(eps, json_integer(16));
	assert_int_equal(assay_registry_parse(j, "p.json", &reg, &e), ASSAY_OK);
	json_decref(j);
	struct assay_sweep sw;
	j = json_loads(SWEEP, 0, NULL);
	assert_int_equal(assay_sweep_parse(j, "s.json", &sw, &e), ASSAY_OK);
	json_decref(j);
	struct assay_filters none = {0};
	assert_int_equal(assay_matrix_build(&reg, &sw, &none, &b, &e), ASSAY_OK);
	assert_int_equal(b.unsupported, 0);
	assert_string_not_equal(a.matrix_sha256, b.matrix_sha256);
	assert_string_not_equal(a.catalog_sha256, b.catalog_sha256);
	assay_matrix_release(&b);
	assay_registry_release(&reg);
	assay_sweep_release(&sw);
	assay_matrix_release(&a);
}

/* Each filter's result is a subset of the unfiltered cases, with identical ids and rows. */
static void check_subset(struct assay_filters *f, size_t want)
{
	struct assay_matrix all, some;
	struct assay_error e;
	assert_int_equal(build(REG, SWEEP, NULL, &all, &e), ASSAY_OK);
	assert_int_equal(build(REG, SWEEP, f, &some, &e), ASSAY_OK);
	assert_int_equal(some.n, want);
	for (size_t i = 0; i < some.n; i++) {
		const struct assay_case *c = assay_matrix_case(&all, some.cases[i].id);
		assert_non_null(c);
		json_t *x = assay_case_to_json(c, &all.timing);
		json_t *y = assay_case_to_json(&some.cases[i], &some.timing);
		assert_true(json_equal(x, y));
		json_decref(x);
		json_decref(y);
	}
	assay_matrix_release(&all);
	assay_matrix_release(&some);
	assay_filters_release(f);
}

static void test_filters_only_remove(void **state)
{
	(void)state;
	struct assay_filters f = {0};
	strlist_push(&f.sku, "g");
	check_subset(&f, 8);
	strlist_push(&f.backend, "deepep-v2");
	check_subset(&f, 12);
	strlist_push(&f.ep, "16");
	check_subset(&f, 14);
	strlist_push(&f.precision, "fp8");
	check_subset(&f, 14);
	strlist_push(&f.mode, "low-latency");
	check_subset(&f, 4);
	strlist_push(&f.phase, "prefill");
	check_subset(&f, 12);
	strlist_push(&f.sku, "h");
	strlist_push(&f.backend, "deepep-v2");
	strlist_push(&f.ep, "16");
	check_subset(&f, 6); /* the unsupported ones stay visible */
}

static void test_unknown_filter_values(void **state)
{
	(void)state;
	struct assay_matrix m;
	struct assay_error e;
	struct assay_filters f = {0};
	strlist_push(&f.sku, "x100");
	assert_int_equal(build(REG, SWEEP, &f, &m, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--sku: unknown value \"x100\" (known: g, h)");
	assay_filters_release(&f);
	strlist_push(&f.ep, "32");
	assert_int_equal(build(REG, SWEEP, &f, &m, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--ep: unknown value \"32\" (known: 8, 16)");
	assay_filters_release(&f);
	strlist_push(&f.backend, "mori");
	assert_int_equal(build(REG, SWEEP, &f, &m, &e), ASSAY_USAGE);
	assert_string_equal(e.message,
			    "--backend: unknown value \"mori\" (known: deepep-v2, nccl)");
	assay_filters_release(&f);
	strlist_push(&f.precision, "fp16");
	assert_int_equal(build(REG, SWEEP, &f, &m, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--precision: unknown value \"fp16\" (known: bf16, fp8)");
	assay_filters_release(&f);
	strlist_push(&f.mode, "ll");
	assert_int_equal(build(REG, SWEEP, &f, &m, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--mode: unknown value \"ll\" (known: normal, low-latency)");
	assay_filters_release(&f);
	strlist_push(&f.phase, "train");
	assert_int_equal(build(REG, SWEEP, &f, &m, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--phase: unknown value \"train\" (known: decode, prefill)");
	assay_filters_release(&f);
}

static void test_ids(void **state)
{
	(void)state;
	char *s = assay_id_sanitize("GB200 NVL72__x.y");
	assert_string_equal(s, "gb200-nvl72-x.y");
	free(s);
	/* Two SKUs whose names sanitize to the same id: an error, not a silent merge. */
	const char *dup =
	    "{\"platforms\": {"
	    " \"h-1\": {\"arch\": \"x\", \"gpus_per_node\": 8, \"scale_up_domain\": 8,"
	    "  \"scale_up_transport\": \"a\", \"scale_out_transport\": \"b\","
	    "  \"backends\": {\"nccl\": [8]}, \"fabric\": {\"nic\": \"n\", \"switch\": \"s\"}},"
	    " \"H_1\": {\"arch\": \"x\", \"gpus_per_node\": 8, \"scale_up_domain\": 8,"
	    "  \"scale_up_transport\": \"a\", \"scale_out_transport\": \"b\","
	    "  \"backends\": {\"nccl\": [8]}, \"fabric\": {\"nic\": \"n\", \"switch\": \"s\"}}}}";
	struct assay_matrix m;
	struct assay_error e;
	assert_int_equal(build(dup, SWEEP, NULL, &m, &e), ASSAY_USAGE);
	assert_string_equal(
	    e.message,
	    "two cases share the id \"h-1-nccl-deepseek-v3-normal-decode-ep16-uniform-bf16\" "
	    "(ids are lower-cased with other characters replaced by '-'; rename a SKU, "
	    "workload or phase)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_expansion),
	    cmocka_unit_test(test_digest_stability),
	    cmocka_unit_test(test_filters_only_remove),
	    cmocka_unit_test(test_unknown_filter_values),
	    cmocka_unit_test(test_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
