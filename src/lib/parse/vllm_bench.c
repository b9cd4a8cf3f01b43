/* Format "vllm-bench": the JSON `vllm bench serve --save-result` writes
 * (vllm-project/vllm def9ce85, vllm/benchmarks/serve.py), one object per
 * run, read as ROCm CVS reads it (serve_bench.c). Told apart from ATOM's
 * by its "endpoint_type" key. */
#include "serve_bench.h"

assay_err assay_parse_vllm_bench(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e)
{
	return serve_bench_parse(data, len, o, false, out, e);
}

bool assay_detect_vllm_bench(const char *data, size_t len)
{
	return serve_bench_detect(data, len, "\"endpoint_type\"");
}
