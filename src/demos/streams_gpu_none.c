/*
 * streams_gpu_none.c - the GPU half of the streams demo in a program built without CUDA: never
 * reached (without CUDA the emulator always cooks, and its timeline is modeled), but it says so if
 * it ever is.
 */
#include "demos/streams.h"
#include "base/i18n.h"

/* Without CUDA there are no streams to issue the job in. */
int streams_gpu_run(const streams_job *job, timeline_op *ops, double *total_ms, double *host_ms, chef_error *err)
{
    (void)job;
    (void)ops;
    (void)total_ms;
    (void)host_ms;
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("rebuild with nvcc installed (make CUDA=1)"),
                     _("this cudachef was built without CUDA"));
}
