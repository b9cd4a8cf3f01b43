/* libFuzzer target: the "rows" ingest parser. Build and run by hand: see
 * the command in tests/fuzz/fuzz_ingest.h, with fuzz_rows.c as the target. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("rows", data, size);
	return 0;
}
