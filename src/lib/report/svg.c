/* assay's SVG charts: line and scatter charts with "nice" 1-2-5 ticks, linear
 * or log-10 axes (or a log-2 axis of byte sizes), category x axes, legends, distinct colours and
 * markers, shaded x ranges, vertical markers, a highlighted point and a fitted line. All text is
 * escaped; the same chart always gives the same bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

/* Colour-blind-friendly enough and distinct on white. */
static const char *const palette[] = {"#2563eb", "#ea580c", "#16a34a", "#9333ea", "#dc2626",
				      "#0891b2", "#ca8a04", "#db2777", "#4b5563", "#65a30d"};
#define GREY "#6b7280"
#define INK  "#1f2937"
#define FIT  "#e11d48"

#define FONT_W 6.1 /* average glyph width at font-size 11, in px */

struct axis {
	double lo, hi; /* in data units */
	bool log;
	bool log2;   /* base 2 (with log) */
	double a, b; /* pixel range */
	double ticks[64];
	size_t nticks;
	double step; /* linear tick step (0 on log axes) */
};

/* Data value to pixel. */
static double axis_px(const struct axis *ax, double v)
{
	double t, lo, hi;
	if (ax->log2) {
		t = log2(v);
		lo = log2(ax->lo);
		hi = log2(ax->hi);
	} else if (ax->log) {
		t = log10(v);
		lo = log10(ax->lo);
		hi = log10(ax->hi);
	} else {
		t = v;
		lo = ax->lo;
		hi = ax->hi;
	}
	if (!(hi > lo))
		return (ax->a + ax->b) / 2;
	return ax->a + (t - lo) / (hi - lo) * (ax->b - ax->a);
}

/* Append v rounded to 0.1 without printf (hot path: every coordinate). */
static void coord(struct sbuf *o, double v)
{
	if (!isfinite(v) || fabs(v) > 1e9)
		v = 0; /* never reached by a point on the chart; keeps the output sane */
	long t = lround(v * 10);
	char buf[32];
	size_t n = 0;
	bool neg = t < 0;
	unsigned long u = neg ? (unsigned long)(-t) : (unsigned long)t;
	unsigned long frac = u % 10, whole = u / 10;
	char rev[24];
	size_t r = 0;
	do {
		rev[r++] = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole);
	if (neg && (u != 0))
		buf[n++] = '-';
	while (r)
		buf[n++] = rev[--r];
	if (frac) {
		buf[n++] = '.';
		buf[n++] = (char)('0' + frac);
	}
	sbuf_add(o, buf, n);
}

static void text(struct sbuf *o, const char *s, const struct svg_chart *c)
{
	rep_text(o, REP_XML, s, 0, c->secrets);
}

/* Width of s in px, estimated from its characters (UTF-8 aware). */
static double text_width(const char *s)
{
	size_t chars = 0;
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if ((*p & 0xC0) != 0x80)
			chars++;
	return (double)chars * FONT_W;
}

size_t svg_ticks_linear(double *lo, double *hi, int target, double *ticks, size_t max, double *step)
{
	double l = *lo, h = *hi;
	if (!isfinite(l) || !isfinite(h)) {
		l = 0;
		h = 1;
	}
	if (h < l) {
		double t = l;
		l = h;
		h = t;
	}
	if (h == l) {
		double d = l == 0 ? 1 : fabs(l) * 0.1;
		l -= d;
		h += d;
	}
	if (target < 2)
		target = 2;
	double raw = (h - l) / target;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	double s = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
	double k0 = floor(l / s + 1e-9), k1 = ceil(h / s - 1e-9);
	*lo = k0 * s;
	*hi = k1 * s;
	if (step)
		*step = s;
	size_t n = 0;
	for (double k = k0; k <= k1 + 1e-9 && n < max; k++) {
		double v = k * s;
		if (fabs(v) < s * 1e-9)
			v = 0;
		ticks[n++] = v;
	}
	return n;
}

