/* Series from outside the store for `assay detect --input`: a CSV with the
 * columns revision,value or revision,timestamp,value, one series per file. */
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "parse/peer.h"

assay_err assay_detect_read_csv(const char *data, size_t len, const char *file,
				struct assay_points *out, struct assay_error *e)
{
	struct csv_reader r;
	struct csv_header h;
	struct assay_points tmp = {0};
	csv_init(&r, data, len, file);
	assay_err rc = csv_header_read(&r, &h, NULL, e);
	if (rc != ASSAY_OK) {
		csv_release(&r);
		return rc;
	}
	bool with_ts = h.names.n == 3 && !strcmp(h.names.v[1], "timestamp");
	if (!((h.names.n == 2 || with_ts) && !strcmp(h.names.v[0], "revision") &&
	      !strcmp(h.names.v[h.names.n - 1], "value"))) {
		rc = assay_error_at(
		    e, ASSAY_USAGE, file, NULL, r.line,
		    "expected the header revision,value or revision,timestamp,value");
		goto done;
	}
	int step;
	while ((step = csv_next(&r, e)) == 1) {
		if ((rc = csv_check_width(&r, &h, e)) != ASSAY_OK)
			goto done;
		double v;
		bool bad;
		const char *cell = r.fields.v[h.names.n - 1];
		if (!peer_number(cell, &v, &bad)) {
			rc = assay_error_at(e, ASSAY_USAGE, file, NULL, r.line,
					    "value: expected a number, got \"%.60s\"", cell);
			goto done;
		}
		int64_t t = 0;
		if (with_ts && r.fields.v[1][0] && !assay_time_parse(r.fields.v[1], &t)) {
			rc = assay_error_at(e, ASSAY_USAGE, file, NULL, r.line,
					    "timestamp: expected an RFC 3339 time, got \"%.60s\"",
					    r.fields.v[1]);
			goto done;
		}
		ALLOC_GROW(tmp.v, tmp.n + 1, tmp.alloc);
		struct assay_point *p = &tmp.v[tmp.n++];
		memset(p, 0, sizeof(*p));
		p->value = v;
		p->revision = r.fields.v[0][0] ? xstrdup(r.fields.v[0]) : NULL;
		if (with_ts && r.fields.v[1][0]) {
			char ts[32];
			assay_time_rfc3339(t, ts);
			p->timestamp = xstrdup(ts);
		}
	}
	if (step < 0)
		rc = ASSAY_USAGE;
	else if (!tmp.n)
		rc = assay_error_at(e, ASSAY_USAGE, file, NULL, r.line,
				    "no points after the header");
done:
	csv_header_release(&h);
	csv_release(&r);
	if (rc != ASSAY_OK) {
		assay_points_release(&tmp);
		return rc;
	}
	for (size_t i = 0; i < tmp.n; i++) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n++] = tmp.v[i];
	}
	free(tmp.v);
	return ASSAY_OK;
}
