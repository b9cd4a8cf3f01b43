/* assay store copy FROM TO: a whole history from one store into a new or
 * empty one, between SQLite files and PostgreSQL databases either way. */
#include <stdio.h>

#include "assay/store.h"
#include "cli.h"
#include "opt.h"
#include "store_cli.h"

static const struct cli_opt copy_opts[] = {
    CLI_OPT_END,
};

const struct cli_spec store_copy_spec = {
    .name = "store",
    .sub_name = "copy",
    .usage = "assay store copy FROM TO",
    .about = "Copy every run, case, verdict, series, row, annotation and ingest of store FROM\n"
	     "into TO, a new or empty store, keeping their ids: from an SQLite file to a\n"
	     "PostgreSQL database (postgresql://..., postgres://..., service=...) or back. TO\n"
	     "commits once: a copy that fails leaves it as it was. FROM must be at this\n"
	     "assay's schema version (assay store migrate).\n",
    .opts = copy_opts,
    .min_args = 2,
    .max_args = 2,
    .args_what = "FROM TO",
};

int store_copy_cmd(int argc, char **argv)
{
	int first, rc = cli_parse(&store_copy_spec, argc, argv, NULL, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	struct assay_store *from = NULL, *to = NULL;
	struct assay_error e;
	if (assay_store_open(argv[first], ASSAY_STORE_READONLY, &from, &e) != ASSAY_OK)
		return cli_report(&e);
	int v = assay_store_schema_version(from);
	if (v != ASSAY_STORE_SCHEMA_VERSION) {
		fprintf(stderr,
			"assay store copy: %s: schema version %d; run 'assay store migrate --store "
			"%s' first\n",
			assay_store_path(from), v, assay_store_path(from));
		return store_cli_close(from, ASSAY_USAGE);
	}
	if (assay_store_open(argv[first + 1], ASSAY_STORE_CREATE, &to, &e) != ASSAY_OK)
		return store_cli_close(from, cli_report(&e));
	struct assay_copy_counts n;
	if (assay_store_copy(from, to, &n, &e) != ASSAY_OK) {
		rc = cli_report(&e);
	} else {
		printf(
		    "%s -> %s: %lld runs, %lld series, %lld measurement rows (%lld rows in all)\n",
		    assay_store_path(from), assay_store_path(to), n.runs, n.series, n.rows,
		    n.total);
	}
	store_cli_close(from, ASSAY_OK);
	return store_cli_close(to, rc);
}
