/* Routing distributions (docs/ep.md, "Routing distributions"): parsing
 * uniform|zipf:S|hot:K:P|file:PATH, the integer expert weights of zipf and
 * hot, the routing file reader, and the router that routes token by token
 * in time linear in topk. Integer and exactly rounded arithmetic only, so
 * every platform routes the same bits from the same seed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep.h"
#include "assay/util.h"

/* A plain decimal: digits with at most one '.', at least one digit. */
static bool plain_decimal(const char *s, double *out)
{
	int digits = 0, dots = 0;
	for (const char *c = s; *c; c++) {
		if (*c >= '0' && *c <= '9')
			digits++;
		else if (*c == '.')
			dots++;
		else
			return false;
	}
	return digits && dots <= 1 && assay_parse_double(s, out);
}

static assay_err parse_hot(const char *arg, const char *spec, struct assay_ep_dist *d,
			   struct assay_error *e)
{
	const char *colon = strchr(arg, ':');
	char *k = colon ? xstrndup(arg, (size_t)(colon - arg)) : NULL;
	long long kv = 0;
	bool ok = k && assay_parse_long(k, &kv) && kv >= 1 && k[0] != '+' &&
		  plain_decimal(colon + 1, &d->hot_p) && d->hot_p > 0 && d->hot_p < 1;
	free(k);
	if (!ok)
		return assay_error_set(e, ASSAY_USAGE,
				       "--routing '%s': expected hot:K:P, K hot experts (at least "
				       "1) sharing a fraction P of the routing (0 < P < 1), e.g. "
				       "hot:8:0.5",
				       spec);
	d->hot_k = kv;
	return ASSAY_OK;
}

assay_err assay_ep_dist_parse(const char *spec, struct assay_ep_dist *d, struct assay_error *e)
{
	memset(d, 0, sizeof(*d));
	double s = 0;
	assay_err rc = ASSAY_OK;
	if (!strcmp(spec, "uniform")) {
		d->kind = ASSAY_EP_DIST_UNIFORM;
	} else if (assay_starts_with(spec, "zipf:")) {
		d->kind = ASSAY_EP_DIST_ZIPF;
		if (!plain_decimal(spec + 5, &s) || s > 4)
			rc = assay_error_set(e, ASSAY_USAGE,
					     "--routing '%s': expected zipf:S with S a decimal "
					     "from 0 to 4, e.g. zipf:1.2",
					     spec);
		/* s * 2^16 is exact; rounding it is the same everywhere. */
		d->s_q16 = (uint32_t)(s * 65536.0 + 0.5);
	} else if (assay_starts_with(spec, "hot:")) {
		d->kind = ASSAY_EP_DIST_HOT;
		rc = parse_hot(spec + 4, spec, d, e);
	} else if (assay_starts_with(spec, "file:")) {
		d->kind = ASSAY_EP_DIST_FILE;
		if (!spec[5])
			rc = assay_error_set(e, ASSAY_USAGE,
					     "--routing 'file:': expected file:PATH, a routing "
					     "file (docs/ep.md)");
		d->path = xstrdup(spec + 5);
	} else {
		rc = assay_error_set(e, ASSAY_USAGE,
				     "--routing: expected uniform, zipf:S, hot:K:P or file:PATH, "
				     "got '%s'",
				     spec);
	}
	d->spec = xstrdup(spec);
	if (rc != ASSAY_OK)
		assay_ep_dist_release(d);
	return rc;
}

/* One row of the routing file: exactly topk distinct ids in [0, experts),
 * separated by spaces or tabs; mark[] is cleared again before returning. */
