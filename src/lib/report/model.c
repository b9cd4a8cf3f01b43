/* The report model (include/assay/report.h): outcome and verdict names,
 * building the model element by element, releasing it, and writing the three
 * report files into a folder. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/report.h"

static const char *const outcome_names[ASSAY_REPORT_OUTCOME_COUNT] = {
    "passed",         "gate-failed", "workload-failed", "no-metrics",
    "infrastructure", "unsupported", "skipped",
};

const char *assay_report_outcome_name(enum assay_report_outcome o)
{
	return (unsigned)o < ASSAY_REPORT_OUTCOME_COUNT ? outcome_names[o] : "unknown";
}

int assay_report_outcome_parse(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < ASSAY_REPORT_OUTCOME_COUNT; i++)
		if (!strcmp(name, outcome_names[i]))
			return i;
	if (!strcmp(name, "ok"))
		return ASSAY_REPORT_PASSED;
	return -1;
}

assay_err assay_report_outcome_exit(enum assay_report_outcome o)
{
	switch (o) {
	case ASSAY_REPORT_GATE_FAILED: return ASSAY_GATE_FAILED;
	case ASSAY_REPORT_WORKLOAD_FAILED: return ASSAY_WORKLOAD_FAILED;
	case ASSAY_REPORT_NO_METRICS: return ASSAY_NO_METRICS;
	case ASSAY_REPORT_INFRA: return ASSAY_INFRA;
	default: return ASSAY_OK;
	}
}

static const char *const verdict_names[ASSAY_VERDICT_COUNT] = {"PASS", "FAIL", "RECORD", "SKIPPED"};

const char *assay_report_verdict_name(enum assay_report_verdict v)
{
	return (unsigned)v < ASSAY_VERDICT_COUNT ? verdict_names[v] : "UNKNOWN";
}

int assay_report_verdict_parse(const char *name)
{
	for (int i = 0; name && i < ASSAY_VERDICT_COUNT; i++)
		if (!strcasecmp(name, verdict_names[i]))
			return i;
	return -1;
}

void assay_report_init(struct assay_report *r)
{
	memset(r, 0, sizeof(*r));
	r->exit_code = ASSAY_OK;
}

void assay_report_set(char **field, const char *value)
{
	char *old = *field;
	*field = value ? xstrdup(value) : NULL;
	free(old);
}

static void case_release(struct assay_report_case *c)
{
	free(c->id);
	for (size_t i = 0; i < c->nfactors; i++) {
		free(c->factors[i].key);
		free(c->factors[i].value);
	}
	free(c->factors);
	free(c->reason);
	for (size_t i = 0; i < c->nlinks; i++) {
		free(c->links[i].label);
		free(c->links[i].href);
	}
	free(c->links);
}

static void gate_release(struct assay_report_gate *g)
{
	free(g->case_id);
	free(g->name);
	free(g->metric);
	free(g->unit);
	free(g->spec);
	free(g->message);
	free(g->series_key);
	free(g->series);
}

void assay_report_release(struct assay_report *r)
{
	char **header[] = {&r->suite,          &r->run_id,  &r->revision,    &r->host,
			   &r->launcher,       &r->started, &r->ended,       &r->matrix_digest,
			   &r->catalog_digest, &r->image,   &r->image_digest};
	for (size_t i = 0; i < ARRAY_SIZE(header); i++)
		free(*header[i]);
	for (size_t i = 0; i < r->ncases; i++)
		case_release(&r->cases[i]);
	for (size_t i = 0; i < r->nprovenance; i++) {
		struct assay_report_prov *p = &r->provenance[i];
		free(p->case_id);
		free(p->name);
		free(p->per);
		free(p->unit);
		free(p->matched);
	}
	free(r->provenance);
	free(r->cases);
	for (size_t i = 0; i < r->ngates; i++)
		gate_release(&r->gates[i]);
	free(r->gates);
	for (size_t i = 0; i < r->nep; i++) {
		struct assay_report_ep *ep = &r->ep[i];
		free(ep->case_id);
		free(ep->backend);
		free(ep->precision);
		free(ep->phase);
		free(ep->component);
		free(ep->mode);
		free(ep->group);
		free(ep->routing);
		free(ep->points);
	}
	free(r->ep);
	for (size_t i = 0; i < r->ntrain; i++) {
		struct assay_report_train *t = &r->train[i];
		free(t->case_id);
		free(t->label);
		free(t->loss);
		free(t->throughput);
		free(t->throughput_unit);
	}
	free(r->train);
	for (size_t i = 0; i < r->ncoll; i++) {
		free(r->coll[i].operation);
		free(r->coll[i].label);
		free(r->coll[i].revision);
		free(r->coll[i].points);
	}
	free(r->coll);
	for (size_t i = 0; i < r->ninfer; i++) {
		free(r->infer[i].chart);
		free(r->infer[i].y_title);
		free(r->infer[i].label);
		free(r->infer[i].points);
	}
	free(r->infer);
	for (size_t i = 0; i < r->nhistory; i++) {
		struct assay_report_history *h = &r->history[i];
		free(h->label);
		free(h->unit);
		for (size_t k = 0; !h->strings && k < h->npoints; k++)
			free(h->points[k].revision);
		free(h->strings);
		free(h->points);
		free(h->change_points);
		free(h->message);
	}
	free(r->history);
	assay_redactor_release(&r->secrets);
	strlist_clear(&r->notes);
	assay_report_init(r);
}

struct assay_report_case *assay_report_add_case(struct assay_report *r, const char *id,
						enum assay_report_outcome outcome)
{
	ALLOC_GROW(r->cases, r->ncases + 1, r->cases_alloc);
	struct assay_report_case *c = &r->cases[r->ncases++];
	memset(c, 0, sizeof(*c));
	c->id = xstrdup(id ? id : "");
	c->outcome = outcome;
	c->duration_s = NAN;
	return c;
}

void assay_report_case_factor(struct assay_report_case *c, const char *key, const char *value)
{
	ALLOC_GROW(c->factors, c->nfactors + 1, c->factors_alloc);
	c->factors[c->nfactors].key = xstrdup(key ? key : "");
	c->factors[c->nfactors].value = xstrdup(value ? value : "");
	c->nfactors++;
}

void assay_report_case_link(struct assay_report_case *c, const char *label, const char *href)
{
	ALLOC_GROW(c->links, c->nlinks + 1, c->links_alloc);
	c->links[c->nlinks].label = xstrdup(label ? label : "");
	c->links[c->nlinks].href = xstrdup(href ? href : "");
	c->nlinks++;
}

struct assay_report_gate *assay_report_add_gate(struct assay_report *r, const char *case_id,
						const char *name, enum assay_report_verdict v)
{
	ALLOC_GROW(r->gates, r->ngates + 1, r->gates_alloc);
	struct assay_report_gate *g = &r->gates[r->ngates++];
	memset(g, 0, sizeof(*g));
	assay_report_set(&g->case_id, case_id);
	assay_report_set(&g->name, name);
	g->verdict = v;
	g->value = NAN;
	return g;
}

struct assay_report_ep *assay_report_add_ep(struct assay_report *r, const char *case_id,
					    const char *backend, const char *precision,
					    const char *phase)
{
	ALLOC_GROW(r->ep, r->nep + 1, r->ep_alloc);
	struct assay_report_ep *ep = &r->ep[r->nep++];
	memset(ep, 0, sizeof(*ep));
	assay_report_set(&ep->case_id, case_id);
	assay_report_set(&ep->backend, backend);
	assay_report_set(&ep->precision, precision);
	assay_report_set(&ep->phase, phase);
	return ep;
}

struct assay_report_ep_point *assay_report_ep_point(struct assay_report_ep *ep, double tokens)
{
	ALLOC_GROW(ep->points, ep->npoints + 1, ep->points_alloc);
	struct assay_report_ep_point *p = &ep->points[ep->npoints++];
	*p = (struct assay_report_ep_point){tokens, NAN, NAN, NAN, NAN, false, NAN, NAN};
	return p;
}

struct assay_report_train *assay_report_add_train(struct assay_report *r, const char *case_id,
						  const char *label)
{
	ALLOC_GROW(r->train, r->ntrain + 1, r->train_alloc);
	struct assay_report_train *t = &r->train[r->ntrain++];
	memset(t, 0, sizeof(*t));
	assay_report_set(&t->case_id, case_id);
	assay_report_set(&t->label, label);
	t->slope = t->intercept = t->fit_from = t->fit_to = NAN;
	return t;
}

struct assay_report_coll *assay_report_add_coll(struct assay_report *r, const char *operation,
						const char *label, const char *revision,
						bool current)
{
	ALLOC_GROW(r->coll, r->ncoll + 1, r->coll_alloc);
	struct assay_report_coll *c = &r->coll[r->ncoll++];
	memset(c, 0, sizeof(*c));
	assay_report_set(&c->operation, operation);
	assay_report_set(&c->label, label);
	assay_report_set(&c->revision, revision);
	c->current = current;
	return c;
}

void assay_report_coll_point(struct assay_report_coll *c, double bytes, double busbw)
{
	size_t i = 0;
	while (i < c->npoints && c->points[i].x < bytes)
		i++;
	if (i < c->npoints && c->points[i].x == bytes) {
		c->points[i].y = busbw;
		return;
	}
	ALLOC_GROW(c->points, c->npoints + 1, c->points_alloc);
	memmove(&c->points[i + 1], &c->points[i], (c->npoints - i) * sizeof(*c->points));
	c->points[i] = (struct assay_report_xy){bytes, busbw};
	c->npoints++;
}

struct assay_report_infer *assay_report_infer_curve(struct assay_report *r, const char *chart,
						    const char *y_title, const char *label)
{
	int colors = 0;
	size_t at = r->ninfer; /* after the chart's last curve, so charts stay grouped */
	for (size_t i = 0; i < r->ninfer; i++) {
		struct assay_report_infer *c = &r->infer[i];
		if (strcmp(c->chart, chart))
			continue;
		if (!strcmp(c->label, label))
			return c;
		colors++;
		at = i + 1;
	}
	ALLOC_GROW(r->infer, r->ninfer + 1, r->infer_alloc);
	memmove(&r->infer[at + 1], &r->infer[at], (r->ninfer - at) * sizeof(*r->infer));
	r->ninfer++;
	struct assay_report_infer *c = &r->infer[at];
	memset(c, 0, sizeof(*c));
	assay_report_set(&c->chart, chart);
	assay_report_set(&c->y_title, y_title);
	assay_report_set(&c->label, label);
	c->color = colors;
	return c;
}

