/* libFuzzer target: the "vllm-bench" parser (a serving benchmark's saved result,
 * src/lib/parse/serve_bench.c). Build and run by hand: see the command in
 * tests/fuzz/fuzz_ingest.h, with fuzz_vllm_bench.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("vllm-bench", data, size);
	return 0;
}
