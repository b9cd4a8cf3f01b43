/* Unit tests for the Slurm batch-script and srun generator: exact script text
 * for a multi-node GPU job, shell quoting of hostile strings (checked by
 * running bash on the output), generated scripts (inline steps and spool
 * mode) run against fake srun and scontrol programs, secrets never written,
 * and every refusal. */
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
#include "assay/slurm.h"

static const char *const hostile[] = {
    "it's",        "$(touch /tmp/assay-pwned)",
    "`id`",        "a\nb",
    "back\\slash", "--x=$HOME",
    "~",           "*",
    "!!",          "a b\tc",
    "'",           "\"",
    "caf\xc3\xa9", ";rm -rf /",
    "X=1",         "%j%N",
    "-n",          "${IFS}",
    "\\'\\",
};

static char *slurp(const char *path)
{
	struct assay_error e;
	char *s = assay_read_file(path, NULL, &e);
	assert_non_null(s);
	return s;
}

/* Run a bash script; returns its stdout. */
static char *run_bash(const char *script, const char *dir)
{
	char path[512], cmd[1100];
	snprintf(path, sizeof(path), "%s/script.sh", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "bash %s 2>&1", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct sbuf out = SBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		sbuf_add(&out, buf, n);
	pclose(p);
	return sbuf_detach(&out, NULL);
}

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/assay-test-slurm-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_shell_quote(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	assay_shell_quote(&sb, "plain-word_1.2/x:y@z%+,");
	assert_string_equal(sbuf_str(&sb), "plain-word_1.2/x:y@z%+,");
	sbuf_reset(&sb);
	assay_shell_quote(&sb, "");
	assert_string_equal(sbuf_str(&sb), "''");
	sbuf_reset(&sb);
	assay_shell_quote(&sb, "it's");
	assert_string_equal(sbuf_str(&sb), "'it'\\''s'");
	sbuf_reset(&sb);
	assay_shell_quote(&sb, "X=1");
	assert_string_equal(sbuf_str(&sb), "'X=1'");
	sbuf_reset(&sb);
	assay_shell_quote(&sb, "--mpi=pmix");
	assert_string_equal(sbuf_str(&sb), "--mpi=pmix");

	/* bash reads every hostile word back exactly. */
	sbuf_reset(&sb);
	struct sbuf want = SBUF_INIT;
	sbuf_adds(&sb, "set -u\nfor w in");
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		sbuf_addch(&sb, ' ');
		assay_shell_quote(&sb, hostile[i]);
		sbuf_addf(&want, "<%s>\n", hostile[i]);
	}
	sbuf_adds(&sb, "; do printf '<%s>\\n' \"$w\"; done\n");
	char *got = run_bash(sbuf_str(&sb), tmpdir);
	assert_string_equal(got, sbuf_str(&want));
	assert_int_equal(access("/tmp/assay-pwned", F_OK), -1);
	free(got);
	sbuf_release(&sb);
	sbuf_release(&want);
}

/* The multi-node GPU examples of docs/slurm.md: an EP shard (two cases in one
 * job, assay-ep under srun --mpi=pmix) and a command workload (torchrun). */
#define CASE_DECODE  "h100-nccl-deepseek-v3-normal-decode-ep16-uniform-bf16"
#define CASE_PREFILL "h100-nccl-deepseek-v3-normal-prefill-ep16-uniform-bf16"
static const char *const ep_decode[] = {"/opt/assay/bin/assay-ep",
					"run",
					"--case",
					"/runs/r1/cases/" CASE_DECODE ".json",
					"--out",
					"/runs/r1/" CASE_DECODE "/result.json"};
static const char *const ep_prefill[] = {"/opt/assay/bin/assay-ep",
					 "run",
					 "--case",
					 "/runs/r1/cases/" CASE_PREFILL ".json",
					 "--out",
					 "/runs/r1/" CASE_PREFILL "/result.json"};
