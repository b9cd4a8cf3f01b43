/* assay store: the results store's subcommands: ingest result files of the
 * known formats, export rows, list series and runs, annotate series, check
 * the database. The schema is in docs/store.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/notify.h"
#include "assay/parse.h"
#include "assay/store.h"
#include "cli.h"
#include "opt.h"
#include "store_cli.h"

/* Every subcommand has its own table and spec (opt.h); `assay help store`
 * prints them all, `assay store SUB --help` one. */
#define STORE_SPEC(sub, u, a, t, mn, mx, w)                                                        \
	{                                                                                          \
		.name = "store", .sub_name = sub, .usage = u, .about = a, .opts = t,               \
		.min_args = mn, .max_args = mx, .args_what = w                                     \
	}

/* ---- ingest ---- */

struct ingest_args {
	struct store_cli sc;
	struct parse_cli pc;
	const char *suite;
	bool force, replace;
};

/* Store one parsed file inside the open batch; its line goes in report. */
static int ingest_file(struct assay_store *s, const struct parsed_file *pf,
		       const struct ingest_args *a, struct sbuf *report, bool *no_rows)
{
	struct assay_error e;
	struct assay_ingest_info ii = {.file = pf->path,
				       .format = pf->format->name,
				       .sha256 = pf->sha256,
				       .suite = a->suite,
				       .force = a->force,
				       .replace = a->replace};
	struct assay_ingest_result res;
	if (!pf->rows.n) {
		sbuf_addf(report, "%s: %s, no measurement rows", pf->path, pf->format->name);
		if (pf->not_measured)
			sbuf_addf(report, ", %zu fail record%s skipped", pf->not_measured,
				  pf->not_measured == 1 ? "" : "s");
		sbuf_addch(report, '\n');
		*no_rows = true;
		return ASSAY_OK;
	}
	if (assay_store_ingest_rows(s, &ii, &pf->rows, &res, &e) != ASSAY_OK)
		return cli_report(&e);
	sbuf_addf(report, "%s: %s, %zu new, %zu already present", pf->path, pf->format->name,
		  res.added, res.present);
	if (res.replaced)
		sbuf_addf(report, ", %zu replaced", res.replaced);
	if (pf->not_measured)
		sbuf_addf(report, ", %zu fail record%s skipped", pf->not_measured,
			  pf->not_measured == 1 ? "" : "s");
	if (pf->flagged)
		sbuf_addf(report, ", %zu flagged (see the warnings)", pf->flagged);
	if (res.skipped)
		sbuf_addf(report,
			  ", %zu without an identity skipped (the same bytes were ingested as run "
			  "%s; --force stores them again)",
			  res.skipped, res.earlier_run);
	if (res.run_id[0])
		sbuf_addf(report, ", run %s", res.run_id);
	sbuf_addch(report, '\n');
	return ASSAY_OK;
}

static const struct cli_opt ingest_opts[] = {
    CLI_OPT_TABLE(store_cli_path_opts, struct ingest_args, sc),
    CLI_OPT_STRING("suite", "S", struct ingest_args, suite, "the suite name the run records"),
    CLI_OPT_FLAG("replace", struct ingest_args, replace,
		 "a different value under a stored row replaces it (otherwise an error)"),
    CLI_OPT_FLAG("force", struct ingest_args, force,
		 "store rows without an identity from the same bytes again"),
    CLI_OPT_GROUP("reading the files"),
    CLI_OPT_TABLE(parse_cli_opts, struct ingest_args, pc),
    {.type = CLI_STRING, .name = "format", .arg = "F", .alias_of = "input-format"},
    CLI_OPT_END,
};

static const struct cli_spec ingest_spec = STORE_SPEC(
    "ingest",
    "assay store ingest [--input-format F] [identity] [--suite S] [--replace] [--force] FILE...",
    "Read result files into the store, all of them in one transaction (and one run\n"
    "per file): a bad file anywhere leaves the store as it was. Rows already stored\n"
    "(same series, run id, revision, timestamp) are counted, not stored again; a\n"
    "different value under a stored row is an error unless --replace. Formats: the\n"
    "format table (docs/ingest.md); without --input-format the content decides.\n"
    "Every series needs cluster, scale and precision: --cluster, --scale and\n"
    "--precision fill what the data lacks, --set FIELD=VALUE overrides one.\n",
    ingest_opts, 0, -1, "file");

/* Whether the store at path is a file that does not exist yet (not a
 * connection string). */
