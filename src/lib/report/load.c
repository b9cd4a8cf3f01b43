/* Filling the report model from the store and the run's output folder only:
 * the run header, every case (the store's record, completed by the run
 * folder's summary.json for cases the store did not finish), links to the
 * cases' files, the gate verdicts and the secrets; the rows, history and
 * training curves are read by load_series.c, load_history.c and
 * load_train.c. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/json.h"
#include "report/load_int.h"

void assay_report_found_release(struct assay_report_found *f)
{
	free(f->run_id);
	free(f->run_dir);
	free(f->out_dir);
	strlist_clear(&f->unset_secrets);
	memset(f, 0, sizeof(*f));
}

/* ---- paths ---- */

static bool is_dir(const char *p)
{
	struct stat st;
	return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

bool load_is_file(const char *p)
{
	struct stat st;
	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* An absolute path for p: resolved when it exists, else its existing
 * parent resolved and the rest appended. */
static char *abs_path(const char *p)
{
	char buf[PATH_MAX];
	if (realpath(p, buf))
		return xstrdup(buf);
	const char *slash = strrchr(p, '/');
	if (slash && slash != p) {
		char *parent = xstrndup(p, (size_t)(slash - p));
		char *ap = abs_path(parent);
		free(parent);
		char *out = xasprintf("%s/%s", ap, slash + 1);
		free(ap);
		return out;
	}
	if (p[0] == '/')
		return xstrdup(p);
	if (!getcwd(buf, sizeof(buf)))
		return xstrdup(p);
	return xasprintf("%s/%s", buf, p);
}

/* The path of file relative to dir (both absolute, no trailing slash). */
static char *rel_path(const char *dir, const char *file)
{
	/* The longest common prefix that ends at a component boundary. */
	size_t common = 0;
	for (size_t i = 0; dir[i] && dir[i] == file[i];) {
		i++;
		if ((dir[i] == '/' || !dir[i]) && (file[i] == '/' || !file[i]))
			common = i;
	}
	struct sbuf sb = SBUF_INIT;
	for (size_t i = common; dir[i]; i++)
		if (dir[i] == '/' && dir[i + 1])
			sbuf_adds(&sb, "../");
	const char *rest = file + common;
	if (*rest == '/')
		rest++;
	sbuf_adds(&sb, *rest ? rest : ".");
	return sbuf_detach(&sb, NULL);
}

/* ---- the run folder's summary.json ---- */

const char *load_jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

int load_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- cases ---- */

void load_factor_value(const json_t *v, struct sbuf *sb)
{
	sbuf_reset(sb);
	assay_json_text(sb, v);
}

/* The case's factors for display: the id (the case's own) and nulls left
 * out; an object's members become "key.member" factors, except for a
 * command suite's combo "values", whose members are the factors. */
static void add_factors(struct assay_report_case *c, const json_t *factors)
{
	const char *k, *k2;
	const json_t *v, *v2;
	struct sbuf sb = SBUF_INIT, name = SBUF_INIT;
	json_object_foreach((json_t *)factors, k, v)
	{
		if (!strcmp(k, "id") || json_is_null(v))
			continue;
		if (!json_is_object(v)) {
			load_factor_value(v, &sb);
			assay_report_case_factor(c, k, sbuf_str(&sb));
			continue;
		}
		json_object_foreach((json_t *)v, k2, v2)
		{
			if (json_is_null(v2))
				continue;
			sbuf_reset(&name);
			if (strcmp(k, "values"))
				sbuf_addf(&name, "%s.", k);
			sbuf_adds(&name, k2);
			load_factor_value(v2, &sb);
			assay_report_case_factor(c, name.buf, sbuf_str(&sb));
		}
	}
	sbuf_release(&sb);
	sbuf_release(&name);
}

static void link_if(struct assay_report_case *c, const char *out_abs, const char *label,
		    const char *path)
{
	if (!path || (!load_is_file(path) && !is_dir(path)))
		return;
	char *a = abs_path(path);
	char *rel = rel_path(out_abs, a);
	assay_report_case_link(c, label, rel);
	free(rel);
	free(a);
}

/* Links to the case's files that exist: its logs, the EP artifact, the
 * watched log copies and the folder itself. */
static void add_links(struct assay_report_case *c, const char *out_abs, const char *dir,
		      const char *out_log, const char *err_log)
{
	if (!dir)
		return;
	char *p;
	link_if(c, out_abs, "stdout", out_log ? out_log : (p = xasprintf("%s/stdout.log", dir)));
	if (!out_log)
		free(p);
	link_if(c, out_abs, "stderr", err_log ? err_log : (p = xasprintf("%s/stderr.log", dir)));
	if (!err_log)
		free(p);
	static const char *const files[][2] = {{"artifact", "result.json"},
					       {"steps", "steps.ndjson"},
					       {"command", "command.txt"},
					       {"logs", "logs"}};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		p = xasprintf("%s/%s", dir, files[i][1]);
		link_if(c, out_abs, files[i][0], p);
		free(p);
	}
	link_if(c, out_abs, "folder", dir);
}

/* The report outcome of a stored outcome name. */
static enum assay_report_outcome outcome_of(const char *name)
{
	int o = assay_report_outcome_parse(name);
	return o < 0 ? ASSAY_REPORT_INFRA : (enum assay_report_outcome)o;
}

static void load_cases(struct loader *L, const struct assay_store_cases *sc)
{
	struct assay_report *r = L->r;
	const json_t *scases = json_object_get(L->summary, "cases");
	size_t nsum = json_array_size(scases);
	bool *used = xcalloc(sc->n + 1, sizeof(bool));
	/* The suite's order when the run folder says it, then any case only the
	 * store knows. */
	for (size_t pass = 0; pass < 2; pass++) {
		size_t n = pass == 0 ? nsum : sc->n;
		for (size_t i = 0; i < n; i++) {
			const json_t *sj = NULL;
			const struct assay_store_case *st = NULL;
			if (pass == 0) {
				sj = json_array_get(scases, i);
				const char *id = load_jstr(sj, "case_id");
				if (!id)
					continue;
				for (size_t k = 0; k < sc->n && !st; k++)
					if (!used[k] && !strcmp(sc->v[k].case_id, id)) {
						st = &sc->v[k];
						used[k] = true;
					}
			} else {
				if (used[i])
					continue;
				st = &sc->v[i];
			}
			const char *id = st ? st->case_id : load_jstr(sj, "case_id");
			enum assay_report_outcome o;
			const char *reason;
			double dur = NAN;
			if (st && st->outcome) {
				/* The store's record is the truth for a finished case. */
				o = outcome_of(st->outcome);
				reason = st->reason;
				dur = st->duration_s;
			} else if (sj && load_jstr(sj, "outcome")) {
				o = outcome_of(load_jstr(sj, "outcome"));
				reason = load_jstr(sj, "reason");
				if (load_jstr(sj, "dir") &&
				    json_is_number(json_object_get(sj, "duration_s")))
					dur = json_number_value(json_object_get(sj, "duration_s"));
			} else {
				o = ASSAY_REPORT_SKIPPED;
				reason = L->ended
					     ? "begun but no outcome was recorded (the case was "
					       "interrupted or killed)"
					     : "no outcome yet: the run has not ended (still "
					       "running, or killed)";
				if (st)
					dur = st->duration_s;
			}
			struct assay_report_case *c = assay_report_add_case(r, id, o);
			c->duration_s = dur;
			/* summary.json splits the duration: queue time and run time. */
			if (sj && json_is_number(json_object_get(sj, "queue_s")))
				c->queue_s = json_number_value(json_object_get(sj, "queue_s"));
			if (reason && *reason)
				assay_report_set(&c->reason, reason);
			if (st && st->factors)
				add_factors(c, st->factors);
			const char *dir =
			    st && st->artifact_dir ? st->artifact_dir : load_jstr(sj, "dir");
			add_links(c, L->out_abs, dir, st ? st->stdout_log : NULL,
				  st ? st->stderr_log : NULL);
		}
	}
	free(used);
}

/* ---- gate verdicts ---- */

static bool regression_gate(const char *gate)
{
	return !strcmp(gate, "changepoint") || !strcmp(gate, "rolling-mean");
}

static int on_verdict(const char *case_id, const struct assay_verdict *v, void *ctx)
{
	struct loader *L = ctx;
	struct assay_report *r = L->r;
	enum assay_report_verdict status = v->status;
	struct assay_report_gate *g = assay_report_add_gate(r, case_id, v->gate, status);
	assay_report_set(&g->metric, v->metric);
	g->value = v->value;
	assay_report_set(&g->unit, v->unit && *v->unit ? v->unit : NULL);
	assay_report_set(&g->spec, v->spec && *v->spec ? v->spec : NULL);
	struct sbuf msg = SBUF_INIT;
	sbuf_addf(&msg, "%s%s", v->message ? v->message : "",
		  v->acked ? " (let through by an ack annotation)" : "");
	assay_report_set(&g->message, msg.buf);
	assay_report_set(&g->series_key, v->series_key);
	/* A regression gate's verdict belongs to its series' history too. */
	if (v->series_key && regression_gate(v->gate)) {
		ALLOC_GROW(L->hgates, L->nhgates + 1, L->hgates_alloc);
		L->hgates[L->nhgates++] = (struct hgate){xstrdup(v->series_key), xstrdup(v->gate),
							 xstrdup(sbuf_str(&msg)), status, v->acked};
		strlist_push(&L->keys, v->series_key);
	}
	/* A failed gate says why in its case's reason, one line each. */
	if (status == ASSAY_VERDICT_FAIL && case_id) {
		if (L->last_case < 0 || strcmp(r->cases[L->last_case].id, case_id)) {
			L->last_case = -1;
			for (size_t i = 0; i < r->ncases && L->last_case < 0; i++)
				if (!strcmp(r->cases[i].id, case_id))
					L->last_case = (long)i;
		}
		if (L->last_case >= 0) {
			struct assay_report_case *c = &r->cases[L->last_case];
			struct sbuf why = SBUF_INIT;
			if (c->reason && *c->reason)
				sbuf_addf(&why, "%s\n", c->reason);
			sbuf_addf(&why, "FAIL %s %s: %s", v->gate, v->metric ? v->metric : "",
				  sbuf_str(&msg));
			assay_report_set(&c->reason, why.buf);
			sbuf_release(&why);
		}
	}
	sbuf_release(&msg);
	return 0;
}

/* ---- the run ---- */

static void header(struct loader *L, const struct assay_store_run *run)
{
	struct assay_report *r = L->r;
	assay_report_set(&r->suite, run->suite);
	assay_report_set(&r->run_id, run->run_id);
	assay_report_set(&r->revision, run->revision);
	assay_report_set(&r->host, run->host);
	assay_report_set(&r->launcher, run->launcher);
	assay_report_set(&r->started, run->started);
	assay_report_set(&r->ended, run->ended);
	assay_report_set(&r->matrix_digest, run->matrix_sha256);
	assay_report_set(&r->catalog_digest, run->catalog_sha256);
	assay_report_set(&r->image, run->image);
	assay_report_set(&r->image_digest, run->image_digest);
	if (run->exit_code >= 0 && run->ended) {
		r->exit_code = (assay_err)run->exit_code;
	} else {
		r->exit_code = ASSAY_INFRA;
		strlist_push(&r->notes,
			     "This run has not ended: it is still running, or it was "
			     "killed (`assay run --resume` finishes it). The outcome shown "
			     "is infrastructure until it ends.");
	}
}

/* Secrets: the run's own redactor when the caller has it (assay run), else
 * the names the run recorded with their values from this environment. */
static void secrets(struct loader *L, const struct assay_redactor *given,
		    struct assay_report_found *found)
{
	if (given) {
		assay_redactor_add_all(&L->r->secrets, given);
		return;
	}
	const json_t *names = json_object_get(L->summary, "secrets");
	for (size_t i = 0; i < json_array_size(names); i++) {
		const char *name = json_string_value(json_array_get(names, i));
		if (name && !assay_redactor_add_env(&L->r->secrets, name))
			strlist_push(&found->unset_secrets, name);
	}
}

/* The run folder: as asked, else the folder holding the cases' folders. */
static char *find_run_dir(const struct assay_report_source *src, const struct assay_store_cases *sc)
{
	if (src->run_dir)
		return xstrdup(src->run_dir);
	for (size_t i = 0; i < sc->n; i++) {
		const char *d = sc->v[i].artifact_dir;
		const char *slash = d ? strrchr(d, '/') : NULL;
		if (slash && slash != d)
			return xstrndup(d, (size_t)(slash - d));
	}
	return NULL;
}

/* The run folder into found->run_dir (when it is here; *lost when it was
 * recorded but is not) and the folder the report goes to into
 * found->out_dir and L->out_abs: an error when the run folder is missing
 * and nothing else will do, or when there is no folder to write to. */
static assay_err find_folders(struct loader *L, const struct assay_report_source *src,
			      const struct assay_store_cases *sc, const struct assay_store_run *run,
			      struct assay_report_found *found, bool *lost, struct assay_error *e)
{
	char *dir = find_run_dir(src, sc);
	*lost = dir && !is_dir(dir); /* recorded, but not here */
	if (dir && !*lost) {
		found->run_dir = dir;
	} else if (src->run_dir || (dir && !src->out_dir)) {
		assay_err rc = assay_error_set(
		    e, ASSAY_USAGE,
		    "run %s: its output folder %s does not exist here (paths in the "
		    "store are relative to where `assay run` was started)%s",
		    run->run_id, dir ? dir : src->run_dir,
		    src->run_dir ? ""
				 : "; run assay report from there, or give --out "
				   "to write a report without it");
		free(dir);
		return rc;
	} else {
		free(dir);
	}
	const char *out = src->out_dir ? src->out_dir : found->run_dir;
	if (!out)
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "run %s has no output folder (an ingested run?); give --out DIR", run->run_id);
	found->out_dir = xstrdup(out);
	L->out_abs = abs_path(out);
	L->run_dir = found->run_dir;
	return ASSAY_OK;
}

