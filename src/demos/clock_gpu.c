/*
 * clock_gpu.c - the GPU half of the clock demo's part (c): what a timer reads when the program
 * stops it as soon as cudaLaunchKernel returns, after cudaDeviceSynchronize, and with CUDA events.
 *
 * cudaLaunchKernel only queues the launch and returns; the cooks start (and finish) later. The
 * backend (backend_gpu.c) always waits for a launch to finish, so this part calls the runtime
 * itself, on the same kernel table (kit/gpu_table.cu) and the same device buffers.
 */
#include <cuda_runtime_api.h>

#include "base/chef.h"
#include "demos/clock.h"
#include "kit/gpu_table.h"
#include "base/i18n.h"

/* Checks a CUDA call: on failure fills err with the call and the CUDA error and returns -1. */
#define CLOCK_CUDA(call, err)                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return chef_fail(err, CHEF_EXIT_CRASH, NULL, "%s failed: %s (%s, %s:%d)", #call,       \
                             cudaGetErrorString(e_), cudaGetErrorName(e_), __FILE__, __LINE__);    \
    } while (0)

/* Times launches three ways (see clock.h), one pair of events reused for every events launch. */
static int clock_gpu_time(const void *fn, dim3 g, dim3 b, void **args, int repeat, double *no_sync,
                          double *with_sync, double *events, cudaEvent_t start, cudaEvent_t stop, chef_error *err)
{
    for (int i = 0; i < repeat; i++) {
        /* an empty queue first, so that each launch is timed alone */
        CLOCK_CUDA(cudaDeviceSynchronize(), err);
        double t0 = chef_now_ms();
        CLOCK_CUDA(cudaLaunchKernel(fn, g, b, args, 0, 0), err);
        double t1 = chef_now_ms(); /* the mistake: the call has returned, the cooks are still cooking */
        CLOCK_CUDA(cudaGetLastError(), err);
        CLOCK_CUDA(cudaDeviceSynchronize(), err);
        double t2 = chef_now_ms(); /* now the cooks are done */
        no_sync[i] = t1 - t0;
        with_sync[i] = t2 - t0;
    }
    for (int i = 0; i < repeat; i++) {
        CLOCK_CUDA(cudaDeviceSynchronize(), err);
        CLOCK_CUDA(cudaEventRecord(start, 0), err);
        CLOCK_CUDA(cudaLaunchKernel(fn, g, b, args, 0, 0), err);
        CLOCK_CUDA(cudaGetLastError(), err);
        CLOCK_CUDA(cudaEventRecord(stop, 0), err);
        CLOCK_CUDA(cudaEventSynchronize(stop), err);
        float ms = 0;
        CLOCK_CUDA(cudaEventElapsedTime(&ms, start, stop), err);
        events[i] = ms;
    }
    return 0;
}

/* Launches kernel `repeat` times three ways and stores each launch's ms (see clock.h). */
int clock_gpu_stop_watch(const char *kernel, chef_dim3 grid, chef_dim3 block, void **args, int repeat,
                         double *no_sync, double *with_sync, double *events, chef_error *err)
{
    const struct gpu_kernel_row *row = gpu_kernel_find(kernel);
    const void *fn = row ? row->plain : NULL;
    if (!fn)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, _("kernel %s is not compiled into this program"), kernel);
    dim3 g = {grid.x, grid.y, grid.z}, b = {block.x, block.y, block.z};
    cudaEvent_t start, stop;
    CLOCK_CUDA(cudaEventCreate(&start), err);
    cudaError_t e = cudaEventCreate(&stop);
    if (e != cudaSuccess) {
        cudaEventDestroy(start);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cudaEventCreate failed: %s", cudaGetErrorString(e));
    }
    int rc = clock_gpu_time(fn, g, b, args, repeat, no_sync, with_sync, events, start, stop, err);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return rc;
}
