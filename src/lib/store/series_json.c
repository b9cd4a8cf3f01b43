/* A series listing as JSON: what `assay store series --format json` prints
 * and the server's /api/v1/series answers (one schema). */
#include "assay/store.h"

json_t *assay_series_list_json(struct assay_series_list *l)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < l->n; i++) {
		struct assay_series_info *si = &l->v[i];
		json_array_append_new(
		    arr,
		    json_pack("{s:s, s:O, s:s, s:s, s:I, s:f, s:s?, s:s?}", "series_key", si->key,
			      "series", assay_series_fields(si), "unit", si->unit, "direction",
			      assay_direction_name(si->direction), "count", (json_int_t)si->count,
			      "last_value", si->last_value, "last_revision", si->last_revision,
			      "last_timestamp", si->last_timestamp));
	}
	return arr;
}
