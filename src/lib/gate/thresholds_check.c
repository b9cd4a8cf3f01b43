/* Checks of a thresholds file against what a judgement will have: the
 * combo's own cell and metrics that some row or parser can hold (`assay
 * gate --thresholds`). */
#include <string.h>

#include "assay/gate.h"
#include "assay/parse.h"

/* Whether a parser of the format table names metric. */
static bool metric_known(const char *metric)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		if (assay_format_produces(f, metric, NULL) == 1)
			return true;
	return false;
}

/* The cell of canonical combo canon; ASSAY_USAGE naming the cells there are
 * when it has none of its own. */
static assay_err own_cell(const struct assay_thresholds *th, const char *canon,
			  struct assay_error *e)
{
	const struct assay_threshold_cell *cell = assay_thresholds_cell(th, canon);
	if (cell && !strcmp(cell->key, canon))
		return ASSAY_OK;
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < th->n_cells; i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", th->cells[i].key);
	assay_error_at(e, ASSAY_USAGE, th->file, "$.cells", 0,
		       "no cell for combo \"%s\" (cells: %s)", canon,
		       sb.len ? sbuf_str(&sb) : "none");
	sbuf_release(&sb);
	return ASSAY_USAGE;
}

assay_err assay_thresholds_check_metrics(const struct assay_thresholds *th, const char *combo,
					 const struct assay_rows *rows, struct assay_error *e)
{
	char canon[256] = "default";
	if (combo) {
		assay_combo_key(combo, canon, sizeof(canon), NULL);
		if (own_cell(th, canon, e) != ASSAY_OK)
			return ASSAY_USAGE;
	}
	const struct assay_threshold_cell *cell = assay_thresholds_cell(th, canon);
	/* A CVS file names only the metrics of its fixed table: each is
	 * known, and one no row has fails alone ("missing"), as in CVS. */
	if (!cell || th->cvs)
		return ASSAY_OK;
	for (size_t i = 0; i < cell->n; i++) {
		const struct assay_threshold *t = &cell->v[i];
		bool in_rows = false;
		for (size_t j = 0; j < rows->n && !in_rows; j++)
			in_rows = !strcmp(rows->v[j].metric, t->metric);
		if (!in_rows && !metric_known(t->metric))
			return assay_error_at(e, ASSAY_USAGE, th->file, t->path, 0,
					      "unknown metric \"%s\": no row has it and no parser "
					      "produces it (a misspelt name?)",
					      t->metric);
	}
	return ASSAY_OK;
}
