/* End-to-end smoke test of the Slurm launcher's pure parts against a real
 * Slurm (started by slurm-up.sh): scripts from assay_slurm_script() submitted
 * with sbatch --parsable, polled with squeue and scontrol through assay's
 * parsers, and mapped to outcomes: COMPLETED (with a hostile argument and a
 * secret passed by environment only), FAILED and CANCELLED by assay;
 * then, under salloc, allocation detection and an srun step built by
 * assay_slurm_step_argv().
 * Exits 77 (skip) when Slurm is not up, unless ASSAY_REQUIRE_SLURM=1. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/slurm.h"

#define POLL_S     0.5
#define DEADLINE_S 300.0

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static int skip(const char *why)
{
	const char *req = getenv("ASSAY_REQUIRE_SLURM");
	if (req && !strcmp(req, "1")) {
		fprintf(stderr, "FAIL: %s (ASSAY_REQUIRE_SLURM=1)\n", why);
		return 1;
	}
	printf("SKIP: %s\n", why);
	return 77;
}

/* Run argv; stdout into *out, stderr into *err (either may be NULL). Returns
 * the exit status, or -1 when it could not run. */
static int run(const char *const argv[], char **out, char **err)
{
	char errpath[] = "/tmp/assay-smoke-err-XXXXXX";
	int efd = mkstemp(errpath);
	int pfd[2];
	if (efd < 0 || pipe(pfd) < 0)
		return -1;
	unlink(errpath);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(efd, 2);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	struct sbuf sb = SBUF_INIT;
	char buf[4096];
	ssize_t n;
	while ((n = read(pfd[0], buf, sizeof(buf))) > 0)
		sbuf_add(&sb, buf, (size_t)n);
	close(pfd[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	if (out)
		*out = sbuf_detach(&sb, NULL);
	sbuf_release(&sb);
	if (err) {
		struct sbuf eb = SBUF_INIT;
		lseek(efd, 0, SEEK_SET);
		while ((n = read(efd, buf, sizeof(buf))) > 0)
			sbuf_add(&eb, buf, (size_t)n);
		*err = sbuf_detach(&eb, NULL);
	}
	close(efd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&ts, NULL);
}

struct job {
	const char *name;
	struct assay_slurm_step step;
	const char *const *argv;
	size_t argc;
	const char *time;
	char dir[300], status[320], script_path[320];
	char id[32];
	bool cancel_when_running, assay_cancelled, final;
	struct assay_slurm_outcome outcome;
	struct assay_slurm_jobinfo info; /* from scontrol, once final */
};

static const char hostile[] = "it's $(touch /tmp/assay-pwned) `id` \"q\" \\ ; *";

/* Generate, write and submit one job; false on failure. */
static bool submit(struct job *j, const char *work)
{
	struct assay_slurm_options o;
	struct assay_error e;
	struct sbuf sb = SBUF_INIT;
	const char *const secrets[] = {"ASSAY_SMOKE_SECRET"};
	assay_slurm_options_init(&o);
	o.time = xstrdup(j->time);
	/* A log folder that #SBATCH must quote and scontrol prints with spaces. */
	snprintf(j->dir, sizeof(j->dir), "%s/logs of %s #1 (it's)", work, j->name);
	snprintf(j->status, sizeof(j->status), "%s/slurm-exit", j->dir);
	snprintf(j->script_path, sizeof(j->script_path), "%s/%s.sh", work, j->name);
	mkdir(j->dir, 0755);
	j->step = (struct assay_slurm_step){j->name, j->argv, j->argc, false, j->dir, j->status,
					    NULL,    0,       NULL,    NULL,  0,      false};
	struct assay_slurm_job job = {.name = j->name,
				      .shape = {1, 1, 0},
				      .o = &o,
				      .log_dir = j->dir,
				      .secrets = secrets,
				      .n_secrets = 1,
				      .master_addr = true,
				      .steps = &j->step,
				      .n_steps = 1};
	bool ok = assay_slurm_script(&job, &sb, &e) == ASSAY_OK;
	CHECK(ok, "%s: assay_slurm_script: %s", j->name, e.message);
	CHECK(!strstr(sbuf_str(&sb), getenv("ASSAY_SMOKE_SECRET")),
	      "%s: the secret's value is in the script", j->name);
	ok = ok && assay_write_file_atomic(j->script_path, sb.buf, sb.len, &e) == ASSAY_OK;
	sbuf_release(&sb);
	assay_slurm_options_release(&o);
	if (!ok)
		return false;
	char *out = NULL, *err = NULL;
	const char *argv[] = {"sbatch", "--parsable", j->script_path, NULL};
	int rc = run(argv, &out, &err);
	ok =
	    rc == 0 && assay_slurm_parse_sbatch(out, j->id, sizeof(j->id), NULL, 0, &e) == ASSAY_OK;
	CHECK(ok, "%s: sbatch exited %d: %s%s", j->name, rc, err ? err : "",
	      rc == 0 ? e.message : "");
	if (ok)
		printf("submitted %s as job %s\n", j->name, j->id);
	free(out);
	free(err);
	return ok;
}

/* assay's cancel: mark the job record, then scancel. */
static void cancel(struct job *j)
{
	char update[128];
	snprintf(update, sizeof(update), "Comment=%s: smoke test cancels it",
		 ASSAY_SLURM_CANCEL_COMMENT);
	char jobid[48];
	snprintf(jobid, sizeof(jobid), "JobId=%s", j->id);
	const char *upd[] = {"scontrol", "update", jobid, update, NULL};
	const char *scancel[] = {"scancel", j->id, NULL};
	CHECK(run(upd, NULL, NULL) == 0, "scontrol update %s failed", jobid);
	CHECK(run(scancel, NULL, NULL) == 0, "scancel %s failed", j->id);
	j->assay_cancelled = true;
	printf("cancelled job %s\n", j->id);
}

/* Poll until every job is final (bounded). */
static void poll_all(struct job *jobs, size_t n)
{
	double start = assay_monotonic();
	struct sbuf ids = SBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sbuf_addf(&ids, "%s%s", i ? "," : "", jobs[i].id);
	size_t left = n;
	while (left && assay_monotonic() - start < DEADLINE_S) {
		char *out = NULL, *err = NULL;
		const char *argv[] = {"squeue", "-h",           "-t", "all",
				      "-j",     sbuf_str(&ids), "-o", ASSAY_SLURM_SQUEUE_FORMAT,
				      NULL};
		int rc = run(argv, &out, &err);
		struct assay_slurm_jobinfo *info = NULL;
		size_t ni = 0;
		struct assay_error e;
		if (rc != 0 || assay_slurm_parse_squeue(out, &info, &ni, &e) != ASSAY_OK) {
			CHECK(0, "squeue failed (%d): %s %s", rc, err ? err : "", out ? out : "");
			free(out);
			free(err);
			break;
		}
		for (size_t i = 0; i < n; i++) {
			struct job *j = &jobs[i];
			const struct assay_slurm_jobinfo *ji = NULL;
			for (size_t k = 0; k < ni; k++)
				if (!strcmp(info[k].id, j->id))
					ji = &info[k];
			if (j->final)
				continue;
			struct assay_slurm_outcome o;
			assay_slurm_outcome(ji, j->assay_cancelled, &o);
			if (o.phase == ASSAY_SLURM_RUNNING && j->cancel_when_running &&
			    !j->assay_cancelled)
				cancel(j);
			if (o.phase != ASSAY_SLURM_FINAL)
				continue;
			/* Final in squeue: the details come from scontrol show job. */
			char *sout = NULL, *serr = NULL;
			const char *sc[] = {"scontrol", "show", "job", j->id, NULL};
			int src = run(sc, &sout, &serr);
			if (src == 0 &&
			    assay_slurm_parse_scontrol(sout, &j->info, &e) == ASSAY_OK) {
				assay_slurm_outcome(&j->info, j->assay_cancelled, &j->outcome);
			} else {
				CHECK(0, "scontrol show job %s failed (%d): %s", j->id, src,
				      serr ? serr : "");
				j->outcome = o;
			}
			printf("job %s (%s): %s after %.1f s\n", j->id, j->name, j->outcome.message,
			       assay_monotonic() - start);
			j->final = true;
			left--;
			free(sout);
			free(serr);
		}
		assay_slurm_jobinfo_free_array(info, ni);
		free(out);
		free(err);
		if (left)
			sleep_s(POLL_S);
	}
	CHECK(left == 0, "%zu job(s) not final after %.0f s", left, DEADLINE_S);
	sbuf_release(&ids);
}

static char *read_text(const char *path)
{
	struct assay_error e;
	char *s = assay_read_file(path, NULL, &e);
	return s ? s : xstrdup("");
}

/* Under salloc (this program run again with --in-allocation): detect the
 * allocation, fit a one-node case into it, run the step assay would run. */
static int in_allocation(const char *work)
{
	extern char **environ;
	struct assay_slurm_alloc a;
	struct assay_error e;
	char why[512], host[256];
	struct strlist use = STRLIST_INIT, argv = STRLIST_INIT;
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	char *dot = strchr(host, '.');
	if (dot)
		*dot = '\0';
	if (assay_slurm_alloc_detect(environ, &a, &e) != ASSAY_OK) {
		fprintf(stderr, "FAIL: allocation detection: %s\n", e.message);
		return 1;
	}
	CHECK(a.inside && !a.in_step && a.nodes == 1, "inside=%d in_step=%d nodes=%lld", a.inside,
	      a.in_step, a.nodes);
	bool fits = assay_slurm_alloc_fits(&a, 1, NULL, NULL, &use, why, sizeof(why));
	CHECK(fits && use.n == 1 && !strcmp(use.v[0], host), "does not fit: %s", why);
	CHECK(!assay_slurm_alloc_fits(&a, 2, NULL, NULL, NULL, why, sizeof(why)),
	      "a two-node case fits a one-node allocation");
	char dir[400];
	snprintf(dir, sizeof(dir), "%s/alloc logs", work);
	mkdir(dir, 0755);
	const char *cmd[] = {"/bin/sh", "-c",
			     "printf 'step %s of job %s\\n' \"$SLURM_STEP_ID\" \"$SLURM_JOB_ID\""};
	struct assay_slurm_step step = {
	    "in-allocation", cmd, 3, false, dir, NULL, NULL, 0, NULL, NULL, 0, false};
	struct assay_slurm_job job = {.name = "assay-smoke-alloc",
				      .shape = {1, 1, 0},
				      .log_dir = dir,
				      .steps = &step,
				      .n_steps = 1};
	if (fits && assay_slurm_step_argv(&job, &step, use.v[0], &argv, &e) == ASSAY_OK) {
		const char **av = xcalloc(argv.n + 1, sizeof(*av));
		for (size_t i = 0; i < argv.n; i++)
			av[i] = argv.v[i];
		int rc = run(av, NULL, NULL);
		free(av);
		CHECK(rc == 0, "srun step exited %d", rc);
		char path[700], want[100];
		snprintf(path, sizeof(path), "%s/assay-smoke-alloc-%s-%s.out", dir, a.job_id, host);
		snprintf(want, sizeof(want), "step 0 of job %s\n", a.job_id);
		char *log = read_text(path);
		CHECK(!strcmp(log, want), "step log %s: \"%s\", want \"%s\"", path, log, want);
		free(log);
		printf("in allocation %s: step ran on %s\n", a.job_id, use.v[0]);
	}
	strlist_clear(&use);
	strlist_clear(&argv);
	assay_slurm_alloc_release(&a);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--in-allocation"))
		return in_allocation(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *conf = getenv("SLURM_CONF");
	if (!conf || access(conf, R_OK) != 0)
		return skip("Slurm is not running (SLURM_CONF unset or missing; "
			    "e2e/slurm/up skipped or failed)");
	const char *sinfo[] = {"sinfo", "-h", "-o", "%T", NULL};
	char *state = NULL;
	if (run(sinfo, &state, NULL) != 0) {
		free(state);
		return skip("sinfo failed: Slurm is not answering");
	}
	free(state);

	char host[256];
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	char *dot = strchr(host, '.');
	if (dot)
		*dot = '\0';
	char work[] = "/tmp/assay-e2e-slurm-XXXXXX";
	if (!mkdtemp(work)) {
		perror("mkdtemp");
		return 1;
	}
	chmod(work, 0755);
	/* The secret: in this process's environment only, so sbatch passes it. */
	char secret[40];
	snprintf(secret, sizeof(secret), "s3cr3t-%ld-%d", (long)time(NULL), (int)getpid());
	setenv("ASSAY_SMOKE_SECRET", secret, 1);

	const char *ok_argv[] = {"/bin/sh", "-c",
				 "printf '%s|%s|%s\\n' \"$1\" \"${#ASSAY_SMOKE_SECRET}\" "
				 "\"$MASTER_ADDR\"",
				 "sh", hostile};
	const char *sleep_argv[] = {"sleep", "600"};
	const char *fail_argv[] = {"/bin/sh", "-c", "echo failing on purpose >&2; exit 3"};
	/* The long one first: the node has few CPUs. (A job past its time limit
	 * is t-timeout.sh's, through assay run: one minute-long wait is enough.) */
	struct job jobs[] = {
	    {.name = "assay-smoke-cancel",
	     .argv = sleep_argv,
	     .argc = 2,
	     .time = "5",
	     .cancel_when_running = true},
	    {.name = "assay-smoke-ok", .argv = ok_argv, .argc = 5, .time = "2"},
	    {.name = "assay-smoke-fail", .argv = fail_argv, .argc = 3, .time = "2"},
	};
	size_t n = ARRAY_SIZE(jobs);
	bool submitted = true;
	for (size_t i = 0; i < n && submitted; i++)
		submitted = submit(&jobs[i], work);
	if (submitted)
		poll_all(jobs, n);

	if (submitted && !failures) {
		struct job *c = &jobs[0], *ok = &jobs[1], *f = &jobs[2];
		/* COMPLETED: outcome ok, per-node log with the exact argument, the
		 * secret's length (not its value) and MASTER_ADDR = the node. */
		CHECK(ok->outcome.code == ASSAY_OK && !strcmp(ok->outcome.message, "COMPLETED"),
		      "ok job: %s", ok->outcome.message);
		char path[700], want[600];
		snprintf(path, sizeof(path), "%s/%s-%s-%s.out", ok->dir, ok->name, ok->id, host);
		char *log = read_text(path);
		snprintf(want, sizeof(want), "%s|%zu|%s\n", hostile, strlen(secret), host);
		CHECK(!strcmp(log, want), "per-node log %s: got \"%s\", want \"%s\"", path, log,
		      want);
		free(log);
		log = read_text(ok->status);
		CHECK(!strcmp(log, "0\n"), "ok status file: \"%s\"", log);
		free(log);
		CHECK(access("/tmp/assay-pwned", F_OK) != 0, "a hostile argument ran a command");
		snprintf(path, sizeof(path), "%s/%s-%s.out", ok->dir, ok->name, ok->id);
		CHECK(ok->info.std_out && !strcmp(ok->info.std_out, path),
		      "batch output: scontrol says %s, want %s",
		      ok->info.std_out ? ok->info.std_out : "(none)", path);

		/* FAILED: workload-failed with the step's exit code. */
		CHECK(f->outcome.code == ASSAY_WORKLOAD_FAILED &&
			  !strcmp(f->outcome.message,
				  "FAILED (NonZeroExitCode): the job failed, exit code 3"),
		      "fail job: %s", f->outcome.message);
		log = read_text(f->status);
		CHECK(!strcmp(log, "3\n"), "fail status file: \"%s\"", log);
		free(log);
		snprintf(path, sizeof(path), "%s/%s-%s-%s.err", f->dir, f->name, f->id, host);
		log = read_text(path);
		CHECK(!strcmp(log, "failing on purpose\n"), "per-node stderr %s: \"%s\"", path,
		      log);
		free(log);

		/* CANCELLED by assay: from assay's record and from the job record alone. */
		CHECK(c->outcome.code == ASSAY_WORKLOAD_FAILED && c->outcome.cancelled_by_assay &&
			  !strcmp(c->outcome.message, "CANCELLED by assay: smoke test cancels it"),
		      "cancel job: %s", c->outcome.message);
		struct assay_slurm_outcome o;
		assay_slurm_outcome(&c->info, false, &o);
		CHECK(o.cancelled_by_assay, "the job record alone does not say assay cancelled it");

		/* The in-allocation path: this program again, under salloc. */
		char self[512];
		ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[len > 0 ? len : 0] = '\0';
		const char *salloc[] = {
		    "salloc",          "-N1", "-J", "assay-smoke-alloc", "--time=2", self,
		    "--in-allocation", work,  NULL};
		char *out = NULL, *err = NULL;
		int rc = run(salloc, &out, &err);
		fputs(out, stdout);
		CHECK(rc == 0, "salloc run exited %d: %s", rc, err);
		free(out);
		free(err);
	}

	for (size_t i = 0; i < n; i++)
		assay_slurm_jobinfo_release(&jobs[i].info);
	if (failures) {
		fprintf(stderr, "%d check(s) failed; job files kept in %s\n", failures, work);
		return 1;
	}
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", work);
	printf("slurm smoke: all checks passed\n");
	return 0;
}
