/* assay lint: check madengine manifests, madengine model cards and assay's
 * own configs; print the findings as text, JSON, SARIF or GitHub
 * annotations, and exit 0 (clean or warnings), 1 (errors) or 2 (bad input). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/lint.h"
#include "assay/version.h"
#include "cli.h"
#include "opt.h"

struct lint_args {
	struct assay_lint_options o;
	const char *format, *kind, *fail_on;
	long long jobs;
	bool list, strict;
};

static const char *const formats[] = {"human", "json", "sarif", "github", NULL};
static const char *const kinds[] = {"manifest", "models",  "platforms", "sweep",
				    "suite",    "context", "cluster",   NULL};
static const char *const levels[] = {"error", "warning", NULL};

/* --disable and --enable: comma-separated rule ids (or "all"), in order. */
static int set_rules(struct lint_args *a, const char *arg, bool on)
{
	struct strlist ids = STRLIST_INIT;
	cli_split_list(&ids, arg);
	int rc = ASSAY_OK;
	for (size_t i = 0; i < ids.n && rc == ASSAY_OK; i++) {
		struct assay_error e;
		if (assay_lint_options_set(&a->o, ids.v[i], on, &e) != ASSAY_OK)
			rc = cli_usage_error("lint", "--%s: %s", on ? "enable" : "disable",
					     e.message);
	}
	strlist_clear(&ids);
	return rc;
}

static int opt_disable(void *args, const char *arg, const char *cmd)
{
	(void)cmd;
	return set_rules(args, arg, false);
}

static int opt_enable(void *args, const char *arg, const char *cmd)
{
	(void)cmd;
	return set_rules(args, arg, true);
}

static const struct cli_opt lint_opts[] = {
    {.type = CLI_CHOICE,
     .name = "format",
     .arg = "FORMAT",
     .off = offsetof(struct lint_args, format),
     .help = "human, json, sarif (SARIF 2.1.0) or github\n(workflow annotations)",
     .def = "human",
     .choices = formats},
    CLI_OPT_JSON,
    {.type = CLI_CHOICE,
     .name = "kind",
     .arg = "KIND",
     .off = offsetof(struct lint_args, kind),
     .help = "manifest, models, platforms, sweep, suite,\ncontext or cluster (a CVS cluster file)",
     .def = "from the content",
     .choices = kinds},
    CLI_OPT_STRING("context", "FILE", struct lint_args, o.context_file,
		   "lint each manifest merged with this madengine\n"
		   "--additional-context-file, as madengine merges them"),
    CLI_OPT_FLAG("strict", struct lint_args, strict,
		 "the multi-node traps that are warnings become errors"),
    {.type = CLI_CHOICE,
     .name = "fail-on",
     .arg = "LEVEL",
     .off = offsetof(struct lint_args, fail_on),
     .help = "exit 1 on a finding of this level or worse:\nerror or warning",
     .def = "error",
     .choices = levels},
    {.type = CLI_CALL,
     .name = "disable",
     .arg = "RULE",
     .help = "turn rules off (comma-separated or repeated, or \"all\")",
     .call = opt_disable},
    {.type = CLI_CALL,
     .name = "enable",
     .arg = "RULE",
     .help = "turn rules on, e.g. one that is off by default",
     .call = opt_enable},
    {.type = CLI_INT,
     .name = "jobs",
     .arg = "N",
     .off = offsetof(struct lint_args, jobs),
     .help = "lint N files at a time, 1 to 256",
     .def = "the number of CPUs",
     .min = 1},
    CLI_OPT_FLAG("list-rules", struct lint_args, list,
		 "print every rule: id, severity, default, --strict, summary"),
    CLI_OPT_END,
};

const struct cli_spec cmd_lint_spec = {
    .name = "lint",
    .usage = "assay lint [--format FORMAT | --json] [--kind KIND] [--disable RULE]\n"
	     "           [--enable RULE] [--strict] [--fail-on LEVEL] [--context FILE] FILE...\n"
	     "assay lint --list-rules",
    .about =
	"Check madengine build manifests (build_manifest.json), madengine model cards\n"
	"(models.json), madengine additional-context files and assay's platform\n"
	"registries, sweeps and suites, statically.\n"
	"Each finding names the file, the JSON path, its severity and rule:\n"
	"  build_manifest.json:$.slurm: error: misplaced-key: madengine ignores ...\n"
	"\n"
	"A .assay-lint.json beside the files allows findings per file and sets\n"
	"severities:\n"
	"  {\"allow\": {\"build_manifest.json\": [\"image-tag\", \"placeholder $.context\"]},\n"
	"   \"severity\": {\"no-network-interface\": \"error\"}}\n",
    .opts = lint_opts,
    .examples = "assay lint --format github build_manifest.json models.json",
    .exits = "Exit codes: 0 no errors (warnings allowed), 1 an error-level finding (or a\n"
	     "warning with --fail-on warning), 2 bad arguments, unreadable or non-JSON\n"
	     "input. Rules: docs/lint.md.\n",
    .min_args = 0,
    .max_args = -1,
    .args_what = "file",
};

