/* report.html's inference section: for each model and ISL/OSL, the output
 * throughput and each latency's statistics (mean, median, p99) against the
 * cells' concurrency, drawn with the charts of the other sections. */
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"

/* The curves [from, to) share a chart. */
static void infer_chart(struct html *h, size_t from, size_t to)
{
	const struct assay_report *r = h->r;
	size_t n = to - from;
	struct svg_series *ser = xcalloc(n + 1, sizeof(*ser));
	double **xs = xcalloc(n + 1, sizeof(double *)), **ys = xcalloc(n + 1, sizeof(double *));
	for (size_t k = 0; k < n; k++) {
		const struct assay_report_infer *c = &r->infer[from + k];
		html_xy_split(c->points, c->npoints, &xs[k], &ys[k]);
		ser[k] = (struct svg_series){c->label,           xs[k], ys[k], c->npoints, c->color,
					     (int)SVG_MARK_AUTO, false, false, true,       false};
		ser[k].marker = c->color % SVG_MARK_COUNT + 1;
	}
	struct svg_chart chart = {.title = r->infer[from].chart,
				  .x_title = "concurrency (requests in flight)",
				  .y_title = r->infer[from].y_title,
				  .x_log2 = true,
				  .y_zero = true,
				  .series = ser,
				  .nseries = n,
				  .secrets = h->secrets};
	sbuf_adds(h->o, "<figure>");
	svg_chart(h->o, &chart);
	sbuf_adds(h->o, "</figure>");
	for (size_t k = 0; k < n; k++) {
		free(xs[k]);
		free(ys[k]);
	}
	free(xs);
	free(ys);
	free(ser);
}

void html_inference(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->ninfer)
		return;
	size_t ncharts = 0;
	for (size_t i = 0; i < r->ninfer; i++)
		ncharts += !i || strcmp(r->infer[i].chart, r->infer[i - 1].chart);
	sbuf_addf(h->o,
		  "<section id=\"inference\"><h2>Inference <small>%zu chart%s against "
		  "concurrency</small></h2><div class=\"charts\">",
		  ncharts, ncharts == 1 ? "" : "s");
	for (size_t i = 0; i < r->ninfer;) {
		size_t j = i + 1;
		while (j < r->ninfer && !strcmp(r->infer[j].chart, r->infer[i].chart))
			j++;
		infer_chart(h, i, j);
		i = j;
	}
	sbuf_adds(h->o, "</div></section>");
}
