/* Unit tests for the Slurm output parsers and the state -> outcome table.
 * tests/unit/slurm/squeue-*.txt and scontrol-{pending,running,...}.txt were
 * captured from Debian's Slurm 22.05 (tests/e2e/slurm/slurm-up.sh);
 * scontrol-gpu-*.txt follow the 23.x layout of a multi-node GPU job, with
 * job names and comments that try to spoof fields. Also a mutation fuzz loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/slurm.h"

#define FIXTURE(name) ASSAY_SOURCE_DIR "/tests/unit/slurm/" name

static char *slurp(const char *path)
{
	struct assay_error e;
	char *s = assay_read_file(path, NULL, &e);
	assert_non_null(s);
	return s;
}

static void test_time_parse(void **state)
{
	(void)state;
	const struct {
		const char *s;
		long long want;
	} ok[] = {
	    {"5", 300},
	    {"0:07", 7},
	    {"1:02", 62},
	    {"00:30:00", 1800},
	    {"2:00:01", 7201},
	    {"1-0", 86400},
	    {"1-02:03", 93780},
	    {"1-02:03:04", 93784},
	    {"UNLIMITED", -1},
	    {"INFINITE", -1},
	    {"Partition_Limit", -1},
	    {"0", 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		long long v = -2;
		assert_true(assay_slurm_time_parse(ok[i].s, &v));
		assert_int_equal(v, ok[i].want);
	}
	const char *bad[] = {"",   "1h",    "1:2:3:4", "-1",         "1-",        ":5",
			     "5:", "1-2-3", "1 2",     "9999999999", "1-1:1:1:1", "unlimited"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		long long v;
		assert_false(assay_slurm_time_parse(bad[i], &v));
	}
}

static void test_sbatch(void **state)
{
	(void)state;
	char id[32], cluster[64];
	struct assay_error e;
	assert_int_equal(
	    assay_slurm_parse_sbatch("4242\n", id, sizeof(id), cluster, sizeof(cluster), &e),
	    ASSAY_OK);
	assert_string_equal(id, "4242");
	assert_string_equal(cluster, "");
	assert_int_equal(assay_slurm_parse_sbatch("  77;eos-gpu\n", id, sizeof(id), cluster,
						  sizeof(cluster), &e),
			 ASSAY_OK);
	assert_string_equal(id, "77");
	assert_string_equal(cluster, "eos-gpu");
	assert_int_equal(assay_slurm_parse_sbatch("Submitted batch job 12\n", id, sizeof(id),
						  cluster, sizeof(cluster), &e),
			 ASSAY_INFRA);
	assert_string_equal(e.message, "sbatch --parsable printed \"Submitted batch job 12\": "
				       "expected JOBID or JOBID;CLUSTER");
	assert_int_equal(assay_slurm_parse_sbatch("", id, sizeof(id), NULL, 0, &e), ASSAY_INFRA);
	assert_string_equal(e.message,
			    "sbatch --parsable printed \"\": expected JOBID or JOBID;CLUSTER");
	assert_int_equal(
	    assay_slurm_parse_sbatch("12;\n", id, sizeof(id), cluster, sizeof(cluster), &e),
	    ASSAY_INFRA);
	assert_int_equal(
	    assay_slurm_parse_sbatch("12;a b", id, sizeof(id), cluster, sizeof(cluster), &e),
	    ASSAY_INFRA);
	assert_int_equal(
	    assay_slurm_parse_sbatch("1\x01", id, sizeof(id), cluster, sizeof(cluster), &e),
	    ASSAY_INFRA);
	assert_string_equal(e.message,
			    "sbatch --parsable printed \"1?\": expected JOBID or JOBID;CLUSTER");
	assert_int_equal(assay_slurm_parse_sbatch("123456789012345678901234567890123", id,
						  sizeof(id), cluster, sizeof(cluster), &e),
			 ASSAY_INFRA);
}

static void test_squeue(void **state)
{
	(void)state;
	char *text = slurp(FIXTURE("squeue-mixed.txt"));
	struct assay_slurm_jobinfo *jobs;
	size_t n;
	struct assay_error e;
	assert_int_equal(assay_slurm_parse_squeue(text, &jobs, &n, &e), ASSAY_OK);
	assert_int_equal(n, 4);
	assert_string_equal(jobs[0].id, "26");
	assert_string_equal(jobs[0].state, "PENDING");
	assert_string_equal(jobs[0].reason, "Resources");
	assert_null(jobs[0].nodelist);
	assert_null(jobs[0].comment);
	assert_int_equal(jobs[1].time_limit_s, -1);
	assert_string_equal(jobs[2].state, "RUNNING");
	assert_string_equal(jobs[2].nodelist, "vm");
	assert_int_equal(jobs[2].time_limit_s, 60);
	assert_int_equal(jobs[2].run_time_s, 3);
	assert_int_equal(jobs[2].nodes, 1);
	assert_int_equal(jobs[3].time_limit_s, 300);
	assay_slurm_jobinfo_free_array(jobs, n);
	free(text);

	text = slurp(FIXTURE("squeue-final.txt"));
	assert_int_equal(assay_slurm_parse_squeue(text, &jobs, &n, &e), ASSAY_OK);
	assert_int_equal(n, 5);
	const char *want[] = {"CANCELLED", "CANCELLED", "COMPLETED", "FAILED", "TIMEOUT"};
	for (size_t i = 0; i < n; i++)
		assert_string_equal(jobs[i].state, want[i]);
	assert_string_equal(jobs[0].comment, "assay-cancel: error signature nccl-error matched");
	assert_null(jobs[1].comment);
	assert_string_equal(jobs[3].reason, "NonZeroExitCode");
	assert_string_equal(jobs[4].reason, "TimeLimit");
	assay_slurm_jobinfo_free_array(jobs, n);
	free(text);

	/* A comment may hold '|'; blank lines and CRLF are tolerated. */
	assert_int_equal(assay_slurm_parse_squeue("\n9|RUNNING|None|2|1-00:00:01|UNLIMITED|"
						  "gpu[001-002]|a|b|c\r\n\n",
						  &jobs, &n, &e),
			 ASSAY_OK);
	assert_int_equal(n, 1);
	assert_string_equal(jobs[0].comment, "a|b|c");
	assert_int_equal(jobs[0].run_time_s, 86401);
	assay_slurm_jobinfo_free_array(jobs, n);
	assert_int_equal(assay_slurm_parse_squeue("", &jobs, &n, &e), ASSAY_OK);
	assert_int_equal(n, 0);
	assay_slurm_jobinfo_free_array(jobs, n);

	assert_int_equal(assay_slurm_parse_squeue("9|RUNNING|None|2|0:01|1:00|n1|x\n"
						  "JOBID PARTITION NAME\n",
						  &jobs, &n, &e),
			 ASSAY_INFRA);
	assert_null(jobs);
	assert_string_equal(e.message, "squeue output line 2: expected %i|%T|%r|%D|%M|%l|%N|%k "
				       "(id|state|reason|nodes|time|limit|nodelist|comment)");
	assert_int_equal(
	    assay_slurm_parse_squeue("9|running|None|2|0:01|1:00|n1|x\n", &jobs, &n, &e),
	    ASSAY_INFRA);
	assert_int_equal(
	    assay_slurm_parse_squeue("9 |RUNNING|None|2|0:01|1:00|n1|x\n", &jobs, &n, &e),
	    ASSAY_INFRA);
}

