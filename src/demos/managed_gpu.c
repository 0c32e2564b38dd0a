/*
 * managed_gpu.c - the GPU half of the managed demo: what the device says about managed memory,
 * cudaMallocManaged and cudaFree, and cudaMemPrefetchAsync timed by CUDA events (see managed.h).
 *
 * Launches and explicit copies go through the backend (backend_gpu.c), which takes any pointer the
 * runtime accepts, managed ones included; only what the backend has no call for lives here.
 * CUDA 13 gives cudaMemPrefetchAsync a struct cudaMemLocation (a device, or the host); CUDA 12 and
 * older named the destination by a device number, cudaCpuDeviceId for the host: both are written out.
 */
#include <cuda_runtime_api.h>
#include <string.h>

#include "base/i18n.h"
#include "demos/managed.h"

/* Checks a CUDA call: 0 on success, else -1 with err naming the call and the error. */
static int managed_gpu_check(cudaError_t e, const char *call, int code, const char *hint, chef_error *err)
{
    if (e == cudaSuccess)
        return 0;
    return chef_fail(err, code, hint, "%s failed: %s (%s)", call, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* Asks the current device its three managed-memory attributes. */
int managed_gpu_support(managed_support *s, chef_error *err)
{
    memset(s, 0, sizeof *s);
    int dev = 0;
    if (managed_gpu_check(cudaGetDevice(&dev), "cudaGetDevice(&device)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0 ||
        managed_gpu_check(cudaDeviceGetAttribute(&s->managed_memory, cudaDevAttrManagedMemory, dev),
                          "cudaDeviceGetAttribute(cudaDevAttrManagedMemory)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0 ||
        managed_gpu_check(cudaDeviceGetAttribute(&s->concurrent_access, cudaDevAttrConcurrentManagedAccess, dev),
                          "cudaDeviceGetAttribute(cudaDevAttrConcurrentManagedAccess)", CHEF_EXIT_ENVIRONMENT, NULL,
                          err) != 0 ||
        managed_gpu_check(cudaDeviceGetAttribute(&s->pageable_access, cudaDevAttrPageableMemoryAccess, dev),
                          "cudaDeviceGetAttribute(cudaDevAttrPageableMemoryAccess)", CHEF_EXIT_ENVIRONMENT, NULL,
                          err) != 0)
        return -1;
    s->device = dev;
    s->asked = 1;
    return 0;
}

/* cudaMallocManaged: one pointer, valid for the head chef and for the cooks. */
int managed_gpu_alloc(void **ptr, size_t bytes, chef_error *err)
{
    *ptr = NULL;
    return managed_gpu_check(cudaMallocManaged(ptr, bytes, cudaMemAttachGlobal),
                             "cudaMallocManaged(&ptr, bytes, cudaMemAttachGlobal)", CHEF_EXIT_ENVIRONMENT,
                             _("use a smaller --n"), err);
}

/* cudaFree of managed memory. */
int managed_gpu_free(void *ptr, chef_error *err)
{
    return managed_gpu_check(cudaFree(ptr), "cudaFree(managed)", CHEF_EXIT_ENVIRONMENT, NULL, err);
}

/* Queues one prefetch on the default stream, in the installed CUDA's words. */
static cudaError_t managed_gpu_prefetch_one(void *ptr, size_t bytes, int to_device, int device)
{
#if CUDART_VERSION >= 13000
    struct cudaMemLocation where;
    memset(&where, 0, sizeof where);
    where.type = to_device ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
    where.id = to_device ? device : 0; /* the id is ignored for the host */
    return cudaMemPrefetchAsync(ptr, bytes, where, 0, 0);
#else
    return cudaMemPrefetchAsync(ptr, bytes, to_device ? device : cudaCpuDeviceId, 0);
#endif
}

/* Records start, queues the prefetches, records stop and waits for it. */
static int managed_gpu_prefetch_timed(void *const *ptrs, const size_t *bytes, int count, int to_device, int device,
                                      cudaEvent_t start, cudaEvent_t stop, double *ms, chef_error *err)
{
    if (managed_gpu_check(cudaEventRecord(start, 0), "cudaEventRecord(start)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0)
        return -1;
    for (int i = 0; i < count; i++)
        if (managed_gpu_check(managed_gpu_prefetch_one(ptrs[i], bytes[i], to_device, device),
                              to_device ? "cudaMemPrefetchAsync(ptr, bytes, {device}, 0, 0)"
                                        : "cudaMemPrefetchAsync(ptr, bytes, {host}, 0, 0)",
                              CHEF_EXIT_ENVIRONMENT, NULL, err) != 0)
            return -1;
    float t = 0;
    if (managed_gpu_check(cudaEventRecord(stop, 0), "cudaEventRecord(stop)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0 ||
        managed_gpu_check(cudaEventSynchronize(stop), "cudaEventSynchronize(stop)", CHEF_EXIT_CRASH, NULL, err) != 0 ||
        managed_gpu_check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime", CHEF_EXIT_ENVIRONMENT, NULL,
                          err) != 0)
        return -1;
    if (ms)
        *ms = t;
    return 0;
}

/* Moves count buffers to the device or to the host, timed by CUDA events (see managed.h). */
int managed_gpu_prefetch(void *const *ptrs, const size_t *bytes, int count, int to_device, int device, double *ms,
                         chef_error *err)
{
    cudaEvent_t start, stop;
    if (managed_gpu_check(cudaEventCreate(&start), "cudaEventCreate(&start)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0)
        return -1;
    if (managed_gpu_check(cudaEventCreate(&stop), "cudaEventCreate(&stop)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0) {
        cudaEventDestroy(start);
        return -1;
    }
    int rc = managed_gpu_prefetch_timed(ptrs, bytes, count, to_device, device, start, stop, ms, err);
    cudaError_t e1 = cudaEventDestroy(start), e2 = cudaEventDestroy(stop);
    if (rc == 0 && (managed_gpu_check(e1, "cudaEventDestroy(start)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0 ||
                    managed_gpu_check(e2, "cudaEventDestroy(stop)", CHEF_EXIT_ENVIRONMENT, NULL, err) != 0))
        return -1;
    return rc;
}
