/* assay parse: read result files (training logs, NDJSON rows, any format in
 * the table) and print measurement rows, or a training log's per-step
 * records, as NDJSON; the exit code says whether the run completed. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"
#include "cli.h"
#include "opt.h"

struct parse_args {
	const char *format; /* --input-format */
	bool steps;
	bool json;      /* --json: one document with each file's format, outcome, errors, rows */
	json_t *series; /* --series fields: popts.context */
	struct assay_train_opts topts;
	struct assay_parse_opts popts;
};

/* --series KEY=VALUE into the context object: integers stay integers. */
static int opt_series(void *args, const char *arg, const char *cmd)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(cmd, "bad value for --series: '%s'", arg);
	char *key = xstrndup(arg, (size_t)(eq - arg));
	long long n;
	json_object_set_new(((struct parse_args *)args)->series, key,
			    assay_parse_long(eq + 1, &n) ? json_integer(n) : json_string(eq + 1));
	free(key);
	return ASSAY_OK;
}

/* The format table's names, for --input-format's help. */
static void format_names(struct sbuf *out)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		sbuf_addf(out, "%s%s%s", f == assay_formats ? "" : " ", f->name,
			  f[1].name ? "," : "");
}

static const struct cli_opt parse_opts[] = {
    {.type = CLI_STRING,
     .name = "input-format",
     .arg = "F",
     .off = offsetof(struct parse_args, format),
     .help = "auto, or one of the formats of docs/ingest.md:",
     .def = "auto",
     .help_more = format_names},
    CLI_OPT_FLAG("steps", struct parse_args, steps,
		 "print a training log's per-step records instead of rows"),
    CLI_OPT_FLAG("json", struct parse_args, json,
		 "print one JSON document: each file's format, outcome, errors and rows"),
    CLI_OPT_TABLE(train_cli_opts, struct parse_args, topts),
    {.type = CLI_CALL,
     .name = "series",
     .arg = "KEY=VALUE",
     .help = "add a series field to every row (repeatable)",
     .call = opt_series},
    CLI_OPT_STRING("revision", "REV", struct parse_args, popts.revision,
		   "stamp rows with a source revision"),
    CLI_OPT_STRING("run-id", "ID", struct parse_args, popts.run_id, "stamp rows with a run id"),
    {.type = CLI_STRING, .name = "format", .arg = "F", .alias_of = "input-format"},
    CLI_OPT_END,
};

const struct cli_spec cmd_parse_spec = {
    .name = "parse",
    .usage = "assay parse [--input-format F] [--steps] [options] FILE...",
    .about = "Parse each FILE (\"-\" for standard input) and print measurement rows as\n"
	     "NDJSON, one object per line (docs/rows.md). Training logs give steady-state\n"
	     "mean and median, the last running average, final loss, peak memory,\n"
	     "checkpoint durations (docs/training.md).\n",
    .opts = parse_opts,
    .examples = "assay parse --input-format primus --series workload=deepseek-v4 train.log",
    .exits = "Exit codes: 0 complete run with metrics, 2 bad arguments or unreadable input\n"
	     "(nothing printed), 3 a training run that started and is incomplete, logged\n"
	     "NaN/Inf or NaN iterations, or matched an error signature (rows are still\n"
	     "printed), 4 no metrics. See docs/parse.md.\n",
    .min_args = 1,
    .max_args = -1,
    .args_what = "file",
};

struct parsed {
	const char *file;
	assay_err outcome;
	char reason[1536];
	/* A training log read as a stream; --steps reads it a second time. */
	bool streamed;
	int fd; /* open on the file (or the copy of standard input), -1 none */
	long long world_size;
	size_t warmup_logged;
	size_t steps_from, steps_to; /* a file read whole: its records in the steps buffer */
	/* For --json: the format read (NULL: none told it), the error
	 * signatures of a training log, its cut last line, its rows. */
	const char *format;
	json_t *errors;
	long cut_line;
	size_t rows_from, rows_to;
};

/* A training log's error signatures, for --json. */
static json_t *errors_json(const struct assay_train_result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_errors; i++) {
		const struct assay_train_error *x = &r->errors[i];
		json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:I, s:s}", "signature",
						   x->signature, "family", x->family, "line",
						   (json_int_t)x->line, "count",
						   (json_int_t)x->count, "text", x->text));
	}
	return a;
}

