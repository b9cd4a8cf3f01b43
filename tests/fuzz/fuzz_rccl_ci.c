/* libFuzzer target: the "rccl-ci" ingest parser (the RCCL CI JSONL perf history).
 * Build and run by hand: see the command in tests/fuzz/fuzz_ingest.h, with
 * fuzz_rccl_ci.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("rccl-ci", data, size);
	return 0;
}
