/* assay lint: check madengine manifests, madengine model cards and assay's
 * own configs; print the findings as text, JSON, SARIF or GitHub
 * annotations, and exit 0 (clean or warnings), 1 (errors) or 2 (bad input). */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/lint.h"
#include "assay/version.h"
#include "cli.h"

const char cmd_lint_help[] =
	"usage: assay lint [--format FORMAT] [--kind KIND] [--disable RULE] [--enable RULE]\n"
	"                  FILE...\n"
	"       assay lint --list-rules\n"
	"\n"
	"Check madengine build manifests (build_manifest.json), madengine model cards\n"
	"(models.json) and assay's platform registries and sweeps, statically. Each\n"
	"finding names the file, the JSON path, its severity and rule:\n"
	"  build_manifest.json:$.slurm: error: misplaced-key: madengine ignores ...\n"
	"\n"
	"options:\n"
	"  --format FORMAT   human (default), json, sarif (SARIF 2.1.0) or github\n"
	"                    (workflow annotations)\n"
	"  --kind KIND       manifest, models, platforms or sweep (default: from the content)\n"
	"  --disable RULE    turn a rule off (repeatable, comma-separated, or \"all\")\n"
	"  --enable RULE     turn a rule on, e.g. one that is off by default\n"
	"  --list-rules      print every rule: id, severity, default, summary\n"
	"\n"
	"A .assay-lint.json beside the files allows findings per file:\n"
	"  {\"allow\": {\"build_manifest.json\": [\"image-tag\", \"placeholder $.context\"]}}\n"
	"\n"
	"example:\n"
	"  assay lint --format github build_manifest.json models.json\n"
	"\n"
	"Exit codes: 0 no errors (warnings allowed), 1 an error-level finding, 2 bad\n"
	"arguments, unreadable or non-JSON input. Rules: docs/lint.md.\n";

static void list_rules(void)
{
	size_t n = assay_lint_rule_count();
	printf("%-24s %-8s %-8s %-13s %s\n", "rule", "severity", "default", "family", "summary");
	for (size_t i = 0; i < n; i++) {
		const struct assay_lint_rule *r = assay_lint_rule_at(i);
		printf("%-24s %-8s %-8s %-13s %s\n", r->id, assay_lint_severity_name(r->severity),
		       r->default_on ? "on" : "off", r->family, r->summary);
	}
}

/* Allow lists, loaded once per directory. */
struct allow_cache {
	struct strlist dirs;
	struct assay_lint_allow *v;
	assay_err *rc;
};

static const struct assay_lint_allow *allow_for(struct allow_cache *c, const char *file,
						struct assay_error *e, assay_err *rc)
{
	char *copy = xstrdup(file);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	for (size_t i = 0; i < c->dirs.n; i++) {
		if (!strcmp(c->dirs.v[i], dir)) {
			free(dir);
			*rc = c->rc[i];
			return c->rc[i] == ASSAY_OK ? &c->v[i] : NULL;
		}
	}
	size_t i = c->dirs.n;
	strlist_push(&c->dirs, dir);
	c->v = xrealloc(c->v, c->dirs.n * sizeof(*c->v));
	c->rc = xrealloc(c->rc, c->dirs.n * sizeof(*c->rc));
	c->rc[i] = assay_lint_allow_load_dir(dir, &c->v[i], e);
	free(dir);
	*rc = c->rc[i];
	if (*rc != ASSAY_OK)
		cli_report(e);
	return *rc == ASSAY_OK ? &c->v[i] : NULL;
}

static void allow_cache_release(struct allow_cache *c)
{
	for (size_t i = 0; i < c->dirs.n; i++)
		if (c->rc[i] == ASSAY_OK)
			assay_lint_allow_release(&c->v[i]);
	free(c->v);
	free(c->rc);
	strlist_clear(&c->dirs);
}

enum format { F_HUMAN, F_JSON, F_SARIF, F_GITHUB };

static int set_rules(struct assay_lint_options *o, const char *arg, bool on)
{
	struct strlist ids = STRLIST_INIT;
	cli_split_list(&ids, arg);
	int rc = ASSAY_OK;
	for (size_t i = 0; i < ids.n && rc == ASSAY_OK; i++) {
		struct assay_error e;
		if (assay_lint_options_set(o, ids.v[i], on, &e) != ASSAY_OK)
			rc = cli_usage_error("lint", "--%s: %s", on ? "enable" : "disable", e.message);
	}
	strlist_clear(&ids);
	return rc;
}

