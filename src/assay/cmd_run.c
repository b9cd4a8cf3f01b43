/* assay run: run a suite (or --dry-run it, or --resume a run), show progress
 * on stderr (a live line on a terminal, one line per event otherwise), and
 * print the summary of every case and where the results are. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/report.h"
#include "assay/run.h"
#include "cli.h"
#include "notify_cli.h"
#include "opt.h"

struct run_args {
	struct assay_run_options o;
	const char *format;
	bool quiet, no_report;
	struct notify_cli nc;
};

static const char *const formats[] = {"text", "json", NULL};

static const struct cli_opt run_opts[] = {
    CLI_OPT_FLAG("dry-run", struct run_args, o.dry_run,
		 "print what each case would run (Slurm: the job scripts);\n"
		 "start and write nothing"),
    CLI_OPT_STRING("resume", "ID|last", struct run_args, o.resume,
		   "continue run ID (or the last run): only the cases that\n"
		   "did not finish run again"),
    CLI_OPT_STRING("cleanup", "ID|last", struct run_args, o.cleanup,
		   "only end and remove what run ID (or the last run) left\n"
		   "running: processes, jobs, containers; run no case"),
    CLI_OPT_STRING("store", "FILE", struct run_args, o.store,
		   "the results store (default: the suite's, else assay.db)"),
    CLI_OPT_STRING("out", "DIR", struct run_args, o.output,
		   "the output folder (default: the suite's, else out)"),
    CLI_OPT_STRING("revision", "REV", struct run_args, o.revision,
		   "the revision under test (default: the suite's, else\n"
		   "`git rev-parse HEAD`)"),
    CLI_OPT_STRING("assay-ep", "FILE", struct run_args, o.assay_ep,
		   "the assay-ep binary (default: next to assay, then PATH)"),
    CLI_OPT_FLAG("fail-fast", struct run_args, o.fail_fast,
		 "skip the remaining cases after the first that fails"),
    CLI_OPT_FLAG("quiet", struct run_args, quiet,
		 "no live progress line: one line per event on stderr"),
    CLI_OPT_FORMAT(struct run_args, format,
		   "what is printed: text, or json (the summary as schema assay.run/1;\n"
		   "with --dry-run the plan as schema assay.dry-run/1)",
		   "text", formats),
    CLI_OPT_JSON,
    CLI_OPT_FLAG("no-report", struct run_args, no_report,
		 "do not write report.html, junit.xml and summary.md into\n"
		 "the run folder at the end (`assay report` writes them later)"),
    CLI_OPT_GROUP("notifications (docs/notify.md)"),
    CLI_OPT_TABLE(notify_cli_opts, struct run_args, nc),
    CLI_OPT_END,
};

const struct cli_spec cmd_run_spec = {
    .name = "run",
    .usage = "assay run [options] SUITE",
    .about = "Run every case of SUITE (docs/suite.md): launch it, watch its output for\n"
	     "error signatures, parse its results into measurement rows, and store the\n"
	     "outcome and rows. Each case ends as passed, gate-failed, workload-failed,\n"
	     "no-metrics, infrastructure, unsupported or skipped; the summary lists them\n"
	     "all.\n"
	     "\n"
	     "Interrupt (Ctrl-C, SIGTERM, SIGHUP) stops the running case (SIGTERM, then\n"
	     "SIGKILL to its whole cgroup; scancel under the Slurm launcher, docs/slurm.md),\n"
	     "records the run and prints the command that resumes it; interrupt twice to\n"
	     "kill the case at once.\n",
    .opts = run_opts,
    .examples = "assay run configs/quickstart.json\n"
		"assay run --dry-run configs/quickstart.json\n"
		"assay run --dry-run configs/examples/slurm-h100.json   # Slurm job scripts\n"
		"assay run --resume last configs/quickstart.json",
    .exits = "Exit codes: the worst case outcome, 2 > 5 > 3 > 4 > 1 > 0 (docs/exit-codes.md);\n"
	     "5 also when the run was interrupted, or when every case passed but the report\n"
	     "could not be written (a report failure never hides a failed case's code).\n",
    .min_args = 1,
    .max_args = 1,
    .args_what = "suite file",
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted++;
}

struct progress {
	bool live;      /* a terminal line rewritten in place */
	bool line_open; /* the live line is showing */
	json_t *dry;    /* --dry-run --format json: the plan's cases, else NULL */
	bool cleanup;   /* --cleanup: its lines say so */
};

