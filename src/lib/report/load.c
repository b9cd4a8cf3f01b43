/* Filling the report model from the store and the run's output folder only:
 * the run header, every case (the store's record, completed by the run
 * folder's summary.json for cases the store did not finish), EP ladders
 * from the stored rows, and the history of every followed series with its
 * change points (CI detection defaults), as the run saw it. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "assay/report.h"
#include "assay/store.h"

/* Points of a series shown and searched for change points: the newest ones. */
#define HISTORY_POINTS 100

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

static bool is_file(const char *p)
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

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* ---- cases ---- */

static void factor_value(const json_t *v, struct sbuf *sb)
{
	sbuf_reset(sb);
	if (json_is_string(v)) {
		sbuf_adds(sb, json_string_value(v));
	} else {
		char *t = assay_json_dumps(v, ASSAY_JSON_SORT);
		sbuf_adds(sb, t);
		free(t);
	}
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
			factor_value(v, &sb);
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
			factor_value(v2, &sb);
			assay_report_case_factor(c, name.buf, sbuf_str(&sb));
		}
	}
	sbuf_release(&sb);
	sbuf_release(&name);
}

static void link_if(struct assay_report_case *c, const char *out_abs, const char *label,
		    const char *path)
{
	if (!path || (!is_file(path) && !is_dir(path)))
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

/* A regression gate's verdict on one series. */
struct hgate {
	char *key, *gate, *message;
	enum assay_report_verdict verdict;
	bool acked;
};

struct loader {
	struct assay_report *r;
	struct assay_store *s;
	const char *run_id;
	char *run_dir, *out_abs;
	json_t *summary;
	bool ended;

	/* EP ladders: one per case (or per backend/precision/phase for rows
	 * without a case), with the identity fields of its points. */
	json_t **ladder_ids;
	size_t nladders, ladder_alloc;
	long last_ladder;

	/* Series the history follows, in the order the run stored them. */
	struct strlist keys;

	/* Verdicts of the regression gates, by series, for the history. */
	struct hgate *hgates;
	size_t nhgates, hgates_alloc;
	long last_case; /* the case the previous verdict belonged to */
};

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
				const char *id = jstr(sj, "case_id");
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
			const char *id = st ? st->case_id : jstr(sj, "case_id");
			enum assay_report_outcome o;
			const char *reason;
			double dur = NAN;
			if (st && st->outcome) {
				/* The store's record is the truth for a finished case. */
				o = outcome_of(st->outcome);
				reason = st->reason;
				dur = st->duration_s;
			} else if (sj && jstr(sj, "outcome")) {
				o = outcome_of(jstr(sj, "outcome"));
				reason = jstr(sj, "reason");
				if (jstr(sj, "dir") && json_is_number(json_object_get(sj, "duration_s")))
					dur = json_number_value(json_object_get(sj, "duration_s"));
			} else {
				o = ASSAY_REPORT_SKIPPED;
				reason = L->ended ? "begun but no outcome was recorded (the case was "
						    "interrupted or killed)"
						  : "no outcome yet: the run has not ended (still "
						    "running, or killed)";
				if (st)
					dur = st->duration_s;
			}
			struct assay_report_case *c = assay_report_add_case(r, id, o);
			c->duration_s = dur;
			if (reason && *reason)
				assay_report_set(&c->reason, reason);
			if (st && st->factors)
				add_factors(c, st->factors);
			const char *dir = st && st->artifact_dir ? st->artifact_dir : jstr(sj, "dir");
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

/* ---- training: <case>/steps.ndjson ---- */

/* A number of a step record ("nan" and "inf" strings are gaps). */
static double step_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The loss-curve gate's line: its slope, through the case's loss points of
 * the steps it fitted ("... (steps A..B)" in its message). */
static void train_fit(const struct assay_report *r, struct assay_report_train *t)
{
	const struct assay_report_gate *lc = NULL;
	for (size_t i = 0; i < r->ngates; i++) {
		const struct assay_report_gate *g = &r->gates[i];
		if (g->case_id && !strcmp(g->case_id, t->case_id) && !strcmp(g->name, "loss-curve") &&
		    isfinite(g->value))
			lc = g;
	}
	if (!lc || !t->nloss)
		return;
	double from = -INFINITY, to = INFINITY;
	const char *steps = lc->message ? strstr(lc->message, "(steps ") : NULL;
	if (!steps || sscanf(steps, "(steps %lf%*[.]%lf", &from, &to) != 2)
		from = -INFINITY, to = INFINITY;
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	size_t n = 0;
	for (size_t i = 0; i < t->nloss; i++) {
		const struct assay_report_xy *p = &t->loss[i];
		if (!isfinite(p->y) || p->x < from || p->x > to)
			continue;
		sum += p->y - lc->value * p->x;
		lo = fmin(lo, p->x);
		hi = fmax(hi, p->x);
		n++;
	}
	if (!n)
		return;
	t->has_fit = true;
	t->slope = lc->value;
	t->intercept = sum / (double)n;
	t->fit_from = lo;
	t->fit_to = hi;
}

/* Per training case (one with a steps.ndjson): loss and throughput per
 * step, the warm-up, and the loss-curve gate's line. */
static void load_training(struct loader *L, const struct assay_store_cases *sc)
{
	struct assay_report *r = L->r;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct assay_report_case *c = &r->cases[i];
		const char *dir = NULL;
		for (size_t k = 0; k < sc->n && !dir; k++)
			if (!strcmp(sc->v[k].case_id, c->id))
				dir = sc->v[k].artifact_dir;
		if (!dir)
			continue;
		char *path = xasprintf("%s/steps.ndjson", dir);
		struct assay_error e;
		size_t len;
		char *text = is_file(path) ? assay_read_file(path, &len, &e) : NULL;
		if (!text) {
			free(path);
			continue;
		}
		struct assay_report_train *t = assay_report_add_train(r, c->id, c->id);
		size_t pos = 0;
		long line = 0;
		json_t *o;
		int got;
		const char *tput = NULL;
		while ((got = assay_ndjson_next(text, len, &pos, &line, path, &o, &e)) == 1) {
			double step = step_num(o, "step");
			if (!tput)
				tput = json_object_get(o, "tokens_per_gpu")	  ? "tokens_per_gpu"
				       : json_object_get(o, "tflops_per_gpu") ? "tflops_per_gpu"
									  : NULL;
			if (isfinite(step)) {
				if (json_object_get(o, "lm_loss"))
					assay_report_train_loss(t, step, step_num(o, "lm_loss"));
				if (tput && json_object_get(o, tput))
					assay_report_train_throughput(t, step, step_num(o, tput));
				if (json_is_true(json_object_get(o, "warmup")) && step > t->warmup_steps)
					t->warmup_steps = step;
			}
			json_decref(o);
		}
		if (got < 0)
			strlist_push(&r->notes, e.message); /* what was read is drawn */
		assay_report_set(&t->throughput_unit, !tput			    ? NULL
						      : !strcmp(tput, "tokens_per_gpu") ? "tokens/s/GPU"
											: "TFLOP/s/GPU");
		train_fit(r, t);
		free(text);
		free(path);
	}
	/* Labels: what tells the combinations apart (short factor values). */
	struct strlist vary = STRLIST_INIT;
	for (size_t i = 0; i < r->ntrain; i++)
		for (size_t j = 0; j < r->ncases; j++) {
			const struct assay_report_case *c = &r->cases[j];
			if (strcmp(c->id, r->train[i].case_id))
				continue;
			for (size_t k = 0; k < c->nfactors; k++) {
				const struct assay_report_kv *f = &c->factors[k];
				bool differs = false;
				for (size_t m = 0; m < r->ntrain && !differs; m++) {
					const struct assay_report_case *o = NULL;
					for (size_t q = 0; q < r->ncases && !o; q++)
						if (!strcmp(r->cases[q].id, r->train[m].case_id))
							o = &r->cases[q];
					bool same = false;
					for (size_t q = 0; o && q < o->nfactors && !same; q++)
						same = !strcmp(o->factors[q].key, f->key) &&
						       !strcmp(o->factors[q].value, f->value);
					differs = !same;
				}
				if (differs && strlen(f->value) <= 32 && !strlist_has(&vary, f->key))
					strlist_push(&vary, f->key);
			}
		}
	struct sbuf label = SBUF_INIT;
	for (size_t i = 0; i < r->ntrain && vary.n; i++) {
		const struct assay_report_case *c = NULL;
		for (size_t j = 0; j < r->ncases && !c; j++)
			if (!strcmp(r->cases[j].id, r->train[i].case_id))
				c = &r->cases[j];
		sbuf_reset(&label);
		for (size_t k = 0; c && k < c->nfactors; k++)
			if (strlist_has(&vary, c->factors[k].key) && strlen(c->factors[k].value) <= 32)
				sbuf_addf(&label, "%s%s=%s", label.len ? " · " : "", c->factors[k].key,
					  c->factors[k].value);
		if (label.len)
			assay_report_set(&r->train[i].label, label.buf);
	}
	sbuf_release(&label);
	strlist_clear(&vary);
}