size_t svg_ticks_log(double *lo, double *hi, double *ticks, size_t max)
{
	double l = *lo > 0 && isfinite(*lo) ? *lo : 1;
	double h = *hi > 0 && isfinite(*hi) ? *hi : l;
	if (h < l) {
		double t = l;
		l = h;
		h = t;
	}
	int a = (int)floor(log10(l) + 1e-9), b = (int)ceil(log10(h) - 1e-9);
	if (l == h) {
		/* One value: a decade either side, so it does not sit on an edge. */
		a = (int)floor(log10(l) - 0.5 + 1e-9);
		b = (int)ceil(log10(l) + 0.5 - 1e-9);
	}
	if (b <= a)
		b = a + 1;
	*lo = pow(10, a);
	*hi = pow(10, b);
	int decades = b - a;
	size_t n = 0;
	if (decades <= 2) {
		static const double mult[] = {1, 2, 5};
		for (int k = a; k <= b; k++)
			for (size_t m = 0; m < 3 && n < max; m++) {
				if (k == b && m > 0)
					break;
				ticks[n++] = mult[m] * pow(10, k);
			}
	} else {
		int every = decades <= 6 ? 1 : (decades + 5) / 6;
		for (int k = a; k <= b && n < max; k += every)
			ticks[n++] = pow(10, k);
	}
	return n;
}

static const char *fixed(char *buf, size_t size, double v, int dec)
{
	if (dec < 0)
		dec = 0;
	if (dec > 12)
		dec = 12;
	snprintf(buf, size, "%.*f", dec, v);
	if (strchr(buf, '.')) {
		size_t n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, size, "0");
	return buf;
}

size_t svg_ticks_log2(double *lo, double *hi, double *ticks, size_t max)
{
	int a = (int)floor(log2(*lo) + 1e-9), b = (int)ceil(log2(*hi) - 1e-9);
	if (a < -60)
		a = -60;
	if (b > 80)
		b = 80;
	if (b <= a)
		b = a + 1;
	*lo = ldexp(1, a);
	*hi = ldexp(1, b);
	static const int steps[] = {1, 2, 5, 10, 20};
	int k = 20;
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		int first = (int)ceil((double)a / steps[i]) * steps[i];
		if ((b - first) / steps[i] + 1 <= 8) {
			k = steps[i];
			break;
		}
	}
	size_t n = 0;
	for (int e = (int)ceil((double)a / k) * k; e <= b && n < max; e += k)
		ticks[n++] = ldexp(1, e);
	return n;
}

