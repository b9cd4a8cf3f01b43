/* `assay run` as a library call: load the suite, check its secrets, plan or
 * describe every case, record the run, run the cases in order (skipping the
 * ones a resumed run already finished), keep <run_dir>/summary.json current
 * after every case, and end the run with the worst outcome's exit code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/contain.h"
#include "assay/json.h"
#include "assay/parse.h"
#include "assay/proc.h"
#include "assay/slurm.h" /* assay_shell_quote */
#include "run_int.h"

bool run_interrupt_pending(struct run_ctx *rc)
{
	if (!rc->o->interrupted)
		return false;
	sig_atomic_t n = *rc->o->interrupted;
	if (n == rc->interrupts_seen)
		return false;
	rc->interrupts_seen = n;
	return true;
}

static bool stop_requested(const struct run_ctx *rc)
{
	return rc->o->interrupted && *rc->o->interrupted > 0;
}

void run_event(struct run_ctx *rc, enum assay_run_event_kind kind, size_t index,
	       const char *case_id, const struct assay_case_outcome *outcome, double case_s,
	       const char *text)
{
	if (!rc->o->on_event)
		return;
	struct assay_run_event ev = {0};
	ev.kind = kind;
	ev.run_id = rc->res->run_id;
	ev.index = index;
	ev.total = rc->suite.n_cases;
	ev.case_id = case_id;
	ev.outcome = outcome;
	ev.elapsed_s = assay_monotonic() - rc->t0;
	ev.case_s = case_s;
	ev.resumed = rc->o->resume != NULL;
	ev.text = text;
	ev.eta_s = -1;
	if (rc->timed_n) {
		double eta = rc->timed_s / (double)rc->timed_n * (double)rc->left - case_s;
		ev.eta_s = eta > 0 ? eta : 0;
	}
	rc->o->on_event(&ev, rc->o->ctx);
}

/* The assay-ep binary: as asked, else next to this program, else PATH. */
static char *find_assay_ep(const struct run_ctx *rc)
{
	if (rc->o->assay_ep)
		return xstrdup(rc->o->assay_ep);
	if (rc->suite.assay_ep)
		return xstrdup(rc->suite.assay_ep);
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			char *p = xasprintf("%s/assay-ep", self);
			if (access(p, X_OK) == 0)
				return p;
			free(p);
		}
	}
	return xstrdup("assay-ep");
}

/* Before an EP run: the benchmark binary exists and this build reads its
 * artifacts (otherwise every case would fail the same way). */
static assay_err check_ep_tools(const struct run_ctx *rc, struct assay_error *e)
{
	bool found = false;
	if (strchr(rc->assay_ep, '/')) {
		found = access(rc->assay_ep, X_OK) == 0;
	} else {
		const char *path = getenv("PATH");
		while (path && *path && !found) {
			const char *colon = strchr(path, ':');
			size_t n = colon ? (size_t)(colon - path) : strlen(path);
			char *p = xasprintf("%.*s/%s", (int)n, path, rc->assay_ep);
			found = access(p, X_OK) == 0;
			free(p);
			path += n + (colon ? 1 : 0);
		}
	}
	if (!found)
		return assay_error_set(
		    e, ASSAY_INFRA,
		    "assay-ep not found (%s): build it with `make build`, or pass "
		    "--assay-ep FILE",
		    rc->assay_ep);
	if (!assay_format_find("assay-ep"))
		return assay_error_set(e, ASSAY_INFRA,
				       "this build of assay cannot read assay-ep artifacts");
	return ASSAY_OK;
}

/* The revision under test: --revision, the suite's label, `git rev-parse
 * HEAD` of the suite's source tree, or of the working directory. */
