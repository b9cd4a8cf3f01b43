/* assay gate: judge measurement rows against a thresholds file, and a
 * training log against a gate spec (run health, loss curve, convergence,
 * scaling, checkpoint resume); print the verdict table, exit 0 or 1. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/gate.h"
#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"
#include "cli.h"
#include "notify_cli.h"
#include "opt.h"

struct gate_args {
	const char *thresholds, *combo, *spec, *log, *save_log, *resume_log, *single_log;
	const char *input_format, *format, *as, *error_patterns;
	json_t *series;       /* --series: context of the RESULTS files */
	long long final_step; /* a TorchTitan run's configured steps; 0: not checked */
	struct assay_train_opts topts;
	struct notify_cli nc;
};

/* --format: what is printed. A log format here is the deprecated spelling
 * of --input-format (it meant that before 0.9). */
static int opt_format(void *args, const char *arg, const char *cmd)
{
	struct gate_args *a = args;
	if (!strcmp(arg, "table") || !strcmp(arg, "json")) {
		a->format = arg;
		return ASSAY_OK;
	}
	if (!strcmp(arg, "auto") || assay_train_format_known(arg)) {
		fprintf(stderr, "assay %s: --format %s is deprecated; use --input-format %s\n", cmd,
			arg, arg);
		a->input_format = arg;
		return ASSAY_OK;
	}
	return cli_usage_error(cmd, "--format: expected table or json, got '%s'", arg);
}

static const char *const as_choices[] = {"assay", "cvs", NULL};

/* --series KEY=VALUE into the RESULTS files' context: integers stay
 * integers. */
static int opt_series(void *args, const char *arg, const char *cmd)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(cmd, "bad value for --series: '%s'", arg);
	char *key = xstrndup(arg, (size_t)(eq - arg));
	long long n;
	json_object_set_new(((struct gate_args *)args)->series, key,
			    assay_parse_long(eq + 1, &n) ? json_integer(n) : json_string(eq + 1));
	free(key);
	return ASSAY_OK;
}

static const struct cli_opt gate_opts[] = {
    CLI_OPT_STRING("thresholds", "FILE", struct gate_args, thresholds,
		   "thresholds file (docs/gate.md)"),
    CLI_OPT_STRING("combo", "KEY", struct gate_args, combo,
		   "the run's cell: MBS=<m>,GBS=<g>,PRECISION=<p> (default: \"default\")"),
    {.type = CLI_CALL,
     .name = "series",
     .arg = "KEY=VALUE",
     .help = "a field of the RESULTS files' series (repeatable); for a serving\n"
	     "benchmark's result also tp, pp, isl, nnodes and\n"
	     "scaling_baseline_output_throughput (docs/inference.md)",
     .call = opt_series},
    CLI_OPT_STRING("spec", "FILE", struct gate_args, spec,
		   "gate spec: loss_curve, convergence, scaling, checkpoint"),
    CLI_OPT_STRING("log", "FILE", struct gate_args, log,
		   "training log: run health, its rows, and the spec's loss curve,\n"
		   "convergence and scaling gates"),
    CLI_OPT_STRING("single-log", "FILE", struct gate_args, single_log,
		   "the 1-node run of the --log run: scaling_efficiency, as CVS computes it\n"
		   "(docs/gate.md)"),
    {.type = CLI_CHOICE,
     .name = "as",
     .arg = "SYSTEM",
     .off = offsetof(struct gate_args, as),
     .help = "judge as assay does, or exactly as cvs does (docs/parity.md)",
     .def = "assay",
     .choices = as_choices},
    CLI_OPT_STRING("error-patterns", "FILE", struct gate_args, error_patterns,
		   "error patterns the log must not match: name -> pattern, or a CVS\n"
		   "config's training.error_patterns (replaces CVS's defaults)"),
    {.type = CLI_INT,
     .name = "final-step",
     .arg = "N",
     .off = offsetof(struct gate_args, final_step),
     .help = "the step a TorchTitan RESULTS log must reach (CVS's training_iterations)",
     .min = 1},
    CLI_OPT_STRING("save-log", "FILE", struct gate_args, save_log,
		   "the run that saved the checkpoint (spec's checkpoint gate)"),
    CLI_OPT_STRING("resume-log", "FILE", struct gate_args, resume_log,
		   "the run that resumed from it"),
    {.type = CLI_STRING,
     .name = "input-format",
     .arg = "F",
     .off = offsetof(struct gate_args, input_format),
     .help = "format of the logs: auto, megatron, primus, megatron-golden",
     .def = "auto"},
    CLI_OPT_TABLE(train_cli_opts, struct gate_args, topts),
    {.type = CLI_CALL,
     .name = "format",
     .arg = "F",
     .help = "what is printed: table, or json (one verdict object per line)",
     .def = "table",
     .call = opt_format},
    CLI_OPT_JSON,
    CLI_OPT_GROUP("notifications (docs/notify.md)"),
    CLI_OPT_TABLE(notify_cli_opts, struct gate_args, nc),
    CLI_OPT_END,
};

