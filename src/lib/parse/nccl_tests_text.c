/* Format "nccl-tests-text": the table nccl-tests and rccl-tests print on
 * stdout. Columns come from the table's own header line (size, count, type,
 * redop and root when the version prints them, then time/cputime, algbw,
 * busbw and #wrong or error per placement), so every version's layout reads;
 * rows carry the series of the -J JSON reader (nccl_tests.c). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/collective.h"
#include "peer.h"

const char *const assay_nccl_tests_text_metrics[] = {
    "time_us/mean", "cpu_time_us/mean", "algbw/mean",  "busbw/mean",  "wrong/count",   "error/max",
    "time_us/min",  "time_us/max",      "time_us/p99", "time_cv/pct", "busbw/average", NULL};

enum col_kind {
	C_SIZE,
	C_COUNT,
	C_TYPE,
	C_REDOP,
	C_ROOT,
	C_TIME,
	C_CPUTIME,
	C_ALGBW,
	C_BUSBW,
	C_WRONG,
	C_ERROR,
	C_IMIN,
	C_IMAX,
	C_IP99,
	C_ICV,
	C_TIMESTAMP,
};

/* Header words, and the row each measured column gives. */
static const struct {
	const char *word;
	enum col_kind kind;
	const char *metric, *statistic, *unit;
	enum assay_direction dir;
} words[] = {
    {"size", C_SIZE, NULL, NULL, NULL, 0},
    {"count", C_COUNT, NULL, NULL, NULL, 0},
    {"type", C_TYPE, NULL, NULL, NULL, 0},
    {"redop", C_REDOP, NULL, NULL, NULL, 0},
    {"root", C_ROOT, NULL, NULL, NULL, 0},
    {"time", C_TIME, "time_us", "mean", "us", ASSAY_DIR_LOWER},
    {"cputime", C_CPUTIME, "cpu_time_us", "mean", "us", ASSAY_DIR_LOWER},
    {"algbw", C_ALGBW, "algbw", "mean", "GB/s", ASSAY_DIR_HIGHER},
    {"busbw", C_BUSBW, "busbw", "mean", "GB/s", ASSAY_DIR_HIGHER},
    {"#wrong", C_WRONG, "wrong", "count", "elements", ASSAY_DIR_LOWER},
    {"error", C_ERROR, "error", "max", "value", ASSAY_DIR_LOWER},
    {"i_min", C_IMIN, "time_us", "min", "us", ASSAY_DIR_LOWER},
    {"i_max", C_IMAX, "time_us", "max", "us", ASSAY_DIR_LOWER},
    {"i_p99", C_IP99, "time_us", "p99", "us", ASSAY_DIR_LOWER},
    {"i_cv%", C_ICV, "time_cv", "pct", "%", ASSAY_DIR_LOWER},
    {"timestamp", C_TIMESTAMP, NULL, NULL, NULL, 0},
};

#define MAX_COLS   48
#define MAX_TOKENS 64

struct table {
	int word[MAX_COLS];  /* index into words[] */
	int group[MAX_COLS]; /* placement of a measured column */
	int n, ngroups;
	const char *placement[2];
	long line; /* of the header */
};

struct state {
	const struct assay_parse_opts *o;
	struct assay_error *e;
	struct assay_rows *tmp;
	char coll[128];
	char backend[32]; /* assay-coll's "# assay-coll version V (REV) backend B" */
	struct strlist hosts;
	long ndev;
	long long iters, skip;
	struct table t;
	bool in_table;
	char type[64];            /* data type of the table's first row, for the average */
	bool types;               /* rows of several types (-d all): the average's is "all" */
	size_t good, bad;         /* rows read, rows skipped (notes) */
	struct assay_error first; /* the first skipped row's error */
	char prev[256];           /* the '#' line before the header (placement banner) */
};

/* The label srun -l writes before every line: "%0*d: ", the task id
 * (SchedMD/slurm src/common/write_labelled_message.c, _write_label; padded
 * with spaces by some versions). Its length in l, or 0. A table row never
 * has ':' right after its first number. */
static size_t srun_label(const char *l, size_t n)
{
	size_t i = 0, d;
	while (i < n && l[i] == ' ')
		i++;
	for (d = i; i < n && isdigit((unsigned char)l[i]);)
		i++;
	if (i == d || i + 1 >= n || l[i] != ':' || l[i + 1] != ' ')
		return 0;
	return i + 2;
}

