/* One case through the pipeline: plan it, record its start, launch it, watch
 * its output and log files for error signatures (a match stops it at once),
 * enforce nothing the launcher does not, then turn the end into exactly one
 * outcome, parse its results into rows and store outcome and rows in one
 * transaction. */
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
#include "assay/watch.h"
#include "run_int.h"

#define TAIL_CHUNK (1u << 20)

/* A results file as it was before the case started, to tell a file the
 * case wrote from one an earlier case left behind. */
struct before {
	bool existed;
	struct stat st;
};

static void snapshot(const struct assay_case_plan *p, struct before *b)
{
	for (size_t i = 0; i < p->results.n; i++)
		b[i].existed = stat(p->results.v[i], &b[i].st) == 0;
}

static bool unchanged(const char *file, const struct before *b)
{
	struct stat st;
	return b->existed && stat(file, &st) == 0 && st.st_dev == b->st.st_dev &&
	       st.st_ino == b->st.st_ino && st.st_size == b->st.st_size &&
	       st.st_mtim.tv_sec == b->st.st_mtim.tv_sec && st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec;
}

struct log_watch {
	struct assay_tail tail;
	struct assay_scanner scan;
	struct assay_redact_stream rs;
	int copy_fd; /* the redacted copy in <case>/logs/ */
};

struct stderr_lines {
	struct sbuf pending, first, last;
};

struct watch {
	struct run_ctx *rc;
	struct assay_scanner out, err;
	struct log_watch *logs;
	size_t n_logs;
	const struct assay_match *match; /* the first signature that matched */
	struct stderr_lines errlines;    /* for exit-code reasons */
};

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
	if (assay_scanner_feed(s, data, len) && !w->match)
		w->match = &s->match;
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
			if ((rc = write_all(l->copy_fd, red.buf, red.len, l->tail.path, e)) != ASSAY_OK)
				break;
			if (assay_scanner_feed(&l->scan, red.buf, red.len) && !w->match)
				w->match = &l->scan.match;
			if ((size_t)got < TAIL_CHUNK)
				break;
		}
		if (final && rc == ASSAY_OK) {
			sbuf_reset(&red);
			assay_redact_stream_flush(&l->rs, &red);
			rc = write_all(l->copy_fd, red.buf, red.len, l->tail.path, e);
			if (assay_scanner_feed(&l->scan, red.buf, red.len) && !w->match)
				w->match = &l->scan.match;
			if (assay_scanner_finish(&l->scan) && !w->match)
				w->match = &l->scan.match;
		}
	}
	sbuf_release(&raw);
	sbuf_release(&red);
	return rc;
}

static assay_err watch_init(struct watch *w, struct run_ctx *rc, const struct assay_case_plan *p,
			    const char *case_dir, struct assay_error *e)
{
	memset(w, 0, sizeof(*w));
	w->rc = rc;
	assay_scanner_init(&w->out, &rc->suite.signatures, "stdout");
	assay_scanner_init(&w->err, &rc->suite.signatures, "stderr");
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
		const char *base = strrchr(p->logs.v[i], '/');
		char *copy = xasprintf("%s/%zu-%s", dir, i + 1, base ? base + 1 : p->logs.v[i]);
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
		return assay_error_at(e, ASSAY_INFRA, dir, NULL, 0, "cannot clear the case folder: %s",
				      strerror(errno));
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

/* Parse the results into rows; decide passed or no-metrics. */
static void parse_results(struct run_ctx *rc, const struct assay_suite_case *c,
			  const struct assay_case_plan *p, const struct before *before,
			  struct assay_case_outcome *out, struct assay_rows *rows)
{
	if (!strcmp(p->parser, "none")) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_PASSED, ASSAY_FAILURE_NONE, NULL);
		return;
	}
	char now[32];
	assay_now_rfc3339(now);
	for (size_t i = 0; i < p->results.n; i++) {
		const char *file = p->results.v[i];
		struct assay_error pe;
		size_t len;
		if (unchanged(file, &before[i])) {
			/* Never let an earlier case's results pass for this one's. */
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "results file %s was not written by this case (unchanged since it started)",
					 file);
			assay_rows_release(rows);
			return;
		}
		char *raw = assay_read_file(file, &len, &pe);
		if (!raw) {
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "results file %s was not written", file);
			assay_rows_release(rows);
			return;
		}
		/* Results written by the workload may hold a secret: redact before
		 * anything of them reaches rows or the store. */
		struct sbuf data = SBUF_INIT;
		assay_redactor_append(&rc->redact, raw, len, &data);
		free(raw);
		const struct assay_format *f = strcmp(p->parser, "auto")
						       ? assay_format_find(p->parser)
						       : assay_format_detect(data.buf ? data.buf : "", data.len);
		if (!f) {
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 strcmp(p->parser, "auto") ? "no parser for format %s in this build"
								   : "cannot tell the format of %s",
					 strcmp(p->parser, "auto") ? p->parser : file);
			sbuf_release(&data);
			assay_rows_release(rows);
			return;
		}
		struct assay_parse_opts o = {file, p->context, rc->res->run_id, c->id, rc->res->revision,
					     now};
		assay_err prc = f->parse(data.buf ? data.buf : "", data.len, &o, rows, &pe);
		sbuf_release(&data);
		if (prc != ASSAY_OK) {
			char buf[1200];
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "%s results unreadable: %s", f->name,
					 assay_error_format(&pe, buf, sizeof(buf)));
			assay_rows_release(rows);
			return;
		}
	}
	if (!rows->n) {
		char *files = strlist_join(&p->results, ", ");
		case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
				 "exit code 0 but no measurements in %s (parser %s)", files, p->parser);
		free(files);
		return;
	}
	/* Gates (src/lib/gate) decide gate-failed here once suites can name them. */
	case_outcome_set(rc, out, ASSAY_OUTCOME_PASSED, ASSAY_FAILURE_NONE, NULL);
}

