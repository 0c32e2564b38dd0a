/*
 * gpu_table.cu - compiles the kernels of a .def list with nvcc for the GPU.
 *
 * Each kernel is compiled twice from its one source file:
 *   - as written, in namespace chef_plain: the kernel that is timed;
 *   - as a __device__ function in namespace chef_traced, called by a small __global__ wrapper
 *     in which thread 0 of every block records the SM it ran on (%smid) and the global timer
 *     (%globaltimer, in ns) at its start and when its own work is done.
 * The table at the bottom gives the C side (src/engine/backend_gpu.c) both entry points by name.
 */
#include <cuda_runtime.h>

#include "kernel_glue.h"
#include "kernel.h"

#ifndef KERNEL_DEF
#define KERNEL_DEF "kernels.def"
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
/* Helper headers of kernels/ are read again in this namespace: forget their include guards. */
#undef CUDACHEF_MATMUL_FOUR_H
#undef CUDACHEF_BRANCH_RECIPES_H
#undef CUDACHEF_MMA_TF32_H
#pragma push_macro("__global__")
#pragma push_macro("__launch_bounds__")
#undef __global__
#undef __launch_bounds__
#define __global__ __device__ __forceinline__
#define __launch_bounds__(...) /* a bound belongs to a launched kernel: the traced one below */
#define KERNEL_SOURCES
#define KERNEL(name, n, types)
#include KERNEL_DEF
#undef KERNEL
#undef KERNEL_SOURCES
#pragma pop_macro("__launch_bounds__")
#pragma pop_macro("__global__")

/* The first cook of a team notes where and when the team starts and, once its own work is done,
   writes the record: one store per block, no barrier and no atomic, so no other cook waits for
   it. The end is when the team's first warp finished (on a GPU a team's warps finish together
   within a few hundred nanoseconds; recording the last warp's end instead cost twice as much). */
#define KERNEL(name, n, types)                                                                     \
    __global__ void name##_traced(CHEF_PARAMS(n, types), chef_gpu_block_record *chef_trace)        \
    {                                                                                              \
        bool first = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;                     \
        unsigned long long start = first ? chef_globaltimer() : 0;                                 \
        name(CHEF_NAMES(n));                                                                       \
        if (first) {                                                                               \
            chef_gpu_block_record r;                                                               \
            r.start_ns = start;                                                                    \
            r.end_ns = chef_globaltimer();                                                         \
            r.smid = chef_smid();                                                                  \
            r.pad = 0;                                                                             \
            chef_trace[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = r;        \
        }                                                                                          \
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
