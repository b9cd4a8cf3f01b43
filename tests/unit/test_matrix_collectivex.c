/* Unit tests for CollectiveX's matrix inputs (config/collectivex.c and its
 * expansion in matrix/matrix.c): assay's matrix of CollectiveX's own
 * platform_config.json and sweep.json against the case list CollectiveX's
 * sweep_matrix.py printed for the same files (tests/fixtures/matrix/collectivex,
 * SOURCE.md): no case missing, no case extra, same dispositions, factors and
 * shards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/matrix.h"

#define CX ASSAY_SOURCE_DIR "/tests/fixtures/matrix/collectivex/"

static void load_inputs(struct assay_registry *reg, struct assay_sweep *sw)
{
	struct assay_error e;
	if (assay_registry_load(CX "platform_config.json", reg, &e) != ASSAY_OK)
		fail_msg("%s", e.message);
	assert_true(reg->collectivex);
	if (assay_sweep_load(CX "sweep.json", sw, &e) != ASSAY_OK)
		fail_msg("%s", e.message);
}

/* Compare the matrix for filters with the generator's printed document. */
static void compare(const char *printed, const struct assay_filters *f)
{
	struct assay_registry reg;
	struct assay_sweep sw;
	struct assay_matrix m;
	struct assay_error e;
	load_inputs(&reg, &sw);
	if (assay_matrix_build(&reg, &sw, f, &m, &e) != ASSAY_OK)
		fail_msg("%s", e.message);
	json_error_t je;
	json_t *doc = json_load_file(printed, 0, &je);
	if (!doc)
		fail_msg("%s: %s", printed, je.text);
	json_t *cases = json_object_get(doc, "requested_cases");
	json_t *include = json_object_get(doc, "include");
	assert_true(json_is_array(cases) && json_is_array(include));

	/* Shards: the same ids, nodes, and case lists. */
	assert_int_equal(m.n_shards, json_array_size(include));
	size_t i;
	json_t *sh;
	json_array_foreach(include, i, sh)
	{
		const char *id = json_string_value(json_object_get(sh, "id"));
		const struct assay_shard *s = assay_matrix_shard(&m, id);
		if (!s)
			fail_msg("shard %s: missing from assay's matrix", id);
		assert_int_equal(s->nodes, json_integer_value(json_object_get(sh, "nodes")));
		assert_string_equal(s->sku, json_string_value(json_object_get(sh, "sku")));
		assert_string_equal(s->backend, json_string_value(json_object_get(sh, "backend")));
		assert_string_equal(s->mode, json_string_value(json_object_get(sh, "mode")));
		json_t *sc = json_object_get(sh, "cases");
		assert_int_equal(s->cases.n, json_array_size(sc));
		size_t j;
		json_t *c;
		json_array_foreach(sc, j, c)
		{
			const char *cid = json_string_value(json_object_get(c, "case_id"));
			if (!strlist_has(&s->cases, cid))
				fail_msg("shard %s: case %s missing", id, cid);
		}
	}

	/* Cases: every printed case is in assay's matrix with the same
	 * disposition and factors; the counts are equal, so none is extra. */
	size_t runnable = 0;
	json_t *rc;
	json_array_foreach(cases, i, rc)
	{
		json_t *c = json_object_get(rc, "case");
		const char *id = json_string_value(json_object_get(c, "case_id"));
		const struct assay_case *ac = assay_matrix_case(&m, id);
		if (!ac)
			fail_msg("case %s: missing from assay's matrix", id);
		const char *disp = json_string_value(json_object_get(rc, "disposition"));
		assert_string_equal(ac->runnable ? "runnable" : "unsupported", disp);
		runnable += ac->runnable;
		if (!ac->runnable)
			assert_string_equal(ac->reason,
					    json_string_value(json_object_get(rc, "reason")));
		assert_string_equal(ac->sku, json_string_value(json_object_get(rc, "sku")));
		assert_string_equal(ac->backend, json_string_value(json_object_get(c, "backend")));
		assert_string_equal(ac->mode, json_string_value(json_object_get(c, "mode")));
		assert_string_equal(ac->phase, json_string_value(json_object_get(c, "phase")));
		assert_string_equal(ac->precision,
				    json_string_value(json_object_get(c, "precision")));
		assert_string_equal(ac->workload,
				    json_string_value(json_object_get(c, "workload")));
		assert_int_equal(ac->ep, json_integer_value(json_object_get(c, "ep")));
		assert_int_equal(ac->nodes, json_integer_value(json_object_get(c, "nodes")));
		assert_int_equal(ac->gpus_per_node,
				 json_integer_value(json_object_get(c, "gpus_per_node")));
		assert_string_equal(ac->scope, json_string_value(json_object_get(c, "scope")));
		assert_int_equal(ac->hidden, json_integer_value(json_object_get(c, "hidden")));
		assert_int_equal(ac->experts, json_integer_value(json_object_get(c, "experts")));
		assert_int_equal(ac->topk, json_integer_value(json_object_get(c, "topk")));
		assert_int_equal(ac->seed, json_integer_value(json_object_get(c, "seed")));
		struct sbuf ladder = SBUF_INIT;
		for (size_t k = 0; k < ac->n_tokens; k++)
			sbuf_addf(&ladder, "%s%lld", k ? " " : "", ac->tokens[k]);
		assert_string_equal(sbuf_str(&ladder),
				    json_string_value(json_object_get(c, "ladder")));
		sbuf_release(&ladder);
		json_t *t = json_object_get(c, "timing");
		assert_int_equal(m.timing.trials,
				 json_integer_value(json_object_get(t, "trials_per_point")));
		assert_int_equal(m.timing.chain_pairs,
				 json_integer_value(json_object_get(t, "chain_iters_per_trial")));
	}
	assert_int_equal(m.n, json_array_size(cases));
	assert_int_equal(m.runnable, runnable);
	assert_int_equal(m.unsupported, json_array_size(cases) - runnable);
	json_decref(doc);
	assay_matrix_release(&m);
	assay_sweep_release(&sw);
	assay_registry_release(&reg);
}

