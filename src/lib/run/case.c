/* One case through the pipeline: plan it, record its start, launch it, watch
 * its output and log files for error signatures (a match stops it after its
 * settle window),
 * then turn the end into exactly one outcome, check the suite's provenance
 * expectations (expect.c), parse its results into rows
 * (a training log also into <case>/steps.ndjson), gate them, and store
 * outcome, rows and verdicts in one transaction. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/launch.h"
#include "assay/parse.h"
#include "assay/training.h"
#include "assay/watch.h"
#include "run_int.h"

#define TAIL_CHUNK (1u << 20)

struct log_watch {
	struct assay_tail tail;
	struct assay_scanner scan;
	struct assay_redact_stream rs;
	int copy_fd; /* the redacted copy in <case>/logs/ */
};

struct stderr_lines {
	struct sbuf pending, first, last;
	/* A container's runtime, and the first line it printed of its own
	 * failure (assay_container_error_line()). */
	const struct assay_container *ctr;
	struct sbuf runtime;
};

struct watch {
	struct run_ctx *rc;
	const char *case_id;
	struct assay_scanner out, err;
	struct log_watch *logs;
	size_t n_logs;
	const struct assay_match *match; /* the winning match so far */
	bool settled;                    /* the settle window is over */
	struct stderr_lines errlines;    /* for exit-code reasons */
};

/* Every scanner of w, in turn: out, err, then the logs'. */
static struct assay_scanner *scanner_at(struct watch *w, size_t i)
{
	return i == 0              ? &w->out
	       : i == 1            ? &w->err
	       : i - 2 < w->n_logs ? &w->logs[i - 2].scan
				   : NULL;
}

/* The settle window (docs/suite.md, "Error signatures"): it opens at the
 * first match anywhere and closes after that signature's settle_s, or once
 * a scanner has read its settle_lines; then every scanner stops and the
 * match of the highest priority (then the earliest) is the case's. */
static void watch_update(struct watch *w, double now, bool end)
{
	const struct assay_match *first = NULL, *best = NULL;
	bool closed = false;
	struct assay_scanner *s;
	for (size_t i = 0; (s = scanner_at(w, i)); i++) {
		if (!end)
			assay_scanner_tick(s, now);
		closed |= s->closed;
		if (!s->matched)
			continue;
		if (!first || s->match.at < first->at)
			first = &s->match;
		if (!best || s->match.priority > best->priority ||
		    (s->match.priority == best->priority && s->match.at < best->at))
			best = &s->match;
	}
	if (first && !w->settled && (end || closed || now - first->at >= first->settle_s)) {
		w->settled = true;
		for (size_t i = 0; (s = scanner_at(w, i)); i++)
			assay_scanner_close(s);
	}
	w->match = best;
}

/* A line worth quoting: not empty and not a banner of dashes or stars. */
static bool meaningful(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'A' && p[i] <= 'Z') ||
		    (p[i] >= 'a' && p[i] <= 'z'))
			return true;
	return false;
}

/* Keep stderr's first and last meaningful lines, for the reason of a
 * non-zero exit: the first often says what went wrong (mpirun's banners
 * come after the rank's own message), the last how it ended. */
static void keep_lines(struct stderr_lines *l, const char *data, size_t len)
{
	sbuf_add(&l->pending, data, len);
	size_t start = 0;
	for (size_t i = 0; i < l->pending.len; i++) {
		if (l->pending.buf[i] != '\n' && l->pending.buf[i] != '\r')
			continue;
		const char *line = l->pending.buf + start;
		size_t n = i - start;
		while (n && (*line == ' ' || *line == '\t'))
			line++, n--;
		if (n > 300)
			n = 300;
		if (l->ctr && !l->runtime.len &&
		    assay_container_error_line(l->ctr->runtime, line, n))
			sbuf_add(&l->runtime, line, n);
		if (meaningful(line, n)) {
			if (!l->first.len)
				sbuf_add(&l->first, line, n);
			sbuf_reset(&l->last);
			sbuf_add(&l->last, line, n);
		}
		start = i + 1;
	}
	if (start) {
		memmove(l->pending.buf, l->pending.buf + start, l->pending.len - start);
		l->pending.len -= start;
		l->pending.buf[l->pending.len] = '\0';
	}
	if (l->pending.len > 4096)
		sbuf_reset(&l->pending); /* a runaway line: not quotable anyway */
}

