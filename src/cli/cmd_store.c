/* assay store: the results store's subcommands: ingest result files of the
 * known formats, export rows, list series and runs, annotate series, check
 * the database. The schema is in docs/store.md. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/store.h"
#include "cli.h"
#include "store_cli.h"

const char cmd_store_help[] =
    "usage: assay store <subcommand> [--store PATH] [options]\n"
    "\n"
    "The results store: one SQLite file (default ./assay.db) holding runs, cases,\n"
    "measurement rows, series and annotations (docs/store.md).\n"
    "\n"
    "subcommands:\n"
    "  ingest [--format F] [identity] [--revision R] [--suite S] [--replace] [--force] FILE...\n"
    "      read result files into the store, one transaction (and one run) per file.\n"
    "      Rows already stored (same series, run id, revision, timestamp) are counted,\n"
    "      not stored again; a different value under a stored row is an error unless\n"
    "      --replace. --force stores rows without an identity from the same bytes again.\n"
    "      Formats: rows, madengine-csv, madengine-super, multiple-results, rccl-ci,\n"
    "      nccl-tests (docs/ingest.md); without --format the content decides.\n"
    "      identity: --cluster NAME --scale SCALE --precision P fill series fields the\n"
    "      data lacks, --set FIELD=VALUE overrides one (every series needs cluster,\n"
    "      scale and precision; SCALE: 2x8, 2N/16GPU or a GPU count). --lower-is-better / "
    "--higher-is-better METRIC override the\n"
    "      direction guessed from a metric's name.\n"
    "  export [--format ndjson|csv] [filters] [-o FILE]\n"
    "      print stored rows (ndjson reads back with ingest --format rows)\n"
    "  series [filters] [--format table|json]\n"
    "      list series with their row count and last value\n"
    "  runs [--limit N]\n"
    "      list runs, newest first\n"
    "  annotate [filters] --revision R --kind ack|ignore|expected [--note TEXT]\n"
    "  annotate [filters] --revision R --kind K --remove\n"
    "  annotate --list [filters]\n"
    "      ack: a known change no longer fails regression gates; ignore: the point\n"
    "      is left out of detection; expected: a planned change, reported only\n"
    "  check\n"
    "      verify the database (integrity, foreign keys, no rows of unfinished cases)\n"
    "  migrate\n"
    "      bring a store written by an older assay to this schema version (reading\n"
    "      commands read versions 2 and 3 as they are; writing commands migrate on\n"
    "      open) and merge series that differ only in a precision or scale alias\n"
    "\n"
    "filters: --series KEY[,KEY] (a key or a prefix of 8+ hex digits),\n"
    "         --match FIELD=VALUE (repeatable), --since DATE (rows at or after)\n"
    "\n"
    "examples:\n"
    "  assay store ingest --cluster mi300x-a perf.csv\n"
    "  assay store series --match precision=fp8\n"
    "  assay store annotate --series 3fa9c2d1 --revision 77aa01c --kind ack --note 'new kernel'\n"
    "\n"
    "Exit codes: 0 done, 2 bad arguments or input (nothing written), 4 a file held no\n"
    "measurements, 5 the store failed. See docs/store.md.\n";

enum {
	O_FORMAT = PO_NEXT,
	O_REVISION,
	O_SUITE,
	O_FORCE,
	O_OUTPUT,
	O_LIMIT,
	O_KIND,
	O_NOTE,
	O_REMOVE,
	O_LIST,
	O_REPLACE,
};

/* Reset getopt for a subcommand's own argument vector. */
static void getopt_reset(void)
{
	optind = 0;
	opterr = 0;
}

static int unknown_option(const char *sub, char **argv)
{
	return cli_usage_error("store", "%s: unknown option or missing value: '%s'", sub,
			       argv[optind - 1]);
}

/* ---- ingest ---- */

