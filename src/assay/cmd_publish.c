/* assay publish: qualify a few stored runs of one suite and revision, check
 * their stability, and write a publication folder of NDJSON rows with
 * bootstrap CIs and a manifest of digests; --verify re-checks such a folder.
 * docs/publish.md. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/publish.h"
#include "assay/store.h"
#include "assay/version.h"
#include "cli.h"
#include "notify_cli.h"
#include "opt.h"

struct publish_args {
	const char *store, *suite, *revision, *out, *tag, *expect, *verify;
	long long last, resamples, seed;
	double level, p50, p99, drift, mad_k, outliers;
	struct notify_cli nc;
};

static const struct cli_opt publish_opts[] = {
    {.type = CLI_STRING,
     .name = "store",
     .arg = "PATH",
     .off = offsetof(struct publish_args, store),
     .help = "the results store, opened read-only",
     .def = "assay.db"},
    CLI_OPT_STRING("suite", "NAME", struct publish_args, suite, "the suite the runs ran; required"),
    CLI_OPT_STRING("revision", "REV", struct publish_args, revision,
		   "the source revision: with --last, the runs to take; with run ids,\n"
		   "the revision they must have (default: the first run's)"),
    {.type = CLI_INT,
     .name = "last",
     .arg = "N",
     .off = offsetof(struct publish_args, last),
     .help = "take the newest N runs of the suite at --revision (instead of run ids)",
     .min = 2},
    CLI_OPT_STRING("out", "DIR", struct publish_args, out,
		   "the publication folder to create; it must not exist"),
    CLI_OPT_STRING("verify", "DIR", struct publish_args, verify,
		   "re-check the publication folder DIR instead (every digest and the schema)"),
    CLI_OPT_GROUP("release"),
    CLI_OPT_STRING("tag", "TAG", struct publish_args, tag,
		   "the release tag; a RELEASE marker is written only with --expect-matrix"),
    CLI_OPT_STRING("expect-matrix", "DIGEST", struct publish_args, expect,
		   "the locked matrix digest; must equal the runs' for a release"),
    CLI_OPT_GROUP("stability limits (CollectiveX's defaults)"),
    {.type = CLI_DOUBLE,
     .name = "p50-spread",
     .arg = "X",
     .off = offsetof(struct publish_args, p50),
     .help = "most max/min of the runs' values of a central statistic",
     .def = "1.10"},
    {.type = CLI_DOUBLE,
     .name = "p99-spread",
     .arg = "X",
     .off = offsetof(struct publish_args, p99),
     .help = "the same for tail statistics (p90 and up, max)",
     .def = "1.25"},
    {.type = CLI_DOUBLE,
     .name = "trial-drift",
     .arg = "X",
     .off = offsetof(struct publish_args, drift),
     .help = "most ratio of a run's later-half median to its earlier half's",
     .def = "1.10"},
    {.type = CLI_DOUBLE,
     .name = "mad-k",
     .arg = "K",
     .off = offsetof(struct publish_args, mad_k),
     .help = "a trial beyond K x MAD and the spread limit from the median is an outlier",
     .def = "6"},
    {.type = CLI_DOUBLE,
     .name = "outliers",
     .arg = "F",
     .off = offsetof(struct publish_args, outliers),
     .help = "most fraction of a series' trials that are outliers",
     .def = "0.05"},
    CLI_OPT_GROUP("confidence interval"),
    {.type = CLI_INT,
     .name = "resamples",
     .arg = "N",
     .off = offsetof(struct publish_args, resamples),
     .help = "bootstrap resamples",
     .def = "10000",
     .min = 100},
    {.type = CLI_DOUBLE,
     .name = "level",
     .arg = "L",
     .off = offsetof(struct publish_args, level),
     .help = "the CI level, between 0.5 and 0.999",
     .def = "0.95"},
    {.type = CLI_INT,
     .name = "seed",
     .arg = "N",
     .off = offsetof(struct publish_args, seed),
     .help = "the PRNG seed: the same seed gives the same CIs",
     .def = "1",
     .min = 0},
    CLI_OPT_GROUP("notifications (docs/notify.md)"),
    CLI_OPT_TABLE(notify_cli_opts, struct publish_args, nc),
    CLI_OPT_END,
};

const struct cli_spec cmd_publish_spec = {
    .name = "publish",
    .usage = "assay publish [--store PATH] --suite NAME --out DIR [options] RUN_ID RUN_ID...\n"
	     "assay publish [--store PATH] --suite NAME --out DIR --last N --revision REV\n"
	     "assay publish --verify DIR",
    .about = "Publish the numbers of a few runs of one suite: the runs must share one source\n"
	     "revision and one matrix digest, each must have finished on its first attempt,\n"
	     "and every case must be present and valid in every run. Each series must then\n"
	     "be stable across the runs (spread, trial drift, MAD outliers). DIR gets\n"
	     "rows.ndjson (one row per series with its bootstrap CI and provenance) and\n"
	     "manifest.json (every file's SHA-256, the digests and the run ids), and a\n"
	     "RELEASE marker only with --tag and a matching --expect-matrix; otherwise the\n"
	     "publication is unversioned. Nothing is written when a check fails.\n",
    .opts = publish_opts,
    .examples = "assay publish --store out/quickstart/assay.db --suite quickstart --last 3 \\\n"
		"    --revision 81089791 --out pub/quickstart\n"
		"assay publish --verify pub/quickstart",
    .exits = "Exit codes: 0 published (or verified), 1 a check failed (each one is printed),\n"
	     "2 bad arguments, an unknown run or an existing DIR, 5 the store or file system\n"
	     "failed.\n",
    .min_args = 0,
    .max_args = -1,
    .args_what = "run id",
};

static void print_problems(const struct assay_publish_result *r)
{
	for (size_t i = 0; i < r->problems.n; i++)
		fprintf(stderr, "  %s\n", r->problems.v[i]);
}

static int verify(const char *dir)
{
	struct assay_publish_result r;
	struct assay_error e;
	int rc = assay_publish_verify(dir, &r, &e);
	if (rc == ASSAY_OK) {
		printf("%s: verified: %zu series, %s, runs ", dir, r.series,
		       r.released ? "released" : "unversioned");
		for (size_t i = 0; i < r.run_ids.n; i++)
			printf("%s%s", i ? ", " : "", r.run_ids.v[i]);
		printf("\n  manifest sha256 %s\n", r.manifest_sha256);
	} else {
		fprintf(stderr, "assay publish: %s\n", e.message);
		print_problems(&r);
	}
	assay_publish_result_release(&r);
	return rc;
}

/* The combinations and ranges the option table cannot check; the exit code
 * of a usage error, or 0. nruns: the run ids given. */
