/* Unit tests for the platform registry, sweep and timing loaders: every
 * error class with its verbatim message, and the accepted forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/config.h"
#include "assay/json.h"

#define PLATFORM_OK                                                                                \
	"\"arch\": \"hopper\", \"gpus_per_node\": 8, \"scale_up_domain\": 8,"                      \
	" \"scale_up_transport\": \"nvlink\", \"scale_out_transport\": \"ib\","                    \
	" \"fabric\": {\"nic\": \"cx7\", \"switch\": \"q2\"}"

static char msg[2048];

/* Load a registry from text; returns "ok" or the formatted error. */
static const char *registry(const char *text)
{
	struct assay_error e;
	struct assay_registry reg;
	json_t *doc = assay_json_loadb(text, strlen(text), "p.json", &e);
	if (!doc)
		return assay_error_format(&e, msg, sizeof(msg));
	assay_err rc = assay_registry_parse(doc, "p.json", &reg, &e);
	json_decref(doc);
	if (rc != ASSAY_OK) {
		assert_int_equal(rc, ASSAY_USAGE);
		return assay_error_format(&e, msg, sizeof(msg));
	}
	assay_registry_release(&reg);
	return "ok";
}

static void test_registry_ok(void **state)
{
	(void)state;
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {" PLATFORM_OK
		     ", \"backends\": {\"nccl\": [8, 16], \"deepep-v2\": [8]},"
		     " \"ll_backends\": [\"deepep-v2\"],"
		     " \"network\": {\"socket_ifname\": \"eth0\", \"rdma_devices\": [\"mlx5_0\"]},"
		     " \"operator\": {\"partition\": \"gpu\", \"exclusive\": true}}}}"),
	    "ok");
	struct assay_error e;
	struct assay_registry reg;
	assert_int_equal(assay_registry_load(ASSAY_SOURCE_DIR "/configs/platforms.json", &reg, &e),
			 ASSAY_OK);
	const struct assay_platform *p = assay_registry_find(&reg, "gb200");
	assert_non_null(p);
	assert_int_equal(p->scale_up_domain, 72);
	assert_non_null(assay_platform_backend(p, "nccl"));
	assert_null(assay_platform_backend(p, "mori"));
	assert_non_null(assay_registry_find(&reg, "local-cpu"));
	assay_registry_release(&reg);
}

static void test_registry_errors(void **state)
{
	(void)state;
	/* unknown key */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {" PLATFORM_OK
		     ", \"backends\": {\"nccl\": [8]}, \"gpus\": 8}}}"),
	    "p.json: $.platforms.h.gpus: unknown key (expected one of: arch, gpus_per_node, "
	    "scale_up_domain, scale_up_transport, scale_out_transport, backends, ll_backends, "
	    "fabric, network, operator)");
	assert_string_equal(registry("{\"platform\": {}}"),
			    "p.json: $.platform: unknown key (expected one of: platforms)");
	/* duplicate key */
	assert_string_equal(registry("{\"platforms\": {\"h\": {" PLATFORM_OK
				     ", \"backends\": {\"nccl\": [8]}, \"arch\": \"x\"}}}"),
			    "p.json:1:217: $.platforms.h.arch: duplicate key \"arch\"");
	/* wrong type */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {\"arch\": \"hopper\", \"gpus_per_node\": \"8\"}}}"),
	    "p.json: $.platforms.h.gpus_per_node: expected an integer from 1 to 4096, got \"8\"");
	assert_string_equal(registry("{\"platforms\": []}"),
			    "p.json: $.platforms: expected an object, got []");
	/* out of range */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {\"arch\": \"hopper\", \"gpus_per_node\": 0}}}"),
	    "p.json: $.platforms.h.gpus_per_node: expected an integer from 1 to 4096, got 0");
	assert_string_equal(registry("{\"platforms\": {\"h\": {" PLATFORM_OK
				     ", \"backends\": {\"nccl\": [8, -1]}}}}"),
			    "p.json: $.platforms.h.backends.nccl[1]: expected an integer from 1 to "
			    "1048576, got -1");
	/* missing */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {\"arch\": \"hopper\"}}}"),
	    "p.json: $.platforms.h.gpus_per_node: missing (expected an integer from 1 to 4096)");
	/* ll_backends not a subset */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {" PLATFORM_OK
		     ", \"backends\": {\"nccl\": [8], \"deepep-v2\": [8]},"
		     " \"ll_backends\": [\"deepep-v2\", \"mori\"]}}}"),
	    "p.json: $.platforms.h.ll_backends[1]: \"mori\" is not one of this platform's backends "
	    "(deepep-v2, nccl)");
	/* unknown backend */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {" PLATFORM_OK
		     ", \"backends\": {\"nvshmem\": [8]}}}}"),
	    "p.json: $.platforms.h.backends.nvshmem: unknown backend (expected one of: deepep-v2, "
	    "mori, uccl-ep, nccl-ep, nccl, mpi, shm)");
	/* allowlisted blocks */
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {" PLATFORM_OK ", \"backends\": {\"nccl\": [8]},"
		     " \"network\": {\"NCCL_SOCKET_IFNAME\": \"eth0\"}}}}"),
	    "p.json: $.platforms.h.network.NCCL_SOCKET_IFNAME: unknown key (expected one of: "
	    "socket_ifname, rdma_devices, ib_gid_index, ib_traffic_class, ib_service_level, "
	    "net_plugin, master_port)");
	assert_string_equal(
	    registry("{\"platforms\": {\"h\": {" PLATFORM_OK ", \"backends\": {\"nccl\": [8]},"
		     " \"operator\": {\"exclusive\": \"yes\"}}}}"),
	    "p.json: $.platforms.h.operator.exclusive: expected true or false, got \"yes\"");
	assert_string_equal(registry("{\"platforms\": {\"h\": {" PLATFORM_OK
				     ", \"backends\": {\"nccl\": [8, 8]}}}}"),
			    "p.json: $.platforms.h.backends.nccl[1]: duplicate value 8");
	assert_string_equal(registry("{\"platforms\": {\"h\": 1"),
			    "p.json:1:21: invalid JSON: '}' expected near end of file");
}

