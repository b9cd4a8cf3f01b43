/* Internals of measurement rows shared by the files of src/lib/measure/:
 * the fast NDJSON row reader (rows_fast.c) used by row.c. */
#ifndef ASSAY_MEASURE_INT_H
#define ASSAY_MEASURE_INT_H

#include <stdint.h>

#include "assay/measure.h"

/* Series objects by their text, for the rows of one file. */
struct row_memo;
struct row_memo *row_memo_new(void);
void row_memo_free(struct row_memo *m);
/* Read one NDJSON line (without its newline) into r: 1 when read, 0 when
 * the line is not of the plain shape (nothing allocated: read it with the
 * general reader, which takes it or words the error). Rows of the same
 * series share the memo's object (assay_row_own_series before changing it). */
int row_parse_fast(struct row_memo *m, const char *line, size_t len, struct assay_row *r);

#endif
