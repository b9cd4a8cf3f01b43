/* libFuzzer target: `assay import cvs` on arbitrary JSON (the importer reads
 * a user's CVS training config: no input may crash it). */
#include <stddef.h>
#include <stdint.h>

#include "assay/import.h"
#include "assay/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct assay_error e;
	json_t *doc = assay_json_loadb((const char *)data, size, "fuzz.json", &e);
	if (!doc)
		return 0;
	struct assay_import_opts o = {.user = "fuzz", .gpus_per_node = 8};
	struct assay_import im;
	/* a folder that does not exist: no threshold file is ever found */
	if (assay_import_cvs_json(doc, "/nonexistent-fuzz-dir/cvs.json", &o, &im, &e) == ASSAY_OK)
		assay_import_release(&im);
	json_decref(doc);
	return 0;
}
