/* A case's results: the files it is read from, checked as this case's
 * (not left behind by an earlier one), read redacted and parsed through the
 * results reader (include/assay/parse.h): one training log (also written to
 * <case>/steps.ndjson) or each file by its format, and the outcome they
 * give. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"
#include "run_int.h"

/* A results file as it was before the case started, to tell a file the
 * case wrote from one an earlier case left behind. */
struct run_before {
	bool existed;
	struct stat st;
};

struct run_before *run_results_snapshot(const struct assay_case_plan *p)
{
	struct run_before *b = xcalloc(p->results.n ? p->results.n : 1, sizeof(*b));
	for (size_t i = 0; i < p->results.n; i++)
		b[i].existed = stat(p->results.v[i], &b[i].st) == 0;
	return b;
}

static bool unchanged(const char *file, const struct run_before *b)
{
	struct stat st;
	return b->existed && stat(file, &st) == 0 && st.st_dev == b->st.st_dev &&
	       st.st_ino == b->st.st_ino && st.st_size == b->st.st_size &&
	       st.st_mtim.tv_sec == b->st.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec;
}

/* The files a case's results are read from: the suite's results, or for a
 * training log watched per node without results, the copies of the logs
 * (true: assay wrote them, so they are this case's). */
static bool results_files(const struct run_ctx *rc, const struct assay_case_plan *p,
			  const char *case_dir, struct strlist *out)
{
	if (rc->suite.training && !rc->suite.results_given && p->logs.n) {
		for (size_t i = 0; i < p->logs.n; i++) {
			char *copy = run_log_copy(case_dir, i, p->logs.v[i]);
			strlist_push(out, copy);
			free(copy);
		}
		return true;
	}
	for (size_t i = 0; i < p->results.n; i++)
		strlist_push(out, p->results.v[i]);
	return false;
}

/* Read every results file, redacted (results written by the workload may
 * hold a secret: nothing of them reaches rows or the store unredacted).
 * before (may be NULL) tells a file this case wrote from one left behind.
 * false with why set when a file was not written or cannot be read. */
static bool read_results(struct run_ctx *rc, const struct strlist *files,
			 const struct run_before *before, struct sbuf *data, char *why, size_t n)
{
	for (size_t i = 0; i < files->n; i++) {
		const char *file = files->v[i];
		struct assay_error pe;
		size_t len;
		if (before && unchanged(file, &before[i])) {
			/* Never let an earlier case's results pass for this one's. */
			snprintf(why, n,
				 "results file %s was not written by this case (unchanged since it "
				 "started)",
				 file);
			return false;
		}
		char *raw = assay_read_file(file, &len, &pe);
		if (!raw) {
			snprintf(why, n, "results file %s was not written", file);
			return false;
		}
		assay_redactor_append(&rc->redact, raw, len, &data[i]);
		free(raw);
	}
	return true;
}

/* The results as one training log: the files in order, each ending a line.
 * first[i] (when not NULL) gets the joined log's line where file i starts. */
static void join_logs(const struct sbuf *data, size_t n, struct sbuf *out, long *first)
{
	long line = 1;
	for (size_t i = 0; i < n; i++) {
		if (first)
			first[i] = line;
		sbuf_add(out, data[i].buf ? data[i].buf : "", data[i].len);
		if (data[i].len && data[i].buf[data[i].len - 1] != '\n')
			sbuf_addch(out, '\n');
		for (size_t k = 0; k < data[i].len; k++)
			line += data[i].buf[k] == '\n';
		if (data[i].len && data[i].buf[data[i].len - 1] != '\n')
			line++;
	}
}

/* <case>/steps.ndjson: the per-step records, as `assay parse --steps`
 * prints them (file and line of each step's own file). */
static assay_err write_steps(const struct assay_train_result *r, const struct strlist *files,
			     const long *first, const char *case_dir, struct assay_error *e)
{
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < r->n_steps; i++) {
		json_t *o = assay_train_step_to_json(&r->steps[i]);
		size_t f = 0;
		while (r->steps[i].line > 0 && f + 1 < files->n && first[f + 1] <= r->steps[i].line)
			f++;
		if (files->n) {
			json_object_set_new(o, "file", json_string(files->v[f]));
			if (r->steps[i].line > 0)
				json_object_set_new(o, "line",
						    json_integer(r->steps[i].line - first[f] + 1));
		}
		assay_json_write(&sb, o, ASSAY_JSON_SORT);
		sbuf_addch(&sb, '\n');
		json_decref(o);
	}
	char *path = xasprintf("%s/steps.ndjson", case_dir);
	assay_err rc = assay_write_file_atomic(path, sb.buf ? sb.buf : "", sb.len, e);
	free(path);
	sbuf_release(&sb);
	return rc;
}

