/* Helpers shared by the report unit tests (test_svg, test_html, test_junit,
 * test_markdown): counting substrings, temporary files, xmllint. */
#ifndef ASSAY_TEST_REPORT_CHECK_H
#define ASSAY_TEST_REPORT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/report.h"
#include "sample.h"
#include "assay/util.h"

static inline size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);
	for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle))
		n++;
	return n;
}

/* The text one writer makes of r; caller frees. */
static inline char *written(void (*writer)(const struct assay_report *, struct sbuf *),
			    const struct assay_report *r)
{
	struct sbuf sb = SBUF_INIT;
	writer(r, &sb);
	return sbuf_detach(&sb, NULL);
}

/* Write text to a new temporary file; caller frees the path and unlinks. */
static inline char *temp_file(const char *text, const char *suffix)
{
	char *path = xasprintf("/tmp/assay-test-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	if (fd < 0)
		abort();
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
	return path;
}

static inline bool have_xmllint(void)
{
	return system("command -v xmllint >/dev/null 2>&1") == 0;
}

/* xmllint's exit status for the document (0: well-formed, and valid when
 * schema, relative to the source tree, is given); its messages are printed
 * only when it fails. */
static inline int xmllint(const char *text, const char *schema)
{
	char *path = temp_file(text, ".xml");
	char *cmd = schema ? xasprintf("xmllint --noout --schema '%s/%s' '%s' 2>&1",
				       ASSAY_SOURCE_DIR, schema, path)
			   : xasprintf("xmllint --noout '%s' 2>&1", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		abort();
	struct sbuf msg = SBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		sbuf_add(&msg, buf, n);
	int rc = pclose(p);
	if (rc)
		fprintf(stderr, "%s", sbuf_str(&msg));
	sbuf_release(&msg);
	unlink(path);
	free(path);
	free(cmd);
	return rc;
}

#endif

/* Canary secrets: a plain token and one that changes under escaping. */
#define CANARY     "c4n4ryT0ken9"
#define CANARY_ODD "p&<w>|d_\"1'"

/* The sample model with the canaries planted in every kind of text field. */
static inline void canary_model(struct assay_report *r, size_t ncases)
{
	assay_report_init(r);
	assay_report_sample(r, ncases);
	assay_redactor_add(&r->secrets, "CANARY", CANARY);
	assay_redactor_add(&r->secrets, "CANARY_ODD", CANARY_ODD);
	assay_report_set(&r->host, "node-" CANARY);
	assay_report_set(&r->launcher, "mpirun " CANARY_ODD);
	struct assay_report_case *c = &r->cases[0];
	assay_report_set(&c->reason, "line one " CANARY "\nline two " CANARY_ODD);
	c->outcome = ASSAY_REPORT_WORKLOAD_FAILED;
	assay_report_case_factor(c, "token", CANARY);
	assay_report_case_link(c, "env", "cases/" CANARY "/env.txt");
	c = &r->cases[1];
	assay_report_set(&c->reason, CANARY_ODD);
	c->outcome = ASSAY_REPORT_NO_METRICS;
	struct assay_report_gate *g =
	    assay_report_add_gate(r, r->cases[2].id, "threshold", ASSAY_VERDICT_FAIL);
	assay_report_set(&g->metric, "m " CANARY);
	assay_report_set(&g->message, "msg " CANARY_ODD);
	assay_report_set(&g->spec, "<= " CANARY);
	if (r->nhistory) {
		assay_report_set(&r->history[0].label, "series " CANARY);
		assay_report_set(&r->history[0].message, CANARY_ODD);
		r->history[0].verdict = ASSAY_VERDICT_FAIL;
		assay_report_set(&r->history[0].points[0].revision, CANARY);
	}
	if (r->ntrain)
		assay_report_set(&r->train[0].label, "combo " CANARY_ODD);
	if (r->nep)
		assay_report_set(&r->ep[0].group, "group " CANARY);
}

/* No form of either canary survives in out. */
static inline bool canaries_gone(const char *out)
{
	static const char *const forms[] = {
	    CANARY,
	    CANARY_ODD,
	    "p&amp;&lt;w&gt;|d_&quot;1&#39;", /* XML-escaped */
	    "p&amp;&lt;w&gt;\\|d\\_\"1'",     /* Markdown cell */
	    "c4n4ry",                         /* any piece of the token */
	    "&lt;w&gt;",
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (strstr(out, forms[i])) {
			fprintf(stderr, "canary form survived: %s\n", forms[i]);
			return false;
		}
	return true;
}