void assay_report_infer_point(struct assay_report_infer *c, double x, double y)
{
	size_t i = 0;
	while (i < c->npoints && c->points[i].x < x)
		i++;
	if (i < c->npoints && c->points[i].x == x) {
		c->points[i].y = y;
		return;
	}
	ALLOC_GROW(c->points, c->npoints + 1, c->points_alloc);
	memmove(&c->points[i + 1], &c->points[i], (c->npoints - i) * sizeof(*c->points));
	c->points[i] = (struct assay_report_xy){x, y};
	c->npoints++;
}

void assay_report_train_loss(struct assay_report_train *t, double step, double loss)
{
	ALLOC_GROW(t->loss, t->nloss + 1, t->loss_alloc);
	t->loss[t->nloss++] = (struct assay_report_xy){step, loss};
}

void assay_report_train_throughput(struct assay_report_train *t, double step, double value)
{
	ALLOC_GROW(t->throughput, t->nthroughput + 1, t->throughput_alloc);
	t->throughput[t->nthroughput++] = (struct assay_report_xy){step, value};
}

struct assay_report_history *assay_report_add_history(struct assay_report *r, const char *label,
						      const char *unit)
{
	ALLOC_GROW(r->history, r->nhistory + 1, r->history_alloc);
	struct assay_report_history *h = &r->history[r->nhistory++];
	memset(h, 0, sizeof(*h));
	assay_report_set(&h->label, label);
	assay_report_set(&h->unit, unit);
	h->new_point = -1;
	h->verdict = ASSAY_VERDICT_RECORD;
	return h;
}

