/* `assay-ep routing`: the global routing as NDJSON, one line per token, for
 * cross-checking with other implementations. Needs no MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

const char ep_routing_help[] =
    "usage: assay-ep routing --tokens-per-rank T --ep E [--experts X] [--topk K] [--seed S]\n"
    "\n"
    "Prints the global routing (tokens 0 .. T*E-1) as NDJSON, one line per token:\n"
    "  {\"token\":0,\"experts\":[237,238,...],\"weights\":[0.0805...,...]}\n"
    "Weights are the stored float32 values with 9 significant digits. Defaults:\n"
    "experts 256, topk 8, seed 67 (the deepseek-v3 reference workload).\n"
    "\n"
    "example:\n"
    "  assay-ep routing --tokens-per-rank 2 --ep 2\n";

int ep_cmd_routing(int argc, char **argv)
{
	long long T = 0, ep = 0, experts = 256, topk = 8, seed = 67;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long long *dst = NULL, min = 1, max = 1ll << 31;
		if (!strcmp(a, "--tokens-per-rank"))
			dst = &T;
		else if (!strcmp(a, "--ep"))
			dst = &ep, max = 1 << 16;
		else if (!strcmp(a, "--experts"))
			dst = &experts, max = 1 << 20;
		else if (!strcmp(a, "--topk"))
			dst = &topk, max = 1 << 20;
		else if (!strcmp(a, "--seed"))
			dst = &seed, min = 0, max = (long long)(~0ull >> 1);
		else
			return ep_usage("routing",
					"unknown option '%s' (see assay-ep routing --help)", a);
		if (!ep_parse_int("routing", a, v, min, max, dst))
			return ASSAY_USAGE;
		i++;
	}
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
	int32_t *ex = xmalloc((size_t)topk * sizeof(*ex));
	float *w = xmalloc((size_t)topk * sizeof(*w));
	for (int64_t t = 0; t < assay_ep_global_tokens(&p); t++) {
		assay_ep_route_token(&p, (uint64_t)t, ex, w);
		printf("{\"token\":%lld,\"experts\":[", (long long)t);
		for (long long k = 0; k < topk; k++)
			printf("%s%d", k ? "," : "", ex[k]);
		printf("],\"weights\":[");
		for (long long k = 0; k < topk; k++)
			printf("%s%.9g", k ? "," : "", (double)w[k]);
		printf("]}\n");
	}
	free(ex);
	free(w);
	return fflush(stdout) == 0 && !ferror(stdout) ? ASSAY_OK : ASSAY_INFRA;
}