/* The run folder's summary.json into L->summary; notes when the folder has
 * none or was not found (lost). */
static assay_err read_summary(struct loader *L, const struct assay_store_run *run, bool lost,
			      struct assay_error *e)
{
	if (!L->run_dir) {
		if (lost)
			strlist_push(&L->r->notes,
				     "The run's output folder was not found: cases are shown as "
				     "the store recorded them, without links to their files.");
		return ASSAY_OK;
	}
	assay_err rc = ASSAY_OK;
	char *sum = xasprintf("%s/summary.json", L->run_dir);
	if (load_is_file(sum)) {
		L->summary = assay_json_load_file(sum, e);
		const char *sid = L->summary ? load_jstr(L->summary, "run_id") : NULL;
		if (!L->summary)
			rc = ASSAY_USAGE;
		else if (sid && strcmp(sid, run->run_id))
			rc = assay_error_at(e, ASSAY_USAGE, sum, "$.run_id", 0,
					    "this folder belongs to run %s, not %s", sid,
					    run->run_id);
	} else {
		strlist_push(&L->r->notes, "The run folder has no summary.json: cases the store "
					   "did not finish (unsupported, skipped) may be missing.");
	}
	free(sum);
	return rc;
}

/* What the run's notifications did (<run_dir>/notify.json, written by
 * assay run --notify; docs/notify.md): a note per target that did not get
 * what was sent to it, and one naming those that did. A file that cannot
 * be read is a note too: the report does not fail on it. */