static assay_err file_row(struct assay_ep_dist *d, const char *line, size_t len, long lineno,
			  int64_t experts, unsigned char *mark, int32_t *row, struct assay_error *e)
{
	int64_t n = 0;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < len && rc == ASSAY_OK;) {
		if (line[i] == ' ' || line[i] == '\t') {
			i++;
			continue;
		}
		size_t j = i;
		long long v = 0;
		while (j < len && line[j] >= '0' && line[j] <= '9' && v <= experts)
			v = v * 10 + (line[j++] - '0');
		bool sep = j == len || line[j] == ' ' || line[j] == '\t';
		if (j == i || !sep || v >= experts) {
			size_t end = i;
			while (end < len && line[end] != ' ' && line[end] != '\t')
				end++;
			rc = assay_error_set(
			    e, ASSAY_USAGE,
			    "%s:%ld: '%.*s' is not an expert id (0 to %" PRId64 ", --experts)",
			    d->path, lineno, (int)(end - i), line + i, experts - 1);
		} else if (n >= d->topk) {
			rc = assay_error_set(e, ASSAY_USAGE,
					     "%s:%ld: more than %" PRId64 " expert ids (--topk)",
					     d->path, lineno, d->topk);
		} else if (mark[v]) {
			rc = assay_error_set(e, ASSAY_USAGE, "%s:%ld: expert %lld appears twice",
					     d->path, lineno, v);
		} else {
			mark[v] = 1;
			row[n++] = (int32_t)v;
		}
		i = j;
	}
	if (rc == ASSAY_OK && n != d->topk)
		rc = assay_error_set(e, ASSAY_USAGE,
				     "%s:%ld: expected %" PRId64
				     " expert ids (--topk), got %" PRId64,
				     d->path, lineno, d->topk, n);
	for (int64_t k = 0; k < n; k++)
		mark[row[k]] = 0;
	return rc;
}

/* The file: '#' lines are comments, every other line one token's row. */
static assay_err file_load(struct assay_ep_dist *d, int64_t experts, struct assay_error *e)
{
	struct assay_file_map m;
	if (assay_map_file(d->path, &m, e) != ASSAY_OK)
		return ASSAY_USAGE;
	unsigned char *mark = xcalloc((size_t)experts, 1);
	size_t cap = 0;
	long lineno = 0;
	assay_err rc = ASSAY_OK;
	for (size_t pos = 0; pos < m.len && rc == ASSAY_OK;) {
		const char *line = m.data + pos, *nl = memchr(line, '\n', m.len - pos);
		size_t len = nl ? (size_t)(nl - line) : m.len - pos;
		pos += len + 1;
		lineno++;
		if (len && line[len - 1] == '\r')
			len--;
		if (len && line[0] == '#')
			continue;
		if ((size_t)d->rows == cap) {
			cap = cap ? cap * 2 : 16;
			d->ids = xrealloc(d->ids, cap * (size_t)d->topk * sizeof(*d->ids));
		}
		rc = file_row(d, line, len, lineno, experts, mark, d->ids + d->rows * d->topk, e);
		d->rows++;
	}
	if (rc == ASSAY_OK && !d->rows)
		rc = assay_error_set(e, ASSAY_USAGE, "%s: no rows of expert ids (docs/ep.md)",
				     d->path);
	free(mark);
	assay_unmap_file(&m);
	return rc;
}

assay_err assay_ep_dist_prepare(struct assay_ep_dist *d, int64_t experts, int64_t topk,
				struct assay_error *e)
{
	if (d->kind == ASSAY_EP_DIST_HOT && d->hot_k >= experts)
		return assay_error_set(
		    e, ASSAY_USAGE, "--routing '%s': K must be from 1 to experts - 1 (%" PRId64 ")",
		    d->spec, experts - 1);
	if (d->kind != ASSAY_EP_DIST_FILE || d->ids)
		return ASSAY_OK;
	d->topk = topk;
	return file_load(d, experts, e);
}

void assay_ep_dist_release(struct assay_ep_dist *d)
{
	free(d->spec);
	free(d->path);
	free(d->ids);
	memset(d, 0, sizeof(*d));
}

const char *assay_ep_dist_label(const struct assay_ep_problem *p)
{
	return p->dist && p->dist->spec ? p->dist->spec : "uniform";
}

/* ---- fixed-point weights ---- */

/* round(2^62 * 2^(-2^-j)) for j = 1..32. */
static const uint64_t exp2_neg[32] = {
    0x2d413cccfe779921ull, 0x35d13f32b5a75abdull, 0x3ab031b9f7490e4cull, 0x3d495f454921b30bull,
    0x3ea0ecb6dc8a80cfull, 0x3f4f83033d21b05dull, 0x3fa784571ee3e213ull, 0x3fd3b2d65447b229ull,
    0x3fe9d59487236bb4ull, 0x3ff4e9d4703df843ull, 0x3ffa74acbdf6c9d5ull, 0x3ffd3a46ffc6e30full,
    0x3ffe9d1fa8010199ull, 0x3fff4e8ede053ad5ull, 0x3fffa747318376acull, 0x3fffd3a38961e6ffull,
    0x3fffe9d1c0d8fd14ull, 0x3ffff4e8df7680c5ull, 0x3ffffa746f7dc0ecull, 0x3ffffd3a37af8098ull,
    0x3ffffe9d1bd3e854ull, 0x3fffff4e8de8fe2cull, 0x3fffffa746f44197ull, 0x3fffffd3a37a116bull,
    0x3fffffe9d1bd04deull, 0x3ffffff4e8de8179ull, 0x3ffffffa746f407full, 0x3ffffffd3a37a030ull,
    0x3ffffffe9d1bd014ull, 0x3fffffff4e8de809ull, 0x3fffffffa746f404ull, 0x3fffffffd3a37a02ull,
};

