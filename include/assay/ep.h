/* The expert-parallel workload of docs/ep.md, in pure C (no MPI): counter-
 * based routing, activations with source-id columns, BF16 and OCP FP8 e4m3
 * codecs with 128-column block scales, the expert transform, the combine
 * expectation with scale-up domains, the dispatch/combine oracle checks and
 * nearest-rank statistics. assay-ep (src/assay-ep) moves the data; this decides
 * what correct is. */
#ifndef ASSAY_EP_H
#define ASSAY_EP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assay/error.h"

#define ASSAY_EP_GATE       0.03125 /* 8 * 2^-8: combine relative-error bound */
#define ASSAY_EP_FLOOR      0.02    /* denominator floor of the relative error */
#define ASSAY_EP_ID_COLUMNS 32      /* columns carrying the source token id */
#define ASSAY_EP_BLOCK      128     /* FP8 scale block, in columns */
#define ASSAY_EP_FP8_MAX    448.0f  /* largest finite e4m3 value */

enum assay_ep_precision { ASSAY_EP_BF16 = 0, ASSAY_EP_FP8 = 1 };

struct assay_ep_dist;

struct assay_ep_problem {
	int64_t ep;      /* ranks */
	int64_t tokens;  /* tokens per rank */
	int64_t hidden;  /* columns, >= 32 */
	int64_t experts; /* routed experts, a multiple of ep */
	int64_t topk;    /* experts per token, 1..experts */
	uint64_t seed;
	int64_t scale_up_domain; /* ranks per domain (>= 1); ep means one domain */
	enum assay_ep_precision precision;
	/* The routing distribution (prepared, below); NULL: uniform. */
	const struct assay_ep_dist *dist;
};

/* Validate sizes (ASSAY_USAGE, message names the field). */
assay_err assay_ep_problem_check(const struct assay_ep_problem *p, struct assay_error *e);
static inline int64_t assay_ep_global_tokens(const struct assay_ep_problem *p)
{
	return p->tokens * p->ep;
}
static inline int64_t assay_ep_expert_rank(const struct assay_ep_problem *p, int64_t expert)
{
	return expert / (p->experts / p->ep);
}
static inline int64_t assay_ep_domains(const struct assay_ep_problem *p)
{
	return (p->ep + p->scale_up_domain - 1) / p->scale_up_domain;
}

/* ---- routing ---- */
uint64_t assay_ep_counter(uint64_t seed, uint64_t token, uint64_t slot, uint64_t attempt,
			  uint64_t stream);
/* Experts (distinct, slot order) and gate weights of one global token. */
void assay_ep_route_token(const struct assay_ep_problem *p, uint64_t token, int32_t *experts,
			  float *weights);

/* The global routing: token t's slots at [t*topk, (t+1)*topk). */
struct assay_ep_routing {
	int64_t ntok, topk;
	int32_t *experts;
	float *weights;
};
void assay_ep_routing_build(const struct assay_ep_problem *p, struct assay_ep_routing *r);
void assay_ep_routing_release(struct assay_ep_routing *r);
/* ---- routing distributions (docs/ep.md, "Routing distributions") ----
 * uniform: the counter routing above. zipf:S: expert of popularity rank r
 * (a seeded permutation of the ids) weighted (r+1)^-S in fixed point.
 * hot:K:P: experts 0..K-1 share a fraction P of the weight. file:PATH: one
 * row of topk distinct expert ids per token, row t mod rows for token t.
 * zipf and hot draw topk distinct experts per token without replacement
 * from integer weights; every distribution is bit-exact from the seed. */
enum assay_ep_dist_kind {
	ASSAY_EP_DIST_UNIFORM,
	ASSAY_EP_DIST_ZIPF,
	ASSAY_EP_DIST_HOT,
	ASSAY_EP_DIST_FILE
};
struct assay_ep_dist {
	enum assay_ep_dist_kind kind;
	char *spec;     /* as given, e.g. "zipf:1.2": the series label */
	uint32_t s_q16; /* zipf exponent in units of 2^-16 */
	int64_t hot_k;  /* hot experts */
	double hot_p;   /* their share of the weight, 0 < P < 1 */
	char *path;     /* file */
	int64_t rows;   /* file: rows read */
	int64_t topk;   /* file: ids per row */
	int32_t *ids;   /* file: [rows][topk] */
};
/* Parse "uniform", "zipf:S" (0 <= S <= 4), "hot:K:P" or "file:PATH": the
 * syntax only (ASSAY_USAGE, the message names --routing). */
