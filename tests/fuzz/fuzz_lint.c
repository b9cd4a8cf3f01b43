/* libFuzzer target for assay lint: any bytes, as any kind of file, through
 * every rule and every rendering; a crash, a sanitizer report, a rendering
 * that is not a JSON document, or a token-format secret in any output aborts.
 * Build and run by hand from the repository root (seeds: the lint fixtures): */
// clang -g -O1 -std=c17 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/lib
//   tests/fuzz/fuzz_lint.c src/lib/lint/[a-z]*.c src/lib/config/[a-z]*.c src/lib/util/[a-z]*.c
//   src/lib/launch/[a-z]*.c
//   $(pkg-config --cflags --libs jansson) -lcrypto -lm -o build/fuzz_lint
// mkdir -p build/fuzz-lint-corpus && build/fuzz_lint -dict=tests/fuzz/fuzz_lint.dict \
//   -max_total_time=300 build/fuzz-lint-corpus tests/lint
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/lint.h"
#include "assay/redact.h"

static void no_secret(const char *s)
{
	size_t start, end;
	if (s && assay_token_find(s, strlen(s), &start, &end))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct assay_lint_options o;
	assay_lint_options_init(&o);
	assay_lint_options_set(&o, "all", true, NULL);
	/* The first byte picks the kind; the rest is the file. */
	if (size) {
		o.kind = (enum assay_lint_kind)(data[0] % ASSAY_LINT_KIND_COUNT);
		data++;
		size--;
	}
	struct assay_lint_result r;
	struct assay_error e;
	assay_err rc = assay_lint_buffer((const char *)data, size, "fuzz.json", &o, NULL, &r, &e);
	if (rc == ASSAY_OK) {
		struct sbuf out = SBUF_INIT;
		assay_lint_format_human(&out, &r);
		assay_lint_format_github(&out, &r);
		json_t *j = assay_lint_to_json(&r, 1);
		json_t *s = assay_lint_to_sarif(&r, 1, "fuzz");
		if (!j || !s)
			abort();
		char *js = assay_json_dumps(j, 0), *ss = assay_json_dumps(s, 0);
		no_secret(out.buf);
		no_secret(js);
		no_secret(ss);
		free(js);
		free(ss);
		json_decref(j);
		json_decref(s);
		sbuf_release(&out);
	}
	assay_lint_result_release(&r);
	/* The same bytes as a .assay-lint.json. */
	json_t *doc = assay_json_loadb((const char *)data, size, "fuzz.json", &e);
	if (doc) {
		struct assay_lint_allow a;
		if (assay_lint_allow_parse(doc, "fuzz.json", &a, &e) == ASSAY_OK)
			assay_lint_allow_release(&a);
		json_decref(doc);
	}
	return 0;
}
