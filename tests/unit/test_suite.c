/* Unit tests for suite files: both kinds, placeholders, strict errors with
 * JSON paths, secrets in the file, signatures and the case plans. */
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
#include "assay/parse.h"
#include "assay/suite.h"
#include "assay/watch.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/assay-test-suite-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/suite.json", dir);
	return chdir(ASSAY_SOURCE_DIR);
}

static char thresholds[160];

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(thresholds);
	return rmdir(dir);
}

static void write_file(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void write_suite(const char *text)
{
	write_file(path, text);
}

/* Load text and expect an error; returns "path: message". */
static const char *load_fails(const char *text)
{
	static char buf[2048];
	struct assay_suite s;
	struct assay_error e;
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_USAGE);
	assert_string_equal(e.file, path);
	snprintf(buf, sizeof(buf), "%s: %s", e.path, e.message);
	return buf;
}

static const char command_suite[] =
    "{\"kind\": \"command\", \"name\": \"train\",\n"
    " \"combos\": {\"bf16-mbs2\": {\"MBS\": 2, \"GBS\": 64, \"PRECISION\": \"BF16\"},\n"
    "              \"fp8 mbs4\": {\"MBS\": 4, \"GBS\": 128, \"PRECISION\": \"FP8\", \"LR\": "
    "0.5}},\n"
    " \"runs\": [\"fp8 mbs4\", \"bf16-mbs2\"],\n"
    " \"argv\": [\"train.sh\", \"--mbs={MBS}\", \"--gbs\", \"{GBS}\", \"{{literal}}\", \"{not a "
    "placeholder\", \"\"],\n"
    " \"env\": {\"OUT_DIR\": \"{CASE_DIR}/x\", \"N\": 3},\n"
    " \"cwd\": \"/tmp\",\n"
    " \"parser\": \"rows\",\n"
    " \"results\": [\"{CASE_DIR}/rows-{MBS}.ndjson\"],\n"
    " \"logs\": [\"{OUT}/{RUN_ID}/node{NODE}.log\"],\n"
    " \"context\": {\"workload\": \"llama\", \"mbs\": \"{MBS}\", \"tag\": \"m{MBS}\"},\n"
    " \"cluster\": \"mi300x-a\", \"nodes\": 2, \"gpus_per_node\": 8, \"timeout_s\": 60,\n"
    " \"secrets\": [\"ASSAY_TEST_TOKEN\"],\n"
    " \"signatures\": {\"errors\": {\"loss-nan\": \"lm loss: nan\"}, \"benign\": {\"ok-warn\": "
    "\"NCCL error .*ignored\"},\n"
    "                 \"disable\": [\"python\"]}}\n";

static void test_command_suite(void **state)
{
	(void)state;
	struct assay_suite s;
	struct assay_error e;
	write_suite(command_suite);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(s.kind, ASSAY_SUITE_COMMAND);
	assert_string_equal(s.name, "train");
	assert_string_equal(s.store, "assay.db");
	assert_string_equal(s.output, "out");
	assert_string_equal(s.launcher_name, "local");
	assert_true(s.timeout_s == 60);
	assert_int_equal(s.n_cases, 2);
	assert_string_equal(s.cases[0].id, "fp8-mbs4"); /* runs order, sanitized */
	assert_string_equal(s.cases[1].id, "bf16-mbs2");
	assert_int_equal(strlen(s.sha256), 64);
	assert_non_null(assay_sigset_find(&s.signatures, "loss-nan"));
	assert_non_null(assay_sigset_find(&s.signatures, "nccl-error"));
	assert_null(assay_sigset_find(&s.signatures, "python-traceback"));

	struct assay_case_plan p;
	assert_int_equal(
	    assay_suite_plan(&s, &s.cases[0], "R1", "out/R1/fp8-mbs4", "assay-ep", &p, &e),
	    ASSAY_OK);
	char *argv = strlist_join(&p.argv, "|");
	assert_string_equal(argv, "train.sh|--mbs=4|--gbs|128|{literal}|{not a placeholder|");
	free(argv);
	assert_true(strlist_has(&p.env, "OUT_DIR=out/R1/fp8-mbs4/x"));
	assert_true(strlist_has(&p.env, "N=3"));
	assert_string_equal(p.cwd, "/tmp");
	assert_string_equal(p.results.v[0], "out/R1/fp8-mbs4/rows-4.ndjson");
	assert_string_equal(p.logs.v[0], "out/R1/node0.log");
	assert_int_equal(p.mpi_ranks, 0);
	assert_string_equal(p.parser, "rows");
	char *ctx = assay_json_dumps(p.context, ASSAY_JSON_SORT);
	assert_string_equal(
	    ctx, "{\"cluster\":\"mi300x-a\",\"combo\":\"fp8 mbs4\",\"mbs\":4,\"precision\":\"fp8\","
		 "\"scale\":\"2x8\",\"suite\":\"train\",\"tag\":\"m4\",\"workload\":\"llama\"}");
	free(ctx);
	assay_case_plan_release(&p);
	assay_suite_release(&s);
}