static assay_err find_revision(struct run_ctx *rc, struct assay_error *e)
{
	if (rc->o->revision) {
		/* A label from the command line is written everywhere: redacted. */
		rc->res->revision = assay_redactor_str(&rc->redact, rc->o->revision);
		return ASSAY_OK;
	}
	if (rc->suite.revision) {
		rc->res->revision = xstrdup(rc->suite.revision);
		return ASSAY_OK;
	}
	const char *dir = rc->suite.revision_git ? rc->suite.revision_git : ".";
	const char *argv[] = {"git", "rev-parse", "HEAD", NULL};
	struct sbuf out = SBUF_INIT;
	int code;
	struct assay_error ge;
	assay_err err = assay_proc_capture(argv, dir, &out, &code, &ge);
	size_t n = out.len;
	while (n && (out.buf[n - 1] == '\n' || out.buf[n - 1] == '\r'))
		n--;
	if (err == ASSAY_OK && code == 0 && n) {
		rc->res->revision = xstrndup(out.buf, n);
	} else if (rc->suite.revision_git) {
		sbuf_release(&out);
		return assay_error_at(e, ASSAY_USAGE, rc->suite.file, "$.revision.git", 0,
				      "cannot read the revision: `git rev-parse HEAD` failed in %s",
				      dir);
	} else {
		rc->res->revision = xstrdup("unknown");
	}
	sbuf_release(&out);
	return ASSAY_OK;
}

