/* The EP problem, its counter-based routing (platform independent, 64-bit
 * wrapping arithmetic), routing statistics and the activations with the
 * source token id in the signs of columns 0..31 (docs/ep.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep.h"
#include "assay/util.h"

assay_err assay_ep_problem_check(const struct assay_ep_problem *p, struct assay_error *e)
{
	if (p->ep < 1)
		return assay_error_set(e, ASSAY_USAGE, "--ep must be at least 1, got %" PRId64,
				       p->ep);
	if (p->tokens < 1)
		return assay_error_set(e, ASSAY_USAGE, "--tokens must be at least 1, got %" PRId64,
				       p->tokens);
	if (p->hidden < ASSAY_EP_ID_COLUMNS || p->hidden > (1 << 20))
		return assay_error_set(
		    e, ASSAY_USAGE, "--hidden must be from 32 to 1048576, got %" PRId64, p->hidden);
	if (p->experts < 1 || p->experts > (1 << 20))
		return assay_error_set(e, ASSAY_USAGE,
				       "--experts must be from 1 to 1048576, got %" PRId64,
				       p->experts);
	if (p->experts % p->ep)
		return assay_error_set(e, ASSAY_USAGE,
				       "--experts (%" PRId64
				       ") must be a multiple of --ep (%" PRId64 ")",
				       p->experts, p->ep);
	if (p->topk < 1 || p->topk > p->experts)
		return assay_error_set(e, ASSAY_USAGE,
				       "--topk must be from 1 to --experts (%" PRId64
				       "), got %" PRId64,
				       p->experts, p->topk);
	if (p->scale_up_domain < 1)
		return assay_error_set(e, ASSAY_USAGE,
				       "--scale-up-domain must be at least 1, got %" PRId64,
				       p->scale_up_domain);
	if ((uint64_t)p->tokens * (uint64_t)p->ep > UINT32_MAX)
		return assay_error_set(e, ASSAY_USAGE,
				       "tokens per rank (%" PRId64 ") * --ep (%" PRId64
				       ") must stay below 2^32 (the source id is 32 bits): at "
				       "most %" PRId64 " tokens per rank at this --ep",
				       p->tokens, p->ep, (int64_t)(UINT32_MAX / (uint64_t)p->ep));
	return ASSAY_OK;
}

uint64_t assay_ep_counter(uint64_t seed, uint64_t token, uint64_t slot, uint64_t attempt,
			  uint64_t stream)
{
	uint64_t v = seed ^ (token + 1) * 0xD2B74407B1CE6E93ull ^
		     (slot + 1) * 0xCA5A826395121157ull ^ (attempt + 1) * 0x9E3779B185EBCA87ull ^
		     (stream + 1) * 0xA24BAED4963EE407ull;
	v += 0x9E3779B97F4A7C15ull;
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9ull;
	v = (v ^ (v >> 27)) * 0x94D049BB133111EBull;
	return v ^ (v >> 31);
}

void assay_ep_route_token(const struct assay_ep_problem *p, uint64_t token, int32_t *experts,
			  float *weights)
{
	struct assay_ep_router *rt = assay_ep_router_new(p);
	assay_ep_router_route(rt, token, experts, weights);
	assay_ep_router_free(rt);
}

void assay_ep_routing_build(const struct assay_ep_problem *p, struct assay_ep_routing *r)
{
	r->ntok = assay_ep_global_tokens(p);
	r->topk = p->topk;
	r->experts = xmalloc((size_t)(r->ntok * r->topk) * sizeof(*r->experts));
	r->weights = xmalloc((size_t)(r->ntok * r->topk) * sizeof(*r->weights));
	struct assay_ep_router *rt = assay_ep_router_new(p);
	for (int64_t t = 0; t < r->ntok; t++)
		assay_ep_router_route(rt, (uint64_t)t, r->experts + t * r->topk,
				      r->weights + t * r->topk);
	assay_ep_router_free(rt);
}

void assay_ep_routing_release(struct assay_ep_routing *r)
{
	free(r->experts);
	free(r->weights);
	memset(r, 0, sizeof(*r));
}

int assay_ep_token_dests(const struct assay_ep_problem *p, const int32_t *experts, int32_t *dests)
{
	int n = 0;
	for (int64_t k = 0; k < p->topk; k++) {
		int32_t d = (int32_t)assay_ep_expert_rank(p, experts[k]);
		int i = n;
		while (i > 0 && dests[i - 1] > d)
			i--;
		if (i > 0 && dests[i - 1] == d)
			continue;
		memmove(dests + i + 1, dests + i, (size_t)(n - i) * sizeof(*dests));
		dests[i] = d;
		n++;
	}
	return n;
}

/* Max over mean of the (token, expert) pairs per expert and of the rows
 * each rank receives. */
