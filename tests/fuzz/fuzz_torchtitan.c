/* libFuzzer target: the "torchtitan" parser (a TorchTitan training log read as ROCm/cvs
 * reads it). Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h,
 * with fuzz_torchtitan.c as the target and the seeds in fuzz_torchtitan.seeds. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("torchtitan", data, size);
	return 0;
}
