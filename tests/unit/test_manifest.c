/* Unit tests for the madengine manifest generator (src/lib/manifest): the
 * shape madengine's reader consumes (ROCm/madengine ef87d05, v2.1.0-8:
 * container_runner.py run_models_from_manifest joins built_images and
 * built_models by key; run_orchestrator.py and deployment/slurm.py read
 * deployment_config.slurm and .distributed), no keys beyond it, and errors
 * that name the file and JSON path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/lint.h"
#include "assay/manifest.h"

#define PLATFORMS "configs/examples/mi355x-platforms.json"
#define SUITE     "configs/examples/primus-2node.json"
#define INPUTS    "tests/fixtures/cli/manifest/"

static int setup(void **state)
{
	(void)state;
	unsetenv("HF_TOKEN");
	return chdir(ASSAY_SOURCE_DIR);
}

/* The keys of obj, sorted, comma-separated. */
static void keys_of(const json_t *obj, char *out, size_t size)
{
	char *v[32];
	size_t n = 0;
	const char *k;
	json_t *x;
	json_object_foreach((json_t *)obj, k, x) if (n < 32) v[n++] = (char *)k;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(v[j], v[i]) < 0) {
				char *t = v[i];
				v[i] = v[j];
				v[j] = t;
			}
	out[0] = 0;
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? "," : "", v[i]);
}

static json_t *build(const char *platforms, const char *platform, const char *suite,
		     const char *combo, struct assay_error *e)
{
	struct assay_manifest_request rq = {platforms, platform, suite, combo};
	json_t *doc = NULL;
	assay_err rc = assay_manifest_build(&rq, &doc, e);
	assert_true((rc == ASSAY_OK) == (doc != NULL));
	return doc;
}

static void test_shape(void **state)
{
	(void)state;
	struct assay_error e;
	json_t *m = build(PLATFORMS, NULL, SUITE, "bf16-2node", &e);
	assert_non_null(m);
	char k[512];
	keys_of(m, k, sizeof(k));
	assert_string_equal(
	    k, "built_images,built_models,context,credentials_required,deployment_config");
	keys_of(json_object_get(m, "built_images"), k, sizeof(k));
	char k2[512];
	keys_of(json_object_get(m, "built_models"), k2, sizeof(k2));
	assert_string_equal(k, k2); /* madengine joins them by key */
	assert_string_equal(k, "primus_pyt_megatron_lm_train_llama-3.1-8b");
	json_t *img = json_object_get(json_object_get(m, "built_images"), k);
	keys_of(img, k2, sizeof(k2));
	assert_string_equal(k2, "docker_image,dockerfile,local_image");
	assert_true(json_is_true(json_object_get(img, "local_image")));
	json_t *dc = json_object_get(m, "deployment_config");
	keys_of(dc, k2, sizeof(k2));
	assert_string_equal(k2, "distributed,env_vars,slurm");
	/* madengine's multi-node preset would give the job (and the container)
	 * NCCL_IB_DISABLE=1 and NCCL_SOCKET_IFNAME=eth0: env_vars says RDMA and
	 * the platform's interface (ROCm/madengine ef87d05,
	 * presets/slurm/profiles/multi-node.json). */
	json_t *env = json_object_get(dc, "env_vars");
	assert_string_equal(json_string_value(json_object_get(env, "NCCL_IB_DISABLE")), "0");
	assert_string_equal(json_string_value(json_object_get(env, "NCCL_SOCKET_IFNAME")), "eth0");
	json_t *slurm = json_object_get(dc, "slurm"), *dist = json_object_get(dc, "distributed");
	assert_int_equal(json_integer_value(json_object_get(slurm, "nodes")), 2);
	assert_int_equal(json_integer_value(json_object_get(dist, "nnodes")), 2);
	assert_int_equal(json_integer_value(json_object_get(dist, "nproc_per_node")), 8);
	assert_string_equal(json_string_value(json_object_get(slurm, "network_interface")), "eth0");
	json_t *cr = json_object_get(m, "credentials_required");
	assert_int_equal(json_array_size(cr), 1);
	assert_string_equal(json_string_value(json_array_get(cr, 0)), "HF");
	json_decref(m);
}

