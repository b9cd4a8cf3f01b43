/* Shared by the store, history and detect commands: --store, the series
 * filter options, opening the store and naming series in tables. */
#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/pool.h"
#include "cli.h"
#include "store_cli.h"
#include "opt.h"

const struct cli_opt store_cli_path_opts[] = {
    {.type = CLI_STRING,
     .name = "store",
     .arg = "PATH",
     .off = offsetof(struct store_cli, path),
     .help = "the results store",
     .def = "assay.db"},
    CLI_OPT_END,
};

const struct cli_opt store_cli_opts[] = {
    {.type = CLI_TABLE, .sub = store_cli_path_opts},
    {.type = CLI_LIST,
     .name = "series",
     .arg = "KEY",
     .off = offsetof(struct store_cli, filter.keys),
     .help = "series keys or 8+ hex-digit prefixes (comma-separated, repeatable)"},
    {.type = CLI_APPEND,
     .name = "match",
     .arg = "FIELD=VALUE",
     .off = offsetof(struct store_cli, filter.match),
     .help = "only series whose FIELD is VALUE (repeatable; all must hold)"},
    CLI_OPT_STRING("since", "DATE", struct store_cli, filter.since,
		   "only points at or after DATE (2026-11-01 or an RFC 3339 time)"),
    CLI_OPT_STRING("until", "DATE", struct store_cli, filter.until,
		   "only points at or before DATE (a date: to the end of that day)"),
    {.type = CLI_INT,
     .name = "last",
     .arg = "N",
     .off = offsetof(struct store_cli, filter.last),
     .help = "only the N newest points of each series (after --since and --until)",
     .min = 1},
    CLI_OPT_END,
};

void store_cli_release(struct store_cli *c)
{
	assay_series_filter_release(&c->filter);
}

int store_cli_open(const struct store_cli *c, bool writable, struct assay_store **s)
{
	struct assay_error e;
	const char *path = c->path ? c->path : ASSAY_STORE_DEFAULT_PATH;
	if (assay_store_open(path, writable ? ASSAY_STORE_CREATE : ASSAY_STORE_READONLY, s, &e) !=
	    ASSAY_OK)
		return cli_report(&e);
	return ASSAY_OK;
}

int store_cli_open_series(const struct store_cli *c, bool writable, struct assay_store **s,
			  struct assay_series_list *l)
{
	struct assay_error e;
	int rc = store_cli_open(c, writable, s);
	if (rc != ASSAY_OK)
		return rc;
	if (assay_store_series(*s, &c->filter, l, &e) != ASSAY_OK) {
		rc = cli_report(&e);
		assay_series_list_release(l);
		store_cli_close(*s, rc);
		*s = NULL;
	}
	return rc;
}

int store_cli_close(struct assay_store *s, int rc)
{
	struct assay_error e;
	if (assay_store_close(s, &e) != ASSAY_OK) {
		cli_report(&e);
		return rc == ASSAY_OK ? ASSAY_INFRA : rc;
	}
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void store_cli_series_label(const json_t *fields, struct sbuf *sb)
{
	static const char *const first[] = {"workload", "metric", "statistic",
					    "cluster",  "scale",  "precision"};
	const json_t *w = json_object_get(fields, "workload");
	if (w) {
		assay_json_text(sb, w);
		sbuf_addch(sb, ' ');
	}
	assay_json_text(sb, json_object_get(fields, "metric"));
	sbuf_addch(sb, '/');
	assay_json_text(sb, json_object_get(fields, "statistic"));
	for (size_t i = 3; i < ARRAY_SIZE(first); i++) {
		const json_t *v = json_object_get(fields, first[i]);
		if (v) {
			sbuf_addf(sb, " %s=", first[i]);
			assay_json_text(sb, v);
		}
	}
	const char **keys = xcalloc(json_object_size(fields) + 1, sizeof(*keys));
	size_t n = 0;
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)fields, k, v)
	{
		bool known = false;
		for (size_t i = 0; i < ARRAY_SIZE(first); i++)
			known |= !strcmp(k, first[i]);
		if (!known)
			keys[n++] = k;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (size_t i = 0; i < n; i++) {
		sbuf_addf(sb, " %s=", keys[i]);
		assay_json_text(sb, json_object_get(fields, keys[i]));
	}
	free(keys);
}