static void on_output(void *ctx, const char *stream, const char *data, size_t len)
{
	struct watch *w = ctx;
	bool is_out = !strcmp(stream, "stdout");
	struct assay_scanner *s = is_out ? &w->out : &w->err;
	if (!is_out)
		keep_lines(&w->errlines, data, len);
	assay_scanner_feed(s, data, len);
}

/* Before the workload runs: record in the store how to find it again. */
static assay_err on_record(void *ctx, const struct assay_proc_record *r, struct assay_error *e)
{
	struct watch *w = ctx;
	return assay_store_proc_record(w->rc->store, w->rc->res->run_id, w->case_id, w->rc->attempt,
				       r, e);
}

static assay_err write_all(int fd, const char *data, size_t len, const char *what,
			   struct assay_error *e)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return assay_error_at(e, ASSAY_INFRA, what, NULL, 0, "cannot write: %s",
					      strerror(errno));
		data += n;
		len -= (size_t)n;
	}
	return ASSAY_OK;
}

/* Read what the watched log files gained since the last look (only new
 * bytes), keep a redacted copy and scan it. At the end, flush. */
static assay_err tail_logs(struct watch *w, bool final, struct assay_error *e)
{
	struct sbuf raw = SBUF_INIT, red = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < w->n_logs && rc == ASSAY_OK; i++) {
		struct log_watch *l = &w->logs[i];
		for (;;) {
			sbuf_reset(&raw);
			sbuf_reset(&red);
			long long got = assay_tail_read(&l->tail, &raw, TAIL_CHUNK);
			if (got <= 0)
				break; /* nothing new, or unreadable for now: try again later */
			assay_redact_stream_feed(&l->rs, raw.buf, raw.len, &red);
			if ((rc = write_all(l->copy_fd, red.buf, red.len, l->tail.path, e)) !=
			    ASSAY_OK)
				break;
			assay_scanner_feed(&l->scan, red.buf, red.len);
			if ((size_t)got < TAIL_CHUNK)
				break;
		}
		if (final && rc == ASSAY_OK) {
			sbuf_reset(&red);
			assay_redact_stream_flush(&l->rs, &red);
			rc = write_all(l->copy_fd, red.buf, red.len, l->tail.path, e);
			assay_scanner_feed(&l->scan, red.buf, red.len);
			assay_scanner_finish(&l->scan);
		}
	}
	sbuf_release(&raw);
	sbuf_release(&red);
	return rc;
}

char *run_log_copy(const char *case_dir, size_t i, const char *log)
{
	const char *base = strrchr(log, '/');
	return xasprintf("%s/logs/%zu-%s", case_dir, i + 1, base ? base + 1 : log);
}

static assay_err watch_init(struct watch *w, struct run_ctx *rc, const struct assay_case_plan *p,
			    const char *case_dir, struct assay_error *e)
{
	memset(w, 0, sizeof(*w));
	w->rc = rc;
	assay_scanner_init(&w->out, &rc->suite.signatures, "stdout");
	assay_scanner_init(&w->err, &rc->suite.signatures, "stderr");
	if (p->container.on)
		w->errlines.ctr = &p->container;
	if (!p->logs.n)
		return ASSAY_OK;
	char *dir = xasprintf("%s/logs", case_dir);
	assay_err err = assay_mkdirs(dir, e);
	w->logs = xcalloc(p->logs.n, sizeof(*w->logs));
	for (size_t i = 0; i < p->logs.n && err == ASSAY_OK; i++) {
		struct log_watch *l = &w->logs[w->n_logs++];
		assay_tail_init(&l->tail, p->logs.v[i]);
		assay_tail_skip_existing(&l->tail); /* only this case's lines */
		assay_scanner_init(&l->scan, &rc->suite.signatures, p->logs.v[i]);
		assay_redact_stream_init(&l->rs, &rc->redact);
		char *copy = run_log_copy(case_dir, i, p->logs.v[i]);
		l->copy_fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (l->copy_fd < 0)
			err = assay_error_at(e, ASSAY_INFRA, copy, NULL, 0, "cannot write: %s",
					     strerror(errno));
		free(copy);
	}
	free(dir);
	return err;
}