static void test_command_errors(void **state)
{
	(void)state;
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {\"MBS\": 1}}, \"argv\": "
		       "[\"x\", \"{GBS}\"], "
		       "\"parser\": \"rows\"}"),
	    "$.argv[1]: placeholder {GBS} has no value in combo \"a\" ($.combos.a has: MBS)");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"env\": {\"V\": \"{X}\"}, \"parser\": \"rows\"}"),
	    "$.env.V: placeholder {X} has no value in combo \"a\" ($.combos.a has: nothing)");
	assert_string_equal(load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"runs\": "
				       "[\"b\"], \"argv\": [\"x\"], "
				       "\"parser\": \"rows\"}"),
			    "$.runs[0]: unknown combo \"b\" (combos: a)");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"A b\": {}, \"a-b\": {}}, \"argv\": "
		       "[\"x\"], "
		       "\"parser\": \"rows\"}"),
	    "$.combos.a-b: combo \"a-b\" gives case id \"a-b\", already used by \"A b\"");
	/* The known formats are the table's (others add rows to it). */
	struct sbuf want = SBUF_INIT;
	sbuf_adds(&want, "$.parser: unknown format \"megatorn\" (known: ");
	for (const struct assay_format *f = assay_formats; f->name; f++)
		sbuf_addf(&want, "%s, ", f->name);
	sbuf_adds(&want, "auto, none)");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"megatorn\"}"),
	    sbuf_str(&want));
	sbuf_release(&want);
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"timeout\": 5}"),
	    "$.timeout: unknown key (expected one of: kind, name, description, launcher, store, "
	    "output, cluster, revision, signatures, secrets, env, timeout_s, gates, raw_artifacts, "
	    "container, variants, repeat, expect, "
	    "combos, "
	    "runs, argv, cwd, parser, results, logs, context, nodes, gpus_per_node, training, "
	    "stages, madengine)");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {\"RUN_ID\": 1}}, "
		       "\"argv\": [\"x\"], \"parser\": \"rows\"}"),
	    "$.combos.a.RUN_ID: {RUN_ID} is set by assay itself");
	assert_string_equal(load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {\"X\": [1]}}, "
				       "\"argv\": [\"x\"], \"parser\": \"rows\"}"),
			    "$.combos.a.X: expected a string, number or boolean, got [...]");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"secrets\": [\"TOK\"], \"env\": {\"TOK\": \"v\"}}"),
	    "$.env.TOK: TOK is a secret: it comes from assay's environment, never from the "
	    "suite file");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"signatures\": {\"errors\": {\"x\": \"(\"}}}"),
	    "$.signatures.errors.x: invalid pattern at offset 1: missing closing parenthesis");
	assert_string_equal(
	    load_fails(
		"{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		"\"parser\": \"rows\", \"signatures\": {\"disable\": [\"nccl\", \"nope\"]}}"),
	    "$.signatures.disable[1]: unknown signature or family \"nope\" (see docs/suite.md "
	    "for the built-in signatures)");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"launcher\": {\"type\": \"local\", \"grace\": 1}}"),
	    "$.launcher.grace: unknown key (expected one of: type, grace_s, mpirun, mpirun_args, "
	    "mpirun_auto_flags)");
	assert_string_equal(load_fails("{\"kind\": \"batch\"}"),
			    "$.kind: expected one of \"ep\", \"command\", \"collective\", "
			    "\"inference\", got \"batch\"");
}

static void test_secrets(void **state)
{
	(void)state;
	struct assay_suite s;
	struct assay_error e;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	write_suite(command_suite);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	unsetenv("ASSAY_TEST_TOKEN");
	assert_int_equal(assay_suite_secrets(&s, false, &r, &e), ASSAY_USAGE);
	assert_string_equal(e.path, "$.secrets[0]");
	assert_string_equal(e.message, "secret ASSAY_TEST_TOKEN is not set in the environment");
	assay_redactor_release(&r);
	assert_int_equal(assay_suite_secrets(&s, true, &r, &e), ASSAY_OK); /* --dry-run */
	assay_redactor_release(&r);
	setenv("ASSAY_TEST_TOKEN", "tok-8c1d2e", 1);
	assert_int_equal(assay_suite_secrets(&s, false, &r, &e), ASSAY_OK);
	assert_false(assay_redactor_empty(&r));
	assay_redactor_release(&r);
	assay_suite_release(&s);

	/* The value written into the file itself: refused, naming secret and key. */
	setenv("ASSAY_TEST_TOKEN", "llama", 1);
	write_suite(command_suite);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(assay_suite_secrets(&s, false, &r, &e), ASSAY_USAGE);
	assert_string_equal(e.file, path);
	assert_string_equal(e.path, "$.context.workload");
	assert_string_equal(e.message,
			    "holds the value of secret ASSAY_TEST_TOKEN; secrets reach "
			    "workloads only through assay's environment, remove it from the file");
	assay_redactor_release(&r);
	assay_suite_release(&s);
	unsetenv("ASSAY_TEST_TOKEN");
}

static const char ep_suite[] =
    "{\"kind\": \"ep\", \"platforms\": \"configs/platforms.json\",\n"
    " \"sweep\": {\"suite\": \"qs\", \"routing\": \"uniform\", \"modes\": {\"normal\": "
    "[\"decode\"]},\n"
    "           \"ep_degrees\": [2, 4], \"precisions\": [\"bf16\"], \"timing\": {\"profile\": "
    "\"quick\"%s},\n"
    "           \"workload\": {\"name\": \"deepseek-v3\", \"hidden\": 7168, \"topk\": 8, "
    "\"experts\": 256,\n"
    "                        \"seed\": 67, \"token_ladders\": {\"decode\": [1, 8]}}},\n"
    " \"filters\": {\"sku\": [\"local-cpu\", \"h100\"], \"ep\": [2]}}\n";