static int check_args(const struct publish_args *a, int nruns)
{
	if (!a->suite)
		return cli_usage_error("publish", "--suite is required");
	if (!a->out)
		return cli_usage_error("publish", "--out DIR is required");
	if (nruns && a->last)
		return cli_usage_error("publish", "name the runs or use --last, not both");
	if (!nruns && (!a->last || !a->revision))
		return cli_usage_error("publish", "expected run ids, or --last N with --revision");
	if (nruns == 1)
		return cli_usage_error("publish", "one run cannot show stability: name 2 or more");
	if (!(a->level >= 0.5 && a->level <= 0.999))
		return cli_usage_error("publish", "--level %g: expected a number from 0.5 to 0.999",
				       a->level);
	if (!(a->p50 >= 1 && a->p99 >= 1 && a->drift >= 1 && a->mad_k > 0 && a->outliers >= 0 &&
	      a->outliers <= 1))
		return cli_usage_error("publish",
				       "limits: spreads and drift are ratios of at least "
				       "1, --mad-k is positive, --outliers is a fraction");
	return 0;
}

/* The names that must not appear in a publication: this host's (full and
 * short), the user's. */
static void private_names(struct strlist *names)
{
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0]) {
		strlist_push(names, host);
		char *dot = strchr(host, '.');
		if (dot) {
			*dot = 0;
			strlist_push(names, host);
		}
	}
	struct passwd *pw = getpwuid(getuid());
	if (pw && pw->pw_name)
		strlist_push(names, pw->pw_name);
	const char *user = getenv("USER");
	if (user && *user)
		strlist_push(names, user);
}

static void fill_opts(struct assay_publish_opts *o, const struct publish_args *a, int nruns,
		      char **runs)
{
	assay_publish_defaults(o);
	o->suite = a->suite;
	o->revision = a->revision;
	o->last = (long)a->last;
	for (int i = 0; i < nruns; i++)
		strlist_push(&o->run_ids, runs[i]);
	o->limits = (struct assay_publish_limits){a->p50, a->p99, a->drift, a->mad_k, a->outliers};
	o->resamples = (long)a->resamples;
	o->level = a->level;
	o->seed = (uint64_t)a->seed;
	o->tag = a->tag;
	o->expect_matrix = a->expect;
	o->out_dir = a->out;
	o->assay_version = assay_version_string;
	private_names(&o->private_names);
}

