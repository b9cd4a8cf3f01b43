/* Collective suites in the pipeline: correctness (#wrong > 0 makes a case
 * invalid, as assay-ep's oracle does) and the per-size thresholds gate
 * (src/lib/gate/thresholds_coll.c) with the sizes the case sweeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_int.h"

void run_coll_correctness(struct run_ctx *rc, struct assay_rows *rows,
			  struct assay_case_outcome *out)
{
	struct assay_verdicts bad = ASSAY_VERDICTS_INIT;
	size_t n = assay_gate_coll_correctness(rows, &bad);
	if (!n) {
		assay_verdicts_release(&bad);
		return;
	}
	/* The rows of a size and placement with wrong elements: their own
	 * series, never the history of valid results. */
	for (size_t i = 0; i < rows->n; i++) {
		struct assay_row *r = &rows->v[i];
		const json_t *b = json_object_get(r->series, "bytes");
		const char *pl = json_string_value(json_object_get(r->series, "placement"));
		bool invalid = false;
		for (size_t k = 0; b && pl && k < rows->n && !invalid; k++) {
			const struct assay_row *w = &rows->v[k];
			invalid =
			    !strcmp(w->metric, "wrong") && w->value > 0 &&
			    json_equal(json_object_get(w->series, "bytes"), (json_t *)b) &&
			    !strcmp(json_string_value(json_object_get(w->series, "placement")), pl);
		}
		if (!invalid)
			continue;
		assay_row_own_series(r);
		json_object_set_new(r->series, "verdict", json_string("invalid"));
		struct assay_error ignore;
		assay_row_finish(r, &ignore);
	}
	/* The verdicts name the rows' new series. */
	for (size_t i = 0, k = 0; i < rows->n && k < bad.n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (strcmp(r->metric, "wrong") || !(r->value > 0))
			continue;
		free(bad.v[k].series_key);
		bad.v[k++].series_key = xstrdup(r->series_key);
	}
	struct sbuf sb = SBUF_INIT;
	for (size_t k = 0; k < bad.n; k++) {
		assay_verdicts_push_copy(&out->verdicts, &bad.v[k]);
		if (k < 3)
			sbuf_addf(&sb, "%s%s", k ? "; " : "", bad.v[k].message);
	}
	if (bad.n > 3)
		sbuf_addf(&sb, "; and %zu more", bad.n - 3);
	case_outcome_set(rc, out, ASSAY_OUTCOME_WORKLOAD_FAILED, ASSAY_FAILURE_CORRECTNESS,
			 "invalid: %s", sbuf_str(&sb));
	sbuf_release(&sb);
	assay_verdicts_release(&bad);
}

void run_coll_gate(struct run_ctx *rc, const struct assay_suite_case *c,
		   const struct assay_rows *rows, struct assay_verdicts *out)
{
	long long *sizes = NULL;
	size_t n = assay_suite_coll_sizes(&rc->suite, &sizes);
	const char *op = json_string_value(json_object_get(c->factors, "operation"));
	if (op)
		assay_gate_coll_thresholds(&rc->suite.gates.coll_thresholds, op, sizes, n, rows,
					   out);
	free(sizes);
}