static void test_ep_suite(void **state)
{
	(void)state;
	char text[2048];
	snprintf(text, sizeof(text), ep_suite, "");
	struct assay_suite s;
	struct assay_error e;
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_string_equal(s.name, "qs");
	/* local-cpu runs mpi and shm at EP 2; h100 has no EP 2 for its backends. */
	size_t runnable = 0;
	for (size_t i = 0; i < s.n_cases; i++)
		runnable += s.cases[i].runnable;
	assert_int_equal(runnable, 2);
	assert_int_equal(s.n_cases, 6);
	const struct assay_suite_case *c =
	    assay_suite_find_case(&s, "local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16");
	assert_non_null(c);
	assert_int_equal(c->nodes, 1);
	assert_int_equal(c->ranks_per_node, 2);
	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, c, "R1", "out/R1/x", "/bin/assay-ep", &p, &e),
			 ASSAY_OK);
	char *argv = strlist_join(&p.argv, " ");
	assert_string_equal(
	    argv, "/bin/assay-ep run --backend shm --ep 2 --mode normal --phase decode "
		  "--precision bf16 --tokens 1,8 --profile quick --hidden 7168 --experts 256 "
		  "--topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out "
		  "out/R1/x/result.json");
	free(argv);
	assert_int_equal(p.mpi_ranks, 2);
	assert_string_equal(p.parser, "assay-ep");
	assert_null(p.timing_file);
	assay_case_plan_release(&p);
	assay_suite_release(&s);

	/* A custom timing profile travels as a file in the case folder. */
	snprintf(text, sizeof(text), ep_suite, ", \"trials\": 3");
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	c = assay_suite_find_case(&s, "local-cpu-mpi-deepseek-v3-normal-decode-ep2-uniform-bf16");
	assert_int_equal(assay_suite_plan(&s, c, "R1", "out/R1/x", "assay-ep", &p, &e), ASSAY_OK);
	assert_string_equal(p.timing_file, "out/R1/x/timing.json");
	assert_true(strlist_has(&p.argv, "--timing"));
	assert_int_equal(json_integer_value(json_object_get(p.timing, "trials")), 3);
	assert_null(json_object_get(p.timing, "profile")); /* assay-ep reads the six fields */
	assay_case_plan_release(&p);
	assay_suite_release(&s);

	/* Variants of an EP suite: each matrix case once per variant, the
	 * variant's arguments after assay-ep's, its env, and the ab gate between
	 * variants rather than backends. */
	snprintf(text, sizeof(text), ep_suite, "");
	char *end = strrchr(text, '}');
	snprintf(end, sizeof(text) - (size_t)(end - text),
		 ", \"variants\": {\"a\": {}, \"b\": {\"args\": [\"--note\", \"{CASE_ID}\"], "
		 "\"env\": {\"OMP_NUM_THREADS\": \"1\"}}},\n"
		 " \"gates\": {\"ab\": {\"baseline\": \"a\", \"candidate\": \"b\", "
		 "\"threshold\": 0.5}}}\n");
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(s.n_cases, 12);
	assert_true(s.gates.ab.variants);
	c = assay_suite_find_case(&s, "local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16.b");
	assert_non_null(c);
	assert_true(c == assay_suite_find_case(
			     &s, "local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16.a") +
			     1);
	assert_string_equal(c->variant->name, "b");
	assert_int_equal(assay_suite_plan(&s, c, "R1", "out/R1/x", "assay-ep", &p, &e), ASSAY_OK);
	argv = strlist_join(&p.argv, " ");
	assert_non_null(strstr(argv, "--out out/R1/x/result.json --note "
				     "local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16.b"));
	free(argv);
	assert_true(strlist_has(&p.env, "OMP_NUM_THREADS=1"));
	assert_string_equal(json_string_value(json_object_get(p.context, "variant")), "b");
	assay_case_plan_release(&p);
	assay_suite_release(&s);
}

static void test_ep_errors(void **state)
{
	(void)state;
	char text[2048];
	snprintf(text, sizeof(text), ep_suite, ", \"trials\": \"8\"");
	assert_string_equal(load_fails(text),
			    "$.sweep.timing.trials: expected a positive integer, got \"8\"");
	assert_string_equal(
	    load_fails("{\"kind\": \"ep\", \"platforms\": \"configs/platforms.json\", \"sweep\": "
		       "\"configs/sweep-local.json\", \"filters\": {\"sku\": [\"h900\"]}}"),
	    "$.filters.sku: unknown value \"h900\" (known: b200, b300, gb200, gb300, h100, h200, "
	    "local-cpu, mi300x, mi325x, mi355x)");
	assert_string_equal(
	    load_fails("{\"kind\": \"ep\", \"platforms\": \"configs/platforms.json\"}"),
	    "$.sweep: missing (expected a sweep file or object)");
	assert_string_equal(
	    load_fails("{\"kind\": \"ep\", \"platforms\": \"configs/platforms.json\", "
		       "\"sweep\": \"configs/sweep-local.json\", \"combos\": {}}"),
	    "$.combos: unknown key (expected one of: kind, name, description, launcher, "
	    "store, output, cluster, revision, signatures, secrets, env, timeout_s, gates, "
	    "raw_artifacts, container, variants, repeat, expect, "
	    "platforms, sweep, filters, assay_ep)");
}

/* A training suite with every gate: %s is the thresholds file, %s more keys. */
static const char gated_suite[] =
    "{\"kind\": \"command\", \"name\": \"t\",\n"
    " \"combos\": {\"n1\": {\"MBS\": 1, \"GBS\": 8, \"PRECISION\": \"bf16\", \"NODES\": 1, "
    "\"SEQ\": 4096},\n"
    "              \"n2\": {\"MBS\": 1, \"GBS\": 16, \"PRECISION\": \"BF16\", \"NODES\": \"2\", "
    "\"SEQ\": 4096},\n"
    "              \"save\": {\"NODES\": 1, \"SEQ\": 2048}, \"resume\": {\"NODES\": 1, \"SEQ\": "
    "2048}},\n"
    " \"argv\": [\"replay\"], \"parser\": \"megatron\", \"nodes\": \"{NODES}\", \"gpus_per_node\": "
    "8,\n"
    " \"training\": {\"seq_len\": \"{SEQ}\", \"warmup\": \"3,20%%\"},\n"
    " \"gates\": {\"thresholds\": \"%s\", \"loss_curve\": {\"max_slope\": 0},\n"
    "   \"convergence\": {\"target_value\": 9.5},\n"
    "   \"scaling\": {\"baseline\": \"n1\", \"combos\": [\"n2\"], \"min_efficiency\": 90},\n"
    "   \"checkpoint\": {\"save\": \"save\", \"resume\": \"resume\", \"loss_rtol\": 0.01},\n"
    "   \"regression\": {\"changepoint\": {\"window\": 20, \"threshold\": 0.05}, \"rolling_mean\": "
    "{\"min_history\": 1}, \"metrics\": [\"tflops_per_gpu/steady_mean\", "
    "\"tokens_per_gpu\"]}%s}}\n";