/* ---- EP ladders and the followed series ---- */

enum { F_COMPONENT, F_TOKENS };
static const char *const row_fields[] = {"component", "tokens", NULL};
/* What assay-ep rows the report leaves out: diagnostics of every point that
 * neither the EP charts nor the history follow (docs/report.md). */
static const char *const ep_skip[] = {
	"cross_rank_min_us@component", "tokens_per_s@component",   "latency_us/p90@component",
	"latency_us/p95@component",    "latency_us/min@component", "latency_us/max@component",
	NULL};
static const char *const ep_metrics[] = {"latency_us", "gbps_per_rank", "max_relative_error",
					 "oracle_pass"};

static bool in(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

/* The ladder of this row (made when new): one per case, or for rows
 * without a case (an ingested artifact) one per backend, precision and
 * phase. */
static struct assay_report_ep *ladder(struct loader *L, const struct assay_store_rowview *row)
{
	struct assay_report *r = L->r;
	if (L->last_ladder >= 0 && row->case_id && !strcmp(r->ep[L->last_ladder].case_id, row->case_id))
		return &r->ep[L->last_ladder];
	json_t *id = json_loads(row->fields_json ? row->fields_json : "{}", 0, NULL);
	if (!id)
		id = json_object();
	const char *b = jstr(id, "backend"), *p = jstr(id, "precision"), *ph = jstr(id, "phase");
	char key[256];
	snprintf(key, sizeof(key), "%s %s %s", b ? b : "", p ? p : "", ph ? ph : "");
	const char *want = row->case_id ? row->case_id : key;
	for (size_t i = 0; i < r->nep; i++)
		if (!strcmp(r->ep[i].case_id, want)) {
			L->last_ladder = (long)i;
			json_decref(id);
			return &r->ep[i];
		}
	struct assay_report_ep *ep = assay_report_add_ep(r, want, b, p, ph);
	assay_report_set(&ep->component, "roundtrip");
	/* What identifies the ladder beyond its points: grouping later. */
	static const char *const point_level[] = {"metric", "statistic", "tokens", "component",
						  "verdict", "backend", "precision", "phase"};
	for (size_t i = 0; i < ARRAY_SIZE(point_level); i++)
		json_object_del(id, point_level[i]);
	ALLOC_GROW(L->ladder_ids, L->nladders + 1, L->ladder_alloc);
	L->ladder_ids[L->nladders++] = id;
	L->last_ladder = (long)r->nep - 1;
	return ep;
}

static struct assay_report_ep_point *ladder_point(struct assay_report_ep *ep, double tokens)
{
	for (size_t i = 0; i < ep->npoints; i++)
		if (ep->points[i].tokens == tokens)
			return &ep->points[i];
	return assay_report_ep_point(ep, tokens);
}

static int on_row(const struct assay_store_rowview *row, void *ctx)
{
	struct loader *L = ctx;
	const char *comp = row->field[F_COMPONENT];
	const char *m = row->metric, *st = row->statistic;
	if (!comp || !in(m, ep_metrics, ARRAY_SIZE(ep_metrics))) {
		strlist_push(&L->keys, row->series_key); /* not EP: followed in full */
		return 0;
	}
	bool rt = !strcmp(comp, "roundtrip"), oracle = !strcmp(comp, "oracle");
	bool p50 = !strcmp(st, "p50"), p99 = !strcmp(st, "p99");
	bool lat = rt && !strcmp(m, "latency_us") && (p50 || p99);
	bool bw = rt && !strcmp(m, "gbps_per_rank") && p50;
	bool err = oracle && !strcmp(m, "max_relative_error");
	bool pass = oracle && !strcmp(m, "oracle_pass");
	if (lat || bw || err)
		strlist_push(&L->keys, row->series_key);
	double tokens;
	if (!(lat || bw || err || pass) || !row->field[F_TOKENS] ||
	    !assay_parse_double(row->field[F_TOKENS], &tokens))
		return 0;
	struct assay_report_ep_point *p = ladder_point(ladder(L, row), tokens);
	if (lat && p50)
		p->p50_us = row->value;
	else if (lat)
		p->p99_us = row->value;
	else if (bw)
		p->bw_gbps = row->value;
	else if (err)
		p->max_rel_error = row->value;
	else
		p->valid = row->value == 1;
	return 0;
}

/* Keys of the objects v[0..n) whose values differ between the objects
 * that have them (one pass: the first value seen of each key is kept). A
 * key only some objects have does not vary by that alone: series of
 * different kinds (EP, training) differ in their metric already. */
static void varying_keys(json_t *const *v, size_t n, const char *const *skip, size_t nskip,
			 struct strlist *out)
{
	json_t *first = json_object();
	for (size_t i = 0; i < n; i++) {
		const char *k;
		json_t *val;
		json_object_foreach(v[i], k, val)
		{
			const json_t *seen = json_object_get(first, k);
			if (!seen)
				json_object_set(first, k, val);
			else if (!json_equal(seen, val) && !in(k, skip, nskip) && !strlist_has(out, k))
				strlist_push(out, k);
		}
	}
	json_decref(first);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "k=v · k=v" for the keys of obj in keys (sorted). */
static void key_values(const json_t *obj, const struct strlist *keys, struct sbuf *sb)
{
	struct sbuf v = SBUF_INIT;
	for (size_t i = 0; i < keys->n; i++) {
		const json_t *val = json_object_get(obj, keys->v[i]);
		if (!val)
			continue;
		factor_value(val, &v);
		sbuf_addf(sb, "%s%s=%s", sb->len ? " · " : "", keys->v[i], v.buf);
	}
	sbuf_release(&v);
}

static void ep_groups(struct loader *L)
{
	struct strlist vary = STRLIST_INIT;
	varying_keys(L->ladder_ids, L->nladders, NULL, 0, &vary);
	if (vary.n)
		qsort(vary.v, vary.n, sizeof(char *), cmp_str);
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < L->nladders && vary.n; i++) {
		sbuf_reset(&sb);
		key_values(L->ladder_ids[i], &vary, &sb);
		assay_report_set(&L->r->ep[i].group, sb.len ? sb.buf : NULL);
	}
	sbuf_release(&sb);
	strlist_clear(&vary);
}

/* ---- history ---- */

struct hseries {
	char *key, *unit;
	json_t *fields;
	enum assay_direction dir;
	struct assay_report_hpoint *pts; /* revision owned */
	size_t n;
	long mine;       /* this run's point, -1 when ignored */
	size_t ignored;  /* points left out (annotated ignore) */
};

struct hctx {
	struct hseries *v;
	size_t n, alloc;
	const struct assay_annotations *ann;
};

static bool ignored(const struct assay_annotations *a, const char *key, const char *rev)
{
	for (size_t i = 0; rev && i < a->n; i++)
		if (a->v[i].kind == ASSAY_ANN_IGNORE && !strcmp(a->v[i].series_key, key) &&
		    !strcmp(a->v[i].revision, rev))
			return true;
	return false;
}

static int on_history(const struct assay_store_history *h, void *ctx)
{
	struct hctx *H = ctx;
	ALLOC_GROW(H->v, H->n + 1, H->alloc);
	struct hseries *s = &H->v[H->n++];
	memset(s, 0, sizeof(*s));
	s->key = xstrdup(h->series_key);
	s->unit = xstrdup(h->unit ? h->unit : "");
	s->fields = json_loads(h->fields_json ? h->fields_json : "{}", 0, NULL);
	if (!s->fields)
		s->fields = json_object();
	s->dir = h->direction;
	s->pts = xcalloc(h->points->n + 1, sizeof(*s->pts));
	s->mine = -1;
	for (size_t i = 0; i < h->points->n; i++) {
		const struct assay_point *p = &h->points->v[i];
		if (H->ann->n && ignored(H->ann, h->series_key, p->revision)) {
			s->ignored++;
			continue;
		}
		if ((long)i == h->this_run)
			s->mine = (long)s->n;
		s->pts[s->n].revision = xstrdup(p->revision ? p->revision : "-");
		s->pts[s->n].value = p->value;
		s->n++;
	}
	return 0;
}

/* How interesting a series is: 0 this run starts a worse regime, 1 a
 * better one, 2 change points elsewhere, 3 nothing; within a rank, the
 * biggest move of this run's point against the mean of the earlier ones
 * first. */
struct hrank {
	size_t index;
	int rank;
	double move;
	struct assay_changes ch;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct hrank *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->move != y->move)
		return x->move < y->move ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

/* |this run's value / the mean of the earlier points - 1|, 0 when unknown. */
static double earlier_mean(const struct hseries *s)
{
	double sum = 0;
	for (long k = 0; k < s->mine; k++)
		sum += s->pts[k].value;
	return s->mine >= 1 ? sum / (double)s->mine : NAN;
}

static double move_of(const struct hseries *s)
{
	double mean = earlier_mean(s);
	double m = s->mine >= 1 ? fabs(s->pts[s->mine].value / mean - 1) : 0;
	return mean != 0 && isfinite(m) ? m : 0;
}

static void history_message(const struct hseries *s, const struct assay_changes *ch,
			    bool gated, struct sbuf *sb)
{
	sbuf_adds(sb, gated ? "detector: " : "no regression gate ran on this series; ");
	if (!ch->n) {
		sbuf_addf(sb, "no change point in %zu point%s", s->n, s->n == 1 ? "" : "s");
		double mean = earlier_mean(s);
		if (s->mine >= 1 && mean != 0) {
			sbuf_addf(sb, " (this run %+.1f%% against the mean of the %ld before)",
				  (s->pts[s->mine].value / mean - 1) * 100, s->mine);
		}
	} else {
		const struct assay_change *c = &ch->v[ch->n - 1];
		bool worse = assay_change_is_regression(c, s->dir);
		if (s->mine >= 0 && c->index == (size_t)s->mine)
			sbuf_addf(sb, "this run starts a new regime: %+.1f%% against the previous "
				      "mean (%s, p=%.2g)",
				  c->rel_change * 100, worse ? "worse" : "better", c->pvalue);
		else
			sbuf_addf(sb, "%zu change point%s; the latest at %s: %+.1f%% (%s)", ch->n,
				  ch->n == 1 ? "" : "s", s->pts[c->index].revision,
				  c->rel_change * 100, worse ? "worse" : "better");
	}
	if (s->ignored)
		sbuf_addf(sb, "; %zu point%s annotated ignore left out", s->ignored,
			  s->ignored == 1 ? "" : "s");
}

/* Keep the first occurrence of every key. */
static void dedupe(struct strlist *keys)
{
	size_t n = keys->n;
	size_t *idx = xcalloc(n + 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* Sort indexes by key (stable by index), then mark repeats. */
	for (size_t gap = n / 2; gap > 0; gap /= 2)
		for (size_t i = gap; i < n; i++)
			for (size_t j = i; j >= gap; j -= gap) {
				int c = strcmp(keys->v[idx[j - gap]], keys->v[idx[j]]);
				if (c < 0 || (c == 0 && idx[j - gap] < idx[j]))
					break;
				size_t t = idx[j];
				idx[j] = idx[j - gap];
				idx[j - gap] = t;
			}
	bool *drop = xcalloc(n + 1, sizeof(bool));
	for (size_t i = 1; i < n; i++)
		if (!strcmp(keys->v[idx[i - 1]], keys->v[idx[i]]))
			drop[idx[i]] = true;
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (drop[i])
			free(keys->v[i]);
		else
			keys->v[w++] = keys->v[i];
	}
	keys->n = w;
	free(drop);
	free(idx);
}

static int cmp_hgate(const void *a, const void *b)
{
	return strcmp(((const struct hgate *)a)->key, ((const struct hgate *)b)->key);
}

/* The regression gates' verdict on series key: FAIL if any failed, else
 * PASS if any passed, else SKIPPED, with their messages; false when no
 * gate judged it. L->hgates is sorted by key. */
static bool gate_verdict(const struct loader *L, const char *key, enum assay_report_verdict *v,
			 struct sbuf *msg)
{
	size_t lo = 0, hi = L->nhgates;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(L->hgates[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	bool any = false, fail = false, pass = false, skipped = false;
	for (size_t i = lo; i < L->nhgates && !strcmp(L->hgates[i].key, key); i++) {
		const struct hgate *g = &L->hgates[i];
		sbuf_addf(msg, "%s%s %s: %s", any ? "; " : "", g->gate,
			  assay_report_verdict_name(g->verdict), g->message);
		any = true;
		fail |= g->verdict == ASSAY_VERDICT_FAIL;
		pass |= g->verdict == ASSAY_VERDICT_PASS;
		skipped |= g->verdict == ASSAY_VERDICT_SKIPPED;
	}
	*v = fail ? ASSAY_VERDICT_FAIL
	     : pass ? ASSAY_VERDICT_PASS
	     : skipped ? ASSAY_VERDICT_SKIPPED
		     : ASSAY_VERDICT_RECORD;
	return any;
}

static assay_err load_history(struct loader *L, struct assay_error *e)
{
	if (L->nhgates)
		qsort(L->hgates, L->nhgates, sizeof(*L->hgates), cmp_hgate);
	struct assay_annotations ann = {0};
	struct hctx H = {NULL, 0, 0, &ann};
	dedupe(&L->keys);
	assay_err rc = assay_store_annotations(L->s, NULL, &ann, e);
	if (rc == ASSAY_OK)
		rc = assay_store_run_history(L->s, L->run_id, &L->keys, HISTORY_POINTS, on_history, &H,
					     e);
	if (rc != ASSAY_OK)
		goto out;
	/* Labels name the fields that tell the followed series apart. */
	json_t **fields = xcalloc(H.n + 1, sizeof(json_t *));
	for (size_t i = 0; i < H.n; i++)
		fields[i] = H.v[i].fields;
	static const char *const label_skip[] = {"metric", "statistic"};
	struct strlist vary = STRLIST_INIT;
	varying_keys(fields, H.n, label_skip, ARRAY_SIZE(label_skip), &vary);
	if (vary.n)
		qsort(vary.v, vary.n, sizeof(char *), cmp_str);
	free(fields);

	struct assay_detect_opts opts;
	assay_detect_defaults(&opts);
	struct hrank *rank = xcalloc(H.n + 1, sizeof(*rank));
	double *x = NULL;
	size_t xalloc = 0;
	for (size_t i = 0; i < H.n; i++) {
		struct hseries *s = &H.v[i];
		rank[i].index = i;
		rank[i].rank = 3;
		rank[i].move = move_of(s);
		ALLOC_GROW(x, s->n + 1, xalloc);
		for (size_t k = 0; k < s->n; k++)
			x[k] = s->pts[k].value;
		struct assay_error de;
		if (assay_detect(x, s->n, &opts, &rank[i].ch, &de) != ASSAY_OK)
			rank[i].ch.n = 0; /* stored values are finite; nothing to find */
		if (rank[i].ch.n) {
			const struct assay_change *c = &rank[i].ch.v[rank[i].ch.n - 1];
			rank[i].rank = s->mine >= 0 && c->index == (size_t)s->mine
					       ? (assay_change_is_regression(c, s->dir) ? 0 : 1)
					       : 2;
		}
		struct sbuf ignore = SBUF_INIT;
		enum assay_report_verdict v;
		if (gate_verdict(L, s->key, &v, &ignore) && v == ASSAY_VERDICT_FAIL)
			rank[i].rank = -1; /* a failed regression gate comes first */
		sbuf_release(&ignore);
	}
	free(x);
	qsort(rank, H.n, sizeof(*rank), cmp_rank);
	struct sbuf label = SBUF_INIT, msg = SBUF_INIT;
	for (size_t j = 0; j < H.n; j++) {
		struct hseries *s = &H.v[rank[j].index];
		sbuf_reset(&label);
		sbuf_addf(&label, "%s %s", jstr(s->fields, "metric") ? jstr(s->fields, "metric") : "?",
			  jstr(s->fields, "statistic") ? jstr(s->fields, "statistic") : "");
		struct sbuf kv = SBUF_INIT;
		key_values(s->fields, &vary, &kv);
		if (kv.len)
			sbuf_addf(&label, " · %s", kv.buf);
		sbuf_release(&kv);
		struct assay_report_history *h = assay_report_add_history(L->r, label.buf, s->unit);
		h->lower_is_better = s->dir == ASSAY_DIR_LOWER;
		sbuf_reset(&msg);
		enum assay_report_verdict verdict = ASSAY_VERDICT_RECORD;
		bool gated = gate_verdict(L, s->key, &verdict, &msg);
		if (gated)
			sbuf_adds(&msg, "; ");
		history_message(s, &rank[j].ch, gated, &msg);
		assay_report_set(&h->message, msg.buf);
		h->verdict = verdict;
		/* The model takes the points as they are (no copies). */
		h->points = s->pts;
		h->npoints = h->points_alloc = s->n;
		s->pts = NULL;
		for (size_t k = 0; k < rank[j].ch.n; k++)
			assay_report_history_change(h, rank[j].ch.v[k].index);
		h->new_point = s->mine;
	}
	for (size_t i = 0; i < H.n; i++)
		assay_changes_release(&rank[i].ch);
	free(rank);
	sbuf_release(&label);
	sbuf_release(&msg);
	strlist_clear(&vary);
out:
	for (size_t i = 0; i < H.n; i++) {
		struct hseries *s = &H.v[i];
		free(s->key);
		free(s->unit);
		json_decref(s->fields);
		for (size_t k = 0; s->pts && k < s->n; k++)
			free(s->pts[k].revision);
		free(s->pts);
	}
	free(H.v);
	assay_annotations_release(&ann);
	return rc;
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
	if (run->exit_code >= 0 && run->ended) {
		r->exit_code = (assay_err)run->exit_code;
	} else {
		r->exit_code = ASSAY_INFRA;
		strlist_push(&r->notes, "This run has not ended: it is still running, or it was "
					"killed (`assay run --resume` finishes it). The outcome shown "
					"is infrastructure until it ends.");
	}
}

/* Secrets: the names the run recorded, the values from this environment. */
static void secrets(struct loader *L, struct assay_report_found *found)
{
	const json_t *names = json_object_get(L->summary, "secrets");
	for (size_t i = 0; i < json_array_size(names); i++) {
		const char *name = json_string_value(json_array_get(names, i));
		if (!name)
			continue;
		const char *v = getenv(name);
		if (v && *v)
			strlist_push(&L->r->secrets, v);
		else
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

assay_err assay_report_load(const struct assay_report_source *src, struct assay_report *r,
			    struct assay_report_found *found, struct assay_error *e)
{
	memset(found, 0, sizeof(*found));
	struct loader L = {0};
	L.r = r;
	L.last_ladder = -1;
	L.last_case = -1;
	struct assay_store_run run = {0};
	struct assay_store_cases sc = {0};
	assay_err rc;
	if (access(src->store, F_OK) != 0)
		return assay_error_at(e, ASSAY_USAGE, src->store, NULL, 0, "no such store");
	if ((rc = assay_store_open(src->store, ASSAY_STORE_READONLY, &L.s, e)) != ASSAY_OK)
		return rc;
	if ((rc = assay_store_run_get(L.s, src->run ? src->run : "last", &run, e)) != ASSAY_OK ||
	    (rc = assay_store_case_details(L.s, run.run_id, &sc, e)) != ASSAY_OK)
		goto out;
	found->run_id = xstrdup(run.run_id);
	L.run_id = run.run_id;
	L.ended = run.ended != NULL;

	char *dir = find_run_dir(src, &sc);
	bool lost = dir && !is_dir(dir); /* recorded, but not here */
	if (dir && !lost) {
		found->run_dir = dir;
	} else if (src->run_dir || (dir && !src->out_dir)) {
		rc = assay_error_set(e, ASSAY_USAGE,
				     "run %s: its output folder %s does not exist here (paths in the "
				     "store are relative to where `assay run` was started)%s",
				     run.run_id, dir ? dir : src->run_dir,
				     src->run_dir ? "" : "; run assay report from there, or give --out "
							 "to write a report without it");
		free(dir);
		goto out;
	} else {
		free(dir);
	}
	const char *out = src->out_dir ? src->out_dir : found->run_dir;
	if (!out) {
		rc = assay_error_set(e, ASSAY_USAGE,
				     "run %s has no output folder (an ingested run?); give --out DIR",
				     run.run_id);
		goto out;
	}
	found->out_dir = xstrdup(out);
	L.out_abs = abs_path(out);
	L.run_dir = found->run_dir;

	if (found->run_dir) {
		char *sum = xasprintf("%s/summary.json", found->run_dir);
		if (is_file(sum)) {
			L.summary = assay_json_load_file(sum, e);
			if (!L.summary) {
				free(sum);
				rc = ASSAY_USAGE;
				goto out;
			}
			const char *sid = jstr(L.summary, "run_id");
			if (sid && strcmp(sid, run.run_id)) {
				rc = assay_error_at(e, ASSAY_USAGE, sum, "$.run_id", 0,
						    "this folder belongs to run %s, not %s", sid,
						    run.run_id);
				free(sum);
				goto out;
			}
		} else {
			strlist_push(&r->notes, "The run folder has no summary.json: cases the store "
						"did not finish (unsupported, skipped) may be missing.");
		}
		free(sum);
	} else if (lost) {
		strlist_push(&r->notes, "The run's output folder was not found: cases are shown as "
					"the store recorded them, without links to their files.");
	}
	header(&L, &run);
	secrets(&L, found);
	load_cases(&L, &sc);
	if ((rc = assay_store_verdicts(L.s, run.run_id, NULL, on_verdict, &L, e)) != ASSAY_OK ||
	    (rc = assay_store_run_rows(L.s, run.run_id, ep_skip, row_fields, on_row, &L, e)) !=
		    ASSAY_OK)
		goto out;
	ep_groups(&L);
	load_training(&L, &sc);
	rc = load_history(&L, e);
out:
	for (size_t i = 0; i < L.nhgates; i++) {
		free(L.hgates[i].key);
		free(L.hgates[i].gate);
		free(L.hgates[i].message);
	}
	free(L.hgates);
	for (size_t i = 0; i < L.nladders; i++)
		json_decref(L.ladder_ids[i]);
	free(L.ladder_ids);
	strlist_clear(&L.keys);
	json_decref(L.summary);
	free(L.out_abs);
	assay_store_cases_release(&sc);
	assay_store_run_release(&run);
	struct assay_error ce;
	if (assay_store_close(L.s, &ce) != ASSAY_OK && rc == ASSAY_OK) {
		*e = ce;
		rc = ASSAY_INFRA;
	}
	return rc;
}
