/* Provenance expectations after a case ran (docs/suite.md, "Provenance"):
 * the case's redacted output split by node or by rank, each expectation
 * matched in each, what matched recorded (redacted) as the case's
 * provenance, and the nodes or ranks where one matched nothing named. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/watch.h"
#include "run_int.h"

#define MATCH_MAX 500 /* bytes of a matched string kept */

/* One node's or rank's output: the text of its files, in order. */
struct unit {
	char *name;     /* node name, or rank number */
	char *node;     /* a rank's node, when known */
	long long rank; /* -1 for a node */
	struct sbuf text;
};
struct units {
	struct unit *v;
	size_t n, alloc;
	char *where; /* where the output was looked for */
};

static struct unit *unit_get(struct units *u, const char *name, long long rank, const char *node)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->v[i].name, name))
			return &u->v[i];
	ALLOC_GROW(u->v, u->n + 1, u->alloc);
	struct unit *x = &u->v[u->n++];
	memset(x, 0, sizeof(*x));
	x->name = xstrdup(name);
	x->node = node ? xstrdup(node) : NULL;
	x->rank = rank;
	return x;
}

static void add_file(struct unit *x, const char *path)
{
	struct assay_error ignore;
	size_t len;
	char *data = assay_read_file(path, &len, &ignore);
	if (!data)
		return;
	sbuf_add(&x->text, data, len);
	if (len && data[len - 1] != '\n')
		sbuf_addch(&x->text, '\n');
	free(data);
}

