/*
 * managed_gpu_none.c - the GPU half of the managed demo in a program built without CUDA: never
 * reached (without CUDA the emulator always cooks, and the demo asks the GPU half nothing), but it
 * says so if it ever is.
 */
#include <string.h>

#include "base/i18n.h"
#include "demos/managed.h"

/* Without CUDA nothing can be asked or moved: every call fails with the same reason. */
static int managed_gpu_none(chef_error *err)
{
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("rebuild with nvcc installed (make CUDA=1)"),
                     _("this cudachef was built without CUDA"));
}

/* Without CUDA there is no device to ask. */
int managed_gpu_support(managed_support *s, chef_error *err)
{
    memset(s, 0, sizeof *s);
    return managed_gpu_none(err);
}

/* Without CUDA there is no managed memory. */
int managed_gpu_alloc(void **ptr, size_t bytes, chef_error *err)
{
    (void)bytes;
    *ptr = NULL;
    return managed_gpu_none(err);
}

/* Nothing was allocated, so nothing is freed. */
int managed_gpu_free(void *ptr, chef_error *err)
{
    (void)ptr;
    (void)err;
    return 0;
}

/* Without CUDA nothing moves. */
int managed_gpu_prefetch(void *const *ptrs, const size_t *bytes, int count, int to_device, int device, double *ms,
                         chef_error *err)
{
    (void)ptrs;
    (void)bytes;
    (void)count;
    (void)to_device;
    (void)device;
    (void)ms;
    return managed_gpu_none(err);
}