/* log2(n) in units of 2^-32, n >= 1 (bit by bit, by squaring). */
static uint64_t log2_q32(uint64_t n)
{
	int ip = 63 - __builtin_clzll(n);
	uint64_t x = ip <= 31 ? n << (31 - ip) : n >> (ip - 31); /* [1, 2) in Q31 */
	uint64_t frac = 0;
	for (int i = 31; i >= 0; i--) {
		x = (x * x) >> 31;
		if (x >= (1ull << 32)) {
			x >>= 1;
			frac |= 1ull << i;
		}
	}
	return ((uint64_t)ip << 32) | frac;
}

/* floor(2^40 * n^-S) (at least 1), S = s_q16 / 2^16. */
static uint64_t zipf_weight(uint64_t n, uint32_t s_q16)
{
	uint64_t x = (uint64_t)s_q16 * log2_q32(n); /* Q48 */
	uint64_t ip = x >> 48, frac = (x >> 16) & 0xffffffffull;
	if (ip >= 40)
		return 1;
	uint64_t m = 1ull << 62;
	for (int j = 1; j <= 32; j++)
		if (frac & (1ull << (32 - j)))
			m = (uint64_t)(((unsigned __int128)m * exp2_neg[j - 1]) >> 62);
	uint64_t w = m >> (22 + ip);
	return w ? w : 1;
}

/* ---- the router ---- */

struct assay_ep_router {
	struct assay_ep_problem p;
	uint32_t *mark; /* uniform: mark[e] == stamp when e is taken */
	uint32_t stamp;
	uint64_t *tree; /* zipf, hot: Fenwick tree of the weights, 1-based */
	uint64_t *w;    /* weight of popularity index i */
	int32_t *perm;  /* expert id of popularity index i */
	int64_t *taken; /* this token's popularity indices */
	uint64_t total;
};

static void tree_add(struct assay_ep_router *rt, int64_t i, uint64_t v, bool sub)
{
	for (int64_t n = rt->p.experts, j = i + 1; j <= n; j += j & -j)
		rt->tree[j] = sub ? rt->tree[j] - v : rt->tree[j] + v;
}

/* The popularity index whose cumulative weight range holds target. */
static int64_t tree_find(const struct assay_ep_router *rt, uint64_t target)
{
	int64_t n = rt->p.experts, pos = 0;
	int64_t step = 1;
	while (step * 2 <= n)
		step *= 2;
	for (; step; step /= 2)
		if (pos + step <= n && rt->tree[pos + step] <= target) {
			pos += step;
			target -= rt->tree[pos];
		}
	return pos;
}

static void weights_init(struct assay_ep_router *rt)
{
	const struct assay_ep_dist *d = rt->p.dist;
	int64_t E = rt->p.experts;
	rt->w = xmalloc((size_t)E * sizeof(*rt->w));
	rt->perm = xmalloc((size_t)E * sizeof(*rt->perm));
	rt->tree = xcalloc((size_t)E + 1, sizeof(*rt->tree));
	rt->taken = xmalloc((size_t)rt->p.topk * sizeof(*rt->taken));
	for (int64_t i = 0; i < E; i++)
		rt->perm[i] = (int32_t)i;
	if (d->kind == ASSAY_EP_DIST_ZIPF) {
		/* Popularity is not placement: a seeded Fisher-Yates shuffle. */
		for (int64_t i = E - 1; i > 0; i--) {
			int64_t j = (int64_t)(assay_ep_counter(rt->p.seed, 0, (uint64_t)i, 0, 3) %
					      (uint64_t)(i + 1));
			int32_t t = rt->perm[i];
			rt->perm[i] = rt->perm[j], rt->perm[j] = t;
		}
		for (int64_t i = 0; i < E; i++)
			rt->w[i] = zipf_weight((uint64_t)i + 1, d->s_q16);
	} else {
		/* One exactly rounded operation each: the same on every IEEE machine. */
		uint64_t hot = (uint64_t)(d->hot_p * 1099511627776.0 / (double)d->hot_k);
		uint64_t cold =
		    (uint64_t)((1.0 - d->hot_p) * 1099511627776.0 / (double)(E - d->hot_k));
		for (int64_t i = 0; i < E; i++)
			rt->w[i] = i < d->hot_k ? (hot ? hot : 1) : (cold ? cold : 1);
	}
	for (int64_t i = 0; i < E; i++) {
		tree_add(rt, i, rt->w[i], false);
		rt->total += rt->w[i];
	}
}

