/* Shared by the peer-format parsers: a CSV reader that keeps line numbers,
 * and normalizations of precision, scale, direction and cell values. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "peer.h"

void csv_init(struct csv_reader *r, const char *data, size_t len, const char *file)
{
	memset(r, 0, sizeof(*r));
	r->data = data;
	r->len = len;
	r->file = file;
	r->next_line = 1;
	if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
		r->pos = 3;
}

void csv_release(struct csv_reader *r)
{
	strlist_clear(&r->fields);
	free(r->quoted);
	r->quoted = NULL;
	r->quoted_alloc = 0;
}

int csv_next(struct csv_reader *r, struct assay_error *e)
{
	strlist_clear(&r->fields);
	/* Skip blank lines. */
	for (;;) {
		size_t p = r->pos;
		while (p < r->len &&
		       (r->data[p] == ' ' || r->data[p] == '\t' || r->data[p] == '\r'))
			p++;
		if (p >= r->len)
			return 0;
		if (r->data[p] != '\n')
			break;
		r->pos = p + 1;
		r->next_line++;
	}
	r->line = r->next_line;
	struct sbuf cell = SBUF_INIT;
	for (;;) {
		sbuf_reset(&cell);
		bool quoted = false;
		if (r->pos < r->len && r->data[r->pos] == '"') {
			quoted = true;
			r->pos++;
			for (;;) {
				if (r->pos >= r->len) {
					sbuf_release(&cell);
					assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
						       "unterminated quoted field");
					return -1;
				}
				char c = r->data[r->pos++];
				if (c == '"') {
					if (r->pos < r->len && r->data[r->pos] == '"') {
						sbuf_addch(&cell, '"');
						r->pos++;
						continue;
					}
					break;
				}
				if (c == '\n')
					r->next_line++;
				sbuf_addch(&cell, c);
			}
		}
		while (r->pos < r->len && r->data[r->pos] != ',' && r->data[r->pos] != '\n') {
			char c = r->data[r->pos++];
			if (quoted && c != '\r' && c != ' ' && c != '\t') {
				sbuf_release(&cell);
				assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->next_line,
					       "text after a closing quote");
				return -1;
			}
			if (!quoted)
				sbuf_addch(&cell, c);
		}
		if (memchr(cell.buf ? cell.buf : "", '\0', cell.len)) {
			sbuf_release(&cell);
			assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
				       "NUL byte in a field");
			return -1;
		}
		/* A CRLF line ending leaves a \r on the last unquoted cell. */
		if (!quoted && cell.len && cell.buf[cell.len - 1] == '\r')
			cell.buf[--cell.len] = '\0';
		ALLOC_GROW(r->quoted, r->fields.n + 1, r->quoted_alloc);
		r->quoted[r->fields.n] = quoted;
		strlist_push(&r->fields, sbuf_str(&cell));
		if (r->pos >= r->len)
			break;
		if (r->data[r->pos++] == '\n') {
			r->next_line++;
			break;
		}
	}
	sbuf_release(&cell);
	return 1;
}

static char *strip(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

assay_err csv_header_read(struct csv_reader *r, struct csv_header *h, const char *const required[],
			  struct assay_error *e)
{
	memset(h, 0, sizeof(*h));
	int rc = csv_next(r, e);
	if (rc < 0)
		return ASSAY_USAGE;
	if (rc == 0)
		return assay_error_at(e, ASSAY_USAGE, r->file, NULL, 1,
				      "empty file: expected a CSV header");
	for (size_t i = 0; i < r->fields.n; i++) {
		char *name = strip(r->fields.v[i]);
		if (!*name || strlist_has(&h->names, name)) {
			if (*name)
				assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
					       "header column %zu: duplicate name \"%s\"", i + 1,
					       name);
			else
				assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
					       "header column %zu: empty name", i + 1);
			free(name);
			csv_header_release(h);
			return ASSAY_USAGE;
		}
		strlist_push(&h->names, name);
		free(name);
	}
	for (size_t i = 0; required && required[i]; i++)
		if (csv_header_index(h, required[i]) < 0) {
			assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
				       "header has no \"%s\" column", required[i]);
			csv_header_release(h);
			return ASSAY_USAGE;
		}
	return ASSAY_OK;
}

int csv_header_index(const struct csv_header *h, const char *name)
{
	for (size_t i = 0; i < h->names.n; i++)
		if (!strcmp(h->names.v[i], name))
			return (int)i;
	return -1;
}

assay_err csv_check_width(struct csv_reader *r, const struct csv_header *h, struct assay_error *e)
{
	if (r->fields.n == h->names.n)
		return ASSAY_OK;
	return assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
			      "%zu fields, but the header has %zu columns", r->fields.n,
			      h->names.n);
}

void csv_header_release(struct csv_header *h)
{
	strlist_clear(&h->names);
}

