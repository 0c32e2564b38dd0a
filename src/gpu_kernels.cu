/*
 * gpu_kernels.cu - compiles the kernels of a .def list with nvcc for the GPU.
 *
 * Each kernel is compiled twice from its one source file:
 *   - as written, in namespace chef_plain: the kernel that is timed;
 *   - as a __device__ function in namespace chef_traced, called by a small __global__ wrapper
 *     in which thread 0 of every block records the SM it ran on (%smid) and the global timer
 *     (%globaltimer, in ns) at the start, and every warp's first lane raises the block's end time.
 * The table at the bottom gives the C side (src/backend_gpu.c) both entry points by name.
 */
#include <cuda_runtime.h>

#include "kernel_glue.h"
#include "../kernels/kernel.h"

#ifndef KERNEL_DEF
#define KERNEL_DEF "../kernels/kernels.def"
#endif
#ifndef GPU_TABLE
#define GPU_TABLE gpu_kernels
#endif

/* One block's record as the GPU writes it. */
struct chef_gpu_block_record {
    unsigned long long start_ns, end_ns;
    unsigned int smid, pad;
};

/* Reads the SM this thread runs on. */
static __device__ __forceinline__ unsigned int chef_smid(void)
{
    unsigned int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

/* Reads the GPU's global nanosecond timer. */
static __device__ __forceinline__ unsigned long long chef_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

namespace chef_plain {
#define KERNEL_SOURCES
#define KERNEL(name, n, types)
#include KERNEL_DEF
#undef KERNEL
#undef KERNEL_SOURCES
}

namespace chef_traced {
#pragma push_macro("__global__")
#undef __global__
#define __global__ __device__ __forceinline__
#define KERNEL_SOURCES
#define KERNEL(name, n, types)
#include KERNEL_DEF
#undef KERNEL
#undef KERNEL_SOURCES
#pragma pop_macro("__global__")

/* Thread 0 notes where and when the block starts; the first lane of every warp raises the
   block's end time as it finishes (no barrier, so no cook waits for the record). */
#define KERNEL(name, n, types)                                                                     \
    __global__ void name##_traced(CHEF_PARAMS(n, types), chef_gpu_block_record *chef_trace)        \
    {                                                                                              \
        unsigned int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);           \
        unsigned int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);      \
        if (t == 0) {                                                                              \
            chef_trace[b].start_ns = chef_globaltimer();                                           \
            chef_trace[b].smid = chef_smid();                                                      \
        }                                                                                          \
        name(CHEF_NAMES(n));                                                                       \
        if ((t & 31) == 0)                                                                         \
            atomicMax(&chef_trace[b].end_ns, chef_globaltimer());                                  \
    }
#include KERNEL_DEF
#undef KERNEL
}

/* The table read by backend_gpu.c: name, plain kernel, traced wrapper, number of parameters. */
struct gpu_kernel_row {
    const char *name;
    const void *plain;
    const void *traced;
    int nparams;
};

#define KERNEL(name, n, types) {#name, (const void *)chef_plain::name, (const void *)chef_traced::name##_traced, n},
extern "C" const gpu_kernel_row GPU_TABLE[] = {
#include KERNEL_DEF
    {0, 0, 0, 0}};
#undef KERNEL
