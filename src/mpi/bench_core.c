/* The MPI program helpers that assay-ep and assay-coll share (bench_core.c):
 * dying with the rank named, the MPI error check, launcher environment and
 * the copy routines (memcpy and non-temporal stores). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "assay/util.h"
#include "bench_core.h"

const char *ep_prog = "assay-ep";

_Noreturn void ep_die(int code, const char *fmt, ...)
{
	int rank = 0, init = 0;
	MPI_Initialized(&init);
	if (init)
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: rank %d: %s\n", ep_prog, rank, msg);
	fflush(stderr);
	if (init)
		MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}

_Noreturn void ep_mpi_fail(const char *call, int rc, const char *file, int line)
{
	char text[MPI_MAX_ERROR_STRING] = "";
	int n = 0;
	MPI_Error_string(rc, text, &n);
	const char *paren = strchr(call, '(');
	int len = paren ? (int)(paren - call) : (int)strlen(call);
	ep_die(ASSAY_INFRA, "%.*s failed (%s:%d): %s", len, call, file, line, text);
}

bool ep_env_rank0(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = getenv(vars[i]);
		if (v)
			return !strcmp(v, "0");
	}
	return true;
}

int ep_usage_done(int rc)
{
	/* Under a launcher, the first rank to exit non-zero makes mpirun kill the
	 * others, perhaps before rank 0 printed the message: meet in MPI_Init
	 * and MPI_Finalize first (rank 0 has printed by then). */
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
		if (getenv(vars[i])) {
			fflush(stderr);
			if (MPI_Init(NULL, NULL) == MPI_SUCCESS)
				MPI_Finalize();
			break;
		}
	return rc;
}

void ep_copy(void *dst, const void *src, size_t n, enum ep_copy_kind kind)
{
#if defined(__SSE2__)
	if (kind == EP_COPY_NT && n >= 256) {
		unsigned char *d = dst;
		const unsigned char *s = src;
		size_t head = (16 - ((uintptr_t)d & 15)) & 15;
		memcpy(d, s, head);
		d += head, s += head, n -= head;
		size_t i = 0;
		for (; i + 64 <= n; i += 64) {
			__m128i a = _mm_loadu_si128((const __m128i *)(s + i));
			__m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
			__m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
			__m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
			_mm_stream_si128((__m128i *)(d + i), a);
			_mm_stream_si128((__m128i *)(d + i + 16), b);
			_mm_stream_si128((__m128i *)(d + i + 32), c);
			_mm_stream_si128((__m128i *)(d + i + 48), e);
		}
		memcpy(d + i, s + i, n - i);
		return;
	}
#endif
	(void)kind;
	memcpy(dst, src, n);
}

void *ep_alloc_lines(size_t n)
{
	n = (n + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, n ? n : 64);
	if (!p)
		abort();
	return p;
}

void ep_poison(void *dst, size_t n, enum ep_copy_kind kind)
{
	unsigned char *d = dst;
	size_t i = 0;
#if defined(__SSE2__)
	size_t head = (16 - ((uintptr_t)d & 15)) & 15;
	const __m128i ff = _mm_set1_epi8(-1);
	if (kind == EP_COPY_NT && n >= head + 64) {
		memset(d, 0xFF, head);
		for (i = head; i + 64 <= n; i += 64) {
			_mm_stream_si128((__m128i *)(d + i), ff);
			_mm_stream_si128((__m128i *)(d + i + 16), ff);
			_mm_stream_si128((__m128i *)(d + i + 32), ff);
			_mm_stream_si128((__m128i *)(d + i + 48), ff);
		}
		_mm_sfence();
	}
#endif
	(void)kind;
	memset(d + i, 0xFF, n - i);
}

void ep_copy_fence(void)
{
#if defined(__SSE2__)
	_mm_sfence();
#endif
}

bool ep_shm_one_node(MPI_Comm comm, int rank, int size, char *reason, size_t len)
{
	MPI_Comm node;
	int n = 0;
	MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_size(node, &n));
	MPI_CHECK(MPI_Comm_free(&node));
	int all = n == size, ok = 0;
	MPI_CHECK(MPI_Allreduce(&all, &ok, 1, MPI_INT, MPI_LAND, comm));
	if (!ok)
		snprintf(reason, len,
			 "shm needs all %d ranks on one node (MPI_COMM_TYPE_SHARED), but rank %d "
			 "shares a node with %d",
			 size, rank, n);
	return ok;
}

unsigned char *ep_shm_window(MPI_Comm comm, size_t bytes, MPI_Win *win, unsigned char **seg)
{
	MPI_Info info;
	int me, n;
	MPI_CHECK(MPI_Comm_rank(comm, &me));
	MPI_CHECK(MPI_Comm_size(comm, &n));
	MPI_CHECK(MPI_Info_create(&info));
	MPI_CHECK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
	void *base = NULL;
	MPI_CHECK(MPI_Win_allocate_shared((MPI_Aint)(bytes + 4096), 1, info, comm, &base, win));
	MPI_CHECK(MPI_Info_free(&info));
	for (int r = 0; r < n; r++) {
		MPI_Aint sz;
		int disp;
		unsigned char *b;
		MPI_CHECK(MPI_Win_shared_query(*win, r, &sz, &disp, &b));
		seg[r] = (unsigned char *)(((uintptr_t)b + 4095) & ~(uintptr_t)4095);
	}
	return seg[me];
}
