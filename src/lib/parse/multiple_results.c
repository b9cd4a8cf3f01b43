/* Format "multiple-results": the multiple_results CSV a madengine model
 * writes (model, performance, metric, plus columns such as precision or
 * batch_size, which become series fields, and metric-like columns such as
 * latency_p99_ms, which become rows of their own). */
#include <string.h>

#include "madengine.h"

assay_err assay_parse_multiple_results(const char *data, size_t len,
				       const struct assay_parse_opts *o, struct assay_rows *out,
				       struct assay_error *e)
{
	return madengine_parse_csv(data, len, o, out, false, e);
}

bool assay_detect_multiple_results(const char *data, size_t len)
{
	return madengine_csv_header_has(data, len, false);
}