const struct cli_spec cmd_gate_spec = {
    .name = "gate",
    .usage = "assay gate [--thresholds FILE [--combo KEY]] [--spec FILE] [--log FILE]\n"
	     "           [--save-log FILE --resume-log FILE] [options] [RESULTS.ndjson...]",
    .about = "Judge measurement rows (RESULTS files, and the rows of --log) against the\n"
	     "cell of KEY in a thresholds file, and a training log against the gates of a\n"
	     "spec file. Prints one verdict per line: PASS, FAIL, RECORD (measured, not\n"
	     "judged) or SKIPPED (optional and missing).\n",
    .opts = gate_opts,
    .examples =
	"assay gate --thresholds thresholds.json --combo MBS=1,GBS=8,PRECISION=BF16 rows.ndjson",
    .exits = "Exit codes: 0 nothing failed, 1 a verdict failed, 2 bad arguments or invalid\n"
	     "input (also an unknown --combo or metric name), 3 a log's run failed\n"
	     "(incomplete, NaN/Inf, NaN iterations, an error signature), 4 a log without\n"
	     "steps: as 'assay parse'. See docs/gate.md.\n",
    .min_args = 0,
    .max_args = -1,
    .args_what = "results file",
};

static assay_err load_log(const struct gate_args *a, const char *file, struct assay_train_result *r,
			  struct assay_error *e)
{
	int fd = strcmp(file, "-") ? open(file, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0) {
		memset(r, 0, sizeof(*r));
		return assay_error_at(e, ASSAY_USAGE, file, NULL, 0, "cannot read: %s",
				      strerror(errno));
	}
	assay_err rc = assay_train_parse_fd(a->input_format, fd, -1, &a->topts, file, r, e);
	if (fd)
		close(fd);
	return rc;
}

static void value_text(const struct assay_verdict *v, char *buf, size_t n)
{
	if (isnan(v->value))
		snprintf(buf, n, "-");
	else if (v->unit[0])
		snprintf(buf, n, "%.8g %s", v->value, v->unit);
	else
		snprintf(buf, n, "%.8g", v->value);
}

static void print_table(const struct assay_verdicts *vs)
{
	int wg = 4, wm = 6, wv = 5, ws = 4;
	char val[96];
	for (size_t i = 0; i < vs->n; i++) {
		const struct assay_verdict *v = &vs->v[i];
		value_text(v, val, sizeof(val));
		int g = (int)strlen(v->gate), m = (int)strlen(v->metric), x = (int)strlen(val),
		    s = (int)strlen(v->spec);
		wg = g > wg ? g : wg;
		wm = m > wm ? m : wm;
		wv = x > wv ? x : wv;
		ws = s > ws ? s : ws;
	}
	printf("%-7s  %-*s  %-*s  %-*s  %-*s  %s\n", "status", wg, "gate", wm, "metric", wv,
	       "value", ws, "spec", "message");
	for (size_t i = 0; i < vs->n; i++) {
		const struct assay_verdict *v = &vs->v[i];
		value_text(v, val, sizeof(val));
		printf("%-7s  %-*s  %-*s  %-*s  %-*s  %s\n", assay_verdict_status_name(v->status),
		       wg, v->gate, wm, v->metric, wv, val, ws, v->spec, v->message);
	}
	size_t c[ASSAY_VERDICT_COUNT];
	assay_verdicts_count(vs, c);
	printf("\n%zu verdicts: %zu pass, %zu fail, %zu record, %zu skipped\n", vs->n,
	       c[ASSAY_VERDICT_PASS], c[ASSAY_VERDICT_FAIL], c[ASSAY_VERDICT_RECORD],
	       c[ASSAY_VERDICT_SKIPPED]);
}

