/* libFuzzer target: the "multiple-results" ingest parser (a madengine multiple_results CSV).
 * Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h, with
 * fuzz_multiple_results.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("multiple-results", data, size);
	return 0;
}
