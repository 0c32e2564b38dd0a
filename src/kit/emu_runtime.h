/*
 * emu_runtime.h - the CUDA runtime's host words for the C compiler (the CPU emulator's side), so
 * that a learner's host code (the five steps: cudaMalloc, the copies, the launch, the checks,
 * cudaFree) builds with nvcc as real CUDA and with the C compiler against the emulator.
 *
 * Included by kernel.h when a file is compiled as C. Each name is a macro onto a function emu_cuda_*
 * that the program running the code defines (src/engine/host_runtime.c): device memory between
 * guard pages, copies that check where their pointers are, launches on the emulator, errors as
 * CUDA reports them (the last error, sticky errors after a kernel fault), and faults planned by
 * the grader (docs/EMULATOR.md, "Host code"). The launch `kernel<<<grid, block>>>(args)` is not C:
 * the emulator's source pass (emu_prep.c) rewrites it into a call of emu_launch_KERNEL (made by
 * emu_table.c from the .def list), and `dim3 grid(x, y)` into `dim3 grid = EMU_DIM3(x, y)`.
 */
#ifndef CUDACHEF_EMU_RUNTIME_H
#define CUDACHEF_EMU_RUNTIME_H

#include <stddef.h>

/* The error codes, with CUDA's numbers. */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchFailure = 719,
    cudaErrorUnknown = 999
} cudaError_t;

/* Which way a copy goes. */
typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct emu_cuda_event *cudaEvent_t;

/* Streams, pinned and managed memory (host_runtime.c keeps each stream's queue: work runs, in
   stream order, when something waits for it). */
typedef struct emu_cuda_stream *cudaStream_t;
struct emu_cuda_stream; /* the default stream is 0 (CUDA's legacy default stream) */
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaCpuDeviceId ((int)-1)

/* A launch's configuration, as the rewritten <<<grid, block, shared, stream>>> gives it. */
typedef struct emu_cuda_config {
    unsigned grid[3], block[3];
    size_t shared;
    cudaStream_t stream;
} emu_cuda_config;

cudaError_t emu_cuda_malloc(void **ptr, size_t bytes);
cudaError_t emu_cuda_free(void *ptr);
cudaError_t emu_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t emu_cuda_memset(void *ptr, int value, size_t bytes);
cudaError_t emu_cuda_get_last_error(void);
cudaError_t emu_cuda_peek_at_last_error(void);
cudaError_t emu_cuda_device_synchronize(void);
const char *emu_cuda_error_string(cudaError_t error);
const char *emu_cuda_error_name(cudaError_t error);
cudaError_t emu_cuda_event_create(cudaEvent_t *event);
cudaError_t emu_cuda_event_record(cudaEvent_t event);
cudaError_t emu_cuda_event_synchronize(cudaEvent_t event);
cudaError_t emu_cuda_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t emu_cuda_event_destroy(cudaEvent_t event);
/* Launches the kernel registered as name with args packed as for cudaLaunchKernel, at once. */
cudaError_t emu_cuda_launch(const char *name, emu_cuda_config config, void **args);
/* The same, queued on the configuration's stream: the nargs arguments' values (sizes[i] bytes
   each) are kept until the launch runs. */
cudaError_t emu_cuda_launch_queued(const char *name, emu_cuda_config config, void **args, const size_t *sizes,
                                   int nargs);
cudaError_t emu_cuda_stream_create(cudaStream_t *stream, unsigned flags);
cudaError_t emu_cuda_stream_destroy(cudaStream_t stream);
cudaError_t emu_cuda_stream_synchronize(cudaStream_t stream);
cudaError_t emu_cuda_stream_query(cudaStream_t stream);
cudaError_t emu_cuda_memcpy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t emu_cuda_malloc_host(void **ptr, size_t bytes);
cudaError_t emu_cuda_free_host(void *ptr);
cudaError_t emu_cuda_malloc_managed(void **ptr, size_t bytes);
cudaError_t emu_cuda_mem_prefetch_async(const void *ptr, size_t bytes, struct cudaMemLocation location,
                                        unsigned flags, cudaStream_t stream);
cudaError_t emu_cuda_get_device(int *device);

