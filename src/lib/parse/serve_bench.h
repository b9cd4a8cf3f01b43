/* The JSON a serving benchmark client saves with --save-result (vLLM's
 * `vllm bench serve`, ATOM's benchmark_serving), read as ROCm CVS reads it
 * (cvs/lib/inference/utils/vllm_parsing.py, atom/atom_parsing.py at
 * dddd914): every numeric key as a row "client.<key>", plus the metrics CVS
 * derives from them. Shared by the formats "vllm-bench" and "atom-bench". */
#ifndef ASSAY_PARSE_SERVE_BENCH_H
#define ASSAY_PARSE_SERVE_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/parse.h"

/* ATOM's extras: client.output_tput_per_gpu and scaling.efficiency_pct,
 * and the GPU count of per_gpu_throughput taken from tp alone. */
assay_err serve_bench_parse(const char *data, size_t len, const struct assay_parse_opts *o,
			    bool atom, struct assay_rows *out, struct assay_error *e);
/* The first JSON object in data (a line of up to 64 KiB) has the marks of a
 * saved result: "completed" and "total_token_throughput", and mark. */
bool serve_bench_detect(const char *data, size_t len, const char *mark);

#endif