static const char gated_thresholds[] =
    "{\"cells\": {\"default\": {\"lm_loss\": {\"kind\": \"max\", \"value\": 10}},\n"
    "            \"MBS=1,GBS=8,PRECISION=BF16\": {\"tflops_per_gpu\": {\"kind\": \"min\", "
    "\"value\": 400}},\n"
    "            \"MBS=1,GBS=16,PRECISION=BF16\": {\"tflops_per_gpu\": {\"kind\": \"min\", "
    "\"value\": 400}}}}\n";

static const char *gated_fails(const char *th, const char *more)
{
	static char text[4096];
	write_file(thresholds, th);
	snprintf(text, sizeof(text), gated_suite, thresholds, more);
	return load_fails(text);
}

static void test_gates(void **state)
{
	(void)state;
	char text[4096];
	struct assay_suite s;
	struct assay_error e;
	snprintf(thresholds, sizeof(thresholds), "%s/thresholds.json", dir);
	write_file(thresholds, gated_thresholds);
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	const struct assay_suite_gates *g = &s.gates;
	assert_true(g->thresholds_on && g->loss_curve_on && g->convergence_on && g->scaling_on &&
		    g->checkpoint_on && g->regression_on);
	assert_false(g->ab_on);
	/* Each case's cell, scale, and training settings from its combo. */
	assert_string_equal(s.cases[0].cell, "MBS=1,GBS=8,PRECISION=BF16");
	assert_string_equal(s.cases[1].cell, "MBS=1,GBS=16,PRECISION=BF16");
	assert_string_equal(s.cases[2].cell, "default");
	assert_int_equal(s.cases[0].nodes, 1);
	assert_int_equal(s.cases[1].nodes, 2);
	assert_int_equal(s.cases[1].ranks_per_node, 8);
	assert_int_equal(s.cases[1].train.world_size, 16);
	assert_int_equal(s.cases[1].train.seq_len, 4096);
	assert_int_equal(s.cases[2].train.seq_len, 2048);
	assert_int_equal(s.cases[0].train.warmup_min, 3);
	assert_true(s.cases[0].train.warmup_percent == 20);
	assert_string_equal(g->scaling.baseline, "n1");
	assert_int_equal(g->scaling.cases.n, 1);
	assert_true(g->scaling.min_efficiency == 90);
	assert_string_equal(g->checkpoint.save, "save");
	assert_string_equal(g->checkpoint.resume, "resume");
	assert_true(g->checkpoint.spec.loss_rtol == 0.01);
	assert_int_equal(g->regression.config.detect.window, 20);
	assert_true(g->regression.config.cp_threshold == 0.05);
	assert_int_equal(g->regression.config.rm_min_history, 1);
	assert_true(g->regression.config.rolling_mean && g->regression.config.changepoint);
	struct assay_row r = {0};
	r.metric = "tokens_per_gpu";
	r.statistic = "running_avg";
	assert_true(assay_suite_metric_selected(&g->regression.metrics, &r));
	r.metric = "tflops_per_gpu";
	assert_false(assay_suite_metric_selected(&g->regression.metrics, &r));
	r.statistic = "steady_mean";
	assert_true(assay_suite_metric_selected(&g->regression.metrics, &r));
	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, &s.cases[1], "R", "out/R/n2", NULL, &p, &e),
			 ASSAY_OK);
	assert_string_equal(json_string_value(json_object_get(p.context, "scale")), "2x8");
	assay_case_plan_release(&p);
	/* The thresholds file is part of the suite's digest: a resume needs the same. */
	char sha[65];
	snprintf(sha, sizeof(sha), "%s", s.sha256);
	assay_suite_release(&s);
	write_file(thresholds, "{\"enforce\": false, \"cells\": {\"default\": {}}}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_string_not_equal(sha, s.sha256);
	assay_suite_release(&s);

	/* Errors: every one names the file and the JSON path, before anything runs. */
	assert_string_equal(
	    gated_fails(gated_thresholds, ", \"ab\": {}"),
	    "$.gates.ab: compares two backends of an EP suite at each point, or two variants "
	    "(\"variants\"); this suite has neither");
	assert_string_equal(gated_fails(gated_thresholds, ", \"extra\": 1"),
			    "$.gates.extra: unknown key (expected one of: thresholds, loss_curve, "
			    "convergence, scaling, checkpoint, regression, ab)");
	write_file(thresholds, gated_thresholds);
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	char *at = strstr(text, "\"baseline\": \"n1\", \"combos\": [\"n2\"]");
	memcpy(at, "\"baseline\": \"n2\", \"combos\": [\"n1\"]", 34);
	assert_string_equal(
	    load_fails(text),
	    "$.gates.scaling.combos[0]: the baseline combo must run before \"n1\" (order "
	    "$.runs so that it comes first)");
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	char *ck = strstr(text, "\"loss_rtol\"");
	memcpy(ck, "\"loss_rtox\"", 11);
	assert_string_equal(
	    load_fails(text),
	    "$.gates.checkpoint.loss_rtox: unknown key (expected one of: save, resume, "
	    "loss_rtol, overlap_rtol, last_checkpoint, enforce)");
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	char *sv = strstr(text, "{\"save\": \"save\", \"resume\": \"resume\"");
	memcpy(sv, "{\"save\": \"resu\", \"resume\": \"resume\"", 35);
	assert_string_equal(load_fails(text),
			    "$.gates.checkpoint.save: combo \"resu\" is not one of the runs");
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	char *win = strstr(text, "\"window\": 20");
	memcpy(win, "\"window\":  1", 12);
	assert_string_equal(load_fails(text), "$.gates.regression.changepoint.window: expected an "
					      "integer from 2 to 100000, got 1");
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	char *sq = strstr(text, "\"SEQ\": 2048}, \"resume\"");
	memcpy(sq, "\"SEQ\": \"x\" }, \"resume\"", 22);
	assert_string_equal(
	    load_fails(text),
	    "$.training.seq_len: {SEQ} of combo \"save\" must be an integer from 1 to "
	    "1099511627776");

	/* The thresholds file's own errors name it; so do its cells against the combos. */
	struct assay_suite s2;
	write_file(thresholds, "{\"cells\": {\"MBS=1,GBS=8,PRECISION=BF16\": {}}}");
	snprintf(text, sizeof(text), gated_suite, thresholds, "");
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s2, &e), ASSAY_USAGE);
	assert_string_equal(e.file, thresholds);
	assert_string_equal(e.message, "no cell for combo \"MBS=1,GBS=16,PRECISION=BF16\" and no "
				       "\"default\" cell");
	write_file(thresholds,
		   "{\"cells\": {\"default\": {}, \"MBS=9,GBS=8,PRECISION=BF16\": {}}}");
	assert_int_equal(assay_suite_load(path, &s2, &e), ASSAY_USAGE);
	assert_string_equal(e.path, "$.cells[\"MBS=9,GBS=8,PRECISION=BF16\"]");
	assert_string_equal(e.message, "orphan cell: no run uses this combo");

	/* Training gates need a training parser; thresholds need whole cells. */
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"gates\": {\"loss_curve\": {\"max_slope\": 0}}}"),
	    "$.gates.loss_curve: judges a training log: it needs parser megatron, primus, "
	    "megatron-golden or auto, not \"rows\"");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"training\": {\"seq_len\": 8}}"),
	    "$.training: applies to training logs: parser megatron, primus, "
	    "megatron-golden or auto, not \"rows\"");
	write_file(thresholds, "{\"cells\": {\"default\": {}}}");
	snprintf(text, sizeof(text),
		 "{\"kind\": \"command\", \"combos\": {\"a\": {\"MBS\": 2}}, \"argv\": [\"x\"], "
		 "\"parser\": \"rows\", \"gates\": {\"thresholds\": \"%s\"}}",
		 thresholds);
	assert_string_equal(load_fails(text),
			    "$.combos.a: a thresholds cell needs MBS, GBS and "
			    "PRECISION (or none of them, for the \"default\" cell); "
			    "this combo has MBS=2");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"nodes\": \"{NODES}\"}"),
	    "$.nodes: placeholder {NODES} has no value in combo \"a\"");
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
		       "\"parser\": \"rows\", \"gates\": {\"regression\": {\"changepoint\": "
		       "false, \"rolling_mean\": false}}}"),
	    "$.gates.regression: both changepoint and rolling_mean are off; remove the "
	    "block instead");
}

