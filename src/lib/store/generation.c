/* The store's generation: a few maxima and counts that move whenever a
 * write changes what a reader sees (assay serve's ETag). */
#include <stdio.h>

#include "store_int.h"

assay_err assay_store_generation(struct assay_store *s, char out[96], struct assay_error *e)
{
	struct store_stmt *st =
	    store_prepare(s,
			  "SELECT (SELECT COALESCE(MAX(id), 0) FROM measurements), "
			  "(SELECT COALESCE(MAX(id), 0) FROM runs), (SELECT COUNT(*) FROM runs), "
			  "(SELECT COUNT(*) FROM annotations), "
			  "(SELECT COALESCE(MAX(created), '') FROM annotations)",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	int step = store_step(st);
	if (step == STORE_ROW) {
		const char *created = store_column_text(st, 4);
		snprintf(out, 96, "%lld-%lld-%lld-%lld-%s", (long long)store_column_int64(st, 0),
			 (long long)store_column_int64(st, 1), (long long)store_column_int64(st, 2),
			 (long long)store_column_int64(st, 3), created ? created : "");
	}
	store_finalize(st);
	return step == STORE_ROW ? ASSAY_OK : store_sqlerr(s, e, "reading the store's generation");
}
