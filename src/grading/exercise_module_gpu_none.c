/*
 * exercise_module_gpu_none.c - stands in for exercise_module_gpu.c in a build without CUDA.
 */
#include "grading/exercise_check.h"

/* Without CUDA there is no GPU to load a learner's kernel on. */
int exercise_module_gpu_load(const char *path, const char *kernel, const char *recipe_name, chef_error *err)
{
    (void)path;
    (void)kernel;
    (void)recipe_name;
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("install nvcc and rebuild cudachef for GPU support"),
                     _("this cudachef was built without CUDA"));
}