static void test_ep_gates(void **state)
{
	(void)state;
	char text[4096];
	struct assay_suite s;
	struct assay_error e;
	/* Baseline shm, candidate mpi: the matrix lists mpi first, so each mpi
	 * case moves to run right after its shm baseline. */
	snprintf(text, sizeof(text), ep_suite, "");
	text[strlen(text) - 2] = '\0';
	strcat(text,
	       ", \"gates\": {\"ab\": {\"baseline\": \"shm\", \"candidate\": \"mpi\", "
	       "\"threshold\": 0.5, \"metrics\": [\"latency_us/p50\"]}, \"regression\": {}}}\n");
	write_suite(text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_true(s.gates.ab_on && s.gates.regression_on);
	struct sbuf order = SBUF_INIT;
	for (size_t i = 0; i < s.n_cases; i++) {
		const char *b = json_string_value(json_object_get(s.cases[i].factors, "backend"));
		if (strcmp(json_string_value(json_object_get(s.cases[i].factors, "sku")),
			   "local-cpu"))
			continue;
		sbuf_addf(&order, "%s%s", order.len ? " " : "", b);
		if (!strcmp(b, "mpi")) {
			assert_true(s.cases[i].ab_baseline >= 0 &&
				    (size_t)s.cases[i].ab_baseline < i);
			const struct assay_suite_case *base = &s.cases[s.cases[i].ab_baseline];
			assert_string_equal(
			    json_string_value(json_object_get(base->factors, "backend")), "shm");
			assert_int_equal(
			    json_integer_value(json_object_get(base->factors, "ep")),
			    json_integer_value(json_object_get(s.cases[i].factors, "ep")));
		} else {
			assert_int_equal(s.cases[i].ab_baseline, -1);
		}
	}
	assert_string_equal(sbuf_str(&order), "shm mpi");
	sbuf_release(&order);
	assay_suite_release(&s);
	snprintf(text, sizeof(text), ep_suite, "");
	text[strlen(text) - 2] = '\0';
	strcat(text, ", \"gates\": {\"ab\": {\"baseline\": \"nccl2\", \"candidate\": \"mpi\", "
		     "\"threshold\": 0.5}}}\n");
	assert_string_equal(load_fails(text),
			    "$.gates.ab.baseline: no case of the matrix has backend "
			    "\"nccl2\"");
	snprintf(text, sizeof(text), ep_suite, "");
	text[strlen(text) - 2] = '\0';
	strcat(text, ", \"gates\": {\"thresholds\": \"x.json\"}}\n");
	assert_string_equal(load_fails(text), "$.gates.thresholds: applies to command suites (EP "
					      "suites take regression and ab)");
}

static void test_template(void **state)
{
	(void)state;
	json_t *vars = json_pack("{s:i, s:f, s:b, s:s}", "A", 3, "B", 0.25, "C", 1, "D", "x y");
	struct sbuf sb = SBUF_INIT;
	char *missing;
	assert_int_equal(
	    assay_template_expand("{A}-{B}-{C}-{D}-{{A}}-{ A}-{9}-{", vars, &sb, &missing), 0);
	assert_string_equal(sbuf_str(&sb), "3-0.25-true-x y-{A}-{ A}-{9}-{");
	sbuf_reset(&sb);
	assert_int_equal(assay_template_expand("a{E}b", vars, &sb, &missing), -1);
	assert_string_equal(missing, "E");
	free(missing);
	sbuf_release(&sb);
	json_decref(vars);
}

/* Lifecycle stages: cases in stage order, a command stage is one case
 * with its own argv and parser none; errors name the JSON path. */
static void test_stages(void **state)
{
	(void)state;
	struct assay_suite s;
	struct assay_error e;
	write_suite(
	    "{\"kind\": \"command\", \"combos\": {\"a\": {\"N\": 1}, \"b\": {\"N\": 2}},\n"
	    " \"argv\": [\"run\", \"{N}\"], \"parser\": \"rows\", \"env\": {\"X\": \"{N}\", "
	    "\"Y\": \"y\"},\n"
	    " \"stages\": [{\"name\": \"setup\", \"argv\": [\"prep\", \"{CASE_DIR}\"]},\n"
	    "  {\"name\": \"main\", \"runs\": [\"b\", \"a\"]},\n"
	    "  {\"name\": \"teardown\", \"argv\": [\"clean\"]}]}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_true(s.staged);
	assert_int_equal(s.n_cases, 4);
	const char *ids[] = {"setup", "b", "a", "teardown"};
	const char *stages[] = {"setup", "main", "main", "teardown"};
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(s.cases[i].id, ids[i]);
		assert_string_equal(s.cases[i].stage, stages[i]);
	}
	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, &s.cases[0], "R", "/o/R/setup", NULL, &p, &e),
			 ASSAY_OK);
	assert_int_equal(p.argv.n, 2);
	assert_string_equal(p.argv.v[1], "/o/R/setup");
	assert_string_equal(p.parser, "none");
	assert_int_equal(p.results.n, 0);
	assert_int_equal(p.env.n, 1); /* X needs a combo value: left out */
	assert_string_equal(p.env.v[0], "Y=y");
	assay_case_plan_release(&p);
	assert_int_equal(assay_suite_plan(&s, &s.cases[1], "R", "/o/R/b", NULL, &p, &e), ASSAY_OK);
	assert_string_equal(p.argv.v[1], "2");
	assert_string_equal(p.parser, "rows");
	assay_case_plan_release(&p);
	assay_suite_release(&s);

	const char *head = "{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"x\"], "
			   "\"parser\": \"none\", ";
	struct {
		const char *stages, *want;
	} bad[] = {
	    {"\"stages\": []", "$.stages: expected a non-empty array of stages, got []"},
	    {"\"runs\": [\"a\"], \"stages\": [{\"name\": \"m\", \"runs\": [\"a\"]}]",
	     "$.runs: a suite with stages lists its runs in each stage ($.stages[].runs)"},
	    {"\"stages\": [{\"name\": \"m\"}]",
	     "$.stages[0]: a stage has \"runs\" (combos) or \"argv\" (a command), found neither"},
	    {"\"stages\": [{\"name\": \"m\", \"runs\": [\"a\"]}, {\"name\": \"m\", \"argv\": "
	     "[\"y\"]}]",
	     "$.stages[1].name: stage \"m\" is listed twice"},
	    {"\"stages\": [{\"name\": \"a\", \"argv\": [\"y\"]}, {\"name\": \"m\", \"runs\": "
	     "[\"a\"]}]",
	     "$.stages[1].runs[0]: combo \"a\" gives case id \"a\", already used by stage \"a\""},
	    {"\"stages\": [{\"name\": \"s\", \"argv\": [\"y\", \"{N}\"]}]",
	     "$.stages[0].argv[1]: placeholder {N} has no value (a command stage has assay's own "
	     "placeholders only)"},
	    {"\"stages\": [{\"name\": \"a b\", \"argv\": [\"y\"]}]",
	     "$.stages[0].name: a stage name is a case id: letters, digits, '.', '_' and '-' (got "
	     "\"a b\")"},
	    {"\"stages\": [{\"name\": \"m\", \"runs\": [\"a\"], \"when\": 1}]",
	     "$.stages[0].when: unknown key (expected one of: name, runs, argv)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *text = xasprintf("%s%s}", head, bad[i].stages);
		assert_string_equal(load_fails(text), bad[i].want);
		free(text);
	}
}

