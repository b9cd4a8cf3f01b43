/* assay: the one table of subcommands, global help and --version. Each
 * command lives in its own cmd_<name>.c. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "assay/store.h"
#include "assay/util.h"
#include "assay/version.h"
#include "cli.h"
#include "opt.h"

const struct cli_command cli_commands[] = {
    {"detect", cmd_detect, "change points in stored series or a CSV; regression gates", NULL,
     &cmd_detect_spec},
    {"gate", cmd_gate, "judge rows and training logs against thresholds and gate specs", NULL,
     &cmd_gate_spec},
    {"history", cmd_history, "one stored series over time, with change points and annotations",
     NULL, &cmd_history_spec},
    {"import", cmd_import, "write an assay suite from another tool's configuration (CVS)", NULL,
     &cmd_import_spec},
    {"lint", cmd_lint, "check madengine manifests, model cards and assay configs", NULL,
     &cmd_lint_spec},
    {"manifest", cmd_manifest, "write a madengine build_manifest.json for a suite's combo", NULL,
     &cmd_manifest_spec},
    {"matrix", cmd_matrix, "expand a sweep over a platform registry into cases and shards", NULL,
     &cmd_matrix_spec},
    {"notify", cmd_notify, "send a sample event to each target of a notifications file", NULL,
     &cmd_notify_spec},
    {"parse", cmd_parse, "turn result files and training logs into measurement rows", NULL,
     &cmd_parse_spec},
    {"publish", cmd_publish, "publish stable numbers from a few runs: CIs, digests, a manifest",
     NULL, &cmd_publish_spec},
    {"report", cmd_report, "write report.html, junit.xml and summary.md for a stored run", NULL,
     &cmd_report_spec},
    {"run", cmd_run, "run a suite: launch, watch, parse and store every case", NULL, &cmd_run_spec},
    {"serve", cmd_serve, "serve the store's history in a browser and as JSON", NULL,
     &cmd_serve_spec},
    {"store", cmd_store, "the results store: ingest, export, series, runs, annotate, check", NULL,
     &cmd_store_spec},
    {NULL, NULL, NULL, NULL, NULL},
};

const struct cli_command *cli_find(const char *name)
{
	for (const struct cli_command *c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* The program as its man page and completion see it (gen.c). */
static const struct cli_program program = {
    .name = "assay",
    .summary = "validate GPU clusters and keep their performance honest",
    .usage = "assay [--version] [--help] <command> [<args>]\n"
	     "assay help <command>",
    .about = "assay runs benchmark suites (launch, watch, parse, gate), stores every\n"
	     "measurement in a history (SQLite or PostgreSQL), detects regressions\n"
	     "against it and writes reports. Each command has its own page.\n",
    .commands = cli_commands,
    .exits = "0 ok, 1 gate-failed, 2 usage (bad arguments or input: nothing ran),\n"
	     "3 workload-failed, 4 no-metrics, 5 infrastructure.\n"
	     "A run reports the most severe outcome of its cases.\n",
    .examples = "assay run configs/quickstart.json\n"
		"assay matrix --platforms configs/platforms.json configs/sweep-ep.json\n"
		"assay help run",
    .page_per_command = true,
};

/* PREFIX/share/assay/configs when this program is installed (bin/assay
 * next to share/assay), found from the program's own path, or NULL. */
static const char *installed_configs(void)
{
	static char dir[PATH_MAX];
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	snprintf(dir, sizeof(dir), "%s/../share/assay/configs", self);
	char *real = realpath(dir, NULL);
	if (!real)
		return NULL;
	snprintf(dir, sizeof(dir), "%s", real);
	free(real);
	return dir;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: assay [--version] [--help] <command> [<args>]\n\n"
		     "assay validates GPU clusters and keeps their performance honest.\n\n"
		     "commands:\n");
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out, "\nRun 'assay help <command>' for a command's options.\n"
		     "Exit codes: 0 ok, 1 gate-failed, 2 usage, 3 workload-failed, 4 no-metrics,\n"
		     "5 infrastructure (docs/exit-codes.md).\n");
	const char *configs = installed_configs();
	if (configs)
		fprintf(out,
			"Example configs: %s (copy the folder, then 'assay run configs/...').\n",
			configs);
}

/* The help of NAME, or of its subcommand sub (NULL: all of it). */
static int help(const char *name, const char *sub)
{
	const struct cli_command *c = cli_find(name);
	if (!c) {
		fprintf(stderr, "assay: unknown command '%s' (see 'assay --help')\n", name);
		return ASSAY_USAGE;
	}
	const struct cli_spec *s = c->spec && sub ? cli_sub(c->spec, sub) : NULL;
	if (s)
		cli_help(s, stdout);
	else if (c->spec)
		cli_help(c->spec, stdout);
	else
		fputs(c->help, stdout);
	return ASSAY_OK;
}

/* `assay help --options-md NAME`: the option list of NAME's doc page, made
 * from its option table (scripts/doc-options.sh writes it into docs/). */
static int doc_options(const char *name)
{
	const struct cli_command *c = cli_find(name);
	if (!c || !c->spec) {
		fprintf(stderr, "assay: '%s' has no option table\n", name);
		return ASSAY_USAGE;
	}
	cli_doc_options(c->spec, stdout);
	return ASSAY_OK;
}

/* A password in a store's connection string stays out of `ps`: the
 * argument the program reads becomes a copy, and the bytes the kernel shows
 * as the command line are overwritten with the name that hides it. (It
 * was visible from exec to here; PGPASSWORD or ~/.pgpass never are.) */
static void hide_passwords(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *v = argv[i];
		if (!strncmp(v, "--", 2) && strchr(v, '='))
			v = strchr(v, '=') + 1;
		if (assay_store_is_file(v))
			continue;
		char *shown = assay_store_name(v);
		size_t have = strlen(v);
		if (strcmp(shown, v) && strlen(shown) <= have) {
			char *keep = xstrdup(argv[i]);
			memset(v, 0, have);
			memcpy(v, shown, strlen(shown));
			argv[i] = keep; /* freed at exit */
		}
		free(shown);
	}
}

int main(int argc, char **argv)
{
	hide_passwords(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return ASSAY_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		usage(stdout);
		return ASSAY_OK;
	}
	if (!strcmp(name, "--generate"))
		return cli_generate(&program, argc - 1, argv + 1);
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("assay %s (%s)\n", assay_version_string, assay_git_revision);
		return ASSAY_OK;
	}
	if (!strcmp(name, "help")) {
		if (argc < 3) {
			usage(stdout);
			return ASSAY_OK;
		}
		if (!strcmp(argv[2], "--options-md") && argc == 4)
			return doc_options(argv[3]);
		return help(argv[2], argc > 3 ? argv[3] : NULL);
	}
	const struct cli_command *c = cli_find(name);
	if (!c) {
		fprintf(stderr, "assay: unknown command '%s' (see 'assay --help')\n", name);
		return ASSAY_USAGE;
	}
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return help(name, argc > 2 ? argv[2] : NULL);
	return c->run(argc - 1, argv + 1);
}
