/* libFuzzer target: the "sglang" parser (sglang bench_serving's Serving
 * Benchmark Result block). Build and run by hand: see the command in
 * tests/fuzz/fuzz_ingest.h, with fuzz_sglang.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("sglang", data, size);
	return 0;
}
