/* Lint many files at once, as `assay lint FILE...` does: each with the
 * .assay-lint.json of its directory (read once per directory), on the util
 * pool (the library keeps no shared state between files). */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "assay/lint.h"
#include "assay/pool.h"

/* The allow list of each directory seen, in the order first seen; NULL
 * where its .assay-lint.json is invalid (then errs says why). */
struct allow_cache {
	struct strlist dirs;
	struct assay_lint_allow **v;
	struct assay_error *errs;
};

/* The index of file's directory in the cache, loading its allow list on
 * first sight. */
static size_t allow_index(struct allow_cache *c, const char *file)
{
	char *copy = xstrdup(file);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	for (size_t i = 0; i < c->dirs.n; i++) {
		if (!strcmp(c->dirs.v[i], dir)) {
			free(dir);
			return i;
		}
	}
	size_t i = c->dirs.n;
	strlist_push(&c->dirs, dir);
	c->v = xrealloc(c->v, c->dirs.n * sizeof(*c->v));
	c->errs = xrealloc(c->errs, c->dirs.n * sizeof(*c->errs));
	c->v[i] = xcalloc(1, sizeof(*c->v[i]));
	assay_error_clear(&c->errs[i]);
	if (assay_lint_allow_load_dir(dir, c->v[i], &c->errs[i]) != ASSAY_OK) {
		free(c->v[i]);
		c->v[i] = NULL;
	}
	free(dir);
	return i;
}

static void allow_cache_release(struct allow_cache *c)
{
	for (size_t i = 0; i < c->dirs.n; i++) {
		if (c->v[i])
			assay_lint_allow_release(c->v[i]);
		free(c->v[i]);
	}
	free(c->v);
	free(c->errs);
	strlist_clear(&c->dirs);
}

struct lint_jobs {
	char *const *files;
	const struct assay_lint_options *o;
	const struct allow_cache *cache;
	const size_t *dir; /* each file's index in the cache */
	struct assay_lint_batch *b;
};

static void lint_task(void *ctx, size_t i, int worker)
{
	(void)worker;
	struct lint_jobs *l = ctx;
	const struct assay_lint_allow *allow = l->cache->v[l->dir[i]];
	struct assay_lint_result *r = &l->b->res[i];
	struct assay_error e;
	if (allow && assay_lint_file(l->files[i], l->o, allow, r, &e) != ASSAY_OK && !r->error) {
		r->error = xmalloc(sizeof(*r->error));
		*r->error = e;
	}
}

assay_err assay_lint_files(char *const *files, size_t n, const struct assay_lint_options *o,
			   int threads, struct assay_lint_batch *b)
{
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->res = xcalloc(n + 1, sizeof(*b->res));
	b->allow_invalid = xcalloc(n + 1, sizeof(*b->allow_invalid));
	struct allow_cache cache = {STRLIST_INIT, NULL, NULL};
	size_t *dir = xcalloc(n + 1, sizeof(*dir));
	for (size_t i = 0; i < n; i++)
		dir[i] = allow_index(&cache, files[i]);
	/* Each invalid .assay-lint.json once, in the order of the files. */
	for (size_t d = 0; d < cache.dirs.n; d++)
		if (!cache.v[d]) {
			ALLOC_GROW(b->allow_errors, b->nallow_errors + 1, b->allow_alloc);
			b->allow_errors[b->nallow_errors++] = cache.errs[d];
		}
	if (threads < 1)
		threads = assay_pool_threads(n, 0);
	if ((size_t)threads > n)
		threads = n > 0 ? (int)n : 1;
	struct lint_jobs l = {files, o, &cache, dir, b};
	struct assay_pool_opts po = {threads - 1, true, 1};
	struct assay_pool *p = assay_pool_start(&po, lint_task, &l);
	assay_pool_submit(p, n);
	assay_pool_finish(p);
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < n; i++) {
		struct assay_lint_result *r = &b->res[i];
		if (!cache.v[dir[i]]) {
			/* Not linted: its error is that of the directory's allow list. */
			b->allow_invalid[i] = true;
			r->file = xstrdup(files[i]);
			r->error = xcalloc(1, sizeof(*r->error));
			*r->error = cache.errs[dir[i]];
			r->errors = 1;
		}
		if (r->error)
			rc = assay_err_worst(rc, r->error->code);
	}
	free(dir);
	allow_cache_release(&cache);
	return rc;
}

void assay_lint_batch_release(struct assay_lint_batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		assay_lint_result_release(&b->res[i]);
	free(b->res);
	free(b->allow_invalid);
	free(b->allow_errors);
	memset(b, 0, sizeof(*b));
}