int cmd_lint(int argc, char **argv)
{
	enum { O_FORMAT = 256, O_KIND, O_DISABLE, O_ENABLE, O_LIST };
	static const struct option opts[] = {
		{"format", required_argument, NULL, O_FORMAT},
		{"kind", required_argument, NULL, O_KIND},
		{"disable", required_argument, NULL, O_DISABLE},
		{"enable", required_argument, NULL, O_ENABLE},
		{"list-rules", no_argument, NULL, O_LIST},
		{NULL, 0, NULL, 0},
	};
	static const char *const format_names[] = {"human", "json", "sarif", "github"};
	struct assay_lint_options o;
	assay_lint_options_init(&o);
	enum format format = F_HUMAN;
	bool list = false;
	int opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case O_FORMAT: {
			size_t i = 0;
			while (i < ARRAY_SIZE(format_names) && strcmp(format_names[i], optarg))
				i++;
			if (i == ARRAY_SIZE(format_names))
				return cli_usage_error("lint",
						       "--format: expected human, json, sarif or "
						       "github, got \"%s\"", optarg);
			format = (enum format)i;
			break;
		}
		case O_KIND: {
			int k = assay_lint_kind_from_name(optarg);
			if (k <= ASSAY_LINT_AUTO)
				return cli_usage_error("lint",
						       "--kind: expected manifest, models, platforms "
						       "or sweep, got \"%s\"", optarg);
			o.kind = (enum assay_lint_kind)k;
			break;
		}
		case O_DISABLE:
		case O_ENABLE:
			if (set_rules(&o, optarg, opt == O_ENABLE) != ASSAY_OK)
				return ASSAY_USAGE;
			break;
		case O_LIST: list = true; break;
		default:
			return cli_usage_error("lint", "unknown option or missing value: '%s'",
					       argv[optind - 1]);
		}
	}
	if (list) {
		list_rules();
		return ASSAY_OK;
	}
	if (optind >= argc)
		return cli_usage_error("lint", "expected at least one FILE");

	size_t nfiles = (size_t)(argc - optind), nres = 0;
	struct assay_lint_result *res = xcalloc(nfiles, sizeof(*res));
	struct allow_cache cache = {STRLIST_INIT, NULL, NULL};
	assay_err rc = ASSAY_OK;
	size_t errors = 0, warnings = 0, allowed = 0;
	struct sbuf out = SBUF_INIT;
	for (int i = optind; i < argc; i++) {
		struct assay_error e;
		assay_err arc;
		const struct assay_lint_allow *allow = allow_for(&cache, argv[i], &e, &arc);
		if (arc != ASSAY_OK) {
			rc = assay_err_worst(rc, arc);
			continue;
		}
		struct assay_lint_result *r = &res[nres];
		if (assay_lint_file(argv[i], &o, allow, r, &e) != ASSAY_OK) {
			rc = assay_err_worst(rc, cli_report(&e));
			assay_lint_result_release(r);
			continue;
		}
		nres++;
		errors += r->errors;
		warnings += r->warnings;
		allowed += r->allowed;
		if (format == F_HUMAN)
			assay_lint_format_human(&out, r);
		else if (format == F_GITHUB)
			assay_lint_format_github(&out, r);
		fputs(sbuf_str(&out), stdout);
		sbuf_reset(&out);
	}
	if (format == F_JSON || format == F_SARIF) {
		json_t *doc = format == F_JSON
				      ? assay_lint_to_json(res, nres)
				      : assay_lint_to_sarif(res, nres, assay_version_string);
		char *s = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
		printf("%s\n", s);
		free(s);
		json_decref(doc);
	}
	if (format == F_HUMAN && (errors || warnings || allowed)) {
		fprintf(stderr, "assay lint: %zu error%s, %zu warning%s in %zu file%s", errors,
			errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", nres,
			nres == 1 ? "" : "s");
		if (allowed)
			fprintf(stderr, "; %zu allowed by .assay-lint.json", allowed);
		fputc('\n', stderr);
	}
	for (size_t i = 0; i < nres; i++)
		assay_lint_result_release(&res[i]);
	free(res);
	sbuf_release(&out);
	allow_cache_release(&cache);
	if (errors)
		rc = assay_err_worst(rc, ASSAY_GATE_FAILED); /* exit 1: an error-level finding */
	return rc;
}
