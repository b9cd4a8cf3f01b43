/* assay serve's answer to one request: limits, the route, the ETag of the
 * store's generation (304 when the client has it), a small cache of what
 * this generation rendered, then the page, the JSON document or the
 * annotation. */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/report.h"
#include "serve/serve_int.h"

#define CACHE_SLOTS 16

const char *const assay_serve_headers[] = {
    "Content-Security-Policy",
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options",
    "nosniff",
    "Referrer-Policy",
    "no-referrer",
    "X-Frame-Options",
    "DENY",
    "Cache-Control",
    "no-cache",
    NULL,
};

struct cache_slot {
	char *target, *body, *type;
	size_t len;
};
struct assay_serve_cache {
	char generation[96];
	struct cache_slot v[CACHE_SLOTS];
	size_t next;
};

static void cache_clear(struct assay_serve_cache *c)
{
	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		free(c->v[i].target);
		free(c->v[i].body);
		c->v[i] = (struct cache_slot){0};
	}
}

void assay_serve_release(struct assay_serve *srv)
{
	if (srv->cache)
		cache_clear(srv->cache);
	free(srv->cache);
	srv->cache = NULL;
	assay_serve_tokens_release(&srv->tokens);
}

void assay_serve_response_release(struct assay_serve_response *rs)
{
	sbuf_release(&rs->body);
}

void serve_text(struct assay_serve_response *rs, int status, const char *msg)
{
	rs->status = status;
	rs->content_type = "text/plain; charset=utf-8";
	sbuf_reset(&rs->body);
	sbuf_addf(&rs->body, "%d: %s\n", status, msg);
}

void serve_json_answer(struct assay_serve_response *rs, int status, json_t *doc, int flags)
{
	char *t = assay_json_dumps(doc, flags);
	json_decref(doc);
	rs->status = status;
	rs->content_type = "application/json";
	sbuf_reset(&rs->body);
	sbuf_adds(&rs->body, t);
	sbuf_addch(&rs->body, '\n');
	free(t);
}

void serve_json_error(struct assay_serve_response *rs, int status, const char *msg)
{
	serve_json_answer(rs, status, json_pack("{s:s}", "error", msg), ASSAY_JSON_SORT);
}

/* The series of the route's key (a full key or unique prefix), with its
 * fields: 404 when unknown. */
static int series_get(struct assay_serve *srv, const char *key, struct assay_series_list *l,
		      struct assay_error *e)
{
	char full[65];
	if (assay_store_resolve_series(srv->store, key, full, e) != ASSAY_OK)
		return e->code == ASSAY_USAGE ? 404 : 500;
	struct assay_series_filter f = {0};
	strlist_push(&f.keys, full);
	assay_err rc = assay_store_series(srv->store, &f, l, e);
	assay_series_filter_release(&f);
	if (rc != ASSAY_OK)
		return rc == ASSAY_USAGE ? 400 : 500;
	return l->n == 1 ? 200 : 404;
}

static int get_history(struct assay_serve *srv, const struct assay_serve_route *r,
		       const char *generation, struct assay_serve_response *rs,
		       struct assay_error *e)
{
	struct assay_series_list l = {0};
	struct assay_history h = {0};
	int st = series_get(srv, r->key, &l, e);
	struct assay_series_filter range = {.since = r->since, .until = r->until, .last = r->last};
	if (st == 200 && assay_history_load(srv->store, l.v[0].key, &range, true, &h, e))
		st = e->code == ASSAY_USAGE ? 400 : 500;
	if (st == 200 && r->page == ASSAY_SERVE_API_HISTORY) {
		serve_json_answer(rs, 200, assay_history_json(&h, &l.v[0]), ASSAY_JSON_PRETTY);
	} else if (st == 200) {
		rs->status = 200;
		rs->content_type = "text/html; charset=utf-8";
		serve_series_page(srv, &l.v[0], &h, generation, &rs->body);
	}
	assay_history_release(&h);
	assay_series_list_release(&l);
	return st;
}