/* Store one parsed file inside the open batch; its line goes in report. */
static int ingest_file(struct assay_store *s, const struct parsed_file *pf, const char *suite,
		       bool force, bool replace, struct sbuf *report, bool *no_rows)
{
	struct assay_error e;
	struct assay_ingest_info ii = {.file = pf->path,
				       .format = pf->format->name,
				       .sha256 = pf->sha256,
				       .suite = suite,
				       .force = force,
				       .replace = replace};
	struct assay_ingest_result res;
	if (!pf->rows.n) {
		sbuf_addf(report, "%s: %s, no measurement rows\n", pf->path, pf->format->name);
		*no_rows = true;
		return ASSAY_OK;
	}
	if (assay_store_ingest_rows(s, &ii, &pf->rows, &res, &e) != ASSAY_OK)
		return cli_report(&e);
	sbuf_addf(report, "%s: %s, %zu new, %zu already present", pf->path, pf->format->name,
		  res.added, res.present);
	if (res.replaced)
		sbuf_addf(report, ", %zu replaced", res.replaced);
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

static int store_ingest(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    PARSE_CLI_OPTIONS,
	    {"format", required_argument, NULL, PO_FORMAT},
	    {"suite", required_argument, NULL, O_SUITE},
	    {"force", no_argument, NULL, O_FORCE},
	    {"replace", no_argument, NULL, O_REPLACE},
	    {NULL, 0, NULL, 0},
	};
	struct parse_cli pc;
	const char *suite = NULL;
	bool force = false, replace = false;
	int rc = ASSAY_OK, opt;
	parse_cli_init(&pc);
	getopt_reset();
	while (rc == ASSAY_OK && (opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int handled;
		if (store_cli_option(sc, opt, optarg))
			continue;
		if ((handled = parse_cli_option("store", &pc, opt, optarg)) == 1)
			continue;
		if (handled)
			rc = handled;
		else if (opt == O_SUITE)
			suite = optarg;
		else if (opt == O_FORCE)
			force = true;
		else if (opt == O_REPLACE)
			replace = true;
		else
			rc = unknown_option("ingest", argv);
	}
	int nfiles = argc - optind;
	if (rc == ASSAY_OK && nfiles < 1)
		rc = cli_usage_error("store", "ingest: expected one or more files");
	if (rc == ASSAY_OK && sc->filter.keys.n + sc->filter.match.n)
		rc = cli_usage_error("store", "ingest: --series and --match do not apply");
	/* All files go in one batch: a bad file anywhere leaves the store's
	 * contents as they were. The store is opened (created) once the first
	 * file has been read, so a bad first file creates nothing. */
	struct assay_store *s = NULL;
	struct assay_error e;
	struct sbuf report = SBUF_INIT;
	bool no_rows = false;
	struct parse_pool *pool =
	    rc == ASSAY_OK ? parse_pool_start("store", &pc, nfiles, argv + optind) : NULL;
	for (int i = 0; rc == ASSAY_OK && i < nfiles; i++) {
		struct parsed_file *pf;
		rc = parse_pool_get(pool, i, &pf);
		if (rc == ASSAY_OK && !s && (rc = store_cli_open(sc, true, &s)) == ASSAY_OK &&
		    assay_store_batch_begin(s, &e) != ASSAY_OK)
			rc = cli_report(&e);
		if (rc == ASSAY_OK)
			rc = ingest_file(s, pf, suite, force, replace, &report, &no_rows);
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
	parse_cli_release(&pc);
	return s ? store_cli_close(s, rc) : rc;
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

static int store_export(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    {"format", required_argument, NULL, O_FORMAT},
	    {"output", required_argument, NULL, O_OUTPUT},
	    {NULL, 0, NULL, 0},
	};
	const char *format = "ndjson", *output = NULL;
	int opt;
	getopt_reset();
	while ((opt = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (store_cli_option(sc, opt, optarg))
			continue;
		if (opt == O_FORMAT)
			format = optarg;
		else if (opt == O_OUTPUT || opt == 'o')
			output = optarg;
		else
			return unknown_option("export", argv);
	}
	if (optind != argc)
		return cli_usage_error("store", "export: unexpected argument '%s'", argv[optind]);
	static const char *const formats[] = {"ndjson", "csv", NULL};
	if (store_cli_format("store", "export", format, formats) != ASSAY_OK)
		return ASSAY_USAGE;
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

/* ---- series ---- */

static int store_series(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    {"format", required_argument, NULL, O_FORMAT},
	    {NULL, 0, NULL, 0},
	};
	const char *format = "table";
	int opt;
	getopt_reset();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (store_cli_option(sc, opt, optarg))
			continue;
		if (opt == O_FORMAT)
			format = optarg;
		else
			return unknown_option("series", argv);
	}
	if (optind != argc)
		return cli_usage_error("store", "series: unexpected argument '%s'", argv[optind]);
	static const char *const formats[] = {"table", "json", NULL};
	if (store_cli_format("store", "series", format, formats) != ASSAY_OK)
		return ASSAY_USAGE;
	struct assay_store *s;
	struct assay_series_list l = {0};
	int rc = store_cli_open_series(sc, false, &s, &l);
	if (rc != ASSAY_OK)
		return rc;
	if (!strcmp(format, "json")) {
		json_t *arr = json_array();
		for (size_t i = 0; i < l.n; i++) {
			const struct assay_series_info *si = &l.v[i];
			json_array_append_new(
			    arr,
			    json_pack("{s:s, s:O, s:s, s:s, s:I, s:f, s:s?, s:s?}", "series_key",
				      si->key, "series", si->fields, "unit", si->unit, "direction",
				      assay_direction_name(si->direction), "count",
				      (json_int_t)si->count, "last_value", si->last_value,
				      "last_revision", si->last_revision, "last_timestamp",
				      si->last_timestamp));
		}
		char *t = assay_json_dumps(arr, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
		printf("%s\n", t);
		free(t);
		json_decref(arr);
	} else {
		printf("%-12s %6s %12s %-12s %-12s %s\n", "series", "rows", "last", "unit",
		       "revision", "identity");
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < l.n; i++) {
			const struct assay_series_info *si = &l.v[i];
			sbuf_reset(&sb);
			store_cli_series_label(si->fields, &sb);
			printf("%-12.12s %6lld %12.6g %-12s %-12.12s %s\n", si->key, si->count,
			       si->last_value, si->unit,
			       si->last_revision ? si->last_revision : "-", sbuf_str(&sb));
		}
		sbuf_release(&sb);
	}
	assay_series_list_release(&l);
	return store_cli_close(s, rc);
}

/* ---- runs ---- */

static int store_runs(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    {"limit", required_argument, NULL, O_LIMIT},
	    {NULL, 0, NULL, 0},
	};
	long long limit = 20;
	int opt;
	getopt_reset();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == SO_STORE) {
			sc->path = optarg;
		} else if (opt == O_LIMIT) {
			if (!assay_parse_long(optarg, &limit) || limit < 0)
				return cli_usage_error("store",
						       "runs: --limit '%s': expected a count "
						       "(0 for all)",
						       optarg);
		} else {
			return unknown_option("runs", argv);
		}
	}
	if (optind != argc)
		return cli_usage_error("store", "runs: unexpected argument '%s'", argv[optind]);
	struct assay_store *s;
	int rc = store_cli_open(sc, false, &s);
	if (rc != ASSAY_OK)
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

