/* Matrix expansion: SKU x backend x EP x mode x phase x precision into
 * cases, case ids, shards, counts and the matrix and catalog digests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/matrix.h"

char *assay_id_sanitize(const char *s)
{
	struct sbuf sb = SBUF_INIT;
	bool dash = false;
	for (const char *p = s; *p; p++) {
		char ch = *p;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.') {
			sbuf_addch(&sb, ch);
			dash = false;
		} else if (!dash) {
			sbuf_addch(&sb, '-');
			dash = true;
		}
	}
	return sbuf_detach(&sb, NULL);
}

void assay_filters_release(struct assay_filters *f)
{
	strlist_clear(&f->sku);
	strlist_clear(&f->backend);
	strlist_clear(&f->ep);
	strlist_clear(&f->precision);
	strlist_clear(&f->mode);
	strlist_clear(&f->phase);
}

static bool pass(const struct strlist *l, const char *v)
{
	return !l->n || strlist_has(l, v);
}

/* Every filter value must name something in the inputs. */
static assay_err check_filter(const char *flag, const struct strlist *values,
			      const struct strlist *known, struct assay_error *e)
{
	for (size_t i = 0; i < values->n; i++) {
		if (strlist_has(known, values->v[i]))
			continue;
		char *list = strlist_join(known, ", ");
		assay_error_set(e, ASSAY_USAGE, "%s: unknown value \"%s\" (known: %s)", flag,
				values->v[i], list);
		free(list);
		return ASSAY_USAGE;
	}
	return ASSAY_OK;
}

static void push_unique(struct strlist *l, const char *s)
{
	if (!strlist_has(l, s))
		strlist_push(l, s);
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static assay_err check_filters(const struct assay_registry *reg, const struct assay_sweep *sw,
			       const struct assay_filters *f, struct assay_error *e)
{
	struct strlist skus = STRLIST_INIT, backends = STRLIST_INIT, eps = STRLIST_INIT,
		       modes = STRLIST_INIT, phases = STRLIST_INIT;
	for (size_t i = 0; i < reg->n; i++) {
		push_unique(&skus, reg->v[i].sku);
		for (size_t j = 0; j < reg->v[i].n_backends; j++)
			push_unique(&backends, reg->v[i].backends[j].name);
	}
	if (backends.n)
		qsort(backends.v, backends.n, sizeof(*backends.v), cmp_cstr);
	for (size_t i = 0; i < sw->n_ep; i++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%lld", sw->ep_degrees[i]);
		push_unique(&eps, buf);
	}
	for (size_t i = 0; i < sw->n_modes; i++) {
		push_unique(&modes, sw->modes[i].name);
		for (size_t j = 0; j < sw->modes[i].phases.n; j++)
			push_unique(&phases, sw->modes[i].phases.v[j]);
	}
	assay_err rc = check_filter("--sku", &f->sku, &skus, e);
	if (!rc)
		rc = check_filter("--backend", &f->backend, &backends, e);
	if (!rc)
		rc = check_filter("--ep", &f->ep, &eps, e);
	if (!rc)
		rc = check_filter("--precision", &f->precision, &sw->precisions, e);
	if (!rc)
		rc = check_filter("--mode", &f->mode, &modes, e);
	if (!rc)
		rc = check_filter("--phase", &f->phase, &phases, e);
	strlist_clear(&skus);
	strlist_clear(&backends);
	strlist_clear(&eps);
	strlist_clear(&modes);
	strlist_clear(&phases);
	return rc;
}

static int cmp_case(const void *a, const void *b)
{
	return strcmp(((const struct assay_case *)a)->id, ((const struct assay_case *)b)->id);
}

static int cmp_shard(const void *a, const void *b)
{
	return strcmp(((const struct assay_shard *)a)->id, ((const struct assay_shard *)b)->id);
}

static bool has_ep(const struct assay_backend_eps *b, long long ep)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->eps[i] == ep)
			return true;
	return false;
}

/* CollectiveX's case id: each factor lower-cased, runs outside [a-z0-9]
 * replaced by '-', leading and trailing '-' dropped, joined by '-'. */
