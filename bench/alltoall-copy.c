/* The copies of an np 2 alltoall and nothing else: two processes on one
 * shared mapping (/dev/shm, page-aligned), each with a send and a receive
 * buffer of SIZE bytes; per iteration each copies its own block and the
 * peer's block of SIZE/2 bytes into its receive buffer, both starting
 * together (a spin barrier on a shared counter, outside the timed copies).
 * No protocol and no MPI: a floor for any alltoall at np 2 on this machine,
 * to set beside assay-coll's and Open MPI's times (bench/coll-compare.sh).
 * Prints, per routine (memcpy, non-temporal SSE2 stores), the median of
 * iterations 6-40 of rank 0, in microseconds.
 *   alltoall-copy SIZE...        (bench/alltoall-copy.sh builds and runs it) */
#define _GNU_SOURCE
#include <emmintrin.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { ITERS = 40, SKIP = 5 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void copy_nt(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 64 <= n; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(s + i)),
			b = _mm_loadu_si128((const __m128i *)(s + i + 16)),
			c = _mm_loadu_si128((const __m128i *)(s + i + 32)),
			e = _mm_loadu_si128((const __m128i *)(s + i + 48));
		_mm_stream_si128((__m128i *)(d + i), a);
		_mm_stream_si128((__m128i *)(d + i + 16), b);
		_mm_stream_si128((__m128i *)(d + i + 32), c);
		_mm_stream_si128((__m128i *)(d + i + 48), e);
	}
	_mm_sfence();
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median microseconds of rank 0 (the caller) for one size and routine. */
static double run(size_t size, int nt)
{
	size_t cb = size / 2, per = 2 * size;
	char *base =
	    mmap(NULL, 2 * per + 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("alltoall-copy: mmap");
		exit(1);
	}
	memset(base, 1, 2 * per + 4096);
	volatile int *count = (volatile int *)(base + 2 * per);
	*count = 0;
	pid_t child = fork();
	int me = child == 0;
	char *send[2] = {base, base + per}, *recv[2] = {base + size, base + per + size};
	double t[ITERS];
	for (int it = 0; it < ITERS; it++) {
		__atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(count, __ATOMIC_SEQ_CST) < 2 * (it + 1))
			;
		double t0 = now();
		for (int j = 0; j < 2; j++) {
			int peer = (me + j) % 2;
			char *d = recv[me] + (size_t)peer * cb;
			const char *s = send[peer] + (size_t)me * cb;
			if (nt)
				copy_nt(d, s, cb);
			else
				memcpy(d, s, cb);
		}
		t[it] = now() - t0;
	}
	if (me)
		_exit(0);
	waitpid(child, NULL, 0);
	munmap(base, 2 * per + 4096);
	qsort(t + SKIP, ITERS - SKIP, sizeof(*t), cmp);
	return t[SKIP + (ITERS - SKIP) / 2] * 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: alltoall-copy SIZE...\n");
		return 2;
	}
	printf("%10s %12s %12s\n", "size", "memcpy_us", "nt_us");
	for (int i = 1; i < argc; i++) {
		size_t size = strtoull(argv[i], NULL, 0);
		if (size < 128 || size % 128) {
			fprintf(stderr, "alltoall-copy: size %s: expected a multiple of 128\n",
				argv[i]);
			return 2;
		}
		double m = run(size, 0), n = run(size, 1);
		printf("%10zu %12.1f %12.1f\n", size, m, n);
	}
	return 0;
}