#define SWEEP_HEAD                                                                                 \
	"{\"suite\": \"s\", \"routing\": \"uniform\", \"modes\": {\"normal\": [\"decode\"]},"
#define WORKLOAD                                                                                   \
	"\"workload\": {\"name\": \"w\", \"hidden\": 64, \"topk\": 2, \"experts\": 8, \"seed\": "  \
	"1,"                                                                                       \
	" \"token_ladders\": {\"decode\": [1, 2]}}"

static const char *sweep(const char *text)
{
	struct assay_error e;
	struct assay_sweep s;
	json_t *doc = assay_json_loadb(text, strlen(text), "s.json", &e);
	if (!doc)
		return assay_error_format(&e, msg, sizeof(msg));
	assay_err rc = assay_sweep_parse(doc, "s.json", &s, &e);
	json_decref(doc);
	if (rc != ASSAY_OK)
		return assay_error_format(&e, msg, sizeof(msg));
	assay_sweep_release(&s);
	return "ok";
}

/* The routing factor: absent is uniform, a string one routing, a list
 * several; each checked as assay-ep --routing checks it. */
static void test_sweep_routing(void **state)
{
	(void)state;
	static const char *const rest = "\"ep_degrees\": [2], \"precisions\": [\"bf16\"], "
					"\"timing\": {\"profile\": \"quick\"}, " WORKLOAD "}";
	static const char *const head = "{\"suite\": \"s\", \"modes\": {\"normal\": [\"decode\"]},";
	const char *cases[][2] = {
	    {"", "uniform"},
	    {"\"routing\": \"zipf:0.8\",", "zipf:0.8"},
	    {"\"routing\": [\"file:t.txt\", \"hot:7:0.25\", \"uniform\"],",
	     "file:t.txt,hot:7:0.25,uniform"},
	    {"\"routing\": [\"hot:8:0.5\"],",
	     "s.json: $.routing[0]: expected uniform, zipf:S (S from 0 to 4), hot:K:P (1 <= K < "
	     "experts (8), 0 < P < 1) or file:PATH, got \"hot:8:0.5\""},
	    {"\"routing\": \"zipf:-1\",",
	     "s.json: $.routing: expected uniform, zipf:S (S from 0 to 4), hot:K:P (1 <= K < "
	     "experts (8), 0 < P < 1) or file:PATH, got \"zipf:-1\""},
	    {"\"routing\": \"hot:2:1\",",
	     "s.json: $.routing: expected uniform, zipf:S (S from 0 to 4), hot:K:P (1 <= K < "
	     "experts (8), 0 < P < 1) or file:PATH, got \"hot:2:1\""},
	    {"\"routing\": [],",
	     "s.json: $.routing: expected a non-empty array of strings, got []"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = xasprintf("%s%s%s", head, cases[i][0], rest);
		struct assay_error e;
		struct assay_sweep s;
		json_t *doc = assay_json_loadb(text, strlen(text), "s.json", &e);
		assert_non_null(doc);
		if (assay_sweep_parse(doc, "s.json", &s, &e) == ASSAY_OK) {
			char *got = strlist_join(&s.routings, ",");
			assert_string_equal(got, cases[i][1]);
			assert_string_equal(s.routing, s.routings.v[0]);
			free(got);
			assay_sweep_release(&s);
		} else {
			assert_string_equal(assay_error_format(&e, msg, sizeof(msg)), cases[i][1]);
		}
		json_decref(doc);
		free(text);
	}
}

static void test_sweep_errors(void **state)
{
	(void)state;
	assert_string_equal(sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
					     " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD
					     "}"),
			    "ok");
	/* the example message */
	assert_string_equal(sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
					     " \"timing\": {\"trials\": \"8\"}, " WORKLOAD "}"),
			    "s.json: $.timing.trials: expected a positive integer, got \"8\"");
	assert_string_equal(
	    sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"fp16\"],"
			     " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD "}"),
	    "s.json: $.precisions[0]: expected one of \"bf16\", \"fp8\", got \"fp16\"");
	assert_string_equal(
	    sweep(SWEEP_HEAD "\"ep_degrees\": [3], \"precisions\": [\"bf16\"],"
			     " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD "}"),
	    "s.json: $.ep_degrees[0]: expected a divisor of workload.experts (8), got 3");
	assert_string_equal(sweep("{\"suite\": \"s\", \"routing\": \"uniform\", \"modes\": "
				  "{\"normal\": [\"prefill\"]},"
				  "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
				  " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD "}"),
			    "s.json: $.modes.normal[0]: unknown phase \"prefill\" "
			    "(workload.token_ladders has: decode)");
	assert_string_equal(
	    sweep(
		"{\"suite\": \"s\", \"routing\": \"uniform\", \"modes\": {\"fast\": [\"decode\"]},"
		"\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
		" \"timing\": {\"profile\": \"quick\"}, " WORKLOAD "}"),
	    "s.json: $.modes.fast: unknown key (expected one of: normal, low-latency)");
	assert_string_equal(
	    sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
			     " \"timing\": {\"profile\": \"slow\"}, " WORKLOAD "}"),
	    "s.json: $.timing.profile: expected one of \"quick\", \"reference\", got \"slow\"");
	assert_string_equal(
	    sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
			     " \"timing\": {\"profile\": \"quick\", \"chain_drop\": 40}, " WORKLOAD
			     "}"),
	    "s.json: $.timing.chain_drop: expected fewer than chain_pairs (32), got 40");
	assert_string_equal(sweep(SWEEP_HEAD "\"ep_degrees\": [], \"precisions\": [\"bf16\"],"
					     " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD
					     "}"),
			    "s.json: $.ep_degrees: expected a non-empty array of integers, got []");
	assert_string_equal(
	    sweep(SWEEP_HEAD
		  "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
		  " \"timing\": {\"profile\": \"quick\"},"
		  " \"workload\": {\"name\": \"w\", \"hidden\": 16, \"topk\": 2,"
		  " \"experts\": 8, \"seed\": 1, \"token_ladders\": {\"decode\": [1]}}}"),
	    "s.json: $.workload.hidden: expected an integer from 32 to 1048576, got 16");
	assert_string_equal(
	    sweep(SWEEP_HEAD
		  "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
		  " \"timing\": {\"profile\": \"quick\"},"
		  " \"workload\": {\"name\": \"w\", \"hidden\": 64, \"topk\": 9,"
		  " \"experts\": 8, \"seed\": 1, \"token_ladders\": {\"decode\": [1]}}}"),
	    "s.json: $.workload.topk: expected an integer from 1 to 8, got 9");
	assert_string_equal(
	    sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
			     " \"timing\": {\"profile\": \"quick\"}, \"extra\": 1, " WORKLOAD "}"),
	    "s.json: $.extra: unknown key (expected one of: suite, routing, modes, ep_degrees, "
	    "precisions, timing, workload)");
	assert_string_equal(sweep(SWEEP_HEAD
				  "\"ep_degrees\": [2], \"precisions\": [\"bf16\", \"bf16\"],"
				  " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD "}"),
			    "s.json: $.precisions[1]: duplicate value \"bf16\"");
	assert_string_equal(sweep(SWEEP_HEAD "\"ep_degrees\": [2], \"precisions\": [\"bf16\"],"
					     " \"timing\": {\"profile\": \"quick\"}, " WORKLOAD ","
					     " \"suite\": \"t\"}"),
			    "s.json:1:265: $.suite: duplicate key \"suite\"");
}

