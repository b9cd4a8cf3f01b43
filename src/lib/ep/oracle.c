/* What correct is: the dispatch record layout, the expert transform that
 * stages the combine input, the combine expectation with scale-up domains,
 * and the oracle checks a rank runs on what it received and produced. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep.h"
#include "assay/util.h"

void assay_ep_layout_init(const struct assay_ep_problem *p, struct assay_ep_layout *l)
{
	size_t vbytes = p->precision == ASSAY_EP_FP8 ? 1 : 2;
	l->payload = 0;
	l->scales = (size_t)p->hidden * vbytes;
	l->experts =
	    l->scales + (p->precision == ASSAY_EP_FP8 ? (size_t)assay_ep_blocks(p->hidden) * 4 : 0);
	l->weights = l->experts + (size_t)p->topk * 4;
	l->stride = (l->weights + (size_t)p->topk * 4 + 63) & ~(size_t)63;
}

void assay_ep_record_fill(const struct assay_ep_problem *p, const struct assay_ep_layout *l,
			  const struct assay_ep_routing *r, uint64_t t, unsigned char *rec)
{
	uint16_t *row = xmalloc((size_t)p->hidden * sizeof(*row));
	assay_ep_activation_row(p, t, row);
	memset(rec, 0, l->stride);
	if (p->precision == ASSAY_EP_FP8) {
		float *scales = xmalloc((size_t)assay_ep_blocks(p->hidden) * sizeof(*scales));
		assay_fp8_quantize_row(row, p->hidden, rec + l->payload, scales);
		memcpy(rec + l->scales, scales,
		       (size_t)assay_ep_blocks(p->hidden) * sizeof(*scales));
		free(scales);
	} else {
		memcpy(rec + l->payload, row, (size_t)p->hidden * sizeof(*row));
	}
	memcpy(rec + l->experts, r->experts + t * (uint64_t)r->topk, (size_t)p->topk * 4);
	memcpy(rec + l->weights, r->weights + t * (uint64_t)r->topk, (size_t)p->topk * 4);
	free(row);
}

void assay_ep_record_values(const struct assay_ep_problem *p, const struct assay_ep_layout *l,
			    const unsigned char *rec, float *out)
{
	if (p->precision == ASSAY_EP_FP8) {
		int64_t nb = assay_ep_blocks(p->hidden);
		float *scales = xmalloc((size_t)nb * sizeof(*scales));
		memcpy(scales, rec + l->scales, (size_t)nb * sizeof(*scales));
		assay_fp8_dequantize_row(rec + l->payload, scales, p->hidden, out);
		free(scales);
	} else {
		for (int64_t c = 0; c < p->hidden; c++) {
			uint16_t h;
			memcpy(&h, rec + l->payload + (size_t)c * 2, 2);
			out[c] = assay_bf16_to_float(h);
		}
	}
}

static float coeff_scale(int64_t e)
{
	return (float)((e * 17 + 5) % 31 + 1) / 32.0f;
}
static float coeff_a(int64_t e)
{
	return (float)((e * 29 + 7) % 37 - 18) / 64.0f;
}
static float coeff_b(int64_t e)
{
	return (float)((e * 43 + 11) % 41 - 20) / 128.0f;
}

struct assay_ep_coeffs assay_ep_expert_coeffs(const struct assay_ep_problem *p,
					      const int32_t *experts, const float *weights,
					      int64_t rank)
{
	struct assay_ep_coeffs k = {0, 0, 0};
	for (int64_t i = 0; i < p->topk; i++) {
		int64_t e = experts[i];
		if (e < 0 || e >= p->experts || assay_ep_expert_rank(p, e) != rank)
			continue;
		float w = weights[i];
		k.s += w * coeff_scale(e);
		k.a += w * coeff_a(e);
		k.b += w * coeff_b(e);
	}
	return k;
}

void assay_ep_transform_row(const float *x, int64_t hidden, struct assay_ep_coeffs k, uint16_t *y)
{
	float pattern[17]; /* pattern(c) depends on c mod 17 */
	for (int r = 0; r < 17; r++)
		pattern[r] = (float)((r * 13) % 17 - 8) / 8.0f;
	for (int64_t c = 0, r = 0; c < hidden; c++, r = r == 16 ? 0 : r + 1) {
		float v = x[c] * k.s + k.a;
		y[c] = assay_bf16_from_float(v + k.b * pattern[r]);
	}
}