static bool store_file_absent(const char *path)
{
	struct stat sb;
	return !strstr(path, "://") && strncmp(path, "service=", 8) && lstat(path, &sb) != 0 &&
	       errno == ENOENT;
}

/* After a failed ingest into a store this call created: when it holds no
 * run (nothing of another writer's), close it and remove its files, so
 * that a failure leaves nothing behind; otherwise just close it. */
static int close_new_store(struct assay_store *s, const char *path, int rc)
{
	struct assay_run_list l = {0};
	struct assay_error e;
	bool empty = assay_store_runs(s, 1, &l, &e) == ASSAY_OK && l.n == 0;
	assay_run_list_release(&l);
	rc = store_cli_close(s, rc);
	if (empty) {
		static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
		for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
			char *p = xasprintf("%s%s", path, sfx[i]);
			unlink(p);
			free(p);
		}
	}
	return rc;
}

static int store_ingest(int argc, char **argv)
{
	struct ingest_args a = {0};
	struct store_cli *sc = &a.sc;
	parse_cli_init(&a.pc);
	int optind, rc = cli_parse(&ingest_spec, argc, argv, &a, &optind);
	int nfiles = argc - optind;
	if (rc == ASSAY_OK && nfiles < 1)
		rc = cli_usage_error("store", "ingest: expected one or more files");
	/* All files go in one batch: a bad file anywhere leaves the store's
	 * contents as they were. The store is opened (created) once the first
	 * file has been read, so a bad first file creates nothing. */
	struct assay_store *s = NULL;
	struct assay_error e;
	struct sbuf report = SBUF_INIT;
	bool no_rows = false;
	const char *path = sc->path ? sc->path : ASSAY_STORE_DEFAULT_PATH;
	bool created = false;
	struct parse_pool *pool =
	    rc == ASSAY_OK ? parse_pool_start("store", &a.pc, nfiles, argv + optind) : NULL;
	for (int i = 0; rc == ASSAY_OK && i < nfiles; i++) {
		struct parsed_file *pf;
		rc = parse_pool_get(pool, i, &pf);
		if (rc == ASSAY_OK && !s)
			created = store_file_absent(path);
		if (rc == ASSAY_OK && !s && (rc = store_cli_open(sc, true, &s)) == ASSAY_OK &&
		    assay_store_batch_begin(s, &e) != ASSAY_OK)
			rc = cli_report(&e);
		if (rc == ASSAY_OK)
			rc = ingest_file(s, pf, &a, &report, &no_rows);
		parse_pool_release(pool, i);
	}
	if (pool)
		parse_pool_stop(pool);
	if (rc == ASSAY_OK && s && assay_store_batch_commit(s, &e) != ASSAY_OK)
		rc = cli_report(&e);
	if (rc == ASSAY_OK) {
		fputs(sbuf_str(&report), stdout);
		if (no_rows)
			rc = ASSAY_NO_METRICS;
	} else if (s) {
		assay_store_batch_rollback(s);
	}
	sbuf_release(&report);
	parse_cli_release(&a.pc);
	store_cli_release(sc);
	if (s && created && rc != ASSAY_OK)
		rc = close_new_store(s, path, rc);
	else if (s)
		rc = store_cli_close(s, rc);
	return rc < 0 ? ASSAY_OK : rc;
}

/* ---- export ---- */

struct export_ctx {
	FILE *out;
	bool csv;
	struct sbuf sb;
	long long n;
};

static int export_row(const struct assay_row *r, void *ctx)
{
	struct export_ctx *x = ctx;
	x->n++;
	if (!x->csv) {
		json_t *o = assay_row_to_json(r);
		sbuf_reset(&x->sb);
		assay_json_write(&x->sb, o, ASSAY_JSON_SORT);
		sbuf_addch(&x->sb, '\n');
		fwrite(x->sb.buf, 1, x->sb.len, x->out);
		json_decref(o);
		return 0;
	}
	char *series = assay_json_canonical(r->series);
	fprintf(x->out, "%s,", r->series_key);
	store_cli_csv(x->out, r->metric);
	fputc(',', x->out);
	store_cli_csv(x->out, r->statistic);
	sbuf_reset(&x->sb);
	json_t *v = json_real(r->value);
	assay_json_write(&x->sb, v, 0);
	json_decref(v);
	fprintf(x->out, ",%s,", sbuf_str(&x->sb));
	store_cli_csv(x->out, r->unit);
	fprintf(x->out, ",%s,%lld,", assay_direction_name(r->direction), (long long)r->samples);
	store_cli_csv(x->out, r->revision);
	fprintf(x->out, ",%s,", r->timestamp ? r->timestamp : "");
	store_cli_csv(x->out, r->run_id);
	fputc(',', x->out);
	store_cli_csv(x->out, r->case_id);
	fputc(',', x->out);
	store_cli_csv(x->out, series);
	fputc('\n', x->out);
	free(series);
	return 0;
}

