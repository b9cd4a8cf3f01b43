/* libFuzzer target: the thresholds, per-size collective thresholds and
 * gate-spec loaders on arbitrary JSON, and the thresholds gates on a few
 * rows when a file loads. */
#include <stddef.h>
#include <stdint.h>

#include "assay/gate.h"
#include "assay/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct assay_error e;
	json_t *doc = assay_json_loadb((const char *)data, size, "fuzz.json", &e);
	if (!doc)
		return 0;
	struct assay_thresholds t;
	if (assay_thresholds_parse(doc, "fuzz.json", &t, &e) == ASSAY_OK) {
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
		static const char *const metrics[] = {"tflops_per_gpu", "lm_loss", "roundtrip_us"};
		for (size_t i = 0; i < 3; i++) {
			struct assay_row *r = assay_rows_add(&rows);
			assay_row_init(r);
			assay_row_set(r, json_object(), metrics[i], i == 1 ? "last" : "steady_mean",
				      100.0 * (double)i, "u", ASSAY_DIR_HIGHER);
			assay_row_finish(r, &e);
		}
		const char *combos[] = {"MBS=1,GBS=8,PRECISION=BF16"};
		assay_gate_thresholds(&t, combos[0], &rows, &vs, &e);
		assay_gate_thresholds(&t, NULL, &rows, &vs, &e);
		assay_thresholds_check_combos(&t, combos, 1, &e);
		assay_verdicts_release(&vs);
		assay_rows_release(&rows);
		assay_thresholds_release(&t);
	}
	struct assay_coll_thresholds ct;
	if (assay_coll_thresholds_parse(doc, "fuzz.json", &ct, &e) == ASSAY_OK) {
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
		static const char *const metrics[] = {"busbw", "time_us", "wrong"};
		for (size_t i = 0; i < 3; i++) {
			struct assay_row *r = assay_rows_add(&rows);
			assay_row_init(r);
			assay_row_set(r,
				      json_pack("{s:s, s:I, s:s}", "collective", "all_reduce",
						"bytes", (json_int_t)1048576, "placement",
						"in-place"),
				      metrics[i], i == 2 ? "count" : "mean", (double)i, "u",
				      ASSAY_DIR_HIGHER);
			assay_row_finish(r, &e);
		}
		long long sizes[] = {8, 1048576};
		assay_gate_coll_thresholds(&ct, "all_reduce", sizes, 2, &rows, &vs);
		assay_gate_coll_thresholds(&ct, "alltoall", NULL, 0, &rows, &vs);
		assay_verdicts_release(&vs);
		assay_rows_release(&rows);
		assay_coll_thresholds_release(&ct);
	}
	struct assay_gate_spec s;
	if (assay_gate_spec_parse(doc, "fuzz.json", &s, &e) == ASSAY_OK)
		assay_gate_spec_release(&s);
	json_decref(doc);
	return 0;
}