assay_err assay_ep_dist_parse(const char *spec, struct assay_ep_dist *d, struct assay_error *e);
/* Check d against the shape and read a file (errors "PATH:LINE: ..."). */
assay_err assay_ep_dist_prepare(struct assay_ep_dist *d, int64_t experts, int64_t topk,
				struct assay_error *e);
void assay_ep_dist_release(struct assay_ep_dist *d);
/* The label of p's distribution: "uniform" when p->dist is NULL. */
const char *assay_ep_dist_label(const struct assay_ep_problem *p);

/* A router: the routing of p token by token in O(topk) per token (zipf
 * and hot: O(topk log experts)) after O(experts) setup. */
struct assay_ep_router;
struct assay_ep_router *assay_ep_router_new(const struct assay_ep_problem *p);
void assay_ep_router_route(struct assay_ep_router *rt, uint64_t token, int32_t *experts,
			   float *weights);
void assay_ep_router_free(struct assay_ep_router *rt);

/* Distinct destination ranks of a token (ascending); returns how many. */
int assay_ep_token_dests(const struct assay_ep_problem *p, const int32_t *experts, int32_t *dests);

struct assay_ep_route_stats {
	int64_t routed_copies; /* distinct (token, destination rank) pairs */
	double fanout_mean;    /* destination ranks per token */
	int64_t fanout_min, fanout_max;
	int64_t *recv_copies; /* [ep]: rows each rank receives (owned) */
	/* Imbalance: max / mean of the (token, expert) pairs per expert and of
	 * recv_copies per rank; 1 is perfectly even. */
	int64_t expert_load_max;
	double expert_load_mean, imbalance_expert, imbalance_rank;
};
void assay_ep_route_stats(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			  struct assay_ep_route_stats *s);
void assay_ep_route_stats_release(struct assay_ep_route_stats *s);
/* The imbalance fields of s from r, given s's recv_copies and
 * routed_copies (-1 ids, the low-latency mode's masked slots, count for no
 * expert). */
void assay_ep_route_imbalance(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			      struct assay_ep_route_stats *s);

/* ---- activations ---- */
/* x[t][c] as a float (exact in BF16); columns < 32 carry t's bits as +-1. */
float assay_ep_activation(uint64_t seed, uint64_t token, int64_t column);
void assay_ep_activation_row(const struct assay_ep_problem *p, uint64_t token, uint16_t *bf16);
/* The token id in the signs of columns 0..31, or -1 when any |v| < 0.25. */
int64_t assay_ep_decode_source(const float *row);

/* ---- codecs ---- */
uint16_t assay_bf16_from_float(float f); /* round to nearest even; NaN stays NaN */
float assay_bf16_to_float(uint16_t h);
uint8_t assay_fp8_from_float(float f); /* OCP e4m3: RNE, saturating at +-448, NaN 0x7f */
float assay_fp8_to_float(uint8_t q);
static inline int64_t assay_ep_blocks(int64_t hidden)
{
	return (hidden + ASSAY_EP_BLOCK - 1) / ASSAY_EP_BLOCK;
}
/* Quantize a BF16 row: scales[b] = amax / 448 (1 for an all-zero block). */
void assay_fp8_quantize_row(const uint16_t *bf16, int64_t hidden, uint8_t *q, float *scales);
void assay_fp8_dequantize_row(const uint8_t *q, const float *scales, int64_t hidden, float *out);

/* ---- dispatch records ----
 * One received row: [payload][fp8 scales][topk int32 expert ids][topk float
 * weights], padded to a 64-byte stride. Every backend receives this layout. */