struct export_args {
	struct store_cli sc;
	const char *format, *output, *push;
};

static const char *const export_formats[] = {"ndjson", "csv", "openmetrics", NULL};

static const struct cli_opt export_opts[] = {
    CLI_OPT_TABLE(store_cli_opts, struct export_args, sc),
    CLI_OPT_FORMAT(struct export_args, format,
		   "what is printed: ndjson (reads back with ingest --input-format rows), csv,\n"
		   "or openmetrics (each series' newest value, change-point state and gate\n"
		   "verdict for Prometheus; docs/notify.md)",
		   "ndjson", export_formats),
    CLI_OPT_STRING("push", "URL", struct export_args, push,
		   "openmetrics: PUT the same to a Pushgateway URL (.../metrics/job/NAME)"),
    {.type = CLI_STRING,
     .name = "output",
     .short_name = 'o',
     .arg = "FILE",
     .off = offsetof(struct export_args, output),
     .help = "write to FILE instead of standard output"},
    CLI_OPT_END,
};

static const struct cli_spec export_spec =
    STORE_SPEC("export",
	       "assay store export [--format ndjson|csv] [filters] [-o FILE]\n"
	       "assay store export --format openmetrics [filters] [-o FILE] [--push URL]",
	       "Print the stored rows the filters select; with --format openmetrics, one sample\n"
	       "of each family per series instead (-o FILE: written to a temporary file, then\n"
	       "renamed, as node_exporter's textfile collector wants).\n",
	       export_opts, 0, 0, NULL);

/* --push: an http(s) URL without credentials (they would show in ps). */
static int check_push(const struct export_args *a)
{
	const char *u = a->push, *host = u ? strstr(u, "://") : NULL;
	if (!u)
		return ASSAY_OK;
	if (strcmp(a->format, "openmetrics"))
		return cli_usage_error("store export", "--push needs --format openmetrics");
	if (!host || (!assay_starts_with(u, "http://") && !assay_starts_with(u, "https://")))
		return cli_usage_error("store export",
				       "--push: expected an http:// or https:// URL");
	const char *slash = strchr(host + 3, '/'), *at = strchr(host + 3, '@');
	if (at && (!slash || at < slash))
		return cli_usage_error("store export",
				       "--push: a URL with credentials would show in ps and logs; "
				       "the Pushgateway's own auth is not supported");
	return ASSAY_OK;
}

/* --format openmetrics: to stdout, -o FILE (atomically) and/or --push URL. */
static int export_openmetrics(const struct export_args *a)
{
	struct assay_store *s;
	struct assay_series_list l = {0};
	struct assay_error e;
	const struct store_cli *sc = &a->sc;
	int rc = store_cli_open_series(sc, false, &s, &l);
	if (rc != ASSAY_OK)
		return rc;
	struct assay_detect_opts o;
	struct sbuf text = SBUF_INIT;
	size_t n = 0;
	char said[512];
	assay_detect_defaults(&o);
	if (assay_openmetrics(s, &l, &sc->filter, &o, &text, &n, &e) != ASSAY_OK)
		rc = cli_report(&e);
	if (rc == ASSAY_OK && !a->output && !a->push)
		fwrite(text.buf ? text.buf : "", 1, text.len, stdout);
	if (rc == ASSAY_OK && a->output) {
		if (assay_write_file_atomic(a->output, sbuf_str(&text), text.len, &e) != ASSAY_OK)
			rc = cli_report(&e);
		else
			fprintf(stderr, "%s: %zu series\n", a->output, n);
	}
	if (rc == ASSAY_OK && a->push) {
		if (assay_openmetrics_push(a->push, sbuf_str(&text), 10, said, sizeof(said), &e) !=
		    ASSAY_OK)
			rc = cli_report(&e);
		else
			fprintf(stderr, "pushed %zu series to the Pushgateway (%s)\n", n, said);
	}
	sbuf_release(&text);
	assay_series_list_release(&l);
	return store_cli_close(s, rc);
}

