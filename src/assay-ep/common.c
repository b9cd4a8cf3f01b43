/* Shared pieces of assay-ep: the backend table, the precision names, copy routines (memcpy and
 * non-temporal stores), per-point staging (destinations, slots, send
 * records) and the combine reduction every host backend uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "assay/util.h"
#include "bench.h"

const char *const ep_copy_names[] = {"memcpy", "nt", NULL};
const char *const ep_inject_names[] = {"none",         "combine-bitflip", "dispatch-drop",
				       "wrong-expert", "payload-bitflip", "weight-bitflip",
				       "id-erase",     "routing-skew",    NULL};
const char *const ep_component_names[EP_COMPONENTS] = {"dispatch", "combine", "roundtrip",
						       "pair_period"};
const struct ep_backend *const ep_backends[] = {&ep_backend_mpi, &ep_backend_shm, &ep_backend_nccl,
						&ep_backend_rccl, NULL};

const char *ep_backend_names[8];

void ep_backend_names_fill(void)
{
	for (size_t i = 0; ep_backends[i] && i + 1 < ARRAY_SIZE(ep_backend_names); i++)
		ep_backend_names[i] = ep_backends[i]->name;
}

const struct ep_backend *ep_backend_find(const char *name)
{
	for (size_t i = 0; ep_backends[i]; i++)
		if (!strcmp(ep_backends[i]->name, name))
			return ep_backends[i];
	return NULL;
}

void ep_backend_words(struct sbuf *sb)
{
	for (size_t i = 0; ep_backends[i]; i++)
		sbuf_addf(sb, "%s%s",
			  !i                   ? ""
			  : ep_backends[i + 1] ? ", "
					       : " or ",
			  ep_backends[i]->name);
}

int ep_precision_parse(const char *name)
{
	for (int i = 0; assay_known_precisions[i]; i++)
		if (!strcmp(assay_known_precisions[i], name))
			return i;
	return -1;
}

const char *ep_precision_name(enum assay_ep_precision p)
{
	return assay_known_precisions[p];
}

void ep_point_stage(struct ep_run *run, struct ep_point *pt, int64_t tokens)
{
	pt->p = run->base;
	pt->p.tokens = tokens;
	assay_ep_layout_init(&pt->p, &pt->l);
	assay_ep_routing_build(&pt->p, &pt->r);
	assay_ep_route_stats(&pt->p, &pt->r, &pt->rs);
	int64_t K = pt->p.topk, T = tokens;
	pt->send = ep_alloc_lines((size_t)T * pt->l.stride);
	pt->dests = xmalloc((size_t)(T * K) * sizeof(*pt->dests));
	pt->ndests = xmalloc((size_t)T * sizeof(*pt->ndests));
	pt->slot = xmalloc((size_t)(T * K) * sizeof(*pt->slot));
	pt->send_counts = xcalloc((size_t)run->size, sizeof(int));
	pt->recv_counts = xcalloc((size_t)run->size, sizeof(int));
	for (int64_t i = 0; i < T; i++) {
		uint64_t t = (uint64_t)(run->rank * T + i);
		assay_ep_record_fill(&pt->p, &pt->l, &pt->r, t,
				     pt->send + (size_t)i * pt->l.stride);
		pt->ndests[i] = assay_ep_token_dests(&pt->p, pt->r.experts + t * (uint64_t)K,
						     pt->dests + i * K);
		for (int j = 0; j < pt->ndests[i]; j++) {
			int d = pt->dests[i * K + j];
			pt->slot[i * K + j] = pt->send_counts[d]++;
		}
	}
	pt->nrecv = pt->rs.recv_copies[run->rank];
	/* On a line boundary, for the reduction's full-width streaming stores;
	 * touched here, outside every timed window. */
	size_t out_bytes = (size_t)(T * pt->p.hidden) * sizeof(*pt->out);
	pt->out = ep_alloc_lines(out_bytes);
	memset(pt->out, 0, out_bytes);
	pt->valid = true;
	pt->copy = run->copy;
	pt->copy_forced = run->copy_set;
	pt->pattern_copy = run->copy;
	pt->copy_us[0] = pt->copy_us[1] = -1;
	pt->dispatch_us[0] = pt->dispatch_us[1] = -1;
}