const char *svg_bytes_label(char *buf, size_t size, double v)
{
	static const char *const units[] = {"", "K", "M", "G", "T", "P", "E"};
	size_t u = 0;
	while (v >= 1024 && u + 1 < ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	if (v >= 1 && v == floor(v))
		snprintf(buf, size, "%.0f%s", v, units[u]);
	else
		snprintf(buf, size, "%g%s", v, units[u]);
	return buf;
}

const char *svg_tick_label(char *buf, size_t size, double v, double step, bool kilo)
{
	double a = fabs(v);
	if (v == 0 || !isfinite(v)) {
		snprintf(buf, size, isfinite(v) ? "0" : "-");
		return buf;
	}
	if (!(step > 0))
		step = pow(10, floor(log10(a) + 1e-9));
	if (a >= 1e4 || (kilo && a >= 1e3)) {
		double div = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : 1e3;
		const char *suffix = a >= 1e9 ? "G" : a >= 1e6 ? "M" : "k";
		char num[48];
		int dec = (int)-floor(log10(step / div) + 1e-9);
		fixed(num, sizeof(num), v / div, dec);
		snprintf(buf, size, "%s%s", num, suffix);
		return buf;
	}
	if (a < 1e-3) {
		/* Mantissa digits needed for this step at this magnitude. */
		int mag = (int)floor(log10(a) + 1e-9);
		int dec = mag - (int)floor(log10(step) + 1e-9);
		if (dec < 0)
			dec = 0;
		char tmp[48];
		snprintf(tmp, sizeof(tmp), "%.*e", dec, v);
		char *e = strchr(tmp, 'e');
		char mant[48];
		snprintf(mant, sizeof(mant), "%.*s", (int)(e - tmp), tmp);
		fixed(mant, sizeof(mant), atof(mant), dec);
		snprintf(buf, size, "%se%d", mant, atoi(e + 1));
		return buf;
	}
	return fixed(buf, size, v, (int)-floor(log10(step) + 1e-9));
}

/* Usable point i of series s on these axes? */
static bool usable(const struct svg_chart *c, const struct svg_series *s, size_t i)
{
	double x = s->x[i], y = s->y[i];
	/* Beyond 1e300 the axis arithmetic itself overflows. */
	if (!isfinite(x) || !isfinite(y) || fabs(x) > 1e300 || fabs(y) > 1e300)
		return false;
	if (((c->x_log || c->x_log2) && x <= 0) || (c->y_log && y <= 0))
		return false;
	return true;
}

static void grow(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

static const char *color_of(const struct svg_series *s, size_t index)
{
	if (s->color == SVG_COLOR_GREY)
		return GREY;
	size_t k = s->color >= 0 ? (size_t)s->color : index;
	return palette[k % ARRAY_SIZE(palette)];
}

static int marker_of(const struct svg_series *s, size_t index)
{
	if (s->marker == SVG_MARK_AUTO)
		return (int)(index % SVG_MARK_COUNT) + 1;
	return s->marker;
}

/* The path data or element of a marker at (x, y). */
static void marker(struct sbuf *o, int m, double x, double y, const char *title,
		   const struct svg_chart *c)
{
	const char *end = title ? ">" : "/>";
	switch (m) {
	case SVG_MARK_CIRCLE:
		sbuf_adds(o, "<circle cx=\"");
		coord(o, x);
		sbuf_adds(o, "\" cy=\"");
		coord(o, y);
		sbuf_addf(o, "\" r=\"3\"%s", end);
		break;
	case SVG_MARK_SQUARE:
		sbuf_adds(o, "<path d=\"M");
		coord(o, x - 2.8);
		sbuf_addch(o, ' ');
		coord(o, y - 2.8);
		sbuf_addf(o, "h5.6v5.6h-5.6z\"%s", end);
		break;
	case SVG_MARK_TRIANGLE:
		sbuf_adds(o, "<path d=\"M");
		coord(o, x);
		sbuf_addch(o, ' ');
		coord(o, y - 3.8);
		sbuf_addf(o, "l3.6 6.4h-7.2z\"%s", end);
		break;
	case SVG_MARK_DIAMOND:
		sbuf_adds(o, "<path d=\"M");
		coord(o, x);
		sbuf_addch(o, ' ');
		coord(o, y - 4);
		sbuf_addf(o, "l4 4-4 4-4-4z\"%s", end);
		break;
	case SVG_MARK_TRIANGLE_DOWN:
		sbuf_adds(o, "<path d=\"M");
		coord(o, x);
		sbuf_addch(o, ' ');
		coord(o, y + 3.8);
		sbuf_addf(o, "l3.6-6.4h-7.2z\"%s", end);
		break;
	case SVG_MARK_CROSS:
		sbuf_adds(o, "<path fill=\"none\" stroke-width=\"1.6\" d=\"M");
		coord(o, x - 3);
		sbuf_addch(o, ' ');
		coord(o, y - 3);
		sbuf_addf(o, "l6 6m0-6l-6 6\"%s", end);
		break;
	default: return;
	}
	if (title) {
		sbuf_adds(o, "<title>");
		text(o, title, c);
		sbuf_adds(o, "</title>");
		sbuf_adds(o, m == SVG_MARK_CIRCLE ? "</circle>" : "</path>");
	}
}

/* Add point i of s to the open polyline, opening one when needed. */
static void line_point(struct sbuf *o, const struct svg_series *s, size_t i, const struct axis *xa,
		       const struct axis *ya, const char *color, bool *open)
{
	if (!*open) {
		sbuf_addf(o, "<polyline stroke=\"%s\"%s%s points=\"", color,
			  s->dashed ? " stroke-dasharray=\"5 3\"" : "",
			  s->faint ? " stroke-opacity=\"0.35\" stroke-width=\"1.25\"" : "");
		*open = true;
	} else {
		sbuf_addch(o, ' ');
	}
	coord(o, axis_px(xa, s->x[i]));
	sbuf_addch(o, ',');
	coord(o, axis_px(ya, s->y[i]));
}

/* One polyline per run of usable points. A dense series (more points than
 * twice the plot's width in pixels) keeps only the first, lowest, highest
 * and last point of every pixel column, which draws the same picture. */
static void polyline(struct sbuf *o, const struct svg_chart *c, const struct svg_series *s,
		     const struct axis *xa, const struct axis *ya, const char *color)
{
	bool dense = s->n > 2 * (size_t)fabs(xa->b - xa->a);
	bool open = false, have = false;
	long col = 0;
	size_t first = 0, lo = 0, hi = 0, last = 0;
	for (size_t i = 0; i <= s->n; i++) {
		bool ok = i < s->n && usable(c, s, i);
		long pcol = ok ? lround(floor(axis_px(xa, s->x[i]))) : 0;
		if (have && (!ok || pcol != col)) {
			size_t keep[4] = {first, lo < hi ? lo : hi, lo < hi ? hi : lo, last};
			for (size_t k = 0; k < 4; k++)
				if (k == 0 || keep[k] != keep[k - 1])
					line_point(o, s, keep[k], xa, ya, color, &open);
			have = false;
		}
		if (!ok) {
			if (open)
				sbuf_adds(o, "\"/>");
			open = false;
		} else if (!dense) {
			line_point(o, s, i, xa, ya, color, &open);
		} else if (!have) {
			have = true;
			col = pcol;
			first = lo = hi = last = i;
		} else {
			if (s->y[i] < s->y[lo])
				lo = i;
			if (s->y[i] > s->y[hi])
				hi = i;
			last = i;
		}
	}
}

struct legend_item {
	const char *label;
	const char *color;
	int marker;
	bool dashed, line, ring, band;
	bool faint;
};

static double legend_item_width(const struct legend_item *it)
{
	return 26 + text_width(it->label) + 14;
}

static void legend_swatch(struct sbuf *o, const struct legend_item *it, double x, double y,
			  const struct svg_chart *c)
{
	if (it->band) {
		sbuf_adds(o, "<rect fill=\"#fde68a\" fill-opacity=\"0.55\" x=\"");
		coord(o, x + 2);
		sbuf_adds(o, "\" y=\"");
		coord(o, y - 5);
		sbuf_adds(o, "\" width=\"16\" height=\"10\"/>");
		return;
	}
	if (it->line) {
		sbuf_addf(o, "<path stroke=\"%s\" stroke-width=\"1.75\"%s%s d=\"M", it->color,
			  it->dashed ? " stroke-dasharray=\"5 3\"" : "",
			  it->faint ? " stroke-opacity=\"0.35\"" : "");
		coord(o, x);
		sbuf_addch(o, ' ');
		coord(o, y);
		sbuf_adds(o, "h20\"/>");
	}
	if (it->ring) {
		sbuf_adds(o, "<circle fill=\"none\" stroke=\"" INK "\" stroke-width=\"2\" cx=\"");
		coord(o, x + 10);
		sbuf_adds(o, "\" cy=\"");
		coord(o, y);
		sbuf_adds(o, "\" r=\"5\"/>");
	}
	if (it->marker > 0) {
		sbuf_addf(o, "<g fill=\"%s\" stroke=\"%s\">", it->color, it->color);
		marker(o, it->marker, x + 10, y, NULL, c);
		sbuf_adds(o, "</g>");
	}
}

/* Lay out and draw the legend from y0 down; returns the rows used. */
static int legend(struct sbuf *o, const struct legend_item *items, size_t n, double x0,
		  double width, double y0, bool draw, const struct svg_chart *c)
{
	int rows = n ? 1 : 0;
	double x = x0;
	for (size_t i = 0; i < n; i++) {
		double w = legend_item_width(&items[i]);
		if (x > x0 && x + w > x0 + width) {
			rows++;
			x = x0;
		}
		if (draw) {
			double y = y0 + (rows - 1) * 16 + 8;
			legend_swatch(o, &items[i], x, y, c);
			sbuf_adds(o, "<text x=\"");
			coord(o, x + 26);
			sbuf_adds(o, "\" y=\"");
			coord(o, y + 3.5);
			sbuf_adds(o, "\">");
			text(o, items[i].label, c);
			sbuf_adds(o, "</text>");
		}
		x += w;
	}
	return rows;
}

static void axis_ticks(struct axis *ax, int target)
{
	if (ax->log2) {
		ax->nticks = svg_ticks_log2(&ax->lo, &ax->hi, ax->ticks, ARRAY_SIZE(ax->ticks));
		ax->step = 0;
	} else if (ax->log) {
		ax->nticks = svg_ticks_log(&ax->lo, &ax->hi, ax->ticks, ARRAY_SIZE(ax->ticks));
		ax->step = 0;
	} else {
		ax->nticks = svg_ticks_linear(&ax->lo, &ax->hi, target, ax->ticks,
					      ARRAY_SIZE(ax->ticks), &ax->step);
	}
}

/* Light grid lines at 2..9 x 10^k between the labelled decades. */
static void log_minor(struct sbuf *o, const struct axis *ax, bool vertical, double from, double to)
{
	int a = (int)floor(log10(ax->lo) + 1e-9), b = (int)ceil(log10(ax->hi) - 1e-9);
	if (b - a > 4)
		return;
	sbuf_adds(o, "<path stroke=\"#f1f3f5\" d=\"");
	for (int k = a; k < b; k++)
		for (int m = 2; m <= 9; m++) {
			double p = axis_px(ax, m * pow(10, k));
			sbuf_addch(o, 'M');
			if (vertical) {
				coord(o, p);
				sbuf_addch(o, ' ');
				coord(o, from);
				sbuf_addf(o, "V");
				coord(o, to);
			} else {
				coord(o, from);
				sbuf_addch(o, ' ');
				coord(o, p);
				sbuf_addf(o, "H");
				coord(o, to);
			}
		}
	sbuf_adds(o, "\"/>");
}

/* The chart's geometry: plot area, axes and whether anything can be drawn. */
struct frame {
	double W, H, ml, mt, pw, ph;
	bool cat;      /* category x axis */
	size_t points; /* usable points over all series */
	struct axis xa, ya;
};

/* Data ranges over the series, the highlight, the fit, bands and markers. */
static void frame_ranges(const struct svg_chart *c, struct frame *f, double r[4])
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *s = &c->series[k];
		for (size_t i = 0; i < s->n; i++)
			if (usable(c, s, i)) {
				grow(&xlo, &xhi, s->x[i]);
				grow(&ylo, &yhi, s->y[i]);
				f->points++;
			}
	}
	if (c->highlight && isfinite(c->hx) && isfinite(c->hy)) {
		grow(&xlo, &xhi, c->hx);
		grow(&ylo, &yhi, c->hy);
	}
	if (c->fit && f->points) {
		grow(&xlo, &xhi, c->fit_from);
		grow(&xlo, &xhi, c->fit_to);
		grow(&ylo, &yhi, c->fit_intercept + c->fit_slope * c->fit_from);
		grow(&ylo, &yhi, c->fit_intercept + c->fit_slope * c->fit_to);
	}
	for (size_t k = 0; k < c->nbands && f->points; k++) {
		grow(&xlo, &xhi, c->bands[k].from);
		grow(&xlo, &xhi, c->bands[k].to);
	}
	if (!c->x_log && !c->x_log2)
		for (size_t k = 0; k < c->nvlines && f->points; k++)
			grow(&xlo, &xhi, c->vlines[k].x);
	if (c->y_zero && !c->y_log && f->points && ylo > 0)
		ylo = 0;
	r[0] = xlo, r[1] = xhi, r[2] = ylo, r[3] = yhi;
}