static void read_notify(struct loader *L)
{
	char *path = L->run_dir ? xasprintf("%s/notify.json", L->run_dir) : NULL;
	json_t *doc = path && load_is_file(path) ? json_load_file(path, 0, NULL) : NULL;
	if (path && load_is_file(path) && !doc)
		strlist_push(&L->r->notes, "The run's notify.json cannot be read.");
	struct sbuf ok = SBUF_INIT;
	json_t *t;
	size_t i;
	json_array_foreach(json_object_get(doc, "targets"), i, t)
	{
		const char *name = load_jstr(t, "target"), *type = load_jstr(t, "type");
		const char *said = load_jstr(t, "message");
		json_t *delivered = json_object_get(t, "delivered");
		json_int_t events = json_integer_value(json_object_get(t, "events"));
		if (json_is_false(delivered) && events > 0) {
			char *note =
			    xasprintf("Notification to %s (%s) failed: %s", name ? name : "?",
				      type ? type : "?", said ? said : "");
			strlist_push(&L->r->notes, note);
			free(note);
		} else if (json_is_true(delivered)) {
			sbuf_addf(&ok, "%s%s (%s, %lld event%s)",
				  ok.len ? ", " : "Notified: ", name ? name : "?",
				  type ? type : "?", (long long)events, events == 1 ? "" : "s");
		}
	}
	if (ok.len) {
		sbuf_addch(&ok, '.');
		strlist_push(&L->r->notes, sbuf_str(&ok));
	}
	sbuf_release(&ok);
	json_decref(doc);
	free(path);
}