int64_t ep_point_bytes(const struct ep_point *pt, int comp)
{
	int64_t copies = pt->rs.routed_copies, H = pt->p.hidden;
	int64_t dispatch = copies * H * (pt->p.precision == ASSAY_EP_FP8 ? 1 : 2);
	if (pt->p.precision == ASSAY_EP_FP8)
		dispatch += copies * assay_ep_blocks(H) * 4;
	int64_t combine = copies * H * 2;
	return comp == EP_DISPATCH ? dispatch : comp == EP_COMBINE ? combine : dispatch + combine;
}

double ep_point_memory(const struct ep_run *run, int64_t tokens)
{
	if (run->ll) /* the low-latency mode's fixed buffers (lowlat.c) */
		return ep_ll_point_memory(run, tokens);
	struct assay_ep_problem p = run->base;
	p.tokens = tokens;
	struct assay_ep_layout l;
	assay_ep_layout_init(&p, &l);
	double T = (double)tokens, E = (double)p.ep, K = (double)p.topk, H = (double)p.hidden;
	double stride = (double)l.stride, ntok = T * E;
	double recv = ntok;                       /* a rank receives each token at most once */
	double sent = T * (K < E ? K : E);        /* a token goes to at most min(topk, ep) ranks */
	double need = ntok * K * 8 + ntok         /* global routing; the oracle's seen[] */
		      + T * (stride + K * 12 + 4) /* send records, destinations, slots */
		      + T * H * 4                 /* combine output (float32) */
		      + sent * (stride + H * 2)   /* packed records, rows coming back */
		      + recv * (stride + H * 2);  /* received records, staged rows */
	const struct assay_timing *tm = &run->timing;
	double nsamp = (double)tm->trials * (double)tm->iters_per_trial;
	double nchain = (double)tm->chain_trials * (double)(tm->chain_pairs - tm->chain_drop);
	need += nsamp * 8 * 4 * 3 + nchain * 8 * (3 + E); /* samples, reduced on rank 0 */
	need += nsamp * 3 + nchain;                       /* timed-call checks (verify.c) */
	return need + (1 << 20);
}

static double memory_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	double kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb >= 0)
		return kb * 1024;
	return (double)sysconf(_SC_AVPHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
}

/* The most tokens per rank whose point fits in avail bytes with nrank
 * ranks per node (ep_point_memory grows with tokens), 0 when none. */
static int64_t tokens_that_fit(const struct ep_run *run, double avail, double nrank)
{
	int64_t lo = 0, hi = 1ll << 31;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo + 1) / 2;
		if (ep_point_memory(run, mid) * nrank <= avail)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int ep_memory_check(struct ep_run *run, const char *cmd)
{
	double need = 0;
	int64_t tokens = run->ladder[0];
	for (size_t i = 0; i < run->npoints; i++) {
		double m = ep_point_memory(run, run->ladder[i]);
		if (m > need)
			need = m, tokens = run->ladder[i];
	}
	MPI_Comm node;
	int nrank = 1;
	double node_need = 0, avail = memory_available();
	MPI_CHECK(MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_size(node, &nrank));
	MPI_CHECK(MPI_Allreduce(&need, &node_need, 1, MPI_DOUBLE, MPI_SUM, node));
	MPI_CHECK(MPI_Comm_free(&node));
	struct {
		double v;
		int rank;
	} mine = {node_need - avail, run->rank}, worst;
	MPI_CHECK(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, run->comm));
	if (worst.v <= 0)
		return 0;
	double fig[3] = {node_need, avail, nrank};
	MPI_CHECK(MPI_Bcast(fig, 3, MPI_DOUBLE, worst.rank, run->comm));
	return ep_usage(cmd,
			"--tokens %lld needs %.0f bytes of memory on one node (%.0f ranks, an "
			"upper bound), but %.0f bytes are available (MemAvailable): at most %lld "
			"tokens per rank fit with this shape; lower --tokens, --hidden, --topk or "
			"the timing samples",
			(long long)tokens, fig[0], fig[2], fig[1],
			(long long)tokens_that_fit(run, fig[1], fig[2]));
}