static void list_rules(void)
{
	size_t n = assay_lint_rule_count();
	printf("%-26s %-8s %-8s %-6s %-13s %s\n", "rule", "severity", "default", "strict", "family",
	       "summary");
	for (size_t i = 0; i < n; i++) {
		const struct assay_lint_rule *r = assay_lint_rule_at(i);
		bool strict = assay_lint_rule_strict(i);
		printf("%-26s %-8s %-8s %-6s %-13s %s\n", r->id,
		       assay_lint_severity_name(r->severity), r->default_on ? "on" : "off",
		       strict ? "error" : "-", r->family, r->summary);
	}
}

/* Parse the options; -1 after --help, an exit code on a usage error. */
static int lint_parse(int argc, char **argv, struct lint_args *a, int *first)
{
	assay_lint_options_init(&a->o);
	a->format = "human";
	a->fail_on = "error";
	a->jobs = sysconf(_SC_NPROCESSORS_ONLN);
	int rc = cli_parse(&cmd_lint_spec, argc, argv, a, first);
	if (rc)
		return rc;
	if (a->jobs > 256)
		return cli_usage_error(
		    "lint", "--jobs: expected a whole number from 1 to 256, got '%lld'", a->jobs);
	if (a->kind)
		a->o.kind = (enum assay_lint_kind)assay_lint_kind_from_name(a->kind);
	if (a->strict)
		assay_lint_options_strict(&a->o);
	if (!a->list && *first >= argc)
		return cli_usage_error("lint", "expected at least one FILE");
	return 0;
}

/* Totals over the files that were linted. */
struct totals {
	size_t errors, warnings, allowed, linted;
};

/* Print the files' errors and per-file formats in order, and count. */
static void print_files(const struct assay_lint_batch *b, const char *format, struct totals *t)
{
	bool human = !strcmp(format, "human"), github = !strcmp(format, "github");
	struct sbuf out = SBUF_INIT;
	for (size_t i = 0; i < b->n; i++) {
		const struct assay_lint_result *r = &b->res[i];
		if (r->error && !b->allow_invalid[i])
			cli_report(r->error);
		if (!r->error) {
			/* A file that failed is counted in the JSON document; the exit
			 * code is 2 already. */
			t->linted++;
			t->errors += r->errors;
			t->warnings += r->warnings;
			t->allowed += r->allowed;
		}
		if (human && !r->error)
			assay_lint_format_human(&out, r);
		else if (github)
			assay_lint_format_github(&out, r);
		fputs(sbuf_str(&out), stdout);
		sbuf_reset(&out);
	}
	sbuf_release(&out);
}

/* The whole-run formats, and the count on stderr after human output. */
static void print_end(const char *format, const struct assay_lint_result *res, size_t n,
		      const struct totals *t)
{
	if (!strcmp(format, "json") || !strcmp(format, "sarif")) {
		json_t *doc = !strcmp(format, "json")
				  ? assay_lint_to_json(res, n)
				  : assay_lint_to_sarif(res, n, assay_version_string);
		char *s = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
		printf("%s\n", s);
		free(s);
		json_decref(doc);
	}
	if (!strcmp(format, "human") && (t->errors || t->warnings || t->allowed)) {
		fprintf(stderr, "assay lint: %zu error%s, %zu warning%s in %zu file%s", t->errors,
			t->errors == 1 ? "" : "s", t->warnings, t->warnings == 1 ? "" : "s",
			t->linted, t->linted == 1 ? "" : "s");
		if (t->allowed)
			fprintf(stderr, "; %zu allowed by .assay-lint.json", t->allowed);
		fputc('\n', stderr);
	}
}

int cmd_lint(int argc, char **argv)
{
	struct lint_args a = {0};
	int first, rc = lint_parse(argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	if (a.list) {
		list_rules();
		return ASSAY_OK;
	}
	struct assay_lint_batch b;
	struct totals t = {0};
	assay_err worst = assay_lint_files(argv + first, (size_t)(argc - first), &a.o,
					   (int)(a.jobs < 1 ? 1 : a.jobs), &b);
	/* An invalid .assay-lint.json is named once, before the files. */
	for (size_t i = 0; i < b.nallow_errors; i++)
		cli_report(&b.allow_errors[i]);
	print_files(&b, a.format, &t);
	print_end(a.format, b.res, b.n, &t);
	assay_lint_batch_release(&b);
	if (t.errors || (!strcmp(a.fail_on, "warning") && t.warnings))
		worst = assay_err_worst(worst, ASSAY_GATE_FAILED); /* exit 1: at --fail-on */
	return worst;
}