void store_cli_csv(FILE *out, const char *s)
{
	if (!s)
		return; /* NULL: an empty cell */
	if (!*s) {
		fputs("\"\"", out); /* an empty string: "" */
		return;
	}
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

void parse_cli_init(struct parse_cli *p)
{
	memset(p, 0, sizeof(*p));
	p->context = json_object();
	p->overrides = json_object();
}

void parse_cli_release(struct parse_cli *p)
{
	json_decref(p->context);
	json_decref(p->overrides);
	strlist_clear(&p->lower);
	strlist_clear(&p->higher);
}

static int set_context(const char *cmd, json_t *ctx, const char *field, const char *value)
{
	if (!*value)
		return cli_usage_error(cmd, "--%s needs a value", field);
	json_object_set_new(ctx, field, json_string(value));
	return ASSAY_OK;
}

static int opt_cluster(void *args, const char *arg, const char *cmd)
{
	return set_context(cmd, ((struct parse_cli *)args)->context, "cluster", arg);
}

static int opt_scale(void *args, const char *arg, const char *cmd)
{
	char norm[64];
	if (!assay_scale_canonical(arg, norm, sizeof(norm)))
		return cli_usage_error(cmd,
				       "--scale '%s': expected NODESxGPUS (2x8), "
				       "NODESN/TOTALGPU (2N/16GPU) or a GPU count",
				       arg);
	return set_context(cmd, ((struct parse_cli *)args)->context, "scale", norm);
}

static int opt_precision(void *args, const char *arg, const char *cmd)
{
	char norm[128];
	assay_precision_canonical(arg, norm, sizeof(norm));
	return set_context(cmd, ((struct parse_cli *)args)->context, "precision", norm);
}

static int opt_set(void *args, const char *arg, const char *cmd)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return cli_usage_error(cmd, "--set '%s': expected FIELD=VALUE", arg);
	char *k = xstrndup(arg, (size_t)(eq - arg));
	char norm[64];
	if (!strcmp(k, "scale") && !assay_scale_canonical(eq + 1, norm, sizeof(norm))) {
		free(k);
		return cli_usage_error(cmd,
				       "--set '%s': expected NODESxGPUS (2x8), "
				       "NODESN/TOTALGPU (2N/16GPU) or a GPU count",
				       arg);
	}
	json_object_set_new(((struct parse_cli *)args)->overrides, k, json_string(eq + 1));
	free(k);
	return ASSAY_OK;
}

const struct cli_opt parse_cli_opts[] = {
    CLI_OPT_STRING("input-format", "F", struct parse_cli, format,
		   "the format of the files (docs/ingest.md); default: the content decides"),
    {.type = CLI_CALL,
     .name = "cluster",
     .arg = "NAME",
     .help = "the series field cluster, where the data lacks it",
     .call = opt_cluster},
    {.type = CLI_CALL,
     .name = "scale",
     .arg = "SCALE",
     .help = "the series field scale, where the data lacks it: 2x8, 2N/16GPU or a GPU count",
     .call = opt_scale},
    {.type = CLI_CALL,
     .name = "precision",
     .arg = "P",
     .help = "the series field precision, where the data lacks it",
     .call = opt_precision},
    {.type = CLI_CALL,
     .name = "set",
     .arg = "FIELD=VALUE",
     .help = "override a series field of every row (repeatable)",
     .call = opt_set},
    CLI_OPT_STRING("revision", "R", struct parse_cli, revision,
		   "the revision the rows measure, where the data lacks it"),
    {.type = CLI_LIST,
     .name = "lower-is-better",
     .arg = "METRIC",
     .off = offsetof(struct parse_cli, lower),
     .help = "override the direction guessed from a metric's name (repeatable)"},
    {.type = CLI_LIST,
     .name = "higher-is-better",
     .arg = "METRIC",
     .off = offsetof(struct parse_cli, higher),
     .help = "the same, the other way"},
    CLI_OPT_END,
};