static void frame_init(const struct svg_chart *c, struct frame *f)
{
	*f = (struct frame){.W = c->width > 0 ? c->width : 640,
			    .H = c->height > 0 ? c->height : 300,
			    .ml = 64,
			    .mt = c->title ? 32 : 12,
			    .cat = c->ncategories > 0};
	double mr = 18, mb = 46, r[4];
	f->pw = f->W - f->ml - mr;
	f->ph = f->H - f->mt - mb;
	frame_ranges(c, f, r);
	f->xa = (struct axis){.lo = r[0],
			      .hi = r[1],
			      .log = c->x_log || c->x_log2,
			      .log2 = c->x_log2,
			      .a = f->ml,
			      .b = f->ml + f->pw};
	f->ya =
	    (struct axis){.lo = r[2], .hi = r[3], .log = c->y_log, .a = f->mt + f->ph, .b = f->mt};
	if (f->cat) {
		f->xa.log = false;
		f->xa.lo = -0.5;
		f->xa.hi = (double)c->ncategories - 0.5;
	} else if (f->points) {
		axis_ticks(&f->xa, f->pw >= 450 ? 7 : 5);
	}
	if (f->points)
		axis_ticks(&f->ya, f->ph >= 220 ? 6 : 4);
}

/* The legend's entries: labelled series, the fit, one band, markers, the highlight. */
static size_t legend_items(const struct svg_chart *c, struct legend_item *items)
{
	size_t n = 0;
	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *s = &c->series[k];
		if (s->label)
			items[n++] = (struct legend_item){
			    s->label,    color_of(s, k), marker_of(s, k), s->dashed,
			    !s->no_line, false,          false,           s->faint};
	}
	if (c->fit && c->fit_label)
		items[n++] =
		    (struct legend_item){c->fit_label, FIT, 0, true, true, false, false, false};
	for (size_t k = 0; k < c->nbands; k++)
		if (c->bands[k].label) {
			items[n++] = (struct legend_item){
			    c->bands[k].label, NULL, 0, false, false, false, true, false};
			break;
		}
	if (c->nvlines && c->vline_legend)
		items[n++] = (struct legend_item){c->vline_legend, "#7c3aed", 0,    true, true,
						  false,           false,     false};
	if (c->highlight && c->highlight_label)
		items[n++] = (struct legend_item){
		    c->highlight_label, INK, 0, false, false, true, false, false};
	return n;
}

