/* assay serve (docs/serve.md): the history of a store over HTTP. Everything
 * but the HTTP transport lives here as plain functions of one request, so
 * that tests and the fuzz target drive it without a socket: the request
 * target parsed into a route and its filters, bearer tokens checked in
 * constant time, and the pages (drawn by the report's renderer) and JSON
 * documents (those the CLI prints with --format json). The transport
 * (libmicrohttpd) is src/assay/cmd_serve.c. */
#ifndef ASSAY_SERVE_H
#define ASSAY_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/store.h"
#include "assay/util.h"

/* Limits a request must stay within (the transport enforces the ones it
 * sees first: connections, time, header bytes). */
#define ASSAY_SERVE_MAX_TARGET  4096  /* bytes of the request target */
#define ASSAY_SERVE_MAX_BODY    16384 /* bytes of a POST body */
#define ASSAY_SERVE_MAX_HEADERS 64    /* header fields of a request */
#define ASSAY_SERVE_MAX_MATCH   16    /* match= filters */
#define ASSAY_SERVE_PAGE_SIZE   100   /* series per overview page (per= up to 500) */

enum assay_serve_page {
	ASSAY_SERVE_OVERVIEW,     /* GET / */
	ASSAY_SERVE_SERIES,       /* GET /series/KEY */
	ASSAY_SERVE_API_SERIES,   /* GET /api/v1/series: assay store series --format json */
	ASSAY_SERVE_API_HISTORY,  /* GET /api/v1/series/KEY: assay history --format json */
	ASSAY_SERVE_API_STATE,    /* GET /api/v1/state: the store's generation, for polling */
	ASSAY_SERVE_API_ANNOTATE, /* POST /api/v1/annotations */
	ASSAY_SERVE_PUBLICATIONS, /* GET /publications: each bundle and its verification */
	ASSAY_SERVE_RUN,          /* GET /run/RUN_ID/: the run's report page */
	ASSAY_SERVE_RUN_FILE,     /* GET /run/RUN_ID/PATH: a file or folder of its output folder */
	ASSAY_SERVE_ASSET_CSS,    /* GET /assets/report.css */
	ASSAY_SERVE_ASSET_JS,     /* GET /assets/report.js */
	ASSAY_SERVE_ASSET_SERVE,  /* GET /assets/serve.js */
};

/* A parsed request target: the page, the series key of the path, and the
 * query's filters (match=FIELD=VALUE repeated, since, until, last) and the
 * overview's sort and paging. */
struct assay_serve_route {
	enum assay_serve_page page;
	char key[65];
	char run[65];  /* ASSAY_SERVE_RUN, _RUN_FILE: the run id */
	char *file;    /* ASSAY_SERVE_RUN_FILE: the path in the run folder, decoded,
			* every segment checked (no "", ".", "..", '/', control) */
	bool redirect; /* /run/RUN_ID without its slash: answered 308 to /run/RUN_ID/ */
	struct strlist match;
	char *since, *until;
	long long last;
	long long page_no, per; /* page_no from 1 */
	const char *sort;       /* "key", "label", "count", "last" (a static string) */
};
void assay_serve_route_release(struct assay_serve_route *r);

/* Parse method and target (path and query, percent-encoded as sent) into
 * r (zeroed first). Returns the HTTP status: 200 when it names a page; 400
 * for a malformed target (bad percent-encoding, an encoded '/', a NUL or a
 * control character, "." or ".." segments, an unknown or bad parameter),
 * 404 for an unknown path, 405 for a method the path does not take, 414
 * for a target over ASSAY_SERVE_MAX_TARGET. e says why (not for 200). */
int assay_serve_route_parse(const char *method, const char *target, struct assay_serve_route *r,
			    struct assay_error *e);

/* Bearer tokens: each has a name (recorded as who made an annotation), a
 * secret and a scope. */
struct assay_serve_token {
	char *name, *secret;
	bool write; /* false: read-only (a write with it is refused, 403) */
};
struct assay_serve_tokens {
	struct assay_serve_token *v;
	size_t n;
};
/* Parse "NAME:SCOPE:SECRET" entries (SCOPE read or write) separated by
 * spaces, commas or newlines. ASSAY_USAGE naming the entry (never its
 * secret) when one is malformed or a name repeats. */
assay_err assay_serve_tokens_parse(const char *spec, struct assay_serve_tokens *out,
				   struct assay_error *e);
void assay_serve_tokens_release(struct assay_serve_tokens *t);
/* Whether a and b are equal, in time that depends only on their lengths. */
bool assay_serve_secret_equal(const char *a, size_t alen, const char *b, size_t blen);
/* The token an Authorization header value ("Bearer SECRET") names, or NULL.
 * Every token is compared, each in constant time. */
const struct assay_serve_token *assay_serve_token_find(const struct assay_serve_tokens *t,
						       const char *authorization);

/* The server's state: its store (one connection, used by one thread), the
 * tokens, and a small cache of rendered pages of the current generation. */
struct assay_serve_cache;
struct assay_serve {
	struct assay_store *store;
	struct assay_serve_tokens tokens;
	const char *store_name; /* shown in the pages' header (no password) */
	const char *store_path; /* as given (the run pages open it read-only) */
	const char
	    *publications; /* a folder of publication folders (assay publish --out), or NULL */
	struct assay_serve_cache *cache;
};
void assay_serve_release(struct assay_serve *srv);

struct assay_serve_request {
	const char *method, *target;
	const char *authorization; /* the header's value, or NULL */
	const char *if_none_match; /* or NULL */
	const char *body;          /* POST body (not NUL-terminated), body_len bytes */
	size_t body_len;
	size_t nheaders; /* header fields the request had */
	bool body_too_large;
};
struct assay_serve_response {
	int status;
	const char *content_type;
	struct sbuf body;
	char etag[100];        /* "" when none */
	const char *allow;     /* for 405 */
	bool www_authenticate; /* for 401 */
	bool cacheable;        /* static assets */
	char location[100];    /* for 308 */
	int fd;                /* >= 0: the body is this open file's fd_size bytes (the
				* transport sends and closes it; body is empty) */
	unsigned long long fd_size;
};
void assay_serve_response_release(struct assay_serve_response *rs);

/* Answer one request into rs (zeroed by the caller; rs->fd is set to -1
 * here). Errors become status codes with a short text body (4xx the
 * request's fault; 500 the store failed). Never prints. */
void assay_serve_handle(struct assay_serve *srv, const struct assay_serve_request *rq,
			struct assay_serve_response *rs);

/* Headers every response carries: name, value pairs, ending with NULL. */
extern const char *const assay_serve_headers[];

#endif
