/* Format "rows": NDJSON measurement rows, one object per line, as written
 * by `assay parse` and `assay store export --format ndjson`. */
#include <stdlib.h>

#include "assay/parse.h"

assay_err assay_parse_rows(const char *data, size_t len, const struct assay_parse_opts *o,
			   struct assay_rows *out, struct assay_error *e)
{
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	assay_err rc = assay_rows_parse_ndjson(data, len, o->file, &tmp, e);
	if (rc == ASSAY_OK)
		rc = assay_parse_stamp(&tmp, 0, o, e);
	if (rc != ASSAY_OK) {
		assay_rows_release(&tmp);
		return rc;
	}
	for (size_t i = 0; i < tmp.n; i++)
		assay_rows_push(out, &tmp.v[i]);
	free(tmp.v);
	return ASSAY_OK;
}