/* The store knows the outcomes that are exit codes; unsupported and skipped
 * cases are not finished there (see docs/suite.md, "Resume"). */
static int store_outcome(enum assay_outcome o, assay_err *code)
{
	switch (o) {
	case ASSAY_OUTCOME_PASSED: *code = ASSAY_OK; return 1;
	case ASSAY_OUTCOME_GATE_FAILED: *code = ASSAY_GATE_FAILED; return 1;
	case ASSAY_OUTCOME_WORKLOAD_FAILED: *code = ASSAY_WORKLOAD_FAILED; return 1;
	case ASSAY_OUTCOME_NO_METRICS: *code = ASSAY_NO_METRICS; return 1;
	default: return 0;
	}
}

/* Turn the launcher's end and the watch into the case's outcome. */
static void decide(struct run_ctx *rc, const struct assay_suite_case *c, const struct assay_case_plan *p,
		   const struct before *before, const struct watch *w,
		   const struct assay_job_status *st, struct assay_case_outcome *out,
		   struct assay_rows *rows)
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
	switch (st->end) {
	case ASSAY_JOB_NOT_STARTED:
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_NOT_STARTED, "%s",
				 st->detail);
		return;
	case ASSAY_JOB_TIMED_OUT:
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_TIMEOUT, "%s",
				 st->detail);
		return;
	case ASSAY_JOB_SIGNALED:
	case ASSAY_JOB_CANCELLED:
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_SIGNAL, "%s",
				 st->detail);
		return;
	default:
		break;
	}
	if (st->exit_code == 4 && c->ep) {
		/* assay-ep's exit 4: the backend cannot run this case here. */
		char *why = ep_unsupported_reason(p->artifact);
		case_outcome_set(rc, out, ASSAY_OUTCOME_UNSUPPORTED, ASSAY_FAILURE_NONE, "%s", why);
		free(why);
		return;
	}
	if (st->exit_code != 0) {
		const struct stderr_lines *l = &w->errlines;
		if (l->first.len && strcmp(l->first.buf, l->last.buf))
			case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_EXIT,
					 "%s; stderr: %s ... %s", st->detail, l->first.buf, l->last.buf);
		else if (l->first.len)
			case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_EXIT,
					 "%s; stderr: %s", st->detail, l->first.buf);
		else
			case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_EXIT, "%s",
					 st->detail);
		return;
	}
	parse_results(rc, c, p, before, out, rows);
}

static assay_err follow(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
			struct assay_job *job, struct watch *w, struct assay_job_status *st,
			bool *interrupted, struct assay_error *e)
{
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	bool cancelled = false;
	double last_tick = assay_monotonic();
	do {
		assay_err err = ops->poll(job, 0.1, st, e);
		if (err == ASSAY_OK)
			err = tail_logs(w, false, e);
		if (err != ASSAY_OK)
			return err;
		if (w->match && !cancelled) {
			ops->cancel(job); /* the case has failed: stop it now */
			cancelled = true;
		}
		if (run_interrupt_pending(rc)) {
			/* First time: stop gracefully; again: kill now. */
			ops->cancel(job);
			if (!*interrupted)
				run_event(rc, ASSAY_EVENT_INTERRUPT, index, c->id, NULL, st->elapsed_s, NULL);
			*interrupted = true;
		}
		double now = assay_monotonic();
		if (now - last_tick >= 1.0 && st->end == ASSAY_JOB_RUNNING) {
			run_event(rc, ASSAY_EVENT_TICK, index, c->id, NULL, st->elapsed_s, NULL);
			last_tick = now;
		}
	} while (st->end == ASSAY_JOB_RUNNING);
	if (assay_scanner_finish(&w->out) && !w->match)
		w->match = &w->out.match;
	if (assay_scanner_finish(&w->err) && !w->match)
		w->match = &w->err.match;
	return tail_logs(w, true, e);
}