/* argv words are never expanded by the shell; a command that needs the job's
 * variables says so with bash -c, as here. */
static const char *const train_argv[] = {
    "bash", "-c",
    "exec torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d "
    "--rdzv-id=$SLURM_JOB_ID --rdzv-endpoint=$MASTER_ADDR:$MASTER_PORT "
    "pretrain.py --config configs/llama-8b.yaml"};

static void gpu_options(struct assay_slurm_options *o)
{
	struct assay_error e;
	struct assay_cfg c = {"suite.json", &e};
	const char *text = "{\"type\": \"slurm\", \"partition\": \"gpu\", \"account\": \"perf\","
			   " \"qos\": \"high\", \"time\": \"00:30:00\", \"exclusive\": true,"
			   " \"constraint\": \"h100&ib\", \"exclude\": \"gpu[007,013]\","
			   " \"sbatch_args\": [\"--mem=0\", \"--comment=assay suite\"],"
			   " \"srun_args\": [\"--cpu-bind=none\"]}";
	json_t *v = assay_json_loadb(text, strlen(text), "suite.json", &e);
	assert_non_null(v);
	assay_slurm_options_init(o);
	assert_int_equal(assay_slurm_options_parse(&c, v, "$.launcher", o), 0);
	json_decref(v);
}

/* Compare with a golden file (ASSAY_GOLDEN_UPDATE=1 rewrites it: read the diff). */
static void check_golden(const struct sbuf *sb, const char *golden)
{
	struct assay_error e;
	if (getenv("ASSAY_GOLDEN_UPDATE"))
		assert_int_equal(assay_write_file_atomic(golden, sb->buf, sb->len, &e), ASSAY_OK);
	char *want = slurp(golden);
	assert_string_equal(sbuf_str(sb), want);
	free(want);
}

static void test_script_gpu_example(void **state)
{
	(void)state;
	struct assay_slurm_options o;
	gpu_options(&o);
	const char *net_text = "{\"socket_ifname\": \"eth0\", \"rdma_devices\": [\"mlx5_0\", "
			       "\"mlx5_1\"], \"ib_gid_index\": 3, \"master_port\": 29600}";
	json_t *net = json_loads(net_text, 0, NULL);
	const struct assay_slurm_env env[] = {{"ASSAY_RUN_ID", "r1"}, {"NCCL_DEBUG", "WARN"}};
	const struct assay_slurm_step steps[] = {
	    {CASE_DECODE, ep_decode, ARRAY_SIZE(ep_decode), true, "/runs/r1/slurm/" CASE_DECODE,
	     "/runs/r1/slurm/" CASE_DECODE "/exit", NULL, 0, NULL, NULL, 0, false},
	    {CASE_PREFILL, ep_prefill, ARRAY_SIZE(ep_prefill), true, "/runs/r1/slurm/" CASE_PREFILL,
	     "/runs/r1/slurm/" CASE_PREFILL "/exit", NULL, 0, NULL, NULL, 0, false},
	};
	struct assay_slurm_job j = {
	    .name = "assay-r1-h100-nccl-bf16-n2",
	    .shape = {2, 8, 8},
	    .o = &o,
	    .log_dir = "/runs/r1/slurm",
	    .env = env,
	    .n_env = ARRAY_SIZE(env),
	    .network = net,
	    .steps = steps,
	    .n_steps = ARRAY_SIZE(steps),
	};
	struct sbuf sb = SBUF_INIT;
	struct assay_error e;
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_OK);
	check_golden(&sb, ASSAY_SOURCE_DIR "/tests/unit/slurm/script-ep.sh");

	/* The same step as argv, for running inside an allocation. */
	struct strlist argv = STRLIST_INIT;
	assert_int_equal(assay_slurm_step_argv(&j, &steps[0], "gpu[001-002]", &argv, &e), ASSAY_OK);
	char *joined = strlist_join(&argv, " ");
	assert_string_equal(
	    joined, "srun --nodes=2 --ntasks-per-node=8 --gpus-per-node=8 "
		    "--nodelist=gpu[001-002] --kill-on-bad-exit=1 --mpi=pmix "
		    "--output=/runs/r1/slurm/" CASE_DECODE "/%x-%j-%N.out "
		    "--error=/runs/r1/slurm/" CASE_DECODE "/%x-%j-%N.err --cpu-bind=none "
		    "/opt/assay/bin/assay-ep run --case /runs/r1/cases/" CASE_DECODE ".json "
		    "--out /runs/r1/" CASE_DECODE "/result.json");
	free(joined);
	strlist_clear(&argv);

	/* A configured MPI launcher replaces srun for MPI steps. */
	strlist_push(&o.mpi_launcher, "mpirun");
	strlist_push(&o.mpi_launcher, "--bind-to");
	strlist_push(&o.mpi_launcher, "none");
	assert_int_equal(assay_slurm_step_argv(&j, &steps[0], NULL, &argv, &e), ASSAY_OK);
	joined = strlist_join(&argv, " ");
	assert_string_equal(joined, "mpirun --bind-to none /opt/assay/bin/assay-ep run --case "
				    "/runs/r1/cases/" CASE_DECODE
				    ".json --out /runs/r1/" CASE_DECODE "/result.json");
	free(joined);
	strlist_clear(&argv);
	sbuf_reset(&sb);
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_OK);
	assert_non_null(strstr(sbuf_str(&sb),
			       "\nmpirun --bind-to none \\\n    /opt/assay/bin/assay-ep run --case "
			       "/runs/r1/cases/" CASE_DECODE ".json --out /runs/r1/" CASE_DECODE
			       "/result.json >/runs/r1/slurm/" CASE_DECODE
			       "/launcher.out 2>/runs/r1/slurm/" CASE_DECODE "/launcher.err\n"));

	sbuf_release(&sb);
	json_decref(net);
	assay_slurm_options_release(&o);
}

