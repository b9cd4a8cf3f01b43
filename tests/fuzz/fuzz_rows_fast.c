/* libFuzzer target for the fast NDJSON row reader (src/lib/measure/
 * rows_fast.c): whatever line it takes, the general reader (jansson and
 * assay_row_from_json) takes too, to the same row; what it leaves goes to
 * the general reader, so leaving a line is always allowed. Build and run
 * like fuzz_rows.c (seeds: the same). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/measure.h"
#include "measure/measure_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int text_differs(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data;
	const char *nl = memchr(line, '\n', size);
	size_t n = nl ? (size_t)(nl - line) : size;
	struct row_memo *memo = row_memo_new();
	struct assay_row f, g;
	int took = row_parse_fast(memo, line, n, &f);
	row_memo_free(memo);
	if (!took)
		return 0;
	json_error_t je;
	json_t *o = json_loadb(line, n, JSON_REJECT_DUPLICATES, &je);
	struct assay_error e;
	if (!o || assay_row_from_json(o, &g, "f", 1, &e) != ASSAY_OK)
		abort();
	json_decref(o);
	if (strcmp(f.series_key, g.series_key) || !json_equal(f.series, g.series) ||
	    strcmp(f.metric, g.metric) || strcmp(f.statistic, g.statistic) ||
	    strcmp(f.unit, g.unit) || memcmp(&f.value, &g.value, sizeof(f.value)) ||
	    f.direction != g.direction || f.samples != g.samples ||
	    text_differs(f.run_id, g.run_id) || text_differs(f.case_id, g.case_id) ||
	    text_differs(f.revision, g.revision) || text_differs(f.timestamp, g.timestamp))
		abort();
	assay_row_release(&f);
	assay_row_release(&g);
	return 0;
}