static void test_timing(void **state)
{
	(void)state;
	struct assay_timing t;
	assert_int_equal(assay_timing_profile("reference", &t), 0);
	assert_int_equal(t.trials, 256);
	assert_int_equal(t.iters_per_trial, 8);
	assert_int_equal(t.warmups_per_trial, 32);
	assert_int_equal(t.chain_trials, 4);
	assert_int_equal(t.chain_pairs, 128);
	assert_int_equal(t.chain_drop, 16);
	assert_int_equal(assay_timing_profile("quick", &t), 0);
	assert_int_equal(t.trials, 16);
	assert_int_equal(t.warmups_per_trial, 4);
	assert_int_equal(t.chain_pairs, 32);
	assert_int_equal(assay_timing_profile("other", &t), -1);

	struct assay_error e;
	struct assay_cfg c = {"t.json", &e};
	json_t *v = json_loads("{\"profile\": \"quick\", \"trials\": 4}", 0, NULL);
	assert_int_equal(assay_timing_parse(&c, v, "$", &t), 0);
	assert_int_equal(t.trials, 4);
	assert_int_equal(t.chain_pairs, 32);
	assert_string_equal(t.profile, "custom");
	json_decref(v);
	v = json_loads("{\"trials\": 4}", 0, NULL);
	assert_int_equal(assay_timing_parse(&c, v, "$", &t), -1);
	assert_string_equal(assay_error_format(&e, msg, sizeof(msg)),
			    "t.json: $.iters_per_trial: missing (expected a positive integer)");
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registry_ok),  cmocka_unit_test(test_registry_errors),
	    cmocka_unit_test(test_sweep_errors), cmocka_unit_test(test_sweep_routing),
	    cmocka_unit_test(test_timing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