/* Warnings a training result carries, on stderr. */
static void train_warnings(const char *file, const struct assay_train_result *r)
{
	if (r->other_family_line)
		fprintf(stderr,
			"%s: warning: line %ld is a Primus line; its Primus fields were not read "
			"(use --input-format primus or auto)\n",
			file, r->other_family_line);
	if (r->long_lines)
		fprintf(stderr,
			"%s: warning: %zu line%s longer than %u bytes (the first is line %ld) "
			"scanned in pieces\n",
			file, r->long_lines, r->long_lines > 1 ? "s" : "", ASSAY_TRAIN_LINE_CAP,
			r->long_line_first);
	if (r->cut_line)
		fprintf(stderr,
			"%s: warning: line %ld has no line end and no closing \"|\": the log was "
			"cut there; only its error signatures were read\n",
			file, r->cut_line);
}

struct step_out {
	const char *file;
	size_t warmup_logged;
};

static void print_step(const struct assay_train_step *s, void *arg)
{
	const struct step_out *so = arg;
	struct assay_train_step c = *s;
	c.warmup = (size_t)s->index < so->warmup_logged;
	json_t *o = assay_train_step_to_json(&c);
	json_object_set_new(o, "file", json_string(so->file));
	struct sbuf sb = SBUF_INIT;
	assay_json_write(&sb, o, ASSAY_JSON_SORT);
	sbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stdout);
	sbuf_release(&sb);
	json_decref(o);
}

/* --steps, second pass: the per-step records, streamed to stdout. */
static assay_err print_steps(const struct parse_args *a, const char *format, struct parsed *p,
			     struct assay_error *e)
{
	if (lseek(p->fd, 0, SEEK_SET) < 0)
		return assay_error_at(e, ASSAY_INFRA, p->file, NULL, 0, "cannot read again: %s",
				      strerror(errno));
	struct step_out so = {p->file, p->warmup_logged};
	struct assay_train_opts o = a->topts;
	o.world_size = p->world_size;
	o.no_errors = true;
	o.on_step = print_step;
	o.on_step_arg = &so;
	struct assay_train_result r;
	assay_err rc = assay_train_parse_fd(format, p->fd, -1, &o, p->file, &r, e);
	assay_train_result_release(&r);
	return rc;
}

/* A training log read whole (a golden-values file): with --steps its step
 * records, appended to steps. */
static void whole_steps(const char *file, const struct assay_train_result *r, struct sbuf *steps,
			struct parsed *p)
{
	p->steps_from = steps->len;
	json_t *f = json_string(file);
	for (size_t i = 0; i < r->n_steps; i++) {
		json_t *o = assay_train_step_to_json(&r->steps[i]);
		json_object_set(o, "file", f);
		assay_json_write(steps, o, ASSAY_JSON_SORT);
		sbuf_addch(steps, '\n');
		json_decref(o);
	}
	json_decref(f);
	p->steps_to = steps->len;
}

/* What a training log read gave: its outcome, warnings, and for --steps
 * where its records come from. */
static void training_read(const struct parse_args *a, const char *file,
			  const struct assay_results *res, const struct assay_train_result *r,
			  struct sbuf *steps, struct parsed *p)
{
	p->outcome = assay_train_outcome(r);
	assay_train_outcome_text(r, p->reason, sizeof(p->reason));
	p->format = r->format_unknown ? NULL : res->format->name;
	p->errors = errors_json(r);
	p->cut_line = r->cut_line;
	if (!res->streamed) {
		if (a->steps)
			whole_steps(file, r, steps, p);
		return;
	}
	train_warnings(file, r);
	p->streamed = true;
	p->world_size = r->world_size;
	p->warmup_logged = r->warmup_logged;
	p->fd = res->fd;
}

/* A regular file is streamed through windows of a private map rather than
 * copied into a buffer: about a tenth of the CPU time of a large log. The
 * program does this, not the library: a file that shrinks while mapped
 * faults, and the handler ends the process. */
#define MAP_WINDOW (16u << 20)

static const char *mapped_file; /* for the SIGBUS handler */

/* A mapped file cut short while it is read (truncated, or rotated with
 * copytruncate) faults on its missing pages: say so and stop with exit 2.
 * assay parse prints nothing on stdout before every file is read. */
static void on_sigbus(int sig)
{
	(void)sig;
	static const char tail[] = ": cannot read: the file shrank while it was read\n";
	ssize_t rc = write(2, mapped_file, strlen(mapped_file));
	rc = write(2, tail, sizeof(tail) - 1);
	(void)rc;
	_exit(ASSAY_USAGE);
}

