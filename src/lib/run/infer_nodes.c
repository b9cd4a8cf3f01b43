/* An inference suite's server on nodes (docs/inference.md, "A server on
 * nodes"): started through the suite's launcher (ssh) as a job of its own
 * beside the cases, one process per node with the launcher's rank
 * variables (NODE_RANK, NNODES, MASTER_ADDR, MASTER_PORT), its nodes'
 * output appended to <run>/server/server.log as it arrives (the cases watch
 * that file for signatures, as they watch a local server's). It is stopped
 * as a case is: the launcher ends every labelled process on each node. Its
 * processes carry the label of a case named "server" (a role server's:
 * "server-<role>", its output in <run>/server-<role>/) of the attempt, so a
 * run killed with SIGKILL has them ended by the nodes themselves (ssh's
 * stdin closes) and, whatever is left, by `assay run --resume` (the ssh
 * launcher ends everything labelled with the run on every host). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/launch.h"
#include "run_int.h"

static void on_output(void *ctx, const char *stream, const char *data, size_t len)
{
	(void)stream;
	struct run_server *sv = ctx;
	while (sv->log >= 0 && len > 0) {
		ssize_t w = write(sv->log, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		data += w;
		len -= (size_t)w;
	}
}

static void close_log(struct run_server *sv)
{
	if (sv->log >= 0)
		close(sv->log);
	sv->log = -1;
}

assay_err run_nodes_start(struct run_ctx *rc, struct run_server *sv, const struct strlist *argv,
			  const char *cwd, const char *dir, struct assay_error *e)
{
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	char *log = xasprintf("%s/server.log", dir);
	sv->log = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	assay_err err = ASSAY_OK;
	if (sv->log < 0)
		err = assay_error_set(e, ASSAY_INFRA, "cannot write %s: %s", log, strerror(errno));
	free(log);
	struct strlist env = STRLIST_INIT;
	struct assay_launch_spec spec = {
	    .case_id = sv->k->id,
	    .dir = dir,
	    .argv = argv,
	    .env = &env,
	    .cwd = cwd,
	    .nodes = sv->k->nodes,
	    .first_host = sv->k->first_host,
	    .redact = &rc->redact,
	    .on_output = on_output,
	    .ctx = sv,
	    .attempt = rc->attempt,
	    .run_id = rc->res->run_id,
	};
	if (err == ASSAY_OK)
		err = ops->prepare(rc->suite.launcher, &spec, &sv->job, e);
	if (err == ASSAY_OK) {
		struct sbuf desc = SBUF_INIT;
		struct assay_error ignore;
		ops->describe(sv->job, &desc);
		char *path = xasprintf("%s/command.txt", dir);
		assay_write_file_atomic(path, desc.buf, desc.len, &ignore);
		free(path);
		sbuf_release(&desc);
		err = ops->submit(sv->job, e);
	}
	strlist_clear(&env);
	if (err != ASSAY_OK) {
		if (sv->job)
			ops->release(sv->job); /* ends what it started */
		sv->job = NULL;
		close_log(sv);
		if (err == ASSAY_USAGE)
			err = ASSAY_INFRA;
	}
	return err;
}

bool run_nodes_alive(struct run_ctx *rc, struct run_server *sv, double wait_s, char *why, size_t n)
{
	if (!sv->job)
		return false;
	struct assay_job_status st = {0};
	struct assay_error e;
	if (rc->suite.launcher->ops->poll(sv->job, wait_s, &st, &e) != ASSAY_OK) {
		snprintf(why, n, "%s", e.message);
		return false;
	}
	if (st.end == ASSAY_JOB_RUNNING)
		return true;
	if (st.detail[0]) /* the launcher's words name the node */
		snprintf(why, n, "%s", st.detail);
	else if (st.end == ASSAY_JOB_EXITED)
		snprintf(why, n, "exit code %d", st.exit_code);
	else
		snprintf(why, n, "it ended");
	return false;
}

void run_server_poll(struct run_ctx *rc)
{
	char why[600];
	for (size_t i = 0; rc->servers && i < rc->suite.n_infer; i++)
		if (rc->servers[i].job)
			run_nodes_alive(rc, &rc->servers[i], 0, why, sizeof(why));
}

/* SIGTERM on every node (the launcher's stop), then, after stop_grace_s,
 * SIGKILL to everything labelled; the job collected and released. */
void run_nodes_stop(struct run_ctx *rc, struct run_server *sv)
{
	if (!sv->job)
		return;
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	double grace = sv->k->stop_grace_s;
	double t0 = assay_monotonic();
	bool killed = false;
	char why[600];
	ops->cancel(sv->job);
	/* The launcher escalates by itself when a node does not answer; the
	 * last bound is for a launcher that never says the job ended. */
	while (run_nodes_alive(rc, sv, 0.2, why, sizeof(why)) &&
	       assay_monotonic() - t0 < grace + 120) {
		if (!killed && assay_monotonic() - t0 >= grace) {
			ops->cancel(sv->job); /* a second stop: now */
			killed = true;
		}
	}
	struct assay_error ignore;
	ops->collect(sv->job, &ignore);
	ops->release(sv->job);
	sv->job = NULL;
	close_log(sv);
}
