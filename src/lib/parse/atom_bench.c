/* Format "atom-bench": the JSON ATOM's benchmark_serving --save-result
 * writes (ROCm/ATOM b68d30d, atom/benchmarks/benchmark_serving.py; the
 * same shape as vLLM's older benchmarks/benchmark_serving.py), read as ROCm
 * CVS reads it (cvs/lib/inference/atom/atom_parsing.py at dddd914,
 * serve_bench.c): the vLLM mapping plus client.output_tput_per_gpu and
 * scaling.efficiency_pct. Told apart from vLLM's by its "best_of" key. */
#include "serve_bench.h"

assay_err assay_parse_atom_bench(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e)
{
	return serve_bench_parse(data, len, o, true, out, e);
}

bool assay_detect_atom_bench(const char *data, size_t len)
{
	return serve_bench_detect(data, len, "\"best_of\"");
}