void assay_ep_route_imbalance(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			      struct assay_ep_route_stats *s)
{
	s->expert_load_max = 0;
	int64_t *load = xcalloc((size_t)p->experts, sizeof(*load));
	for (int64_t i = 0; i < r->ntok * r->topk; i++)
		if (r->experts[i] >= 0 && r->experts[i] < p->experts)
			load[r->experts[i]]++;
	for (int64_t e = 0; e < p->experts; e++)
		if (load[e] > s->expert_load_max)
			s->expert_load_max = load[e];
	free(load);
	s->expert_load_mean = (double)(r->ntok * r->topk) / (double)p->experts;
	s->imbalance_expert =
	    s->expert_load_mean > 0 ? (double)s->expert_load_max / s->expert_load_mean : 0;
	int64_t rmax = 0;
	for (int64_t d = 0; d < p->ep; d++)
		if (s->recv_copies[d] > rmax)
			rmax = s->recv_copies[d];
	double rmean = (double)s->routed_copies / (double)p->ep;
	s->imbalance_rank = rmean > 0 ? (double)rmax / rmean : 0;
}

void assay_ep_route_stats(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			  struct assay_ep_route_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->recv_copies = xcalloc((size_t)p->ep, sizeof(*s->recv_copies));
	int32_t *dests = xmalloc((size_t)p->topk * sizeof(*dests));
	s->fanout_min = INT64_MAX;
	for (int64_t t = 0; t < r->ntok; t++) {
		int n = assay_ep_token_dests(p, r->experts + t * r->topk, dests);
		for (int i = 0; i < n; i++)
			s->recv_copies[dests[i]]++;
		s->routed_copies += n;
		if (n < s->fanout_min)
			s->fanout_min = n;
		if (n > s->fanout_max)
			s->fanout_max = n;
	}
	s->fanout_mean = r->ntok ? (double)s->routed_copies / (double)r->ntok : 0;
	if (!r->ntok)
		s->fanout_min = 0;
	free(dests);
	assay_ep_route_imbalance(p, r, s);
}

void assay_ep_route_stats_release(struct assay_ep_route_stats *s)
{
	free(s->recv_copies);
	s->recv_copies = NULL;
}

float assay_ep_activation(uint64_t seed, uint64_t token, int64_t column)
{
	if (column < ASSAY_EP_ID_COLUMNS)
		return (token >> column) & 1 ? 1.0f : -1.0f;
	/* ((t*131 + c*17 + seed*19) mod 257 - 128) / 64 with wrapping u64 terms
	 * reduced mod 257 first, so the result does not depend on overflow. */
	uint64_t m =
	    ((token % 257) * 131 + ((uint64_t)column % 257) * 17 + (seed % 257) * 19) % 257;
	return (float)((int)m - 128) / 64.0f;
}

void assay_ep_activation_row(const struct assay_ep_problem *p, uint64_t token, uint16_t *bf16)
{
	int64_t c = 0;
	for (; c < ASSAY_EP_ID_COLUMNS && c < p->hidden; c++)
		bf16[c] = assay_bf16_from_float(assay_ep_activation(p->seed, token, c));
	if (c >= p->hidden)
		return;
	/* The same values as assay_ep_activation(), the residue stepped by 17. */
	unsigned m =
	    (unsigned)(((token % 257) * 131 + ((uint64_t)c % 257) * 17 + (p->seed % 257) * 19) %
		       257);
	for (; c < p->hidden; c++) {
		bf16[c] = assay_bf16_from_float((float)((int)m - 128) / 64.0f);
		m += 17;
		if (m >= 257)
			m -= 257;
	}
}

int64_t assay_ep_decode_source(const float *row)
{
	uint64_t t = 0;
	for (int b = 0; b < ASSAY_EP_ID_COLUMNS; b++) {
		float v = row[b];
		if (!(v >= 0.25f || v <= -0.25f))
			return -1;
		if (v > 0)
			t |= 1ull << b;
	}
	return (int64_t)t;
}
