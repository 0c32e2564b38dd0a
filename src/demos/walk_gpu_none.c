/*
 * walk_gpu_none.c - the GPU walk in a program built without CUDA: never reached (without CUDA no
 * GPU is ever found, and the walk goes through the emulator), but it says so if it ever is.
 */
#include "base/i18n.h"
#include "demos/walk.h"

/* Without CUDA there is no runtime to walk through. */
int walk_gpu(walk_result *r, const demo_params *p)
{
    (void)p;
    chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, _("rebuild with nvcc installed (make CUDA=1)"),
              _("this cudachef was built without CUDA"));
    return CHEF_EXIT_ENVIRONMENT;
}
