/* assay lint: check madengine manifests, madengine model cards and assay's
 * own configs; print the findings as text, JSON, SARIF or GitHub
 * annotations, and exit 0 (clean or warnings), 1 (errors) or 2 (bad input). */
#include <getopt.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/lint.h"
#include "assay/version.h"
#include "cli.h"

const char cmd_lint_help[] =
    "usage: assay lint [--format FORMAT] [--kind KIND] [--disable RULE] [--enable RULE]\n"
    "                  [--strict] [--fail-on LEVEL] [--context FILE] FILE...\n"
    "       assay lint --list-rules\n"
    "\n"
    "Check madengine build manifests (build_manifest.json), madengine model cards\n"
    "(models.json), madengine additional-context files and assay's platform\n"
    "registries, sweeps and suites, statically.\n"
    "Each finding names the file, the JSON path, its severity and rule:\n"
    "  build_manifest.json:$.slurm: error: misplaced-key: madengine ignores ...\n"
    "\n"
    "options:\n"
    "  --format FORMAT   human (default), json, sarif (SARIF 2.1.0) or github\n"
    "                    (workflow annotations)\n"
    "  --kind KIND       manifest, models, platforms, sweep, suite or context (default:\n"
    "                    from the content)\n"
    "  --context FILE    lint each manifest merged with this madengine\n"
    "                    --additional-context-file, as madengine merges them\n"
    "  --strict          the multi-node traps that are warnings become errors\n"
    "  --fail-on LEVEL   exit 1 on a finding of this level or worse: error\n"
    "                    (default) or warning\n"
    "  --disable RULE    turn a rule off (repeatable, comma-separated, or \"all\")\n"
    "  --enable RULE     turn a rule on, e.g. one that is off by default\n"
    "  --jobs N          lint N files at a time (default: the number of CPUs)\n"
    "  --list-rules      print every rule: id, severity, default, --strict, summary\n"
    "\n"
    "A .assay-lint.json beside the files allows findings per file and sets\n"
    "severities:\n"
    "  {\"allow\": {\"build_manifest.json\": [\"image-tag\", \"placeholder $.context\"]},\n"
    "   \"severity\": {\"no-network-interface\": \"error\"}}\n"
    "\n"
    "example:\n"
    "  assay lint --format github build_manifest.json models.json\n"
    "\n"
    "Exit codes: 0 no errors (warnings allowed), 1 an error-level finding (or a\n"
    "warning with --fail-on warning), 2 bad arguments, unreadable or non-JSON\n"
    "input. Rules: docs/lint.md.\n";

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

/* Allow lists, loaded once per directory; each stays where it is allocated
 * (jobs keep pointers to them). */
struct allow_cache {
	struct strlist dirs;
	struct assay_lint_allow **v; /* NULL where the file is invalid */
	struct assay_error *errs;    /* why, where it is */
};

static const struct assay_lint_allow *allow_for(struct allow_cache *c, const char *file,
						assay_err *rc, const struct assay_error **err)
{
	char *copy = xstrdup(file);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	for (size_t i = 0; i < c->dirs.n; i++) {
		if (!strcmp(c->dirs.v[i], dir)) {
			free(dir);
			*rc = c->v[i] ? ASSAY_OK : ASSAY_USAGE;
			*err = &c->errs[i];
			return c->v[i];
		}
	}
	size_t i = c->dirs.n;
	strlist_push(&c->dirs, dir);
	c->v = xrealloc(c->v, c->dirs.n * sizeof(*c->v));
	c->errs = xrealloc(c->errs, c->dirs.n * sizeof(*c->errs));
	c->v[i] = xcalloc(1, sizeof(*c->v[i]));
	struct assay_error *e = &c->errs[i];
	assay_error_clear(e);
	*rc = assay_lint_allow_load_dir(dir, c->v[i], e);
	*err = e;
	free(dir);
	if (*rc != ASSAY_OK) {
		cli_report(e);
		free(c->v[i]);
		c->v[i] = NULL;
	}
	return c->v[i];
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

enum format { F_HUMAN, F_JSON, F_SARIF, F_GITHUB };

/* One file to lint; workers fill result, rc and err. */
struct job {
	const char *file;
	const struct assay_lint_allow *allow;
	bool skip;        /* its .assay-lint.json is invalid (already reported) */
	size_t allow_err; /* index of that error in the cache */
	struct assay_lint_result result;
	assay_err rc;
	struct assay_error err;
};

struct pool {
	struct job *jobs;
	size_t n, next;
	const struct assay_lint_options *opts;
	pthread_mutex_t lock;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->n)
			return NULL;
		struct job *j = &p->jobs[i];
		if (!j->skip)
			j->rc = assay_lint_file(j->file, p->opts, j->allow, &j->result, &j->err);
	}
}

/* Lint every job with up to nthreads threads (the library keeps no shared state). */
static void run_jobs(struct job *jobs, size_t n, const struct assay_lint_options *o, long nthreads)
{
	struct pool p = {jobs, n, 0, o, PTHREAD_MUTEX_INITIALIZER};
	if (nthreads > (long)n)
		nthreads = (long)n;
	pthread_t *t = xcalloc((size_t)(nthreads > 1 ? nthreads : 1), sizeof(*t));
	long started = 0;
	for (long i = 1; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, worker, &p) == 0)
			started = i;
	worker(&p);
	for (long i = 1; i <= started; i++)
		pthread_join(t[i], NULL);
	free(t);
}

static int set_rules(struct assay_lint_options *o, const char *arg, bool on)
{
	struct strlist ids = STRLIST_INIT;
	cli_split_list(&ids, arg);
	int rc = ASSAY_OK;
	for (size_t i = 0; i < ids.n && rc == ASSAY_OK; i++) {
		struct assay_error e;
		if (assay_lint_options_set(o, ids.v[i], on, &e) != ASSAY_OK)
			rc = cli_usage_error("lint", "--%s: %s", on ? "enable" : "disable",
					     e.message);
	}
	strlist_clear(&ids);
	return rc;
}