/* Print (or write to output) the rows the filters select. */
static int export_rows(const struct store_cli *sc, const char *format, const char *output)
{
	struct assay_store *s;
	int rc = store_cli_open(sc, false, &s);
	if (rc != ASSAY_OK)
		return rc;
	struct export_ctx x = {stdout, !strcmp(format, "csv"), SBUF_INIT, 0};
	if (output && !(x.out = fopen(output, "w"))) {
		sbuf_release(&x.sb);
		fprintf(stderr, "%s: cannot write: %s\n", output, strerror(errno));
		return store_cli_close(s, ASSAY_INFRA);
	}
	if (x.csv)
		fprintf(x.out, "series_key,metric,statistic,value,unit,direction,samples,revision,"
			       "timestamp,run_id,case_id,series\n");
	struct assay_error e;
	if (assay_store_rows(s, &sc->filter, export_row, &x, &e) != ASSAY_OK)
		rc = cli_report(&e);
	if (output && fclose(x.out) != 0 && rc == ASSAY_OK) {
		fprintf(stderr, "%s: cannot write: %s\n", output, strerror(errno));
		rc = ASSAY_INFRA;
	}
	if (rc == ASSAY_OK && output)
		fprintf(stderr, "%s: %lld rows\n", output, x.n);
	sbuf_release(&x.sb);
	return store_cli_close(s, rc);
}

static int store_export(int argc, char **argv)
{
	struct export_args a = {.format = "ndjson"};
	int first, rc = cli_parse(&export_spec, argc, argv, &a, &first);
	if (rc == ASSAY_OK)
		rc = check_push(&a);
	if (rc == ASSAY_OK && !strcmp(a.format, "openmetrics"))
		rc = export_openmetrics(&a);
	else if (rc == ASSAY_OK)
		rc = export_rows(&a.sc, a.format, a.output);
	store_cli_release(&a.sc);
	return rc < 0 ? ASSAY_OK : rc;
}

/* ---- series ---- */

struct series_args {
	struct store_cli sc;
	const char *format;
};

static const char *const series_formats[] = {"table", "json", NULL};

static const struct cli_opt series_opts[] = {
    CLI_OPT_TABLE(store_cli_opts, struct series_args, sc),
    CLI_OPT_FORMAT(struct series_args, format, "what is printed: table or json", "table",
		   series_formats),
    CLI_OPT_JSON,
    CLI_OPT_END,
};

static const struct cli_spec series_spec =
    STORE_SPEC("series", "assay store series [filters] [--format table|json]",
	       "List the series the filters select, with their row count and last value.\n",
	       series_opts, 0, 0, NULL);

static void print_series(struct assay_series_list *l, bool json)
{
	if (json) {
		json_t *arr = assay_series_list_json(l);
		char *t = assay_json_dumps(arr, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
		printf("%s\n", t);
		free(t);
		json_decref(arr);
		return;
	}
	printf("%-12s %6s %12s %-12s %-12s %s\n", "series", "rows", "last", "unit", "revision",
	       "identity");
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < l->n; i++) {
		const struct assay_series_info *si = &l->v[i];
		sbuf_reset(&sb);
		store_cli_series_label(si->fields, &sb);
		printf("%-12.12s %6lld %12.6g %-12s %-12.12s %s\n", si->key, si->count,
		       si->last_value, si->unit, si->last_revision ? si->last_revision : "-",
		       sbuf_str(&sb));
	}
	sbuf_release(&sb);
}

static int store_series(int argc, char **argv)
{
	struct series_args a = {.format = "table"};
	int first, rc = cli_parse(&series_spec, argc, argv, &a, &first);
	if (rc) {
		store_cli_release(&a.sc);
		return rc < 0 ? ASSAY_OK : rc;
	}
	struct assay_store *s;
	struct assay_series_list l = {0};
	rc = store_cli_open_series(&a.sc, false, &s, &l);
	if (rc == ASSAY_OK) {
		print_series(&l, !strcmp(a.format, "json"));
		assay_series_list_release(&l);
		rc = store_cli_close(s, rc);
	}
	store_cli_release(&a.sc);
	return rc;
}

/* ---- runs ---- */

struct runs_args {
	struct store_cli sc;
	long long limit;
};

static const struct cli_opt runs_opts[] = {
    CLI_OPT_TABLE(store_cli_path_opts, struct runs_args, sc),
    {.type = CLI_INT,
     .name = "limit",
     .arg = "N",
     .off = offsetof(struct runs_args, limit),
     .help = "list at most N runs (0 for all)",
     .def = "20",
     .min = 0},
    CLI_OPT_END,
};

static const struct cli_spec runs_spec = STORE_SPEC(
    "runs", "assay store runs [--limit N]", "List runs, newest first.\n", runs_opts, 0, 0, NULL);

