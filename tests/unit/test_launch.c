/* Unit tests for the local launcher: capture into the case folder, exit
 * codes and signals, redaction of captured output, timeout and cancel stop
 * every process of the case, leftovers are stopped, commands that cannot
 * start, MPI starter flags and printable command lines. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/launch.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/assay-test-launch-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

struct seen {
	struct sbuf out, err;
};

static void on_output(void *ctx, const char *stream, const char *data, size_t len)
{
	struct seen *s = ctx;
	sbuf_add(!strcmp(stream, "stdout") ? &s->out : &s->err, data, len);
}

/* Run sh -c script to its end; returns the final status. With
 * cancel_on_ready, cancel the job once it printed "ready". */
static struct assay_job_status run_sh(const char *script, double timeout, double grace,
				      const struct assay_redactor *r, struct seen *seen,
				      bool cancel_on_ready)
{
	struct assay_local_opts o = {grace, STRLIST_INIT, STRLIST_INIT, true};
	struct assay_launcher *l = assay_launcher_local_new(&o);
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, "sh");
	strlist_push(&argv, "-c");
	strlist_push(&argv, script);
	struct assay_launch_spec spec = {0};
	spec.case_id = "c1";
	spec.dir = dir;
	spec.argv = &argv;
	spec.timeout_s = timeout;
	spec.redact = r;
	spec.on_output = on_output;
	spec.ctx = seen;
	struct assay_job *job;
	struct assay_error e;
	assert_int_equal(l->ops->prepare(l, &spec, &job, &e), ASSAY_OK);
	assert_int_equal(l->ops->submit(job, &e), ASSAY_OK);
	struct assay_job_status st;
	bool cancelled = false;
	do {
		assert_int_equal(l->ops->poll(job, 0.05, &st, &e), ASSAY_OK);
		if (cancel_on_ready && !cancelled && strstr(sbuf_str(&seen->out), "ready\n")) {
			l->ops->cancel(job);
			cancelled = true;
		}
	} while (st.end == ASSAY_JOB_RUNNING);
	assert_int_equal(l->ops->collect(job, &e), ASSAY_OK);
	l->ops->release(job);
	assay_launcher_free(l);
	strlist_clear(&argv);
	return st;
}

static char *slurp(const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct assay_error e;
	char *s = assay_read_file(path, NULL, &e);
	assert_non_null(s);
	return s;
}

/* Is pid gone (or a zombie nobody waits for)? */
static bool gone(long pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return true;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	return p && (p[2] == 'Z' || p[2] == 'X');
}

static void check_pids_gone(const char *file)
{
	char *pids = slurp(file);
	int count = 0;
	for (char *p = pids; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		if (!gone(pid))
			fail_msg("process %ld of the case survived", pid);
		count++;
		p = end;
	}
	assert_true(count >= 2);
	free(pids);
}

static void test_capture_and_exit(void **state)
{
	(void)state;
	struct seen seen = {SBUF_INIT, SBUF_INIT};
	struct assay_job_status st = run_sh(
	    "echo hello; echo oops >&2; printf 'no newline'; exit 3", 0, 1, NULL, &seen, false);
	assert_int_equal(st.end, ASSAY_JOB_EXITED);
	assert_int_equal(st.exit_code, 3);
	assert_string_equal(st.detail, "exit code 3");
	char *out = slurp("stdout.log"), *err = slurp("stderr.log");
	assert_string_equal(out, "hello\nno newline");
	assert_string_equal(err, "oops\n");
	assert_string_equal(sbuf_str(&seen.out), out);
	assert_string_equal(sbuf_str(&seen.err), err);
	free(out);
	free(err);
	sbuf_release(&seen.out);
	sbuf_release(&seen.err);

	st = run_sh("kill -SEGV $$", 0, 1, NULL, &seen, false);
	assert_int_equal(st.end, ASSAY_JOB_SIGNALED);
	assert_int_equal(st.signal, SIGSEGV);
	assert_string_equal(st.detail, "killed by signal 11 (SEGV)");
	sbuf_release(&seen.out);
	sbuf_release(&seen.err);
}