static void watch_release(struct watch *w)
{
	assay_scanner_release(&w->out);
	assay_scanner_release(&w->err);
	for (size_t i = 0; i < w->n_logs; i++) {
		struct log_watch *l = &w->logs[i];
		assay_tail_release(&l->tail);
		assay_scanner_release(&l->scan);
		assay_redact_stream_release(&l->rs);
		if (l->copy_fd >= 0)
			close(l->copy_fd);
	}
	free(w->logs);
	sbuf_release(&w->errlines.pending);
	sbuf_release(&w->errlines.first);
	sbuf_release(&w->errlines.last);
	sbuf_release(&w->errlines.runtime);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

/* A case run again (--resume) starts from an empty folder, so nothing a
 * killed attempt left behind can be mistaken for this attempt's results. */
static assay_err fresh_dir(const char *dir, struct assay_error *e)
{
	if (access(dir, F_OK) == 0 && nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return assay_error_at(e, ASSAY_INFRA, dir, NULL, 0,
				      "cannot clear the case folder: %s", strerror(errno));
	return assay_mkdirs(dir, e);
}

/* What assay-ep said when it exited 4 (unsupported): the artifact's reason. */
static char *ep_unsupported_reason(const char *artifact)
{
	struct assay_error e;
	json_t *doc = assay_json_load_file(artifact, &e);
	char *out = NULL;
	if (doc) {
		const json_t *r = json_object_get(doc, "reason");
		const json_t *rs = json_object_get(doc, "reasons");
		if (json_is_string(r))
			out = xstrdup(json_string_value(r));
		else if (json_is_array(rs) && json_is_string(json_array_get(rs, 0)))
			out = xstrdup(json_string_value(json_array_get(rs, 0)));
		json_decref(doc);
	}
	return out ? out : xstrdup("assay-ep reported the case unsupported (exit 4)");
}

/* The container runtime failed, not the workload: it could not be run, or
 * it exited with its own error (docs/containers.md, "Infrastructure
 * failures"). Infrastructure: --resume runs the case again. */
static bool runtime_failed(struct run_ctx *rc, const struct assay_case_plan *p,
			   const struct watch *w, const struct assay_job_status *st,
			   struct assay_case_outcome *out)
{
	const struct assay_container *ctr = &p->container;
	const char *rt = assay_ctr_runtime_names[ctr->runtime];
	if (!ctr->on)
		return false;
	if (st->end == ASSAY_JOB_NOT_STARTED) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_INFRA, ASSAY_FAILURE_NOT_STARTED,
				 "container runtime %s: %s", rt, st->detail);
		return true;
	}
	const char *line = sbuf_str(&w->errlines.runtime);
	if (st->end != ASSAY_JOB_EXITED ||
	    !assay_container_runtime_failed(ctr->runtime, st->exit_code, line))
		return false;
	case_outcome_set(rc, out, ASSAY_OUTCOME_INFRA, ASSAY_FAILURE_NOT_STARTED,
			 "container runtime %s failed (exit code %d): %s", rt, st->exit_code, line);
	return true;
}