static int store_annotate(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {
	    STORE_CLI_OPTIONS,
	    {"revision", required_argument, NULL, O_REVISION},
	    {"kind", required_argument, NULL, O_KIND},
	    {"note", required_argument, NULL, O_NOTE},
	    {"remove", no_argument, NULL, O_REMOVE},
	    {"list", no_argument, NULL, O_LIST},
	    {NULL, 0, NULL, 0},
	};
	const char *revision = NULL, *kind_name = NULL, *note = NULL;
	bool remove = false, list = false;
	int opt;
	getopt_reset();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (store_cli_option(sc, opt, optarg))
			continue;
		switch (opt) {
		case O_REVISION: revision = optarg; break;
		case O_KIND: kind_name = optarg; break;
		case O_NOTE: note = optarg; break;
		case O_REMOVE: remove = true; break;
		case O_LIST: list = true; break;
		default: return unknown_option("annotate", argv);
		}
	}
	if (optind != argc)
		return cli_usage_error("store", "annotate: unexpected argument '%s'", argv[optind]);
	int kind = -1;
	if (!list) {
		if (!sc->filter.keys.n && !sc->filter.match.n)
			return cli_usage_error("store",
					       "annotate: say which series with --series or "
					       "--match");
		if (!revision || !kind_name)
			return cli_usage_error("store",
					       "annotate: --revision and --kind are required");
		if ((kind = assay_annotation_kind_parse(kind_name)) < 0)
			return cli_usage_error("store",
					       "annotate: --kind '%s': expected ack, ignore or "
					       "expected",
					       kind_name);
	}
	struct assay_store *s;
	struct assay_series_list l = {0};
	struct assay_error e;
	int rc = store_cli_open_series(sc, !list, &s, &l);
	if (rc != ASSAY_OK)
		return rc;
	if (!list && !l.n) {
		rc = cli_usage_error("store", "annotate: no series matches");
		goto out;
	}
	for (size_t i = 0; i < l.n && rc == ASSAY_OK; i++) {
		const char *key = l.v[i].key;
		if (list) {
			struct assay_annotations a = {0};
			if (assay_store_annotations(s, key, &a, &e) != ASSAY_OK)
				rc = cli_report(&e);
			for (size_t j = 0; j < a.n; j++)
				printf("%.12s %-12s %-8s %s\n", key, a.v[j].revision,
				       assay_annotation_kind_name(a.v[j].kind),
				       a.v[j].note ? a.v[j].note : "");
			assay_annotations_release(&a);
		} else if (remove) {
			bool removed;
			if (assay_store_unannotate(s, key, revision, kind, &removed, &e) !=
			    ASSAY_OK)
				rc = cli_report(&e);
			else
				printf("%.12s %s %s: %s\n", key, revision, kind_name,
				       removed ? "removed" : "was not there");
		} else {
			if (assay_store_annotate(s, key, revision, kind, note, &e) != ASSAY_OK)
				rc = cli_report(&e);
			else
				printf("%.12s %s %s\n", key, revision, kind_name);
		}
	}