static void test_whole_matrix(void **state)
{
	(void)state;
	struct assay_filters f = {0};
	compare(CX "sweep_matrix.out.json", &f);
	/* The counts sweep_matrix.py printed on stderr. */
	struct assay_registry reg;
	struct assay_sweep sw;
	struct assay_matrix m;
	struct assay_error e;
	load_inputs(&reg, &sw);
	assert_int_equal(assay_matrix_build(&reg, &sw, &f, &m, &e), ASSAY_OK);
	assert_int_equal(m.runnable, 142);
	assert_int_equal(m.unsupported, 26);
	assert_int_equal(m.n_shards, 88);
	assert_string_equal(m.timing.profile, "reference");
	assay_matrix_release(&m);
	assay_sweep_release(&sw);
	assay_registry_release(&reg);
}

/* --precisions fp8: flashinfer-ep's off-path FP8 appears because it is
 * named; unsupported cells stay, whatever the precision filter. */
static void test_precision_filter(void **state)
{
	(void)state;
	struct assay_filters f = {0};
	strlist_push(&f.precision, "fp8");
	compare(CX "sweep_matrix-precisions-fp8.out.json", &f);
	assay_filters_release(&f);
}

/* --modes low-latency --ep-sizes 8: the ll EP sizes per backend. */
static void test_mode_filter(void **state)
{
	(void)state;
	struct assay_filters f = {0};
	strlist_push(&f.mode, "low-latency");
	strlist_push(&f.ep, "8");
	compare(CX "sweep_matrix-ll-ep8.out.json", &f);
	assay_filters_release(&f);
}

static void expect_registry_error(const char *text, const char *message)
{
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	struct assay_registry reg;
	struct assay_error e;
	assert_int_equal(assay_registry_parse(doc, "platform_config.json", &reg, &e), ASSAY_USAGE);
	char buf[1024];
	assay_error_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, message);
	json_decref(doc);
}