/* <svg ...> with its size, title and the plot area's frame. */
static void open_svg(struct sbuf *o, const struct svg_chart *c, const struct frame *f,
		     double total_h)
{
	sbuf_adds(o, "<svg class=\"chart\"");
	if (c->standalone)
		sbuf_adds(o, " xmlns=\"http://www.w3.org/2000/svg\"");
	sbuf_adds(o, " viewBox=\"0 0 ");
	coord(o, f->W);
	sbuf_addch(o, ' ');
	coord(o, total_h);
	sbuf_adds(o, "\" width=\"");
	coord(o, f->W);
	sbuf_adds(o, "\" height=\"");
	coord(o, total_h);
	sbuf_adds(o, "\" role=\"img\" font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,"
		     "Helvetica,Arial,sans-serif\" font-size=\"11\" fill=\"" INK "\"");
	if (c->title) {
		sbuf_adds(o, " aria-label=\"");
		text(o, c->title, c);
		sbuf_adds(o, "\"><title>");
		text(o, c->title, c);
		sbuf_adds(o, "</title><text x=\"");
		coord(o, f->ml);
		sbuf_adds(o, "\" y=\"19\" font-size=\"12.5\" font-weight=\"600\">");
		text(o, c->title, c);
		sbuf_adds(o, "</text>");
	} else {
		sbuf_adds(o, ">");
	}
	sbuf_adds(o, "<rect x=\"");
	coord(o, f->ml);
	sbuf_adds(o, "\" y=\"");
	coord(o, f->mt);
	sbuf_adds(o, "\" width=\"");
	coord(o, f->pw);
	sbuf_adds(o, "\" height=\"");
	coord(o, f->ph);
	sbuf_adds(o, "\" fill=\"#fff\" stroke=\"#d1d5db\"/>");
}

