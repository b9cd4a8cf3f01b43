/* Shared by the training-log fuzz targets: parse the bytes as one format,
 * then exercise everything a result feeds (rows, outcome text, per-step
 * JSON, run-health, loss-curve and convergence gates); and stream the same
 * bytes in pieces whose sizes the input picks, keeping at most 8 steps (so
 * thinning, carried lines and long-line pieces are reached). */
#ifndef ASSAY_FUZZ_TRAINING_H
#define ASSAY_FUZZ_TRAINING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/training.h"

static inline void fuzz_training(const char *format, const uint8_t *data, size_t size)
{
	struct assay_train_opts o;
	struct assay_train_result r;
	struct assay_error e;
	assay_train_opts_init(&o);
	o.seq_len = 4096;
	if (assay_train_parse(format, (const char *)data, size, &o, "fuzz", &r, &e) == ASSAY_OK) {
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct assay_parse_opts po = {.file = "fuzz"};
		struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
		char text[512];
		assay_train_rows(&r, &po, &rows, &e);
		assay_train_outcome(&r);
		assay_train_outcome_text(&r, text, sizeof(text));
		for (size_t i = 0; i < r.n_steps; i++)
			json_decref(assay_train_step_to_json(&r.steps[i]));
		struct assay_loss_curve_spec lc = {
		    .max_slope = 0, .sample_every = 2, .enforce = true};
		struct assay_convergence_spec cv = {.target_value = 5, .enforce = true};
		assay_gate_run(&r, &vs);
		assay_gate_loss_curve(&lc, &r, &vs);
		assay_gate_convergence(&cv, &r, &vs);
		assay_verdicts_release(&vs);
		assay_rows_release(&rows);
	}
	assay_train_result_release(&r);

	if (strcmp(format, "megatron-golden")) {
		o.keep_steps = 8;
		struct assay_train_stream *st = assay_train_stream_new(format, &o, &r);
		size_t piece = size ? 1 + (size_t)data[0] * 97 % 4093 : 1;
		for (size_t off = 0; off < size; off += piece)
			assay_train_stream_feed(st, (const char *)data + off,
						size - off < piece ? size - off : piece);
		if (assay_train_stream_end(st, "fuzz", &e) == ASSAY_OK) {
			double mean, median;
			char text[512];
			assay_train_steady(&r, ASSAY_TM_ELAPSED_MS, &mean, &median);
			assay_train_outcome_text(&r, text, sizeof(text));
		}
		assay_train_result_release(&r);
	}
}

#endif