static char *cx_case_id(const char *const parts[], size_t n)
{
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (i)
			sbuf_addch(&sb, '-');
		size_t first = sb.len;
		bool dash = false;
		for (const char *q = parts[i]; *q; q++) {
			char ch = *q;
			if (ch >= 'A' && ch <= 'Z')
				ch = (char)(ch - 'A' + 'a');
			if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
				if (dash && sb.len > first)
					sbuf_addch(&sb, '-');
				sbuf_addch(&sb, ch);
				dash = false;
			} else {
				dash = true;
			}
		}
	}
	return sbuf_detach(&sb, NULL);
}

static void add_case(struct assay_matrix *m, size_t *alloc, const struct assay_platform *p,
		     const struct assay_backend_eps *b, const struct assay_sweep *sw, long long ep,
		     const char *mode, const char *phase, const char *precision, bool cx)
{
	ALLOC_GROW(m->cases, m->n + 1, *alloc);
	struct assay_case *c = &m->cases[m->n++];
	memset(c, 0, sizeof(*c));
	c->sku = xstrdup(p->sku);
	c->backend = xstrdup(b->name);
	c->workload = xstrdup(sw->workload.name);
	c->mode = xstrdup(mode);
	c->phase = xstrdup(phase);
	c->routing = xstrdup(sw->routing);
	c->precision = xstrdup(precision);
	c->ep = ep;
	c->gpus_per_node = p->gpus_per_node;
	c->nodes = (ep + p->gpus_per_node - 1) / p->gpus_per_node;
	c->scale_up_domain = p->scale_up_domain < ep ? p->scale_up_domain : ep;
	bool out = ep > p->scale_up_domain;
	c->scope = out ? "scale-out" : "scale-up";
	c->transport = xstrdup(out ? p->scale_out_transport : p->scale_up_transport);
	c->topology =
	    c->nodes == 1 ? "single-node" : (out ? "multi-node-scale-out" : "multi-node-scale-up");
	const struct assay_ladder *l = assay_sweep_ladder(sw, phase);
	c->tokens = xcalloc(l->n, sizeof(*c->tokens));
	memcpy(c->tokens, l->tokens, l->n * sizeof(*c->tokens));
	c->n_tokens = l->n;
	c->hidden = sw->workload.hidden;
	c->experts = sw->workload.experts;
	c->topk = sw->workload.topk;
	c->seed = sw->workload.seed;
	char *raw = xasprintf("%s-%s-%s-%s-%s-ep%lld-%s-%s", p->sku, b->name, sw->workload.name,
			      mode, phase, ep, sw->routing, precision);
	if (cx) {
		char epn[32];
		snprintf(epn, sizeof(epn), "ep%lld", ep);
		const char *const parts[] = {p->sku, b->name, sw->workload.name, mode,
					     phase,  epn,     sw->routing,       precision};
		c->id = cx_case_id(parts, ARRAY_SIZE(parts));
	} else {
		c->id = assay_id_sanitize(raw);
	}
	free(raw);
	c->runnable = has_ep(b, ep);
	if (c->runnable) {
		bool ll = !strcmp(mode, "low-latency");
		raw = xasprintf("%s-%s%s-%s-n%lld", p->sku, b->name, ll ? "-ll" : "", precision,
				c->nodes);
		c->shard = cx ? xstrdup(raw) : assay_id_sanitize(raw);
		free(raw);
	} else {
		c->reason = "backend-platform-unsupported";
	}
}

static void build_shards(struct assay_matrix *m)
{
	size_t alloc = 0;
	for (size_t i = 0; i < m->n; i++) {
		struct assay_case *c = &m->cases[i];
		if (!c->runnable)
			continue;
		struct assay_shard *s = NULL;
		for (size_t j = 0; j < m->n_shards; j++)
			if (!strcmp(m->shards[j].id, c->shard))
				s = &m->shards[j];
		if (!s) {
			ALLOC_GROW(m->shards, m->n_shards + 1, alloc);
			s = &m->shards[m->n_shards++];
			memset(s, 0, sizeof(*s));
			s->id = xstrdup(c->shard);
			s->sku = xstrdup(c->sku);
			s->backend = xstrdup(c->backend);
			s->mode = xstrdup(c->mode);
			s->precision = xstrdup(c->precision);
			s->nodes = c->nodes;
		}
		strlist_push(&s->cases, c->id);
	}
	if (m->n_shards)
		qsort(m->shards, m->n_shards, sizeof(*m->shards), cmp_shard);
}

