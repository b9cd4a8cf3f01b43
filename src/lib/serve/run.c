/* assay serve's run pages: the run's report (the static report's renderer,
 * its assets linked), and the files of its output folder. A file is opened
 * segment by segment below the folder with O_NOFOLLOW, so no symlink, ".."
 * or absolute path leads out of it; files go out as text/plain. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/report.h"
#include "serve/serve_int.h"

assay_err serve_run_page(struct assay_serve *srv, const struct assay_serve_route *r, struct sbuf *o,
			 struct assay_error *e)
{
	if (!srv->store_path)
		return assay_error_set(e, ASSAY_USAGE, "no store path for run pages");
	struct assay_report rep;
	struct assay_report_found found;
	struct assay_report_source src = {.store = srv->store_path, .run = r->run};
	assay_report_init(&rep);
	assay_err rc = assay_report_load(&src, &rep, &found, e);
	if (rc == ASSAY_USAGE && !strstr(e->message, "no run") && !strstr(e->message, "unknown")) {
		/* No output folder here: the report from the store alone. */
		assay_report_found_release(&found);
		assay_report_release(&rep);
		assay_report_init(&rep);
		src.out_dir = ".";
		rc = assay_report_load(&src, &rep, &found, e);
	}
	if (rc == ASSAY_OK)
		assay_report_html_served(&rep, o);
	assay_report_found_release(&found);
	assay_report_release(&rep);
	return rc;
}

/* The run's output folder: where the store says its cases ran. */
static char *run_dir(struct assay_serve *srv, const char *run, struct assay_error *e)
{
	struct assay_store_cases sc = {0};
	char *dir = NULL;
	if (assay_store_case_details(srv->store, run, &sc, e) == ASSAY_OK)
		for (size_t i = 0; i < sc.n && !dir; i++) {
			const char *d = sc.v[i].artifact_dir;
			const char *slash = d ? strrchr(d, '/') : NULL;
			if (slash && slash != d)
				dir = xstrndup(d, (size_t)(slash - d));
		}
	assay_store_cases_release(&sc);
	return dir;
}

/* Open path (checked segments) below the folder dir, never following a
 * symlink: each segment with openat(O_NOFOLLOW). -1 with errno. */
static int open_below(const char *dir, const char *path)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *copy = xstrdup(path), *save = NULL;
	for (char *seg = strtok_r(copy, "/", &save); seg && fd >= 0;
	     seg = strtok_r(NULL, "/", &save)) {
		int next = openat(fd, seg, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		int err = errno;
		close(fd);
		fd = next;
		errno = err;
	}
	free(copy);
	return fd;
}

/* A folder's entries as links (sorted; names escaped). */
static void listing(int fd, const struct assay_serve_route *r, struct sbuf *o)
{
	DIR *d = fdopendir(fd);
	struct strlist names = {0};
	for (struct dirent *de; d && (de = readdir(d));)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strlist_push(&names, de->d_name);
	qsort(names.v, names.n, sizeof(*names.v), serve_cmp_str);
	serve_page_open(o, r->file, "", "");
	sbuf_adds(o, "<section><ul>");
	for (size_t i = 0; i < names.n; i++) {
		sbuf_addf(o, "<li><a href=\"/run/%s/", r->run);
		serve_href(o, r->file);
		sbuf_adds(o, "/");
		serve_href(o, names.v[i]);
		sbuf_adds(o, "\">");
		assay_report_escape(o, names.v[i]);
		sbuf_adds(o, "</a></li>");
	}
	sbuf_adds(o, "</ul></section>");
	serve_page_close(o);
	strlist_clear(&names);
	if (d)
		closedir(d);
	else
		close(fd);
}

void serve_run_file(struct assay_serve *srv, const struct assay_serve_route *r,
		    struct assay_serve_response *rs)
{
	struct assay_error e = {0};
	char *dir = run_dir(srv, r->run, &e);
	if (!dir)
		return serve_text(rs, 404, "the run has no output folder in the store");
	int fd = open_below(dir, r->file);
	free(dir);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return serve_text(rs, errno == ELOOP || errno == ENOTDIR ? 403 : 404,
				  errno == ELOOP ? "a symbolic link is not followed"
						 : "no such file");
	}
	rs->status = 200;
	if (S_ISDIR(st.st_mode)) {
		rs->content_type = "text/html; charset=utf-8";
		return listing(fd, r, &rs->body);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return serve_text(rs, 403, "not a regular file");
	}
	/* Never HTML or script, whatever the file holds: text, not sniffed. */
	rs->content_type = "text/plain; charset=utf-8";
	rs->fd = fd;
	rs->fd_size = (unsigned long long)st.st_size;
}
