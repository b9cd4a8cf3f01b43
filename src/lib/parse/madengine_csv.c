/* Format "madengine-csv": madengine's perf.csv, one result per line under
 * its 29 fixed columns (model, n_gpus, ..., performance, metric, status, ...);
 * columns beyond the fixed ones come from multiple_results and are kept as
 * series fields (or rows, when they are measurements). */
#include <string.h>

#include "madengine.h"

assay_err assay_parse_madengine_csv(const char *data, size_t len, const struct assay_parse_opts *o,
				    struct assay_rows *out, struct assay_error *e)
{
	return madengine_parse_csv(data, len, o, out, true, e);
}

bool assay_detect_madengine_csv(const char *data, size_t len)
{
	return madengine_csv_header_has(data, len, true);
}
