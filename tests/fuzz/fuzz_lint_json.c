/* libFuzzer target for lint's fast JSON reader (src/lib/lint/fastjson.c):
 * whatever it accepts, jansson must accept too, to an equal value; what it
 * gives up on goes to jansson, so giving up is always allowed. Build and run
 * like fuzz_lint.c (seeds: the lint fixtures). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "lint/lint_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *fast = lint_json_fast((const char *)data, size);
	if (!fast)
		return 0;
	json_error_t je;
	json_t *slow = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
	if (!slow || !json_equal(fast, slow))
		abort();
	json_decref(fast);
	json_decref(slow);
	return 0;
}
