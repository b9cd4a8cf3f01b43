/* The device kernels of the nccl and rccl backends (ep_kernels.cu), callable
 * from C. Pointers are device pointers; stream is a cudaStream_t or
 * hipStream_t. Each returns 0 or the runtime's error code of the launch. */
#ifndef ASSAY_EP_GPU_H
#define ASSAY_EP_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pack[p] = send[map[p]] for p < n, records of stride bytes (a multiple of 16). */
int ep_gpu_pack(const void *send, size_t stride, const int64_t *map, int64_t n, void *pack,
		void *stream);
/* out[i] = the domain-aware float32 sum of the BF16 rows back[rows[i][j]],
 * j < ndests[i], destination ranks dests[i][j] ascending (docs/ep.md). */
int ep_gpu_reduce(const uint16_t *back, const int64_t *rows, const int32_t *dests,
		  const int32_t *ndests, int64_t tokens, int64_t topk, int64_t hidden,
		  int64_t scale_up_domain, int cast, float *out, void *stream);
const char *ep_gpu_error(int code);

#ifdef __cplusplus
}
#endif

#endif
