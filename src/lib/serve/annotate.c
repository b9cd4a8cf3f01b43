/* POST /api/v1/annotations: an ack, expected or ignore from the browser.
 * 401 without a known token, 403 with a read-only one (or on a server
 * without write tokens); the annotation records who (the token's name, in
 * its note: "by NAME: note") and when (its created time). */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "serve/serve_int.h"

/* The body's fields into the out pointers (borrowed from doc); 0 or a
 * message. */
static const char *body_fields(json_t *doc, const char **series, const char **revision,
			       const char **kind, const char **note)
{
	if (!json_is_object(doc))
		return "expected a JSON object {series, revision, kind, note}";
	const char *k;
	json_t *v;
	json_object_foreach(doc, k, v)
	{
		const char **slot = !strcmp(k, "series")     ? series
				    : !strcmp(k, "revision") ? revision
				    : !strcmp(k, "kind")     ? kind
				    : !strcmp(k, "note")     ? note
							     : NULL;
		if (!slot)
			return "unknown member (expected series, revision, kind, note)";
		if (!json_is_string(v))
			return "every member must be a string";
		*slot = json_string_value(v);
	}
	if (!*series || !*revision || !*kind)
		return "series, revision and kind are required";
	if (assay_annotation_kind_parse(*kind) < 0)
		return "kind must be ack, expected or ignore";
	if (strlen(*revision) > 200 || (*note && strlen(*note) > 1000))
		return "revision (200 bytes) or note (1000 bytes) too long";
	return NULL;
}

/* The token's scope: 200, or 401/403 with the answer written. */
static int authorize(struct assay_serve *srv, const struct assay_serve_request *rq,
		     struct assay_serve_response *rs, const struct assay_serve_token **who)
{
	bool any_write = false;
	for (size_t i = 0; i < srv->tokens.n; i++)
		any_write |= srv->tokens.v[i].write;
	if (!any_write) {
		serve_json_error(rs, 403, "this server is read-only (no write token)");
		return 403;
	}
	*who = assay_serve_token_find(&srv->tokens, rq->authorization);
	if (!*who) {
		rs->www_authenticate = true;
		serve_json_error(rs, 401, "a bearer token is required");
		return 401;
	}
	if (!(*who)->write) {
		serve_json_error(rs, 403, "this token is read-only");
		return 403;
	}
	return 200;
}

static void annotate(struct assay_serve *srv, const struct assay_serve_token *who,
		     const char *series, const char *revision, const char *kind, const char *note,
		     struct assay_serve_response *rs)
{
	struct assay_error e = {0};
	char key[65];
	bool has = false;
	if (assay_store_resolve_series(srv->store, series, key, &e) != ASSAY_OK)
		return serve_json_error(rs, e.code == ASSAY_USAGE ? 404 : 500,
					e.code == ASSAY_USAGE ? "no such series"
							      : "the store failed");
	if (assay_store_series_has_revision(srv->store, key, revision, &has, &e) != ASSAY_OK)
		return serve_json_error(rs, 500, "the store failed");
	if (!has)
		return serve_json_error(rs, 400, "the series has no point at that revision");
	char *text =
	    note && *note ? xasprintf("by %s: %s", who->name, note) : xasprintf("by %s", who->name);
	enum assay_annotation_kind k =
	    (enum assay_annotation_kind)assay_annotation_kind_parse(kind);
	if (assay_store_annotate(srv->store, key, revision, k, text, &e) != ASSAY_OK)
		serve_json_error(rs, e.code == ASSAY_USAGE ? 400 : 500,
				 e.code == ASSAY_USAGE ? "the annotation was refused"
						       : "the store failed");
	else
		serve_json_answer(rs, 201,
				  json_pack("{s:s, s:s, s:s, s:s, s:s}", "series_key", key,
					    "revision", revision, "kind", kind, "note", text, "by",
					    who->name),
				  ASSAY_JSON_SORT);
	free(text);
}

void serve_annotate(struct assay_serve *srv, const struct assay_serve_request *rq,
		    struct assay_serve_response *rs)
{
	const struct assay_serve_token *who = NULL;
	if (authorize(srv, rq, rs, &who) != 200)
		return;
	json_error_t je;
	json_t *doc =
	    json_loadb(rq->body ? rq->body : "", rq->body_len, JSON_REJECT_DUPLICATES, &je);
	const char *series = NULL, *revision = NULL, *kind = NULL, *note = NULL;
	const char *why =
	    doc ? body_fields(doc, &series, &revision, &kind, &note) : "the body is not JSON";
	if (why)
		serve_json_error(rs, 400, why);
	else
		annotate(srv, who, series, revision, kind, note, rs);
	json_decref(doc);
}
