/* The report's inference charts (docs/inference.md, "Report"): a row of
 * this run whose series has a "concurrency" field (an inference suite's
 * cells, or rows ingested with one) and is a throughput or latency row of
 * format sglang becomes a point (concurrency, value) of a curve: one chart
 * per model, ISL and OSL (the series' other fields) and measure, one curve
 * per statistic (mean, median, p99 of a latency). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "report/load_int.h"

static const struct {
	const char *metric, *title, *unit;
} measures[] = {
    {"output_throughput", "output throughput", "tok/s"},
    {"request_throughput", "request throughput", "req/s"},
    {"ttft_ms", "time to first token", "ms"},
    {"tpot_ms", "time per output token", "ms"},
    {"itl_ms", "inter-token latency", "ms"},
    {"e2e_latency_ms", "end-to-end latency", "ms"},
};

/* The chart's name from the identity: model, ISL, OSL, precision, TP
 * (those the series has). */
static void chart_name(const json_t *f, const char *title, struct sbuf *out)
{
	static const char *const keys[] = {"model", "isl", "osl", "precision", "tp"};
	struct sbuf val = SBUF_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const json_t *v = json_object_get(f, keys[i]);
		if (!v)
			continue;
		load_factor_value(v, &val);
		if (i == 0)
			sbuf_addf(out, "%s%s", out->len ? " · " : "", val.buf);
		else
			sbuf_addf(out, "%s%s %s", out->len ? " · " : "", keys[i], val.buf);
	}
	sbuf_release(&val);
	sbuf_addf(out, "%s%s", out->len ? ": " : "", title);
}

void load_infer_row(struct loader *L, const struct assay_store_rowview *row)
{
	if (!row->fields_json || !strstr(row->fields_json, "\"concurrency\""))
		return;
	size_t m = 0;
	while (m < ARRAY_SIZE(measures) && strcmp(measures[m].metric, row->metric))
		m++;
	if (m == ARRAY_SIZE(measures))
		return;
	json_t *f = json_loads(row->fields_json, 0, NULL);
	const json_t *conc = json_object_get(f, "concurrency");
	if (json_is_number(conc) && json_number_value(conc) > 0) {
		struct sbuf chart = SBUF_INIT;
		chart_name(f, measures[m].title, &chart);
		struct assay_report_infer *c = assay_report_infer_curve(
		    L->r, sbuf_str(&chart), measures[m].unit, row->statistic);
		assay_report_infer_point(c, json_number_value(conc), row->value);
		sbuf_release(&chart);
	}
	json_decref(f);
}