static void write_summary(struct run_ctx *rc)
{
	struct assay_run_result *res = rc->res;
	memset(res->counts, 0, sizeof(res->counts));
	for (size_t i = 0; i < res->n; i++)
		res->counts[res->cases[i].outcome]++;
	json_t *doc = assay_run_summary_json(res);
	json_object_set_new(doc, "suite_sha256", json_string(rc->suite.sha256));
	char *text = assay_json_dumps(doc, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
	json_decref(doc);
	char *path = xasprintf("%s/summary.json", res->run_dir);
	struct assay_error ignore;
	/* Best effort while running; the store is the record. */
	assay_write_file_atomic(path, text, strlen(text), &ignore);
	free(path);
	free(text);
}

static void dry_run(struct run_ctx *rc)
{
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	snprintf(rc->res->run_id, sizeof(rc->res->run_id), "RUN_ID");
	for (size_t i = 0; i < rc->suite.n_cases; i++) {
		const struct assay_suite_case *c = &rc->suite.cases[i];
		struct sbuf text = SBUF_INIT;
		if (!c->runnable) {
			sbuf_addf(&text, "unsupported: %s\n", c->reason);
		} else {
			char *dir = xasprintf("%s/%s", rc->res->run_dir, c->id);
			struct assay_case_plan p;
			struct assay_error e;
			struct assay_job *job = NULL;
			if (assay_suite_plan(&rc->suite, c, rc->res->run_id, dir, rc->assay_ep, &p,
					     &e) != ASSAY_OK) {
				char buf[1200];
				sbuf_addf(&text, "cannot plan: %s\n",
					  assay_error_format(&e, buf, sizeof(buf)));
			} else {
				struct assay_launch_spec spec;
				run_launch_spec(rc, c, &p, dir, &spec);
				if (ops->prepare(rc->suite.launcher, &spec, &job, &e) == ASSAY_OK) {
					ops->describe(job, &text);
					ops->release(job);
				} else {
					char buf[1200];
					sbuf_addf(&text, "cannot prepare: %s\n",
						  assay_error_format(&e, buf, sizeof(buf)));
				}
				if (p.logs.n) {
					char *files = strlist_join(&p.logs, ", ");
					sbuf_addf(&text, "  watch: %s\n", files);
					free(files);
				}
				if (p.results.n && strcmp(p.parser, "none")) {
					char *files = strlist_join(&p.results, ", ");
					sbuf_addf(&text, "  results: %s (parser %s)\n", files,
						  p.parser);
					free(files);
				}
				run_expect_describe(rc, c, dir, &text);
				assay_case_plan_release(&p);
			}
			free(dir);
		}
		run_event(rc, ASSAY_EVENT_DRY_CASE, i + 1, c->id, NULL, 0, sbuf_str(&text));
		sbuf_release(&text);
	}
	rc->res->run_id[0] = '\0';
}

static const char *jstr(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}

/* Outcome of a case that an earlier attempt finished, from the store, with
 * the details the earlier summary.json kept. */
static void earlier_outcome(struct run_ctx *rc, const struct assay_case_status *st,
			    const json_t *prev, struct assay_case_outcome *out)
{
	case_outcome_set(rc, out, st->outcome, ASSAY_FAILURE_NONE, NULL);
	out->earlier = true;
	struct assay_error ignore; /* the verdicts as stored, for the summary */
	assay_store_case_verdicts(rc->store, rc->res->run_id, out->case_id, &out->verdicts,
				  &ignore);
	const json_t *cases = json_object_get(prev, "cases");
	for (size_t i = 0; i < json_array_size(cases); i++) {
		const json_t *c = json_array_get(cases, i);
		if (strcmp(jstr(c, "case_id"), out->case_id))
			continue;
		const char *reason = json_string_value(json_object_get(c, "reason"));
		const char *failure = json_string_value(json_object_get(c, "failure"));
		for (int f = ASSAY_FAILURE_EXIT; failure && f <= ASSAY_FAILURE_CORRECTNESS; f++)
			if (!strcmp(failure, assay_failure_name((enum assay_failure)f)))
				out->failure = (enum assay_failure)f;
		out->reason = reason ? xstrdup(reason) : NULL;
		out->duration_s = json_number_value(json_object_get(c, "duration_s"));
		out->queue_s = json_number_value(json_object_get(c, "queue_s"));
		out->rows = (size_t)json_integer_value(json_object_get(c, "rows"));
		const json_t *sig = json_object_get(c, "signature");
		if (sig) {
			out->signature = xstrdup(jstr(sig, "name"));
			out->source = xstrdup(jstr(sig, "source"));
			out->line = xstrdup(jstr(sig, "line"));
		}
		const char *dir = json_string_value(json_object_get(c, "dir"));
		out->dir = dir ? xstrdup(dir) : NULL;
	}
}

/* Record a case that does not run in this attempt (unsupported, skipped,
 * or stopped by an infrastructure error) with its reason. */
static assay_err record_not_run(struct run_ctx *rc, const struct assay_suite_case *c,
				const struct assay_case_outcome *out, struct assay_error *e)
{
	struct assay_case_info info = {c->id, c->factors, out->dir, NULL, NULL, NULL};
	struct assay_case_result r = {out->outcome, out->reason, NULL, -1, NULL, NULL};
	return assay_store_case_record(rc->store, rc->res->run_id, &info, &r, e);
}

struct leftovers {
	struct run_ctx *rc;
	struct strlist jobs;
	struct sbuf report;
};

static void end_one(const char *case_id, int attempt, const struct assay_proc_record *r, void *ctx)
{
	struct leftovers *l = ctx;
	if (r->slurm_job && r->slurm_job[0] && !strlist_has(&l->jobs, r->slurm_job))
		strlist_push(&l->jobs, r->slurm_job);
	if (r->pid <= 0 && !(r->cgroup && r->cgroup[0]))
		return;
	struct sbuf what = SBUF_INIT;
	size_t n = assay_contain_end_record(r, &what);
	if (n || !strncmp(sbuf_str(&what), "not on", 6))
		sbuf_addf(&l->report, "case %s (attempt %d): %s%s\n", case_id, attempt,
			  n ? "ended " : "", sbuf_str(&what));
	sbuf_release(&what);
}

/* Containers of the run's earlier attempts (found by their assay.run
 * label, whether or not the store recorded them): killed and removed,
 * again for up to CONTAINER_WAIT_S each while the runtime refuses. */
#define CONTAINER_WAIT_S 30.0
static void end_containers(struct run_ctx *rc, struct sbuf *report)
{
	enum assay_ctr_runtime rt = rc->suite.container.runtime;
	struct strlist names = STRLIST_INIT;
	struct assay_error e;
	if (assay_container_list(rt, rc->res->run_id, &names, &e) != ASSAY_OK) {
		sbuf_addf(report, "%s\n", e.message);
		return;
	}
	for (size_t i = 0; i < names.n; i++) {
		bool ok = assay_container_remove_wait(rt, names.v[i], CONTAINER_WAIT_S);
		sbuf_addf(report, "%s container %s\n", ok ? "removed" : "could not remove",
			  names.v[i]);
		if (!ok)
			rc->leftover = true;
	}
	strlist_clear(&names);
}

/* Before a resumed run starts anything: end what its killed attempts left
 * running (recorded in the store before each case started; the launcher
 * also looks for jobs named after the run), and say so. */
static assay_err end_leftovers(struct run_ctx *rc, struct assay_error *e)
{
	struct leftovers l = {rc, STRLIST_INIT, SBUF_INIT};
	/* Containers first, through their runtime: ending the attempt's cgroup
	 * first would end the runtime's own monitor (podman's conmon) with it,
	 * and the runtime could then not remove the container. */
	if (assay_container_is_local(&rc->suite.container))
		end_containers(rc, &l.report);
	assay_err err = assay_store_procs_open(rc->store, rc->res->run_id, end_one, &l, e);
	const struct assay_launcher_ops *ops = rc->suite.launcher->ops;
	if (err == ASSAY_OK && ops->resume)
		ops->resume(rc->suite.launcher, rc->res->run_id, rc->res->run_dir, rc->attempt,
			    &l.jobs, &l.report);
	if (err == ASSAY_OK)
		err = assay_store_procs_end(rc->store, rc->res->run_id, NULL, e);
	/* One event per line. */
	char *text = sbuf_detach(&l.report, NULL);
	for (char *p = text, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		run_event(rc, ASSAY_EVENT_CLEANUP, 0, NULL, NULL, 0, p);
	}
	free(text);
	strlist_clear(&l.jobs);
	return err;
}

/* The command that resumes this run as it was started: every option that
 * changes what it does, the store and the out folder made explicit. */
static char *resume_hint(const struct run_ctx *rc)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "assay run --resume %s --store ", rc->res->run_id);
	assay_shell_quote(&sb, rc->res->store_name);
	sbuf_adds(&sb, " --out ");
	assay_shell_quote(&sb, rc->o->output ? rc->o->output : rc->suite.output);
	if (rc->o->revision) {
		sbuf_adds(&sb, " --revision ");
		assay_shell_quote(&sb, rc->res->revision);
	}
	if (rc->o->assay_ep) {
		sbuf_adds(&sb, " --assay-ep ");
		assay_shell_quote(&sb, rc->o->assay_ep);
	}
	if (rc->o->fail_fast)
		sbuf_adds(&sb, " --fail-fast");
	sbuf_addch(&sb, ' ');
	assay_shell_quote(&sb, rc->o->suite_file);
	return sbuf_detach(&sb, NULL);
}