json_t *assay_case_to_json(const struct assay_case *c, const struct assay_timing *t)
{
	json_t *tokens = json_array();
	for (size_t i = 0; i < c->n_tokens; i++)
		json_array_append_new(tokens, json_integer(c->tokens[i]));
	json_t *o = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:s, s:s, s:s,"
	    " s:s, s:o, s:I, s:I, s:I, s:I, s:o}",
	    "id", c->id, "sku", c->sku, "backend", c->backend, "workload", c->workload, "mode",
	    c->mode, "phase", c->phase, "routing", c->routing, "precision", c->precision, "ep",
	    (json_int_t)c->ep, "nodes", (json_int_t)c->nodes, "gpus_per_node",
	    (json_int_t)c->gpus_per_node, "scale_up_domain", (json_int_t)c->scale_up_domain,
	    "scope", c->scope, "topology", c->topology, "transport", c->transport, "disposition",
	    c->runnable ? "runnable" : "unsupported", "tokens", tokens, "hidden",
	    (json_int_t)c->hidden, "experts", (json_int_t)c->experts, "topk", (json_int_t)c->topk,
	    "seed", (json_int_t)c->seed, "timing", assay_timing_to_json(t));
	json_object_set_new(o, "reason", c->reason ? json_string(c->reason) : json_null());
	json_object_set_new(o, "shard", c->shard ? json_string(c->shard) : json_null());
	return o;
}

static void digests(struct assay_matrix *m)
{
	json_t *list = json_array(), *catalog = json_array();
	for (size_t i = 0; i < m->n; i++) {
		json_array_append_new(list, assay_case_to_json(&m->cases[i], &m->timing));
		json_array_append_new(catalog,
				      json_pack("[s,s]", m->cases[i].id,
						m->cases[i].runnable ? "runnable" : "unsupported"));
	}
	assay_json_sha256(list, m->matrix_sha256);
	assay_json_sha256(catalog, m->catalog_sha256);
	json_decref(list);
	json_decref(catalog);
}

static bool has_ll_ep(const struct assay_backend_eps *b, long long ep)
{
	for (size_t i = 0; i < b->n_ll; i++)
		if (b->ll_eps[i] == ep)
			return true;
	return false;
}

/* CollectiveX's rules (its sweep_matrix.py; docs/matrix.md): a backend's
 * precisions are those it realizes (off-path ones only when the precision
 * filter names them); low-latency only at the backend's ll EP sizes; an
 * unsupported cell is one case per phase, normal mode, its first supported
 * precision in sorted order, whatever the mode and precision filters. */
static assay_err expand_collectivex(const struct assay_registry *reg, const struct assay_sweep *sw,
				    const struct assay_filters *f, struct assay_matrix *m,
				    size_t *alloc, struct assay_error *e)
{
	for (size_t i = 0; i < reg->n; i++) {
		const struct assay_platform *p = &reg->v[i];
		if (!pass(&f->sku, p->sku))
			continue;
		for (size_t k = 0; k < sw->n_ep; k++) {
			long long ep = sw->ep_degrees[k];
			char epbuf[32];
			snprintf(epbuf, sizeof(epbuf), "%lld", ep);
			if (!pass(&f->ep, epbuf))
				continue;
			if (ep % p->gpus_per_node) {
				char gp[256], pp[256];
				assay_json_path_key(pp, sizeof(pp), "$.platforms", p->sku);
				assay_json_path_key(gp, sizeof(gp), pp, "gpus_per_node");
				return assay_error_at(e, ASSAY_USAGE, reg->file, gp, 0,
						      "EP %lld is not divisible by %lld GPUs per "
						      "node (CollectiveX runs whole nodes)",
						      ep, p->gpus_per_node);
			}
			for (size_t ph = 0; ph < sw->workload.n_ladders; ph++) {
				const char *phase = sw->workload.ladders[ph].phase;
				if (!pass(&f->phase, phase))
					continue;
				for (size_t j = 0; j < p->n_backends; j++) {
					const struct assay_backend_eps *b = &p->backends[j];
					if (!pass(&f->backend, b->name))
						continue;
					struct strlist sup = STRLIST_INIT;
					for (size_t pr = 0; pr < sw->precisions.n; pr++) {
						const char *x = sw->precisions.v[pr];
						if (strlist_has(&b->precisions, x) &&
						    (!strlist_has(&b->off_path, x) ||
						     strlist_has(&f->precision, x)))
							strlist_push(&sup, x);
					}
					if (!has_ep(b, ep)) {
						const char *first = NULL;
						for (size_t q = 0; q < sup.n; q++)
							if (!first || strcmp(sup.v[q], first) < 0)
								first = sup.v[q];
						if (first)
							add_case(m, alloc, p, b, sw, ep, "normal",
								 phase, first, true);
						strlist_clear(&sup);
						continue;
					}
					for (size_t mi = 0; mi < sw->n_modes; mi++) {
						const struct assay_mode *md = &sw->modes[mi];
						if (!strlist_has(&md->phases, phase) ||
						    !pass(&f->mode, md->name))
							continue;
						if (strcmp(md->name, "normal") && !has_ll_ep(b, ep))
							continue;
						for (size_t q = 0; q < sup.n; q++)
							if (pass(&f->precision, sup.v[q]))
								add_case(m, alloc, p, b, sw, ep,
									 md->name, phase, sup.v[q],
									 true);
					}
					strlist_clear(&sup);
				}
			}
		}
	}
	return ASSAY_OK;
}