/* Turn the launcher's end and the watch into the case's outcome. */
static void decide_end(struct run_ctx *rc, const struct assay_suite_case *c,
		       const struct assay_case_plan *p, const struct watch *w,
		       const struct assay_job_status *st, struct assay_case_outcome *out)
{
	if (w->match) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_SIGNATURE,
				 "signature %s in %s: %s", w->match->signature, w->match->source,
				 w->match->line);
		out->signature = xstrdup(w->match->signature);
		out->source = xstrdup(w->match->source);
		out->line = xstrdup(w->match->line);
		return;
	}
	if (runtime_failed(rc, p, w, st, out))
		return;
	switch (st->end) {
	case ASSAY_JOB_NOT_STARTED:
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_NOT_STARTED,
				 "%s", st->detail);
		return;
	case ASSAY_JOB_TIMED_OUT:
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_TIMEOUT,
				 "%s", st->detail);
		return;
	case ASSAY_JOB_SIGNALED:
	case ASSAY_JOB_CANCELLED:
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_SIGNAL, "%s",
				 st->detail);
		return;
	default: break;
	}
	if (st->exit_code == 4 && c->ep) {
		/* assay-ep's exit 4: the backend cannot run this case here. */
		char *why = ep_unsupported_reason(p->artifact);
		case_outcome_set(rc, out, ASSAY_OUTCOME_UNSUPPORTED, ASSAY_FAILURE_NONE, "%s", why);
		free(why);
		return;
	}
	if (st->exit_code == 4 && rc->suite.coll && rc->suite.coll->assay_coll) {
		/* assay-coll's exit 4: its backend cannot run here (nccl without a
		 * GPU, shm across nodes); its one stderr line says why. */
		const char *why = w->errlines.first.len ? w->errlines.first.buf
							: "assay-coll: backend unsupported here";
		case_outcome_set(rc, out, ASSAY_OUTCOME_UNSUPPORTED, ASSAY_FAILURE_NONE, "%s", why);
		return;
	}
	if (st->exit_code != 0) {
		const struct stderr_lines *l = &w->errlines;
		if (l->first.len && strcmp(l->first.buf, l->last.buf))
			case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_EXIT,
					 "%s; stderr: %s ... %s", st->detail, l->first.buf,
					 l->last.buf);
		else if (l->first.len)
			case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_EXIT,
					 "%s; stderr: %s", st->detail, l->first.buf);
		else
			case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_EXIT,
					 "%s", st->detail);
		return;
	}
	/* Exit 0: the results decide (parse_results). */
	case_outcome_set(rc, out, ASSAY_OUTCOME_PASSED, ASSAY_FAILURE_NONE, NULL);
}

/* Gates and the reason that sums them up: a case that produced results is
 * gated (FAIL: gate-failed); a training run that failed keeps its
 * run-health verdicts, which say why. */
static assay_err judge(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		       struct run_parsed *pr, struct assay_case_outcome *out, struct assay_error *e)
{
	if (out->outcome == ASSAY_OUTCOME_PASSED && (pr->rows.n || pr->have_train)) {
		assay_err err = run_gates(rc, index, c, &pr->rows,
					  pr->have_train ? &pr->train : NULL, &out->verdicts, e);
		if (err != ASSAY_OK)
			return err;
		if (assay_verdicts_outcome(&out->verdicts) == ASSAY_GATE_FAILED)
			out->outcome = ASSAY_OUTCOME_GATE_FAILED;
		if (out->verdicts.n) {
			struct sbuf sb = SBUF_INIT;
			run_verdict_digest(&out->verdicts, &sb);
			case_outcome_set(rc, out, out->outcome, ASSAY_FAILURE_NONE, "%s",
					 sbuf_str(&sb));
			sbuf_release(&sb);
		}
	} else if (pr->have_train && out->outcome == ASSAY_OUTCOME_WORKLOAD_FAILED) {
		assay_gate_run(&pr->train, &out->verdicts);
	}
	return ASSAY_OK;
}

static assay_err follow(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
			struct assay_job *job, struct watch *w, struct assay_job_status *st,
			bool *interrupted, struct assay_error *e)
{
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	bool cancelled = false;
	double last_tick = assay_monotonic();
	char where[sizeof(st->where)] = "";
	do {
		assay_err err = ops->poll(job, 0.1, st, e);
		run_server_poll(rc); /* a server on nodes: its output into server.log */
		if (err == ASSAY_OK)
			err = tail_logs(w, false, e);
		if (err != ASSAY_OK)
			return err;
		watch_update(w, assay_monotonic(), false);
		if (w->settled && !cancelled) {
			ops->cancel(job); /* the case has failed: stop it now */
			cancelled = true;
		}
		if (run_interrupt_pending(rc)) {
			/* First time: stop gracefully; again: kill now. */
			ops->cancel(job);
			if (!*interrupted)
				run_event(rc, ASSAY_EVENT_INTERRUPT, index, c->id, NULL,
					  st->elapsed_s, NULL);
			*interrupted = true;
		}
		double now = assay_monotonic();
		if (st->end == ASSAY_JOB_RUNNING && strcmp(where, st->where)) {
			/* A queue state or the nodes it runs on (Slurm). */
			snprintf(where, sizeof(where), "%s", st->where);
			if (where[0])
				run_event(rc, ASSAY_EVENT_STATE, index, c->id, NULL, st->elapsed_s,
					  where);
		}
		if (now - last_tick >= 1.0 && st->end == ASSAY_JOB_RUNNING) {
			run_event(rc, ASSAY_EVENT_TICK, index, c->id, NULL, st->elapsed_s,
				  where[0] ? where : NULL);
			last_tick = now;
		}
	} while (st->end == ASSAY_JOB_RUNNING);
	assay_scanner_finish(&w->out);
	assay_scanner_finish(&w->err);
	assay_err err = tail_logs(w, true, e);
	watch_update(w, assay_monotonic(), true);
	return err;
}

