/* Format "madengine-super": madengine's perf_entry_super.json (or the
 * cumulative perf_super.json), a list of result records with the perf.csv
 * fields plus `multi_results` (the multiple_results row: extra factors and
 * metrics) and `configs` (the model's matched config, kept as a series field). */
#include <string.h>

#include "assay/json.h"
#include "madengine.h"
#include "peer.h"

assay_err assay_parse_madengine_super(const char *data, size_t len,
				      const struct assay_parse_opts *o, struct assay_rows *out,
				      struct assay_error *e)
{
	json_t *doc = assay_json_loadb(data, len, o->file, e);
	if (!doc)
		return ASSAY_USAGE;
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	assay_err rc = ASSAY_OK;
	json_t *list = doc;
	if (json_is_object(doc)) {
		list = json_array();
		json_array_append(list, doc);
	} else if (!json_is_array(doc)) {
		json_decref(doc);
		return assay_error_at(e, ASSAY_USAGE, o->file, "$", 0,
				      "expected a list of result records, got %s",
				      assay_json_type_name(doc));
	}
	size_t i;
	json_t *rec;
	json_array_foreach(list, i, rec)
	{
		char path[64];
		assay_json_path_index(path, sizeof(path), "$", i);
		if (!json_is_object(rec)) {
			rc = assay_error_at(e, ASSAY_USAGE, o->file, path, 0,
					    "expected a result record (an object), got %s",
					    assay_json_type_name(rec));
			break;
		}
		json_t *mr = json_object_get(rec, "multi_results");
		json_t *cfg = json_object_get(rec, "configs");
		char sub[128];
		if (mr && !json_is_null(mr) && !json_is_object(mr)) {
			assay_json_path_key(sub, sizeof(sub), path, "multi_results");
			rc = assay_error_at(e, ASSAY_USAGE, o->file, sub, 0,
					    "expected an object or null, got %s",
					    assay_json_type_name(mr));
			break;
		}
		json_t *extras = json_is_object(mr) ? json_deep_copy(mr) : json_object();
		if (cfg && (json_is_object(cfg) || json_is_array(cfg)))
			json_object_set(extras, "configs", cfg);
		char why[256];
		const char *field = "";
		int n = madengine_record(rec, extras, &tmp, why, sizeof(why), &field);
		json_decref(extras);
		if (n < 0) {
			char mrpath[96];
			if (!json_object_get(rec, field) && json_object_get(mr, field)) {
				assay_json_path_key(mrpath, sizeof(mrpath), path, "multi_results");
				assay_json_path_key(sub, sizeof(sub), mrpath, field);
			} else {
				assay_json_path_key(sub, sizeof(sub), path, field);
			}
			rc = assay_error_at(e, ASSAY_USAGE, o->file, sub, 0, "%s", why);
			break;
		}
	}
	if (list != doc)
		json_decref(list);
	json_decref(doc);
	if (rc != ASSAY_OK) {
		assay_rows_release(&tmp);
		return rc;
	}
	return peer_finish(&tmp, o, out, e);
}

bool assay_detect_madengine_super(const char *data, size_t len)
{
	size_t n = len < 65536 ? len : 65536, k = 0;
	while (k < n && (data[k] == ' ' || data[k] == '\n' || data[k] == '\r' || data[k] == '\t'))
		k++;
	return k < n && (data[k] == '[' || data[k] == '{') &&
	       memmem(data, n, "\"performance\"", 13) && memmem(data, n, "\"model\"", 7) &&
	       (memmem(data, n, "\"multi_results\"", 15) || memmem(data, n, "\"configs\"", 9));
}