/* The native rules: every platform x backend x EP x mode x phase x
 * precision that the filters keep. */
static void expand_native(const struct assay_registry *reg, const struct assay_sweep *sw,
			  const struct assay_filters *f, struct assay_matrix *m, size_t *alloc)
{
	for (size_t i = 0; i < reg->n && !reg->collectivex; i++) {
		const struct assay_platform *p = &reg->v[i];
		if (!pass(&f->sku, p->sku))
			continue;
		for (size_t j = 0; j < p->n_backends; j++) {
			const struct assay_backend_eps *b = &p->backends[j];
			if (!pass(&f->backend, b->name))
				continue;
			for (size_t k = 0; k < sw->n_ep; k++) {
				char epbuf[32];
				snprintf(epbuf, sizeof(epbuf), "%lld", sw->ep_degrees[k]);
				if (!pass(&f->ep, epbuf))
					continue;
				for (size_t mi = 0; mi < sw->n_modes; mi++) {
					const struct assay_mode *md = &sw->modes[mi];
					if (!pass(&f->mode, md->name))
						continue;
					if (!strcmp(md->name, "low-latency") &&
					    !strlist_has(&p->ll_backends, b->name))
						continue;
					for (size_t ph = 0; ph < md->phases.n; ph++) {
						if (!pass(&f->phase, md->phases.v[ph]))
							continue;
						for (size_t pr = 0; pr < sw->precisions.n; pr++) {
							if (!pass(&f->precision,
								  sw->precisions.v[pr]))
								continue;
							add_case(m, alloc, p, b, sw,
								 sw->ep_degrees[k], md->name,
								 md->phases.v[ph],
								 sw->precisions.v[pr], false);
						}
					}
				}
			}
		}
	}
}

assay_err assay_matrix_build(const struct assay_registry *reg, const struct assay_sweep *sw,
			     const struct assay_filters *f, struct assay_matrix *m,
			     struct assay_error *e)
{
	memset(m, 0, sizeof(*m));
	if (check_filters(reg, sw, f, e) != ASSAY_OK)
		return ASSAY_USAGE;
	size_t alloc = 0;
	/* The routing factor: the same cases once per routing (a sweep parsed
	 * elsewhere may have only sw->routing). */
	size_t nr = sw->routings.n ? sw->routings.n : 1;
	for (size_t r = 0; r < nr; r++) {
		struct assay_sweep one = *sw;
		one.routing = sw->routings.n ? sw->routings.v[r] : sw->routing;
		if (reg->collectivex &&
		    expand_collectivex(reg, &one, f, m, &alloc, e) != ASSAY_OK) {
			assay_matrix_release(m);
			return ASSAY_USAGE;
		}
		if (!reg->collectivex)
			expand_native(reg, &one, f, m, &alloc);
	}
	if (m->n)
		qsort(m->cases, m->n, sizeof(*m->cases), cmp_case);
	for (size_t i = 1; i < m->n; i++)
		if (!strcmp(m->cases[i - 1].id, m->cases[i].id)) {
			assay_error_set(
			    e, ASSAY_USAGE,
			    "two cases share the id \"%s\" (ids are lower-cased with other "
			    "characters replaced by '-'; rename a SKU, workload or phase)",
			    m->cases[i].id);
			assay_matrix_release(m);
			return ASSAY_USAGE;
		}
	for (size_t i = 0; i < m->n; i++) {
		if (m->cases[i].runnable) {
			m->runnable++;
			m->ladder_points += m->cases[i].n_tokens;
		} else {
			m->unsupported++;
		}
	}
	build_shards(m);
	m->timing = sw->timing;
	m->suite = xstrdup(sw->suite);
	m->platforms_file = xstrdup(reg->file ? reg->file : "");
	m->sweep_file = xstrdup(sw->file ? sw->file : "");
	memcpy(m->platforms_sha256, reg->sha256, 65);
	memcpy(m->sweep_sha256, sw->sha256, 65);
	digests(m);
	return ASSAY_OK;
}