static void print_json(const struct assay_verdicts *vs)
{
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < vs->n; i++) {
		json_t *o = assay_verdict_to_json(&vs->v[i]);
		assay_json_write(&sb, o, ASSAY_JSON_SORT);
		sbuf_addch(&sb, '\n');
		json_decref(o);
	}
	fwrite(sbuf_str(&sb), 1, sb.len, stdout);
	sbuf_release(&sb);
}

/* Which inputs the spec's sections need (a MaxText RESULTS log mt stands
 * for --log in the loss-curve and convergence gates); a usage message or
 * NULL. */
static const char *missing_input(const struct gate_args *a, const struct assay_gate_spec *s,
				 const char *mt)
{
	if (!a->spec && (a->save_log || a->resume_log))
		return "--save-log and --resume-log need --spec with a \"checkpoint\" gate";
	if (!a->log && (s->has_scaling || (!mt && (s->has_loss_curve || s->has_convergence))))
		return "the spec's loss_curve, convergence and scaling gates need --log FILE";
	if (s->has_checkpoint && (!a->save_log || !a->resume_log))
		return "the spec's checkpoint gate needs --save-log FILE and --resume-log FILE";
	if ((a->save_log || a->resume_log) && !s->has_checkpoint)
		return "--save-log and --resume-log need a spec with a \"checkpoint\" gate";
	return NULL;
}

/* A RESULTS file's format: measurement rows; a TorchTitan or MaxText log
 * (read as CVS reads it, docs/gate.md); a serving benchmark's saved result
 * (vllm-bench, atom-bench; read as atom-bench under an ATOM threshold file,
 * as CVS's ATOM suite reads its vllm client's); else rows. th may be NULL. */
static const char *results_hint(const char *file, const struct assay_thresholds *th)
{
	struct assay_file_map m;
	struct assay_error e;
	const char *hint = "rows";
	if (!strcmp(file, "-") || assay_map_file(file, &m, &e) != ASSAY_OK)
		return hint;
	const struct assay_format *rows = assay_format_find("rows");
	bool vllm = false;
	if (rows->detect(m.data, m.len))
		hint = "rows";
	else if (assay_detect_torchtitan(m.data, m.len))
		hint = "torchtitan";
	else if (assay_detect_maxtext(m.data, m.len))
		hint = "maxtext";
	else if ((vllm = assay_detect_vllm_bench(m.data, m.len)) ||
		 assay_detect_atom_bench(m.data, m.len))
		hint = (th && th->cvs_infer == ASSAY_CVS_INFER_ATOM) || !vllm ? "atom-bench"
									      : "vllm-bench";
	assay_unmap_file(&m);
	return hint;
}

/* The first MaxText RESULTS log, or NULL. */
static const char *maxtext_file(int nres, char **results)
{
	for (int i = 0; i < nres; i++)
		if (!strcmp(results_hint(results[i], NULL), "maxtext"))
			return results[i];
	return NULL;
}

/* A MaxText log's steps, for the spec's loss-curve and convergence gates. */
static assay_err load_maxtext(const char *file, struct assay_train_result *r, struct assay_error *e)
{
	struct assay_file_map m;
	if (assay_map_file(file, &m, e) != ASSAY_OK)
		return ASSAY_USAGE;
	assay_maxtext_train(m.data, m.len, r);
	assay_unmap_file(&m);
	return ASSAY_OK;
}

/* The rows of the RESULTS files, appended to rows, through the results
 * reader; an inference --combo's factors (and --series) are their context. */
static assay_err read_rows(const struct gate_args *a, const struct assay_thresholds *th, int nres,
			   char **results, struct assay_rows *rows, struct assay_error *e)
{
	struct assay_results res = {.rows = *rows};
	assay_err rc = ASSAY_OK;
	json_t *ctx = json_object();
	char canon[256];
	if (a->combo && assay_combo_is_infer(a->combo) &&
	    assay_combo_canonical(a->combo, canon, sizeof(canon), NULL)) {
		json_decref(ctx);
		ctx = assay_combo_infer_context(canon);
	}
	json_object_update(ctx, a->series);
	for (int i = 0; i < nres && rc == ASSAY_OK; i++) {
		struct assay_results_opts o = {.hint = results_hint(results[i], th),
					       .by = ASSAY_DETECT_CONTENT};
		o.parse.file = results[i];
		/* The combo's factors are a serving result's; rows keep their own. */
		o.parse.context = strcmp(o.hint, "rows") ? ctx : a->series;
		rc = assay_results_read(results[i], -1, &o, &res, e);
	}
	json_decref(ctx);
	*rows = res.rows;
	return rc;
}

