/* libFuzzer target: the "nccl-tests-text" ingest parser (the table
 * nccl-tests / rccl-tests print on stdout). Build and run by hand: see the
 * command in tests/fuzz/fuzz_ingest.h, with fuzz_nccl_tests_text.c as the
 * target and tests/fixtures/nccl-text/ as the seeds. */
#include "fuzz_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest("nccl-tests-text", data, size);
	return 0;
}