static void test_errors(void **state)
{
	(void)state;
	expect_registry_error(
	    "{\"backend_maturity\": {}, \"platforms\": {\"x\": {\"arch\": \"sm90\", \"product\": "
	    "\"h100\", \"gpus_per_node\": 8, \"scale_up_domain\": 8, \"scale_up_transport\": "
	    "\"nvlink\", \"backends\": {\"deepep\": [8]}}}}",
	    "platform_config.json: $.platforms.x.backends.deepep: unknown CollectiveX backend "
	    "\"deepep\" (known: deepep-v2, mori, uccl-ep, nccl-ep, flashinfer-ep)");
	expect_registry_error(
	    "{\"backend_maturity\": {}, \"platforms\": {\"x\": {\"arch\": \"sm90\", \"product\": "
	    "\"h100\", \"gpus_per_node\": 8, \"scale_up_domain\": 8, \"scale_up_transport\": "
	    "\"nvlink\", \"backends\": {\"mori\": [8]}, \"ll_backends\": {\"uccl-ep\": [8]}}}}",
	    "platform_config.json: $.platforms.x.ll_backends.uccl-ep: \"uccl-ep\" is not one of "
	    "this platform's backends");
	expect_registry_error(
	    "{\"backend_maturity\": {}, \"platforms\": {\"x\": {\"arch\": \"sm90\", \"product\": "
	    "\"h100\", \"gpus\": 8}}}",
	    "platform_config.json: $.platforms.x.gpus: unknown key (expected one of: arch, "
	    "product, image, image_platform, gpus_per_node, scale_up_domain, scale_up_transport, "
	    "launcher, backends, ll_backends, fabric, operator, network)");

	/* A sweep error names the key as CollectiveX spells it. */
	json_error_t je;
	json_t *doc = json_load_file(CX "sweep.json", 0, &je);
	assert_non_null(doc);
	json_object_set_new(json_object_get(doc, "workload"), "routed_experts", json_integer(0));
	struct assay_sweep sw;
	struct assay_error e;
	assert_int_equal(assay_sweep_parse(doc, "sweep.json", &sw, &e), ASSAY_USAGE);
	assert_string_equal(e.path, "$.workload.routed_experts");
	json_object_set_new(json_object_get(doc, "workload"), "routed_experts", json_integer(256));
	json_object_set_new(json_object_get(doc, "timing"), "trials_per_point", json_integer(0));
	assert_int_equal(assay_sweep_parse(doc, "sweep.json", &sw, &e), ASSAY_USAGE);
	assert_string_equal(e.path, "$.timing.trials_per_point");
	json_decref(doc);

	/* EP 12 on 8-GPU nodes: CollectiveX runs whole nodes. */
	struct assay_registry reg;
	load_inputs(&reg, &sw);
	sw.ep_degrees[1] = 12;
	struct assay_filters f = {0};
	struct assay_matrix m;
	assert_int_equal(assay_matrix_build(&reg, &sw, &f, &m, &e), ASSAY_USAGE);
	char buf[1024];
	assay_error_format(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "platform_config.json: $.platforms.b200-nscale.gpus_per_node: "
				    "EP 12 is not divisible by 8 GPUs per node (CollectiveX runs "
				    "whole nodes)"));
	assay_sweep_release(&sw);
	assay_registry_release(&reg);
}

/* ---- the operator overlay, read as CollectiveX's runtime/config.py
 * (operator_config) and runtime/common.sh (collx_load_operator_config)
 * read it at 843c625 ---- */

static const struct assay_platform *sku(const struct assay_registry *reg, const char *name)
{
	for (size_t i = 0; i < reg->n; i++)
		if (!strcmp(reg->v[i].sku, name))
			return &reg->v[i];
	fail_msg("no platform %s", name);
	return NULL;
}