static void test_script_command_example(void **state)
{
	(void)state;
	struct assay_slurm_options o;
	gpu_options(&o);
	const char *const secrets[] = {"HF_TOKEN", "WANDB_API_KEY"};
	const struct assay_slurm_step step = {"llama-8b-smoke",
					      train_argv,
					      ARRAY_SIZE(train_argv),
					      false,
					      "/runs/r1/slurm/llama-8b-smoke",
					      "/runs/r1/slurm/llama-8b-smoke/exit",
					      NULL,
					      0,
					      NULL,
					      NULL,
					      0,
					      false};
	json_t *net = json_pack("{s:s}", "socket_ifname", "bond0");
	struct assay_slurm_job j = {
	    .name = "assay-r1-llama-8b-smoke",
	    .shape = {2, 1, 8},
	    .o = &o,
	    .log_dir = "/runs/r1/slurm",
	    .workdir = "/home/perf/megatron",
	    .secrets = secrets,
	    .n_secrets = ARRAY_SIZE(secrets),
	    .network = net,
	    .master_addr = true,
	    .steps = &step,
	    .n_steps = 1,
	};
	struct sbuf sb = SBUF_INIT;
	struct assay_error e;
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_OK);
	check_golden(&sb, ASSAY_SOURCE_DIR "/tests/unit/slurm/script-command.sh");
	sbuf_release(&sb);
	json_decref(net);
	assay_slurm_options_release(&o);
}

/* Fake srun and scontrol: srun records its arguments and a few variables. */
static void write_fakes(const char *bin)
{
	char path[512];
	mkdir(bin, 0755);
	snprintf(path, sizeof(path), "%s/srun", bin);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/bash\n"
	      "{ printf 'arg<%s>\\n' \"$@\"; printf 'env<%s>\\n' \"$HOSTILE\" \"$STEP_VAR\" "
	      "\"$MASTER_ADDR\" \"$MASTER_PORT\" \"$NCCL_SOCKET_IFNAME\" \"${SECRET_TOKEN:-}\"; }"
	      " >>\"$FAKE_OUT\"\n"
	      "exit \"${FAKE_RC:-0}\"\n",
	      f);
	fclose(f);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/scontrol", bin);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/bash\n[ \"$1 $2 $3\" = \"show hostnames n[1-2]\" ] && printf 'n1\\nn2\\n'\n",
	      f);
	fclose(f);
	chmod(path, 0755);
}