/* Begin a new run in the open store: its id, attempt 1 and its folder. */
static assay_err begin_new(struct run_ctx *rc, struct assay_error *e)
{
	struct assay_run_result *res = rc->res;
	char host[256];
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	bool ep = rc->suite.kind == ASSAY_SUITE_EP;
	struct assay_run_info info = {NULL,
				      rc->suite.name,
				      res->revision,
				      rc->suite.sha256,
				      ep ? rc->suite.matrix.matrix_sha256 : NULL,
				      ep ? rc->suite.matrix.catalog_sha256 : NULL,
				      host,
				      rc->suite.launcher_name,
				      NULL};
	assay_err err = assay_store_run_begin(rc->store, &info, res->run_id, e);
	rc->attempt = res->attempt = 1;
	if (err == ASSAY_OK)
		res->run_dir = xasprintf("%s/%s", rc->o->output ? rc->o->output : rc->suite.output,
					 res->run_id);
	return err;
}

/* Resume: the same suite, or the case ids would not mean the same. The
 * store says which run and which suite; the out folder may be another.
 * *prev gets the run's earlier summary.json, when there is one. */
static assay_err begin_resume(struct run_ctx *rc, struct assay_case_list *done, json_t **prev,
			      struct assay_error *e)
{
	struct assay_run_result *res = rc->res;
	assay_err err = ASSAY_OK;
	char id[64];
	if (!strcmp(rc->o->resume, "last"))
		err = assay_store_last_run(rc->store, id, e);
	else
		snprintf(id, sizeof(id), "%s", rc->o->resume);
	if (err != ASSAY_OK)
		return err;
	struct assay_store_run run = {0};
	if ((err = assay_store_run_get(rc->store, id, &run, e)) != ASSAY_OK)
		return err;
	bool other = run.config_sha256 && strcmp(run.config_sha256, rc->suite.sha256);
	if (other)
		err =
		    assay_error_at(e, ASSAY_USAGE, rc->suite.file, NULL, 0,
				   "run %s was made from a different suite (or configs it reads): "
				   "its suite digest is %s, this one's is %s; resume it with the "
				   "same files",
				   id, run.config_sha256, rc->suite.sha256);
	assay_store_run_release(&run);
	if (other)
		return err;
	res->run_dir = xasprintf("%s/%s", rc->o->output ? rc->o->output : rc->suite.output, id);
	char *sum = xasprintf("%s/summary.json", res->run_dir);
	struct assay_error ignore;
	*prev = access(sum, F_OK) == 0 ? assay_json_load_file(sum, &ignore) : NULL;
	free(sum);
	const char *digest = json_string_value(json_object_get(*prev, "suite_sha256"));
	if (digest && strcmp(digest, rc->suite.sha256))
		return assay_error_at(
		    e, ASSAY_USAGE, rc->suite.file, NULL, 0,
		    "run %s was made from a different suite (or configs it reads): "
		    "its suite digest is %s, this one's is %s; resume it with the same files",
		    id, digest, rc->suite.sha256);
	if ((err = assay_store_run_resume(rc->store, id, res->run_id, e)) != ASSAY_OK ||
	    (err = assay_store_run_attempt(rc->store, res->run_id, &rc->attempt, e)) != ASSAY_OK)
		return err;
	res->attempt = rc->attempt;
	if ((err = end_leftovers(rc, e)) != ASSAY_OK)
		return err;
	return assay_store_run_cases(rc->store, res->run_id, done, e);
}