void run_launch_spec(const struct run_ctx *rc, const struct assay_suite_case *c,
		     const struct assay_case_plan *p, const char *dir,
		     struct assay_launch_spec *spec)
{
	*spec = (struct assay_launch_spec){
	    .case_id = c->id,
	    .dir = dir,
	    .argv = &p->argv,
	    .env = &p->env,
	    .cwd = p->cwd,
	    .timeout_s = rc->suite.timeout_s,
	    .mpi_ranks = p->mpi_ranks,
	    .nodes = c->nodes,
	    .redact = &rc->redact,
	    .attempt = rc->attempt,
	    .container = p->container.on ? &p->container : NULL,
	    .run_id = rc->res->run_id,
	    .per_task_logs = assay_suite_expect_per_rank(&rc->suite),
	};
	assay_suite_place(&rc->suite, c, spec);
}

/* Image provenance: the digest the runtime resolves the image to (podman,
 * docker: `image inspect`), or the reference as given (pyxis, enroot,
 * apptainer resolve it on the node). An image not present yet is left to
 * the runtime (its run pulls it) and inspected again after the case. */
static assay_err record_image(struct run_ctx *rc, const struct assay_suite_case *c,
			      const struct assay_container *ctr, struct assay_case_outcome *out,
			      struct assay_error *e)
{
	struct sbuf d = SBUF_INIT;
	struct assay_error ignore;
	if (assay_container_digest(ctr, &d, &ignore) != ASSAY_OK)
		sbuf_reset(&d);
	assay_err err = assay_store_case_image(rc->store, rc->res->run_id, c->id, ctr->image,
					       d.len ? sbuf_str(&d) : NULL, e);
	free(out->image);
	free(out->image_digest);
	out->image = xstrdup(ctr->image);
	out->image_digest = d.len ? sbuf_detach(&d, NULL) : NULL;
	sbuf_release(&d);
	return err;
}

/* One case as it runs: its folder, plan, job and the watch on it. */
struct case_run {
	struct run_ctx *rc;
	size_t index;
	const struct assay_suite_case *c;
	struct assay_case_outcome *out;
	char *dir;
	struct assay_case_plan p;
	struct assay_job *job;
	struct watch w;
	bool watching, interrupted;
	struct run_before *before; /* the results files before it ran */
	struct assay_job_status st;
};

/* An empty case folder, the plan (and its timing file), the case begun in
 * the store. */
