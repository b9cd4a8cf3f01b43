/* Shared by the files that fill the report model from a run (load.c,
 * load_series.c, load_history.c, load_coll.c, load_train.c): the loader's
 * state. Not a public header. */
#ifndef ASSAY_REPORT_LOAD_INT_H
#define ASSAY_REPORT_LOAD_INT_H

#include <jansson.h>

#include "assay/report.h"
#include "assay/store.h"

/* A regression gate's verdict on one series. */
struct hgate {
	char *key, *gate, *message;
	enum assay_report_verdict verdict;
	bool acked;
};

struct loader {
	struct assay_report *r;
	struct assay_store *s;
	const char *store; /* its path: a second connection reads part of the history */
	const char *run_id;
	char *run_dir, *out_abs;
	json_t *summary;
	bool ended;

	/* EP ladders: one per case (or per backend/precision/phase for rows
	 * without a case), with the identity fields of its points. */
	json_t **ladder_ids;
	size_t nladders, ladder_alloc;
	long last_ladder;

	/* Series the history follows, in the order the run stored them. */
	struct strlist keys;
	/* Collective busbw series (a "bytes" field), for load_coll.c. */
	struct strlist coll_keys;

	/* Verdicts of the regression gates, by series, for the history. */
	struct hgate *hgates;
	size_t nhgates, hgates_alloc;
	long last_case; /* the case the previous verdict belonged to */
};

/* load.c */
bool load_is_file(const char *path);
const char *load_jstr(const json_t *o, const char *key);
/* v as text into sb (reset first). */
void load_factor_value(const json_t *v, struct sbuf *sb);
/* strcmp of two char * (for qsort). */
int load_cmp_str(const void *a, const void *b);

/* load_series.c: the row walk (EP ladders, the followed series), then the
 * EP groups and the gates' series labels. */
extern const char *const load_row_fields[]; /* the fields on_row reads */
extern const char *const load_ep_skip[];    /* assay-ep rows nothing reads */
int load_on_row(const struct assay_store_rowview *row, void *ctx);
void load_ep_groups(struct loader *L);
/* Each gate's series label: the series fields that differ among the gates of
 * its case, gate and metric (metric and statistic left out). */
assay_err load_gate_series(struct loader *L, struct assay_error *e);

/* load_history.c: the followed series' history, change points and ranks. */
assay_err load_history(struct loader *L, struct assay_error *e);

/* load_coll.c: busbw-vs-size curves of the run's collective rows, with
 * earlier revisions. */
assay_err load_coll(struct loader *L, struct assay_error *e);
/* load_infer.c: a row of the run as a point of an inference chart (rows
 * with a "concurrency" field: throughput and latencies). */
void load_infer_row(struct loader *L, const struct assay_store_rowview *row);

/* load_train.c: a training chart per case with a steps.ndjson. */
void load_training(struct loader *L, const struct assay_store_cases *sc);

#endif
