/* report.html's training section: per combination the loss slope, the loss
 * and throughput charts (warm-up shaded, the fitted line) and its gates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"

static double first_x(const struct assay_report_xy *v, size_t n)
{
	double m = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i].x) && v[i].x < m)
			m = v[i].x;
	return m;
}

/* "Loss slope S per step (intercept I, fitted over steps A-B; warm-up ...)." */
static void train_fit(struct html *h, const struct assay_report_train *t)
{
	sbuf_adds(h->o, "<p class=\"fit\">Loss slope <b>");
	num(h, t->slope, 4);
	sbuf_adds(h->o, "</b> per step (intercept ");
	num(h, t->intercept, 5);
	sbuf_adds(h->o, ", fitted over steps ");
	num(h, t->fit_from, 6);
	sbuf_adds(h->o, "&ndash;");
	num(h, t->fit_to, 6);
	sbuf_adds(h->o, ")");
	if (t->warmup_steps > 0) {
		sbuf_adds(h->o, "; warm-up steps &le; ");
		num(h, t->warmup_steps, 6);
	}
	sbuf_adds(h->o, ".</p>");
}

/* A per-step series; markers and point titles only while there are few points. */
static struct svg_series train_series(const char *label, double *x, double *y, size_t n, int color,
				      enum svg_marker mark)
{
	return (struct svg_series){
	    label, x, y, n, color, n <= 60 ? mark : SVG_MARK_NONE, false, false, n <= 60, false};
}

/* The loss chart (with the fitted line) and the throughput chart, warm-up shaded. */
static void train_charts(struct html *h, const struct assay_report_train *t)
{
	double *lx, *ly, *tx, *ty;
	html_xy_split(t->loss, t->nloss, &lx, &ly);
	html_xy_split(t->throughput, t->nthroughput, &tx, &ty);
	char fit_label[96], warm_label[64], buf[48];
	snprintf(fit_label, sizeof(fit_label), "fit: slope %s per step",
		 rep_num(buf, sizeof(buf), t->slope, 3));
	snprintf(warm_label, sizeof(warm_label), "warm-up");
	double w0 = fmin(first_x(t->loss, t->nloss), first_x(t->throughput, t->nthroughput));
	struct svg_band band = {isfinite(w0) ? w0 - 0.5 : 0.5, t->warmup_steps + 0.5, warm_label};
	bool warm = t->warmup_steps > 0;
	struct svg_series ls = train_series("lm loss", lx, ly, t->nloss, 0, SVG_MARK_CIRCLE);
	struct svg_series ts =
	    train_series("throughput", tx, ty, t->nthroughput, 2, SVG_MARK_SQUARE);
	struct sbuf ytitle = SBUF_INIT;
	sbuf_addf(&ytitle, "throughput (%s)", t->throughput_unit ? t->throughput_unit : "per step");
	struct svg_chart c1 = {.title = "lm loss per step",
			       .x_title = "step",
			       .y_title = "lm loss",
			       .series = &ls,
			       .nseries = 1,
			       .bands = &band,
			       .nbands = warm,
			       .fit = t->has_fit,
			       .fit_slope = t->slope,
			       .fit_intercept = t->intercept,
			       .fit_from = t->fit_from,
			       .fit_to = t->fit_to,
			       .fit_label = fit_label,
			       .secrets = h->secrets};
	struct svg_chart c2 = {.title = "throughput per step",
			       .x_title = "step",
			       .y_title = ytitle.buf,
			       .series = &ts,
			       .nseries = 1,
			       .bands = &band,
			       .nbands = warm,
			       .secrets = h->secrets};
	html_chart_pair(h, &c1, &c2);
	sbuf_release(&ytitle);
	free(lx);
	free(ly);
	free(tx);
	free(ty);
}

/* The threshold table: the gates of this combination's case. */
static void train_gates(struct html *h, const struct assay_report_train *t)
{
	const struct assay_report *r = h->r;
	bool any = false;
	for (size_t k = 0; k < r->ngates; k++) {
		const struct assay_report_gate *g = &r->gates[k];
		if (!g->case_id || !t->case_id || strcmp(g->case_id, t->case_id))
			continue;
		if (!any)
			html_gate_table_head(h, false);
		any = true;
		html_gate_row(h, g, false);
	}
	if (any)
		sbuf_adds(h->o, "</tbody></table></div>");
	else
		sbuf_adds(h->o, "<p class=\"note\">No thresholds for this combination.</p>");
}

void html_training(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->ntrain)
		return;
	sbuf_addf(h->o,
		  "<section id=\"training\"><h2>Training <small>%zu combination%s</small>"
		  "</h2>",
		  r->ntrain, r->ntrain == 1 ? "" : "s");
	for (size_t i = 0; i < r->ntrain; i++) {
		const struct assay_report_train *t = &r->train[i];
		sbuf_adds(h->o, "<h3>");
		esc(h, t->label && *t->label ? t->label : t->case_id);
		sbuf_adds(h->o, " <small>");
		html_case_ref(h, t->case_id);
		sbuf_adds(h->o, "</small></h3>");
		if (t->has_fit)
			train_fit(h, t);
		if (i < TRAIN_CHARTS)
			train_charts(h, t);
		else if (i == TRAIN_CHARTS)
			sbuf_addf(h->o,
				  "<p class=\"note\">Charts are drawn for the first %d "
				  "combinations only.</p>",
				  TRAIN_CHARTS);
		train_gates(h, t);
	}
	sbuf_adds(h->o, "</section>");
}
