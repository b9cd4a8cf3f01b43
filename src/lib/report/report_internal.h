/* Shared by the report writers (src/lib/report/): safe text output (redact,
 * valid UTF-8, escape), number formatting, and the SVG chart module. */
#ifndef ASSAY_REPORT_INTERNAL_H
#define ASSAY_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/report.h"
#include "assay/util.h"

/* ---- text.c ---- */

enum rep_kind {
	REP_XML, /* HTML, SVG and XML text and attribute values */
	REP_MD,  /* a GitHub-flavoured Markdown table cell */
};

/* Append s (NULL is "") to out: redacted with secrets, ANSI escape sequences
 * removed, invalid UTF-8 and control characters (except tab and newline)
 * replaced by U+FFFD, then escaped for kind. When max > 0, at most max bytes
 * of the cleaned text are kept and "…" marks the cut. REP_MD also turns
 * newlines into spaces. */
void rep_text(struct sbuf *out, enum rep_kind kind, const char *s, size_t max,
	      const struct assay_redactor *secrets);
/* Last line of defence over a finished document: redact every secret and
 * its escaped form (for kind) in sb. */
void rep_redact_all(struct sbuf *sb, enum rep_kind kind, const struct assay_redactor *secrets);
/* A number for people: 4 significant digits (sig when > 0), no trailing
 * zeros, "-" for NAN or infinity. */
const char *rep_num(char *buf, size_t size, double v, int sig);
/* True when href is a relative path (no scheme, not starting with "//"). */
bool rep_href_ok(const char *href);
/* Append a relative href percent-encoded (safe in any attribute), redacted. */
void rep_href(struct sbuf *out, const char *href, const struct assay_redactor *secrets);
/* Length of the first line of s (up to '\n'). */
size_t rep_first_line(const char *s);

/* ---- svg.c: line/scatter charts ---- */

#define SVG_COLOR_AUTO (-1) /* colour by series index */
#define SVG_COLOR_GREY (-2) /* neutral, for style-only legend entries */
enum svg_marker {
	SVG_MARK_AUTO = -1, /* by series index */
	SVG_MARK_NONE = 0,
	SVG_MARK_CIRCLE,
	SVG_MARK_SQUARE,
	SVG_MARK_TRIANGLE,
	SVG_MARK_DIAMOND,
	SVG_MARK_TRIANGLE_DOWN,
	SVG_MARK_CROSS,
};
#define SVG_MARK_COUNT 6 /* real marker shapes */

struct svg_series {
	const char *label;   /* legend text; NULL keeps it out of the legend */
	const double *x, *y; /* n points; non-finite y (or x <= 0 on a log axis) are gaps */
	size_t n;
	int color;  /* palette index, SVG_COLOR_AUTO or SVG_COLOR_GREY */
	int marker; /* enum svg_marker */
	bool dashed;
	bool no_line;     /* scatter: markers only */
	bool point_title; /* a hover <title> per marker: "label: x, y" */
	bool faint;       /* drawn lighter (earlier revisions behind this run's lines) */
};

struct svg_band {
	double from, to; /* x range, shaded */
	const char *label;
};

struct svg_vline {
	double x;
	const char *label; /* hover text */
};

struct svg_chart {
	const char *title;
	const char *x_title, *y_title; /* with units: "latency (µs)" */
	int width, height;             /* 0: 640 x 300 (the legend adds rows below) */
	bool x_log, y_log;             /* base-10 axes */
	bool x_log2; /* a base-2 x axis of byte sizes: ticks at powers of two ("1K", "1M") */
	bool y_zero; /* linear y starts at 0 when data are positive */
	/* A category x axis: x = 0..n-1 labelled with these (history revisions). */
	const char *const *x_categories;
	size_t ncategories;
	const struct svg_series *series;
	size_t nseries;
	const struct svg_band *bands;
	size_t nbands;
	const struct svg_vline *vlines;
	size_t nvlines;
	const char *vline_legend; /* one legend entry for all vlines ("change point") */
	bool highlight;           /* ring around (hx, hy) */
	double hx, hy;
	const char *highlight_label;
	bool fit; /* y = fit_intercept + fit_slope * x over [fit_from, fit_to] */
	double fit_slope, fit_intercept, fit_from, fit_to;
	const char *fit_label;
	bool standalone; /* add the xmlns attribute (for a .svg file) */
	const struct assay_redactor *secrets;
};

/* The page's style sheet and script: src/lib/report/assets/report.css and
 * report.js, embedded at build time (cmake/assets.cmake) with their line
 * breaks dropped. The script sorts and filters the tables and sets
 * data-assay-js="ready" on <html>, the sentinel that tells tests it ran. */
extern const char assay_report_css[];
extern const char assay_report_js[];

/* Append the chart as one <svg> element. Deterministic: the same chart gives
 * the same bytes. */
void svg_chart(struct sbuf *out, const struct svg_chart *c);

/* "Nice" linear ticks: a 1-2-5 step giving about target ticks; *lo and *hi
 * are widened to multiples of the step. Returns the number of ticks written
 * (at most max) and the step in *step. */
size_t svg_ticks_linear(double *lo, double *hi, int target, double *ticks, size_t max,
			double *step);
/* Log-10 ticks: *lo and *hi (positive) widened to powers of ten; ticks at
 * 1-2-5 x 10^k over up to two decades, every decade up to six, else every
 * k-th decade. */
size_t svg_ticks_log(double *lo, double *hi, double *ticks, size_t max);
/* Log-2 ticks: *lo and *hi (positive) widened to powers of two; ticks at
 * every 1st, 2nd, 5th or 10th power, at most 8. */
size_t svg_ticks_log2(double *lo, double *hi, double *ticks, size_t max);
/* A byte size at a power of two for people: "8", "512", "1K", "32M", "2G". */
const char *svg_bytes_label(char *buf, size_t size, double v);
/* A tick label: 1-2-5 multiples print exactly ("0.05", "200"); 10^4 and up
 * with k, M, G ("20k"), and 10^3 too when kilo (an axis that reaches 10^4,
 * so "1k" sits next to "10k"); below 10^-3 in e notation ("1e-5"). */
const char *svg_tick_label(char *buf, size_t size, double v, double step, bool kilo);

#endif