/* --cleanup: end and remove what the run's attempts left; no case runs. */
static assay_err cleanup(struct run_ctx *rc, struct assay_error *e)
{
	struct assay_run_result *res = rc->res;
	const char *which = rc->o->cleanup;
	char id[64];
	assay_err err = assay_store_open(res->store, 0, &rc->store, e);
	if (err == ASSAY_OK && !strcmp(which, "last"))
		err = assay_store_last_run(rc->store, id, e);
	else
		snprintf(id, sizeof(id), "%s", which);
	struct assay_store_run run = {0};
	if (err == ASSAY_OK && (err = assay_store_run_get(rc->store, id, &run, e)) == ASSAY_OK)
		assay_store_run_release(&run);
	if (err != ASSAY_OK)
		return err;
	snprintf(res->run_id, sizeof(res->run_id), "%s", id);
	res->run_dir = xasprintf("%s/%s", rc->o->output ? rc->o->output : rc->suite.output, id);
	if ((err = assay_store_run_attempt(rc->store, id, &rc->attempt, e)) == ASSAY_OK)
		err = end_leftovers(rc, e);
	if (err == ASSAY_OK && rc->suite.infer)
		run_server_leftover(rc); /* an inference suite's server */
	if (err == ASSAY_OK && rc->leftover)
		err = assay_error_set(e, ASSAY_INFRA,
				      "run %s: a container could not be removed (named above)", id);
	res->exit_code = err;
	return err;
}