/* What the provenance expectations matched, per case and node or rank. */
static assay_err load_provenance(struct loader *L, const char *run_id, struct assay_error *e)
{
	struct assay_report *r = L->r;
	struct assay_provenance *prov;
	size_t nprov;
	assay_err rc = assay_store_run_provenance(L->s, run_id, &prov, &nprov, e);
	if (rc != ASSAY_OK)
		return rc;
	r->provenance = xcalloc(nprov + 1, sizeof(*r->provenance));
	for (size_t i = 0; i < nprov; i++) {
		struct assay_report_prov *p = &r->provenance[r->nprovenance++];
		p->case_id = xstrdup(prov[i].case_id);
		p->name = xstrdup(prov[i].name);
		p->per = xstrdup(prov[i].per);
		p->unit = xstrdup(prov[i].unit);
		p->matched = prov[i].matched ? xstrdup(prov[i].matched) : NULL;
	}
	assay_provenance_free(prov, nprov);
	return ASSAY_OK;
}

/* The model from the store and the folders found: the header, secrets and
 * cases first (the verdicts add to the cases' reasons), then the rows and
 * what is made of them. */
static assay_err load_run(struct loader *L, const struct assay_report_source *src,
			  const struct assay_store_cases *sc, const struct assay_store_run *run,
			  struct assay_report_found *found, struct assay_error *e)
{
	assay_err rc;
	header(L, run);
	secrets(L, src->redact, found);
	load_cases(L, sc);
	if ((rc = load_provenance(L, run->run_id, e)) != ASSAY_OK ||
	    (rc = assay_store_verdicts(L->s, run->run_id, NULL, on_verdict, L, e)) != ASSAY_OK ||
	    (rc = assay_store_run_rows(L->s, run->run_id, load_ep_skip, load_row_fields,
				       load_on_row, L, e)) != ASSAY_OK)
		return rc;
	load_ep_groups(L);
	if ((rc = load_gate_series(L, e)) != ASSAY_OK)
		return rc;
	load_training(L, sc);
	rc = load_history(L, e);
	if (rc == ASSAY_OK)
		rc = load_coll(L, e);
	return rc;
}

