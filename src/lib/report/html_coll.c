/* report.html's collectives section: one chart per operation of bus
 * bandwidth by message size, earlier revisions faint behind this run. */
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"

/* One chart per operation: busbw against the message size (log-2 axis),
 * this run's curves, and fainter behind them the same curves at earlier
 * revisions (docs/report.md, "Collectives"). */
static void coll_chart(struct html *h, size_t from, size_t to)
{
	const struct assay_report *r = h->r;
	size_t n = to - from;
	struct svg_series *ser = xcalloc(n + 2, sizeof(*ser));
	double **xs = xcalloc(n + 1, sizeof(double *)), **ys = xcalloc(n + 1, sizeof(double *));
	struct strlist revs = STRLIST_INIT;
	size_t k = 0;
	/* Earlier revisions first, so this run's lines are drawn on top. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = from; i < to; i++) {
			const struct assay_report_coll *c = &r->coll[i];
			if (c->current != (pass == 1))
				continue;
			html_xy_split(c->points, c->npoints, &xs[k], &ys[k]);
			ser[k] =
			    (struct svg_series){c->current ? c->label : NULL,
						xs[k],
						ys[k],
						c->npoints,
						c->color,
						c->current ? (int)SVG_MARK_AUTO : SVG_MARK_NONE,
						false,
						false,
						c->current,
						!c->current};
			if (c->current)
				ser[k].marker = c->color % SVG_MARK_COUNT + 1;
			if (!c->current && c->revision && !strlist_has(&revs, c->revision))
				strlist_push(&revs, c->revision);
			k++;
		}
	struct sbuf legend = SBUF_INIT, title = SBUF_INIT;
	if (revs.n) {
		sbuf_adds(&legend, "earlier: ");
		for (size_t i = 0; i < revs.n; i++)
			sbuf_addf(&legend, "%s%.12s", i ? ", " : "", revs.v[i]);
		ser[k++] = (struct svg_series){legend.buf,    NULL,  NULL,  0,     SVG_COLOR_GREY,
					       SVG_MARK_NONE, false, false, false, true};
	}
	sbuf_addf(&title, "%s: bus bandwidth by message size", r->coll[from].operation);
	struct svg_chart chart = {.title = title.buf,
				  .x_title = "message size (bytes)",
				  .y_title = "busbw (GB/s)",
				  .x_log2 = true,
				  .y_zero = true,
				  .series = ser,
				  .nseries = k,
				  .secrets = h->secrets};
	sbuf_adds(h->o, "<figure>");
	svg_chart(h->o, &chart);
	sbuf_adds(h->o, "</figure>");
	for (size_t i = 0; i < n; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(xs);
	free(ys);
	free(ser);
	strlist_clear(&revs);
	sbuf_release(&legend);
	sbuf_release(&title);
}

void html_collectives(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->ncoll)
		return;
	size_t nops = 0;
	for (size_t i = 0; i < r->ncoll; i++)
		nops += !i || strcmp(r->coll[i].operation, r->coll[i - 1].operation);
	sbuf_addf(h->o,
		  "<section id=\"collectives\"><h2>Collectives <small>%zu operation%s</small>"
		  "</h2><div class=\"charts\">",
		  nops, nops == 1 ? "" : "s");
	for (size_t i = 0; i < r->ncoll;) {
		size_t j = i + 1;
		while (j < r->ncoll && !strcmp(r->coll[j].operation, r->coll[i].operation))
			j++;
		coll_chart(h, i, j);
		i = j;
	}
	sbuf_adds(h->o, "</div></section>");
}