/* Open the store and begin the run, or continue the run to resume. */
static assay_err begin(struct run_ctx *rc, struct assay_case_list *done, json_t **prev,
		       struct assay_error *e)
{
	struct assay_run_result *res = rc->res;
	assay_err err;
	const char *slash = strrchr(res->store, '/');
	if (!rc->o->resume && slash && slash != res->store && assay_store_is_file(res->store)) {
		/* A new store may live in a folder that does not exist yet. */
		char *dir = xstrndup(res->store, (size_t)(slash - res->store));
		err = assay_mkdirs(dir, e);
		free(dir);
		if (err != ASSAY_OK)
			return err;
	}
	err = assay_store_open(res->store, rc->o->resume ? 0 : ASSAY_STORE_CREATE, &rc->store, e);
	if (err != ASSAY_OK)
		return err;
	if (!rc->o->resume)
		return begin_new(rc, e);
	return begin_resume(rc, done, prev, e);
}

bool run_is_teardown(const struct assay_suite_case *c)
{
	return c->stage && !strcmp(c->stage, "teardown");
}

/* Did case c end its stage (docs/suite.md, "Stages"): a case of a stage
 * other than teardown that did not pass. */
bool run_stage_failed(const struct assay_suite_case *c, const struct assay_case_outcome *o)
{
	return c->stage && !run_is_teardown(c) && o->outcome != ASSAY_OUTCOME_PASSED &&
	       o->outcome != ASSAY_OUTCOME_UNSUPPORTED && o->outcome != ASSAY_OUTCOME_SKIPPED;
}

static const struct assay_case_status *find_status(const struct assay_case_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].case_id, id))
			return &l->v[i];
	return NULL;
}

/* What the cases run so far say about the ones after them. */
struct run_state {
	const char *failed; /* --fail-fast: the first case that did not pass */
	const char *failed_stage;
	const struct assay_case_outcome *stage_failed; /* its case's outcome */
	assay_err infra;
	bool ran; /* a case other than teardown ran in this attempt */
};

/* A case this attempt does not run: set its outcome and say true; false
 * for a case to run. */
static bool not_run(struct run_ctx *rc, const struct run_state *rs,
		    const struct assay_suite_case *c, struct assay_case_outcome *out)
{
	/* The teardown stage runs whatever happened before it. */
	bool teardown = run_is_teardown(c);
	if (!c->runnable) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_UNSUPPORTED, ASSAY_FAILURE_NONE, "%s",
				 c->reason);
	} else if (rs->infra != ASSAY_OK && !teardown) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_SKIPPED, ASSAY_FAILURE_NONE,
				 "not run: the run stopped on an infrastructure error");
	} else if (stop_requested(rc) && !teardown) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_SKIPPED, ASSAY_FAILURE_NONE,
				 "not run: assay was interrupted");
		rc->res->interrupted = true;
	} else if (rs->failed && !teardown) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_SKIPPED, ASSAY_FAILURE_NONE,
				 "not run: --fail-fast after %s", rs->failed);
	} else if (rs->failed_stage && !teardown && strcmp(c->stage, rs->failed_stage)) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_SKIPPED, ASSAY_FAILURE_NONE,
				 "not run: stage %s failed (%s %s)", rs->failed_stage,
				 rs->stage_failed->case_id,
				 assay_outcome_name(rs->stage_failed->outcome));
	} else if (c->nodes > 1 && !strcmp(rc->suite.launcher_name, "local")) {
		case_outcome_set(rc, out, ASSAY_OUTCOME_UNSUPPORTED, ASSAY_FAILURE_NONE,
				 "needs %lld nodes; the local launcher runs on this one", c->nodes);
	} else {
		return false;
	}
	return true;
}

