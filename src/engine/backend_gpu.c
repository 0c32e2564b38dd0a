/*
 * backend_gpu.c - an NVIDIA GPU as the backend, through the CUDA runtime API.
 *
 * Every CUDA call is checked (CHEF_CUDA); every launch is followed by cudaGetLastError and a
 * synchronisation so a failing kernel is reported where it happened. Times come from CUDA events
 * recorded around the work on the device's own clock. Any error or a count of zero from
 * cudaGetDeviceCount means "no GPU", and the emulator cooks instead. Kernels named "library_..."
 * call cuBLAS (library_gpu.c), timed the same way.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"

#include "kit/gpu_table.h"
#include "base/i18n.h"

/* One block's record as the traced wrapper writes it on the GPU. */
struct gpu_block_record {
    unsigned long long start_ns, end_ns;
    unsigned int smid, pad;
};

typedef struct gpu_state {
    cudaEvent_t start, stop;
} gpu_state;

/* Checks a CUDA call: on failure fills err with the call, the CUDA error and returns -1. */
#define CHEF_CUDA(call, err, code, hint)                                                           \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return chef_fail(err, code, hint, "%s failed: %s (%s, %s:%d)", #call,                 \
                             cudaGetErrorString(e_), cudaGetErrorName(e_), __FILE__, __LINE__);    \
    } while (0)

/* Fills info about the GPU, or returns -1 with info->no_gpu_reason saying why there is none. */
int backend_gpu_probe(backend_info *info)
{
    memset(info, 0, sizeof *info);
    info->cuda_built = 1;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        const char *why = e == cudaErrorInsufficientDriver ? _("no NVIDIA driver is loaded (or it is older than this CUDA runtime)")
                          : e == cudaErrorNoDevice || count == 0 ? _("the NVIDIA driver reports no GPU")
                                                                 : cudaGetErrorString(e);
        snprintf(info->no_gpu_reason, sizeof info->no_gpu_reason, "%s", why);
        snprintf(info->no_gpu_code, sizeof info->no_gpu_code, "%s",
                 e == cudaErrorInsufficientDriver ? "no-driver"
                 : e == cudaErrorNoDevice || count == 0 ? "no-device"
                                                        : "cuda-error");
        cudaGetLastError();
        return -1;
    }
    struct cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) {
        snprintf(info->no_gpu_reason, sizeof info->no_gpu_reason, _("cannot read the GPU's properties: %s"),
                 cudaGetErrorString(e));
        snprintf(info->no_gpu_code, sizeof info->no_gpu_code, "%s", "no-properties");
        return -1;
    }
    info->kind = BACKEND_GPU;
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->sm_count = p.multiProcessorCount;
    info->warp_size = p.warpSize;
    info->max_threads_per_block = p.maxThreadsPerBlock;
    info->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    for (int i = 0; i < 3; i++) {
        info->max_block_dim[i] = p.maxThreadsDim[i];
        info->max_grid_dim[i] = p.maxGridSize[i];
    }
    info->shared_per_block = p.sharedMemPerBlock;
    info->shared_per_sm = p.sharedMemPerMultiprocessor;
    info->memory_total = p.totalGlobalMem;
    info->memory_bus_bits = p.memoryBusWidth;
    info->l2_bytes = (size_t)p.l2CacheSize;
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0) == cudaSuccess)
        info->clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0) == cudaSuccess)
        info->memory_clock_khz = v;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
        info->memory_free = free_b;
    return 0;
}

static int gpu_device_alloc(backend *b, void **ptr, size_t bytes, const char *label, size_t elem_size,
                            chef_error *err)
{
    (void)b;
    (void)elem_size;
    cudaError_t e = cudaMalloc(ptr, bytes);
    if (e != cudaSuccess) {
        cudaGetLastError();
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        char need[32], have[32];
        chef_format_bytes((double)bytes, need, sizeof need);
        chef_format_bytes((double)free_b, have, sizeof have);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use a smaller --n",
                         "device buffer %s needs %s but the GPU has %s free (%s)", label, need, have,
                         cudaGetErrorString(e));
    }
    return 0;
}