static assay_err case_begin(struct case_run *cr, struct assay_error *e)
{
	struct run_ctx *rc = cr->rc;
	assay_err err;
	if ((err = fresh_dir(cr->dir, e)) != ASSAY_OK ||
	    (err = assay_suite_plan(&rc->suite, cr->c, rc->res->run_id, cr->dir, rc->assay_ep,
				    &cr->p, e)) != ASSAY_OK)
		return err;
	if (cr->p.timing_file) {
		char *text = assay_json_dumps(cr->p.timing, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
		err = assay_write_file_atomic(cr->p.timing_file, text, strlen(text), e);
		free(text);
		if (err != ASSAY_OK)
			return err;
	}
	char *out_log = xasprintf("%s/stdout.log", cr->dir);
	char *err_log = xasprintf("%s/stderr.log", cr->dir);
	struct assay_case_info info = {cr->c->id, cr->c->factors, cr->dir, out_log, err_log, NULL};
	err = assay_store_case_begin(rc->store, rc->res->run_id, &info, e);
	free(out_log);
	free(err_log);
	if (err == ASSAY_OK)
		run_event(rc, ASSAY_EVENT_CASE_START, cr->index, cr->c->id, NULL, 0, NULL);
	return err;
}

/* Watch, prepare (<case>/command.txt), note the results files as they are
 * and submit. */
static assay_err case_launch(struct case_run *cr, struct assay_error *e)
{
	struct run_ctx *rc = cr->rc;
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	const struct assay_container *ctr = &cr->p.container;
	cr->watching = true;
	assay_err err = watch_init(&cr->w, rc, &cr->p, cr->dir, e);
	if (err != ASSAY_OK)
		return err;
	struct assay_launch_spec spec;
	run_launch_spec(rc, cr->c, &cr->p, cr->dir, &spec);
	spec.on_output = on_output;
	spec.on_record = on_record;
	spec.ctx = &cr->w;
	cr->w.case_id = cr->c->id;
	if ((err = ops->prepare(rc->suite.launcher, &spec, &cr->job, e)) != ASSAY_OK)
		return err;
	struct sbuf desc = SBUF_INIT;
	ops->describe(cr->job, &desc);
	char *cmd_file = xasprintf("%s/command.txt", cr->dir);
	err = assay_write_file_atomic(cmd_file, desc.buf, desc.len, e);
	free(cmd_file);
	sbuf_release(&desc);
	cr->before = run_results_snapshot(&cr->p);
	/* Recorded before it runs (a killed run keeps it), unless the runtime
	 * pulls the image anew: then only after. */
	if (err == ASSAY_OK && ctr->on && ctr->pull != ASSAY_CTR_PULL_ALWAYS)
		err = record_image(rc, cr->c, ctr, cr->out, e);
	if (err == ASSAY_OK)
		err = ops->submit(cr->job, e);
	return err;
}

/* Follow it to its end, collect, redact the case folder, and time it. */
static assay_err case_wait(struct case_run *cr, double t0, struct assay_error *e)
{
	struct run_ctx *rc = cr->rc;
	const struct assay_container *ctr = &cr->p.container;
	struct assay_case_outcome *out = cr->out;
	size_t redacted;
	assay_err err;
	if ((err = follow(rc, cr->index, cr->c, cr->job, &cr->w, &cr->st, &cr->interrupted, e)) !=
		ASSAY_OK ||
	    (err = rc->suite.launcher->ops->collect(cr->job, e)) != ASSAY_OK ||
	    (err = run_redact_case_dir(rc, cr->dir, &redacted, e)) != ASSAY_OK)
		return err;
	/* An image pulled by the case itself is known only now. */
	if (ctr->on && (!out->image_digest || ctr->pull == ASSAY_CTR_PULL_ALWAYS) &&
	    (err = record_image(rc, cr->c, ctr, out, e)) != ASSAY_OK)
		return err;
	out->duration_s = assay_monotonic() - t0;
	out->queue_s = cr->st.queue_s < out->duration_s ? cr->st.queue_s : out->duration_s;
	return ASSAY_OK;
}

/* Interrupted: skipped, stored without rows (--resume runs it again). */
static bool case_skipped(const struct case_run *cr)
{
	return cr->interrupted && !cr->w.match;
}

/* The job's end as the case's outcome, then provenance (expect): a node or
 * rank that did not show what it must fails the case as infrastructure,
 * before its results are read: numbers of another build never enter the
 * series. A workload failure stands; its provenance is still kept. */
static assay_err case_end(struct case_run *cr, struct assay_error *e)
{
	struct run_ctx *rc = cr->rc;
	struct assay_case_outcome *out = cr->out;
	if (case_skipped(cr)) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_SKIPPED, ASSAY_FAILURE_NONE,
				 "interrupted while running; resume to run it again");
		rc->res->interrupted = true;
		return ASSAY_OK;
	}
	decide_end(rc, cr->c, &cr->p, &cr->w, &cr->st, out);
	struct sbuf why = SBUF_INIT;
	assay_err err = run_expect(rc, cr->c, cr->dir, &why, e);
	if (err == ASSAY_OK && why.len && out->outcome == ASSAY_OUTCOME_PASSED)
		case_outcome_set(rc, out, ASSAY_OUTCOME_INFRA, ASSAY_FAILURE_PROVENANCE,
				 "provenance: %s", sbuf_str(&why));
	sbuf_release(&why);
	return err;
}