static int get_series(struct assay_serve *srv, const struct assay_serve_route *r,
		      struct assay_serve_response *rs, struct assay_error *e)
{
	struct assay_series_filter f = {
	    .match = r->match, .since = r->since, .until = r->until, .last = r->last};
	struct assay_series_list l = {0};
	assay_err rc = assay_store_series(srv->store, &f, &l, e);
	if (rc == ASSAY_OK)
		serve_json_answer(rs, 200, assay_series_list_json(&l),
				  ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
	assay_series_list_release(&l);
	return rc == ASSAY_OK ? 200 : rc == ASSAY_USAGE ? 400 : 500;
}

/* Render a GET page of this generation; the status. */
static int render(struct assay_serve *srv, const struct assay_serve_route *r,
		  const char *generation, struct assay_serve_response *rs, struct assay_error *e)
{
	switch (r->page) {
	case ASSAY_SERVE_OVERVIEW:
		rs->status = 200;
		rs->content_type = "text/html; charset=utf-8";
		if (serve_overview(srv, r, generation, &rs->body, e) != ASSAY_OK)
			return e->code == ASSAY_USAGE ? 400 : 500;
		return 200;
	case ASSAY_SERVE_SERIES:
	case ASSAY_SERVE_API_HISTORY: return get_history(srv, r, generation, rs, e);
	case ASSAY_SERVE_API_SERIES: return get_series(srv, r, rs, e);
	case ASSAY_SERVE_RUN:
		rs->status = 200;
		rs->content_type = "text/html; charset=utf-8";
		if (serve_run_page(srv, r, &rs->body, e) != ASSAY_OK)
			return e->code == ASSAY_USAGE ? 404 : 500;
		return 200;
	case ASSAY_SERVE_API_STATE:
		serve_json_answer(rs, 200, json_pack("{s:s}", "generation", generation),
				  ASSAY_JSON_SORT);
		return 200;
	default: return 404;
	}
}

static bool cache_get(struct assay_serve_cache *c, const char *target,
		      struct assay_serve_response *rs)
{
	for (size_t i = 0; i < CACHE_SLOTS; i++)
		if (c->v[i].target && !strcmp(c->v[i].target, target)) {
			rs->status = 200;
			rs->content_type = c->v[i].type;
			sbuf_add(&rs->body, c->v[i].body, c->v[i].len);
			return true;
		}
	return false;
}

static void cache_put(struct assay_serve_cache *c, const char *target,
		      const struct assay_serve_response *rs)
{
	struct cache_slot *s = &c->v[c->next++ % CACHE_SLOTS];
	free(s->target);
	free(s->body);
	s->target = xstrdup(target);
	s->body = xmalloc(rs->body.len + 1);
	memcpy(s->body, rs->body.buf ? rs->body.buf : "", rs->body.len);
	s->len = rs->body.len;
	s->type = (char *)rs->content_type;
}

/* A GET of a page or document: its ETag, 304, the cache, or render it. */
static void get(struct assay_serve *srv, const struct assay_serve_request *rq,
		const struct assay_serve_route *r, struct assay_serve_response *rs)
{
	struct assay_error e = {0};
	char gen[96];
	if (assay_store_generation(srv->store, gen, &e) != ASSAY_OK)
		return serve_text(rs, 500, "the store failed");
	if (!srv->cache)
		srv->cache = xcalloc(1, sizeof(*srv->cache));
	if (strcmp(srv->cache->generation, gen)) {
		cache_clear(srv->cache);
		snprintf(srv->cache->generation, sizeof(srv->cache->generation), "%s", gen);
	}
	snprintf(rs->etag, sizeof(rs->etag), "\"%s\"", gen);
	if (rq->if_none_match && !strcmp(rq->if_none_match, rs->etag)) {
		rs->status = 304;
		return;
	}
	if (cache_get(srv->cache, rq->target, rs))
		return;
	int st = render(srv, r, gen, rs, &e);
	if (st != 200) {
		rs->etag[0] = '\0';
		bool api = r->page != ASSAY_SERVE_OVERVIEW && r->page != ASSAY_SERVE_SERIES &&
			   r->page != ASSAY_SERVE_RUN;
		const char *msg = st == 404 ? "no such series"
				  : st == 500
				      ? "the store failed"
				      : "bad filter (match=FIELD=VALUE, since, until, last)";
		return api ? serve_json_error(rs, st, msg) : serve_text(rs, st, msg);
	}
	cache_put(srv->cache, rq->target, rs);
}

static void asset(const struct assay_serve_route *r, struct assay_serve_response *rs)
{
	rs->status = 200;
	rs->cacheable = true;
	rs->content_type = r->page == ASSAY_SERVE_ASSET_CSS ? "text/css; charset=utf-8"
							    : "text/javascript; charset=utf-8";
	sbuf_adds(&rs->body, r->page == ASSAY_SERVE_ASSET_CSS  ? assay_report_style()
			     : r->page == ASSAY_SERVE_ASSET_JS ? assay_report_script()
							       : serve_script);
}

void assay_serve_handle(struct assay_serve *srv, const struct assay_serve_request *rq,
			struct assay_serve_response *rs)
{
	struct assay_serve_route r;
	struct assay_error e = {0};
	rs->status = 500;
	rs->content_type = "text/plain; charset=utf-8";
	rs->fd = -1;
	if (rq->nheaders > ASSAY_SERVE_MAX_HEADERS)
		return serve_text(rs, 431, "too many header fields");
	if (rq->body_too_large)
		return serve_text(rs, 413, "the request body is too large");
	int st = assay_serve_route_parse(rq->method, rq->target, &r, &e);
	if (st == 405)
		rs->allow = r.page == ASSAY_SERVE_API_ANNOTATE ? "POST" : "GET, HEAD";
	if (st != 200)
		serve_text(rs, st, e.message);
	else if (r.redirect) {
		rs->status = 308;
		snprintf(rs->location, sizeof(rs->location), "/run/%s/", r.run);
	} else if (r.page == ASSAY_SERVE_RUN_FILE)
		serve_run_file(srv, &r, rs);
	else if (r.page == ASSAY_SERVE_PUBLICATIONS)
		serve_publications(srv, rs);
	else if (r.page >= ASSAY_SERVE_ASSET_CSS)
		asset(&r, rs);
	else if (r.page == ASSAY_SERVE_API_ANNOTATE)
		serve_annotate(srv, rq, rs);
	else
		get(srv, rq, &r, rs);
	assay_serve_route_release(&r);
}