static void test_redacted_capture(void **state)
{
	(void)state;
	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	setenv("ASSAY_TEST_CANARY", "canary-5f2e9d1c", 1);
	assay_redactor_add(&r, "ASSAY_TEST_CANARY", getenv("ASSAY_TEST_CANARY"));
	struct seen seen = {SBUF_INIT, SBUF_INIT};
	/* The secret reaches the command through its environment, and is
	 * printed split over two writes. */
	struct assay_job_status st =
	    run_sh("printf 'token=%s\\n' \"$ASSAY_TEST_CANARY\"; printf 'canary-5f'; sleep 0.2; "
		   "printf '2e9d1c\\n' >&1; echo \"$ASSAY_TEST_CANARY\" >&2",
		   0, 1, &r, &seen, false);
	assert_int_equal(st.end, ASSAY_JOB_EXITED);
	char *out = slurp("stdout.log"), *err = slurp("stderr.log");
	assert_string_equal(out, "token=***\n***\n");
	assert_string_equal(err, "***\n");
	assert_string_equal(sbuf_str(&seen.out), out);
	free(out);
	free(err);
	sbuf_release(&seen.out);
	sbuf_release(&seen.err);
	assay_redactor_release(&r);
	unsetenv("ASSAY_TEST_CANARY");
}

static void test_timeout_stops_everything(void **state)
{
	(void)state;
	struct seen seen = {SBUF_INIT, SBUF_INIT};
	char script[512];
	/* Two background children and a grandchild in its own process group;
	 * the shell itself ignores SIGTERM, so only SIGKILL ends it. */
	snprintf(script, sizeof(script),
		 "trap '' TERM; sleep 100 & echo $! > %s/pids; "
		 "setsid sleep 100 & echo $! >> %s/pids; "
		 "sh -c 'sleep 100 & echo $! >> %s/pids; wait' & echo $! >> %s/pids; "
		 "sleep 0.2; echo started; wait",
		 dir, dir, dir, dir);
	struct assay_job_status st = run_sh(script, 1.5, 0.3, NULL, &seen, false);
	assert_int_equal(st.end, ASSAY_JOB_TIMED_OUT);
	assert_string_equal(st.detail, "timeout after 1.5 s");
	char *out = slurp("stdout.log");
	assert_string_equal(out, "started\n");
	free(out);
	check_pids_gone("pids");
	sbuf_release(&seen.out);
	sbuf_release(&seen.err);
}

static void test_cancel_and_leftovers(void **state)
{
	(void)state;
	struct seen seen = {SBUF_INIT, SBUF_INIT};
	char script[512];
	snprintf(script, sizeof(script),
		 "trap '' TERM; sleep 100 & echo $! > %s/pids; sleep 100 & echo $! >> %s/pids; "
		 "echo ready; wait",
		 dir, dir);
	struct assay_job_status st = run_sh(script, 0, 0.3, NULL, &seen, true);
	assert_int_equal(st.end, ASSAY_JOB_CANCELLED);
	check_pids_gone("pids");
	/* The command succeeds but leaves processes behind: they are stopped and
	 * the case keeps its exit code. */
	snprintf(script, sizeof(script),
		 "sleep 100 & echo $! > %s/pids; (trap '' TERM; sleep 100) & echo $! >> %s/pids; "
		 "echo ok",
		 dir, dir);
	st = run_sh(script, 0, 0.3, NULL, &seen, false);
	assert_int_equal(st.end, ASSAY_JOB_EXITED);
	assert_int_equal(st.exit_code, 0);
	check_pids_gone("pids");
	sbuf_release(&seen.out);
	sbuf_release(&seen.err);
}

static void test_not_started(void **state)
{
	(void)state;
	struct assay_launcher *l = assay_launcher_local_new(NULL);
	struct strlist argv = STRLIST_INIT;
	strlist_push(&argv, "/nonexistent/assay-test-cmd");
	struct assay_launch_spec spec = {0};
	spec.case_id = "c1";
	spec.dir = dir;
	spec.argv = &argv;
	struct assay_job *job;
	struct assay_error e;
	struct assay_job_status st;
	assert_int_equal(l->ops->prepare(l, &spec, &job, &e), ASSAY_OK);
	assert_int_equal(l->ops->submit(job, &e), ASSAY_OK);
	do
		assert_int_equal(l->ops->poll(job, 0.05, &st, &e), ASSAY_OK);
	while (st.end == ASSAY_JOB_RUNNING);
	assert_int_equal(st.end, ASSAY_JOB_NOT_STARTED);
	assert_string_equal(
	    st.detail, "cannot execute '/nonexistent/assay-test-cmd': No such file or directory");
	l->ops->release(job);
	assay_launcher_free(l);
	strlist_clear(&argv);
}

