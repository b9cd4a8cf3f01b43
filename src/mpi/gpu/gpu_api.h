/* The host runtime calls of the nccl and rccl backends of assay-ep and
 * assay-coll under one set of names: CUDA + NCCL by default, HIP + RCCL
 * when ASSAY_GPU_HIP is defined (RCCL keeps NCCL's API and names). The
 * build (cmake/gpu.cmake) defines ASSAY_HAVE_NCCL when one was found. */
#ifndef ASSAY_GPU_API_H
#define ASSAY_GPU_API_H

#ifdef ASSAY_GPU_HIP
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <rccl/rccl.h>
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
#define gpuSuccess              hipSuccess
#define gpuGetDeviceCount       hipGetDeviceCount
#define gpuSetDevice            hipSetDevice
#define gpuGetErrorString       hipGetErrorString
#define gpuMalloc               hipMalloc
#define gpuFree                 hipFree
#define gpuMemcpy               hipMemcpy
#define gpuMemset               hipMemset
#define gpuMemcpyHostToDevice   hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost   hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuMemcpyAsync          hipMemcpyAsync
#define gpuMemGetInfo           hipMemGetInfo
#define gpuStreamCreate         hipStreamCreate
#define gpuStreamDestroy        hipStreamDestroy
#define gpuStreamSynchronize    hipStreamSynchronize
#define gpuDeviceSynchronize    hipDeviceSynchronize
#define ASSAY_GPU_BACKEND       "rccl"
#define ASSAY_GPU_RUNTIME       "HIP"
#else
#include <cuda_runtime.h>
#include <nccl.h>
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
#define gpuSuccess              cudaSuccess
#define gpuGetDeviceCount       cudaGetDeviceCount
#define gpuSetDevice            cudaSetDevice
#define gpuGetErrorString       cudaGetErrorString
#define gpuMalloc               cudaMalloc
#define gpuFree                 cudaFree
#define gpuMemcpy               cudaMemcpy
#define gpuMemset               cudaMemset
#define gpuMemcpyHostToDevice   cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost   cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuMemcpyAsync          cudaMemcpyAsync
#define gpuMemGetInfo           cudaMemGetInfo
#define gpuStreamCreate         cudaStreamCreate
#define gpuStreamDestroy        cudaStreamDestroy
#define gpuStreamSynchronize    cudaStreamSynchronize
#define gpuDeviceSynchronize    cudaDeviceSynchronize
#define ASSAY_GPU_BACKEND       "nccl"
#define ASSAY_GPU_RUNTIME       "CUDA"
#endif

/* A runtime or NCCL call that fails ends the run (exit 5, ep_die of the
 * benchmark programs) naming the call and the library's message. */
#define GPU_CHECK(call)                                                                            \
	do {                                                                                       \
		gpuError_t c_ = (call);                                                            \
		if (c_ != gpuSuccess)                                                              \
			ep_die(ASSAY_INFRA, "%s failed: %s", #call, gpuGetErrorString(c_));        \
	} while (0)
#define NCCL_CHECK(call)                                                                           \
	do {                                                                                       \
		ncclResult_t n_ = (call);                                                          \
		if (n_ != ncclSuccess)                                                             \
			ep_die(ASSAY_INFRA, "%s failed: %s", #call, ncclGetErrorString(n_));       \
	} while (0)

#endif
