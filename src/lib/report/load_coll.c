/* The report's collective charts (docs/report.md): the bus bandwidth (busbw
 * mean) per message size of every operation the run measured, one curve
 * per series apart from its size (placement, dtype, scale, backend, ...),
 * this run's points and, fainter, those of up to COLL_REVISIONS earlier
 * revisions from the store. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "report/load_int.h"

#define COLL_REVISIONS 4 /* earlier revisions drawn per curve */
#define COLL_POINTS    64

/* One point of a size's history. */
struct cpoint {
	size_t ident;   /* index into identities */
	double bytes;   /* the size */
	char *revision; /* owned */
	double value;
	bool current;
	size_t order; /* position in the series' time order */
};

struct cctx {
	struct strlist ids; /* canonical JSON of each curve's identity */
	json_t **fields;    /* the identity objects, parallel to ids */
	struct cpoint *v;
	size_t n, alloc;
};

static int on_coll(const struct assay_store_history *h, void *ctx)
{
	struct cctx *C = ctx;
	json_t *f = json_loads(h->fields_json ? h->fields_json : "{}", 0, NULL);
	const json_t *b = f ? json_object_get(f, "bytes") : NULL;
	if (!json_is_integer(b) || h->this_run < 0) {
		json_decref(f);
		return 0;
	}
	double bytes = (double)json_integer_value(b);
	static const char *const drop[] = {"bytes", "metric", "statistic"};
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++)
		json_object_del(f, drop[i]);
	char *id = assay_json_dumps(f, ASSAY_JSON_SORT);
	size_t k = 0;
	while (k < C->ids.n && strcmp(C->ids.v[k], id))
		k++;
	if (k == C->ids.n) {
		strlist_push(&C->ids, id);
		C->fields = xrealloc(C->fields, C->ids.n * sizeof(*C->fields));
		C->fields[k] = json_incref(f);
	}
	free(id);
	json_decref(f);
	for (size_t i = 0; i < h->points->n && (long)i <= h->this_run; i++) {
		const struct assay_point *p = &h->points->v[i];
		ALLOC_GROW(C->v, C->n + 1, C->alloc);
		C->v[C->n++] = (struct cpoint){k,
					       bytes,
					       xstrdup(p->revision ? p->revision : "-"),
					       p->value,
					       (long)i == h->this_run,
					       i};
	}
	return 0;
}

/* The keys whose values differ among the identities of one operation. */
static void labels(const struct cctx *C, const char *op, char **out)
{
	struct strlist vary = STRLIST_INIT;
	for (size_t a = 0; a < C->ids.n; a++) {
		const char *oa = load_jstr(C->fields[a], "collective");
		if (strcmp(oa ? oa : "", op))
			continue;
		for (size_t b = a + 1; b < C->ids.n; b++) {
			const char *ob = load_jstr(C->fields[b], "collective");
			if (strcmp(ob ? ob : "", op))
				continue;
			const char *k;
			json_t *v;
			json_object_foreach(C->fields[a], k, v)
			{
				if (!json_equal(v, json_object_get(C->fields[b], k)) &&
				    !strlist_has(&vary, k))
					strlist_push(&vary, k);
			}
			json_object_foreach(C->fields[b], k, v)
			{
				if (!json_object_get(C->fields[a], k) && !strlist_has(&vary, k))
					strlist_push(&vary, k);
			}
		}
	}
	struct sbuf sb = SBUF_INIT, val = SBUF_INIT;
	for (size_t a = 0; a < C->ids.n; a++) {
		const char *oa = load_jstr(C->fields[a], "collective");
		if (strcmp(oa ? oa : "", op))
			continue;
		sbuf_reset(&sb);
		for (size_t i = 0; i < vary.n; i++) {
			const json_t *v = json_object_get(C->fields[a], vary.v[i]);
			if (!v)
				continue;
			load_factor_value(v, &val);
			sbuf_addf(&sb, "%s%s", sb.len ? " · " : "", val.buf);
		}
		if (!sb.len) {
			const char *pl = load_jstr(C->fields[a], "placement");
			sbuf_adds(&sb, pl ? pl : "busbw");
		}
		out[a] = sbuf_detach(&sb, NULL);
	}
	sbuf_release(&val);
	strlist_clear(&vary);
}