/* Releases device memory (cudaFree). */
static void gpu_device_free(backend *b, void *ptr)
{
    (void)b;
    if (ptr)
        cudaFree(ptr);
}

/* Pageable host memory is plain malloc; pinned (page-locked) memory comes from cudaMallocHost. */
static int gpu_host_alloc(backend *b, void **ptr, size_t bytes, int pinned, chef_error *err)
{
    (void)b;
    if (pinned) {
        CHEF_CUDA(cudaMallocHost(ptr, bytes), err, CHEF_EXIT_ENVIRONMENT,
                  "pinned memory is limited: try without --pinned or a smaller --n");
        return 0;
    }
    *ptr = malloc(bytes);
    if (!*ptr)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use a smaller --n", "out of host memory");
    return 0;
}

/* Releases host memory, pinned or pageable. */
static void gpu_host_free(backend *b, void *ptr, int pinned)
{
    (void)b;
    if (pinned)
        cudaFreeHost(ptr);
    else
        free(ptr);
}

/* Ships bytes with cudaMemcpy (host to device, device to host, or device to device), timed by
   events around it. */
static int gpu_copy(backend *b, void *dst, const void *src, size_t bytes, copy_direction dir, double *ms,
                    chef_error *err)
{
    gpu_state *s = b->state;
    enum cudaMemcpyKind kind = dir == COPY_TO_DEVICE ? cudaMemcpyHostToDevice
                             : dir == COPY_TO_HOST   ? cudaMemcpyDeviceToHost
                                                     : cudaMemcpyDeviceToDevice;
    CHEF_CUDA(cudaEventRecord(s->start, 0), err, CHEF_EXIT_ENVIRONMENT, NULL);
    CHEF_CUDA(cudaMemcpy(dst, src, bytes, kind), err, CHEF_EXIT_ENVIRONMENT, NULL);
    CHEF_CUDA(cudaEventRecord(s->stop, 0), err, CHEF_EXIT_ENVIRONMENT, NULL);
    CHEF_CUDA(cudaEventSynchronize(s->stop), err, CHEF_EXIT_ENVIRONMENT, NULL);
    float t = 0;
    CHEF_CUDA(cudaEventElapsedTime(&t, s->start, s->stop), err, CHEF_EXIT_ENVIRONMENT, NULL);
    if (ms)
        *ms = t;
    return 0;
}

#define GPU_MAX_TABLES 8
static const struct gpu_kernel_row *gpu_tables[GPU_MAX_TABLES] = {gpu_kernels};
static int gpu_ntables = 1;

/* Adds a table of rows to those gpu_kernel_find searches. */
int gpu_kernels_register(const struct gpu_kernel_row *rows)
{
    if (gpu_ntables == GPU_MAX_TABLES)
        return -1;
    gpu_tables[gpu_ntables++] = rows;
    return 0;
}

/* The row of the kernel called name, or NULL. */
const struct gpu_kernel_row *gpu_kernel_find(const char *name)
{
    for (int t = 0; t < gpu_ntables; t++)
        for (int i = 0; gpu_tables[t][i].name; i++)
            if (strcmp(gpu_tables[t][i].name, name) == 0)
                return &gpu_tables[t][i];
    return NULL;
}

/* Copies the GPU's block records into the trace, in start order, times from the first start. */
static int gpu_trace_collect(const struct gpu_block_record *dev, size_t nblocks, trace *t, chef_error *err)
{
    struct gpu_block_record *host = malloc(nblocks * sizeof *host);
    if (!host || trace_reserve_blocks(t, nblocks) != 0) {
        free(host);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "out of host memory for the trace");
    }
    trace_block *blocks = t->blocks;
    cudaError_t e = cudaMemcpy(host, dev, nblocks * sizeof *host, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(host);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "reading the trace back failed: %s",
                         cudaGetErrorString(e));
    }
    for (size_t i = 0; i < nblocks; i++) {
        if (host[i].end_ns < host[i].start_ns) /* the last cook finished before the first started */
            host[i].end_ns = host[i].start_ns;
        blocks[i].block = (uint32_t)i;
        blocks[i].station = host[i].smid;
        blocks[i].start_ns = host[i].start_ns;
        blocks[i].end_ns = host[i].end_ns;
    }
    free(host);
    t->nblocks = nblocks;
    t->from_gpu = 1;
    t->nthreads = 0;
    trace_normalize(t);
    return 0;
}

