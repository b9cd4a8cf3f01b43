/* Suites of kind "ep": a platform registry, a sweep (a file or inline) and
 * filters give the matrix; each runnable case is planned as
 * `mpirun -np EP assay-ep run ...` with the case's factors, unsupported cases
 * are kept (recorded, never run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "suite_int.h"

static const char *const filter_keys[] = {"sku",  "backend", "ep", "precision",
					  "mode", "phase",   NULL};

static int parse_filters(struct assay_cfg *c, const json_t *doc, struct assay_filters *f)
{
	json_t *fl;
	int rc = assay_cfg_member(c, doc, "$", "filters", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &fl);
	if (rc <= 0)
		return rc;
	if (assay_cfg_object(c, fl, "$.filters", filter_keys) < 0)
		return -1;
	struct strlist *lists[] = {&f->sku,       &f->backend, &f->ep,
				   &f->precision, &f->mode,    &f->phase};
	for (size_t i = 0; filter_keys[i]; i++) {
		json_t *v = json_object_get(fl, filter_keys[i]);
		if (!v)
			continue;
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.filters", filter_keys[i]);
		if (!json_is_array(v) || !json_array_size(v))
			return assay_cfg_expected(c, path, "a non-empty array", v);
		for (size_t k = 0; k < json_array_size(v); k++) {
			json_t *item = json_array_get(v, k);
			char ip[256];
			assay_json_path_index(ip, sizeof(ip), path, k);
			struct sbuf sb = SBUF_INIT;
			if (json_is_integer(item) && !strcmp(filter_keys[i], "ep")) {
				sbuf_addf(&sb, "%lld", (long long)json_integer_value(item));
			} else if (json_is_string(item) && json_string_length(item)) {
				sbuf_adds(&sb, json_string_value(item));
			} else {
				sbuf_release(&sb);
				return assay_cfg_expected(
				    c, ip,
				    !strcmp(filter_keys[i], "ep") ? "an EP size" : "a string",
				    item);
			}
			strlist_push(lists[i], sbuf_str(&sb));
			sbuf_release(&sb);
		}
	}
	return 0;
}

/* Errors of an inline sweep are located inside the suite: $.x -> $.sweep.x. */
static void relocate(struct assay_error *e, const char *prefix)
{
	if (e->path[0] != '$')
		return;
	char p[256];
	snprintf(p, sizeof(p), "%s%s", prefix, e->path + 1);
	snprintf(e->path, sizeof(e->path), "%s", p);
}

/* Matrix filter errors read "--sku: unknown value ..."; in a suite they are
 * at $.filters.sku. */
static int filter_error(struct assay_cfg *c, const struct assay_error *e2)
{
	const char *m = e2->message;
	if (assay_starts_with(m, "--")) {
		const char *colon = strstr(m, ": ");
		if (colon) {
			char key[64], path[128];
			snprintf(key, sizeof(key), "%.*s", (int)(colon - m - 2), m + 2);
			snprintf(path, sizeof(path), "$.filters.%s", key);
			return assay_cfg_fail(c, path, "%s", colon + 2);
		}
	}
	return assay_cfg_fail(c, "$.filters", "%s", m);
}