bool parse_cli_given(const struct parse_cli *p)
{
	return p->format || p->revision || json_object_size(p->context) ||
	       json_object_size(p->overrides) || p->lower.n || p->higher.n;
}

/* "FILE:LINE: " when the parser knew row i's source line, else
 * "FILE: row N: ". */
static void row_where(struct sbuf *err, const char *file, const struct assay_row *r, size_t i)
{
	if (r->line > 0)
		sbuf_addf(err, "%s:%ld: ", file, r->line);
	else
		sbuf_addf(err, "%s: row %zu: ", file, i + 1);
}

/* Parse one file; on failure the message (one line, no newline) goes in err. */
static int parse_file(const char *cmd, const struct parse_cli *p, struct parsed_file *pf,
		      struct sbuf *err)
{
	struct assay_error e;
	char buf[2048];
	/* The parser sees --set's fields too: a table that needs one to be
	 * read at all (nccl-tests' collective) gets it from --set. */
	json_t *ctx = json_deep_copy(p->context);
	json_object_update(ctx, p->overrides);
	/* Ingest tells formats apart by their header or first record only: a
	 * file that merely mentions Megatron is not a training log. */
	struct assay_results_opts o = {.hint = p->format,
				       .by = strcmp(cmd, "store") ? ASSAY_DETECT_CONTENT
								  : ASSAY_DETECT_RECORD,
				       .parse = {.context = ctx,
						 .revision = p->revision,
						 .not_measured = &pf->not_measured,
						 .notes = &pf->notes},
				       .sha256 = true};
	struct assay_results res = {.rows = ASSAY_ROWS_INIT};
	assay_err rc = assay_results_read(pf->path, -1, &o, &res, &e);
	json_decref(ctx);
	pf->format = res.format;
	memcpy(pf->sha256, res.sha256, sizeof(pf->sha256));
	pf->rows = res.rows;
	if (res.fail == ASSAY_RESULTS_UNKNOWN || res.fail == ASSAY_RESULTS_UNDETECTED) {
		/* "auto" given: still named an unknown format here, as always. */
		if (p->format)
			sbuf_addf(err, "assay %s: unknown format '%s' (see 'assay help %s')", cmd,
				  p->format, cmd);
		else
			sbuf_addf(
			    err, "%s: cannot tell the format from the content; pass --input-format",
			    pf->path);
		return ASSAY_USAGE;
	}
	if (rc != ASSAY_OK) {
		sbuf_adds(err, assay_error_format(&e, buf, sizeof(buf)));
		return rc;
	}
	for (size_t i = 0; i < pf->rows.n; i++) {
		struct assay_row *r = &pf->rows.v[i];
		if (json_object_size(p->overrides)) {
			const char *k;
			json_t *v;
			assay_row_own_series(r);
			json_object_foreach(p->overrides, k, v)
			{
				json_object_set(r->series, k, v);
			}
			if (assay_row_finish(r, &e) != ASSAY_OK) {
				row_where(err, pf->path, r, i);
				sbuf_adds(err, e.message);
				return ASSAY_USAGE;
			}
		}
		if (strlist_has(&p->lower, r->metric))
			r->direction = ASSAY_DIR_LOWER;
		if (strlist_has(&p->higher, r->metric))
			r->direction = ASSAY_DIR_HIGHER;
		if (assay_store_check_identity(r, &e) != ASSAY_OK) {
			row_where(err, pf->path, r, i);
			sbuf_addf(err,
				  "%s; give it with --cluster, --scale, --precision or "
				  "--set FIELD=VALUE",
				  e.message);
			return ASSAY_USAGE;
		}
	}
	return ASSAY_OK;
}