static void test_script_runs_with_hostile_values(void **state)
{
	(void)state;
	char bin[300], out[300], logs[300], status[320], prelude[2048];
	snprintf(bin, sizeof(bin), "%s/bin", tmpdir);
	snprintf(out, sizeof(out), "%s/srun.out", tmpdir);
	snprintf(logs, sizeof(logs), "%s/logs with space", tmpdir);
	snprintf(status, sizeof(status), "%s/it's status", tmpdir);
	write_fakes(bin);
	mkdir(logs, 0755);

	const char *args[1 + ARRAY_SIZE(hostile)];
	args[0] = "/bin/true";
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++)
		args[i + 1] = hostile[i];
	const char *hostile_value = "$(touch /tmp/assay-pwned) it's \"x\" `id` \\ \n end";
	const struct assay_slurm_env env[] = {{"HOSTILE", hostile_value}};
	const struct assay_slurm_env step_env[] = {{"STEP_VAR", "a'b c"}};
	const char *const secrets[] = {"SECRET_TOKEN"};
	const struct assay_slurm_step step = {"case \n with newline",
					      args,
					      ARRAY_SIZE(args),
					      false,
					      logs,
					      status,
					      step_env,
					      1,
					      NULL,
					      NULL,
					      0,
					      false};
	const json_t *net = json_pack("{s:s}", "socket_ifname", "eth 1");
	struct assay_slurm_options o;
	assay_slurm_options_init(&o);
	struct assay_slurm_job j = {.name = "hostile job #1",
				    .shape = {2, 1, 0},
				    .o = &o,
				    .log_dir = logs,
				    .env = env,
				    .n_env = 1,
				    .secrets = secrets,
				    .n_secrets = 1,
				    .network = net,
				    .master_addr = true,
				    .steps = &step,
				    .n_steps = 1};
	struct sbuf sb = SBUF_INIT;
	struct assay_error e;
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_OK);
	assert_non_null(strstr(sbuf_str(&sb), "#SBATCH --job-name=\"hostile job #1\"\n"));
	assert_non_null(strstr(sbuf_str(&sb), "# step 1/1: case ? with newline\n"));
	assert_null(strstr(sbuf_str(&sb), "s3cr3t"));

	/* Run it as Slurm would, with the secret only in the environment. */
	struct sbuf script = SBUF_INIT;
	snprintf(prelude, sizeof(prelude),
		 "export PATH='%s':\"$PATH\" FAKE_OUT='%s' SLURM_JOB_NODELIST='n[1-2]' "
		 "SECRET_TOKEN=s3cr3t\n",
		 bin, out);
	sbuf_adds(&script, prelude);
	sbuf_adds(&script, sbuf_str(&sb));
	char *res = run_bash(sbuf_str(&script), tmpdir);
	assert_string_equal(res, "");
	free(res);
	char *got = slurp(out);
	struct sbuf want = SBUF_INIT;
	sbuf_adds(&want, "arg<--nodes=2>\narg<--ntasks-per-node=1>\narg<--kill-on-bad-exit=1>\n");
	sbuf_addf(&want, "arg<--output=%s/%%x-%%j-%%N.out>\n", logs);
	sbuf_addf(&want, "arg<--error=%s/%%x-%%j-%%N.err>\n", logs);
	sbuf_adds(&want, "arg</bin/true>\n");
	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++)
		sbuf_addf(&want, "arg<%s>\n", hostile[i]);
	sbuf_addf(&want, "env<%s>\nenv<a'b c>\nenv<n1>\nenv<29500>\nenv<eth 1>\nenv<s3cr3t>\n",
		  hostile_value);
	assert_string_equal(got, sbuf_str(&want));
	free(got);
	got = slurp(status);
	assert_string_equal(got, "0\n");
	free(got);
	assert_int_equal(access("/tmp/assay-pwned", F_OK), -1);

	/* Without the secret the job stops before any step; a failing step's
	 * status is recorded and becomes the script's exit status. */
	sbuf_reset(&script);
	snprintf(prelude, sizeof(prelude),
		 "export PATH='%s':\"$PATH\" FAKE_OUT='%s' SLURM_JOB_NODELIST='n[1-2]'\n", bin,
		 out);
	sbuf_adds(&script, prelude);
	sbuf_adds(&script, sbuf_str(&sb));
	res = run_bash(sbuf_str(&script), tmpdir);
	assert_string_equal(res, "assay: secret SECRET_TOKEN is not in the job's environment\n");
	free(res);
	sbuf_reset(&script);
	snprintf(prelude, sizeof(prelude),
		 "export PATH='%s':\"$PATH\" FAKE_OUT='%s' SLURM_JOB_NODELIST='n[1-2]' "
		 "SECRET_TOKEN= FAKE_RC=7\n",
		 bin, out);
	sbuf_adds(&script, prelude);
	sbuf_adds(&script, sbuf_str(&sb));
	char wrap[512];
	snprintf(wrap, sizeof(wrap), "%s/inner.sh", tmpdir);
	FILE *f = fopen(wrap, "w");
	fputs(sbuf_str(&script), f);
	fclose(f);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "bash '%s'; echo \"exit=$?\"", wrap);
	res = run_bash(cmd, tmpdir);
	assert_string_equal(res, "exit=7\n");
	free(res);
	got = slurp(status);
	assert_string_equal(got, "7\n");
	free(got);

	sbuf_release(&script);
	sbuf_release(&want);
	sbuf_release(&sb);
	json_decref((json_t *)net);
	assay_slurm_options_release(&o);
}