assay_err run_read_training(struct run_ctx *rc, const struct assay_suite_case *c,
			    const char *case_dir, struct assay_train_result *r, char *why, size_t n)
{
	struct assay_case_plan p;
	struct assay_error e;
	memset(r, 0, sizeof(*r));
	if (assay_suite_plan(&rc->suite, c, rc->res->run_id, case_dir, rc->assay_ep, &p, &e) !=
	    ASSAY_OK) {
		snprintf(why, n, "%s", e.message);
		return ASSAY_USAGE;
	}
	struct strlist files = STRLIST_INIT;
	results_files(rc, &p, case_dir, &files);
	struct sbuf *data = xcalloc(files.n + 1, sizeof(*data)), all = SBUF_INIT;
	assay_err err = ASSAY_USAGE;
	if (read_results(rc, &files, NULL, data, why, n)) {
		join_logs(data, files.n, &all, NULL);
		struct assay_train_opts topts = c->train;
		topts.no_errors = true; /* the watcher's business */
		err = assay_train_parse(p.parser, all.buf ? all.buf : "", all.len, &topts,
					files.n ? files.v[0] : "-", r, &e);
		if (err != ASSAY_OK)
			snprintf(why, n, "%s", e.message);
	}
	sbuf_release(&all);
	for (size_t i = 0; i < files.n; i++)
		sbuf_release(&data[i]);
	free(data);
	strlist_clear(&files);
	assay_case_plan_release(&p);
	return err;
}

/* A training log: per-step records into <case>/steps.ndjson, rows, and the
 * outcome (docs/suite.md, "Training logs"): incomplete or NaN/Inf is
 * workload-failed, no iteration line no-metrics. workload_failed: the
 * workload failed already; keep the steps and the run-health story only. */
static assay_err parse_training(struct run_ctx *rc, const struct assay_suite_case *c,
				const struct assay_case_plan *p, const char *format,
				const struct strlist *files, const struct sbuf *data,
				const char *case_dir, bool workload_failed,
				struct assay_case_outcome *out, struct run_parsed *pr,
				struct assay_error *e)
{
	struct assay_error pe;
	const char *file = files->n ? files->v[0] : "-";
	long *first = xcalloc(files->n + 1, sizeof(*first));
	struct sbuf joined = SBUF_INIT, *log = &joined;
	join_logs(data, files->n, &joined, first);
	/* Error signatures are the watcher's business here: it honours the
	 * suite's disabled and benign ones. */
	struct assay_train_opts topts = c->train;
	topts.no_errors = true;
	struct assay_results_opts ro = {
	    .hint = format, .train_opts = &topts, .train = &pr->train, .no_rows = true};
	struct assay_results res = {.rows = ASSAY_ROWS_INIT};
	assay_err prc =
	    assay_results_parse(file, log->buf ? log->buf : "", log->len, &ro, &res, &pe);
	sbuf_release(&joined);
	if (prc != ASSAY_OK) {
		free(first);
		assay_train_result_release(&pr->train);
		if (!workload_failed) {
			char buf[1200];
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "%s results unreadable: %s", format,
					 assay_error_format(&pe, buf, sizeof(buf)));
		}
		return ASSAY_OK;
	}
	pr->have_train = true;
	assay_err err = write_steps(&pr->train, files, first, case_dir, e);
	free(first);
	if (err != ASSAY_OK || workload_failed)
		return err;
	char now[32];
	assay_now_rfc3339(now);
	struct assay_parse_opts o = {
	    file, p->context, rc->res->run_id, c->id, rc->res->revision, now, NULL, NULL};
	if (assay_train_rows(&pr->train, &o, &pr->rows, &pe) != ASSAY_OK) {
		char buf[1200];
		case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE, "%s",
				 assay_error_format(&pe, buf, sizeof(buf)));
		assay_rows_release(&pr->rows);
		return ASSAY_OK;
	}
	char why[512];
	assay_train_outcome_text(&pr->train, why, sizeof(why));
	switch (assay_train_outcome(&pr->train)) {
	case ASSAY_WORKLOAD_FAILED:
		/* Never a pass, never folded into no-metrics: the rows stay. */
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_TRAINING,
				 "training log: %s", why);
		break;
	case ASSAY_NO_METRICS:
		case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
				 "exit code 0 but %s in %s (parser %s)", why, file, format);
		break;
	default: case_outcome_set(rc, out, ASSAY_OUTCOME_PASSED, ASSAY_FAILURE_NONE, NULL);
	}
	return ASSAY_OK;
}

/* The suite's training.final_step on TorchTitan and MaxText logs (CVS's
 * completion, docs/suite.md): each log's last step at least N, else
 * workload-failed as an incomplete training log is; the rows stay. */
static void final_step_check(struct run_ctx *rc, const struct assay_suite_case *c,
			     const struct assay_rows *rows, struct assay_case_outcome *out)
{
	size_t logs = 0, stepped = 0;
	double last = INFINITY;
	for (size_t i = 0; c->final_step_on && i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		const json_t *w = r->series ? json_object_get(r->series, "workload") : NULL;
		if (!json_is_string(w) || (strcmp(json_string_value(w), "torchtitan") &&
					   strcmp(json_string_value(w), "maxtext")))
			continue;
		if (!strcmp(r->metric, "nonfinite") && !strcmp(r->statistic, "total"))
			logs++; /* one a log */
		if (!strcmp(r->metric, "steps") && !strcmp(r->statistic, "max")) {
			stepped++;
			last = r->value < last ? r->value : last;
		}
	}
	if (!c->final_step_on || (logs && stepped >= logs && last >= (double)c->final_step))
		return;
	if (!stepped || stepped < logs)
		case_outcome_set(
		    rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_TRAINING,
		    "training log: incomplete run: a log has no step, training.final_step "
		    "is %lld",
		    c->final_step);
	else
		case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_TRAINING,
				 "training log: incomplete run: the last step is %.0f, "
				 "training.final_step is %lld",
				 last, c->final_step);
}