void assay_matrix_release(struct assay_matrix *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct assay_case *c = &m->cases[i];
		free(c->id);
		free(c->sku);
		free(c->backend);
		free(c->workload);
		free(c->mode);
		free(c->phase);
		free(c->routing);
		free(c->precision);
		free(c->shard);
		free(c->tokens);
		free(c->transport);
	}
	free(m->cases);
	for (size_t i = 0; i < m->n_shards; i++) {
		struct assay_shard *s = &m->shards[i];
		free(s->id);
		free(s->sku);
		free(s->backend);
		free(s->mode);
		free(s->precision);
		strlist_clear(&s->cases);
	}
	free(m->shards);
	free(m->suite);
	free(m->platforms_file);
	free(m->sweep_file);
	memset(m, 0, sizeof(*m));
}

const struct assay_shard *assay_matrix_shard(const struct assay_matrix *m, const char *id)
{
	for (size_t i = 0; i < m->n_shards; i++)
		if (!strcmp(m->shards[i].id, id))
			return &m->shards[i];
	return NULL;
}

const struct assay_case *assay_matrix_case(const struct assay_matrix *m, const char *id)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->cases[i].id, id))
			return &m->cases[i];
	return NULL;
}

json_t *assay_matrix_to_json(const struct assay_matrix *m, const char *only_shard)
{
	json_t *cases = json_array(), *shards = json_array();
	for (size_t i = 0; i < m->n; i++) {
		const struct assay_case *c = &m->cases[i];
		if (only_shard && (!c->shard || strcmp(c->shard, only_shard)))
			continue;
		json_array_append_new(cases, assay_case_to_json(c, &m->timing));
	}
	for (size_t i = 0; i < m->n_shards; i++) {
		const struct assay_shard *s = &m->shards[i];
		if (only_shard && strcmp(s->id, only_shard))
			continue;
		json_t *ids = json_array();
		for (size_t j = 0; j < s->cases.n; j++)
			json_array_append_new(ids, json_string(s->cases.v[j]));
		json_array_append_new(
		    shards, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:o}", "id", s->id, "sku",
				      s->sku, "backend", s->backend, "mode", s->mode, "precision",
				      s->precision, "nodes", (json_int_t)s->nodes, "cases", ids));
	}
	return json_pack(
	    "{s:s, s:s, s:{s:{s:s, s:s}, s:{s:s, s:s}}, s:o,"
	    " s:{s:I, s:I, s:I, s:I, s:I}, s:s, s:s, s:o, s:o}",
	    "schema", "assay.matrix/1", "suite", m->suite, "inputs", "platforms", "file",
	    m->platforms_file, "sha256", m->platforms_sha256, "sweep", "file", m->sweep_file,
	    "sha256", m->sweep_sha256, "timing", assay_timing_to_json(&m->timing), "counts",
	    "requested", (json_int_t)m->n, "runnable", (json_int_t)m->runnable, "unsupported",
	    (json_int_t)m->unsupported, "shards", (json_int_t)m->n_shards, "ladder_points",
	    (json_int_t)m->ladder_points, "matrix_sha256", m->matrix_sha256, "catalog_sha256",
	    m->catalog_sha256, "shards", shards, "cases", cases);
}