static void fmt_duration(double s, char *buf, size_t size)
{
	if (s < 0)
		snprintf(buf, size, "?");
	else if (s < 60)
		snprintf(buf, size, "%.1f s", s);
	else if (s < 3600)
		snprintf(buf, size, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else
		snprintf(buf, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

static void clear_live(struct progress *p)
{
	if (p->line_open) {
		fputs("\r\033[K", stderr);
		p->line_open = false;
	}
}

/* One case of the plan as JSON: its lines as the text prints them under the
 * case, the first without the two spaces before it (docs/run.md, "Dry run
 * as JSON"). */
static void dry_case_json(json_t *cases, const struct assay_run_event *ev)
{
	json_t *lines = json_array();
	for (const char *p = ev->text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		json_array_append_new(lines, json_stringn(p, n));
		p += n + (nl ? 1 : 0);
	}
	json_array_append_new(
	    cases, json_pack("{s:I, s:s, s:b, s:o}", "index", (json_int_t)ev->index, "case_id",
			     ev->case_id, "runnable", strncmp(ev->text, "unsupported: ", 13) != 0,
			     "plan", lines));
}

static void print_dry_json(const struct assay_run_result *res, json_t *cases)
{
	json_t *doc = json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:O}", "schema", "assay.dry-run/1",
				"suite", res->suite, "revision", res->revision, "run_dir",
				res->run_dir, "store", res->store_name, "cases", cases);
	char *text = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	printf("%s\n", text);
	free(text);
	json_decref(doc);
}

static void on_event(const struct assay_run_event *ev, void *ctx)
{
	struct progress *p = ctx;
	char el[32], eta[32], cs[32];
	fmt_duration(ev->elapsed_s, el, sizeof(el));
	fmt_duration(ev->eta_s, eta, sizeof(eta));
	fmt_duration(ev->case_s, cs, sizeof(cs));
	switch (ev->kind) {
	case ASSAY_EVENT_RUN_START:
		fprintf(stderr, "run %s: %zu cases%s\n", ev->run_id, ev->total,
			ev->resumed ? " (resumed: finished cases are kept)" : "");
		break;
	case ASSAY_EVENT_CASE_START:
	case ASSAY_EVENT_TICK:
		if (p->live) {
			fprintf(stderr, "\r\033[K[%zu/%zu] %s  %s%s%s  (run %s, ETA %s)", ev->index,
				ev->total, ev->case_id, cs, ev->text ? "  " : "",
				ev->text ? ev->text : "", el, eta);
			p->line_open = true;
		} else if (ev->kind == ASSAY_EVENT_CASE_START) {
			fprintf(stderr, "[%zu/%zu] start %s\n", ev->index, ev->total, ev->case_id);
		}
		break;
	case ASSAY_EVENT_STATE:
		/* Slurm: "PENDING (Resources)", "RUNNING on node1" */
		if (!p->live)
			fprintf(stderr, "[%zu/%zu] %s: %s (%s)\n", ev->index, ev->total,
				ev->case_id, ev->text, cs);
		break;
	case ASSAY_EVENT_SERVER:
		clear_live(p);
		fprintf(stderr, "server: %s\n", ev->text);
		break;
	case ASSAY_EVENT_CLEANUP:
		clear_live(p);
		fprintf(stderr, "%s: %s\n", p->cleanup ? "cleanup" : "resume", ev->text);
		break;
	case ASSAY_EVENT_CASE_END:
		clear_live(p);
		if (ev->outcome->earlier)
			fprintf(stderr, "[%zu/%zu] %s %s (finished earlier)\n", ev->index,
				ev->total, assay_outcome_name(ev->outcome->outcome), ev->case_id);
		else
			fprintf(stderr, "[%zu/%zu] %s %s (%s)%s%s\n", ev->index, ev->total,
				assay_outcome_name(ev->outcome->outcome), ev->case_id, cs,
				ev->outcome->reason ? ": " : "",
				ev->outcome->reason ? ev->outcome->reason : "");
		break;
	case ASSAY_EVENT_INTERRUPT:
		clear_live(p);
		fprintf(stderr, "interrupted: stopping %s (interrupt again to kill it now)\n",
			ev->case_id);
		break;
	case ASSAY_EVENT_DRY_CASE:
		if (p->dry)
			dry_case_json(p->dry, ev);
		else
			printf("[%zu/%zu] %s\n  %s", ev->index, ev->total, ev->case_id, ev->text);
		break;
	}
	fflush(stderr);
}

static void print_summary(const struct assay_run_result *res, const char *report)
{
	size_t w = 4;
	for (size_t i = 0; i < res->n; i++)
		if (strlen(res->cases[i].case_id) > w)
			w = strlen(res->cases[i].case_id);
	printf("\nrun %s  suite %s  revision %s\n\n", res->run_id, res->suite, res->revision);
	printf("%-*s  %-15s %9s  %s\n", (int)w, "case", "outcome", "duration", "reason");
	for (size_t i = 0; i < res->n; i++) {
		const struct assay_case_outcome *c = &res->cases[i];
		char d[32];
		if (c->outcome == ASSAY_OUTCOME_UNSUPPORTED ||
		    (c->outcome == ASSAY_OUTCOME_SKIPPED && !c->dir))
			snprintf(d, sizeof(d), "-");
		else /* time running; time in a queue is said apart */
			fmt_duration(c->duration_s - c->queue_s, d, sizeof(d));
		printf("%-*s  %-15s %9s", (int)w, c->case_id, assay_outcome_name(c->outcome), d);
		if (c->earlier || c->reason)
			printf("  %s%s", c->earlier ? "(earlier attempt) " : "",
			       c->reason ? c->reason : "");
		if (c->queue_s >= 0.05) {
			char q[32];
			fmt_duration(c->queue_s, q, sizeof(q));
			printf("%s(queued %s)", c->earlier || c->reason ? " " : "  ", q);
		}
		printf("\n");
	}
	printf("\n%zu cases:", res->n);
	bool first = true;
	for (int o = 0; o < ASSAY_OUTCOME_COUNT; o++) {
		if (!res->counts[o])
			continue;
		printf("%s %zu %s", first ? "" : ",", res->counts[o],
		       assay_outcome_name((enum assay_outcome)o));
		first = false;
	}
	printf("\nresults: %s/ (summary.json, a folder per case with its logs)\n", res->run_dir);
	printf("store:   %s (run %s)\n", res->store_name, res->run_id);
	if (report)
		printf("report:  %s/report.html (and junit.xml, summary.md)\n", report);
	printf("exit %d (%s)\n", (int)res->exit_code, assay_strerror(res->exit_code));
}

/* The reports (HTML, JUnit, Markdown) read the store and the run folder,
 * so they are written here, after the run has ended, into the run folder. */
static assay_err write_reports(const struct assay_run_result *res, struct assay_error *e)
{
	struct assay_report r;
	struct assay_report_found found;
	struct assay_report_source src = {.store = res->store,
					  .run = res->run_id,
					  .run_dir = res->run_dir,
					  .redact = &res->redact};
	assay_report_init(&r);
	assay_err rc = assay_report_load(&src, &r, &found, e);
	if (rc == ASSAY_OK)
		rc = assay_report_write(&r, res->run_dir, e);
	assay_report_found_release(&found);
	assay_report_release(&r);
	return rc;
}

/* Print the run's summary as --format asks, and say where the report is. */
static void print_result(const struct assay_run_result *res, bool json, bool reported)
{
	if (json) {
		json_t *doc = assay_run_summary_json(res);
		char *text = assay_json_dumps(doc, ASSAY_JSON_SORT | ASSAY_JSON_PRETTY);
		printf("%s\n", text);
		free(text);
		json_decref(doc);
	} else {
		print_summary(res, reported ? res->run_dir : NULL);
	}
	fflush(stdout);
}

/* --notify: each failed gate of a case (gate-failed) and exit 5 (infra),
 * sent once per target, what each answered in <run_dir>/notify.json. */
static int notify_run(struct run_args *a, const struct assay_run_result *res, int rc)
{
	struct assay_notify_events ev = {0};
	for (size_t i = 0; i < res->n; i++) {
		const struct assay_verdicts *vs = &res->cases[i].verdicts;
		for (size_t j = 0; j < vs->n; j++) {
			const struct assay_verdict *v = &vs->v[j];
			if (v->status != ASSAY_VERDICT_FAIL)
				continue;
			char key[200],
			    *what = xasprintf("case %s: %s %s: %s", res->cases[i].case_id, v->gate,
					      v->metric, v->message);
			snprintf(key, sizeof(key), "%s/%s/%s/%s", res->cases[i].case_id,
				 v->series_key ? v->series_key : "", v->gate, v->metric);
			assay_notify_add(&ev, ASSAY_NOTIFY_GATE_FAILED, key, res->revision, what);
			free(what);
		}
	}
	if (rc == ASSAY_INFRA)
		assay_notify_add(
		    &ev, ASSAY_NOTIFY_INFRA, res->run_id, res->run_id,
		    "assay run ended with exit 5 (infrastructure): see the run's report");
	struct assay_notify_context ctx = {"run", res->revision};
	char *record = xasprintf("%s/notify.json", res->run_dir);
	rc = notify_cli_send_record(&a->nc, res->store, &ev, &ctx, record, rc);
	free(record);
	assay_notify_events_release(&ev);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = {.format = "text"};
	struct assay_run_options o = {0};
	int first, rc = cli_parse(&cmd_run_spec, argc, argv, &a, &first);
	if (rc == ASSAY_OK && a.o.dry_run && a.o.resume)
		rc = cli_usage_error("run", "--dry-run and --resume cannot be combined");
	if (rc == ASSAY_OK && a.o.cleanup && (a.o.dry_run || a.o.resume))
		rc = cli_usage_error("run",
				     "--cleanup cannot be combined with --dry-run or --resume");
	if (rc == ASSAY_OK && !a.o.dry_run && !a.o.cleanup)
		rc = notify_cli_load("run", &a.nc, true);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	o = a.o;
	bool json = !strcmp(a.format, "json");
	o.suite_file = argv[first];
	struct progress prog = {isatty(2) && !a.quiet && !json, false,
				o.dry_run && json ? json_array() : NULL, o.cleanup != NULL};
	o.on_event = on_event;
	o.ctx = &prog;
	o.interrupted = &interrupted;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits wake up and look */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a lost ssh session: stop and record, like Ctrl-C */
	signal(SIGPIPE, SIG_IGN);     /* its terminal or pipe may be gone: writes just fail */

	struct assay_run_result res;
	struct assay_error e;
	assay_error_clear(&e);
	rc = assay_run(&o, &res, &e);
	clear_live(&prog);
	if (o.dry_run || o.cleanup || rc == ASSAY_USAGE || !res.run_id[0]) {
		if (rc != ASSAY_OK)
			cli_report(&e);
		else if (prog.dry)
			print_dry_json(&res, prog.dry);
		json_decref(prog.dry);
		assay_run_result_release(&res);
		notify_cli_release(&a.nc);
		return rc;
	}
	/* A report that cannot be written is an infrastructure error, but the
	 * run's own outcome comes first: it turns a passed run into 5 and
	 * leaves any other exit code as the cases made it. */
	/* Notifications first, so that the report says what they did. */
	if (a.nc.loaded && !res.interrupted)
		res.exit_code = notify_run(&a, &res, res.exit_code);
	struct assay_error re;
	bool reported = false;
	if (!a.no_report) {
		reported = write_reports(&res, &re) == ASSAY_OK;
		if (!reported) {
			fprintf(stderr, "assay run: the report was not written: ");
			cli_report(&re);
			if (res.exit_code == ASSAY_OK)
				res.exit_code = ASSAY_INFRA;
		}
	}
	print_result(&res, json, reported);
	if (e.message[0] && (rc == ASSAY_INFRA || res.interrupted))
		cli_report(&e);
	rc = res.exit_code;
	notify_cli_release(&a.nc);
	assay_run_result_release(&res);
	return rc;
}