out:
	assay_series_list_release(&l);
	return store_cli_close(s, rc);
}

/* ---- check ---- */

static int store_check(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {STORE_CLI_OPTIONS, {NULL, 0, NULL, 0}};
	int opt;
	getopt_reset();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1)
		if (opt != SO_STORE || !store_cli_option(sc, opt, optarg))
			return unknown_option("check", argv);
	if (optind != argc)
		return cli_usage_error("store", "check: unexpected argument '%s'", argv[optind]);
	struct assay_store *s;
	int rc = store_cli_open(sc, false, &s);
	if (rc != ASSAY_OK)
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

static int store_migrate_cmd(int argc, char **argv, struct store_cli *sc)
{
	static const struct option opts[] = {STORE_CLI_OPTIONS, {NULL, 0, NULL, 0}};
	int opt;
	getopt_reset();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1)
		if (opt != SO_STORE || !store_cli_option(sc, opt, optarg))
			return unknown_option("migrate", argv);
	if (optind != argc)
		return cli_usage_error("store", "migrate: unexpected argument '%s'", argv[optind]);
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

int cmd_store(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **, struct store_cli *);
	} subs[] = {
	    {"ingest", store_ingest},       {"export", store_export},     {"series", store_series},
	    {"runs", store_runs},           {"annotate", store_annotate}, {"check", store_check},
	    {"migrate", store_migrate_cmd},
	};
	if (argc < 2)
		return cli_usage_error("store",
				       "expected a subcommand: ingest, export, series, runs, "
				       "annotate, check or migrate");
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[1], subs[i].name)) {
			struct store_cli sc = {0};
			int rc = subs[i].run(argc - 1, argv + 1, &sc);
			store_cli_release(&sc);
			return rc;
		}
	return cli_usage_error("store",
			       "unknown subcommand '%s' (ingest, export, series, runs, "
			       "annotate, check, migrate)",
			       argv[1]);
}