void assay_report_history_point(struct assay_report_history *h, const char *revision, double value)
{
	ALLOC_GROW(h->points, h->npoints + 1, h->points_alloc);
	h->points[h->npoints].revision = xstrdup(revision ? revision : "");
	h->points[h->npoints].value = value;
	h->npoints++;
}

void assay_report_history_change(struct assay_report_history *h, size_t index)
{
	ALLOC_GROW(h->change_points, h->nchange_points + 1, h->change_points_alloc);
	h->change_points[h->nchange_points++] = index;
}

enum assay_report_mark assay_report_history_mark(const struct assay_report_history *h)
{
	if (h->verdict == ASSAY_VERDICT_FAIL || h->regime == ASSAY_REGIME_WORSE)
		return ASSAY_MARK_REGRESSION;
	if (h->regime == ASSAY_REGIME_BETTER)
		return ASSAY_MARK_IMPROVEMENT;
	return h->nchange_points ? ASSAY_MARK_EARLIER : ASSAY_MARK_NONE;
}

void assay_report_count_marks(const struct assay_report *r, size_t counts[ASSAY_MARK_COUNT])
{
	memset(counts, 0, ASSAY_MARK_COUNT * sizeof(counts[0]));
	for (size_t i = 0; i < r->nhistory; i++)
		counts[assay_report_history_mark(&r->history[i])]++;
}

void assay_report_count(const struct assay_report *r, size_t counts[ASSAY_REPORT_OUTCOME_COUNT])
{
	memset(counts, 0, ASSAY_REPORT_OUTCOME_COUNT * sizeof(counts[0]));
	for (size_t i = 0; i < r->ncases; i++)
		if ((unsigned)r->cases[i].outcome < ASSAY_REPORT_OUTCOME_COUNT)
			counts[r->cases[i].outcome]++;
}

assay_err assay_report_write(const struct assay_report *r, const char *dir, struct assay_error *e)
{
	assay_err rc = assay_mkdirs(dir, e);
	if (rc)
		return rc;
	static const struct {
		const char *name;
		void (*write)(const struct assay_report *, struct sbuf *);
	} files[] = {
	    {"report.html", assay_report_html},
	    {"junit.xml", assay_report_junit},
	    {"summary.md", assay_report_markdown},
	};
	for (size_t i = 0; i < ARRAY_SIZE(files) && !rc; i++) {
		struct sbuf sb = SBUF_INIT;
		files[i].write(r, &sb);
		char *path = xasprintf("%s/%s", dir, files[i].name);
		rc = assay_write_file_atomic(path, sbuf_str(&sb), sb.len, e);
		free(path);
		sbuf_release(&sb);
	}
	return rc;
}