static int split(char *s, char *tok[])
{
	int n = 0;
	for (char *p = s; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (n == MAX_TOKENS)
			return -1;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

static int fail(struct state *s, long line, const char *fmt, ...) ASSAY_PRINTF(3, 4);
static int fail(struct state *s, long line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	assay_error_at(s->e, ASSAY_USAGE, s->o->file, NULL, line, "%s", msg);
	return -1;
}

/* A bad row (-2 from row()): its message becomes a note, the rows go on. */
static void note_error(struct state *s)
{
	if (!s->o->notes)
		return;
	char buf[1200];
	char *m = xasprintf("%s (a cut row, or another line written into it); the row is skipped",
			    assay_error_format(s->e, buf, sizeof(buf)));
	strlist_push(s->o->notes, m);
	free(m);
}

/* A table that ended without its footer ("# Avg bus bandwidth"): cut
 * short (a killed run, a truncated log). Its rows are kept, flagged. */
static void note_unfinished(struct state *s)
{
	if (!s->in_table || !s->o->notes)
		return;
	char *m = xasprintf("%s:%ld: the table has no footer ('# Avg bus bandwidth'): the output "
			    "ends early (a cut log or run); its rows are kept",
			    s->o->file ? s->o->file : "-", s->t.line);
	strlist_push(s->o->notes, m);
	free(m);
}

/* "all_reduce" from ".../all_reduce_perf" or "all_reduce_perf_mpi". */
static void program_collective(const char *prog, char *out, size_t size)
{
	const char *slash = strrchr(prog, '/');
	snprintf(out, size, "%s", slash ? slash + 1 : prog);
	size_t n = strlen(out);
	if (n > 9 && !strcmp(out + n - 9, "_perf_mpi"))
		out[n - 9] = '\0';
	else if (n > 5 && !strcmp(out + n - 5, "_perf"))
		out[n - 5] = '\0';
}

/* Logs of versions that print no program name: a file named after it. */
static bool collective_from_file(const char *file, char *out, size_t size)
{
	static const char *const ops[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall",
					  "broadcast",  "reduce",     "sendrecv",       "gather",
					  "scatter",    "hypercube",  "alltoallv"};
	const char *base = file ? strrchr(file, '/') : NULL;
	base = base ? base + 1 : file;
	for (size_t i = 0; base && i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i]);
		if (!strncmp(base, ops[i], n) && !strncmp(base + n, "_perf", 5)) {
			snprintf(out, size, "%s", ops[i]);
			return true;
		}
	}
	return false;
}

static int header(struct state *s, char *tok[], int n, long line)
{
	struct table *t = &s->t;
	note_unfinished(s);
	memset(t, 0, sizeof(*t));
	t->line = line;
	int group = -1;
	for (int i = 0; i < n; i++) {
		int w = -1;
		for (size_t k = 0; k < ARRAY_SIZE(words); k++)
			if (!strcmp(tok[i], words[k].word))
				w = (int)k;
		if (w < 0)
			return fail(s, line, "unknown column '%s' in the nccl-tests table header",
				    tok[i]);
		if (i >= MAX_COLS)
			return fail(s, line, "too many columns in the nccl-tests table header");
		if (words[w].kind == C_TIME || words[w].kind == C_CPUTIME) {
			if (++group > 1)
				return fail(s, line,
					    "more than two placements in the nccl-tests table "
					    "header");
		}
		if (words[w].metric && group < 0)
			return fail(s, line,
				    "column '%s' before time in the nccl-tests table header",
				    tok[i]);
		t->word[i] = w;
		t->group[i] = group;
	}
	t->n = n;
	t->ngroups = group + 1;
	if (t->ngroups == 0)
		return fail(s, line, "no time column in the nccl-tests table header");
	if (t->ngroups == 2) {
		t->placement[0] = "out-of-place";
		t->placement[1] = "in-place";
	} else {
		/* rccl-tests without out-of-place prints an "in-place" banner. */
		t->placement[0] = strstr(s->prev, "out-of-place") ? "out-of-place" : "in-place";
	}
	s->in_table = true;
	s->type[0] = '\0';
	s->types = false;
	return 0;
}

static json_t *base_series(struct state *s)
{
	json_t *b = json_object();
	json_object_set_new(b, "workload", json_string("nccl-tests"));
	if (s->coll[0])
		json_object_set_new(b, "collective", json_string(s->coll));
	if (s->backend[0])
		json_object_set_new(b, "backend", json_string(s->backend));
	if (s->ndev > 0 && s->hosts.n > 0) {
		char scale[64];
		long nodes = (long)s->hosts.n;
		snprintf(scale, sizeof(scale), "%ldx%ld", nodes, (s->ndev + nodes - 1) / nodes);
		json_object_set_new(b, "scale", json_string(scale));
	}
	return b;
}

