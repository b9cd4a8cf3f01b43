/* libFuzzer target: the Primus log parser, and what its result feeds. */
#include "fuzz_training.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_training("primus", data, size);
	return 0;
}