/* Spool mode (one job per shard): the script runs the steps handed over as
 * SPOOL/step-N.sh in order, marks each done, skips those already done (a
 * requeued job), stops at SPOOL/end, and exits with the first failure. */
static void test_script_spool(void **state)
{
	(void)state;
	char bin[300], out[300], spool[300], logs[300], st1[340], st2[340], st3[340], path[400];
	snprintf(bin, sizeof(bin), "%s/bin", tmpdir);
	snprintf(out, sizeof(out), "%s/spool-srun.out", tmpdir);
	snprintf(spool, sizeof(spool), "%s/job.d", tmpdir);
	snprintf(logs, sizeof(logs), "%s/steps", tmpdir);
	snprintf(st1, sizeof(st1), "%s/exit1", logs);
	snprintf(st2, sizeof(st2), "%s/exit2", logs);
	snprintf(st3, sizeof(st3), "%s/exit3", logs);
	write_fakes(bin);
	mkdir(spool, 0755);
	mkdir(logs, 0755);
	const char *one[] = {"/bin/echo", "one"}, *two[] = {"/bin/echo", "two"},
		   *three[] = {"/bin/echo", "three"};
	const struct assay_slurm_env env2[] = {{"STEP_VAR", "second"}};
	const struct assay_slurm_step steps[] = {
	    {"first", one, 2, false, logs, st1, NULL, 0, NULL, NULL, 0, false},
	    {"second", two, 2, true, logs, st2, env2, 1, "/work dir", NULL, 0, false},
	    {"third", three, 2, false, logs, st3, NULL, 0, NULL, NULL, 0, false},
	};
	struct assay_slurm_options o;
	assay_slurm_options_init(&o);
	struct assay_slurm_job j = {.name = "shard",
				    .shape = {1, 2, 0},
				    .o = &o,
				    .log_dir = tmpdir,
				    .spool = spool,
				    .idle_s = 5};
	struct sbuf sb = SBUF_INIT, text = SBUF_INIT;
	struct assay_error e;
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_OK);
	assert_null(strstr(sbuf_str(&sb), "srun"));
	assert_non_null(strstr(sbuf_str(&sb), "no step handed over for 5 s"));
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		sbuf_reset(&text);
		assert_int_equal(assay_slurm_step_text(&j, &steps[i], i, 0, &text, &e), ASSAY_OK);
		if (i + 1 == ARRAY_SIZE(steps)) /* assay writes "end" once the last step is done */
			sbuf_addf(&text, ": >'%s/end'\n", spool);
		snprintf(path, sizeof(path), "%s/step-%zu.sh", spool, i + 1);
		assert_int_equal(assay_write_file_atomic(path, text.buf, text.len, &e), ASSAY_OK);
	}
	assert_non_null(strstr(sbuf_str(&text), "# step 3: third\n"));
	/* Step 1 ran before a requeue; the job ends at "end" (the last step
	 * writes it here). */
	snprintf(path, sizeof(path), "%s/step-1.done", spool);
	assert_int_equal(assay_write_file_atomic(path, "", 0, &e), ASSAY_OK);
	char prelude[1024], wrap[512], cmd[700];
	snprintf(prelude, sizeof(prelude), "export PATH='%s':\"$PATH\" FAKE_OUT='%s' FAKE_RC=5\n",
		 bin, out);
	struct sbuf script = SBUF_INIT;
	sbuf_adds(&script, prelude);
	sbuf_adds(&script, sbuf_str(&sb));
	snprintf(wrap, sizeof(wrap), "%s/spool.sh", tmpdir);
	assert_int_equal(assay_write_file_atomic(wrap, script.buf, script.len, &e), ASSAY_OK);
	snprintf(cmd, sizeof(cmd), "bash '%s'; echo \"exit=$?\"", wrap);
	char *res = run_bash(cmd, tmpdir);
	assert_string_equal(res, "exit=5\n");
	free(res);
	char *got = slurp(out);
	assert_null(strstr(got, "arg<one>"));
	assert_non_null(
	    strstr(got, "arg<--chdir=/work dir>\narg<--kill-on-bad-exit=1>\narg<--mpi=pmix>"));
	assert_non_null(strstr(got, "arg<two>\nenv<>\nenv<second>"));
	assert_non_null(strstr(got, "arg<three>"));
	free(got);
	assert_int_equal(access(st1, F_OK), -1);
	got = slurp(st2);
	assert_string_equal(got, "5\n");
	free(got);
	snprintf(path, sizeof(path), "%s/step-3.done", spool);
	assert_int_equal(access(path, F_OK), 0);

	/* Without "end" and without a new step, the job ends after idle_s. */
	snprintf(path, sizeof(path), "%s/end", spool);
	unlink(path);
	j.idle_s = 1;
	sbuf_reset(&sb);
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_OK);
	sbuf_reset(&script);
	sbuf_adds(&script, prelude);
	sbuf_adds(&script, sbuf_str(&sb));
	assert_int_equal(assay_write_file_atomic(wrap, script.buf, script.len, &e), ASSAY_OK);
	res = run_bash(cmd, tmpdir);
	assert_string_equal(res, "assay: no step handed over for 1 s; ending the job\nexit=0\n");
	free(res);

	/* "end" first: a job that starts after its run ended it (a killed
	 * attempt's late job, ended by the resume) runs no step it finds. */
	snprintf(path, sizeof(path), "%s/step-4.sh", spool);
	char late[600];
	snprintf(late, sizeof(late), ": >'%s/late-ran'\n", tmpdir);
	assert_int_equal(assay_write_file_atomic(path, late, strlen(late), &e), ASSAY_OK);
	snprintf(path, sizeof(path), "%s/end", spool);
	assert_int_equal(assay_write_file_atomic(path, "", 0, &e), ASSAY_OK);
	res = run_bash(cmd, tmpdir);
	assert_string_equal(res, "exit=0\n");
	free(res);
	snprintf(path, sizeof(path), "%s/late-ran", tmpdir);
	assert_int_equal(access(path, F_OK), -1);

	/* Steps and a spool at once are refused. */
	j.steps = steps;
	j.n_steps = 1;
	sbuf_reset(&sb);
	assert_int_equal(assay_slurm_script(&j, &sb, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "job shard: steps are either in the script or handed over "
				       "through the spool folder, not both");
	sbuf_release(&sb);
	sbuf_release(&text);
	sbuf_release(&script);
	assay_slurm_options_release(&o);
}