/* Variants and repeats (docs/suite.md, "Variants"): every case once per
 * repeat and variant, interleaved, each variant's overrides on the plan, the
 * variant in the factors and the series; bad blocks located. */
static const char variant_suite[] =
    "{\"kind\": \"command\", \"name\": \"ab\",\n"
    " \"combos\": {\"a\": {\"N\": 1}, \"b\": {\"N\": 2}},\n"
    " \"argv\": [\"run.sh\", \"--lib={LIB}\", \"{N}\"],\n"
    " \"env\": {\"KEEP\": \"x\", \"LD_LIBRARY_PATH\": \"/usr/lib\"},\n"
    " \"parser\": \"rows\",\n"
    " \"variants\": {\"base\": {\"vars\": {\"LIB\": \"stock\"}},\n"
    "              \"cand\": {\"vars\": {\"LIB\": \"new\"}, \"env\": {\"KEEP\": \"y\", \"F\": "
    "\"{N}\"},\n"
    "                       \"args\": [\"--extra\"], \"ld_library_path\": [\"/opt/{LIB}\"],\n"
    "                       \"ld_preload\": [\"/opt/x.so\"]}},\n"
    " \"repeat\": 2,\n"
    " \"gates\": {\"ab\": {\"baseline\": \"base\", \"candidate\": \"cand\", \"threshold\": "
    "0.02}}}\n";