/* Shaded x ranges, clipped to the plot area. */
static void bands(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	for (size_t k = 0; k < c->nbands; k++) {
		double x1 = axis_px(&f->xa, c->bands[k].from), x2 = axis_px(&f->xa, c->bands[k].to);
		if (x1 < f->ml)
			x1 = f->ml;
		if (x2 > f->ml + f->pw)
			x2 = f->ml + f->pw;
		if (!(x2 > x1))
			continue;
		sbuf_adds(o, "<rect fill=\"#fde68a\" fill-opacity=\"0.45\" x=\"");
		coord(o, x1);
		sbuf_adds(o, "\" y=\"");
		coord(o, f->mt + 0.5);
		sbuf_adds(o, "\" width=\"");
		coord(o, x2 - x1);
		sbuf_adds(o, "\" height=\"");
		coord(o, f->ph - 1);
		sbuf_adds(o, "\"/>");
	}
}

/* Grid lines: log minors, then one path through every tick. */
static void grid(struct sbuf *o, const struct frame *f)
{
	const struct axis *xa = &f->xa, *ya = &f->ya;
	if (ya->log)
		log_minor(o, ya, false, f->ml, f->ml + f->pw);
	if (xa->log && !xa->log2)
		log_minor(o, xa, true, f->mt, f->mt + f->ph);
	sbuf_adds(o, "<path stroke=\"#e5e7eb\" d=\"");
	for (size_t i = 0; i < ya->nticks; i++) {
		sbuf_addch(o, 'M');
		coord(o, f->ml);
		sbuf_addch(o, ' ');
		coord(o, axis_px(ya, ya->ticks[i]));
		sbuf_addch(o, 'H');
		coord(o, f->ml + f->pw);
	}
	for (size_t i = 0; !f->cat && i < xa->nticks; i++) {
		sbuf_addch(o, 'M');
		coord(o, axis_px(xa, xa->ticks[i]));
		sbuf_addch(o, ' ');
		coord(o, f->mt);
		sbuf_addch(o, 'V');
		coord(o, f->mt + f->ph);
	}
	sbuf_adds(o, "\"/>");
}

/* One x-axis label at data position v. */
static void x_label_open(struct sbuf *o, const struct frame *f, double v)
{
	sbuf_adds(o, "<text x=\"");
	coord(o, axis_px(&f->xa, v));
	sbuf_adds(o, "\" y=\"");
	coord(o, f->mt + f->ph + 15);
	sbuf_adds(o, "\">");
}