/* Rows of the values CVS reads from the log (CVS thresholds), and the
 * scaling efficiency against --single-log, as CVS computes it from the
 * throughput per GPU of the two runs: tokens_per_sec_total = TFLOP/s/GPU x
 * nodes x 8, and the GPUs cancel out (docs/gate.md). */
static assay_err cvs_rows(const struct gate_args *a, struct assay_thresholds *th,
			  const struct assay_train_result *log, struct assay_rows *rows,
			  struct assay_error *e)
{
	bool strict = !strcmp(a->as, "cvs");
	size_t from = rows->n;
	th->cvs_labels = strict;
	if (th->cvs)
		assay_train_cvs_rows(log, strict, rows);
	if (th->cvs && assay_thresholds_every_match(th))
		assay_train_cvs_old_rows(log, rows);
	if (a->single_log) {
		struct assay_train_result one;
		if (load_log(a, a->single_log, &one, e) != ASSAY_OK)
			return ASSAY_USAGE;
		double vn, v1;
		enum assay_cvs_source s;
		if (assay_train_cvs_value(log, ASSAY_TM_TFLOPS, strict, &vn, &s) &&
		    assay_train_cvs_value(&one, ASSAY_TM_TFLOPS, strict, &v1, &s) && v1 > 0 &&
		    vn > 0) {
			struct assay_row *r = assay_rows_add(rows);
			assay_row_init(r);
			assay_row_set(r, json_object(), "scaling_efficiency", "cvs", vn / v1 * 100,
				      "%", ASSAY_DIR_HIGHER);
		}
		assay_train_result_release(&one);
	}
	struct assay_parse_opts po = {.file = a->log};
	return assay_parse_stamp(rows, from, &po, e);
}

/* CVS's error dictionary (--as cvs), or --error-patterns, on the log:
 * ASSAY_WORKLOAD_FAILED when a pattern matches, as a signature does. */
static assay_err error_patterns(const struct gate_args *a, struct assay_verdicts *vs,
				struct assay_error *e)
{
	struct assay_error_dict d;
	if (a->error_patterns) {
		if (assay_error_dict_load(a->error_patterns, &d, e) != ASSAY_OK)
			return ASSAY_USAGE;
	} else if (!strcmp(a->as, "cvs")) {
		assay_error_dict_cvs_megatron(&d);
	} else {
		return ASSAY_OK;
	}
	struct assay_file_map m;
	assay_err rc = assay_map_file(a->log, &m, e);
	if (rc == ASSAY_OK) {
		if (assay_gate_error_dict(&d, m.data, m.len, vs))
			rc = ASSAY_WORKLOAD_FAILED;
		assay_unmap_file(&m);
	}
	assay_error_dict_release(&d);
	return rc;
}

/* The error dictionary CVS searches a TorchTitan or MaxText RESULTS log
 * with, or --error-patterns: ASSAY_WORKLOAD_FAILED when one matches. */
static assay_err results_errors(const struct gate_args *a, int nres, char **results,
				struct assay_verdicts *vs, struct assay_error *e)
{
	assay_err rc = ASSAY_OK;
	for (int i = 0; i < nres && rc != ASSAY_USAGE; i++) {
		const char *hint = results_hint(results[i], NULL);
		struct assay_error_dict d;
		if (strcmp(hint, "torchtitan") && strcmp(hint, "maxtext"))
			continue; /* rows and serving results: no training log */
		if (a->error_patterns) {
			if (assay_error_dict_load(a->error_patterns, &d, e) != ASSAY_OK)
				return ASSAY_USAGE;
		} else if (!strcmp(hint, "torchtitan")) {
			assay_error_dict_cvs_torchtitan(&d);
		} else {
			assay_error_dict_cvs_maxtext(&d);
		}
		struct assay_file_map m;
		if (assay_map_file(results[i], &m, e) != ASSAY_OK) {
			rc = ASSAY_USAGE;
		} else {
			if (assay_gate_error_dict(&d, m.data, m.len, vs))
				rc = ASSAY_WORKLOAD_FAILED;
			assay_unmap_file(&m);
		}
		assay_error_dict_release(&d);
	}
	return rc;
}

/* A TorchTitan or MaxText RESULTS log: the rows CVS derives from the cell,
 * the run checks CVS makes, and its error dictionary. */
