/* libFuzzer target: the "maxtext" parser (a MaxText training log read as ROCm/cvs
 * reads it). Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h,
 * with fuzz_maxtext.c as the target and the seeds in fuzz_maxtext.seeds. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("maxtext", data, size);
	return 0;
}