static void test_variants(void **state)
{
	(void)state;
	struct assay_suite s;
	struct assay_error e;
	write_suite(variant_suite);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	static const char *const ids[] = {"a.base.1", "a.cand.1", "a.base.2", "a.cand.2",
					  "b.base.1", "b.cand.1", "b.base.2", "b.cand.2"};
	assert_int_equal(s.n_cases, 8);
	for (size_t i = 0; i < 8; i++) {
		assert_string_equal(s.cases[i].id, ids[i]);
		assert_string_equal(s.cases[i].base, i < 4 ? "a" : "b");
		assert_int_equal(s.cases[i].rep, (long long)(i / 2 % 2 + 1));
		assert_string_equal(
		    json_string_value(json_object_get(s.cases[i].factors, "variant")),
		    i % 2 ? "cand" : "base");
	}
	assert_true(s.gates.ab_on && s.gates.ab.variants);
	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, &s.cases[1], "R", "out/R/a.cand.1", NULL, &p, &e),
			 ASSAY_OK);
	char *argv = strlist_join(&p.argv, " "), *env = strlist_join(&p.env, " ");
	assert_string_equal(argv, "run.sh --lib=new 1 --extra");
	assert_non_null(strstr(env, "KEEP=y"));
	assert_non_null(strstr(env, "F=1"));
	assert_non_null(strstr(env, "LD_LIBRARY_PATH=/opt/new:/usr/lib"));
	assert_non_null(strstr(env, "LD_PRELOAD=/opt/x.so"));
	assert_null(strstr(env, "KEEP=x"));
	assert_string_equal(json_string_value(json_object_get(p.context, "variant")), "cand");
	free(argv);
	free(env);
	assay_case_plan_release(&p);
	assert_int_equal(assay_suite_plan(&s, &s.cases[0], "R", "out/R/a.base.1", NULL, &p, &e),
			 ASSAY_OK);
	argv = strlist_join(&p.argv, " ");
	env = strlist_join(&p.env, " ");
	assert_string_equal(argv, "run.sh --lib=stock 1");
	assert_string_equal(env, "KEEP=x LD_LIBRARY_PATH=/usr/lib");
	free(argv);
	free(env);
	assay_case_plan_release(&p);
	assay_suite_release(&s);

	/* Errors name the JSON path. */
	static const struct {
		const char *patch, *want;
	} bad[] = {
	    {"\"variants\": {\"only\": {}}",
	     "$.variants: expected at least two variants (a baseline and a candidate), got 1"},
	    {"\"variants\": {\"a b\": {}, \"c\": {}}",
	     "$.variants[\"a b\"]: a variant name is part of case ids: letters, digits, '_' and "
	     "'-' "
	     "(got \"a b\")"},
	    {"\"variants\": {\"x\": {\"argv\": []}, \"y\": {}}",
	     "$.variants.x.argv: unknown key (expected one of: env, vars, args, image, "
	     "ld_library_path, ld_preload)"},
	    {"\"variants\": {\"x\": {\"image\": \"img\"}, \"y\": {}}",
	     "$.variants.x.image: replaces the container's image: the suite has no \"container\" "
	     "block (docs/containers.md)"},
	    {"\"variants\": {\"x\": {\"env\": {\"LD_PRELOAD\": \"/a.so\"}}, \"y\": {}}",
	     "$.variants.x.env.LD_PRELOAD: set with \"ld_preload\" (a list of paths)"},
	    {"\"variants\": {\"x\": {\"args\": [\"{NOPE}\"]}, \"y\": {}}",
	     "$.variants.x.args[0]: placeholder {NOPE} has no value"},
	    {"\"variants\": {\"x\": {}, \"y\": {}}, \"gates\": {\"ab\": {\"baseline\": \"x\", "
	     "\"candidate\": \"z\", \"threshold\": 0.1}}",
	     "$.gates.ab.candidate: no variant \"z\" (variants: x, y)"},
	    {"\"repeat\": 0", "$.repeat: expected an integer from 1 to 1000, got 0"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"t\"], "
			 "\"parser\": \"rows\", %s}",
			 bad[i].patch);
		assert_string_equal(load_fails(text), bad[i].want);
	}
	/* A placeholder only one variant fills. */
	assert_string_equal(
	    load_fails("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"t\", "
		       "\"{LIB}\"], \"parser\": \"rows\", \"variants\": {\"x\": {\"vars\": "
		       "{\"LIB\": 1}}, \"y\": {}}}"),
	    "$.argv[1]: placeholder {LIB} has no value in combo \"a\" with variant \"y\" (they "
	    "have: nothing)");
}

/* Provenance expectations: loaded in order, per node by default, patterns
 * filled per case (a combo's value, a built-in) and compiled; the run asks
 * for per-task logs only when one is per rank. */