/* Publish from the store and say what came of it. */
/* The publication's event: published (its manifest's digest makes it new),
 * gate-failed when a check failed, infra for exit 5. */
static void publish_event(const struct publish_args *a, const struct assay_publish_result *r,
			  int rc, struct assay_notify_events *ev)
{
	char *what = NULL;
	if (rc == ASSAY_OK)
		what = xasprintf("suite %s: %zu series published in %s (%s, manifest sha256 %.12s)",
				 a->suite, r->series, a->out,
				 r->released ? "released" : "unversioned", r->manifest_sha256);
	else if (rc == ASSAY_GATE_FAILED)
		what = xasprintf("suite %s: not published, %zu check%s failed%s%s", a->suite,
				 r->problems.n, r->problems.n == 1 ? "" : "s",
				 r->problems.n ? ": " : "", r->problems.n ? r->problems.v[0] : "");
	else if (rc == ASSAY_INFRA)
		what = xasprintf("assay publish of suite %s ended with exit 5 (infrastructure)",
				 a->suite);
	if (!what)
		return;
	enum assay_notify_kind k = rc == ASSAY_OK            ? ASSAY_NOTIFY_PUBLISHED
				   : rc == ASSAY_GATE_FAILED ? ASSAY_NOTIFY_GATE_FAILED
							     : ASSAY_NOTIFY_INFRA;
	char now[32];
	assay_now_rfc3339(now);
	struct assay_notify_event *x =
	    assay_notify_add(ev, k, a->suite, rc == ASSAY_OK ? r->manifest_sha256 : now, what);
	free(x->revision);
	x->revision = a->revision ? xstrdup(a->revision) : NULL;
	free(what);
}

static int publish(struct publish_args *a, const struct assay_publish_opts *o)
{
	struct assay_store *s = NULL;
	struct assay_error e;
	struct assay_publish_result r = {0};
	int rc = assay_store_open(a->store, ASSAY_STORE_READONLY, &s, &e);
	if (rc == ASSAY_OK)
		rc = assay_publish(s, o, &r, &e);
	if (rc == ASSAY_GATE_FAILED) {
		fprintf(stderr, "assay publish: %s\n", e.message);
		print_problems(&r);
	} else if (rc != ASSAY_OK) {
		cli_report(&e);
	} else {
		printf("published %zu series of suite %s from runs ", r.series, a->suite);
		for (size_t i = 0; i < r.run_ids.n; i++)
			printf("%s%s", i ? ", " : "", r.run_ids.v[i]);
		printf("\n  %s: %s\n  manifest sha256 %s\n", a->out,
		       r.released ? "released" : "unversioned", r.manifest_sha256);
		if (a->tag && a->expect && !r.released)
			fprintf(
			    stderr,
			    "assay publish: --expect-matrix differs from the runs' matrix digest: "
			    "the publication is unversioned\n");
	}
	if (s) {
		struct assay_error ce;
		if (assay_store_close(s, &ce) != ASSAY_OK && rc == ASSAY_OK)
			rc = cli_report(&ce);
	}
	if (a->nc.loaded) {
		struct assay_notify_events ev = {0};
		struct assay_notify_context ctx = {"publish", a->revision};
		publish_event(a, &r, rc, &ev);
		rc = notify_cli_send(&a->nc, a->store, &ev, &ctx, rc);
		assay_notify_events_release(&ev);
	}
	assay_publish_result_release(&r);
	return rc;
}

int cmd_publish(int argc, char **argv)
{
	struct publish_args a = {.store = ASSAY_STORE_DEFAULT_PATH,
				 .resamples = 10000,
				 .seed = 1,
				 .level = 0.95,
				 .p50 = 1.10,
				 .p99 = 1.25,
				 .drift = 1.10,
				 .mad_k = 6,
				 .outliers = 0.05};
	int first, rc = cli_parse(&cmd_publish_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	if (a.verify) {
		if (first < argc || a.suite || a.out)
			return cli_usage_error("publish", "--verify takes only the folder");
		return verify(a.verify);
	}
	rc = check_args(&a, argc - first);
	if (rc == ASSAY_OK)
		rc = notify_cli_load("publish", &a.nc, true);
	if (rc)
		return rc;
	if (a.tag && !a.expect)
		fprintf(stderr, "assay publish: --tag without --expect-matrix: the publication is "
				"unversioned\n");
	struct assay_publish_opts o;
	fill_opts(&o, &a, argc - first, argv + first);
	rc = publish(&a, &o);
	strlist_clear(&o.run_ids);
	strlist_clear(&o.private_names);
	notify_cli_release(&a.nc);
	return rc;
}
