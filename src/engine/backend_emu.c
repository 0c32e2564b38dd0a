/*
 * backend_emu.c - the CPU emulator as a backend.
 *
 * Device memory is emu_malloc'd (guard pages), "shipping" is memcpy timed with the CPU clock,
 * and launches go to emu_launch. Every figure it reports is a CPU measurement, and reports say so.
 * Library kernels ("library_...", backend.h) call OpenBLAS on the CPU: cuBLAS needs a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "engine/blas.h"
#include "emu/emu.h"

/* Device memory between guard pages. */
static int emu_backend_device_alloc(backend *b, void **ptr, size_t bytes, const char *label,
                                    size_t elem_size, chef_error *err)
{
    (void)b;
    *ptr = emu_malloc(bytes, label, elem_size);
    if (!*ptr) {
        char need[32];
        chef_format_bytes((double)bytes, need, sizeof need);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use a smaller --n",
                         "the emulator could not allocate %s for device buffer %s", need, label);
    }
    return 0;
}

/* Releases a device buffer and its guard pages. */
static void emu_backend_device_free(backend *b, void *ptr)
{
    (void)b;
    emu_free(ptr);
}

/* Host memory; "pinned" has no meaning without a PCIe bus, so it is ordinary memory here. */
static int emu_backend_host_alloc(backend *b, void **ptr, size_t bytes, int pinned, chef_error *err)
{
    (void)b;
    (void)pinned;
    *ptr = malloc(bytes);
    if (!*ptr)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use a smaller --n", "out of host memory");
    return 0;
}

/* Releases host memory from emu_backend_host_alloc. */
static void emu_backend_host_free(backend *b, void *ptr, int pinned)
{
    (void)b;
    (void)pinned;
    free(ptr);
}

/* A shipment on the emulator is a memcpy between two places in RAM, whichever way it goes (the
   device's "own" memory is RAM too). */
static int emu_backend_copy(backend *b, void *dst, const void *src, size_t bytes, copy_direction dir,
                            double *ms, chef_error *err)
{
    (void)b;
    (void)dir;
    (void)err;
    double t0 = chef_now_ms();
    memcpy(dst, src, bytes);
    if (ms)
        *ms = chef_now_ms() - t0;
    return 0;
}

/* Maps an emulator fault to an exit code. */
static int emu_backend_fault_code(emu_status s)
{
    switch (s) {
    case EMU_FAULT_CONFIG:
        return CHEF_EXIT_USAGE;
    case EMU_FAULT_SYSTEM:
    case EMU_CANCELLED:
        return CHEF_EXIT_ENVIRONMENT;
    default:
        return CHEF_EXIT_CRASH;
    }
}

/* A library kernel (backend.h): cuBLAS needs a GPU, so OpenBLAS multiplies on the CPU instead,
   timed with the host clock. Both recipes run in FP32 here: a CPU has no TF32. */
static int emu_backend_library(const char *kernel, void **args, double *ms, chef_error *err)
{
    if (strcmp(kernel, BACKEND_LIBRARY_SGEMM) != 0 && strcmp(kernel, BACKEND_LIBRARY_SGEMM_TF32) != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "library kernel %s is not known to this program", kernel);
    const float *A = *(float **)args[0], *B = *(float **)args[1];
    float *C = *(float **)args[2];
    int n = *(int *)args[3];
    if (blas_load(err) != 0)
        return -1;
    double t0 = chef_now_ms();
    blas_sgemm(A, B, C, n);
    if (ms)
        *ms = chef_now_ms() - t0;
    return 0;
}