/* Each results file parsed by its own format (the parser named, or its
 * content): rows, and passed or no-metrics; with keep (a case that already
 * failed) the rows only, its outcome as it is. */
static void parse_each(struct run_ctx *rc, const struct assay_suite_case *c,
		       const struct assay_case_plan *p, const struct strlist *files,
		       const struct sbuf *data, struct assay_case_outcome *out,
		       struct run_parsed *pr, bool keep)
{
	char now[32];
	assay_now_rfc3339(now);
	struct assay_results_opts o = {.hint = p->parser,
				       .by = ASSAY_DETECT_CONTENT,
				       .parse = {.context = p->context,
						 .run_id = rc->res->run_id,
						 .case_id = c->id,
						 .revision = rc->res->revision,
						 .timestamp = now}};
	struct assay_results res = {.rows = ASSAY_ROWS_INIT};
	for (size_t i = 0; i < files->n; i++) {
		const char *file = files->v[i];
		struct assay_error pe;
		if (assay_results_parse(file, data[i].buf ? data[i].buf : "", data[i].len, &o, &res,
					&pe) == ASSAY_OK)
			continue;
		char buf[1200];
		if (keep) /* the failure stands; no rows */
			;
		else if (res.fail == ASSAY_RESULTS_INVALID)
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "%s results unreadable: %s", res.format->name,
					 assay_error_format(&pe, buf, sizeof(buf)));
		else
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 strcmp(p->parser, "auto")
					     ? "no parser for format %s in this build"
					     : "cannot tell the format of %s",
					 strcmp(p->parser, "auto") ? p->parser : file);
		assay_rows_release(&res.rows);
		return;
	}
	if (keep) {
		pr->rows = res.rows;
		return;
	}
	if (!res.rows.n) {
		char *names = strlist_join(files, ", ");
		case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
				 "exit code 0 but no measurements in %s (parser %s)", names,
				 p->parser);
		free(names);
		return;
	}
	pr->rows = res.rows;
	case_outcome_set(rc, out, ASSAY_OUTCOME_PASSED, ASSAY_FAILURE_NONE, NULL);
	final_step_check(rc, c, &pr->rows, out);
}

assay_err run_parse_results(struct run_ctx *rc, const struct assay_suite_case *c,
			    const struct assay_case_plan *p, const struct run_before *before,
			    const char *case_dir, bool workload_failed,
			    struct assay_case_outcome *out, struct run_parsed *pr,
			    struct assay_error *e)
{
	if (!strcmp(p->parser, "none")) {
		if (!workload_failed)
			case_outcome_set(rc, out, ASSAY_OUTCOME_PASSED, ASSAY_FAILURE_NONE, NULL);
		return ASSAY_OK;
	}
	/* A collective benchmark exits non-zero when #wrong > 0 (nccl-tests,
	 * rccl-tests, assay-coll): its table is still read, and judged. */
	bool coll_failed = workload_failed && rc->suite.kind == ASSAY_SUITE_COLLECTIVE &&
			   out->failure == ASSAY_FAILURE_EXIT;
	if (workload_failed && !rc->suite.training && !coll_failed)
		return ASSAY_OK;
	struct strlist files = STRLIST_INIT;
	if (results_files(rc, p, case_dir, &files))
		before = NULL;
	struct sbuf *data = xcalloc(files.n + 1, sizeof(*data));
	char why[1200];
	assay_err err = ASSAY_OK;
	if (!read_results(rc, &files, before, data, why, sizeof(why))) {
		if (!workload_failed)
			case_outcome_set(rc, out, ASSAY_OUTCOME_NO_METRICS, ASSAY_FAILURE_NONE,
					 "%s", why);
	} else {
		/* A named training format, or a first file that looks like a
		 * training log: the files are one log. */
		const struct assay_format *f =
		    files.n || strcmp(p->parser, "auto")
			? assay_results_format(p->parser, data[0].buf ? data[0].buf : "",
					       data[0].len, ASSAY_DETECT_TRAINING)
			: NULL;
		if (f && f->training)
			err = parse_training(rc, c, p, f->name, &files, data, case_dir,
					     workload_failed, out, pr, e);
		else if (!workload_failed || coll_failed)
			parse_each(rc, c, p, &files, data, out, pr, coll_failed);
	}
	for (size_t i = 0; i < files.n; i++)
		sbuf_release(&data[i]);
	free(data);
	strlist_clear(&files);
	return err;
}