static int store_runs(int argc, char **argv)
{
	struct runs_args a = {.limit = 20};
	struct store_cli *sc = &a.sc;
	int first, rc = cli_parse(&runs_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	long long limit = a.limit;
	struct assay_store *s;
	if ((rc = store_cli_open(sc, false, &s)) != ASSAY_OK)
		return rc;
	struct assay_run_list l = {0};
	struct assay_error e;
	if (assay_store_runs(s, (size_t)limit, &l, &e) != ASSAY_OK) {
		rc = cli_report(&e);
	} else {
		printf("%-24s %-12s %-8s %-20s %-16s %11s %8s\n", "run", "suite", "launcher",
		       "started", "outcome", "cases", "rows");
		for (size_t i = 0; i < l.n; i++) {
			const struct assay_run_summary *r = &l.v[i];
			char cases[32];
			snprintf(cases, sizeof(cases), "%lld/%lld", r->finished, r->cases);
			printf("%-24s %-12s %-8s %-20s %-16s %11s %8lld\n", r->run_id,
			       r->suite ? r->suite : "-", r->launcher ? r->launcher : "-",
			       r->started,
			       r->exit_code < 0 ? (r->ended ? "-" : "not ended")
						: assay_strerror((assay_err)r->exit_code),
			       cases, r->rows);
		}
	}
	assay_run_list_release(&l);
	return store_cli_close(s, rc);
}

/* ---- annotate ---- */

struct annotate_args {
	struct store_cli sc;
	const char *revision, *kind, *note;
	bool remove, list;
};

static const struct cli_opt annotate_opts[] = {
    CLI_OPT_TABLE(store_cli_opts, struct annotate_args, sc),
    CLI_OPT_STRING("revision", "R", struct annotate_args, revision, "the revision annotated"),
    CLI_OPT_STRING("kind", "K", struct annotate_args, kind,
		   "ack: a known change no longer fails regression gates; ignore: the\n"
		   "point is left out of detection; expected: a planned change, reported only"),
    CLI_OPT_STRING("note", "TEXT", struct annotate_args, note, "why"),
    CLI_OPT_FLAG("remove", struct annotate_args, remove, "remove the annotation instead"),
    CLI_OPT_FLAG("list", struct annotate_args, list, "list the annotations of the series"),
    CLI_OPT_END,
};

static const struct cli_spec annotate_spec = STORE_SPEC(
    "annotate",
    "assay store annotate [filters] --revision R --kind ack|ignore|expected [--note TEXT]\n"
    "assay store annotate [filters] --revision R --kind K --remove\n"
    "assay store annotate --list [filters]",
    "Annotate a revision of the series the filters select (or list their annotations).\n",
    annotate_opts, 0, 0, NULL);

/* "--series K --match F=V" as given, for messages. */
static char *filter_text(const struct assay_series_filter *f)
{
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < f->keys.n; i++)
		sbuf_addf(&sb, "%s--series %s", sb.len ? " " : "", f->keys.v[i]);
	for (size_t i = 0; i < f->match.n; i++)
		sbuf_addf(&sb, "%s--match %s", sb.len ? " " : "", f->match.v[i]);
	return sbuf_detach(&sb, NULL);
}

/* An annotation names a revision of the series: refuse (exit 2) when none
 * of them has a point at it (a mistyped revision would be kept silently). */
static int annotate_check_revision(struct assay_store *s, const struct assay_series_list *l,
				   const struct annotate_args *a)
{
	struct assay_error e;
	for (size_t i = 0; i < l->n; i++) {
		bool has;
		if (assay_store_series_has_revision(s, l->v[i].key, a->revision, &has, &e) !=
		    ASSAY_OK)
			return cli_report(&e);
		if (has)
			return ASSAY_OK;
	}
	char *f = filter_text(&a->sc.filter);
	int rc = l->n == 1 ? cli_usage_error("store",
					     "annotate: the series %s selects has no point at "
					     "revision '%s'",
					     f, a->revision)
			   : cli_usage_error("store",
					     "annotate: none of the %zu series %s selects has a "
					     "point at revision '%s'",
					     l->n, f, a->revision);
	free(f);
	return rc;
}