void assay_ep_combine_expect(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			     uint64_t t, float *out, float *scratch, uint16_t *y)
{
	const int32_t *ex = r->experts + t * (uint64_t)r->topk;
	const float *w = r->weights + t * (uint64_t)r->topk;
	float *x = scratch, *dom = scratch + p->hidden;
	int32_t *dests = xmalloc((size_t)p->topk * sizeof(*dests));
	int n = assay_ep_token_dests(p, ex, dests);
	bool cast = assay_ep_domains(p) > 1;

	/* x as every destination sees it: BF16, or FP8 quantized and back. */
	struct assay_ep_layout l;
	assay_ep_layout_init(p, &l);
	unsigned char *rec = xmalloc(l.stride);
	assay_ep_record_fill(p, &l, r, t, rec);
	assay_ep_record_values(p, &l, rec, x);
	free(rec);

	memset(out, 0, (size_t)p->hidden * sizeof(*out));
	for (int i = 0; i < n;) {
		int64_t d = dests[i] / p->scale_up_domain;
		memset(dom, 0, (size_t)p->hidden * sizeof(*dom));
		for (; i < n && dests[i] / p->scale_up_domain == d; i++) {
			assay_ep_transform_row(x, p->hidden,
					       assay_ep_expert_coeffs(p, ex, w, dests[i]), y);
			for (int64_t c = 0; c < p->hidden; c++)
				dom[c] += assay_bf16_to_float(y[c]);
		}
		for (int64_t c = 0; c < p->hidden; c++)
			out[c] +=
			    cast ? assay_bf16_to_float(assay_bf16_from_float(dom[c])) : dom[c];
	}
	free(dests);
}

double assay_ep_relative_error(const float *out, const float *expected, int64_t n)
{
	double worst = 0;
	for (int64_t i = 0; i < n; i++) {
		double o = out[i], x = expected[i];
		if (!isfinite(o) || !isfinite(x))
			return NAN;
		double err = fabs(o - x) / fmax(fabs(x), ASSAY_EP_FLOOR);
		if (err > worst)
			worst = err;
	}
	return worst;
}

const char *assay_ep_check_name(enum assay_ep_check c)
{
	static const char *const names[ASSAY_EP_CHECK_COUNT] = {
	    [ASSAY_EP_CHECK_ROUTING] = "routing_identical",
	    [ASSAY_EP_CHECK_PROVENANCE] = "provenance",
	    [ASSAY_EP_CHECK_SOURCES] = "source_set",
	    [ASSAY_EP_CHECK_PAYLOAD] = "payload",
	    [ASSAY_EP_CHECK_EXPERTS] = "expert_ids",
	    [ASSAY_EP_CHECK_WEIGHTS] = "weights",
	    [ASSAY_EP_CHECK_COUNTS] = "expert_counts",
	    [ASSAY_EP_CHECK_COMBINE] = "combine_gate",
	};
	return (unsigned)c < ASSAY_EP_CHECK_COUNT ? names[c] : "unknown";
}