static void scontrol_file(const char *name, struct assay_slurm_jobinfo *j)
{
	char *text = slurp(name);
	struct assay_error e;
	assert_int_equal(assay_slurm_parse_scontrol(text, j, &e), ASSAY_OK);
	free(text);
}

static void test_scontrol(void **state)
{
	(void)state;
	struct assay_slurm_jobinfo j;
	scontrol_file(FIXTURE("scontrol-running.txt"), &j);
	assert_string_equal(j.name, "long run");
	assert_string_equal(j.state, "RUNNING");
	assert_string_equal(j.reason, "None");
	assert_string_equal(j.nodelist, "vm");
	assert_int_equal(j.nodes, 1);
	assert_int_equal(j.time_limit_s, 60);
	assert_int_equal(j.requeue, 1);
	assert_int_equal(j.restarts, 0);
	assert_null(j.comment);
	assert_true(assay_ends_with(j.std_out, ".out"));
	assay_slurm_jobinfo_release(&j);

	scontrol_file(FIXTURE("scontrol-pending.txt"), &j);
	assert_string_equal(j.state, "PENDING");
	assert_string_equal(j.reason, "Resources");
	assert_null(j.nodelist);
	assert_int_equal(j.nodes, 1); /* "NumNodes=1-1" */
	assay_slurm_jobinfo_release(&j);

	scontrol_file(FIXTURE("scontrol-failed.txt"), &j);
	assert_string_equal(j.state, "FAILED");
	assert_int_equal(j.exit_code, 3);
	assert_int_equal(j.exit_signal, 0);
	assay_slurm_jobinfo_release(&j);

	scontrol_file(FIXTURE("scontrol-cancelled-assay.txt"), &j);
	assert_string_equal(j.state, "CANCELLED");
	assert_string_equal(j.comment, "assay-cancel: error signature nccl-error matched");
	assay_slurm_jobinfo_release(&j);

	scontrol_file(FIXTURE("scontrol-timeout.txt"), &j);
	assert_string_equal(j.state, "TIMEOUT");
	assert_string_equal(j.reason, "TimeLimit");
	assay_slurm_jobinfo_release(&j);

	scontrol_file(FIXTURE("scontrol-completed.txt"), &j);
	assert_string_equal(j.state, "COMPLETED");
	assert_string_equal(j.name, "ok job");
	assert_int_equal(j.exit_code, 0);
	assay_slurm_jobinfo_release(&j);

	/* Free text (names, comments) cannot spoof JobState. */
	scontrol_file(FIXTURE("scontrol-gpu-running.txt"), &j);
	assert_string_equal(j.id, "4242");
	assert_string_equal(j.state, "RUNNING");
	assert_string_equal(j.comment, "assay suite JobState=COMPLETED");
	assert_string_equal(j.nodelist, "gpu[001-002]");
	assert_int_equal(j.nodes, 2);
	assert_int_equal(j.run_time_s, 252);
	assert_int_equal(j.time_limit_s, 1800);
	assay_slurm_jobinfo_release(&j);

	scontrol_file(FIXTURE("scontrol-gpu-preempted.txt"), &j);
	assert_string_equal(j.id, "4300"); /* the first record only */
	assert_string_equal(j.name, "assay-r1-h100-nccl-ep32 JobState=COMPLETED");
	assert_string_equal(j.state, "PREEMPTED");
	assert_int_equal(j.requeue, 0);
	assert_int_equal(j.exit_signal, 15);
	assay_slurm_jobinfo_release(&j);

	struct assay_error e;
	assert_int_equal(assay_slurm_parse_scontrol("", &j, &e), ASSAY_INFRA);
	assert_string_equal(e.message, "scontrol show job printed no JobId: expected \"JobId=N ... "
				       "JobState=STATE\"");
	assert_int_equal(assay_slurm_parse_scontrol("JobId=5 JobName=x\n   Reason=None\n", &j, &e),
			 ASSAY_INFRA);
	assert_string_equal(e.message, "scontrol show job printed no JobState: expected \"JobId=N "
				       "... JobState=STATE\"");
	assert_true(assay_slurm_job_unknown("slurm_load_jobs error: Invalid job id specified\n"));
	assert_false(assay_slurm_job_unknown("slurm_load_jobs error: Socket timed out\n"));
}

