/* What assay serve asks the store besides the listings: its generation (a
 * few maxima and counts that move whenever a write changes what a reader
 * sees: the ETag) and the newest verdict on a series. */
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

assay_err assay_store_series_verdict(struct assay_store *s, const char *series_key, char **gate,
				     char **status, struct assay_error *e)
{
	*gate = *status = NULL;
	struct store_stmt *st =
	    store_prepare(s,
			  "SELECT gate, status FROM verdicts WHERE series_key = ?1 "
			  "ORDER BY id DESC LIMIT 1",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, series_key);
	int step = store_step(st);
	if (step == STORE_ROW) {
		const char *g = store_column_text(st, 0), *v = store_column_text(st, 1);
		*gate = xstrdup(g ? g : "");
		*status = xstrdup(v ? v : "");
	}
	store_finalize(st);
	return step == STORE_ROW || step == STORE_DONE
		   ? ASSAY_OK
		   : store_sqlerr(s, e, "reading a series' newest verdict");
}