static assay_err results_logs(const struct gate_args *a, int nres, char **results,
			      struct assay_rows *rows, struct assay_verdicts *vs,
			      struct assay_error *e)
{
	assay_cvs_train_rows(a->combo, rows);
	bool failed = assay_gate_cvs_train(a->combo, a->final_step, rows, vs);
	assay_err rc = results_errors(a, nres, results, vs, e);
	return rc == ASSAY_OK && failed ? ASSAY_WORKLOAD_FAILED : rc;
}

/* The --log run's rows and health, and the error patterns on it (*log_rc:
 * their outcome). */
static assay_err log_gates(const struct gate_args *a, const struct assay_train_result *log,
			   struct assay_rows *rows, struct assay_verdicts *vs, int *log_rc,
			   struct assay_error *e)
{
	struct assay_parse_opts po = {.file = a->log};
	if (assay_train_rows(log, &po, rows, e) != ASSAY_OK)
		return ASSAY_USAGE;
	assay_gate_run(log, vs);
	*log_rc = error_patterns(a, vs, e);
	return *log_rc == ASSAY_USAGE ? ASSAY_USAGE : ASSAY_OK;
}

/* The spec's gates on the logs read, then the verdicts as --format asks. */
static void spec_gates(const struct gate_args *a, const struct assay_gate_spec *spec,
		       const struct assay_train_result *log, const struct assay_train_result *save,
		       const struct assay_train_result *resume, struct assay_verdicts *vs)
{
	if (spec->has_loss_curve)
		assay_gate_loss_curve(&spec->loss_curve, log, vs);
	if (spec->has_convergence)
		assay_gate_convergence(&spec->convergence, log, vs);
	if (spec->has_scaling)
		assay_gate_scaling(&spec->scaling, log, vs);
	if (spec->has_checkpoint)
		assay_gate_checkpoint(&spec->checkpoint, save, resume, vs);
	if (!strcmp(a->format, "json"))
		print_json(vs);
	else
		print_table(vs);
}

/* Each failed verdict as a gate-failed event (--notify). */
static void verdict_events(const struct assay_verdicts *vs, struct assay_notify_events *ev)
{
	for (size_t i = 0; ev && i < vs->n; i++) {
		const struct assay_verdict *v = &vs->v[i];
		if (v->status != ASSAY_VERDICT_FAIL)
			continue;
		char *what = xasprintf("%s %s: %s", v->gate, v->metric, v->message);
		char key[160];
		snprintf(key, sizeof(key), "%s/%s/%s", v->series_key ? v->series_key : "", v->gate,
			 v->metric);
		assay_notify_add(ev, ASSAY_NOTIFY_GATE_FAILED, key, NULL, what);
		free(what);
	}
}

static int run_gates(const struct gate_args *a, int nres, char **results,
		     struct assay_notify_events *ev)
{
	struct assay_thresholds th = {0};
	struct assay_gate_spec spec = {0};
	struct assay_train_result log = {0}, save = {0}, resume = {0};
	bool have_log = false, have_pair = false, have_mt = false;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	struct assay_error err;
	int rc = ASSAY_OK, log_rc = ASSAY_OK, res_rc = ASSAY_OK;
	if (a->thresholds && assay_thresholds_load(a->thresholds, &th, &err) != ASSAY_OK)
		goto report;
	if (a->spec && assay_gate_spec_load(a->spec, &spec, &err) != ASSAY_OK)
		goto report;
	const char *why = missing_input(a, &spec, maxtext_file(nres, results));
	if (why) {
		rc = cli_usage_error("gate", "%s", why);
		goto out;
	}
	if (read_rows(a, &th, nres, results, &rows, &err) != ASSAY_OK ||
	    (res_rc = results_logs(a, nres, results, &rows, &vs, &err)) == ASSAY_USAGE)
		goto report;
	if (a->log) {
		if (load_log(a, a->log, &log, &err) != ASSAY_OK)
			goto report;
		have_log = true;
		if (log_gates(a, &log, &rows, &vs, &log_rc, &err) != ASSAY_OK)
			goto report;
	} else if (a->spec && maxtext_file(nres, results)) {
		if (load_maxtext(maxtext_file(nres, results), &log, &err) != ASSAY_OK)
			goto report;
		have_mt = true;
	}
	if (a->save_log) {
		if (load_log(a, a->save_log, &save, &err) != ASSAY_OK)
			goto report;
		if (load_log(a, a->resume_log, &resume, &err) != ASSAY_OK) {
			assay_train_result_release(&save);
			goto report;
		}
		have_pair = true;
	}
	if (have_log && cvs_rows(a, &th, &log, &rows, &err) != ASSAY_OK)
		goto report;
	if (a->thresholds && assay_thresholds_check_metrics(&th, a->combo, &rows, &err) != ASSAY_OK)
		goto report;
	if (a->thresholds && assay_gate_thresholds(&th, a->combo ? a->combo : "default", &rows, &vs,
						   &err) != ASSAY_OK)
		goto report;
	spec_gates(a, &spec, &log, &save, &resume, &vs);
	verdict_events(&vs, ev);
	rc = assay_err_worst(assay_verdicts_outcome(&vs), res_rc);
	/* A log's own outcome counts as in 'assay parse': a failed workload
	 * is 3 and a log without steps 4, not merely a failed verdict. */
	if (have_log)
		rc = assay_err_worst(rc, assay_err_worst(log_rc, assay_train_outcome(&log)));
	if (have_pair) {
		rc = assay_err_worst(rc, assay_train_outcome(&save));
		rc = assay_err_worst(rc, assay_train_outcome(&resume));
	}
	goto out;
report:
	rc = cli_report(&err);
out:
	if (have_log || have_mt)
		assay_train_result_release(&log);
	if (have_pair) {
		assay_train_result_release(&save);
		assay_train_result_release(&resume);
	}
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
	assay_gate_spec_release(&spec);
	assay_thresholds_release(&th);
	return rc;
}

