/* assay serve's publications page: every folder in --publications DIR
 * verified as `assay publish --verify` does (digests, sizes, schemas) each
 * time the page is asked for, with what its manifest says. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/publish.h"
#include "assay/report.h"
#include "serve/serve_int.h"

static void esc(struct sbuf *o, const char *s)
{
	assay_report_escape(o, s ? s : "");
}

static void bundle_row(const char *dir, const char *name, struct sbuf *o)
{
	struct assay_publish_result res = {0};
	struct assay_error e = {0};
	char *path = xasprintf("%s/%s", dir, name);
	assay_err rc = assay_publish_verify(path, &res, &e);
	sbuf_adds(o, "<tr><td>");
	esc(o, name);
	sbuf_addf(o, "</td><td><span class=\"b v-%s\">%s</span></td>",
		  rc == ASSAY_OK ? "PASS" : "FAIL", rc == ASSAY_OK ? "verified" : "FAILED");
	sbuf_addf(o, "<td class=\"num\">%zu</td><td>", res.series);
	for (size_t i = 0; i < res.run_ids.n; i++) {
		esc(o, res.run_ids.v[i]);
		sbuf_adds(o, i + 1 < res.run_ids.n ? ", " : "");
	}
	sbuf_addf(o, "</td><td><code title=\"%s\">%.12s</code></td><td>", res.manifest_sha256,
		  res.manifest_sha256);
	if (rc != ASSAY_OK && !res.problems.n)
		esc(o, e.message);
	for (size_t i = 0; i < res.problems.n; i++) {
		esc(o, res.problems.v[i]);
		sbuf_adds(o, i + 1 < res.problems.n ? "<br>" : "");
	}
	sbuf_adds(o, "</td></tr>");
	free(path);
	assay_publish_result_release(&res);
}

void serve_publications(struct assay_serve *srv, struct assay_serve_response *rs)
{
	struct sbuf *o = &rs->body;
	rs->status = 200;
	rs->content_type = "text/html; charset=utf-8";
	serve_page_open(o, "Publications", "", srv->store_name);
	sbuf_adds(o, "<section id=\"publications\"><h2>Publications</h2>");
	DIR *d = srv->publications ? opendir(srv->publications) : NULL;
	if (!d) {
		sbuf_adds(o, srv->publications
				 ? "<p class=\"note\">The publications folder cannot be read.</p>"
				 : "<p class=\"note\">The server was started without "
				   "<code>--publications DIR</code>.</p>");
		sbuf_adds(o, "</section>");
		return serve_page_close(o);
	}
	struct strlist names = {0};
	for (struct dirent *de; (de = readdir(d));)
		if (de->d_name[0] != '.')
			strlist_push(&names, de->d_name);
	closedir(d);
	qsort(names.v, names.n, sizeof(*names.v), serve_cmp_str);
	sbuf_adds(o, "<div class=\"scroll\"><table class=\"sortable\" id=\"publication-table\">"
		     "<thead><tr><th>Folder</th><th>State</th><th class=\"num\">Series</th>"
		     "<th>Runs</th><th>Manifest</th><th>Problems</th></tr></thead><tbody>");
	for (size_t i = 0; i < names.n; i++)
		bundle_row(srv->publications, names.v[i], o);
	sbuf_adds(o, "</tbody></table></div></section>");
	serve_page_close(o);
	strlist_clear(&names);
}
