/* Format "rows-csv": measurement rows as `assay store export --format csv`
 * writes them (docs/store.md): the header below, one row per record, the
 * series as canonical JSON in the last column. An empty unquoted cell is
 * NULL, a quoted empty cell ("") an empty string, so NULLs survive. */
#include <stdlib.h>
#include <string.h>

#include "peer.h"

const char assay_rows_csv_header[] = "series_key,metric,statistic,value,unit,direction,samples,"
				     "revision,timestamp,run_id,case_id,series";

enum {
	C_KEY,
	C_METRIC,
	C_STAT,
	C_VALUE,
	C_UNIT,
	C_DIR,
	C_SAMPLES,
	C_REV,
	C_TS,
	C_RUN,
	C_CASE,
	C_SERIES,
	C_COUNT
};

bool assay_detect_rows_csv(const char *data, size_t len)
{
	size_t n = strlen(assay_rows_csv_header);
	if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
		data += 3;
		len -= 3;
	}
	return len >= n && !memcmp(data, assay_rows_csv_header, n) &&
	       (len == n || data[n] == '\n' || data[n] == '\r');
}

/* A cell as JSON: NULL when empty and unquoted, else a string. */
static json_t *cell(const struct csv_reader *r, int i)
{
	const char *v = r->fields.v[i];
	return *v || r->quoted[i] ? json_string(v) : json_null();
}

static int record(const struct csv_reader *r, struct assay_row *row, struct assay_error *e)
{
	static const char *const names[C_COUNT] = {
	    "series_key", "metric",   "statistic", "value",  "unit",    "direction",
	    "samples",    "revision", "timestamp", "run_id", "case_id", "series"};
	json_t *o = json_object();
	for (int i = 0; i < C_COUNT; i++) {
		const char *v = r->fields.v[i];
		json_t *j = NULL;
		double d;
		long long n;
		if (i == C_VALUE && assay_parse_double(v, &d))
			j = json_real(d);
		else if (i == C_SAMPLES && assay_parse_long(v, &n))
			j = json_integer(n);
		else if (i == C_SERIES && *v &&
			 !(j = json_loads(v, JSON_REJECT_DUPLICATES, NULL))) {
			json_decref(o);
			return assay_error_at(e, ASSAY_USAGE, r->file, NULL, r->line,
					      "series: expected a JSON object, got \"%.40s\"", v);
		}
		if (!j)
			j = cell(r, i);
		json_object_set_new(o, names[i], j);
	}
	assay_err rc = assay_row_from_json(o, row, r->file, r->line, e);
	json_decref(o);
	return rc;
}

assay_err assay_parse_rows_csv(const char *data, size_t len, const struct assay_parse_opts *o,
			       struct assay_rows *out, struct assay_error *e)
{
	struct csv_reader r;
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	assay_err rc = ASSAY_OK;
	csv_init(&r, data, len, o->file);
	int got = csv_next(&r, e);
	if (got < 0) {
		rc = ASSAY_USAGE;
	} else if (got == 0 || r.fields.n != C_COUNT || !assay_detect_rows_csv(data, len)) {
		rc = assay_error_at(e, ASSAY_USAGE, o->file, NULL, 1, "expected the header %s",
				    assay_rows_csv_header);
	}
	while (rc == ASSAY_OK && (got = csv_next(&r, e)) == 1) {
		if (r.fields.n != C_COUNT) {
			rc = assay_error_at(e, ASSAY_USAGE, o->file, NULL, r.line,
					    "%zu fields, but the header has %d columns", r.fields.n,
					    C_COUNT);
			break;
		}
		struct assay_row row;
		assay_row_init(&row);
		if ((rc = record(&r, &row, e)) != ASSAY_OK)
			break;
		assay_rows_push(&tmp, &row);
	}
	if (rc == ASSAY_OK && got < 0)
		rc = ASSAY_USAGE;
	csv_release(&r);
	if (rc != ASSAY_OK) {
		assay_rows_release(&tmp);
		return rc;
	}
	return peer_finish(&tmp, o, out, e);
}