/* A library kernel (backend.h): cuBLAS's SGEMM between two CUDA events, like a kernel launch. */
static int gpu_library_launch(backend *b, const char *kernel, void **args, double *ms, chef_error *err)
{
    gpu_state *s = b->state;
    int tf32 = strcmp(kernel, BACKEND_LIBRARY_SGEMM_TF32) == 0;
    if (!tf32 && strcmp(kernel, BACKEND_LIBRARY_SGEMM) != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "library kernel %s is not known to this program", kernel);
    const float *A = *(float **)args[0], *B = *(float **)args[1];
    float *C = *(float **)args[2];
    int n = *(int *)args[3];
    /* loaded before the clock starts: the first load takes far longer than any multiply */
    if (library_gpu_load(err) != 0)
        return -1;
    CHEF_CUDA(cudaEventRecord(s->start, 0), err, CHEF_EXIT_ENVIRONMENT, NULL);
    if (library_gpu_sgemm(A, B, C, n, tf32, &b->info, err) != 0)
        return -1;
    CHEF_CUDA(cudaEventRecord(s->stop, 0), err, CHEF_EXIT_ENVIRONMENT, NULL);
    cudaError_t e = cudaEventSynchronize(s->stop);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return chef_fail(err, CHEF_EXIT_CRASH, "run it under compute-sanitizer to find the faulting access",
                         "cuBLAS's SGEMM (%s, n = %d) failed while running: %s (%s)", kernel, n,
                         cudaGetErrorString(e), cudaGetErrorName(e));
    float tm = 0;
    CHEF_CUDA(cudaEventElapsedTime(&tm, s->start, s->stop), err, CHEF_EXIT_ENVIRONMENT, NULL);
    if (ms)
        *ms = tm;
    return 0;
}

