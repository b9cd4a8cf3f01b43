/* The report's pieces for other pages (assay serve's overview and series
 * pages): its style sheet and script, its escaping, and a sparkline drawn
 * with the report's palette classes. */
#include <math.h>

#include "report/report_internal.h"

const char *assay_report_style(void)
{
	return assay_report_css;
}

const char *assay_report_script(void)
{
	return assay_report_js;
}

void assay_report_escape(struct sbuf *out, const char *s)
{
	rep_text(out, REP_XML, s, 0, NULL);
}

const char *assay_report_number(char *buf, size_t size, double v)
{
	return rep_num(buf, size, v, 0);
}

/* A 120 x 24 line of the finite values, oldest left; a change point is a
 * short vertical tick before its first point. */
void assay_report_sparkline(struct sbuf *out, const double *y, size_t n, const size_t *changes,
			    size_t nchanges)
{
	const double w = 120, hgt = 24, pad = 2;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(y[i])) {
			lo = y[i] < lo ? y[i] : lo;
			hi = y[i] > hi ? y[i] : hi;
		}
	sbuf_adds(out, "<svg class=\"spark\" width=\"120\" height=\"24\" viewBox=\"0 0 120 24\" "
		       "role=\"img\" aria-label=\"sparkline\">");
	if (lo <= hi && n > 0) {
		double span = hi > lo ? hi - lo : 1,
		       dx = n > 1 ? (w - 2 * pad) / (double)(n - 1) : 0;
		sbuf_adds(out, "<polyline fill=\"none\" stroke=\"currentColor\" points=\"");
		for (size_t i = 0; i < n; i++)
			if (isfinite(y[i]))
				sbuf_addf(out, "%s%.1f,%.1f", i ? " " : "", pad + dx * (double)i,
					  hgt - pad - (y[i] - lo) / span * (hgt - 2 * pad));
		sbuf_adds(out, "\"/>");
		for (size_t k = 0; k < nchanges; k++)
			if (changes[k] < n)
				sbuf_addf(out,
					  "<line class=\"cp\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" "
					  "y2=\"24\" stroke=\"#c0392b\"/>",
					  pad + dx * ((double)changes[k] - 0.5),
					  pad + dx * ((double)changes[k] - 0.5));
	}
	sbuf_adds(out, "</svg>");
}