/* Outcome of a parsed fixture, with or without assay's own scancel record. */
static void outcome_of(const char *file, bool assay_cancelled, struct assay_slurm_outcome *o)
{
	struct assay_slurm_jobinfo j;
	scontrol_file(file, &j);
	assay_slurm_outcome(&j, assay_cancelled, o);
	assay_slurm_jobinfo_release(&j);
}

static void test_outcomes(void **state)
{
	(void)state;
	struct assay_slurm_outcome o;
	outcome_of(FIXTURE("scontrol-completed.txt"), false, &o);
	assert_int_equal(o.phase, ASSAY_SLURM_FINAL);
	assert_int_equal(o.code, ASSAY_OK);
	assert_string_equal(o.message, "COMPLETED");

	outcome_of(FIXTURE("scontrol-failed.txt"), false, &o);
	assert_int_equal(o.code, ASSAY_WORKLOAD_FAILED);
	assert_string_equal(o.message, "FAILED (NonZeroExitCode): the job failed, exit code 3");

	outcome_of(FIXTURE("scontrol-timeout.txt"), false, &o);
	assert_int_equal(o.code, ASSAY_WORKLOAD_FAILED);
	assert_true(o.timeout);
	assert_string_equal(o.message, "TIMEOUT: time limit 00:01:00 reached");

	outcome_of(FIXTURE("scontrol-cancelled-assay.txt"), false, &o);
	assert_int_equal(o.code, ASSAY_WORKLOAD_FAILED);
	assert_true(o.cancelled && o.cancelled_by_assay);
	assert_string_equal(o.message, "CANCELLED by assay: error signature nccl-error matched");

	outcome_of(FIXTURE("scontrol-cancelled-other.txt"), false, &o);
	assert_true(o.cancelled);
	assert_false(o.cancelled_by_assay);
	assert_int_equal(o.code, ASSAY_WORKLOAD_FAILED);
	assert_string_equal(o.message, "CANCELLED by someone else (not assay: a user, an "
				       "administrator or Slurm itself) (Resources)");
	/* ... unless assay recorded its own scancel of the job. */
	outcome_of(FIXTURE("scontrol-cancelled-other.txt"), true, &o);
	assert_true(o.cancelled_by_assay);
	assert_string_equal(o.message, "CANCELLED by assay");

	outcome_of(FIXTURE("scontrol-pending.txt"), false, &o);
	assert_int_equal(o.phase, ASSAY_SLURM_PENDING);
	assert_int_equal(o.code, ASSAY_OK);
	assert_string_equal(o.message, "PENDING (Resources)");

	outcome_of(FIXTURE("scontrol-gpu-running.txt"), false, &o);
	assert_int_equal(o.phase, ASSAY_SLURM_RUNNING);
	assert_string_equal(o.message, "RUNNING on gpu[001-002]");

	/* PREEMPTED: final when the job cannot be requeued, followed otherwise. */
	outcome_of(FIXTURE("scontrol-gpu-preempted.txt"), false, &o);
	assert_int_equal(o.phase, ASSAY_SLURM_FINAL);
	assert_int_equal(o.code, ASSAY_WORKLOAD_FAILED);
	assert_string_equal(o.message, "PREEMPTED: preempted by another job and not requeueable");

	struct assay_slurm_jobinfo j;
	memset(&j, 0, sizeof(j));
	j.requeue = -1;
	j.exit_code = j.exit_signal = -1;
	j.time_limit_s = -1;
	snprintf(j.id, sizeof(j.id), "7");
	const struct {
		const char *state;
		enum assay_slurm_phase phase;
		assay_err code;
		const char *message;
	} table[] = {
	    {"PREEMPTED", ASSAY_SLURM_RUNNING, ASSAY_OK,
	     "PREEMPTED: preempted; waiting for Slurm to requeue it"},
	    {"REQUEUED", ASSAY_SLURM_PENDING, ASSAY_OK, "REQUEUED"},
	    {"CONFIGURING", ASSAY_SLURM_PENDING, ASSAY_OK, "CONFIGURING"},
	    {"COMPLETING", ASSAY_SLURM_RUNNING, ASSAY_OK, "COMPLETING"},
	    {"SUSPENDED", ASSAY_SLURM_RUNNING, ASSAY_OK, "SUSPENDED"},
	    {"NODE_FAIL", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED,
	     "NODE_FAIL: a node of the job failed"},
	    {"OUT_OF_MEMORY", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED,
	     "OUT_OF_MEMORY: the job exceeded its memory limit"},
	    {"BOOT_FAIL", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED,
	     "BOOT_FAIL: Slurm could not boot the job's nodes"},
	    {"DEADLINE", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, "DEADLINE: deadline reached"},
	    {"TIMEOUT", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, "TIMEOUT: time limit reached"},
	    {"REVOKED", ASSAY_SLURM_FINAL, ASSAY_INFRA,
	     "REVOKED: revoked: a sibling cluster of the federation runs it"},
	    {"SPECIAL_EXIT", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED,
	     "SPECIAL_EXIT: held after a special exit code"},
	    {"WEIRD", ASSAY_SLURM_FINAL, ASSAY_INFRA, "job 7: unknown Slurm job state \"WEIRD\""},
	};
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		snprintf(j.state, sizeof(j.state), "%s", table[i].state);
		assay_slurm_outcome(&j, false, &o);
		assert_int_equal(o.phase, table[i].phase);
		assert_int_equal(o.code, table[i].code);
		assert_string_equal(o.message, table[i].message);
		assert_int_equal(o.timeout, !strcmp(table[i].state, "TIMEOUT") ||
						!strcmp(table[i].state, "DEADLINE"));
	}
	snprintf(j.state, sizeof(j.state), "FAILED");
	j.exit_signal = 9;
	assay_slurm_outcome(&j, false, &o);
	assert_string_equal(o.message, "FAILED: the job failed, killed by signal 9");

	assay_slurm_outcome(NULL, false, &o);
	assert_int_equal(o.phase, ASSAY_SLURM_FINAL);
	assert_int_equal(o.code, ASSAY_INFRA);
	assert_string_equal(o.message, "the job is no longer known to Slurm and assay did not see "
				       "it end (purged after MinJobAge: poll more often)");

	/* No final state ever maps to ok except COMPLETED. */
	const char *every[] = {"PENDING",      "CONFIGURING",   "REQUEUED",  "REQUEUE_FED",
			       "REQUEUE_HOLD", "RESV_DEL_HOLD", "RUNNING",   "COMPLETING",
			       "SUSPENDED",    "STOPPED",       "RESIZING",  "SIGNALING",
			       "STAGE_OUT",    "PREEMPTED",     "COMPLETED", "FAILED",
			       "NODE_FAIL",    "OUT_OF_MEMORY", "BOOT_FAIL", "SPECIAL_EXIT",
			       "TIMEOUT",      "DEADLINE",      "CANCELLED", "REVOKED"};
	for (size_t i = 0; i < ARRAY_SIZE(every); i++) {
		enum assay_slurm_phase ph;
		assay_err code;
		assert_true(assay_slurm_state_class(every[i], &ph, &code));
		if (ph == ASSAY_SLURM_FINAL && strcmp(every[i], "COMPLETED"))
			assert_int_not_equal(code, ASSAY_OK);
	}
	enum assay_slurm_phase ph;
	assay_err code;
	assert_false(assay_slurm_state_class("completed", &ph, &code));
}