/* Annotate, remove or list, series by series. */
static int annotate_series(struct assay_store *s, const struct assay_series_list *l,
			   const struct annotate_args *a, int kind)
{
	struct assay_error e;
	int rc = ASSAY_OK;
	for (size_t i = 0; i < l->n && rc == ASSAY_OK; i++) {
		const char *key = l->v[i].key;
		if (a->list) {
			struct assay_annotations an = {0};
			if (assay_store_annotations(s, key, &an, &e) != ASSAY_OK)
				rc = cli_report(&e);
			for (size_t j = 0; j < an.n; j++)
				printf("%.12s %-12s %-8s %s\n", key, an.v[j].revision,
				       assay_annotation_kind_name(an.v[j].kind),
				       an.v[j].note ? an.v[j].note : "");
			assay_annotations_release(&an);
		} else if (a->remove) {
			bool removed;
			if (assay_store_unannotate(s, key, a->revision, kind, &removed, &e) !=
			    ASSAY_OK)
				rc = cli_report(&e);
			else
				printf("%.12s %s %s: %s\n", key, a->revision, a->kind,
				       removed ? "removed" : "was not there");
		} else {
			if (assay_store_annotate(s, key, a->revision, kind, a->note, &e) !=
			    ASSAY_OK)
				rc = cli_report(&e);
			else
				printf("%.12s %s %s\n", key, a->revision, a->kind);
		}
	}
	return rc;
}

static int store_annotate(int argc, char **argv)
{
	struct annotate_args a = {0};
	struct store_cli *sc = &a.sc;
	int first, rc = cli_parse(&annotate_spec, argc, argv, &a, &first);
	int kind = -1;
	if (rc == ASSAY_OK && !a.list) {
		if (!sc->filter.keys.n && !sc->filter.match.n)
			rc = cli_usage_error("store",
					     "annotate: say which series with --series or --match");
		else if (!a.revision || !a.kind)
			rc = cli_usage_error("store",
					     "annotate: --revision and --kind are required");
		else if ((kind = assay_annotation_kind_parse(a.kind)) < 0)
			rc = cli_usage_error(
			    "store", "annotate: --kind '%s': expected ack, ignore or expected",
			    a.kind);
	}
	struct assay_store *s = NULL;
	struct assay_series_list l = {0};
	if (rc == ASSAY_OK)
		rc = store_cli_open_series(sc, !a.list, &s, &l);
	if (rc == ASSAY_OK && !a.list && !l.n)
		rc = cli_usage_error("store", "annotate: no series matches");
	/* An expected change may be annotated before its revision runs. */
	if (rc == ASSAY_OK && !a.list && !a.remove && !(a.kind && !strcmp(a.kind, "expected")))
		rc = annotate_check_revision(s, &l, &a);
	if (rc == ASSAY_OK)
		rc = annotate_series(s, &l, &a, kind);
	assay_series_list_release(&l);
	store_cli_release(sc);
	if (s)
		rc = store_cli_close(s, rc);
	return rc < 0 ? ASSAY_OK : rc;
}

/* ---- ingests and forget ---- */

struct ingests_args {
	struct store_cli sc;
	const char *format;
};

static const char *const ingests_formats[] = {"table", "json", "csv", NULL};

static const struct cli_opt ingests_opts[] = {
    CLI_OPT_TABLE(store_cli_path_opts, struct ingests_args, sc),
    CLI_OPT_FORMAT(struct ingests_args, format, "what is printed: table, json or csv", "table",
		   ingests_formats),
    CLI_OPT_JSON,
    CLI_OPT_END,
};

static const struct cli_spec ingests_spec = STORE_SPEC(
    "ingests", "assay store ingests [--format table|json|csv]",
    "List the files `store ingest` stored, oldest first: the ingest id (what `store\n"
    "forget` takes), when, rows, format, sha256 prefix, run and file. An ingest taken\n"
    "back by `store forget` stays listed, marked forgotten, with when, by whom and why.\n",
    ingests_opts, 0, 0, NULL);

static json_t *ingest_json(const struct assay_ingest_record *r)
{
	json_t *o =
	    json_pack("{s:I, s:s, s:s, s:s, s:s, s:I, s:s}", "id", (json_int_t)r->id, "ingested",
		      r->ingested, "file", r->file, "format", r->format, "sha256", r->sha256,
		      "rows", (json_int_t)r->rows, "run_id", r->run_id);
	json_object_set_new(o, "forgotten",
			    r->forgotten
				? json_pack("{s:s, s:s, s:s, s:s?}", "when", r->forgotten, "user",
					    r->by_user, "host", r->by_host, "note", r->note)
				: json_null());
	return o;
}

static void ingest_csv(const struct assay_ingest_record *r)
{
	printf("%lld,%s,", r->id, r->ingested);
	store_cli_csv(stdout, r->file);
	printf(",%s,%s,%lld,%s,%s,", r->format, r->sha256, r->rows, r->run_id,
	       r->forgotten ? r->forgotten : "");
	store_cli_csv(stdout, r->by_user);
	fputc(',', stdout);
	store_cli_csv(stdout, r->by_host);
	fputc(',', stdout);
	store_cli_csv(stdout, r->note);
	fputc('\n', stdout);
}