struct assay_ep_layout {
	size_t payload, scales, experts, weights, stride; /* byte offsets; stride total */
};
void assay_ep_layout_init(const struct assay_ep_problem *p, struct assay_ep_layout *l);
/* Fill the record of global token t (what its owner sends). */
void assay_ep_record_fill(const struct assay_ep_problem *p, const struct assay_ep_layout *l,
			  const struct assay_ep_routing *r, uint64_t t, unsigned char *rec);
/* The payload of a record as floats (dequantized for FP8). */
void assay_ep_record_values(const struct assay_ep_problem *p, const struct assay_ep_layout *l,
			    const unsigned char *rec, float *out);

/* ---- expert transform and combine ---- */
struct assay_ep_coeffs {
	float s, a, b;
};
/* S, A, B over the slots whose expert lives on rank. */
struct assay_ep_coeffs assay_ep_expert_coeffs(const struct assay_ep_problem *p,
					      const int32_t *experts, const float *weights,
					      int64_t rank);
void assay_ep_transform_row(const float *x, int64_t hidden, struct assay_ep_coeffs k, uint16_t *y);
/* The expected combine output (float32) of global token t. scratch holds
 * 3 * hidden floats and hidden uint16. */
void assay_ep_combine_expect(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			     uint64_t t, float *out, float *scratch, uint16_t *yscratch);
/* max |out - exp| / max(|exp|, 0.02); NaN when any element is not finite. */
double assay_ep_relative_error(const float *out, const float *expected, int64_t n);

/* ---- the oracle ---- */
enum assay_ep_check {
	ASSAY_EP_CHECK_ROUTING,    /* routing identical on every rank */
	ASSAY_EP_CHECK_PROVENANCE, /* source ids decode from columns 0..31 */
	ASSAY_EP_CHECK_SOURCES,    /* received token set == routed set */
	ASSAY_EP_CHECK_PAYLOAD,    /* bit-exact payload (and FP8 scales) */
	ASSAY_EP_CHECK_EXPERTS,    /* expert ids exact */
	ASSAY_EP_CHECK_WEIGHTS,    /* gate weights exact */
	ASSAY_EP_CHECK_COUNTS,     /* per-expert receive counts */
	ASSAY_EP_CHECK_COMBINE,    /* combine gate */
	ASSAY_EP_CHECK_COUNT
};
const char *assay_ep_check_name(enum assay_ep_check c);

/* failures[c] counts failed items per check (0 = pass). */
struct assay_ep_verdict {
	int64_t failures[ASSAY_EP_CHECK_COUNT];
	double max_relative_error;
};
/* Check the n records a rank received (any order) against the routing. */
void assay_ep_check_dispatch(const struct assay_ep_problem *p, const struct assay_ep_layout *l,
			     const struct assay_ep_routing *r, int64_t rank,
			     const unsigned char *records, int64_t n, struct assay_ep_verdict *v);
/* Check rank's combine output out[tokens][hidden] against the expectation. */
void assay_ep_check_combine(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			    int64_t rank, const float *out, struct assay_ep_verdict *v);

/* ---- statistics and the timing contract ---- */
/* The visiting order of n items (ladder points, components) in a trial:
 * rotated by trial mod n, reversed when trial / n is odd. */
void assay_ep_rotation(size_t n, long long trial, size_t *order);
/* Nearest-rank index ceil(q/100 * n) - 1 (q in percent, n >= 1). */
size_t assay_ep_rank_index(size_t n, unsigned q);
struct assay_ep_stats {
	double p50, p90, p95, p99, min, max;
	int64_t n;
};
/* Sort ascending in place. */
void assay_ep_sort(double *v, size_t n);
/* Sorts samples in place. n >= 1. */
void assay_ep_stats_compute(double *samples, size_t n, struct assay_ep_stats *s);
/* The dispatch ceiling of a point (docs/ep.md "The ceiling") from the p50
 * of its own copy pattern and dispatch's p50 latency, both in us: ceiling =
 * the pattern's p50, efficiency = ceiling / dispatch p50, never clipped.
 * Returns true when efficiency is above 1 (dispatch beat its same-shape copy:
 * the copy is no bound there, and the artifact says so). Both -1 (and false)
 * unless both times are positive and finite. */
bool assay_ep_efficiency(double pattern_us, double dispatch_us, double *ceiling,
			 double *efficiency);

#endif