static void test_mpi_command_and_describe(void **state)
{
	(void)state;
	struct assay_local_opts o = {5, STRLIST_INIT, STRLIST_INIT, true};
	strlist_push(&o.mpirun_args, "--bind-to");
	strlist_push(&o.mpirun_args, "none");
	struct strlist argv = STRLIST_INIT, cmd = STRLIST_INIT;
	strlist_push(&argv, "assay-ep");
	strlist_push(&argv, "run");
	assay_mpi_command(&o, true, 100000, &argv, &cmd);
	char *line = strlist_join(&cmd, " ");
	if (geteuid() == 0)
		assert_string_equal(line, "mpirun -np 100000 --allow-run-as-root --oversubscribe "
					  "--bind-to none assay-ep run");
	else
		assert_string_equal(
		    line, "mpirun -np 100000 --oversubscribe --bind-to none assay-ep run");
	free(line);
	strlist_clear(&cmd);
	/* Not Open MPI, or flags turned off: exactly what was configured. */
	assay_mpi_command(&o, false, 100000, &argv, &cmd);
	line = strlist_join(&cmd, " ");
	assert_string_equal(line, "mpirun -np 100000 --bind-to none assay-ep run");
	free(line);
	strlist_clear(&cmd);
	assay_mpi_command(&o, true, 1, &argv, &cmd);
	assert_false(strlist_has(&cmd, "--oversubscribe"));
	strlist_clear(&cmd);
	strlist_clear(&o.mpirun_args);
	assert_true(assay_usable_cores() >= 1);

	struct assay_redactor r = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&r, "TOK", "it's-secret");
	struct strlist env = STRLIST_INIT;
	strlist_push(&env, "A=1");
	strlist_push(&env, "B=two words");
	strlist_push(&argv, "--token=it's-secret");
	strlist_push(&argv, "");
	struct sbuf sb = SBUF_INIT;
	assay_command_line(&env, &argv, &r, &sb);
	assert_string_equal(sbuf_str(&sb), "A=1 B='two words' assay-ep run '--token=***' ''");
	sbuf_release(&sb);
	strlist_clear(&env);
	strlist_clear(&argv);
	assay_redactor_release(&r);
}

static void test_launcher_parse(void **state)
{
	(void)state;
	struct assay_error e;
	struct assay_cfg c = {"suite.json", &e};
	struct assay_launcher *l;
	json_t *v = json_string("local");
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &l), 0);
	assert_string_equal(l->ops->name, "local");
	assay_launcher_free(l);
	json_decref(v);
	v = json_string("pbs");
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &l), -1);
	assert_string_equal(e.path, "$.launcher");
	assert_string_equal(e.message, "unknown launcher \"pbs\" (known: local, slurm, ssh)");
	json_decref(v);
	v = json_pack("{s:s, s:f, s:[s,s]}", "type", "local", "grace_s", 2.5, "mpirun", "mpiexec",
		      "-v");
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &l), 0);
	assay_launcher_free(l);
	json_decref(v);
	v = json_pack("{s:s, s:i}", "type", "local", "grace", 2);
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &l), -1);
	assert_string_equal(e.path, "$.launcher.grace");
	json_decref(v);
	v = json_pack("{s:s, s:i}", "type", "local", "grace_s", -1);
	assert_int_equal(assay_launcher_parse(&c, v, "$.launcher", &l), -1);
	assert_string_equal(e.path, "$.launcher.grace_s");
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_capture_and_exit),
	    cmocka_unit_test(test_redacted_capture),
	    cmocka_unit_test(test_timeout_stops_everything),
	    cmocka_unit_test(test_cancel_and_leftovers),
	    cmocka_unit_test(test_not_started),
	    cmocka_unit_test(test_mpi_command_and_describe),
	    cmocka_unit_test(test_launcher_parse),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
