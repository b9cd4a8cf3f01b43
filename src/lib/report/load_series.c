/* The report's view of the run's rows: one EP ladder per case (the
 * roundtrip latency p50 and p99, bandwidth and the oracle per point), the
 * series the history follows (read by load_history.c), the EP groups and
 * the gates' series labels (docs/report.md, "What the report reads"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load_int.h"

enum { F_COMPONENT, F_TOKENS, F_BYTES };
const char *const load_row_fields[] = {"component", "tokens", "bytes", NULL};
/* What assay-ep rows the report leaves out: diagnostics of every point that
 * neither the EP charts nor the history follow (docs/report.md). */
const char *const load_ep_skip[] = {"cross_rank_min_us@component",
				    "tokens_per_s@component",
				    "latency_us/p90@component",
				    "latency_us/p95@component",
				    "latency_us/min@component",
				    "latency_us/max@component",
				    NULL};
static const char *const ep_metrics[] = {"latency_us",  "gbps_per_rank",    "max_relative_error",
					 "oracle_pass", "imbalance_expert", "imbalance_rank"};

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
	if (L->last_ladder >= 0 && row->case_id &&
	    !strcmp(r->ep[L->last_ladder].case_id, row->case_id))
		return &r->ep[L->last_ladder];
	json_t *id = json_loads(row->fields_json ? row->fields_json : "{}", 0, NULL);
	if (!id)
		id = json_object();
	const char *b = load_jstr(id, "backend"), *p = load_jstr(id, "precision"),
		   *ph = load_jstr(id, "phase"), *mode = load_jstr(id, "mode"),
		   *rt = load_jstr(id, "routing");
	char key[512];
	/* A low-latency ladder, and a ladder of a skewed routing, is its own
	 * series beside the normal, uniform one. */
	bool ll = mode && !strcmp(mode, "low-latency");
	bool skew = rt && strcmp(rt, "uniform");
	snprintf(key, sizeof(key), "%s %s %s%s%s%s", b ? b : "", p ? p : "", ph ? ph : "",
		 ll ? " low-latency" : "", skew ? " " : "", skew ? rt : "");
	const char *want = row->case_id ? row->case_id : key;
	for (size_t i = 0; i < r->nep; i++)
		if (!strcmp(r->ep[i].case_id, want)) {
			L->last_ladder = (long)i;
			json_decref(id);
			return &r->ep[i];
		}
	struct assay_report_ep *ep = assay_report_add_ep(r, want, b, p, ph);
	assay_report_set(&ep->component, "roundtrip");
	assay_report_set(&ep->mode, mode);
	assay_report_set(&ep->routing, load_jstr(id, "routing"));
	/* What identifies the ladder beyond its points: grouping later. */
	static const char *const point_level[] = {"metric",    "statistic", "tokens",
						  "component", "verdict",   "backend",
						  "precision", "phase",     "mode"};
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

int load_on_row(const struct assay_store_rowview *row, void *ctx)
{
	struct loader *L = ctx;
	const char *comp = row->field[F_COMPONENT];
	const char *m = row->metric, *st = row->statistic;
	load_infer_row(L, row); /* inference charts */
	if (!comp || !in(m, ep_metrics, ARRAY_SIZE(ep_metrics))) {
		strlist_push(&L->keys, row->series_key); /* not EP: followed in full */
		if (row->field[F_BYTES] && !strcmp(m, "busbw") && !strcmp(st, "mean"))
			strlist_push(&L->coll_keys, row->series_key); /* collective charts */
		return 0;
	}
	bool rt = !strcmp(comp, "roundtrip"), oracle = !strcmp(comp, "oracle");
	bool p50 = !strcmp(st, "p50"), p99 = !strcmp(st, "p99");
	bool lat = rt && !strcmp(m, "latency_us") && (p50 || p99);
	bool bw = rt && !strcmp(m, "gbps_per_rank") && p50;
	bool err = oracle && !strcmp(m, "max_relative_error");
	bool pass = oracle && !strcmp(m, "oracle_pass");
	bool imb = !strcmp(comp, "routing") &&
		   (!strcmp(m, "imbalance_expert") || !strcmp(m, "imbalance_rank"));
	if (lat || bw || err)
		strlist_push(&L->keys, row->series_key);
	double tokens;
	if (!(lat || bw || err || pass || imb) || !row->field[F_TOKENS] ||
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
	else if (imb && !strcmp(m, "imbalance_expert"))
		p->imbalance_expert = row->value;
	else if (imb)
		p->imbalance_rank = row->value;
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
			else if (!json_equal(seen, val) && !in(k, skip, nskip) &&
				 !strlist_has(out, k))
				strlist_push(out, k);
		}
	}
	json_decref(first);
}

/* "k=v · k=v" for the keys of obj in keys (sorted). */
static void key_values(const json_t *obj, const struct strlist *keys, struct sbuf *sb)
{
	struct sbuf v = SBUF_INIT;
	for (size_t i = 0; i < keys->n; i++) {
		const json_t *val = json_object_get(obj, keys->v[i]);
		if (!val)
			continue;
		load_factor_value(val, &v);
		sbuf_addf(sb, "%s%s=%s", sb->len ? " · " : "", keys->v[i], v.buf);
	}
	sbuf_release(&v);
}

void load_ep_groups(struct loader *L)
{
	struct strlist vary = STRLIST_INIT;
	varying_keys(L->ladder_ids, L->nladders, NULL, 0, &vary);
	if (vary.n)
		qsort(vary.v, vary.n, sizeof(char *), load_cmp_str);
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < L->nladders && vary.n; i++) {
		sbuf_reset(&sb);
		key_values(L->ladder_ids[i], &vary, &sb);
		assay_report_set(&L->r->ep[i].group, sb.len ? sb.buf : NULL);
	}
	sbuf_release(&sb);
	strlist_clear(&vary);
}