assay_err run_case(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		   struct assay_case_outcome *out, struct assay_error *e)
{
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	double t0 = assay_monotonic();
	char *case_dir = xasprintf("%s/%s", rc->res->run_dir, c->id);
	char *out_log = xasprintf("%s/stdout.log", case_dir);
	char *err_log = xasprintf("%s/stderr.log", case_dir);
	struct assay_case_plan p = {0};
	struct assay_job *job = NULL;
	struct watch w;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct before *before = NULL;
	bool watching = false, interrupted = false;
	assay_err err;
	free(out->dir);
	out->dir = xstrdup(case_dir);
	if ((err = fresh_dir(case_dir, e)) != ASSAY_OK ||
	    (err = assay_suite_plan(&rc->suite, c, rc->res->run_id, case_dir, rc->assay_ep, &p, e)) !=
		    ASSAY_OK)
		goto out;
	if (p.timing_file) {
		char *text = assay_json_dumps(p.timing, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
		err = assay_write_file_atomic(p.timing_file, text, strlen(text), e);
		free(text);
		if (err != ASSAY_OK)
			goto out;
	}
	struct assay_case_info info = {c->id, c->factors, case_dir, out_log, err_log, NULL};
	if ((err = assay_store_case_begin(rc->store, rc->res->run_id, &info, e)) != ASSAY_OK)
		goto out;
	run_event(rc, ASSAY_EVENT_CASE_START, index, c->id, NULL, 0, NULL);
	if ((err = watch_init(&w, rc, &p, case_dir, e)) != ASSAY_OK) {
		watching = true;
		goto out;
	}
	watching = true;
	struct assay_launch_spec spec = {
		c->id,     case_dir,          &p.argv,   &p.env,     p.cwd, rc->suite.timeout_s,
		p.mpi_ranks, c->nodes, &rc->redact, on_output, &w, NULL, 0, 0, NULL, NULL,
	};
	assay_suite_place(&rc->suite, c, &spec);
	if ((err = ops->prepare(rc->suite.launcher, &spec, &job, e)) != ASSAY_OK)
		goto out;
	struct sbuf desc = SBUF_INIT;
	ops->describe(job, &desc);
	char *cmd_file = xasprintf("%s/command.txt", case_dir);
	err = assay_write_file_atomic(cmd_file, desc.buf, desc.len, e);
	free(cmd_file);
	sbuf_release(&desc);
	before = xcalloc(p.results.n ? p.results.n : 1, sizeof(*before));
	snapshot(&p, before);
	if (err != ASSAY_OK || (err = ops->submit(job, e)) != ASSAY_OK)
		goto out;
	struct assay_job_status st;
	if ((err = follow(rc, index, c, job, &w, &st, &interrupted, e)) != ASSAY_OK ||
	    (err = ops->collect(job, e)) != ASSAY_OK)
		goto out;
	out->duration_s = assay_monotonic() - t0;
	if (interrupted && !w.match) {
		/* Not finished: --resume runs it again. */
		case_outcome_set(rc, out, ASSAY_OUTCOME_SKIPPED, ASSAY_FAILURE_NONE,
				 "interrupted while running; resume to run it again");
		rc->res->interrupted = true;
		goto out;
	}
	decide(rc, c, &p, before, &w, &st, out, &rows);
	assay_err code;
	if (store_outcome(out->outcome, &code)) {
		struct assay_case_result r = {code, out->reason, NULL, out->duration_s, &rows};
		err = assay_store_case_finish(rc->store, rc->res->run_id, c->id, &r, e);
		if (err == ASSAY_USAGE && rows.n) {
			/* The store refused a row (e.g. a unit that disagrees with the
			 * stored series): the case produced no usable measurements. */
			char buf[1200];
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "the store refused the measurements: %s",
					 assay_error_format(e, buf, sizeof(buf)));
			assay_rows_release(&rows);
			struct assay_case_result r2 = {ASSAY_NO_METRICS, out->reason, NULL, out->duration_s,
						       NULL};
			err = assay_store_case_finish(rc->store, rc->res->run_id, c->id, &r2, e);
		}
		if (err != ASSAY_OK)
			goto out;
		out->rows = rows.n;
	}
	if (interrupted)
		rc->res->interrupted = true;
out:
	if (job)
		ops->release(job);
	if (watching)
		watch_release(&w);
	assay_rows_release(&rows);
	assay_case_plan_release(&p);
	free(before);
	free(case_dir);
	free(out_log);
	free(err_log);
	return err;
}
