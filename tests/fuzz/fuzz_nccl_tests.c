/* libFuzzer target: the "nccl-tests" ingest parser (nccl-tests / rccl-tests -J JSON).
 * Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h, with
 * fuzz_nccl_tests.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("nccl-tests", data, size);
	return 0;
}
