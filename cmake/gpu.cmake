# The GPU runtimes of the two benchmark programs (assay-ep, assay-coll):
# the options, where to look, and the search for CUDA + NCCL and for HIP +
# RCCL. Included by src/assay-ep and src/assay-coll; the results are cache
# variables, so the second include finds them at once. The runtime wrapper
# both programs' backends include is src/mpi/gpu/gpu_api.h.
option(ASSAY_NCCL "Build the nccl backend when CUDA and NCCL are found" ON)
option(ASSAY_RCCL "Build the rccl backend when ROCm and RCCL are found" ON)
set(ASSAY_CUDA_ROOT "/usr/local/cuda" CACHE PATH "Where to look for CUDA and NCCL")

# assay_find_nccl(): the CUDA runtime and NCCL under ASSAY_CUDA_ROOT
# (ASSAY_CUDA_INCLUDE, ASSAY_NCCL_INCLUDE, ASSAY_CUDART_LIB, ASSAY_NCCL_LIB);
# ASSAY_NCCL_FOUND in the caller says whether all four were found.
macro(assay_find_nccl)
  find_path(ASSAY_CUDA_INCLUDE cuda_runtime.h HINTS ${ASSAY_CUDA_ROOT}/include)
  find_path(ASSAY_NCCL_INCLUDE nccl.h HINTS ${ASSAY_CUDA_ROOT}/include)
  find_library(ASSAY_CUDART_LIB cudart HINTS ${ASSAY_CUDA_ROOT}/lib64 ${ASSAY_CUDA_ROOT}/lib)
  find_library(ASSAY_NCCL_LIB nccl HINTS ${ASSAY_CUDA_ROOT}/lib64 ${ASSAY_CUDA_ROOT}/lib)
  set(ASSAY_NCCL_FOUND FALSE)
  if(ASSAY_CUDA_INCLUDE AND ASSAY_NCCL_INCLUDE AND ASSAY_CUDART_LIB AND ASSAY_NCCL_LIB)
    set(ASSAY_NCCL_FOUND TRUE)
  endif()
endmacro()

# assay_find_rccl(): the HIP runtime and RCCL under ROCM_PATH (default
# /opt/rocm, in `rocm`); ASSAY_RCCL_FOUND in the caller.
macro(assay_find_rccl)
  set(rocm $ENV{ROCM_PATH})
  if(NOT rocm)
    set(rocm /opt/rocm)
  endif()
  find_path(ASSAY_RCCL_INCLUDE rccl/rccl.h HINTS ${rocm}/include)
  find_library(ASSAY_RCCL_LIB rccl HINTS ${rocm}/lib)
  find_library(ASSAY_HIP_LIB amdhip64 HINTS ${rocm}/lib)
  find_path(ASSAY_HIP_INCLUDE hip/hip_runtime_api.h HINTS ${rocm}/include)
  set(ASSAY_RCCL_FOUND FALSE)
  if(ASSAY_RCCL_INCLUDE AND ASSAY_RCCL_LIB AND ASSAY_HIP_LIB AND ASSAY_HIP_INCLUDE)
    set(ASSAY_RCCL_FOUND TRUE)
  endif()
endmacro()

# assay_link_gpu(TARGET nccl|rccl): the runtime's headers (system headers:
# their warnings are not ours), its libraries, and ASSAY_HAVE_NCCL (with
# ASSAY_GPU_HIP for rccl). "gpu/gpu_api.h" is found through src/mpi, the
# include folder of assay_bench_core that both programs link.
function(assay_link_gpu target kind)
  if(kind STREQUAL "rccl")
    target_compile_definitions(${target} PRIVATE ASSAY_HAVE_NCCL=1 ASSAY_GPU_HIP=1)
    target_include_directories(${target} SYSTEM PRIVATE ${ASSAY_HIP_INCLUDE} ${ASSAY_RCCL_INCLUDE})
    target_link_libraries(${target} PRIVATE ${ASSAY_HIP_LIB} ${ASSAY_RCCL_LIB})
  else()
    target_compile_definitions(${target} PRIVATE ASSAY_HAVE_NCCL=1)
    target_include_directories(${target} SYSTEM PRIVATE ${ASSAY_CUDA_INCLUDE} ${ASSAY_NCCL_INCLUDE})
    target_link_libraries(${target} PRIVATE ${ASSAY_CUDART_LIB} ${ASSAY_NCCL_LIB})
  endif()
endfunction()