#define cudaMalloc(ptr, bytes) emu_cuda_malloc((void **)(ptr), (bytes))
#define cudaFree(ptr) emu_cuda_free((void *)(ptr))
#define cudaMemcpy(dst, src, bytes, kind) emu_cuda_memcpy((dst), (src), (bytes), (kind))
#define cudaMemset(ptr, value, bytes) emu_cuda_memset((ptr), (value), (bytes))
#define cudaGetLastError() emu_cuda_get_last_error()
#define cudaPeekAtLastError() emu_cuda_peek_at_last_error()
#define cudaDeviceSynchronize() emu_cuda_device_synchronize()
#define cudaGetErrorString(error) emu_cuda_error_string(error)
#define cudaGetErrorName(error) emu_cuda_error_name(error)
#define cudaEventCreate(event) emu_cuda_event_create(event)
#define cudaEventRecord(event, ...) emu_cuda_event_record(event)
#define cudaEventSynchronize(event) emu_cuda_event_synchronize(event)
#define cudaEventElapsedTime(ms, start, stop) emu_cuda_event_elapsed_time((ms), (start), (stop))
#define cudaEventDestroy(event) emu_cuda_event_destroy(event)
#define cudaStreamCreate(stream) emu_cuda_stream_create((stream), cudaStreamDefault)
#define cudaStreamCreateWithFlags(stream, flags) emu_cuda_stream_create((stream), (flags))
#define cudaStreamDestroy(stream) emu_cuda_stream_destroy(stream)
#define cudaStreamSynchronize(stream) emu_cuda_stream_synchronize(stream)
#define cudaStreamQuery(stream) emu_cuda_stream_query(stream)
#define EMU_STREAM_ARG(...) EMU_SECOND(0 __VA_OPT__(, __VA_ARGS__), 0)
#define cudaMemcpyAsync(dst, src, bytes, kind, ...)                                                \
    emu_cuda_memcpy_async((dst), (src), (bytes), (kind), (cudaStream_t)(EMU_STREAM_ARG(__VA_ARGS__)))
#define cudaMallocHost(ptr, bytes) emu_cuda_malloc_host((void **)(ptr), (bytes))
#define cudaHostAlloc(ptr, bytes, flags) emu_cuda_malloc_host((void **)(ptr), (bytes))
#define cudaFreeHost(ptr) emu_cuda_free_host((void *)(ptr))
#define cudaMallocManaged(ptr, ...) emu_cuda_malloc_managed((void **)(ptr), EMU_FIRST(__VA_ARGS__, 0))
#define cudaMemPrefetchAsync(ptr, bytes, location, flags, ...)                                     \
    emu_cuda_mem_prefetch_async((ptr), (bytes), (location), (flags), (cudaStream_t)(EMU_STREAM_ARG(__VA_ARGS__)))
#define cudaGetDevice(device) emu_cuda_get_device(device)

/* dim3 as CUDA C++ constructs it: dim3(x), dim3(x, y), dim3(x, y, z); the source pass writes
   `dim3 grid(x, y);` as `dim3 grid = EMU_DIM3(x, y);`. */
static inline dim3 emu_dim3_xyz(unsigned x, unsigned y, unsigned z)
{
    dim3 d = {x, y, z};
    return d;
}
#define EMU_DIM3_ARGS(x, y, z, ...) (x), (y), (z)
#define EMU_DIM3(...) emu_dim3_xyz(EMU_DIM3_ARGS(__VA_ARGS__, 1, 1))

/* A launch's grid or block from a dim3 or a number. */
static inline dim3 emu_dim3_same(dim3 d)
{
    return d;
}
static inline dim3 emu_dim3_count(unsigned long long x)
{
    return emu_dim3_xyz((unsigned)x, 1, 1);
}
#define EMU_DIM3_OF(x) _Generic((x), dim3: emu_dim3_same, default: emu_dim3_count)(x)
static inline emu_cuda_config emu_cuda_config_make(dim3 grid, dim3 block, size_t shared, cudaStream_t stream)
{
    emu_cuda_config c = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared, stream};
    return c;
}
#define EMU_FIRST(a, ...) (a)
#define EMU_SECOND(a, b, ...) (b)
#define EMU_THIRD(a, b, c, ...) (c)
/* What the source pass writes for <<<grid, block>>> and <<<grid, block, shared[, stream]>>>. */
#define EMU_CONFIG(grid, block, ...)                                                               \
    emu_cuda_config_make(EMU_DIM3_OF(grid), EMU_DIM3_OF(block), (size_t)(0 __VA_OPT__(+EMU_FIRST(__VA_ARGS__, 0))), \
                         (cudaStream_t)(EMU_THIRD(0 __VA_OPT__(, __VA_ARGS__), 0, 0, 0)))

#endif