int suite_parse_ep(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	const char *platforms, *assay_ep;
	int rc;
	if (assay_cfg_string(c, doc, "$", "platforms", ASSAY_CFG_REQUIRED, &platforms) < 0)
		return -1;
	if ((rc = assay_cfg_string(c, doc, "$", "assay_ep", ASSAY_CFG_OPTIONAL, &assay_ep)) < 0)
		return -1;
	if (rc)
		s->assay_ep = xstrdup(assay_ep);
	json_t *sw = json_object_get(doc, "sweep");
	if (!sw)
		return assay_cfg_fail(c, "$.sweep", "missing (expected a sweep file or object)");
	if (!(json_is_string(sw) && json_string_length(sw)) && !json_is_object(sw))
		return assay_cfg_expected(c, "$.sweep", "a sweep file or object", sw);
	struct assay_filters f = {0};
	if (parse_filters(c, doc, &f) < 0) {
		assay_filters_release(&f);
		return -1;
	}
	rc = -1;
	if (assay_registry_load(platforms, &s->registry, c->err) != ASSAY_OK)
		goto out;
	if (json_is_string(sw)) {
		if (assay_sweep_load(json_string_value(sw), &s->sweep, c->err) != ASSAY_OK)
			goto out;
	} else if (assay_sweep_parse(sw, c->file, &s->sweep, c->err) != ASSAY_OK) {
		relocate(c->err, "$.sweep");
		goto out;
	}
	struct assay_error e2;
	if (assay_matrix_build(&s->registry, &s->sweep, &f, &s->matrix, &e2) != ASSAY_OK) {
		filter_error(c, &e2);
		goto out;
	}
	if (!s->matrix.n) {
		assay_cfg_fail(c, "$.filters", "no case is left after the filters");
		goto out;
	}
	if (!s->name)
		s->name = xstrdup(s->sweep.suite);
	s->cases = xcalloc(s->matrix.n, sizeof(*s->cases));
	for (size_t i = 0; i < s->matrix.n; i++) {
		const struct assay_case *mc = &s->matrix.cases[i];
		struct assay_suite_case *k = &s->cases[s->n_cases++];
		k->id = xstrdup(mc->id);
		k->runnable = mc->runnable;
		k->reason = mc->reason ? xstrdup(mc->reason) : NULL;
		k->factors = assay_case_to_json(mc, &s->matrix.timing);
		k->vars = json_object();
		k->nodes = mc->nodes;
		k->ranks_per_node = (mc->ep + mc->nodes - 1) / mc->nodes;
		k->ep = mc;
	}
	rc = 0;
out:
	assay_filters_release(&f);
	return rc;
}

static void push_int(struct strlist *l, const char *flag, long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	strlist_push(l, flag);
	strlist_push(l, buf);
}

static void push_str(struct strlist *l, const char *flag, const char *v)
{
	strlist_push(l, flag);
	strlist_push(l, v);
}

assay_err suite_plan_ep(const struct assay_suite *s, const struct assay_suite_case *c,
			const json_t *vars, const char *assay_ep, struct assay_case_plan *p,
			struct assay_error *e)
{
	(void)e;
	const struct assay_case *mc = c->ep;
	const char *case_dir = json_string_value(json_object_get(vars, "CASE_DIR"));
	const struct assay_timing *t = &s->matrix.timing;
	struct strlist *a = &p->argv;
	strlist_push(a, assay_ep);
	strlist_push(a, "run");
	push_str(a, "--backend", mc->backend);
	push_int(a, "--ep", mc->ep);
	push_str(a, "--mode", mc->mode);
	push_str(a, "--phase", mc->phase);
	push_str(a, "--precision", mc->precision);
	struct sbuf tokens = SBUF_INIT;
	for (size_t i = 0; i < mc->n_tokens; i++)
		sbuf_addf(&tokens, "%s%lld", i ? "," : "", mc->tokens[i]);
	push_str(a, "--tokens", sbuf_str(&tokens));
	sbuf_release(&tokens);
	if (!strcmp(t->profile, "custom")) {
		p->timing_file = xasprintf("%s/timing.json", case_dir);
		p->timing = assay_timing_to_json(t);
		/* The six fields alone: a timing file names no profile. */
		json_object_del(p->timing, "profile");
		push_str(a, "--timing", p->timing_file);
	} else {
		push_str(a, "--profile", t->profile);
	}
	push_int(a, "--hidden", mc->hidden);
	push_int(a, "--experts", mc->experts);
	push_int(a, "--topk", mc->topk);
	push_int(a, "--seed", mc->seed);
	/* uniform is assay-ep's default: commands of uniform cases unchanged. */
	if (mc->routing && strcmp(mc->routing, "uniform"))
		push_str(a, "--routing", mc->routing);
	push_int(a, "--scale-up-domain", mc->scale_up_domain);
	push_str(a, "--workload", mc->workload);
	p->artifact = xasprintf("%s/result.json", case_dir);
	push_str(a, "--out", p->artifact);
	p->mpi_ranks = mc->ep;
	strlist_push(&p->results, p->artifact);
	p->parser = "assay-ep";
	char host[256], scale[64];
	suite_short_hostname(host, sizeof(host));
	snprintf(scale, sizeof(scale), "%lldx%lld", c->nodes, c->ranks_per_node);
	p->context = json_pack("{s:s, s:s, s:s, s:s}", "suite", s->name, "cluster",
			       s->cluster ? s->cluster : host, "scale", scale, "sku", mc->sku);
	return ASSAY_OK;
}