void assay_ep_check_dispatch(const struct assay_ep_problem *p, const struct assay_ep_layout *l,
			     const struct assay_ep_routing *r, int64_t rank,
			     const unsigned char *records, int64_t n, struct assay_ep_verdict *v)
{
	int64_t ntok = r->ntok, per = p->experts / p->ep;
	unsigned char *seen = xcalloc((size_t)ntok, 1);
	int64_t *want = xcalloc((size_t)per, sizeof(*want));
	int64_t *got = xcalloc((size_t)per, sizeof(*got));
	int32_t *dests = xmalloc((size_t)p->topk * sizeof(*dests));
	float *vals = xmalloc((size_t)p->hidden * sizeof(*vals));
	unsigned char *ref = xmalloc(l->stride);

	for (int64_t i = 0; i < n; i++) {
		const unsigned char *rec = records + (size_t)i * l->stride;
		assay_ep_record_values(p, l, rec, vals);
		int64_t t = assay_ep_decode_source(vals);
		if (t < 0 || t >= ntok) {
			v->failures[ASSAY_EP_CHECK_PROVENANCE]++;
			continue;
		}
		if (seen[t]++)
			v->failures[ASSAY_EP_CHECK_SOURCES]++; /* a duplicate */
		assay_ep_record_fill(p, l, r, (uint64_t)t, ref);
		if (memcmp(rec + l->payload, ref + l->payload, l->experts - l->payload))
			v->failures[ASSAY_EP_CHECK_PAYLOAD]++;
		if (memcmp(rec + l->experts, ref + l->experts, (size_t)p->topk * 4))
			v->failures[ASSAY_EP_CHECK_EXPERTS]++;
		if (memcmp(rec + l->weights, ref + l->weights, (size_t)p->topk * 4))
			v->failures[ASSAY_EP_CHECK_WEIGHTS]++;
		for (int64_t k = 0; k < p->topk; k++) {
			int32_t e;
			memcpy(&e, rec + l->experts + (size_t)k * 4, 4);
			if (e >= 0 && e < p->experts && assay_ep_expert_rank(p, e) == rank)
				got[e - rank * per]++;
		}
	}
	for (int64_t t = 0; t < ntok; t++) {
		const int32_t *ex = r->experts + t * r->topk;
		int nd = assay_ep_token_dests(p, ex, dests);
		bool routed = false;
		for (int i = 0; i < nd; i++)
			routed |= dests[i] == rank;
		if (routed != (seen[t] != 0))
			v->failures[ASSAY_EP_CHECK_SOURCES]++;
		for (int64_t k = 0; k < p->topk; k++)
			if (assay_ep_expert_rank(p, ex[k]) == rank)
				want[ex[k] - rank * per]++;
	}
	for (int64_t e = 0; e < per; e++)
		if (want[e] != got[e])
			v->failures[ASSAY_EP_CHECK_COUNTS]++;
	free(seen);
	free(want);
	free(got);
	free(dests);
	free(vals);
	free(ref);
}

void assay_ep_check_combine(const struct assay_ep_problem *p, const struct assay_ep_routing *r,
			    int64_t rank, const float *out, struct assay_ep_verdict *v)
{
	float *exp = xmalloc((size_t)p->hidden * sizeof(*exp));
	float *scratch = xmalloc((size_t)p->hidden * 3 * sizeof(*scratch));
	uint16_t *y = xmalloc((size_t)p->hidden * sizeof(*y));
	for (int64_t i = 0; i < p->tokens; i++) {
		uint64_t t = (uint64_t)(rank * p->tokens + i);
		assay_ep_combine_expect(p, r, t, exp, scratch, y);
		double err = assay_ep_relative_error(out + i * p->hidden, exp, p->hidden);
		if (isnan(err)) {
			v->max_relative_error = NAN; /* stays NaN: not finite output */
			v->failures[ASSAY_EP_CHECK_COMBINE]++;
			continue;
		}
		if (!isnan(v->max_relative_error) && err > v->max_relative_error)
			v->max_relative_error = err;
		if (!(err < ASSAY_EP_GATE))
			v->failures[ASSAY_EP_CHECK_COMBINE]++;
	}
	free(exp);
	free(scratch);
	free(y);
}