static int need_collective(struct state *s, long line)
{
	if (s->coll[0] || (s->o->context && json_object_get(s->o->context, "collective")))
		return 0;
	if (collective_from_file(s->o->file, s->coll, sizeof(s->coll)))
		return 0;
	return fail(s, line,
		    "the table does not say which collective it measures (older nccl-tests and "
		    "rccl-tests print no program name); give it with --set collective=NAME "
		    "(--series in assay parse)");
}

static void add(struct state *s, const json_t *series, int w, double v, long long samples,
		const char *ts)
{
	struct assay_row *r = assay_rows_add(s->tmp);
	assay_row_set(r, json_deep_copy(series), words[w].metric, words[w].statistic, v,
		      words[w].unit, words[w].dir);
	r->samples = samples > 0 ? samples : 1;
	r->timestamp = ts && ts[0] ? xstrdup(ts) : NULL;
}

/* A cell's number: 1 number, 0 not measured (N/A, nan, inf), -1 not a number. */
static int cell(const char *c, double *v)
{
	if (!strcmp(c, "N/A"))
		return 0;
	char *end;
	*v = strtod(c, &end);
	if (end == c || *end)
		return -1;
	return isfinite(*v) ? 1 : 0;
}

/* Cell i of a row (tok[*k], two tokens for the timestamp): a series field,
 * the row's time, or a value (*have: 1 when it is a finite number). */
static int read_cell(struct state *s, long line, int i, char *tok[], int *k, json_t *series,
		     char ts[32], double *val, int *have)
{
	const struct table *t = &s->t;
	const char *c = tok[*k], *name = words[t->word[i]].word;
	long long iv;
	*have = 0;
	switch (words[t->word[i]].kind) {
	case C_SIZE:
	case C_COUNT:
		if (!assay_parse_long(c, &iv) || iv < 0)
			return fail(s, line, "column '%s': expected a whole number, got '%s'", name,
				    c);
		if (words[t->word[i]].kind == C_SIZE)
			json_object_set_new(series, "bytes", json_integer(iv));
		return 0;
	case C_TYPE: {
		char prec[64];
		peer_precision(c, prec, sizeof(prec));
		json_object_set_new(series, "precision", json_string(prec));
		if (!s->type[0])
			snprintf(s->type, sizeof(s->type), "%s", c);
		else if (strcmp(s->type, c))
			s->types = true;
		return 0;
	}
	case C_REDOP:
		if (strcmp(c, "none") && c[0])
			json_object_set_new(series, "redop", json_string(c));
		return 0;
	case C_ROOT:
		if (!assay_parse_long(c, &iv))
			return fail(s, line, "column '%s': expected a whole number, got '%s'", name,
				    c);
		if (iv >= 0)
			json_object_set_new(series, "root", json_integer(iv));
		return 0;
	case C_TIMESTAMP: {
		char buf[64];
		int64_t secs;
		snprintf(buf, sizeof(buf), "%sT%s", c, tok[*k + 1]);
		if (strlen(c) != 10 || !assay_time_parse(buf, &secs)) {
			snprintf(buf, sizeof(buf), "%s %s", c, tok[*k + 1]);
			return fail(s, line,
				    "column 'timestamp': expected YYYY-MM-DD HH:MM:SS, got '%s'",
				    buf);
		}
		/* local time without a zone, read as UTC as the JSON reader does */
		assay_time_rfc3339(secs, ts);
		(*k)++;
		return 0;
	}
	default: {
		int r = cell(c, val);
		if (r < 0)
			return fail(s, line, "column '%s' (%s): expected a number, got '%s'", name,
				    t->placement[t->group[i]], c);
		*have = r;
		return 0;
	}
	}
}

/* hypercube_perf prints its redop as "" (nccl-tests a0b82b2
 * src/hypercube.cu, HyperCubeRunTest), so its rows have one cell fewer:
 * an empty redop is put back where the header has it. */
static int blank_redop(const struct state *s, char *tok[], int n, int want)
{
	static char empty[] = "";
	if (n + 1 != want || n + 1 > MAX_TOKENS || strcmp(s->coll, "hypercube"))
		return n;
	for (int i = 0; i < s->t.n; i++)
		if (words[s->t.word[i]].kind == C_REDOP) {
			memmove(tok + i + 1, tok + i, (size_t)(n - i) * sizeof(*tok));
			tok[i] = empty;
			return n + 1;
		}
	return n;
}