static const char *field(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static char overlay_file[64];

static void write_overlay(const char *text)
{
	snprintf(overlay_file, sizeof(overlay_file), "/tmp/assay-cx-overlay-XXXXXX");
	int fd = mkstemp(overlay_file);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	setenv("COLLECTIVEX_OPERATOR_CONFIG", overlay_file, 1);
}

static void test_operator_overlay(void **state)
{
	(void)state;
	struct assay_registry reg;
	struct assay_error e;
	/* No operator document: the registry's operator and network blocks. */
	setenv("COLLECTIVEX_OPERATOR_CONFIG", "/nonexistent/collectivex.json", 1);
	assert_int_equal(assay_registry_load(CX "platform_config.json", &reg, &e), ASSAY_OK);
	assert_string_equal(field(sku(&reg, "h200-dgxc")->op, "partition"), "main");
	assert_null(json_object_get(sku(&reg, "h200-dgxc")->network, "socket_ifname"));
	assay_registry_release(&reg);
	/* runners.<sku> overlays per field; the registry's network selectors
	 * win over the document's; another runner's entry is not checked. */
	write_overlay("{\"runners\": {"
		      "\"h200-dgxc\": {\"partition\": \"night\", \"socket_ifname\": \"ens7\"},"
		      "\"h100-dgxc\": {\"qos\": \"high\", \"socket_ifname\": \"ens9\"},"
		      "\"h300-typo\": {\"bogus\": [1]}}}");
	assert_int_equal(assay_registry_load(CX "platform_config.json", &reg, &e), ASSAY_OK);
	assert_string_equal(field(sku(&reg, "h200-dgxc")->op, "partition"), "night");
	assert_string_equal(field(sku(&reg, "h200-dgxc")->network, "socket_ifname"), "ens7");
	assert_string_equal(field(sku(&reg, "h100-dgxc")->op, "qos"), "high");
	assert_string_equal(field(sku(&reg, "h100-dgxc")->op, "partition"), "hpc-gpu-1");
	assert_string_equal(field(sku(&reg, "h100-dgxc")->network, "socket_ifname"), "eth0");
	assay_registry_release(&reg);
	unlink(overlay_file);
	/* Fails closed: an unknown field, a value that is not a string or an
	 * integer, no runners. */
	static const struct {
		const char *doc, *path;
	} bad[] = {
	    {"{\"runners\": {\"h200-dgxc\": {\"partitoin\": \"x\"}}}",
	     "$.runners.h200-dgxc.partitoin"},
	    {"{\"runners\": {\"h200-dgxc\": {\"qos\": [\"a\"]}}}", "$.runners.h200-dgxc.qos"},
	    {"{\"h200-dgxc\": {\"qos\": \"a\"}}", "$.runners"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_overlay(bad[i].doc);
		assert_int_equal(assay_registry_load(CX "platform_config.json", &reg, &e),
				 ASSAY_USAGE);
		assert_string_equal(e.file, overlay_file);
		assert_string_equal(e.path, bad[i].path);
		unlink(overlay_file);
	}
	/* Without the variable (or with it empty): $XDG_CONFIG_HOME/inferencex. */
	char dir[] = "/tmp/assay-cx-xdg-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[128], file[160];
	snprintf(sub, sizeof(sub), "%s/inferencex", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(file, sizeof(file), "%s/collectivex.json", sub);
	FILE *f = fopen(file, "w");
	fputs("{\"runners\": {\"mi355x\": {\"partition\": \"xdg\"}}}", f);
	fclose(f);
	setenv("COLLECTIVEX_OPERATOR_CONFIG", "", 1);
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(assay_registry_load(CX "platform_config.json", &reg, &e), ASSAY_OK);
	assert_string_equal(field(sku(&reg, "mi355x")->op, "partition"), "xdg");
	assay_registry_release(&reg);
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	setenv("COLLECTIVEX_OPERATOR_CONFIG", "/nonexistent/collectivex.json", 1);
}

int main(void)
{
	/* The matrix tests read the registry alone, whatever this user's
	 * ~/.config/inferencex/collectivex.json says. */
	setenv("COLLECTIVEX_OPERATOR_CONFIG", "/nonexistent/collectivex.json", 1);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_whole_matrix),     cmocka_unit_test(test_precision_filter),
	    cmocka_unit_test(test_mode_filter),      cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_operator_overlay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