struct assay_ep_router *assay_ep_router_new(const struct assay_ep_problem *p)
{
	struct assay_ep_router *rt = xcalloc(1, sizeof(*rt));
	rt->p = *p;
	enum assay_ep_dist_kind k = p->dist ? p->dist->kind : ASSAY_EP_DIST_UNIFORM;
	if (k == ASSAY_EP_DIST_UNIFORM)
		rt->mark = xcalloc((size_t)p->experts, sizeof(*rt->mark));
	else if (k != ASSAY_EP_DIST_FILE)
		weights_init(rt);
	return rt;
}

void assay_ep_router_free(struct assay_ep_router *rt)
{
	if (!rt)
		return;
	free(rt->mark);
	free(rt->tree);
	free(rt->w);
	free(rt->perm);
	free(rt->taken);
	free(rt);
}

/* The design's uniform rule: slot k's expert is counter(t, k, attempt, 0)
 * mod experts, attempt raised until new; a stamp per token makes "new" one
 * load instead of a scan of the slots before. */
static void route_uniform(struct assay_ep_router *rt, uint64_t t, int32_t *experts)
{
	const struct assay_ep_problem *p = &rt->p;
	if (++rt->stamp == 0) {
		memset(rt->mark, 0, (size_t)p->experts * sizeof(*rt->mark));
		rt->stamp = 1;
	}
	for (int64_t k = 0; k < p->topk; k++)
		for (uint64_t attempt = 0;; attempt++) {
			uint64_t e = assay_ep_counter(p->seed, t, (uint64_t)k, attempt, 0) %
				     (uint64_t)p->experts;
			if (rt->mark[e] != rt->stamp) {
				rt->mark[e] = rt->stamp;
				experts[k] = (int32_t)e;
				break;
			}
		}
}

/* topk draws without replacement: each draw's weight leaves the tree until
 * the token is done. */
static void route_weighted(struct assay_ep_router *rt, uint64_t t, int32_t *experts)
{
	uint64_t left = rt->total;
	for (int64_t k = 0; k < rt->p.topk; k++) {
		uint64_t target = assay_ep_counter(rt->p.seed, t, (uint64_t)k, 0, 2) % left;
		int64_t i = tree_find(rt, target);
		rt->taken[k] = i;
		experts[k] = rt->perm[i];
		tree_add(rt, i, rt->w[i], true);
		left -= rt->w[i];
	}
	for (int64_t k = 0; k < rt->p.topk; k++)
		tree_add(rt, rt->taken[k], rt->w[rt->taken[k]], false);
}

void assay_ep_router_route(struct assay_ep_router *rt, uint64_t t, int32_t *experts, float *weights)
{
	const struct assay_ep_problem *p = &rt->p;
	const struct assay_ep_dist *d = p->dist;
	if (!d || d->kind == ASSAY_EP_DIST_UNIFORM)
		route_uniform(rt, t, experts);
	else if (d->kind == ASSAY_EP_DIST_FILE)
		memcpy(experts, d->ids + (int64_t)(t % (uint64_t)d->rows) * d->topk,
		       (size_t)p->topk * sizeof(*experts));
	else
		route_weighted(rt, t, experts);
	/* The gate weights: the same counter rule for every distribution. */
	double sum = 0;
	for (int64_t k = 0; k < p->topk; k++)
		sum += (double)(1 + assay_ep_counter(p->seed, t, (uint64_t)k, 0, 1) % 65535);
	for (int64_t k = 0; k < p->topk; k++) {
		double w = (double)(1 + assay_ep_counter(p->seed, t, (uint64_t)k, 0, 1) % 65535);
		weights[k] = (float)(w / sum);
	}
}
