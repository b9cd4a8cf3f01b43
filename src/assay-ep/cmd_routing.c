/* `assay-ep routing`: the global routing as NDJSON, one line per token, for
 * cross-checking with other implementations. Needs no MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

struct routing_args {
	long long tokens, ep, experts, topk, seed;
	const char *routing;
};

#define A struct routing_args
static const struct cli_opt routing_opts[] = {
    {.type = CLI_INT,
     .name = "tokens-per-rank",
     .arg = "T",
     .off = offsetof(A, tokens),
     .min = 1,
     .max = 1ll << 31,
     .help = "tokens per rank (required)"},
    {.type = CLI_INT,
     .name = "ep",
     .arg = "E",
     .off = offsetof(A, ep),
     .min = 1,
     .max = 1 << 16,
     .help = "EP ranks (required)"},
    {.type = CLI_INT,
     .name = "experts",
     .arg = "X",
     .off = offsetof(A, experts),
     .min = 1,
     .max = 1 << 20,
     .help = "routed experts",
     .def = "256"},
    {.type = CLI_INT,
     .name = "topk",
     .arg = "K",
     .off = offsetof(A, topk),
     .min = 1,
     .max = 1 << 20,
     .help = "experts per token",
     .def = "8"},
    {.type = CLI_INT,
     .name = "seed",
     .arg = "S",
     .off = offsetof(A, seed),
     .min = 0,
     .max = (long long)(~0ull >> 1),
     .help = "routing seed",
     .def = "67"},
    {.type = CLI_STRING,
     .name = "routing",
     .arg = "SPEC",
     .off = offsetof(A, routing),
     .min = 1,
     .help = "routing distribution: uniform, zipf:S, hot:K:P or\nfile:PATH (docs/ep.md)",
     .def = "uniform"},
    CLI_OPT_END,
};
#undef A

const struct cli_spec ep_routing_spec = {
    .name = "routing",
    .usage = "assay-ep routing --tokens-per-rank T --ep E [--experts X] [--topk K] [--seed S]\n"
	     "    [--routing SPEC]",
    .about = "Prints the global routing (tokens 0 .. T*E-1) as NDJSON, one line per token:\n"
	     "  {\"token\":0,\"experts\":[237,238,...],\"weights\":[0.0805...,...]}\n"
	     "Weights are the stored float32 values with 9 significant digits. The defaults\n"
	     "are those of the deepseek-v3 reference workload. Needs no MPI. The time is\n"
	     "linear in tokens x topk.\n",
    .opts = routing_opts,
    .examples = "assay-ep routing --tokens-per-rank 2 --ep 2",
    .exits = "exit: 0 printed, 2 bad arguments, 5 stdout cannot be written.\n",
};

int ep_cmd_routing(int argc, char **argv)
{
	struct routing_args a = {.experts = 256, .topk = 8, .seed = 67};
	if (ep_parse_opts("routing", argc, argv, routing_opts, &a))
		return ASSAY_USAGE;
	long long T = a.tokens, ep = a.ep, experts = a.experts, topk = a.topk, seed = a.seed;
	if (!T)
		return ep_usage("routing", "--tokens-per-rank is required");
	if (!ep)
		return ep_usage("routing", "--ep is required");
	struct assay_ep_problem p = {.ep = ep,
				     .tokens = T,
				     .hidden = 32,
				     .experts = experts,
				     .topk = topk,
				     .seed = (uint64_t)seed,
				     .scale_up_domain = ep};
	struct assay_error e;
	if (assay_ep_problem_check(&p, &e) != ASSAY_OK)
		return ep_usage("routing", "%s", e.message);
	struct assay_ep_dist dist;
	if (ep_routing_prepare("routing", a.routing, experts, topk, &dist))
		return ASSAY_USAGE;
	p.dist = &dist;
	int32_t *ex = xmalloc((size_t)topk * sizeof(*ex));
	float *w = xmalloc((size_t)topk * sizeof(*w));
	struct assay_ep_router *rt = assay_ep_router_new(&p);
	for (int64_t t = 0; t < assay_ep_global_tokens(&p) && !ferror(stdout); t++) {
		assay_ep_router_route(rt, (uint64_t)t, ex, w);
		printf("{\"token\":%lld,\"experts\":[", (long long)t);
		for (long long k = 0; k < topk; k++)
			printf("%s%d", k ? "," : "", ex[k]);
		printf("],\"weights\":[");
		for (long long k = 0; k < topk; k++)
			printf("%s%.9g", k ? "," : "", (double)w[k]);
		printf("]}\n");
	}
	assay_ep_router_free(rt);
	assay_ep_dist_release(&dist);
	free(ex);
	free(w);
	return fflush(stdout) == 0 && !ferror(stdout) ? ASSAY_OK : ASSAY_INFRA;
}