void ep_point_drop_buffers(struct ep_point *pt)
{
	assay_ep_routing_release(&pt->r);
	ep_verify_free(pt);
	free(pt->send);
	free(pt->dests);
	free(pt->ndests);
	free(pt->slot);
	free(pt->send_counts);
	free(pt->recv_counts);
	free(pt->out);
	pt->send = NULL, pt->dests = pt->ndests = NULL, pt->slot = NULL;
	pt->send_counts = pt->recv_counts = NULL, pt->out = NULL;
}

void ep_pack(const struct ep_point *pt, const int *displ, unsigned char *dst)
{
	size_t stride = pt->l.stride;
	int64_t K = pt->p.topk;
	for (int64_t i = 0; i < pt->p.tokens; i++)
		for (int j = 0; j < pt->ndests[i]; j++)
			memcpy(dst + (size_t)(displ[pt->dests[i * K + j]] + pt->slot[i * K + j]) *
					 stride,
			       pt->send + (size_t)i * stride, stride);
}

void ep_point_unstage(struct ep_point *pt)
{
	ep_point_drop_buffers(pt);
	assay_ep_route_stats_release(&pt->rs);
	for (int c = 0; c < EP_COMPONENTS; c++)
		for (int m = 0; m < 2; m++)
			free(pt->samples[c][m]);
	free(pt->pattern);
}

static inline float bf16f(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

static void add_row(float *restrict acc, const uint16_t *restrict row, int64_t n, bool first)
{
	if (first)
		for (int64_t c = 0; c < n; c++)
			acc[c] = bf16f(row[c]);
	else
		for (int64_t c = 0; c < n; c++)
			acc[c] += bf16f(row[c]);
}

/* out = sum of n BF16 rows in float32, streamed out with non-temporal stores
 * (the output is written once and not read back soon), in the same order and
 * rounding as the scalar loop: row0 + row1 + ... in float32. Each variant returns
 * false when H or the output's alignment does not suit its width (ep_reduce
 * then runs the scalar loop). The widest the CPU has is used unless
 * --reduce chose (ep_reduce_select); all give the same sums (a vector sum
 * starts from +0, so a -0 row alone gives +0 where the scalar loop keeps -0). */
typedef bool (*reduce_fn)(float *out, const uint16_t *const *rows, int n, int64_t H);

#if defined(__SSE2__)
static bool reduce_sse2(float *out, const uint16_t *const *rows, int n, int64_t H)
{
	if ((H & 7) || ((uintptr_t)out & 15))
		return false;
	const __m128i z = _mm_setzero_si128();
	for (int64_t c = 0; c < H; c += 8) {
		__m128 lo = _mm_setzero_ps(), hi = _mm_setzero_ps();
		for (int j = 0; j < n; j++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(rows[j] + c));
			lo = _mm_add_ps(lo, _mm_castsi128_ps(_mm_unpacklo_epi16(z, v)));
			hi = _mm_add_ps(hi, _mm_castsi128_ps(_mm_unpackhi_epi16(z, v)));
		}
		_mm_stream_ps(out + c, lo);
		_mm_stream_ps(out + c + 4, hi);
	}
	return true;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static bool reduce_avx2(float *out, const uint16_t *const *rows,
							int n, int64_t H)
{
	if ((H & 7) || ((uintptr_t)out & 31))
		return false;
	for (int64_t c = 0; c < H; c += 8) {
		__m256 acc = _mm256_setzero_ps();
		for (int j = 0; j < n; j++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(rows[j] + c));
			__m256i w = _mm256_slli_epi32(_mm256_cvtepu16_epi32(v), 16);
			acc = _mm256_add_ps(acc, _mm256_castsi256_ps(w));
		}
		_mm256_stream_ps(out + c, acc);
	}
	return true;
}