/* Category labels, thinned so that they do not overlap (the last one kept). */
static void category_labels(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	double widest = 0;
	for (size_t i = 0; i < c->ncategories; i++) {
		double w = text_width(c->x_categories[i] ? c->x_categories[i] : "");
		if (w > 12 * FONT_W)
			w = 12 * FONT_W;
		if (w > widest)
			widest = w;
	}
	size_t fit = (size_t)(f->pw / (widest + 14));
	if (fit < 1)
		fit = 1;
	size_t every = (c->ncategories + fit - 1) / fit;
	for (size_t i = 0; i < c->ncategories; i++) {
		if ((c->ncategories - 1 - i) % every)
			continue;
		x_label_open(o, f, (double)i);
		rep_text(o, REP_XML, c->x_categories[i], 11, c->secrets);
		sbuf_adds(o, "</text>");
	}
}

static void tick_labels(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	const struct axis *xa = &f->xa, *ya = &f->ya;
	char lab[64];
	sbuf_adds(o, "<g fill=\"#4b5563\" text-anchor=\"end\">");
	for (size_t i = 0; i < ya->nticks; i++) {
		sbuf_adds(o, "<text x=\"");
		coord(o, f->ml - 6);
		sbuf_adds(o, "\" y=\"");
		coord(o, axis_px(ya, ya->ticks[i]) + 3.5);
		sbuf_adds(o, "\">");
		sbuf_adds(o,
			  svg_tick_label(lab, sizeof(lab), ya->ticks[i], ya->step, ya->hi >= 1e4));
		sbuf_adds(o, "</text>");
	}
	sbuf_adds(o, "</g><g fill=\"#4b5563\" text-anchor=\"middle\">");
	if (f->cat) {
		category_labels(o, c, f);
	} else {
		for (size_t i = 0; i < xa->nticks; i++) {
			x_label_open(o, f, xa->ticks[i]);
			sbuf_adds(o, xa->log2 ? svg_bytes_label(lab, sizeof(lab), xa->ticks[i])
					      : svg_tick_label(lab, sizeof(lab), xa->ticks[i],
							       xa->step, xa->hi >= 1e4));
			sbuf_adds(o, "</text>");
		}
	}
	sbuf_adds(o, "</g>");
}

/* Dashed vertical markers inside the plot area, with their labels as titles. */
static void vlines(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	for (size_t k = 0; k < c->nvlines; k++) {
		double v = c->vlines[k].x;
		if (!isfinite(v) || (f->xa.log && v <= 0))
			continue;
		double px = axis_px(&f->xa, v);
		if (px < f->ml || px > f->ml + f->pw)
			continue;
		sbuf_adds(o, "<path stroke=\"#7c3aed\" stroke-width=\"1.5\" "
			     "stroke-dasharray=\"5 3\" d=\"M");
		coord(o, px);
		sbuf_addch(o, ' ');
		coord(o, f->mt);
		sbuf_addch(o, 'V');
		coord(o, f->mt + f->ph);
		if (c->vlines[k].label) {
			sbuf_adds(o, "\"><title>");
			text(o, c->vlines[k].label, c);
			sbuf_adds(o, "</title></path>");
		} else {
			sbuf_adds(o, "\"/>");
		}
	}
}

/* A point's tooltip: "x: y (label)", x being the category name on category axes. */
static const char *point_title(struct sbuf *t, const struct svg_chart *c, const struct frame *f,
			       const struct svg_series *s, size_t i)
{
	char xs[48], ys[48];
	sbuf_reset(t);
	if (f->cat && s->x[i] >= 0 && s->x[i] < (double)c->ncategories) {
		const char *name = c->x_categories[(size_t)s->x[i]];
		sbuf_adds(t, name ? name : "");
	} else if (f->xa.log2) {
		sbuf_adds(t, svg_bytes_label(xs, sizeof(xs), s->x[i]));
	} else {
		sbuf_adds(t, rep_num(xs, sizeof(xs), s->x[i], 6));
	}
	sbuf_addf(t, ": %s", rep_num(ys, sizeof(ys), s->y[i], 4));
	if (s->label)
		sbuf_addf(t, " (%s)", s->label);
	return t->buf;
}