/* Earlier revisions of identity k, newest first (at most COLL_REVISIONS). */
static size_t earlier(const struct cctx *C, size_t k, const char **revs)
{
	size_t n = 0;
	/* Points are in time order per series; walk backwards over all. */
	for (size_t i = C->n; i-- > 0 && n < COLL_REVISIONS;) {
		const struct cpoint *p = &C->v[i];
		if (p->ident != k || p->current)
			continue;
		bool seen = false;
		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(revs[j], p->revision);
		if (!seen)
			revs[n++] = p->revision;
	}
	return n;
}

assay_err load_coll(struct loader *L, struct assay_error *e)
{
	if (!L->coll_keys.n)
		return ASSAY_OK;
	struct cctx C = {STRLIST_INIT, NULL, NULL, 0, 0};
	assay_err err =
	    assay_store_run_history(L->s, L->run_id, &L->coll_keys, COLL_POINTS, on_coll, &C, e);
	char **label = xcalloc(C.ids.n + 1, sizeof(*label));
	struct strlist ops = STRLIST_INIT;
	for (size_t k = 0; err == ASSAY_OK && k < C.ids.n; k++) {
		const char *op = load_jstr(C.fields[k], "collective");
		if (!strlist_has(&ops, op ? op : ""))
			strlist_push(&ops, op ? op : "");
	}
	for (size_t o = 0; err == ASSAY_OK && o < ops.n; o++) {
		const char *op = ops.v[o];
		labels(&C, op, label);
		int color = 0;
		size_t first = L->r->ncoll;
		for (size_t k = 0; k < C.ids.n; k++) {
			const char *ok = load_jstr(C.fields[k], "collective");
			if (strcmp(ok ? ok : "", op))
				continue;
			const char *rev = NULL;
			for (size_t i = 0; i < C.n && !rev; i++)
				if (C.v[i].ident == k && C.v[i].current)
					rev = C.v[i].revision;
			struct assay_report_coll *c = assay_report_add_coll(
			    L->r, op[0] ? op : "collective", label[k], rev, true);
			c->color = color++;
			for (size_t i = 0; i < C.n; i++)
				if (C.v[i].ident == k && C.v[i].current)
					assay_report_coll_point(c, C.v[i].bytes, C.v[i].value);
		}
		size_t ncur = L->r->ncoll;
		for (size_t j = first; j < ncur; j++) {
			/* The identity of curve j: the j-first-th of this operation. */
			size_t k = 0, seen = 0;
			for (; k < C.ids.n; k++) {
				const char *ok = load_jstr(C.fields[k], "collective");
				if (!strcmp(ok ? ok : "", op) && seen++ == j - first)
					break;
			}
			const char *revs[COLL_REVISIONS];
			size_t nrev = earlier(&C, k, revs);
			for (size_t r = 0; r < nrev; r++) {
				struct assay_report_coll *c = assay_report_add_coll(
				    L->r, op[0] ? op : "collective", label[k], revs[r], false);
				c->color = L->r->coll[j].color;
				/* The newest value of each size at that revision. */
				for (size_t i = 0; i < C.n; i++)
					if (C.v[i].ident == k && !C.v[i].current &&
					    !strcmp(C.v[i].revision, revs[r]))
						assay_report_coll_point(c, C.v[i].bytes,
									C.v[i].value);
			}
		}
	}
	for (size_t k = 0; k < C.ids.n; k++) {
		free(label[k]);
		json_decref(C.fields[k]);
	}
	free(label);
	free(C.fields);
	strlist_clear(&C.ids);
	strlist_clear(&ops);
	for (size_t i = 0; i < C.n; i++)
		free(C.v[i].revision);
	free(C.v);
	return err;
}