int cmd_lint(int argc, char **argv)
{
	enum {
		O_FORMAT = 256,
		O_KIND,
		O_DISABLE,
		O_ENABLE,
		O_JOBS,
		O_LIST,
		O_STRICT,
		O_FAIL_ON,
		O_CONTEXT
	};
	static const struct option opts[] = {
	    {"format", required_argument, NULL, O_FORMAT},
	    {"kind", required_argument, NULL, O_KIND},
	    {"disable", required_argument, NULL, O_DISABLE},
	    {"enable", required_argument, NULL, O_ENABLE},
	    {"jobs", required_argument, NULL, O_JOBS},
	    {"list-rules", no_argument, NULL, O_LIST},
	    {"strict", no_argument, NULL, O_STRICT},
	    {"fail-on", required_argument, NULL, O_FAIL_ON},
	    {"context", required_argument, NULL, O_CONTEXT},
	    {NULL, 0, NULL, 0},
	};
	static const char *const format_names[] = {"human", "json", "sarif", "github"};
	struct assay_lint_options o;
	assay_lint_options_init(&o);
	enum format format = F_HUMAN;
	bool list = false;
	enum assay_lint_severity fail_on = ASSAY_LINT_ERROR;
	long nthreads = sysconf(_SC_NPROCESSORS_ONLN);
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
						       "github, got \"%s\"",
						       optarg);
			format = (enum format)i;
			break;
		}
		case O_KIND: {
			int k = assay_lint_kind_from_name(optarg);
			if (k <= ASSAY_LINT_AUTO)
				return cli_usage_error(
				    "lint",
				    "--kind: expected manifest, models, platforms, "
				    "sweep, suite or context, got \"%s\"",
				    optarg);
			o.kind = (enum assay_lint_kind)k;
			break;
		}
		case O_DISABLE:
		case O_ENABLE:
			if (set_rules(&o, optarg, opt == O_ENABLE) != ASSAY_OK)
				return ASSAY_USAGE;
			break;
		case O_JOBS: {
			long long v;
			if (!assay_parse_long(optarg, &v) || v < 1 || v > 256)
				return cli_usage_error(
				    "lint", "--jobs: expected 1 to 256, got \"%s\"", optarg);
			nthreads = (long)v;
			break;
		}
		case O_LIST: list = true; break;
		case O_STRICT: assay_lint_options_strict(&o); break;
		case O_FAIL_ON:
			if (!strcmp(optarg, "error"))
				fail_on = ASSAY_LINT_ERROR;
			else if (!strcmp(optarg, "warning"))
				fail_on = ASSAY_LINT_WARNING;
			else
				return cli_usage_error(
				    "lint", "--fail-on: expected error or warning, got \"%s\"",
				    optarg);
			break;
		case O_CONTEXT: o.context_file = optarg; break;
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

	size_t nfiles = (size_t)(argc - optind), nres = 0, nlinted = 0;
	struct job *jobs = xcalloc(nfiles, sizeof(*jobs));
	struct assay_lint_result *res = xcalloc(nfiles, sizeof(*res));
	struct allow_cache cache = {STRLIST_INIT, NULL, NULL};
	assay_err rc = ASSAY_OK;
	size_t errors = 0, warnings = 0, allowed = 0;
	for (size_t i = 0; i < nfiles; i++) {
		assay_err arc;
		const struct assay_error *aerr = NULL;
		jobs[i].file = argv[optind + (int)i];
		jobs[i].allow = allow_for(&cache, jobs[i].file, &arc, &aerr);
		jobs[i].skip = arc != ASSAY_OK;
		jobs[i].allow_err = aerr ? (size_t)(aerr - cache.errs) : 0;
		rc = assay_err_worst(rc, arc);
	}
	run_jobs(jobs, nfiles, &o, nthreads < 1 ? 1 : nthreads);
	struct sbuf out = SBUF_INIT;
	for (size_t i = 0; i < nfiles; i++) {
		struct job *j = &jobs[i];
		struct assay_lint_result *r = &res[nres++];
		if (j->skip) {
			/* Not linted: its .assay-lint.json is invalid (reported above). */
			memset(&j->result, 0, sizeof(j->result));
			j->result.file = xstrdup(j->file);
			j->result.error = xcalloc(1, sizeof(*j->result.error));
			*j->result.error = cache.errs[j->allow_err];
			j->result.errors = 1;
		} else if (j->rc != ASSAY_OK) {
			rc = assay_err_worst(rc, cli_report(&j->err));
		}
		*r = j->result;
		if (r->error) {
			/* Counted in the JSON document; the exit code is 2 already. */
			if (format == F_GITHUB)
				assay_lint_format_github(&out, r);
			fputs(sbuf_str(&out), stdout);
			sbuf_reset(&out);
			continue;
		}
		*r = j->result;
		nlinted++;
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
	free(jobs);
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
			errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", nlinted,
			nlinted == 1 ? "" : "s");
		if (allowed)
			fprintf(stderr, "; %zu allowed by .assay-lint.json", allowed);
		fputc('\n', stderr);
	}
	for (size_t i = 0; i < nres; i++)
		assay_lint_result_release(&res[i]);
	free(res);
	sbuf_release(&out);
	allow_cache_release(&cache);
	if (errors || (fail_on == ASSAY_LINT_WARNING && warnings))
		rc = assay_err_worst(rc, ASSAY_GATE_FAILED); /* exit 1: a finding at --fail-on */
	return rc;
}
