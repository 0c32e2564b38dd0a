/*
 * exercise_module_gpu.c - loads a learner's kernel built for the GPU (a fatbin, exercise_build.c)
 * with the runtime's library API and registers it for backend_gpu.c as "exercise:NAME".
 *
 * The fatbin holds the two kernels src/kit/gpu_table.cu makes of the learner's one: the plain
 * kernel (timed) and the traced wrapper (it records each team's station and times). Their names
 * are C++-mangled, so they are told apart by enumerating the library's kernels and asking each
 * one's name: the wrapper's ends in "_traced".
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading/exercise_check.h"
#include "kit/gpu_table.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"

/* Loads path and registers its kernels under "exercise:kernel" (with the parameters of the
   recipe's own kernel, whose signature the learner's has). */
int exercise_module_gpu_load(const char *path, const char *kernel, const char *recipe_name, chef_error *err)
{
    const recipe *rc = recipe_find(recipe_name);
    const struct gpu_kernel_row *own = rc ? gpu_kernel_find(rc->kernel) : NULL;
    if (!own)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "recipe %s has no GPU kernel", recipe_name);
    size_t size = 0;
    char *image = lesson_read_file(path, &size);
    if (!image)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot read %s", path);
    cudaLibrary_t lib;
    cudaError_t e = cudaLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0);
    if (e != cudaSuccess) {
        free(image);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cudaLibraryLoadData(%s): %s", path, cudaGetErrorString(e));
    }
    /* the image must stay while the library is loaded: it is kept until the process ends */
    unsigned int count = 0;
    cudaKernel_t found[8];
    if (cudaLibraryGetKernelCount(&count, lib) != cudaSuccess || count == 0 || count > 8 ||
        cudaLibraryEnumerateKernels(found, count, lib) != cudaSuccess)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s holds no kernels", path);
    static struct gpu_kernel_row rows[2];
    static char name[256];
    snprintf(name, sizeof name, "exercise:%s", kernel);
    rows[0].name = name;
    rows[0].nparams = own->nparams;
    for (unsigned int i = 0; i < count; i++) {
        const char *mangled = NULL;
        if (cudaFuncGetName(&mangled, (const void *)found[i]) != cudaSuccess || !mangled)
            continue;
        if (strstr(mangled, "_traced"))
            rows[0].traced = (const void *)found[i];
        else
            rows[0].plain = (const void *)found[i];
    }
    if (!rows[0].plain || !rows[0].traced)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s lacks the plain or the traced kernel", path);
    if (gpu_kernels_register(rows) != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "too many kernel tables");
    return 0;
}