/* Mutations of the real samples: nothing crashes or leaks (ASan/UBSan). */
static void test_fuzz(void **state)
{
	(void)state;
	const char *files[] = {FIXTURE("squeue-final.txt"), FIXTURE("scontrol-gpu-running.txt"),
			       FIXTURE("scontrol-timeout.txt")};
	const char alphabet[] = "|=:- \n[]0123456789JobStateRUNNING()\xff";
	unsigned seed = 12345;
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		char *orig = slurp(files[f]);
		size_t len = strlen(orig);
		for (int round = 0; round < 3000; round++) {
			char *s = xstrdup(orig);
			int edits = 1 + round % 8;
			for (int k = 0; k < edits; k++) {
				seed = seed * 1103515245u + 12345u;
				size_t at = (seed >> 8) % (len ? len : 1);
				seed = seed * 1103515245u + 12345u;
				s[at] = alphabet[(seed >> 8) % (sizeof(alphabet) - 1)];
			}
			if (round % 5 == 0)
				s[(seed >> 4) % (len ? len : 1)] = '\0';
			struct assay_error e;
			struct assay_slurm_jobinfo *jobs, j;
			size_t n;
			struct assay_slurm_outcome o;
			if (assay_slurm_parse_squeue(s, &jobs, &n, &e) == ASSAY_OK) {
				for (size_t i = 0; i < n; i++)
					assay_slurm_outcome(&jobs[i], false, &o);
				assay_slurm_jobinfo_free_array(jobs, n);
			}
			if (assay_slurm_parse_scontrol(s, &j, &e) == ASSAY_OK) {
				assay_slurm_outcome(&j, false, &o);
				assay_slurm_jobinfo_release(&j);
			}
			char id[32], cl[32];
			assay_slurm_parse_sbatch(s, id, sizeof(id), cl, sizeof(cl), &e);
			long long secs;
			s[(seed >> 3) % (len ? len : 1) % 24] = '\0';
			assay_slurm_time_parse(s, &secs);
			struct strlist hosts = STRLIST_INIT;
			if (assay_hostlist_expand(s, &hosts, &e) == ASSAY_OK)
				assert_true(hosts.n > 0);
			strlist_clear(&hosts);
			free(s);
		}
		free(orig);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_time_parse), cmocka_unit_test(test_sbatch),
	    cmocka_unit_test(test_squeue),     cmocka_unit_test(test_scontrol),
	    cmocka_unit_test(test_outcomes),   cmocka_unit_test(test_fuzz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
