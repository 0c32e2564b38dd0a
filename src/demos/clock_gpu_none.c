/*
 * clock_gpu_none.c - the GPU half of the clock demo in a program built without CUDA: never reached
 * (without CUDA the emulator always cooks), but it says so if it ever is.
 */
#include "demos/clock.h"
#include "base/i18n.h"

/* Without CUDA there is no launch to time on a GPU. */
int clock_gpu_stop_watch(const char *kernel, chef_dim3 grid, chef_dim3 block, void **args, int repeat,
                         double *no_sync, double *with_sync, double *events, chef_error *err)
{
    (void)kernel;
    (void)grid;
    (void)block;
    (void)args;
    (void)repeat;
    (void)no_sync;
    (void)with_sync;
    (void)events;
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("rebuild with nvcc installed (make CUDA=1)"),
                     _("this cudachef was built without CUDA"));
}
