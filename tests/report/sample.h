/* The synthetic report model of the tests (tests/report/sample.c): not part
 * of libassay, linked into the unit tests and tests/report's tools. */
#ifndef ASSAY_TESTS_REPORT_SAMPLE_H
#define ASSAY_TESTS_REPORT_SAMPLE_H

#include <stddef.h>

#include "assay/report.h"

/* A synthetic but realistic model with ncases cases (EP ladders, training
 * combos, history series, every outcome), the same for the same arguments:
 * for tests, bench/report-speed.sh and docs screenshots. */
void assay_report_sample(struct assay_report *r, size_t ncases);

#endif