/* Run case i (0-based) and note what its outcome means for the rest. */
static void run_one(struct run_ctx *rc, struct run_state *rs, size_t i,
		    const struct assay_suite_case *c, struct assay_case_outcome *out,
		    struct assay_error *e)
{
	rs->ran = rs->ran || !run_is_teardown(c);
	rs->infra = run_server_start(rc, e); /* inference suites */
	if (rs->infra == ASSAY_OK)
		rs->infra = run_case(rc, i + 1, c, out, e);
	if (rs->infra != ASSAY_OK) {
		/* Stored as infrastructure when the store still works: a resume
		 * runs it again. */
		struct assay_error ignore;
		case_outcome_set(rc, out, ASSAY_OUTCOME_INFRA, ASSAY_FAILURE_NONE, "%s",
				 e->message);
		record_not_run(rc, c, out, &ignore);
	}
	rc->left--;
	rc->timed_s += out->duration_s;
	rc->timed_n++;
	if (run_stage_failed(c, out) && !rs->failed_stage)
		rs->failed_stage = c->stage, rs->stage_failed = out;
	if (rc->o->fail_fast && !rs->failed && out->outcome != ASSAY_OUTCOME_PASSED &&
	    out->outcome != ASSAY_OUTCOME_UNSUPPORTED && out->outcome != ASSAY_OUTCOME_SKIPPED)
		rs->failed = c->id;
}

/* A teardown that an earlier attempt finished runs again when a case ran
 * in this attempt: it belongs to every main that ran (docs/suite.md,
 * "Stages"). The store takes its outcome back; true when it does. */
static bool teardown_again(struct run_ctx *rc, struct run_state *rs,
			   const struct assay_suite_case *c, struct assay_error *e)
{
	if (!run_is_teardown(c) || !c->runnable || !rs->ran)
		return false;
	struct assay_error te;
	if (assay_store_case_rerun(rc->store, rc->res->run_id, c->id, &te) != ASSAY_OK) {
		if (rs->infra == ASSAY_OK) /* the cleanup cannot run: exit 5 */
			rs->infra = ASSAY_INFRA, *e = te;
		return false;
	}
	rc->left++;
	return true;
}

static assay_err run_cases(struct run_ctx *rc, const struct assay_case_list *done,
			   const json_t *prev, struct assay_error *e)
{
	struct run_state rs = {.infra = ASSAY_OK};
	for (size_t i = 0; i < rc->suite.n_cases; i++)
		if (rc->suite.cases[i].runnable &&
		    !assay_case_list_finished(done, rc->suite.cases[i].id))
			rc->left++;
	run_event(rc, ASSAY_EVENT_RUN_START, 0, NULL, NULL, 0, NULL);
	for (size_t i = 0; i < rc->suite.n_cases; i++) {
		const struct assay_suite_case *c = &rc->suite.cases[i];
		struct assay_case_outcome *out = &rc->res->cases[i];
		const struct assay_case_status *st = find_status(done, c->id);
		bool record = true;
		if (st && assay_case_list_finished(done, c->id) && !teardown_again(rc, &rs, c, e)) {
			earlier_outcome(rc, st, prev, out);
			if (run_stage_failed(c, out) && !rs.failed_stage)
				rs.failed_stage = c->stage, rs.stage_failed = out;
			record = false;
		} else if (!not_run(rc, &rs, c, out)) {
			record = false;
			run_one(rc, &rs, i, c, out, e);
		}
		if (record) {
			struct assay_error re;
			assay_err err = record_not_run(rc, c, out, &re);
			if (err != ASSAY_OK && rs.infra == ASSAY_OK) {
				rs.infra = err;
				*e = re;
			}
		}
		run_event(rc, ASSAY_EVENT_CASE_END, i + 1, c->id, out, out->duration_s, NULL);
		write_summary(rc);
	}
	run_server_stop(rc); /* whatever happened */
	return rs.infra;
}

/* End the begun run, whose cases ended in err: its exit code, the worst
 * of its outcomes (teardown's reported, never masking) and err, in the
 * summary and the store; an interrupted run says how to resume it. */