static void test_expect(void **state)
{
	(void)state;
	struct assay_suite s;
	struct assay_error e;
	write_suite("{\"kind\": \"command\", \"combos\": {\"a\": {\"V\": \"2\\\\.22\\\\.3\"}},"
		    " \"argv\": [\"true\"], \"parser\": \"none\","
		    " \"expect\": [{\"name\": \"rccl\", \"pattern\": \"RCCL version {V}\"},"
		    " {\"name\": \"host\", \"pattern\": \"on {HOST}\\\\b\", \"per\": \"rank\"}]}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(s.n_expect, 2);
	assert_string_equal(s.expect[0].name, "rccl");
	assert_int_equal(s.expect[0].per, ASSAY_EXPECT_NODE);
	assert_int_equal(s.expect[1].per, ASSAY_EXPECT_RANK);
	assert_true(assay_suite_expect_per_rank(&s));
	json_t *vars = assay_suite_case_vars(&s, &s.cases[0], "R", "out/R/a");
	json_object_set_new(vars, "HOST", json_string("n07"));
	struct assay_expect_plan p;
	assert_int_equal(assay_suite_expect_plan(&s, vars, &p, &e), ASSAY_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.v[0].pattern, "RCCL version 2\\.22\\.3");
	assert_string_equal(p.v[1].pattern, "on n07\\b");
	const char *log = "x\nNCCL INFO RCCL version 2.22.3+hip6.2\n";
	size_t a0, a1;
	assert_true(assay_pattern_search(p.v[0].code, log, strlen(log), &a0, &a1));
	assert_int_equal(a0, 12);
	assert_int_equal(a1, 31);
	assert_false(assay_pattern_search(p.v[0].code, "RCCL version 2x22x3", 19, &a0, &a1));
	assay_expect_plan_release(&p);
	json_decref(vars);
	assay_suite_release(&s);

	/* Without per-rank expectations nothing asks for per-task logs. */
	write_suite("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"true\"],"
		    " \"parser\": \"none\", \"expect\": [{\"name\": \"n\", \"pattern\": \"x\"}]}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_false(assay_suite_expect_per_rank(&s));
	assay_suite_release(&s);

	const char *head = "{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"true\"], "
			   "\"parser\": \"none\", \"expect\": ";
	static const struct {
		const char *expect, *want;
	} bad[] = {
	    {"[{\"name\": \"n\", \"pattern\": \"\"}]",
	     "$.expect[0].pattern: expected a non-empty string, got \"\""},
	    {"[{\"name\": \"\", \"pattern\": \"x\"}]",
	     "$.expect[0].name: expected a non-empty string, got \"\""},
	    {"[{\"name\": \"n\", \"pattern\": \"x\", \"where\": 1}]",
	     "$.expect[0].where: unknown key (expected one of: name, pattern, per)"},
	    {"[\"x\"]", "$.expect[0]: expected an object with name, pattern and per, got \"x\""},
	    {"[{\"name\": \"n\", \"pattern\": \"(x\"}]",
	     "$.expect[0].pattern: invalid pattern at offset 2: missing closing parenthesis"},
	    {"[{\"name\": \"n\", \"pattern\": \"x\", \"per\": \"gpu\"}]",
	     "$.expect[0].per: expected one of \"node\", \"rank\", got \"gpu\""},
	    {"{\"name\": 1}",
	     "$.expect: expected an array of {\"name\", \"pattern\", \"per\"} objects, got {...}"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *text = xasprintf("%s%s}", head, bad[i].expect);
		assert_string_equal(load_fails(text), bad[i].want);
		free(text);
	}
}

/* A variant's vars fill the expectations too: the candidate expects its own
 * version string (docs/suite.md, "Provenance"). */
static void test_expect_variants(void **state)
{
	(void)state;
	struct assay_suite s;
	struct assay_error e;
	write_suite("{\"kind\": \"command\", \"combos\": {\"a\": {}}, \"argv\": [\"true\"],"
		    " \"parser\": \"none\","
		    " \"variants\": {\"stock\": {\"vars\": {\"RCCL\": \"2\\\\.22\\\\.3\"}},"
		    " \"overlay\": {\"vars\": {\"RCCL\": \"2\\\\.23\\\\.0\"}}},"
		    " \"expect\": [{\"name\": \"rccl\", \"pattern\": \"RCCL version {RCCL}\"}]}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(s.n_cases, 2);
	static const char *const want[] = {"RCCL version 2\\.22\\.3", "RCCL version 2\\.23\\.0"};
	for (size_t i = 0; i < 2; i++) {
		json_t *vars = assay_suite_case_vars(&s, &s.cases[i], "R", "out/R/x");
		struct assay_expect_plan p;
		assert_int_equal(assay_suite_expect_plan(&s, vars, &p, &e), ASSAY_OK);
		assert_string_equal(p.v[0].pattern, want[i]);
		size_t a0, a1;
		const char *log = i ? "RCCL version 2.23.0" : "RCCL version 2.22.3";
		assert_true(assay_pattern_search(p.v[0].code, log, strlen(log), &a0, &a1));
		const char *other = i ? "RCCL version 2.22.3" : "RCCL version 2.23.0";
		assert_false(assay_pattern_search(p.v[0].code, other, strlen(other), &a0, &a1));
		assay_expect_plan_release(&p);
		json_decref(vars);
	}
	assay_suite_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stages),          cmocka_unit_test(test_command_suite),
	    cmocka_unit_test(test_command_errors),  cmocka_unit_test(test_secrets),
	    cmocka_unit_test(test_ep_suite),        cmocka_unit_test(test_ep_errors),
	    cmocka_unit_test(test_gates),           cmocka_unit_test(test_ep_gates),
	    cmocka_unit_test(test_template),        cmocka_unit_test(test_expect),
	    cmocka_unit_test(test_expect_variants), cmocka_unit_test(test_variants),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
