/* Shared by the files of assay serve's request handling (src/lib/serve/):
 * the page frame and the pieces of the pages. Not a public header. */
#ifndef ASSAY_SERVE_INT_H
#define ASSAY_SERVE_INT_H

#include <jansson.h>

#include "assay/detect.h"
#include "assay/serve.h"

/* pages.c */
void serve_page_open(struct sbuf *o, const char *title, const char *generation,
		     const char *store_name);
void serve_page_close(struct sbuf *o);
void serve_series_label(const json_t *fields, struct sbuf *o);
assay_err serve_overview_row(struct assay_serve *srv, struct assay_series_info *si, struct sbuf *o,
			     struct assay_error *e);
void serve_series_page(struct assay_serve *srv, struct assay_series_info *si,
		       const struct assay_history *h, const char *generation, struct sbuf *o);

/* overview.c */
assay_err serve_overview(struct assay_serve *srv, const struct assay_serve_route *r,
			 const char *generation, struct sbuf *o, struct assay_error *e);

/* handle.c: a JSON answer (doc's reference taken), {"error": msg}. */
void serve_json_answer(struct assay_serve_response *rs, int status, json_t *doc, int flags);
void serve_json_error(struct assay_serve_response *rs, int status, const char *msg);

/* annotate.c: POST /api/v1/annotations. */
void serve_annotate(struct assay_serve *srv, const struct assay_serve_request *rq,
		    struct assay_serve_response *rs);

/* handle.c: a plain-text answer. */
void serve_text(struct assay_serve_response *rs, int status, const char *msg);
/* pages.c: a path percent-encoded for an href (unreserved characters and
 * '/' as they are); strcmp for qsort of char *. */
void serve_href(struct sbuf *o, const char *path);
int serve_cmp_str(const void *a, const void *b);

/* run.c: GET /run/RUN_ID/ and the files of its output folder. */
assay_err serve_run_page(struct assay_serve *srv, const struct assay_serve_route *r, struct sbuf *o,
			 struct assay_error *e);
void serve_run_file(struct assay_serve *srv, const struct assay_serve_route *r,
		    struct assay_serve_response *rs);

/* publications.c: GET /publications (verified on every request). */
void serve_publications(struct assay_serve *srv, struct assay_serve_response *rs);

/* assets.c: the overview's and series page's script (polling, the ack form). */
extern const char serve_script[];

#endif