__attribute__((target("avx512f,avx512bw"))) static bool
reduce_avx512(float *out, const uint16_t *const *rows, int n, int64_t H)
{
	if ((H & 15) || ((uintptr_t)out & 63))
		return false;
	for (int64_t c = 0; c < H; c += 16) {
		__m512 acc = _mm512_setzero_ps();
		for (int j = 0; j < n; j++) {
			__m256i v = _mm256_loadu_si256((const __m256i *)(rows[j] + c));
			__m512i w = _mm512_slli_epi32(_mm512_cvtepu16_epi32(v), 16);
			acc = _mm512_add_ps(acc, _mm512_castsi512_ps(w));
		}
		_mm512_stream_ps(out + c, acc);
	}
	return true;
}
#endif

/* Widest first; ep_reduce_names lists them in this order. */
static const reduce_fn reduce_impls[] = {
#if defined(__x86_64__) && defined(__GNUC__)
    reduce_avx512, reduce_avx2,
#else
    NULL, NULL,
#endif
#if defined(__SSE2__)
    reduce_sse2,
#else
    NULL,
#endif
    NULL, /* scalar: the plain loop of ep_reduce */
};
const char *const ep_reduce_names[] = {"avx512", "avx2", "sse2", "scalar", NULL};
static int reduce_sel = -1;

bool ep_reduce_available(int isa)
{
	if (isa < 0 || isa >= (int)ARRAY_SIZE(reduce_impls))
		return false;
	if (isa == (int)ARRAY_SIZE(reduce_impls) - 1)
		return true;
	if (!reduce_impls[isa])
		return false;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (isa == 0)
		return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
	if (isa == 1)
		return __builtin_cpu_supports("avx2");
#endif
	return true;
}

bool ep_reduce_select(int isa)
{
	if (!ep_reduce_available(isa))
		return false;
	reduce_sel = isa;
	return true;
}

int ep_reduce_isa(void)
{
	for (int i = 0; reduce_sel < 0; i++)
		if (ep_reduce_available(i))
			reduce_sel = i;
	return reduce_sel;
}

void ep_reduce(const struct ep_point *pt, const uint16_t *const *bases)
{
	int64_t H = pt->p.hidden, K = pt->p.topk, sud = pt->p.scale_up_domain;
	bool cast = assay_ep_domains(&pt->p) > 1;
	float *dom = cast ? xmalloc((size_t)H * sizeof(*dom)) : NULL;
	reduce_fn fn = reduce_impls[ep_reduce_isa()];
	for (int64_t i = 0; i < pt->p.tokens; i++) {
		float *out = pt->out + i * H;
		const int32_t *d = pt->dests + i * K;
		const int64_t *s = pt->slot + i * K;
		int n = pt->ndests[i];
		if (!cast) {
			const uint16_t *rows[64];
			if (fn && n <= 64) {
				for (int j = 0; j < n; j++)
					rows[j] = bases[d[j]] + s[j] * H;
				if (fn(out, rows, n, H))
					continue;
			}
			for (int j = 0; j < n; j++)
				add_row(out, bases[d[j]] + s[j] * H, H, j == 0);
			continue;
		}
		bool first_dom = true;
		for (int j = 0; j < n;) {
			int64_t dm = d[j] / sud;
			for (int k = j; j < n && d[j] / sud == dm; j++)
				add_row(dom, bases[d[j]] + s[j] * H, H, j == k);
			for (int64_t c = 0; c < H; c++) {
				float v = assay_bf16_to_float(assay_bf16_from_float(dom[c]));
				out[c] = first_dom ? v : out[c] + v;
			}
			first_dom = false;
		}
	}
	ep_copy_fence();
	free(dom);
}