/* Store the case's end with its rows and verdicts (err: what went wrong
 * before, then nothing is stored). A row the store refuses (e.g. a unit
 * that disagrees with the stored series) leaves the case no usable
 * measurements: stored as no-metrics. */
static assay_err case_store(struct case_run *cr, struct run_parsed *pr, assay_err err,
			    struct assay_error *e)
{
	struct run_ctx *rc = cr->rc;
	struct assay_case_outcome *out = cr->out;
	const char *id = cr->c->id;
	if (err == ASSAY_OK) {
		struct assay_case_result r = {out->outcome,    out->reason, NULL,
					      out->duration_s, &pr->rows,   &out->verdicts};
		err = assay_store_case_finish(rc->store, rc->res->run_id, id, &r, e);
	}
	if (err == ASSAY_USAGE && pr->rows.n) {
		char buf[1200];
		case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
				 "the store refused the measurements: %s",
				 assay_error_format(e, buf, sizeof(buf)));
		assay_rows_release(&pr->rows);
		assay_verdicts_release(&out->verdicts);
		struct assay_case_result r2 = {ASSAY_OUTCOME_NO_METRICS, out->reason, NULL,
					       out->duration_s,          NULL,        NULL};
		err = assay_store_case_finish(rc->store, rc->res->run_id, id, &r2, e);
	}
	if (err == ASSAY_OK && out->queue_s > 0)
		err = assay_store_case_queue(rc->store, rc->res->run_id, id, out->queue_s, e);
	return err;
}

/* Its results parsed and gated (unless skipped), then stored. */
static assay_err case_results(struct case_run *cr, struct assay_error *e)
{
	struct run_ctx *rc = cr->rc;
	struct assay_case_outcome *out = cr->out;
	struct run_parsed pr = {ASSAY_ROWS_INIT, {0}, false};
	assay_err err = ASSAY_OK;
	if (!case_skipped(cr)) {
		if (out->outcome == ASSAY_OUTCOME_PASSED ||
		    out->outcome == ASSAY_OUTCOME_WORKLOAD_FAILED)
			err = run_parse_results(rc, cr->c, &cr->p, cr->before, cr->dir,
						out->outcome == ASSAY_OUTCOME_WORKLOAD_FAILED, out,
						&pr, e);
		if (err == ASSAY_OK && rc->suite.kind == ASSAY_SUITE_COLLECTIVE &&
		    (out->outcome == ASSAY_OUTCOME_PASSED || pr.rows.n))
			run_coll_correctness(rc, &pr.rows, out);
		if (err == ASSAY_OK)
			err = judge(rc, cr->index - 1, cr->c, &pr, out, e);
	}
	err = case_store(cr, &pr, err, e);
	out->rows = err == ASSAY_OK ? pr.rows.n : 0;
	if (pr.have_train)
		run_keep_train(rc, cr->index - 1, &pr.train);
	assay_rows_release(&pr.rows);
	if (err == ASSAY_OK && cr->interrupted)
		rc->res->interrupted = true;
	return err;
}

assay_err run_case(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		   struct assay_case_outcome *out, struct assay_error *e)
{
	double t0 = assay_monotonic();
	struct case_run cr = {.rc = rc, .index = index, .c = c, .out = out};
	cr.dir = xasprintf("%s/%s", rc->res->run_dir, c->id);
	free(out->dir);
	out->dir = xstrdup(cr.dir);
	assay_err err = case_begin(&cr, e);
	if (err == ASSAY_OK)
		err = case_launch(&cr, e);
	if (err == ASSAY_OK)
		err = case_wait(&cr, t0, e);
	if (err == ASSAY_OK)
		err = case_end(&cr, e);
	if (err == ASSAY_OK)
		err = case_results(&cr, e);
	if (cr.job) {
		rc->suite.launcher->ops->release(cr.job);
		/* Its processes (or job) are gone: a resume has nothing to end. */
		struct assay_error ignore;
		assay_store_procs_end(rc->store, rc->res->run_id, c->id, &ignore);
	}
	if (cr.watching)
		watch_release(&cr.w);
	assay_case_plan_release(&cr.p);
	free(cr.before);
	free(cr.dir);
	return err;
}