/* Launches a kernel by name between two CUDA events; with opt->trace, its traced version. */
static int gpu_launch(backend *b, const char *kernel, chef_dim3 grid, chef_dim3 block, void **args,
                      const launch_options *opt, double *ms, chef_error *err)
{
    gpu_state *s = b->state;
    if (backend_is_library(kernel))
        return gpu_library_launch(b, kernel, args, ms, err); /* no trace: the library's blocks are its own */
    const struct gpu_kernel_row *k = gpu_kernel_find(kernel);
    if (!k || !k->plain || !k->traced) /* cudachef-check's own rows name kernels but hold none */
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "kernel %s is not compiled into this program", kernel);
    dim3 g = {grid.x, grid.y, grid.z}, bl = {block.x, block.y, block.z};
    trace *t = opt ? opt->trace : NULL;
    size_t nblocks = (size_t)grid.x * grid.y * grid.z;
    struct gpu_block_record *dev_trace = NULL;
    void *targs[16];
    const void *fn = k->plain;
    void **launch_args = args;
    if (t) {
        CHEF_CUDA(cudaMalloc((void **)&dev_trace, nblocks * sizeof *dev_trace), err, CHEF_EXIT_ENVIRONMENT,
                  "the trace needs 24 bytes per block on the GPU: use a smaller --n");
        cudaError_t ze = cudaMemset(dev_trace, 0, nblocks * sizeof *dev_trace);
        if (ze != cudaSuccess) {
            cudaFree(dev_trace);
            return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cudaMemset of the trace failed: %s",
                             cudaGetErrorString(ze));
        }
        for (int i = 0; i < k->nparams && i < 15; i++)
            targs[i] = args[i];
        targs[k->nparams] = &dev_trace;
        fn = k->traced;
        launch_args = targs;
    }
    cudaError_t e;
    CHEF_CUDA(cudaEventRecord(s->start, 0), err, CHEF_EXIT_ENVIRONMENT, NULL);
    e = cudaLaunchKernel(fn, g, bl, launch_args, 0, 0);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess) {
        cudaFree(dev_trace);
        return chef_fail(err, e == cudaErrorInvalidConfiguration ? CHEF_EXIT_USAGE : CHEF_EXIT_CRASH,
                         "check the grid and block sizes against `cudachef info`",
                         "launching %s<<<(%u,%u,%u), (%u,%u,%u)>>> failed: %s", kernel, grid.x, grid.y,
                         grid.z, block.x, block.y, block.z, cudaGetErrorString(e));
    }
    CHEF_CUDA(cudaEventRecord(s->stop, 0), err, CHEF_EXIT_ENVIRONMENT, NULL);
    e = cudaEventSynchronize(s->stop);
    if (e != cudaSuccess) {
        cudaFree(dev_trace);
        return chef_fail(err, CHEF_EXIT_CRASH, "run it under compute-sanitizer to find the faulting access",
                         "kernel %s failed while running: %s", kernel, cudaGetErrorString(e));
    }
    float tm = 0;
    CHEF_CUDA(cudaEventElapsedTime(&tm, s->start, s->stop), err, CHEF_EXIT_ENVIRONMENT, NULL);
    if (ms)
        *ms = tm;
    if (t) {
        int rc = gpu_trace_collect(dev_trace, nblocks, t, err);
        cudaFree(dev_trace);
        return rc;
    }
    return 0;
}

/* The runtime's occupancy calculator on the kernel's traced build (the launch the kitchen replays):
   how many teams of block's cooks one SM holds at once, given the registers and static shared
   memory the compiler gave it (no dynamic shared memory); and the cooks an SM holds at most. */
static int gpu_occupancy(backend *b, const char *kernel, chef_dim3 block, int *teams_per_station,
                         int *cooks_per_station, chef_error *err)
{
    if (backend_is_library(kernel))
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s picks its own launch: it has no teams to count", kernel);
    const struct gpu_kernel_row *k = gpu_kernel_find(kernel);
    if (!k)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "kernel %s is not compiled into this program", kernel);
    int teams = 0;
    CHEF_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&teams, k->traced, (int)(block.x * block.y * block.z), 0),
              err, CHEF_EXIT_ENVIRONMENT, NULL);
    *teams_per_station = teams;
    *cooks_per_station = b->info.max_threads_per_sm;
    return 0;
}

/* Destroys the timing events and frees the backend. */
static void gpu_close(backend *b)
{
    gpu_state *s = b->state;
    if (s) {
        cudaEventDestroy(s->start);
        cudaEventDestroy(s->stop);
        free(s);
    }
    free(b);
}

/* Opens each backend directly (used by backend_open). */
backend *backend_gpu_open(chef_error *err)
{
    backend_info info;
    if (backend_gpu_probe(&info) != 0) {
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, "use --backend emu (or auto) to cook on the CPU emulator",
                  "no usable GPU: %s", info.no_gpu_reason);
        return NULL;
    }
    backend *b = calloc(1, sizeof *b);
    gpu_state *s = calloc(1, sizeof *s);
    if (!b || !s || cudaEventCreate(&s->start) != cudaSuccess || cudaEventCreate(&s->stop) != cudaSuccess) {
        free(b);
        free(s);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "could not set up the GPU (events)");
        return NULL;
    }
    b->info = info;
    b->state = s;
    b->device_alloc = gpu_device_alloc;
    b->device_free = gpu_device_free;
    b->host_alloc = gpu_host_alloc;
    b->host_free = gpu_host_free;
    b->copy = gpu_copy;
    b->launch = gpu_launch;
    b->occupancy = gpu_occupancy;
    b->close = gpu_close;
    return b;
}