/* ---- gate series labels ---- */

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A gate series' identity fields, by key. */
struct gate_fields {
	const char *key; /* the gate's */
	json_t *fields;
};

static int cmp_gate_fields(const void *a, const void *b)
{
	return strcmp(((const struct gate_fields *)a)->key, ((const struct gate_fields *)b)->key);
}

struct gate_fields_ctx {
	struct gate_fields *v;
	size_t n;
};

static int on_gate_series(const char *key, const char *fields_json, void *ctx)
{
	struct gate_fields_ctx *G = ctx;
	struct gate_fields want = {key, NULL};
	struct gate_fields *g = bsearch(&want, G->v, G->n, sizeof(*G->v), cmp_gate_fields);
	if (g && !g->fields)
		g->fields = json_loads(fields_json ? fields_json : "{}", 0, NULL);
	return 0;
}

/* The gates' series, each looked up once by its exact key (not a listing
 * of every series in the store), into G sorted by key. */
static assay_err gate_fields_read(struct loader *L, struct gate_fields_ctx *G,
				  struct assay_error *e)
{
	struct assay_report *r = L->r;
	G->v = xcalloc(r->ngates + 1, sizeof(*G->v));
	G->n = 0;
	for (size_t i = 0; i < r->ngates; i++)
		if (r->gates[i].series_key)
			G->v[G->n++] = (struct gate_fields){r->gates[i].series_key, NULL};
	if (G->n)
		qsort(G->v, G->n, sizeof(*G->v), cmp_gate_fields);
	size_t w = 0;
	struct strlist keys = STRLIST_INIT;
	for (size_t i = 0; i < G->n; i++)
		if (!w || strcmp(G->v[w - 1].key, G->v[i].key)) {
			G->v[w++] = G->v[i];
			strlist_push(&keys, G->v[i].key);
		}
	G->n = w;
	assay_err rc = ASSAY_OK;
	if (keys.n)
		rc = assay_store_series_by_key(L->s, &keys, on_gate_series, G, e);
	strlist_clear(&keys);
	return rc;
}

static void gate_fields_release(struct gate_fields_ctx *G)
{
	for (size_t i = 0; i < G->n; i++)
		json_decref(G->v[i].fields);
	free(G->v);
}

static bool same_gate(const struct assay_report_gate *g, const struct assay_report_gate *h)
{
	return same_str(g->case_id, h->case_id) && same_str(g->name, h->name) &&
	       same_str(g->metric, h->metric);
}

/* Gate h's series label: "k=v k=v" for the keys in vary its fields have. */
static void gate_label(struct assay_report_gate *h, const json_t *fields,
		       const struct strlist *vary, struct sbuf *sb)
{
	sbuf_reset(sb);
	struct sbuf v = SBUF_INIT;
	for (size_t j = 0; j < vary->n; j++) {
		const json_t *val = json_object_get(fields, vary->v[j]);
		if (!val)
			continue;
		load_factor_value(val, &v);
		sbuf_addf(sb, "%s%s=%s", sb->len ? " " : "", vary->v[j], v.buf);
	}
	sbuf_release(&v);
	assay_report_set(&h->series, sb->len ? sb->buf : NULL);
}

/* The labels of gate i and the gates not yet done of its case, gate and
 * metric (fields[k]: gate k's series object or NULL; group: room for all). */
static void gate_group_labels(struct assay_report *r, size_t i, json_t **fields, bool *done,
			      json_t **group, struct sbuf *sb)
{
	static const char *const skip[] = {"metric", "statistic"};
	const struct assay_report_gate *g = &r->gates[i];
	size_t n = 0;
	for (size_t k = i; k < r->ngates; k++)
		if (!done[k] && same_gate(g, &r->gates[k]) && fields[k])
			group[n++] = fields[k];
	struct strlist vary = STRLIST_INIT;
	varying_keys(group, n, skip, ARRAY_SIZE(skip), &vary);
	if (vary.n)
		qsort(vary.v, vary.n, sizeof(char *), load_cmp_str);
	for (size_t k = i; k < r->ngates; k++) {
		struct assay_report_gate *h = &r->gates[k];
		if (done[k] || !same_gate(g, h))
			continue;
		done[k] = true;
		if (!fields[k] || !vary.n)
			continue;
		gate_label(h, fields[k], &vary, sb);
	}
	strlist_clear(&vary);
}

assay_err load_gate_series(struct loader *L, struct assay_error *e)
{
	struct assay_report *r = L->r;
	struct gate_fields_ctx G;
	assay_err rc = gate_fields_read(L, &G, e);
	if (rc != ASSAY_OK) {
		gate_fields_release(&G);
		return rc;
	}
	/* fields[i]: gate i's series object, NULL when it has none. */
	json_t **fields = xcalloc(r->ngates + 1, sizeof(*fields));
	for (size_t i = 0; i < r->ngates; i++) {
		if (!r->gates[i].series_key)
			continue;
		struct gate_fields want = {r->gates[i].series_key, NULL};
		const struct gate_fields *g =
		    bsearch(&want, G.v, G.n, sizeof(*G.v), cmp_gate_fields);
		fields[i] = g ? g->fields : NULL;
	}
	bool *done = xcalloc(r->ngates + 1, sizeof(*done));
	json_t **group = xcalloc(r->ngates + 1, sizeof(*group));
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < r->ngates; i++)
		if (!done[i])
			gate_group_labels(r, i, fields, done, group, &sb);
	sbuf_release(&sb);
	free(group);
	free(done);
	free(fields);
	gate_fields_release(&G);
	return ASSAY_OK;
}