static const char *refuse(struct assay_slurm_job *j)
{
	static char msg[1100];
	struct sbuf sb = SBUF_INIT;
	struct assay_error e;
	assay_err rc = assay_slurm_script(j, &sb, &e);
	assert_int_equal(rc, ASSAY_USAGE);
	assert_int_equal(sb.len, 0);
	sbuf_release(&sb);
	snprintf(msg, sizeof(msg), "%s", e.message);
	return msg;
}

/* A per-rank expectation (docs/suite.md, "Provenance") needs each task's
 * output apart: srun's %t after the node's %N; without it one file per node. */
static void test_step_per_task_logs(void **state)
{
	(void)state;
	const char *argv[] = {"true"};
	struct assay_slurm_step step = {"c",  argv, 1,    false, "/runs/x/c", NULL,
					NULL, 0,    NULL, NULL,  0,           true};
	struct assay_slurm_options o;
	assay_slurm_options_init(&o);
	struct assay_slurm_job j = {.name = "j", .shape = {1, 2, 0}, .o = &o, .log_dir = "/runs/x"};
	struct strlist w = STRLIST_INIT;
	struct assay_error e;
	assert_int_equal(assay_slurm_step_argv(&j, &step, NULL, &w, &e), ASSAY_OK);
	assert_true(strlist_has(&w, "--output=/runs/x/c/%x-%j-%N.%t.out"));
	assert_true(strlist_has(&w, "--error=/runs/x/c/%x-%j-%N.%t.err"));
	strlist_clear(&w);
	step.per_task = false;
	assert_int_equal(assay_slurm_step_argv(&j, &step, NULL, &w, &e), ASSAY_OK);
	assert_true(strlist_has(&w, "--output=/runs/x/c/%x-%j-%N.out"));
	strlist_clear(&w);
	assay_slurm_options_release(&o);
}

