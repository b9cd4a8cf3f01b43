/* libFuzzer target: the "collectivex" ingest parser (CollectiveX per-case
 * result documents). Build and run by hand: see the command in
 * tests/fuzz/fuzz_ingest.h, with fuzz_collectivex.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("collectivex", data, size);
	return 0;
}
