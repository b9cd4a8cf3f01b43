/* Unit tests for the Slurm launcher against fake sbatch, squeue, scontrol and
 * scancel scripts on PATH: every final state becomes the right job end,
 * preemption with requeue is followed, a forgotten job is an infrastructure
 * error, cancel and the case's timeout mark the job record before scancel,
 * sbatch failures are reported, per-node logs are collected and redacted. */
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

#include "assay/cfg.h"
#include "assay/json.h"
#include "assay/launch.h"
#include "launch/slurm_int.h"

static char tmpdir[256], fake[300], casedir[400], raw[400];

static void put(const char *dir, const char *name, const char *text)
{
	char path[600];
	struct assay_error e;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(assay_write_file_atomic(path, text, strlen(text), &e), ASSAY_OK);
}

static char *slurp(const char *dir, const char *name)
{
	char path[600];
	struct assay_error e;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = assay_read_file(path, NULL, &e);
	return s ? s : xstrdup("(missing)");
}

static void script(const char *name, const char *body)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/bin/%s", fake, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\nF=%s\n%s", fake, body);
	fclose(f);
	chmod(path, 0755);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/assay-test-slurm-launch-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(fake, sizeof(fake), "%s/fake", tmpdir);
	char bin[400];
	snprintf(bin, sizeof(bin), "%s/bin", fake);
	struct assay_error e;
	if (assay_mkdirs(bin, &e) != ASSAY_OK)
		return -1;
	/* sbatch prints the id in $F/id (or fails with $F/sbatch-error); the
	 * others answer from $F/squeue, $F/scontrol; every call is logged. */
	script("sbatch", "echo \"sbatch $*\" >>$F/calls\n"
			 "if [ -e $F/sbatch-error ]; then cat $F/sbatch-error >&2; exit 1; fi\n"
			 "cat $F/id\n");
	script("squeue", "echo \"squeue $*\" >>$F/calls\n"
			 "if [ -e $F/gone ]; then echo 'slurm_load_jobs error: Invalid job id "
			 "specified' >&2; exit 1; fi\n"
			 "cat $F/squeue\n");
	script("scontrol", "echo \"scontrol $*\" >>$F/calls\n"
			   "[ \"$1\" = show ] && cat $F/scontrol\nexit 0\n");
	script("scancel", "echo \"scancel $*\" >>$F/calls\n");
	char *path = xasprintf("%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	free(path);
	unsetenv("SLURM_JOB_ID");
	unsetenv("SLURM_JOBID");
	snprintf(casedir, sizeof(casedir), "%s/out/r1/c1", tmpdir);
	snprintf(raw, sizeof(raw), "%s/out/r1/slurm/c1", tmpdir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The squeue line and scontrol record of job 42 in state st. */
static void job_state(const char *st, const char *reason, const char *exit_code, int requeue,
		      const char *comment)
{
	char line[300], rec[1000];
	snprintf(line, sizeof(line), "42|%s|%s|1|0:05|1:00|n1|%s\n", st, reason,
		 comment ? comment : "(null)");
	put(fake, "squeue", line);
	snprintf(rec, sizeof(rec),
		 "JobId=42 JobName=assay-r1-c1\n"
		 "   JobState=%s Reason=%s Dependency=(null)\n"
		 "   Requeue=%d Restarts=0 BatchFlag=1 Reboot=0 ExitCode=%s\n"
		 "   RunTime=00:00:05 TimeLimit=00:01:00 TimeMin=N/A\n"
		 "   NodeList=n1\n   NumNodes=1 NumCPUs=1 NumTasks=1\n"
		 "   Comment=%s\n",
		 st, reason, requeue, exit_code, comment ? comment : "(null)");
	put(fake, "scontrol", rec);
}

static const char *const per_case =
    "{\"type\": \"slurm\", \"job_per\": \"case\", \"poll_interval_s\": 0.1}";

struct run {
	struct assay_launcher *l;
	struct assay_job *job;
	struct strlist argv, env;
	struct assay_redactor red;
	struct sbuf out;
};

static void on_output(void *ctx, const char *stream, const char *data, size_t len)
{
	struct run *r = ctx;
	sbuf_addf(&r->out, "[%s]", stream);
	sbuf_add(&r->out, data, len);
}

/* A one-case job under launcher options `opts`, submitted. */
static void start(struct run *r, const char *opts, double timeout_s)
{
	memset(r, 0, sizeof(*r));
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/out' '%s/calls' '%s/gone' '%s/sbatch-error'", tmpdir,
		 fake, fake, fake);
	assert_int_equal(system(cmd), 0);
	put(fake, "id", "42\n");
	job_state("PENDING", "Priority", "0:0", 1, NULL);
	struct assay_error e;
	assert_int_equal(assay_mkdirs(casedir, &e), ASSAY_OK);
	struct assay_cfg c = {"suite.json", &e};
	json_t *v = assay_json_loadb(opts, strlen(opts), "suite.json", &e);
	assert_non_null(v);
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &r->l), 0);
	json_decref(v);
	strlist_push(&r->argv, "true");
	assay_redactor_init(&r->red);
	assay_redactor_add(&r->red, "TOKEN", "hunter2-secret");
	struct assay_launch_spec spec = {"c1", casedir, &r->argv,  &r->env, NULL, timeout_s, 0,
					 1,    &r->red, on_output, r,       "c1", 1,         0,
					 NULL, NULL,    NULL,      1,       NULL, NULL};
	assert_int_equal(r->l->ops->prepare(r->l, &spec, &r->job, &e), ASSAY_OK);
	assert_int_equal(r->l->ops->submit(r->job, &e), ASSAY_OK);
}