static void test_script_refusals(void **state)
{
	(void)state;
	const char *argv[] = {"true"};
	struct assay_slurm_step step = {"c",  argv, 1,    false, NULL, NULL,
					NULL, 0,    NULL, NULL,  0,    false};
	struct assay_slurm_options o;
	assay_slurm_options_init(&o);
	struct assay_slurm_job base = {.name = "j",
				       .shape = {1, 1, 0},
				       .o = &o,
				       .log_dir = "/runs/x",
				       .steps = &step,
				       .n_steps = 1};
	struct assay_slurm_job j = base;

	j.log_dir = "runs/x";
	assert_string_equal(refuse(&j), "log directory \"runs/x\": expected an absolute path "
					"without '%', '\\', '\"' or control characters");
	j.log_dir = "/runs/100%";
	assert_string_equal(refuse(&j), "log directory \"/runs/100%\": expected an absolute path "
					"without '%', '\\', '\"' or control characters");
	j = base;
	j.name = "a/b";
	assert_string_equal(refuse(&j), "job name \"a/b\": expected a non-empty name without '/'");
	j = base;
	j.name = "say \"hi\"";
	assert_string_equal(refuse(&j), "--job-name \"say \"hi\"\": an #SBATCH value cannot be "
					"empty or hold a control character, '\"' or '\\'");
	j = base;
	free(o.partition);
	o.partition = xstrdup("gpu\nrm");
	assert_string_equal(refuse(&j), "--partition \"gpu\nrm\": an #SBATCH value cannot be "
					"empty or hold a control character, '\"' or '\\'");
	free(o.partition);
	o.partition = NULL;

	const char *const secrets[] = {"TOKEN"};
	const struct assay_slurm_env env[] = {{"TOKEN", "leaked"}};
	j = base;
	j.secrets = secrets;
	j.n_secrets = 1;
	j.env = env;
	j.n_env = 1;
	assert_string_equal(refuse(&j), "TOKEN is a secret: it reaches the job through the "
					"environment only and cannot also be given a value");
	const struct assay_slurm_env bad[] = {{"1X", "v"}};
	j = base;
	j.env = bad;
	j.n_env = 1;
	assert_string_equal(refuse(&j), "environment variable name \"1X\": expected letters, "
					"digits and '_', not starting with a digit");
	const char *const bad_secret[] = {"A-B"};
	j = base;
	j.secrets = bad_secret;
	j.n_secrets = 1;
	assert_string_equal(refuse(&j), "secret name \"A-B\": expected letters, digits and '_', "
					"not starting with a digit");
	j = base;
	j.n_steps = 0;
	assert_string_equal(refuse(&j), "job j has no steps");
	const char *empty[] = {""};
	struct assay_slurm_step s2 = {"c",  empty, 1,    false, NULL, NULL,
				      NULL, 0,     NULL, NULL,  0,    false};
	j = base;
	j.steps = &s2;
	assert_string_equal(refuse(&j), "job j, step 1: no program");
	struct assay_slurm_step s3 = {"c",  argv, 1,    false, NULL, "rel/status",
				      NULL, 0,    NULL, NULL,  0,    false};
	j.steps = &s3;
	assert_string_equal(refuse(&j), "status file \"rel/status\": expected an absolute path");
	j = base;
	j.shape.nodes = 0;
	assert_string_equal(refuse(&j), "job j: 0 node(s) x 1 task(s): expected positive counts");
	assay_slurm_options_release(&o);
}