/* Feed the rest of a regular file, from fd's offset to its size now,
 * through the map; fd's offset is left after it, so a file that grew is
 * read on from there. False (nothing fed) where it cannot be mapped. */
static bool feed_mapped(struct assay_train_stream *ts, int fd, const char *file)
{
	struct stat st;
	off_t off = lseek(fd, 0, SEEK_CUR);
	if (off < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= off)
		return false;
	struct sigaction sa = {.sa_handler = on_sigbus}, old;
	sigemptyset(&sa.sa_mask);
	mapped_file = file;
	if (sigaction(SIGBUS, &sa, &old))
		return false;
	bool fed = false;
	while (off < st.st_size) {
		off_t base = off & ~(off_t)(MAP_WINDOW - 1);
		size_t len = (size_t)(st.st_size - base) < MAP_WINDOW ? (size_t)(st.st_size - base)
								      : MAP_WINDOW;
		char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, base);
		if (m == MAP_FAILED)
			break;
		madvise(m, len, MADV_SEQUENTIAL);
		assay_train_stream_feed(ts, m + (off - base), len - (size_t)(off - base));
		munmap(m, len);
		off = base + (off_t)len;
		fed = true;
	}
	sigaction(SIGBUS, &old, NULL);
	lseek(fd, off, SEEK_SET);
	return fed;
}

/* Read one file (standard input for "-") into res->rows, or with --steps
 * its step lines; fills p. ASSAY_USAGE on bad input. */
static assay_err parse_one(const struct parse_args *a, const char *file, struct assay_results *res,
			   struct sbuf *steps, struct parsed *p, struct assay_error *e)
{
	p->file = file;
	p->outcome = ASSAY_OK;
	p->reason[0] = '\0';
	p->fd = -1;
	/* A training text log is streamed: a log of any size in bounded memory. */
	struct assay_train_result r;
	struct assay_results_opts o = {.hint = a->format,
				       .by = ASSAY_DETECT_CONTENT,
				       .parse = a->popts,
				       .train_opts = &a->topts,
				       .train = &r,
				       .no_rows = a->steps,
				       .stream = true,
				       .feed_rest = feed_mapped,
				       .again = a->steps ? "--steps" : NULL};
	struct strlist notes = STRLIST_INIT; /* what the parser flagged */
	o.parse.notes = &notes;
	size_t before = res->rows.n;
	assay_err rc = assay_results_read(file, strcmp(file, "-") ? -1 : 0, &o, res, e);
	for (size_t i = 0; i < notes.n; i++)
		fprintf(stderr, "warning: %s\n", notes.v[i]);
	strlist_clear(&notes);
	if (res->fail == ASSAY_RESULTS_UNDETECTED)
		rc = assay_error_at(
		    e, ASSAY_USAGE, file, NULL, 0,
		    "cannot tell the format (use --input-format; see 'assay help parse')");
	else if (rc == ASSAY_OK && res->format->training)
		training_read(a, file, res, &r, steps, p);
	else if (rc == ASSAY_OK && a->steps)
		rc = assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
				    "--steps needs a training log, not format %s",
				    res->format->name);
	else if (rc == ASSAY_OK && res->rows.n == before) {
		p->outcome = ASSAY_NO_METRICS;
		snprintf(p->reason, sizeof(p->reason), "no metrics: no rows");
	}
	if (rc == ASSAY_OK && !p->errors)
		p->format = res->format->name;
	p->rows_from = before;
	p->rows_to = res->rows.n;
	assay_train_result_release(&r);
	return rc;
}

/* The format names: an unknown one or --steps with rows; exit code or 0. */
static int check_format(const struct parse_args *a)
{
	if (strcmp(a->format, "auto") && !assay_format_find(a->format)) {
		struct sbuf sb = SBUF_INIT;
		for (const struct assay_format *f = assay_formats; f->name; f++)
			sbuf_addf(&sb, ", %s", f->name);
		int rc = cli_usage_error("parse", "unknown format '%s' (expected auto%s)",
					 a->format, sbuf_str(&sb));
		sbuf_release(&sb);
		return rc;
	}
	if (a->steps && a->json)
		return cli_usage_error("parse", "--json and --steps cannot be used together");
	if (a->steps && strcmp(a->format, "auto") && !assay_train_format_known(a->format))
		return cli_usage_error("parse",
				       "--steps needs a training format (megatron, primus, "
				       "megatron-golden or auto), not %s",
				       a->format);
	return ASSAY_OK;
}