static void ingest_line(const struct assay_ingest_record *r)
{
	printf("%6lld  %-20s %8lld  %-14s %-12.12s  %-24s %s\n", r->id, r->ingested, r->rows,
	       r->format, r->sha256, r->run_id, r->file);
	if (r->forgotten)
		printf("%6s  forgotten %s by %s@%s%s%s\n", "", r->forgotten, r->by_user, r->by_host,
		       r->note ? ": " : "", r->note ? r->note : "");
}

static void print_ingests(const struct assay_ingest_list *l, const char *format)
{
	if (!strcmp(format, "json")) {
		json_t *arr = json_array();
		for (size_t i = 0; i < l->n; i++)
			json_array_append_new(arr, ingest_json(&l->v[i]));
		char *t = assay_json_dumps(arr, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
		printf("%s\n", t);
		free(t);
		json_decref(arr);
		return;
	}
	bool csv = !strcmp(format, "csv");
	if (csv)
		printf("id,ingested,file,format,sha256,rows,run_id,forgotten,user,host,note\n");
	else
		printf("%6s  %-20s %8s  %-14s %-12s  %-24s %s\n", "ingest", "ingested", "rows",
		       "format", "sha256", "run", "file");
	for (size_t i = 0; i < l->n; i++)
		(csv ? ingest_csv : ingest_line)(&l->v[i]);
}

static int store_ingests(int argc, char **argv)
{
	struct ingests_args a = {.format = "table"};
	int first, rc = cli_parse(&ingests_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	struct assay_store *s;
	if ((rc = store_cli_open(&a.sc, false, &s)) != ASSAY_OK)
		return rc;
	struct assay_ingest_list l = {0};
	struct assay_error e;
	if (assay_store_ingests(s, &l, &e) != ASSAY_OK)
		rc = cli_report(&e);
	else
		print_ingests(&l, a.format);
	assay_ingest_list_release(&l);
	return store_cli_close(s, rc);
}

struct forget_args {
	struct store_cli sc;
	const char *note;
};

static const struct cli_opt forget_opts[] = {
    CLI_OPT_TABLE(store_cli_path_opts, struct forget_args, sc),
    CLI_OPT_STRING("note", "TEXT", struct forget_args, note, "why (kept with the record)"),
    CLI_OPT_END,
};

static const struct cli_spec forget_spec =
    STORE_SPEC("forget", "assay store forget [--note TEXT] INGEST",
	       "Take back one ingest (INGEST: its id or run id, as `store ingests` lists them):\n"
	       "its run and rows are deleted, in one transaction, so detect, history, report and\n"
	       "export no longer see them, and the same file may be ingested again. The store\n"
	       "keeps a record of it: what it was, when it was forgotten, by whom and why.\n",
	       forget_opts, 1, 1, "ingest");

/* Who forgets: the user name (or uid) and the host. */
static void forget_who(char user[64], char host[256])
{
	struct passwd *pw = getpwuid(geteuid());
	if (pw && pw->pw_name && *pw->pw_name)
		snprintf(user, 64, "%s", pw->pw_name);
	else
		snprintf(user, 64, "%lu", (unsigned long)geteuid());
	if (gethostname(host, 256) != 0 || !*host)
		snprintf(host, 256, "unknown");
	host[255] = '\0';
}

static int store_forget(int argc, char **argv)
{
	struct forget_args a = {0};
	int first, rc = cli_parse(&forget_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	/* A writable open: the store must exist (and is migrated to schema 8). */
	struct assay_store *s;
	struct assay_error e;
	const char *path = a.sc.path ? a.sc.path : ASSAY_STORE_DEFAULT_PATH;
	if (assay_store_open(path, 0, &s, &e) != ASSAY_OK)
		return cli_report(&e);
	char user[64], host[256];
	forget_who(user, host);
	struct assay_ingest_record r = {0};
	if (assay_store_forget(s, argv[first], user, host, a.note, &r, &e) != ASSAY_OK) {
		rc = cli_report(&e);
	} else {
		printf("ingest %lld forgotten: %s (%s, %lld rows, run %s)\n", r.id, r.file,
		       r.format, r.rows, r.run_id);
		assay_ingest_record_release(&r);
	}
	return store_cli_close(s, rc);
}

/* ---- check ---- */

static const struct cli_opt path_opts[] = {
    {.type = CLI_TABLE, .sub = store_cli_path_opts},
    CLI_OPT_END,
};

static const struct cli_spec check_spec =
    STORE_SPEC("check", "assay store check [--store PATH]",
	       "Verify the database: integrity, foreign keys, no rows of unfinished cases.\n",
	       path_opts, 0, 0, NULL);

static int store_check(int argc, char **argv)
{
	struct store_cli c = {0}, *sc = &c;
	int first, rc = cli_parse(&check_spec, argc, argv, &c, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	struct assay_store *s;
	if ((rc = store_cli_open(sc, false, &s)) != ASSAY_OK)
		return rc;
	struct assay_error e;
	if (assay_store_verify(s, &e) != ASSAY_OK)
		rc = cli_report(&e);
	else
		printf("%s: ok (schema version %d)\n", assay_store_path(s),
		       assay_store_schema_version(s));
	return store_cli_close(s, rc);
}

/* ---- migrate ---- */

static const struct cli_spec migrate_spec =
    STORE_SPEC("migrate", "assay store migrate [--store PATH]",
	       "Bring a store written by an older assay to this schema version (reading commands\n"
	       "read versions 2 and 3 as they are; writing commands migrate on open) and merge\n"
	       "series that differ only in a precision or scale alias.\n",
	       path_opts, 0, 0, NULL);

static int store_migrate_cmd(int argc, char **argv)
{
	struct store_cli c = {0}, *sc = &c;
	int first, rc = cli_parse(&migrate_spec, argc, argv, &c, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	/* A writable open migrates; the store must exist. */
	struct assay_store *s;
	struct assay_error e;
	const char *path = sc->path ? sc->path : ASSAY_STORE_DEFAULT_PATH;
	if (assay_store_open(path, 0, &s, &e) != ASSAY_OK)
		return cli_report(&e);
	long merged = 0;
	if (assay_store_merge_aliases(s, &merged, &e) != ASSAY_OK)
		return store_cli_close(s, cli_report(&e));
	printf("%s: schema version %d\n", assay_store_path(s), assay_store_schema_version(s));
	if (merged)
		printf("%s: %ld series renamed or merged to canonical precision and scale names\n",
		       assay_store_path(s), merged);
	return store_cli_close(s, ASSAY_OK);
}

static const struct cli_spec *const store_subs[] = {
    &ingest_spec,   &export_spec, &series_spec,  &runs_spec,       &ingests_spec, &forget_spec,
    &annotate_spec, &check_spec,  &migrate_spec, &store_copy_spec, NULL,
};

const struct cli_spec cmd_store_spec = {
    .name = "store",
    .usage = "assay store <subcommand> [--store PATH] [options]",
    .about = "The results store: one SQLite file (default ./assay.db) holding runs, cases,\n"
	     "measurement rows, series and annotations (docs/store.md). Subcommands: ingest,\n"
	     "export, series, runs, ingests, forget, annotate, check, migrate, copy; each\n"
	     "one's help follows, and `assay store SUB --help` prints only SUB's. filters:\n"
	     "--series KEY[,KEY] (a key or a prefix of 8+ hex digits), --match FIELD=VALUE\n"
	     "(repeatable), --since DATE (rows at or after), --until DATE (rows at or\n"
	     "before), --last N (each series' N newest rows).\n",
    .subs = store_subs,
    .examples = "assay store ingest --cluster mi300x-a perf.csv\n"
		"assay store series --match precision=fp8\n"
		"assay store annotate --series 3fa9c2d1 --revision 77aa01c --kind ack --note 'new "
		"kernel'",
    .exits = "Exit codes: 0 done, 2 bad arguments or input (nothing written), 4 a file held no\n"
	     "measurements, 5 the store failed. See docs/store.md.\n",
};

int cmd_store(int argc, char **argv)
{
	static int (*const run[])(int, char **) = {
	    store_ingest, store_export,   store_series, store_runs,        store_ingests,
	    store_forget, store_annotate, store_check,  store_migrate_cmd, store_copy_cmd,
	};
	if (argc < 2)
		return cli_usage_error("store",
				       "expected a subcommand: ingest, export, series, runs, "
				       "ingests, forget, annotate, check, migrate or copy");
	for (size_t i = 0; i < ARRAY_SIZE(run); i++)
		if (!strcmp(argv[1], store_subs[i]->sub_name))
			return run[i](argc - 1, argv + 1);
	return cli_usage_error("store",
			       "unknown subcommand '%s' (ingest, export, series, runs, "
			       "ingests, forget, annotate, check, migrate, copy)",
			       argv[1]);
}