static void test_network_env(void **state)
{
	(void)state;
	struct strlist l = STRLIST_INIT;
	assay_slurm_network_env(NULL, &l);
	assert_int_equal(l.n, 0);
	json_t *net =
	    json_pack("{s:s,s:[s,s],s:i,s:i,s:i,s:s,s:i}", "socket_ifname", "ib0", "rdma_devices",
		      "mlx5_0", "mlx5_3", "ib_gid_index", 3, "ib_traffic_class", 106,
		      "ib_service_level", 1, "net_plugin", "aws-ofi", "master_port", 30000);
	assay_slurm_network_env(net, &l);
	char *s = strlist_join(&l, " ");
	assert_string_equal(s, "NCCL_SOCKET_IFNAME=ib0 GLOO_SOCKET_IFNAME=ib0 "
			       "NCCL_IB_HCA=mlx5_0,mlx5_3 NCCL_IB_GID_INDEX=3 NCCL_IB_TC=106 "
			       "NCCL_IB_SL=1 NCCL_NET_PLUGIN=aws-ofi");
	free(s);
	strlist_clear(&l);
	assert_int_equal(assay_slurm_master_port(NULL, net), 30000);
	struct assay_slurm_options o;
	assay_slurm_options_init(&o);
	assert_int_equal(assay_slurm_master_port(&o, NULL), 29500);
	o.master_port = 1234;
	assert_int_equal(assay_slurm_master_port(&o, net), 1234);
	json_decref(net);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shell_quote),
	    cmocka_unit_test(test_script_gpu_example),
	    cmocka_unit_test(test_script_command_example),
	    cmocka_unit_test(test_script_runs_with_hostile_values),
	    cmocka_unit_test(test_script_spool),
	    cmocka_unit_test(test_script_refusals),
	    cmocka_unit_test(test_step_per_task_logs),
	    cmocka_unit_test(test_network_env),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
