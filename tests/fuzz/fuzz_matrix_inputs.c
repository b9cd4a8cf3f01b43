/* libFuzzer target: the platform registry and sweep readers (assay's formats
 * and CollectiveX's, found by content) on arbitrary JSON, and the matrix of
 * the input with the shipped CollectiveX sweep or registry when it loads. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "assay/json.h"
#include "assay/matrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void expand(const struct assay_registry *reg, const struct assay_sweep *sw)
{
	struct assay_filters f = {0};
	struct assay_matrix m;
	struct assay_error e;
	if (assay_matrix_build(reg, sw, &f, &m, &e) == ASSAY_OK)
		assay_matrix_release(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct assay_registry cx_reg;
	static struct assay_sweep cx_sweep;
	static int loaded;
	struct assay_error e;
	if (!loaded) {
		/* run-fuzz.sh runs with ASSAY_SOURCE_DIR set (tests/fuzz/CMakeLists.txt). */
		const char *root = getenv("ASSAY_SOURCE_DIR");
		char rp[4096], sp[4096];
		snprintf(rp, sizeof(rp),
			 "%s/tests/fixtures/matrix/collectivex/platform_config.json",
			 root ? root : ".");
		snprintf(sp, sizeof(sp), "%s/tests/fixtures/matrix/collectivex/sweep.json",
			 root ? root : ".");
		loaded = assay_registry_load(rp, &cx_reg, &e) == ASSAY_OK &&
				 assay_sweep_load(sp, &cx_sweep, &e) == ASSAY_OK
			     ? 1
			     : -1;
	}
	json_t *doc = assay_json_loadb((const char *)data, size, "fuzz.json", &e);
	if (!doc)
		return 0;
	struct assay_registry reg;
	if (assay_registry_parse(doc, "fuzz.json", &reg, &e) == ASSAY_OK) {
		if (loaded > 0)
			expand(&reg, &cx_sweep);
		assay_registry_release(&reg);
	}
	struct assay_sweep sw;
	if (assay_sweep_parse(doc, "fuzz.json", &sw, &e) == ASSAY_OK) {
		if (loaded > 0)
			expand(&cx_reg, &sw);
		assay_sweep_release(&sw);
	}
	json_decref(doc);
	return 0;
}