json_t *peer_cell_value(const char *cell)
{
	char *s = strip(cell);
	long long i;
	double d;
	json_t *v;
	if (assay_parse_long(s, &i))
		v = json_integer(i);
	else if (assay_parse_double(s, &d) &&
		 (isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '.' || s[0] == '+'))
		v = json_real(d);
	else
		v = json_string(s);
	free(s);
	return v;
}

json_t *peer_scalar(const json_t *v)
{
	if (json_is_real(v)) {
		double d = json_real_value(v);
		if (isfinite(d) && d == floor(d) && fabs(d) < 9e15)
			return json_integer((json_int_t)d);
		return isfinite(d) ? json_real(d) : NULL;
	}
	if (json_is_string(v) || json_is_integer(v) || json_is_boolean(v))
		return json_deep_copy(v);
	return NULL;
}

void peer_precision(const char *in, char *out, size_t size)
{
	assay_precision_canonical(in, out, size);
}

bool peer_scale(const char *in, char *out, size_t size)
{
	return assay_scale_canonical(in, out, size);
}

static bool has_word(const char *lower, const char *w)
{
	return strstr(lower, w) != NULL;
}

enum assay_direction peer_direction(const char *metric)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", metric);
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	static const char *const higher[] = {
	    "/s",        "per_s",   "per s", "/sec",     "throughput", "flops",
	    "bandwidth", "_bw",     "bw_",   "gb/s",     "qps",        "fps",
	    "ops",       "speedup", "mfu",   "accuracy", "score",      "tokens",
	    "samples",   "images",  "items", "requests"};
	static const char *const lower[] = {"latency", "time", "duration", "ttft", "tpot",    "itl",
					    "_ms",     "ms_",  "_us",      "us_",  "seconds", "sec",
					    "memory",  "loss", "error",    "wrong"};
	for (size_t i = 0; i < ARRAY_SIZE(higher); i++)
		if (has_word(buf, higher[i]))
			return ASSAY_DIR_HIGHER;
	for (size_t i = 0; i < ARRAY_SIZE(lower); i++)
		if (has_word(buf, lower[i]))
			return ASSAY_DIR_LOWER;
	if (!strcmp(buf, "ms") || !strcmp(buf, "us") || !strcmp(buf, "s") || !strcmp(buf, "ns"))
		return ASSAY_DIR_LOWER;
	return ASSAY_DIR_HIGHER;
}

bool peer_number(const char *cell, double *out, bool *bad)
{
	char *s = strip(cell);
	*bad = false;
	bool ok = false;
	if (!*s || !strcasecmp(s, "nan") || !strcasecmp(s, "n/a") || !strcasecmp(s, "none") ||
	    !strcasecmp(s, "null")) {
		ok = false;
	} else if (assay_parse_double(s, out)) {
		ok = true;
	} else {
		*bad = true;
	}
	free(s);
	return ok;
}

assay_err peer_finish(struct assay_rows *tmp, const struct assay_parse_opts *o,
		      struct assay_rows *out, struct assay_error *e)
{
	assay_err rc = assay_parse_stamp(tmp, 0, o, e);
	if (rc != ASSAY_OK) {
		assay_rows_release(tmp);
		return rc;
	}
	for (size_t i = 0; i < tmp->n; i++)
		assay_rows_push(out, &tmp->v[i]);
	free(tmp->v);
	memset(tmp, 0, sizeof(*tmp));
	return ASSAY_OK;
}

static void lower_copy(const char *in, char *out, size_t size)
{
	snprintf(out, size, "%s", in);
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

bool peer_is_metric_name(const char *name)
{
	static const char *const words[] = {
	    "latency", "throughput", "time",    "duration",   "tflops",
	    "gflops",  "bandwidth",  "_bw",     "memory",     "utilization",
	    "ttft",    "tpot",       "itl",     "per_sec",    "per_second",
	    "/s",      "qps",        "fps",     "accuracy",   "loss",
	    "power",   "energy",     "speedup", "efficiency", "mfu",
	};
	static const char *const suffixes[] = {"_ms", "_us",  "_ns",      "_s",    "_sec", "_mb",
					       "_gb", "_pct", "_percent", "_gbps", "_tps", "_w"};
	char buf[256];
	lower_copy(name, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strstr(buf, words[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (assay_ends_with(buf, suffixes[i]))
			return true;
	return false;
}

void peer_unit_from_name(const char *name, char *out, size_t size)
{
	static const struct {
		const char *suffix, *unit;
	} units[] = {
	    {"_ms", "ms"},     {"_us", "us"},     {"_ns", "ns"}, {"_sec", "s"},
	    {"_s", "s"},       {"_mb", "MB"},     {"_gb", "GB"}, {"_pct", "%"},
	    {"_percent", "%"}, {"_gbps", "GB/s"}, {"_w", "W"},   {"_tps", "tokens/s"},
	};
	char buf[256];
	lower_copy(name, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (assay_ends_with(buf, units[i].suffix)) {
			snprintf(out, size, "%s", units[i].unit);
			return;
		}
	snprintf(out, size, "%s", name);
}
