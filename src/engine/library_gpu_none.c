/*
 * library_gpu_none.c - the GPU library of a program built without CUDA (make CUDA=0, or no nvcc).
 *
 * Without CUDA there is no GPU backend, so these are reached only by mistake; they say why.
 */
#include <stdio.h>

#include "engine/backend.h"
#include "base/i18n.h"

/* Loads cuBLAS at its first use (see backend.h): never, in this build. */
int library_gpu_load(chef_error *err)
{
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("rebuild with nvcc installed (make CUDA=1), or use --backend emu"),
                     _("cuBLAS needs a GPU, and this cudachef was built without CUDA"));
}

/* Queues C = A * B on the GPU (see backend.h): never, in this build. */
int library_gpu_sgemm(const float *A, const float *B, float *C, int n, int tf32, const backend_info *info,
                      chef_error *err)
{
    (void)A;
    (void)B;
    (void)C;
    (void)n;
    (void)tf32;
    (void)info;
    return library_gpu_load(err);
}

/* What cooks a library recipe on the GPU (see backend.h): nothing, in this build. */
const char *library_gpu_describe(int tf32, const backend_info *info)
{
    (void)tf32;
    (void)info;
    return _("cuBLAS needs a GPU, and this cudachef was built without CUDA");
}