static int row(struct state *s, char *tok[], int n, long line)
{
	const struct table *t = &s->t;
	int want = t->n;
	for (int i = 0; i < t->n; i++)
		if (words[t->word[i]].kind == C_TIMESTAMP)
			want++; /* date and time */
	n = blank_redop(s, tok, n, want);
	if (n != want) {
		fail(s, line, "expected %d cells (as the header on line %ld says), got %d", want,
		     t->line, n);
		return -2;
	}
	if (need_collective(s, line) < 0)
		return -1;
	json_t *series = base_series(s);
	char ts[32] = "";
	double vals[MAX_COLS];
	int have[MAX_COLS];
	int k = 0, rc = 0;
	for (int i = 0; i < t->n && rc == 0; i++, k++)
		rc = read_cell(s, line, i, tok, &k, series, ts, &vals[i], &have[i]);
	for (int g = 0; rc == 0 && g < t->ngroups; g++) {
		json_t *p = json_deep_copy(series);
		json_object_set_new(p, "placement", json_string(t->placement[g]));
		for (int i = 0; i < t->n; i++) {
			if (t->group[i] != g || !words[t->word[i]].metric || !have[i])
				continue;
			enum col_kind kd = words[t->word[i]].kind;
			long long samples = kd == C_WRONG || kd == C_ERROR ? 1
					    : kd >= C_IMIN && kd <= C_ICV  ? s->iters - s->skip
									   : s->iters;
			add(s, p, t->word[i], vals[i], samples, ts);
		}
		json_decref(p);
	}
	json_decref(series);
	return rc < 0 ? -2 : 0; /* a cell that is not what its column holds */
}

/* "# Avg bus bandwidth    : 12.5 " (an empty table prints nan). */
static int average(struct state *s, char *tok[], int n, long line)
{
	int i = 0;
	while (i < n && strcmp(tok[i], ":"))
		i++;
	double v;
	int r = i + 1 < n ? cell(tok[i + 1], &v) : -1;
	if (r < 0)
		return fail(s, line, "the average bus bandwidth: expected a number after ':'");
	s->in_table = false; /* the footer: the table is complete */
	if (r == 0)
		return 0;
	if (need_collective(s, line) < 0)
		return -1;
	json_t *b = base_series(s);
	if (s->type[0]) {
		char prec[64];
		peer_precision(s->types ? "all" : s->type, prec, sizeof(prec));
		json_object_set_new(b, "precision", json_string(prec));
	}
	struct assay_row *row = assay_rows_add(s->tmp);
	assay_row_set(row, b, "busbw", "average", v, "GB/s", ASSAY_DIR_HIGHER);
	return 0;
}

/* "# nThread 1 nGpus 8 ... warmup iters: 5 iters: 20 ..." */
static void options(struct state *s, char *tok[], int n)
{
	for (int i = 1; i + 1 < n; i++) {
		long long v;
		if (!strcmp(tok[i], "iters:") && strcmp(tok[i - 1], "warmup") &&
		    strcmp(tok[i - 1], "agg") && assay_parse_long(tok[i + 1], &v) && v > 0)
			s->iters = v;
	}
}

static int comment(struct state *s, char *line, long lno)
{
	char *tok[MAX_TOKENS];
	char copy[256];
	snprintf(copy, sizeof(copy), "%s", line);
	int n = split(line + 1, tok);
	if (n < 0) {
		snprintf(s->prev, sizeof(s->prev), "%s", copy);
		return 0;
	}
	int rc = 0;
	if (n >= 4 && !strcmp(tok[0], "Collective") && !strcmp(tok[1], "test") &&
	    !strcmp(tok[2], "starting:")) {
		program_collective(tok[3], s->coll, sizeof(s->coll));
		strlist_clear(&s->hosts);
		s->ndev = 0;
	} else if (n >= 2 && !strcmp(tok[0], "assay-coll") && !strcmp(tok[1], "version")) {
		for (int i = 2; i + 1 < n; i++)
			if (!strcmp(tok[i], "backend"))
				snprintf(s->backend, sizeof(s->backend), "%s", tok[i + 1]);
	} else if (n >= 2 && !strcmp(tok[0], "Using") && !strcmp(tok[1], "devices")) {
		/* Each run lists its devices: logs of versions without the
		 * "Collective test starting" line may be concatenated. */
		strlist_clear(&s->hosts);
		s->ndev = 0;
	} else if (n >= 1 && !strcmp(tok[0], "nThread")) {
		options(s, tok, n);
	} else if (n >= 1 && !strcmp(tok[0], "Per-Iteration")) {
		for (int i = 0; i + 2 < n; i++) {
			long long v;
			if (!strcmp(tok[i], "skips") && !strcmp(tok[i + 1], "first") &&
			    assay_parse_long(tok[i + 2], &v) && v >= 0)
				s->skip = v;
		}
	} else if (n >= 1 && !strcmp(tok[0], "Rank")) {
		/* "#  Rank  0 Group  0 Pid 1234 on host device  0 [...] name" */
		for (int i = 1; i + 2 < n; i++)
			if (!strcmp(tok[i], "on") && !strcmp(tok[i + 2], "device")) {
				if (!strlist_has(&s->hosts, tok[i + 1]))
					strlist_push(&s->hosts, tok[i + 1]);
				s->ndev++;
				break;
			}
	} else if (n >= 3 && !strcmp(tok[0], "size") && !strcmp(tok[1], "count")) {
		rc = header(s, tok, n, lno);
	} else if (n >= 3 && !strcmp(tok[0], "Avg") && !strcmp(tok[1], "bus") &&
		   !strcmp(tok[2], "bandwidth")) {
		rc = average(s, tok, n, lno);
	}
	snprintf(s->prev, sizeof(s->prev), "%s", copy);
	return rc;
}

