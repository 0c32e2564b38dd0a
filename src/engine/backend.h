/*
 * backend.h - who cooks: an NVIDIA GPU through the CUDA runtime, or cudachef's CPU emulator.
 *
 * The kitchen (kitchen.c) speaks only to this interface: allocate device memory, ship bytes each
 * way, launch a kernel by name (with arguments packed as for cudaLaunchKernel) and get back its
 * time and, on request, its trace. backend_open picks the backend (auto: the GPU when one works).
 */
#ifndef CUDACHEF_BACKEND_H
#define CUDACHEF_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/cancel.h"
#include "base/chef.h"
#include "base/counters.h"
#include "base/trace.h"

typedef enum backend_kind { BACKEND_AUTO = 0, BACKEND_GPU, BACKEND_EMU } backend_kind;

typedef struct chef_dim3 {
    unsigned x, y, z;
} chef_dim3;

/* What "meet your kitchen" shows. GPU fields are filled only for the GPU backend. */
typedef struct backend_info {
    backend_kind kind;
    char name[256];              /* "NVIDIA H200" or "CPU emulator" */
    int cuda_built;              /* 1 if this program was built with CUDA */
    char no_gpu_reason[512];     /* why the GPU was not used (empty if it was), for people */
    char no_gpu_code[32];        /* the same as a stable name: "no-driver", "no-device", "cuda-error",
                                    "no-properties", "built-without-cuda", "gpu-failed", "asked-for-emulator" */
    int workers;                 /* emulator worker threads (stations) */
    int cc_major, cc_minor;
    int sm_count, warp_size, max_threads_per_block;
    int max_block_dim[3], max_grid_dim[3];
    size_t shared_per_block, shared_per_sm;
    size_t memory_total, memory_free;
    int max_threads_per_sm;
    int driver_version, runtime_version;
    int clock_khz, memory_clock_khz, memory_bus_bits;
    size_t l2_bytes;
} backend_info;

/* Which way a copy goes: host to device (ship in), device to host (ship out), or from one device
   buffer to another (the device's own memory read and written: the bandwidth yardstick). */
typedef enum copy_direction { COPY_TO_DEVICE, COPY_TO_HOST, COPY_ON_DEVICE } copy_direction;

typedef struct launch_options {
    trace *trace;          /* NULL: no trace; else filled with per-block (and per-thread) records */
    int checked;           /* emulator: use the checked kernel build */
    uint64_t shuffle_seed; /* emulator: shuffled cook order between barriers */
    int workers;           /* emulator: worker threads, 0 = one per core */
    const chef_cancel *cancel; /* emulator: a stop asked here ends the launch between teams */
    counters *counters;    /* emulator, checked launches: each warp's accesses counted into it */
    uint32_t count_every;  /* emulator, with counters: count (in the checked build) every k-th team only */
    int counted_only;      /* emulator, with count_every: cook only the counted teams */
} launch_options;

typedef struct backend backend;
struct backend {
    backend_info info;
    int (*device_alloc)(backend *b, void **ptr, size_t bytes, const char *label, size_t elem_size,
                        chef_error *err);
    void (*device_free)(backend *b, void *ptr);
    int (*host_alloc)(backend *b, void **ptr, size_t bytes, int pinned, chef_error *err);
    void (*host_free)(backend *b, void *ptr, int pinned);
    int (*copy)(backend *b, void *dst, const void *src, size_t bytes, copy_direction dir, double *ms,
                chef_error *err);
    int (*launch)(backend *b, const char *kernel, chef_dim3 grid, chef_dim3 block, void **args,
                  const launch_options *opt, double *ms, chef_error *err);
    /* Optional (NULL: not known). The theoretical limit of teams of block's shape that one station
       holds at once for kernel, and the cooks one station holds at most. GPU: the runtime's
       occupancy calculator (cudaOccupancyMaxActiveBlocksPerMultiprocessor, no dynamic shared
       memory) on the traced build, the one the kitchen replays; cooks: maxThreadsPerMultiProcessor.
       Emulator: 1 team, of block's cooks (a worker cooks one team at a time). 0, or -1 with err
       (library kernels pick their own launch: they have no limit to give). */
    int (*occupancy)(backend *b, const char *kernel, chef_dim3 block, int *teams_per_station,
                     int *cooks_per_station, chef_error *err);
    void (*close)(backend *b);
    void *state;
};

/* Opens the backend asked for. AUTO takes the GPU when one works, else the emulator. */
backend *backend_open(backend_kind want, chef_error *err);

/* Closes and frees a backend. */
void backend_close(backend *b);

/* Fills info about the GPU, or returns -1 with info->no_gpu_reason saying why there is none. */
int backend_gpu_probe(backend_info *info);

/* Opens each backend directly (used by backend_open). */
backend *backend_gpu_open(chef_error *err);
backend *backend_emu_open(chef_error *err);

/* Parses "auto", "gpu" or "emu"; returns -1 for anything else. */
int backend_kind_parse(const char *text, backend_kind *out);

/* "gpu", "emu" or "auto". */
const char *backend_kind_name(backend_kind kind);

/*
 * Library kernels. A kernel whose name starts with "library_" is not in kernels/: launching it
 * calls a vendor library instead. The GPU backend calls NVIDIA's cuBLAS (library_gpu.c), the
 * emulator calls OpenBLAS on the CPU (blas.h). Both take the arguments of the matrix kernels,
 * (float *A, float *B, float *C, int n): C = A * B for n x n row-major matrices in device memory.
 * The grid and block are ignored (the library picks its own launch) and no trace is recorded.
 */
#define BACKEND_LIBRARY_PREFIX "library_"
#define BACKEND_LIBRARY_SGEMM "library_sgemm"           /* FP32 */
#define BACKEND_LIBRARY_SGEMM_TF32 "library_sgemm_tf32" /* TF32 where the GPU has it, else FP32 */

/* True when kernel names a library call rather than a kernel of kernels/. */
static inline int backend_is_library(const char *kernel)
{
    return strncmp(kernel, BACKEND_LIBRARY_PREFIX, sizeof BACKEND_LIBRARY_PREFIX - 1) == 0;
}

/* Loads cuBLAS at its first use (libcublas.so.13, else libcublas.so); 0, or -1 with err (exit 5)
   naming the library and why it could not be loaded. Later calls answer at once. */
int library_gpu_load(chef_error *err);

/* Queues C = A * B (n x n, row-major, device pointers) with cublasSgemm on the default stream,
   in TF32 when tf32 is set and the GPU has it (compute capability 8.0 or more), else in FP32.
   Returns 0, or -1 with err naming the cuBLAS status. The caller times and synchronizes. */
int library_gpu_sgemm(const float *A, const float *B, float *C, int n, int tf32, const backend_info *info,
                      chef_error *err);

/* What cooks the SGEMM (tf32: the TF32 recipe) on this GPU, for reports: "cuBLAS 13.1.0 SGEMM in
   TF32 on the tensor cores", or why it cannot. Loads cuBLAS if needed. */
const char *library_gpu_describe(int tf32, const backend_info *info);

#endif
