/* Device kernels of the nccl and rccl backends, written once for CUDA
 * (nvcc) and HIP (hipcc): the dispatch pack (each token record copied to
 * its slot in the per-destination send buffer) and the combine reduction
 * (BF16 rows summed in float32 per scale-up domain, each domain's partial
 * rounded to BF16 when there is more than one domain: the oracle's rule). */
#include "ep_gpu.h"

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#include <hip/hip_runtime.h>
typedef hipStream_t gpu_stream;
#define gpu_last_error()    ((int)hipGetLastError())
#define gpu_error_string(e) hipGetErrorString((hipError_t)(e))
#else
#include <cuda_runtime.h>
typedef cudaStream_t gpu_stream;
#define gpu_last_error()    ((int)cudaGetLastError())
#define gpu_error_string(e) cudaGetErrorString((cudaError_t)(e))
#endif

#define EP_GPU_THREADS    256
#define EP_GPU_MAX_BLOCKS 65535

/* Copy record map[p] of send into slot p of pack, 16 bytes per thread
 * (record strides are multiples of 64 bytes). */
__global__ void ep_pack_kernel(const uint4 *send, int64_t words, const int64_t *map, int64_t n,
			       uint4 *pack)
{
	for (int64_t p = blockIdx.x; p < n; p += gridDim.x) {
		const uint4 *src = send + map[p] * words;
		uint4 *dst = pack + p * words;
		for (int64_t w = threadIdx.x; w < words; w += blockDim.x)
			dst[w] = src[w];
	}
}

__device__ static float bf16_to_float(uint16_t h)
{
	return __uint_as_float((uint32_t)h << 16);
}

/* Round to BF16 (nearest even; NaN stays a quiet NaN), as a float. */
__device__ static float bf16_round(float f)
{
	uint32_t u = __float_as_uint(f);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return __uint_as_float((u | 0x00400000u) & 0xffff0000u);
	u += 0x7fffu + ((u >> 16) & 1u);
	return __uint_as_float(u & 0xffff0000u);
}

/* out[i][c] = sum over the token's destinations d (ascending) of
 * back[rows[i][j]][c], in float32, the per-domain partials rounded to BF16
 * when cast is set. The order of the additions is the host reduction's. */
__global__ void ep_reduce_kernel(const uint16_t *back, const int64_t *rows, const int32_t *dests,
				 const int32_t *ndests, int64_t tokens, int64_t topk,
				 int64_t hidden, int64_t sud, int cast, float *out)
{
	for (int64_t i = blockIdx.x; i < tokens; i += gridDim.x) {
		const int64_t *r = rows + i * topk;
		const int32_t *d = dests + i * topk;
		int n = ndests[i];
		for (int64_t c = threadIdx.x; c < hidden; c += blockDim.x) {
			float acc = 0.0f;
			int first_dom = 1;
			for (int j = 0; j < n;) {
				int64_t dm = d[j] / sud;
				float dom = 0.0f;
				for (int k = j; j < n && d[j] / sud == dm; j++) {
					float v = bf16_to_float(back[r[j] * hidden + c]);
					dom = j == k ? v : dom + v;
				}
				if (cast)
					dom = bf16_round(dom);
				acc = first_dom ? dom : acc + dom;
				first_dom = 0;
			}
			out[i * hidden + c] = acc;
		}
	}
}

static unsigned blocks(int64_t n)
{
	return (unsigned)(n < 1 ? 1 : n > EP_GPU_MAX_BLOCKS ? EP_GPU_MAX_BLOCKS : n);
}

extern "C" int ep_gpu_pack(const void *send, size_t stride, const int64_t *map, int64_t n,
			   void *pack, void *stream)
{
	if (n < 1)
		return 0;
	ep_pack_kernel<<<blocks(n), EP_GPU_THREADS, 0, (gpu_stream)stream>>>(
	    (const uint4 *)send, (int64_t)(stride / sizeof(uint4)), map, n, (uint4 *)pack);
	return gpu_last_error();
}

extern "C" int ep_gpu_reduce(const uint16_t *back, const int64_t *rows, const int32_t *dests,
			     const int32_t *ndests, int64_t tokens, int64_t topk, int64_t hidden,
			     int64_t scale_up_domain, int cast, float *out, void *stream)
{
	if (tokens < 1)
		return 0;
	ep_reduce_kernel<<<blocks(tokens), EP_GPU_THREADS, 0, (gpu_stream)stream>>>(
	    back, rows, dests, ndests, tokens, topk, hidden, scale_up_domain, cast, out);
	return gpu_last_error();
}

extern "C" const char *ep_gpu_error(int code)
{
	return gpu_error_string(code);
}