static int by_name(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;
	if (x->rank >= 0 && y->rank >= 0)
		return x->rank < y->rank ? -1 : x->rank > y->rank;
	return strcmp(x->name, y->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool all_digits(const char *p, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

/* Slurm: <case>/nodes/<node>.out|.err, or with one file per task
 * <node>.<task>.out|.err (srun's %N and %t); srun.out, srun.err and
 * batch.out are srun's and the batch script's own. */
static bool slurm_units(const char *case_dir, bool per_task, enum assay_expect_per per,
			struct units *u)
{
	char *dir = xasprintf("%s/nodes", case_dir);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return false;
	}
	u->where = xstrdup(dir);
	struct strlist files = STRLIST_INIT;
	struct dirent *de;
	while ((de = readdir(d)))
		strlist_push(&files, de->d_name);
	closedir(d);
	/* In name order: a node's text is its tasks' in task order. */
	qsort(files.v, files.n, sizeof(*files.v), cmp_str);
	for (size_t i = 0; i < files.n; i++) {
		const char *f = files.v[i];
		if (f[0] == '.' || (!assay_ends_with(f, ".out") && !assay_ends_with(f, ".err")) ||
		    !strcmp(f, "srun.out") || !strcmp(f, "srun.err") || !strcmp(f, "batch.out"))
			continue;
		char *stem = xstrndup(f, strlen(f) - 4);
		char *dot = per_task ? strrchr(stem, '.') : NULL;
		long long task = -1;
		if (dot && all_digits(dot + 1, strlen(dot + 1))) {
			task = atoll(dot + 1);
			*dot = '\0';
		}
		char *path = xasprintf("%s/%s", dir, f);
		if (per == ASSAY_EXPECT_RANK && task >= 0) {
			char name[32];
			snprintf(name, sizeof(name), "%lld", task);
			add_file(unit_get(u, name, task, stem), path);
		} else if (per == ASSAY_EXPECT_NODE) {
			add_file(unit_get(u, stem, -1, NULL), path);
		}
		free(path);
		free(stem);
	}
	strlist_clear(&files);
	free(dir);
	return true;
}

/* Local ranks: Open MPI's --output-filename DIR layout,
 * DIR/<job>/rank.<N>/stdout|stderr, with DIR = <case>/ranks. */
static void local_ranks(const char *case_dir, struct units *u)
{
	char *dir = xasprintf("%s/ranks", case_dir);
	u->where = xasprintf("%s (mpirun --output-filename %s)", dir, dir);
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *job = xasprintf("%s/%s", dir, de->d_name);
		DIR *jd = opendir(job);
		struct dirent *re;
		while (jd && (re = readdir(jd))) {
			const char *r = re->d_name;
			if (strncmp(r, "rank.", 5) || !all_digits(r + 5, strlen(r + 5)))
				continue;
			struct unit *x = unit_get(u, r + 5, atoll(r + 5), NULL);
			for (int s = 0; s < 2; s++) {
				char *path = xasprintf("%s/%s/%s", job, r, s ? "stderr" : "stdout");
				add_file(x, path);
				free(path);
			}
		}
		if (jd)
			closedir(jd);
		free(job);
	}
	if (d)
		closedir(d);
	free(dir);
}

/* Local node: the one host the case ran on; its output is the case's. */
static void local_node(const char *case_dir, const json_t *vars, struct units *u)
{
	const json_t *h = json_object_get(vars, "HOST");
	struct unit *x =
	    unit_get(u, json_is_string(h) ? json_string_value(h) : "localhost", -1, NULL);
	u->where = xasprintf("%s/stdout.log, stderr.log", case_dir);
	for (int s = 0; s < 2; s++) {
		char *path = xasprintf("%s/%s", case_dir, s ? "stderr.log" : "stdout.log");
		add_file(x, path);
		free(path);
	}
}

static void units_release(struct units *u)
{
	for (size_t i = 0; i < u->n; i++) {
		free(u->v[i].name);
		free(u->v[i].node);
		sbuf_release(&u->v[i].text);
	}
	free(u->v);
	free(u->where);
	memset(u, 0, sizeof(*u));
}

static void collect_units(const struct run_ctx *rc, const char *case_dir, const json_t *vars,
			  enum assay_expect_per per, struct units *u)
{
	bool per_task = assay_suite_expect_per_rank(&rc->suite);
	if (!slurm_units(case_dir, per_task, per, u)) {
		if (per == ASSAY_EXPECT_RANK)
			local_ranks(case_dir, u);
		else
			local_node(case_dir, vars, u);
	}
	if (u->n > 1)
		qsort(u->v, u->n, sizeof(*u->v), by_name);
}

/* The values an expectation's placeholders get: the case's combo values
 * with its variant's vars over them (a variant's copy of a case carries
 * both, src/lib/suite/variants.c), and assay's built-ins; so a candidate
 * expects its own version string ({RCCL_VERSION} set per variant). */
static json_t *expect_vars(const struct run_ctx *rc, const struct assay_suite_case *c,
			   const char *case_dir)
{
	return assay_suite_case_vars(&rc->suite, c, rc->res->run_id, case_dir);
}

/* "node n2", "ranks 1, 3 (n1)": up to 8 names, then "and N more". */
static void name_units(struct sbuf *sb, enum assay_expect_per per, const struct unit *const *v,
		       size_t n)
{
	sbuf_addf(sb, "%s%s ", assay_expect_per_name(per), n > 1 ? "s" : "");
	for (size_t i = 0; i < n && i < 8; i++) {
		sbuf_addf(sb, "%s%s", i ? ", " : "", v[i]->name);
		if (v[i]->node)
			sbuf_addf(sb, " (%s)", v[i]->node);
	}
	if (n > 8)
		sbuf_addf(sb, " and %zu more", n - 8);
}

/* What was matched, per expectation and unit: the case's provenance. */
struct records {
	struct assay_provenance *v;
	size_t n, alloc;
};

/* Match expectation x in unit un and record what matched (NULL when
 * nothing did); false when it matched nothing. */
static bool match_unit(struct run_ctx *rc, const struct assay_expect_case *x, const struct unit *un,
		       struct records *rec)
{
	size_t a, b;
	bool hit = assay_pattern_search(x->code, un->text.buf, un->text.len, &a, &b);
	ALLOC_GROW(rec->v, rec->n + 1, rec->alloc);
	struct assay_provenance *p = &rec->v[rec->n++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(x->name);
	p->per = xstrdup(assay_expect_per_name(x->per));
	p->unit = xstrdup(un->name);
	if (!hit)
		return false;
	/* Redacted whole, then cut: a cut never splits a secret past the
	 * redactor. */
	char *m = xstrndup(un->text.buf + a, b - a);
	p->matched = assay_redactor_str(&rc->redact, m);
	free(m);
	size_t cut = MATCH_MAX;
	if (strlen(p->matched) > cut) {
		/* Not inside a UTF-8 sequence. */
		while (cut && ((unsigned char)p->matched[cut] & 0xC0) == 0x80)
			cut--;
		p->matched[cut] = '\0';
	}
	return true;
}

/* Ranks are numbered from 0: a rank below the highest seen (or, for an EP
 * case, below its EP) that left no output at all matched nothing either.
 * How many did so; *first gets the first. */
static long long rank_gaps(const struct assay_suite_case *c, const struct assay_expect_case *x,
			   const struct units *u, long long *first)
{
	long long gaps = 0;
	long long ranks = u->n ? u->v[u->n - 1].rank + 1 : 0;
	if (c->ep && c->ep->ep > ranks)
		ranks = c->ep->ep;
	if (x->per == ASSAY_EXPECT_RANK && u->n)
		for (long long r = 0, k = 0; r < ranks; r++) {
			if ((size_t)k < u->n && u->v[k].rank == r) {
				k++;
				continue;
			}
			if (!gaps++)
				*first = r;
		}
	return gaps;
}

/* Expectation x on the case's output: every unit matched, its records
 * added; why gets the failure when it is the first. */
static void expect_one(struct run_ctx *rc, const struct assay_suite_case *c,
		       const struct assay_expect_case *x, const char *case_dir, const json_t *vars,
		       struct records *rec, struct sbuf *why)
{
	const char *per = assay_expect_per_name(x->per);
	struct units u = {0};
	collect_units(rc, case_dir, vars, x->per, &u);
	const struct unit **missing = xcalloc(u.n + 1, sizeof(*missing));
	size_t n_missing = 0;
	for (size_t k = 0; k < u.n; k++)
		if (!match_unit(rc, x, &u.v[k], rec))
			missing[n_missing++] = &u.v[k];
	long long first_gap = -1;
	long long gaps = rank_gaps(c, x, &u, &first_gap);
	if (why->len == 0 && !u.n)
		sbuf_addf(why, "expectation %s: no per-%s output in %s", x->name, per, u.where);
	else if (why->len == 0 && n_missing) {
		sbuf_addf(why, "expectation %s not matched on ", x->name);
		name_units(why, x->per, missing, n_missing);
		sbuf_addf(why, " (pattern %s)", x->pattern);
	} else if (why->len == 0 && gaps)
		sbuf_addf(why,
			  "expectation %s: rank %lld left no output in %s (%lld rank(s) "
			  "missing)",
			  x->name, first_gap, u.where, gaps);
	else if (why->len == 0 && x->per == ASSAY_EXPECT_NODE && c->nodes > 1 &&
		 (long long)u.n < c->nodes)
		sbuf_addf(why, "expectation %s: output from %zu of %lld nodes in %s", x->name, u.n,
			  c->nodes, u.where);
	free(missing);
	units_release(&u);
}

assay_err run_expect(struct run_ctx *rc, const struct assay_suite_case *c, const char *case_dir,
		     struct sbuf *why, struct assay_error *e)
{
	if (!rc->suite.n_expect)
		return ASSAY_OK;
	json_t *vars = expect_vars(rc, c, case_dir);
	struct assay_expect_plan plan;
	assay_err err = assay_suite_expect_plan(&rc->suite, vars, &plan, e);
	if (err != ASSAY_OK) {
		json_decref(vars);
		return err;
	}
	struct records rec = {NULL, 0, 0};
	for (size_t i = 0; i < plan.n; i++)
		expect_one(rc, c, &plan.v[i], case_dir, vars, &rec, why);
	/* Recorded even when the case failed otherwise: what ran is known. */
	err = assay_store_case_provenance(rc->store, rc->res->run_id, c->id, rec.v, rec.n, e);
	assay_provenance_free(rec.v, rec.n);
	assay_expect_plan_release(&plan);
	json_decref(vars);
	return err;
}

void run_expect_describe(struct run_ctx *rc, const struct assay_suite_case *c, const char *case_dir,
			 struct sbuf *out)
{
	if (!rc->suite.n_expect)
		return;
	json_t *vars = expect_vars(rc, c, case_dir);
	struct assay_expect_plan plan;
	struct assay_error e;
	if (assay_suite_expect_plan(&rc->suite, vars, &plan, &e) == ASSAY_OK) {
		for (size_t i = 0; i < plan.n; i++) {
			char *line =
			    xasprintf("  expect: %s per %s: %s\n", plan.v[i].name,
				      assay_expect_per_name(plan.v[i].per), plan.v[i].pattern);
			char *red = assay_redactor_str(&rc->redact, line);
			sbuf_adds(out, red);
			free(red);
			free(line);
		}
		assay_expect_plan_release(&plan);
	}
	json_decref(vars);
}