/* Poll until the job ends (bounded); returns the poll's code. */
static assay_err follow(struct run *r, struct assay_job_status *st, struct assay_error *e)
{
	for (int i = 0; i < 200; i++) {
		assay_err rc = r->l->ops->poll(r->job, 0.01, st, e);
		if (rc != ASSAY_OK || st->end != ASSAY_JOB_RUNNING)
			return rc;
	}
	fail_msg("the job did not end");
	return ASSAY_INFRA;
}

/* A job that Slurm runs, seen running once. */
static void start_running(struct run *r, double timeout_s)
{
	struct assay_job_status st;
	struct assay_error e;
	start(r, per_case, timeout_s);
	job_state("RUNNING", "None", "0:0", 1, NULL);
	assert_int_equal(r->l->ops->poll(r->job, 0.15, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_RUNNING);
}

static void finish_run(struct run *r)
{
	struct assay_error e;
	assert_int_equal(r->l->ops->collect(r->job, &e), ASSAY_OK);
	r->l->ops->release(r->job);
	assay_launcher_free(r->l);
	strlist_clear(&r->argv);
	assay_redactor_release(&r->red);
	sbuf_release(&r->out);
}

static void test_states(void **state)
{
	(void)state;
	static const struct {
		const char *state, *reason, *exit_code, *status;
		enum assay_job_end end;
		int code;
		const char *detail;
	} cases[] = {
	    {"COMPLETED", "None", "0:0", "0\n", ASSAY_JOB_EXITED, 0,
	     "exit code 0 (job 42 COMPLETED)"},
	    {"FAILED", "NonZeroExitCode", "3:0", "3\n", ASSAY_JOB_EXITED, 3,
	     "exit code 3 (job 42 FAILED)"},
	    {"FAILED", "NonZeroExitCode", "97:0", NULL, ASSAY_JOB_EXITED, 97,
	     "job 42: FAILED (NonZeroExitCode): the job failed, exit code 97"},
	    {"NODE_FAIL", "None", "0:0", NULL, ASSAY_JOB_SIGNALED, 0,
	     "job 42: NODE_FAIL: a node of the job failed"},
	    {"OUT_OF_MEMORY", "OutOfMemory", "0:0", NULL, ASSAY_JOB_SIGNALED, 0,
	     "job 42: OUT_OF_MEMORY (OutOfMemory): the job exceeded its memory limit"},
	    {"BOOT_FAIL", "None", "0:0", NULL, ASSAY_JOB_NOT_STARTED, 0,
	     "job 42: BOOT_FAIL: Slurm could not boot the job's nodes"},
	    {"TIMEOUT", "TimeLimit", "0:15", NULL, ASSAY_JOB_TIMED_OUT, 0,
	     "job 42: TIMEOUT: time limit 00:01:00 reached"},
	    {"CANCELLED", "None", "0:15", NULL, ASSAY_JOB_CANCELLED, 0,
	     "job 42: CANCELLED by someone else (not assay: a user, an administrator or Slurm "
	     "itself)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run r;
		struct assay_job_status st;
		struct assay_error e;
		start(&r, per_case, 0);
		assert_int_equal(r.l->ops->poll(r.job, 0, &st, &e), ASSAY_OK);
		assert_int_equal(st.end, ASSAY_JOB_RUNNING);
		if (cases[i].status)
			put(raw, "exit", cases[i].status);
		job_state(cases[i].state, cases[i].reason, cases[i].exit_code, 1, NULL);
		assert_int_equal(follow(&r, &st, &e), ASSAY_OK);
		assert_int_equal(st.end, cases[i].end);
		assert_int_equal(st.exit_code, cases[i].code);
		assert_string_equal(st.detail, cases[i].detail);
		finish_run(&r);
	}
}

/* Preempted and requeueable: followed until it runs again and ends. */
static void test_preempted_requeued(void **state)
{
	(void)state;
	struct run r;
	struct assay_job_status st;
	struct assay_error e;
	start_running(&r, 0);
	put(raw, "exit", "143\n"); /* the killed attempt's status */
	job_state("PREEMPTED", "None", "0:15", 1, NULL);
	assert_int_equal(r.l->ops->poll(r.job, 0.15, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_RUNNING);
	job_state("PENDING", "BeginTime", "0:0", 1, NULL);
	assert_int_equal(r.l->ops->poll(r.job, 0.15, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_RUNNING);
	char *s = slurp(raw, "exit");
	assert_string_equal(s, "(missing)"); /* requeued: the old status is gone */
	free(s);
	put(raw, "exit", "0\n");
	job_state("COMPLETED", "None", "0:0", 1, NULL);
	assert_int_equal(follow(&r, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_EXITED);
	assert_int_equal(st.exit_code, 0);
	finish_run(&r);

	/* Not requeueable: final. */
	start(&r, per_case, 0);
	job_state("PREEMPTED", "None", "0:15", 0, NULL);
	assert_int_equal(follow(&r, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_SIGNALED);
	assert_string_equal(st.detail,
			    "job 42: PREEMPTED: preempted by another job and not requeueable");
	finish_run(&r);
}

static void test_gone_and_sbatch_errors(void **state)
{
	(void)state;
	struct run r;
	struct assay_job_status st;
	struct assay_error e;
	start_running(&r, 0);
	put(fake, "gone", "");
	assert_int_equal(follow(&r, &st, &e), ASSAY_INFRA);
	assert_string_equal(e.message, "job 42: the job is no longer known to Slurm and assay did "
				       "not see it end (purged after MinJobAge: poll more often)");
	finish_run(&r);

	/* sbatch refuses the job: an infrastructure error with its message. */
	memset(&r, 0, sizeof(r));
	struct assay_cfg c = {"suite.json", &e};
	json_t *v = json_pack("{s:s}", "type", "slurm");
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &r.l), 0);
	json_decref(v);
	put(fake, "sbatch-error", "sbatch: error: Batch job submission failed: Invalid account\n");
	strlist_push(&r.argv, "true");
	struct assay_launch_spec spec = {"c1", casedir, &r.argv, NULL, NULL, 0,   0,
					 1,    NULL,    NULL,    NULL, NULL, 1,   0,
					 NULL, NULL,    NULL,    1,    NULL, NULL};
	assert_int_equal(r.l->ops->prepare(r.l, &spec, &r.job, &e), ASSAY_OK);
	assert_int_equal(r.l->ops->submit(r.job, &e), ASSAY_INFRA);
	assert_non_null(strstr(e.message, "failed (exit 1): sbatch: error: Batch job submission "
					  "failed: Invalid account"));
	r.l->ops->release(r.job);
	assay_launcher_free(r.l);
	strlist_clear(&r.argv);
	char path[400];
	snprintf(path, sizeof(path), "%s/sbatch-error", fake);
	unlink(path);
}

/* cancel: the job record is marked, then scancel; a second cancel kills.
 * The case's own timeout cancels it the same way. */
static void test_cancel_and_timeout(void **state)
{
	(void)state;
	struct run r;
	struct assay_job_status st;
	struct assay_error e;
	start_running(&r, 0);
	r.l->ops->cancel(r.job);
	r.l->ops->cancel(r.job);
	char *calls = slurp(fake, "calls");
	assert_non_null(strstr(calls, "scontrol update JobId=42 Comment=assay-cancel: stopped by "
				      "assay run (an error signature, a timeout or an interrupt)\n"
				      "scancel 42\n"));
	assert_non_null(strstr(calls, "scancel --full --signal=KILL 42\n"));
	free(calls);
	job_state("CANCELLED", "None", "0:15", 1, "assay-cancel: stopped by assay run");
	assert_int_equal(follow(&r, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_CANCELLED);
	assert_string_equal(st.detail, "job 42: CANCELLED by assay: stopped by assay run");
	finish_run(&r);

	start_running(&r, 0.2);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(r.l->ops->poll(r.job, 0.02, &st, &e), ASSAY_OK);
		calls = slurp(fake, "calls");
		bool cancelled = strstr(calls, "scancel 42") != NULL;
		free(calls);
		if (cancelled)
			break;
	}
	calls = slurp(fake, "calls");
	assert_non_null(strstr(calls, "Comment=assay-cancel: timeout after 0.2 s\nscancel 42\n"));
	free(calls);
	job_state("CANCELLED", "None", "0:15", 1, "assay-cancel: timeout after 0.2 s");
	assert_int_equal(follow(&r, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_TIMED_OUT);
	assert_string_equal(st.detail, "timeout after 0.2 s (job 42 cancelled)");
	finish_run(&r);
}

/* Per-node logs: whole lines reach the runner and stdout.log/stderr.log,
 * secrets are redacted even when split across reads, copies are named by
 * node, the batch output counts as stderr, the raw folder is removed. */
static void test_node_logs(void **state)
{
	(void)state;
	struct run r;
	struct assay_job_status st;
	struct assay_error e;
	start_running(&r, 0);
	char n1[500], n2[500];
	snprintf(n1, sizeof(n1), "%s/assay-r1-c1-42-n1.out", raw);
	snprintf(n2, sizeof(n2), "%s/assay-r1-c1-42-n2.out", raw);
	FILE *a = fopen(n1, "w"), *b = fopen(n2, "w");
	assert_non_null(a);
	assert_non_null(b);
	fputs("n1 line one\nn1 token hunt", a);
	fputs("n2 half", b);
	fflush(a);
	fflush(b);
	/* The directory is looked at about once a second. */
	for (int i = 0; i < 12; i++)
		assert_int_equal(r.l->ops->poll(r.job, 0.1, &st, &e), ASSAY_OK);
	fputs("er2-secret end\n", a);
	fputs(" and the rest\nn2 unterminated", b);
	fclose(a);
	fclose(b);
	put(raw, "exit", "0\n");
	char bo[500];
	snprintf(bo, sizeof(bo), "%s/out/r1/slurm", tmpdir);
	put(bo, "assay-r1-c1-42.out", "assay: batch says hello\n");
	job_state("COMPLETED", "None", "0:0", 1, NULL);
	assert_int_equal(follow(&r, &st, &e), ASSAY_OK);
	assert_int_equal(st.end, ASSAY_JOB_EXITED);
	assert_non_null(strstr(sbuf_str(&r.out), "[stdout]n1 line one\n"));
	assert_non_null(strstr(sbuf_str(&r.out), "n1 token *** end\n"));
	assert_non_null(strstr(sbuf_str(&r.out), "n2 half and the rest\n"));
	assert_non_null(strstr(sbuf_str(&r.out), "n2 unterminated\n"));
	assert_non_null(strstr(sbuf_str(&r.out), "[stderr]assay: batch says hello\n"));
	assert_null(strstr(sbuf_str(&r.out), "hunter2"));
	char *s = slurp(casedir, "stdout.log");
	assert_non_null(strstr(s, "n1 line one\n"));
	assert_non_null(strstr(s, "n2 half and the rest\n"));
	assert_null(strstr(s, "hunter2"));
	free(s);
	char nodes[500];
	snprintf(nodes, sizeof(nodes), "%s/nodes", casedir);
	s = slurp(nodes, "n1.out");
	assert_string_equal(s, "n1 line one\nn1 token *** end\n");
	free(s);
	s = slurp(nodes, "n2.out");
	assert_string_equal(s, "n2 half and the rest\nn2 unterminated");
	free(s);
	s = slurp(nodes, "batch.out");
	assert_string_equal(s, "assay: batch says hello\n");
	free(s);
	finish_run(&r);
	assert_int_equal(access(raw, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_states),
	    cmocka_unit_test(test_preempted_requeued),
	    cmocka_unit_test(test_gone_and_sbatch_errors),
	    cmocka_unit_test(test_cancel_and_timeout),
	    cmocka_unit_test(test_node_logs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
