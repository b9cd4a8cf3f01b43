/* Shared body of the ingest-format fuzz targets (fuzz_<format>.c): parse
 * the input with one format, check the all-or-nothing promise (an error
 * leaves the output untouched and names the file), and round-trip whatever
 * rows came out through the NDJSON row format.
 *
 * Build and run one target by hand (from the repository root, after a
 * build in build/check so that generated/version.c exists):
 *   clang -g -O1 -std=c17 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
 *     -Iinclude -Isrc/lib tests/fuzz/fuzz_rccl_ci.c $(find src/lib -name '*.c') \
 *     build/check/generated/version.c \
 *     $(pkg-config --cflags --libs jansson sqlite3 libpcre2-8) -lcrypto -lm \
 *     -o /tmp/fuzz_rccl_ci
 *   mkdir -p /tmp/corpus && /tmp/fuzz_rccl_ci -max_total_time=60 /tmp/corpus tests/fixtures/ingest/
 * (the fixtures are the seeds). */
#ifndef ASSAY_FUZZ_INGEST_H
#define ASSAY_FUZZ_INGEST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/parse.h"

static void fuzz_ingest(const char *format, const uint8_t *data, size_t size)
{
	const struct assay_format *f = assay_format_find(format);
	if (!f)
		abort();
	json_t *ctx =
	    json_pack("{s:s, s:s, s:s}", "cluster", "fuzz", "scale", "1x8", "precision", "bf16");
	struct assay_parse_opts o = {.file = "fuzz.in", .context = ctx, .revision = "r1"};
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assay_format_detect((const char *)data, size);
	assay_err rc = f->parse((const char *)data, size, &o, &rows, &e);
	if (rc != ASSAY_OK) {
		/* Nothing appended, and the message names the file. */
		if (rc != ASSAY_USAGE || rows.n || strcmp(e.file, "fuzz.in"))
			abort();
	} else {
		struct sbuf sb = SBUF_INIT;
		struct assay_rows back = ASSAY_ROWS_INIT;
		assay_rows_ndjson(&rows, &sb);
		if (assay_rows_parse_ndjson(sb.buf ? sb.buf : "", sb.len, "rt", &back, &e) !=
			ASSAY_OK ||
		    back.n != rows.n)
			abort();
		for (size_t i = 0; i < rows.n; i++)
			if (strcmp(rows.v[i].series_key, back.v[i].series_key) ||
			    rows.v[i].value != back.v[i].value)
				abort();
		assay_rows_release(&back);
		sbuf_release(&sb);
	}
	assay_rows_release(&rows);
	json_decref(ctx);
}

#endif