/* --steps: every file was read once without a complaint: now the records,
 * file by file (a streamed log is read a second time). */
static int print_all_steps(const struct parse_args *a, struct parsed *p, size_t nfiles,
			   const struct sbuf *steps)
{
	struct assay_error err;
	for (size_t i = 0; i < nfiles; i++) {
		if (!p[i].streamed) {
			fwrite(steps->buf ? steps->buf + p[i].steps_from : "", 1,
			       p[i].steps_to - p[i].steps_from, stdout);
			continue;
		}
		if (print_steps(a, a->format, &p[i], &err) != ASSAY_OK) {
			fflush(stdout);
			return cli_report(&err);
		}
	}
	return ASSAY_OK;
}

/* --json: {"files": [{"file", "format", "outcome", "exit", "reason",
 * "errors", "cut_line", "rows"}]}, keys sorted, one line. */
static void print_json(const struct parsed *p, size_t nfiles, const struct assay_rows *rows)
{
	json_t *files = json_array();
	for (size_t i = 0; i < nfiles; i++) {
		json_t *rs = json_array();
		for (size_t k = p[i].rows_from; k < p[i].rows_to; k++)
			json_array_append_new(rs, assay_row_to_json(&rows->v[k]));
		json_t *f = json_pack(
		    "{s:s, s:o, s:s, s:i, s:o, s:o, s:o, s:o}", "file", p[i].file, "format",
		    p[i].format ? json_string(p[i].format) : json_null(), "outcome",
		    assay_strerror(p[i].outcome), "exit", (int)p[i].outcome, "reason",
		    p[i].reason[0] ? json_string(p[i].reason) : json_null(), "errors",
		    p[i].errors ? json_incref(p[i].errors) : json_array(), "cut_line",
		    p[i].cut_line ? json_integer(p[i].cut_line) : json_null(), "rows", rs);
		json_array_append_new(files, f);
	}
	json_t *doc = json_pack("{s:o}", "files", files);
	struct sbuf sb = SBUF_INIT;
	assay_json_write(&sb, doc, ASSAY_JSON_SORT);
	sbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stdout);
	sbuf_release(&sb);
	json_decref(doc);
}

int cmd_parse(int argc, char **argv)
{
	struct parse_args a = {.format = "auto"};
	assay_train_opts_init(&a.topts);
	json_t *ctx = json_object();
	a.series = ctx;
	a.popts.context = ctx;
	int optind, rc = cli_parse(&cmd_parse_spec, argc, argv, &a, &optind);
	if (rc == ASSAY_OK)
		rc = check_format(&a);
	if (rc) {
		json_decref(ctx);
		return rc < 0 ? ASSAY_OK : rc;
	}
	size_t nfiles = (size_t)(argc - optind);
	struct parsed *p = xcalloc(nfiles, sizeof(*p));
	for (size_t i = 0; i < nfiles; i++)
		p[i].fd = -1;
	struct assay_results res = {.rows = ASSAY_ROWS_INIT};
	struct sbuf steps = SBUF_INIT;
	struct assay_error err;
	for (size_t i = 0; i < nfiles; i++) {
		if (parse_one(&a, argv[optind + (int)i], &res, &steps, &p[i], &err) != ASSAY_OK) {
			rc = cli_report(&err);
			goto out;
		}
	}
	if (a.steps) {
		if ((rc = print_all_steps(&a, p, nfiles, &steps)) != ASSAY_OK)
			goto out;
	} else if (a.json) {
		print_json(p, nfiles, &res.rows);
	} else {
		struct sbuf sb = SBUF_INIT;
		assay_rows_ndjson(&res.rows, &sb);
		fwrite(sbuf_str(&sb), 1, sb.len, stdout);
		sbuf_release(&sb);
	}
	for (size_t i = 0; i < nfiles; i++) {
		if (p[i].outcome != ASSAY_OK)
			fprintf(stderr, "%s: %s (%s)\n", p[i].file, p[i].reason,
				assay_strerror(p[i].outcome));
		rc = assay_err_worst(rc, p[i].outcome);
	}
out:
	for (size_t i = 0; i < nfiles; i++) {
		if (p[i].fd >= 0)
			close(p[i].fd);
		json_decref(p[i].errors);
	}
	assay_rows_release(&res.rows);
	sbuf_release(&steps);
	free(p);
	json_decref(ctx);
	return rc;
}
