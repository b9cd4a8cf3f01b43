/* libFuzzer target: `assay detect --input` CSV reading and change-point
 * detection (assay and otava-compat flavours) on whatever series it yields.
 * Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h, with
 * fuzz_detect_csv.c as the target and tests/fixtures/detect/ as seeds. */
#include <stdint.h>
#include <stdlib.h>

#include "assay/detect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct assay_points pts = {0};
	struct assay_error e;
	if (assay_detect_read_csv((const char *)data, size, "fuzz.csv", &pts, &e) != ASSAY_OK) {
		if (pts.n)
			abort();
		return 0;
	}
	double *x = malloc((pts.n + 1) * sizeof(*x));
	for (size_t i = 0; i < pts.n; i++)
		x[i] = pts.v[i].value;
	for (int compat = 0; compat < 2; compat++) {
		struct assay_detect_opts o;
		if (compat)
			assay_detect_otava_defaults(&o);
		else
			assay_detect_defaults(&o);
		o.window = 2 + (int)(size % 40);
		struct assay_changes ch = {0};
		if (assay_detect(x, pts.n, &o, &ch, &e) == ASSAY_OK)
			for (size_t i = 0; i < ch.n; i++)
				if (ch.v[i].index == 0 || ch.v[i].index >= pts.n ||
				    !(ch.v[i].pvalue >= 0))
					abort();
		assay_changes_release(&ch);
	}
	free(x);
	assay_points_release(&pts);
	return 0;
}