/* Launches a kernel on the emulator; a library kernel calls OpenBLAS. */
static int emu_backend_launch(backend *b, const char *kernel, chef_dim3 grid, chef_dim3 block,
                              void **args, const launch_options *opt, double *ms, chef_error *err)
{
    (void)b;
    if (backend_is_library(kernel))
        return emu_backend_library(kernel, args, ms, err); /* no trace: OpenBLAS has no teams */
    const emu_kernel *k = emu_kernel_find(kernel);
    if (!k)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "kernel %s is not compiled into this program",
                         kernel);
    emu_options eo = {0};
    if (opt) {
        eo.workers = opt->workers;
        eo.checked = opt->checked;
        eo.shuffle_seed = opt->shuffle_seed;
        eo.trace = opt->trace;
        eo.cancel = opt->cancel;
        eo.counters = opt->counters;
        eo.count_every = opt->count_every;
        eo.counted_only = opt->counted_only;
    }
    emu_dim3 g = {grid.x, grid.y, grid.z}, bl = {block.x, block.y, block.z};
    emu_fault fault;
    double t0 = chef_now_ms();
    emu_status s = emu_launch(k, g, bl, args, &eo, &fault);
    if (ms)
        *ms = chef_now_ms() - t0;
    if (s != EMU_OK) {
        const char *hint = s == EMU_FAULT_OUT_OF_BOUNDS ? "check the index and the bounds check (if (i < n))"
                           : s == EMU_FAULT_BARRIER ? "put __syncthreads() where every cook of the team reaches it"
                           : s == EMU_FAULT_WARP    ? "name in the mask only lanes that reach this same call"
                                                    : NULL;
        if (s == EMU_FAULT_OUT_OF_BOUNDS || s == EMU_FAULT_CRASH)
            chef_fail(err, emu_backend_fault_code(s), hint, "cook (thread) %u of team (block) %u %s",
                      fault.thread.x + fault.thread.y * block.x + fault.thread.z * block.x * block.y,
                      fault.block.x + fault.block.y * grid.x + fault.block.z * grid.x * grid.y, fault.message);
        else
            chef_fail(err, emu_backend_fault_code(s), hint, "%s", fault.message);
        if (err)
            err->cause = s == EMU_FAULT_OUT_OF_BOUNDS ? CHEF_CAUSE_OUT_OF_BOUNDS
                         : s == EMU_FAULT_BARRIER     ? CHEF_CAUSE_BARRIER
                         : s == EMU_FAULT_WARP        ? CHEF_CAUSE_WARP
                         : s == EMU_CANCELLED         ? CHEF_CAUSE_CANCELLED
                                                      : CHEF_CAUSE_NONE;
        return -1;
    }
    if (opt && opt->trace)
        trace_normalize(opt->trace);
    return 0;
}

/* The emulator's limit: a worker cooks one team at a time, whatever its size, so a station holds
   one team and that team's cooks. */
static int emu_backend_occupancy(backend *b, const char *kernel, chef_dim3 block, int *teams_per_station,
                                 int *cooks_per_station, chef_error *err)
{
    (void)b;
    if (backend_is_library(kernel))
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s picks its own launch: it has no teams to count", kernel);
    *teams_per_station = 1; /* whatever the kernel (a learner's whole program's is not compiled in here) */
    *cooks_per_station = (int)(block.x * block.y * block.z);
    return 0;
}

/* Frees the emulator backend. */
static void emu_backend_close(backend *b)
{
    free(b);
}

/* Opens the CPU emulator as the backend (always possible). */
backend *backend_emu_open(chef_error *err)
{
    backend *b = calloc(1, sizeof *b);
    if (!b) {
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "out of memory");
        return NULL;
    }
    b->info.kind = BACKEND_EMU;
    snprintf(b->info.name, sizeof b->info.name, "CPU emulator");
#ifdef CHEF_WITH_CUDA
    b->info.cuda_built = 1;
#endif
    b->info.workers = emu_default_workers();
    b->info.warp_size = 32;
    b->info.max_threads_per_block = EMU_MAX_THREADS_PER_BLOCK;
    b->info.max_block_dim[0] = 1024;
    b->info.max_block_dim[1] = 1024;
    b->info.max_block_dim[2] = 64;
    b->info.max_grid_dim[0] = 2147483647;
    b->info.max_grid_dim[1] = 65535;
    b->info.max_grid_dim[2] = 65535;
    b->info.memory_free = chef_host_memory_available();
    b->device_alloc = emu_backend_device_alloc;
    b->device_free = emu_backend_device_free;
    b->host_alloc = emu_backend_host_alloc;
    b->host_free = emu_backend_host_free;
    b->copy = emu_backend_copy;
    b->launch = emu_backend_launch;
    b->occupancy = emu_backend_occupancy;
    b->close = emu_backend_close;
    return b;
}