static assay_err end_run(struct run_ctx *rc, assay_err err, struct assay_error *e)
{
	struct assay_run_result *res = rc->res;
	for (size_t i = 0; i < res->n; i++)
		if (!run_is_teardown(&rc->suite.cases[i])) /* reported, never masking */
			res->exit_code = assay_err_worst(res->exit_code,
							 assay_outcome_exit(res->cases[i].outcome));
	if (err == ASSAY_OK && res->interrupted) {
		res->resume_hint = resume_hint(rc);
		err = assay_error_set(e, ASSAY_INFRA,
				      "interrupted; the unfinished cases run with: %s",
				      res->resume_hint);
	}
	res->exit_code = assay_err_worst(res->exit_code, err);
	write_summary(rc);
	struct assay_error ee;
	if (assay_store_run_end(rc->store, res->run_id, res->exit_code, &ee) != ASSAY_OK &&
	    err == ASSAY_OK) {
		*e = ee;
		res->exit_code = assay_err_worst(res->exit_code, ASSAY_INFRA);
	}
	return res->exit_code;
}

assay_err assay_run(const struct assay_run_options *o, struct assay_run_result *res,
		    struct assay_error *e)
{
	memset(res, 0, sizeof(*res));
	struct run_ctx rc = {0};
	rc.o = o;
	rc.res = res;
	rc.t0 = assay_monotonic();
	struct assay_case_list done = {0};
	json_t *prev = NULL;
	assay_err err = assay_suite_load(o->suite_file, &rc.suite, e);
	if (err != ASSAY_OK)
		return err;
	if ((err = assay_suite_secrets(&rc.suite, o->dry_run, &rc.redact, e)) != ASSAY_OK ||
	    (err = find_revision(&rc, e)) != ASSAY_OK)
		goto out;
	res->suite = xstrdup(rc.suite.name);
	for (size_t i = 0; i < rc.suite.secrets.n; i++)
		strlist_push(&res->secrets, rc.suite.secrets.v[i]);
	assay_redactor_add_all(&res->redact, &rc.redact);
	res->store = xstrdup(o->store ? o->store : rc.suite.store);
	res->store_name = assay_store_name(res->store);
	if (rc.suite.kind == ASSAY_SUITE_EP)
		rc.assay_ep = find_assay_ep(&rc);
	res->n = rc.suite.n_cases;
	res->cases = xcalloc(res->n, sizeof(*res->cases));
	for (size_t i = 0; i < res->n; i++) {
		res->cases[i].case_id = xstrdup(rc.suite.cases[i].id);
		res->cases[i].outcome = ASSAY_OUTCOME_SKIPPED;
	}
	if (o->dry_run) {
		res->run_dir = xasprintf("%s/RUN_ID", o->output ? o->output : rc.suite.output);
		dry_run(&rc);
		goto out;
	}
	if (o->cleanup) {
		err = cleanup(&rc, e);
		goto out;
	}
	if (rc.suite.kind == ASSAY_SUITE_EP && (err = check_ep_tools(&rc, e)) != ASSAY_OK)
		goto out;
	if ((err = assay_suite_coll_check(&rc.suite, e)) != ASSAY_OK)
		goto out;
	if ((err = begin(&rc, &done, &prev, e)) != ASSAY_OK)
		goto out;
	if ((err = assay_mkdirs(res->run_dir, e)) == ASSAY_OK)
		err = run_cases(&rc, &done, prev, e);
	err = end_run(&rc, err, e);
out:
	if (rc.store) {
		struct assay_error ce;
		if (assay_store_close(rc.store, &ce) != ASSAY_OK && err == ASSAY_OK) {
			*e = ce;
			err = res->exit_code = ASSAY_INFRA;
		}
	}
	run_train_release(&rc);
	assay_case_list_release(&done);
	json_decref(prev);
	free(rc.assay_ep);
	free(rc.servers);
	assay_redactor_release(&rc.redact);
	assay_suite_release(&rc.suite);
	return err;
}