/* What the generator hands back lints clean under --strict with
 * --fail-on warning: no finding at all. */
static void test_lints_clean(void **state)
{
	(void)state;
	struct assay_error e;
	const char *combos[] = {"bf16-2node", "fp8-2node"};
	for (size_t i = 0; i < 2; i++) {
		json_t *m = build(PLATFORMS, NULL, SUITE, combos[i], &e);
		assert_non_null(m);
		char *text = assay_json_dumps(m, ASSAY_JSON_PRETTY);
		struct assay_lint_options o;
		assay_lint_options_init(&o);
		assay_lint_options_strict(&o);
		struct assay_lint_result r = {0};
		assert_int_equal(
		    assay_lint_buffer(text, strlen(text), "build_manifest.json", &o, NULL, &r, &e),
		    ASSAY_OK);
		assert_int_equal(r.kind, ASSAY_LINT_MANIFEST);
		assert_int_equal(r.n, 0);
		assay_lint_result_release(&r);
		free(text);
		json_decref(m);
	}
}

static void expect_error(const char *platforms, const char *platform, const char *suite,
			 const char *combo, const char *file, const char *path, const char *words)
{
	struct assay_error e;
	assert_null(build(platforms, platform, suite, combo, &e));
	assert_int_equal(e.code, ASSAY_USAGE);
	assert_string_equal(e.file, file);
	assert_string_equal(e.path, path);
	if (!strstr(e.message, words))
		fail_msg("message \"%s\" lacks \"%s\"", e.message, words);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error(PLATFORMS, NULL, SUITE, "nope", SUITE, "$.combos", "no combo \"nope\"");
	expect_error("configs/platforms.json", NULL, SUITE, "bf16-2node", "configs/platforms.json",
		     "$.platforms", "choose one with --platform");
	expect_error(PLATFORMS, "h100", SUITE, "bf16-2node", PLATFORMS, "$.platforms",
		     "no platform \"h100\"");
	expect_error(PLATFORMS, NULL, INPUTS "no-scripts.json", "bf16-2node",
		     INPUTS "no-scripts.json", "$.madengine.scripts", "missing");
	expect_error(PLATFORMS, NULL, INPUTS "latest-tag.json", "bf16-2node",
		     INPUTS "latest-tag.json", "$.madengine.docker_image", "latest");
	expect_error(INPUTS "no-ifname-platforms.json", NULL, SUITE, "bf16-2node",
		     INPUTS "no-ifname-platforms.json", "$.platforms.mi355x", "socket_ifname");
	expect_error(PLATFORMS, NULL, INPUTS "tcp-fallback.json", "bf16-2node",
		     INPUTS "tcp-fallback.json", "$.env.NCCL_IB_DISABLE", "tcp-fallback");
	expect_error(PLATFORMS, NULL, INPUTS "primus-no-results.json", "bf16-2node",
		     INPUTS "primus-no-results.json", "$.madengine", "card-primus-results");
	expect_error(PLATFORMS, NULL, "configs/quickstart.json", "bf16", "configs/quickstart.json",
		     "$.kind", "\"command\" suite");
}

/* The value of a secret the suite names never reaches the document. */
static void test_secret(void **state)
{
	(void)state;
	setenv("HF_TOKEN", "perf-ci", 1); /* the platform's Slurm account */
	expect_error(PLATFORMS, NULL, SUITE, "bf16-2node", PLATFORMS, "$", "secret HF_TOKEN");
	setenv("HF_TOKEN", "a-value-nowhere", 1);
	struct assay_error e;
	json_t *m = build(PLATFORMS, NULL, SUITE, "bf16-2node", &e);
	assert_non_null(m);
	json_decref(m);
	unsetenv("HF_TOKEN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shape),
	    cmocka_unit_test(test_lints_clean),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_secret),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
