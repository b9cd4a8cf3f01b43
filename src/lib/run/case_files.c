/* After a case: the files in its case folder that hold a secret's value
 * (what the workload wrote there itself: its results, logs, configs) are
 * redacted in place, except those the suite names in raw_artifacts (binary
 * artifacts that replacing bytes would corrupt). docs/suite.md, "Secrets". */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "run_int.h"

static bool raw_artifact(const struct assay_suite *s, const char *rel)
{
	for (size_t i = 0; i < s->raw_artifacts.n; i++)
		if (!fnmatch(s->raw_artifacts.v[i], rel, 0))
			return true;
	return false;
}

static assay_err redact_file(struct run_ctx *rc, const char *path, const struct stat *st, size_t *n,
			     struct assay_error *e)
{
	struct assay_file_map m;
	struct assay_error me;
	if (assay_map_file(path, &m, &me) != ASSAY_OK)
		return ASSAY_OK; /* gone or unreadable meanwhile: nothing to write */
	assay_err err = ASSAY_OK;
	if (assay_redactor_find(&rc->redact, m.data, m.len, NULL)) {
		struct sbuf sb = SBUF_INIT;
		assay_redactor_append(&rc->redact, m.data, m.len, &sb);
		err = assay_write_file_atomic(path, sb.buf ? sb.buf : "", sb.len, e);
		if (err == ASSAY_OK) {
			chmod(path, st->st_mode & 07777);
			(*n)++;
		}
		sbuf_release(&sb);
	}
	assay_unmap_file(&m);
	return err;
}

static assay_err walk(struct run_ctx *rc, const char *dir, const char *rel, size_t *n,
		      struct assay_error *e)
{
	DIR *d = opendir(dir);
	if (!d)
		return ASSAY_OK;
	assay_err err = ASSAY_OK;
	struct dirent *de;
	while (err == ASSAY_OK && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *path = xasprintf("%s/%s", dir, de->d_name);
		char *sub = *rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		struct stat st;
		if (lstat(path, &st) == 0 && !raw_artifact(&rc->suite, sub)) {
			if (S_ISDIR(st.st_mode))
				err = walk(rc, path, sub, n, e);
			else if (S_ISREG(st.st_mode))
				err = redact_file(rc, path, &st, n, e);
		}
		free(sub);
		free(path);
	}
	closedir(d);
	return err;
}

assay_err run_redact_case_dir(struct run_ctx *rc, const char *case_dir, size_t *n,
			      struct assay_error *e)
{
	*n = 0;
	if (assay_redactor_empty(&rc->redact))
		return ASSAY_OK;
	return walk(rc, case_dir, "", n, e);
}
