/* assay report: write report.html, junit.xml and summary.md for a stored run
 * from the store and the run's output folder only (docs/report.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/report.h"
#include "assay/store.h"
#include "cli.h"
#include "opt.h"

struct report_args {
	struct assay_report_source src;
};

static const struct cli_opt report_opts[] = {
    {.type = CLI_STRING,
     .name = "store",
     .arg = "PATH",
     .off = offsetof(struct report_args, src.store),
     .help = "the results store, opened read-only",
     .def = "assay.db"},
    CLI_OPT_STRING("out", "DIR", struct report_args, src.out_dir,
		   "write the files into DIR (default: the run's output folder);\n"
		   "links to the cases' logs are relative to DIR"),
    CLI_OPT_END,
};

const struct cli_spec cmd_report_spec = {
    .name = "report",
    .usage = "assay report [--store PATH] [--out DIR] [RUN_ID|last]",
    .about = "Write the report of a stored run (default: the last one): report.html (one\n"
	     "self-contained page with charts), junit.xml (one test per case and per gate)\n"
	     "and summary.md (a Markdown table for CI job pages). It reads only the store\n"
	     "and the run's output folder; the values of the secrets the run named are\n"
	     "taken from this environment and redacted. `assay run` writes the same three\n"
	     "files into the run folder at the end of every run.\n",
    .opts = report_opts,
    .examples = "assay report --store out/quickstart/assay.db\n"
		"assay report --store out/quickstart/assay.db --out /tmp/report "
		"20261130T221402Z-132cf0",
    .exits = "Exit codes: 0 written, 2 bad arguments, unknown store or run, or a missing run\n"
	     "folder, 5 the store or file system failed. The run's own outcome is in the\n"
	     "report, not in this exit code.\n",
    .min_args = 0,
    .max_args = 1,
    .args_what = "run id",
};

int cmd_report(int argc, char **argv)
{
	struct report_args a = {{.store = ASSAY_STORE_DEFAULT_PATH, .run = "last"}};
	int first, rc = cli_parse(&cmd_report_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	struct assay_report_source src = a.src;
	if (first < argc)
		src.run = argv[first];

	struct assay_report r;
	struct assay_report_found found;
	struct assay_error e;
	assay_report_init(&r);
	rc = assay_report_load(&src, &r, &found, &e);
	if (rc == ASSAY_OK)
		rc = assay_report_write(&r, found.out_dir, &e);
	if (rc != ASSAY_OK) {
		cli_report(&e);
	} else {
		for (size_t i = 0; i < found.unset_secrets.n; i++)
			fprintf(stderr,
				"assay report: secret %s is not set here: the report relies on the "
				"redaction done when the run ran\n",
				found.unset_secrets.v[i]);
		const char *d = found.out_dir;
		printf("report of run %s (suite %s, exit %d %s): %zu cases\n  %s/report.html\n"
		       "  %s/junit.xml\n  %s/summary.md\n",
		       found.run_id, r.suite ? r.suite : "-", (int)r.exit_code,
		       assay_strerror(r.exit_code), r.ncases, d, d, d);
	}
	assay_report_found_release(&found);
	assay_report_release(&r);
	return rc;
}