static bool digits(const char *t)
{
	if (!*t)
		return false;
	for (; *t; t++)
		if (!isdigit((unsigned char)*t))
			return false;
	return true;
}

assay_err assay_parse_nccl_tests_text(const char *data, size_t len,
				      const struct assay_parse_opts *o, struct assay_rows *out,
				      struct assay_error *e)
{
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	struct state s = {.o = o, .e = e, .tmp = &tmp, .hosts = STRLIST_INIT};
	struct sbuf line = SBUF_INIT;
	long lno = 0;
	int rc = 0;
	bool table_seen = false;
	for (size_t pos = 0; pos < len && rc == 0;) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		lno++;
		sbuf_reset(&line);
		sbuf_add(&line, data + pos, end - pos);
		pos = end + 1;
		char *l = line.buf ? line.buf : (char *)"";
		if (line.len && l[line.len - 1] == '\r')
			l[--line.len] = '\0';
		if (strlen(l) != line.len)
			continue; /* a NUL byte: not a line of the table */
		l += srun_label(l, line.len);
		if (l[0] == '#') {
			rc = comment(&s, l, lno);
			table_seen = table_seen || s.in_table;
			continue;
		}
		if (!s.in_table)
			continue;
		char *tok[MAX_TOKENS];
		char probe[32];
		int n;
		if (sscanf(l, "%31s", probe) != 1 || !digits(probe))
			continue; /* NCCL INFO lines, warnings, "rccl-tests: Version" */
		n = split(l, tok);
		if (n < 0) {
			rc = fail(&s, lno, "expected a table row, got more than %d cells",
				  MAX_TOKENS);
			break;
		}
		rc = row(&s, tok, n, lno);
		if (rc == -2) {
			if (!s.bad++)
				s.first = *e;
			note_error(&s);
			rc = 0;
		} else if (rc == 0) {
			s.good++;
		}
	}
	if (rc == 0 && s.bad && !s.good) {
		*e = s.first; /* no good row: the table is unreadable, as before */
		rc = -1;
	}
	if (rc == 0)
		note_unfinished(&s);
	sbuf_release(&line);
	strlist_clear(&s.hosts);
	if (rc == 0 && !table_seen)
		rc = fail(&s, 0,
			  "no nccl-tests table (a '#  size  count  type ...' header line) in the "
			  "file");
	if (rc < 0) {
		assay_rows_release(&tmp);
		return ASSAY_USAGE;
	}
	return peer_finish(&tmp, o, out, e);
}

/* A '#' line whose words begin "size count type" and that names busbw. */
bool assay_detect_nccl_tests_text(const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *hit = memmem(p, (size_t)(end - p), "busbw", 5);
		if (!hit)
			return false;
		const char *ls = hit;
		while (ls > data && ls[-1] != '\n')
			ls--;
		ls += srun_label(ls, (size_t)(hit - ls));
		if (*ls == '#') {
			const char *q = ls + 1;
			static const char *const want[] = {"size", "count", "type"};
			bool ok = true;
			for (size_t i = 0; ok && i < ARRAY_SIZE(want); i++) {
				while (q < hit && (*q == ' ' || *q == '\t'))
					q++;
				size_t n = strlen(want[i]);
				ok = (size_t)(hit - q) > n && !memcmp(q, want[i], n) &&
				     (q[n] == ' ' || q[n] == '\t');
				q += n;
			}
			if (ok)
				return true;
		}
		p = hit + 5;
	}
	return false;
}