static void loader_release(struct loader *L)
{
	for (size_t i = 0; i < L->nhgates; i++) {
		free(L->hgates[i].key);
		free(L->hgates[i].gate);
		free(L->hgates[i].message);
	}
	free(L->hgates);
	for (size_t i = 0; i < L->nladders; i++)
		json_decref(L->ladder_ids[i]);
	free(L->ladder_ids);
	strlist_clear(&L->keys);
	strlist_clear(&L->coll_keys);
	json_decref(L->summary);
	free(L->out_abs);
}

assay_err assay_report_load(const struct assay_report_source *src, struct assay_report *r,
			    struct assay_report_found *found, struct assay_error *e)
{
	memset(found, 0, sizeof(*found));
	struct loader L = {0};
	L.r = r;
	L.store = src->store;
	L.last_ladder = -1;
	L.last_case = -1;
	struct assay_store_run run = {0};
	struct assay_store_cases sc = {0};
	assay_err rc;
	bool lost = false;
	if (assay_store_is_file(src->store) && access(src->store, F_OK) != 0)
		return assay_error_at(e, ASSAY_USAGE, src->store, NULL, 0, "no such store");
	if ((rc = assay_store_open(src->store, ASSAY_STORE_READONLY, &L.s, e)) != ASSAY_OK)
		return rc;
	if ((rc = assay_store_run_get(L.s, src->run ? src->run : "last", &run, e)) != ASSAY_OK ||
	    (rc = assay_store_case_details(L.s, run.run_id, &sc, e)) != ASSAY_OK)
		goto out;
	found->run_id = xstrdup(run.run_id);
	L.run_id = run.run_id;
	L.ended = run.ended != NULL;
	if ((rc = find_folders(&L, src, &sc, &run, found, &lost, e)) == ASSAY_OK &&
	    (rc = read_summary(&L, &run, lost, e)) == ASSAY_OK) {
		read_notify(&L);
		rc = load_run(&L, src, &sc, &run, found, e);
	}
out:
	loader_release(&L);
	assay_store_cases_release(&sc);
	assay_store_run_release(&run);
	struct assay_error ce;
	if (assay_store_close(L.s, &ce) != ASSAY_OK && rc == ASSAY_OK) {
		*e = ce;
		rc = ASSAY_INFRA;
	}
	return rc;
}