/* Series: lines first, then markers on top. */
static void series(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	sbuf_adds(o, "<g fill=\"none\" stroke-width=\"1.75\" stroke-linejoin=\"round\">");
	for (size_t k = 0; k < c->nseries; k++)
		if (!c->series[k].no_line)
			polyline(o, c, &c->series[k], &f->xa, &f->ya, color_of(&c->series[k], k));
	sbuf_adds(o, "</g>");
	struct sbuf title = SBUF_INIT;
	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *s = &c->series[k];
		int m = marker_of(s, k);
		if (m <= 0)
			continue;
		const char *col = color_of(s, k);
		sbuf_addf(o, "<g fill=\"%s\" stroke=\"%s\">", col, col);
		for (size_t i = 0; i < s->n; i++)
			if (usable(c, s, i))
				marker(o, m, axis_px(&f->xa, s->x[i]), axis_px(&f->ya, s->y[i]),
				       s->point_title ? point_title(&title, c, f, s, i) : NULL, c);
		sbuf_adds(o, "</g>");
	}
	sbuf_release(&title);
}

/* The fitted line and the highlighted point, drawn last. */
static void fit_and_highlight(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	const struct axis *xa = &f->xa, *ya = &f->ya;
	if (c->fit) {
		double fx1 = axis_px(xa, c->fit_from), fx2 = axis_px(xa, c->fit_to);
		double fy1 = axis_px(ya, c->fit_intercept + c->fit_slope * c->fit_from);
		double fy2 = axis_px(ya, c->fit_intercept + c->fit_slope * c->fit_to);
		if (isfinite(fx1) && isfinite(fx2) && isfinite(fy1) && isfinite(fy2)) {
			sbuf_adds(o, "<path stroke=\"" FIT "\" stroke-width=\"2\" "
				     "stroke-dasharray=\"7 4\" d=\"M");
			coord(o, fx1);
			sbuf_addch(o, ' ');
			coord(o, fy1);
			sbuf_addch(o, 'L');
			coord(o, fx2);
			sbuf_addch(o, ' ');
			coord(o, fy2);
			sbuf_adds(o, "\"/>");
		}
	}
	if (c->highlight && isfinite(c->hx) && isfinite(c->hy) && !(xa->log && c->hx <= 0) &&
	    !(ya->log && c->hy <= 0)) {
		sbuf_adds(o, "<circle fill=\"none\" stroke=\"" INK "\" stroke-width=\"2\" cx=\"");
		coord(o, axis_px(xa, c->hx));
		sbuf_adds(o, "\" cy=\"");
		coord(o, axis_px(ya, c->hy));
		sbuf_adds(o, "\" r=\"6.5\"/>");
	}
}

static void axis_titles(struct sbuf *o, const struct svg_chart *c, const struct frame *f)
{
	if (c->x_title) {
		sbuf_adds(o, "<text text-anchor=\"middle\" x=\"");
		coord(o, f->ml + f->pw / 2);
		sbuf_adds(o, "\" y=\"");
		coord(o, f->mt + f->ph + 34);
		sbuf_adds(o, "\">");
		text(o, c->x_title, c);
		sbuf_adds(o, "</text>");
	}
	if (c->y_title) {
		sbuf_adds(o, "<text text-anchor=\"middle\" transform=\"rotate(-90)\" x=\"");
		coord(o, -(f->mt + f->ph / 2));
		sbuf_adds(o, "\" y=\"15\">");
		text(o, c->y_title, c);
		sbuf_adds(o, "</text>");
	}
}

void svg_chart(struct sbuf *o, const struct svg_chart *c)
{
	struct frame f;
	frame_init(c, &f);
	struct legend_item *items = xcalloc(c->nseries + 4, sizeof(*items));
	size_t nitems = legend_items(c, items);
	int rows = legend(o, items, nitems, f.ml, f.pw, 0, false, c); /* measures only */
	open_svg(o, c, &f, f.H + (rows ? rows * 16 + 4 : 0));
	if (!f.points) {
		sbuf_adds(o, "<text x=\"");
		coord(o, f.ml + f.pw / 2);
		sbuf_adds(o, "\" y=\"");
		coord(o, f.mt + f.ph / 2);
		sbuf_adds(o, "\" text-anchor=\"middle\" fill=\"" GREY "\">no data</text>");
	} else {
		bands(o, c, &f);
		grid(o, &f);
		tick_labels(o, c, &f);
		vlines(o, c, &f);
		series(o, c, &f);
		fit_and_highlight(o, c, &f);
	}
	axis_titles(o, c, &f);
	legend(o, items, nitems, f.ml, f.pw, f.H - 2, true, c);
	free(items);
	sbuf_adds(o, "</svg>");
}