/* The parser's flags, as warnings on stderr (the rows they spare are kept). */
static void print_notes(struct parsed_file *pf)
{
	for (size_t i = 0; i < pf->notes.n; i++)
		fprintf(stderr, "warning: %s\n", pf->notes.v[i]);
	pf->flagged = pf->notes.n;
	strlist_clear(&pf->notes);
}

int parse_cli_file(const char *cmd, const struct parse_cli *p, struct parsed_file *pf)
{
	struct sbuf err = SBUF_INIT;
	int rc = parse_file(cmd, p, pf, &err);
	print_notes(pf);
	if (rc != ASSAY_OK)
		fprintf(stderr, "%s\n", sbuf_str(&err));
	sbuf_release(&err);
	return rc;
}

/* ---- parsing files on the util pool, handed out in order ---- */

struct pool_slot {
	struct parsed_file pf;
	struct sbuf err;
	int rc;
	int worker;           /* which thread parsed it (and frees it: its malloc arena) */
	atomic_bool released; /* the consumer is finished with it */
};

struct parse_pool {
	const char *cmd;
	const struct parse_cli *p;
	struct pool_slot *slots;
	int n;
	int ahead;     /* most files parsed ahead of the consumer */
	int *freed_to; /* per thread: the slots below it are released and looked at */
	struct assay_pool *pool;
};

/* Free the rows of this thread's files that the consumer has finished with
 * (it releases them in order, so each thread looks at each slot once). */
static void pool_free_released(struct parse_pool *pp, int me)
{
	int i = pp->freed_to[me];
	for (; i < pp->n && atomic_load(&pp->slots[i].released); i++) {
		struct pool_slot *slot = &pp->slots[i];
		if (slot->worker == me)
			assay_rows_release(&slot->pf.rows);
	}
	pp->freed_to[me] = i;
}

static void parse_task(void *ctx, size_t i, int worker)
{
	struct parse_pool *pp = ctx;
	pool_free_released(pp, worker);
	struct pool_slot *slot = &pp->slots[i];
	slot->worker = worker;
	slot->rc = parse_file(pp->cmd, pp->p, &slot->pf, &slot->err);
}

void parse_pool_release(struct parse_pool *pp, int i)
{
	atomic_store(&pp->slots[i].released, true);
}

struct parse_pool *parse_pool_start(const char *cmd, const struct parse_cli *p, int n, char **paths)
{
	struct parse_pool *pp = xcalloc(1, sizeof(*pp));
	pp->cmd = cmd;
	pp->p = p;
	pp->n = n;
	pp->slots = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*pp->slots));
	for (int i = 0; i < n; i++)
		pp->slots[i].pf.path = paths[i];
	int nthreads = assay_pool_threads(n > 0 ? (size_t)n : 1, 8);
	pp->ahead = nthreads;
	pp->freed_to = xcalloc((size_t)nthreads + 1, sizeof(*pp->freed_to));
	struct assay_pool_opts o = {nthreads, false, 1};
	pp->pool = assay_pool_start(&o, parse_task, pp);
	assay_pool_submit(pp->pool, (size_t)(n < pp->ahead ? n : pp->ahead));
	return pp;
}

int parse_pool_get(struct parse_pool *pp, int i, struct parsed_file **pf)
{
	assay_pool_wait(pp->pool, (size_t)i);
	int more = i + 1 + pp->ahead;
	assay_pool_submit(pp->pool, (size_t)(more < pp->n ? more : pp->n));
	struct pool_slot *slot = &pp->slots[i];
	print_notes(&slot->pf);
	if (slot->rc != ASSAY_OK)
		fprintf(stderr, "%s\n", sbuf_str(&slot->err));
	*pf = &slot->pf;
	return slot->rc;
}

void parse_pool_stop(struct parse_pool *pp)
{
	assay_pool_cancel(pp->pool);
	assay_pool_finish(pp->pool);
	for (int i = 0; i < pp->n; i++) {
		assay_rows_release(&pp->slots[i].pf.rows);
		strlist_clear(&pp->slots[i].pf.notes);
		sbuf_release(&pp->slots[i].err);
	}
	free(pp->freed_to);
	free(pp->slots);
	free(pp);
}
