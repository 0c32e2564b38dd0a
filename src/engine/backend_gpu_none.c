/*
 * backend_gpu_none.c - the GPU backend of a program built without CUDA (make CUDA=0, or no nvcc).
 */
#include <stdio.h>
#include <string.h>

#include "engine/backend.h"

/* Fills info about the GPU, or returns -1 with info->no_gpu_reason saying why there is none. */
int backend_gpu_probe(backend_info *info)
{
    memset(info, 0, sizeof *info);
    snprintf(info->no_gpu_reason, sizeof info->no_gpu_reason,
             "this cudachef was built without CUDA (make CUDA=0, or nvcc was not found)");
    snprintf(info->no_gpu_code, sizeof info->no_gpu_code, "%s", "built-without-cuda");
    return -1;
}

/* Opens each backend directly (used by backend_open). */
backend *backend_gpu_open(chef_error *err)
{
    chef_fail(err, CHEF_EXIT_ENVIRONMENT, "rebuild with nvcc installed (make CUDA=1), or use --backend emu",
              "no usable GPU: this cudachef was built without CUDA");
    return NULL;
}