/* Which options need which; a usage error's exit code, or 0. */
static int check_args(const struct gate_args *a, int nres)
{
	if (strcmp(a->input_format, "auto") && !assay_train_format_known(a->input_format))
		return cli_usage_error("gate",
				       "unknown training-log format '%s' (expected auto, "
				       "megatron, primus or megatron-golden)",
				       a->input_format);
	if (a->combo && !a->thresholds)
		return cli_usage_error("gate", "--combo needs --thresholds FILE");
	if ((a->error_patterns || !strcmp(a->as, "cvs")) && a->log && !strcmp(a->log, "-"))
		return cli_usage_error("gate", "--as cvs and --error-patterns read --log again: "
					       "give a file, not -");
	if (a->error_patterns && !a->log && !nres)
		return cli_usage_error("gate", "--error-patterns needs --log FILE");
	if (a->single_log && !a->log)
		return cli_usage_error("gate", "--single-log needs --log FILE (the N-node run)");
	if (a->combo) {
		char canon[256];
		struct assay_error err;
		if (!assay_combo_key(a->combo, canon, sizeof(canon), &err))
			return cli_usage_error("gate", "--combo: %s", err.message);
	}
	if (nres && !a->thresholds)
		return cli_usage_error("gate", "RESULTS files need --thresholds FILE");
	if (a->thresholds && !nres && !a->log)
		return cli_usage_error("gate",
				       "--thresholds needs RESULTS.ndjson files or --log FILE");
	if (!a->thresholds && !a->spec && !a->log)
		return cli_usage_error("gate",
				       "nothing to gate: give --thresholds, --spec or --log");
	return ASSAY_OK;
}

int cmd_gate(int argc, char **argv)
{
	struct gate_args a = {.input_format = "auto", .format = "table", .as = "assay"};
	a.series = json_object();
	assay_train_opts_init(&a.topts);
	int first, rc = cli_parse(&cmd_gate_spec, argc, argv, &a, &first);
	if (rc == ASSAY_OK)
		rc = check_args(&a, argc - first);
	if (rc == ASSAY_OK)
		rc = notify_cli_load("gate", &a.nc, true);
	/* As CVS: its error dictionary instead of assay's signatures. */
	if (!strcmp(a.as, "cvs"))
		a.topts.no_errors = true;
	if (rc) {
		json_decref(a.series);
		return rc < 0 ? ASSAY_OK : rc;
	}
	struct assay_notify_events ev = {0};
	rc = run_gates(&a, argc - first, argv + first, a.nc.loaded ? &ev : NULL);
	if (rc == ASSAY_INFRA)
		assay_notify_add(&ev, ASSAY_NOTIFY_INFRA, NULL, NULL,
				 "assay gate ended with exit 5 (infrastructure): see its log");
	struct assay_notify_context ctx = {"gate", NULL};
	if (rc != ASSAY_USAGE)
		rc = notify_cli_send(&a.nc, NULL, &ev, &ctx, rc);
	assay_notify_events_release(&ev);
	notify_cli_release(&a.nc);
	json_decref(a.series);
	return rc;
}
