/* libFuzzer target: the "madengine-super" ingest parser (madengine's perf_entry_super.json).
 * Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h, with
 * fuzz_madengine_super.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("madengine-super", data, size);
	return 0;
}
