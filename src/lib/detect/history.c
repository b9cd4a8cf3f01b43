/* One series' history as `assay history` prints it and `assay serve` shows
 * it: its points in a range, annotations, change points at the CI defaults,
 * the notes of each point and the JSON document of --format json. */
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/json.h"

assay_err assay_history_load(struct assay_store *s, const char *series_key,
			     const struct assay_series_filter *range, bool detect,
			     struct assay_history *h, struct assay_error *e)
{
	assay_err rc = assay_store_points(s, series_key, range, &h->pts, e);
	if (rc == ASSAY_OK)
		rc = assay_store_annotations(s, series_key, &h->ann, e);
	if (rc == ASSAY_OK && detect) {
		struct assay_detect_opts o;
		assay_detect_defaults(&o);
		rc = assay_detect_points(&h->pts, &h->ann, &o, &h->ch, e);
	}
	return rc;
}

void assay_history_notes(const struct assay_history *h, size_t i, enum assay_direction dir,
			 struct sbuf *sb)
{
	const struct assay_point *pt = &h->pts.v[i];
	sbuf_reset(sb);
	for (size_t k = 0; k < h->ch.n; k++) {
		const struct assay_change *c = &h->ch.v[k].c;
		if (c->index != i)
			continue;
		sbuf_addf(sb, "change %+.2f%% (%s, p=%.2g)", c->rel_change * 100,
			  assay_change_is_regression(c, dir) ? "regression" : "improvement",
			  c->pvalue);
	}
	for (size_t k = 0; k < h->ann.n; k++) {
		const struct assay_annotation *a = &h->ann.v[k];
		if (!pt->revision || strcmp(a->revision, pt->revision))
			continue;
		sbuf_addf(sb, "%s%s%s%s", sb->len ? "; " : "", assay_annotation_kind_name(a->kind),
			  a->note ? ": " : "", a->note ? a->note : "");
	}
	/* Provenance, not identity: a new image continues the series. */
	if (pt->image_digest)
		sbuf_addf(sb, "%simage %s", sb->len ? "; " : "", pt->image_digest);
}

json_t *assay_history_json(const struct assay_history *h, struct assay_series_info *si)
{
	struct sbuf note = SBUF_INIT;
	json_t *arr = json_array();
	for (size_t i = 0; i < h->pts.n; i++) {
		const struct assay_point *pt = &h->pts.v[i];
		assay_history_notes(h, i, si->direction, &note);
		json_array_append_new(arr, json_pack("{s:I, s:s?, s:s?, s:f, s:s?, s:s?}", "index",
						     (json_int_t)i, "timestamp", pt->timestamp,
						     "revision", pt->revision, "value", pt->value,
						     "run_id", pt->run_id, "notes",
						     note.len ? note.buf : NULL));
	}
	sbuf_release(&note);
	return json_pack("{s:s, s:O, s:s, s:s, s:o}", "series_key", si->key, "series",
			 assay_series_fields(si), "unit", si->unit, "direction",
			 assay_direction_name(si->direction), "points", arr);
}

void assay_history_release(struct assay_history *h)
{
	assay_change_points_release(&h->ch);
	assay_annotations_release(&h->ann);
	assay_points_release(&h->pts);
}
