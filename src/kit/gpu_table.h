/*
 * gpu_table.h - the table of kernels nvcc compiled (src/kit/gpu_table.cu), for the C files that
 * launch them on the GPU (backend_gpu.c, and the demos that time a launch themselves).
 */
#ifndef CUDACHEF_KIT_GPU_TABLE_H
#define CUDACHEF_KIT_GPU_TABLE_H

/* Where the CUDA toolkit cudachef was built with keeps its libraries (cuBLAS, NVRTC are opened
   from there when the system's search path does not have them). The Makefile sets it. */
#ifndef CHEF_CUDA_LIB_DIR
#define CHEF_CUDA_LIB_DIR "/usr/local/cuda/lib64"
#endif

/* One row: the kernel's name, its plain entry, its traced wrapper, its number of parameters. */
struct gpu_kernel_row {
    const char *name;
    const void *plain;
    const void *traced;
    int nparams;
};

/* The table compiled by nvcc, ending with a row whose name is NULL. */
extern const struct gpu_kernel_row gpu_kernels[];

/* Adds a table of rows (ending with a NULL name) to those gpu_kernel_find searches: a learner's
   exercise, loaded at run time (exercise_module_gpu.c). 0, or -1 when too many are registered. */
int gpu_kernels_register(const struct gpu_kernel_row *rows);

/* The row of the kernel called name, or NULL (defined in backend_gpu.c). */
const struct gpu_kernel_row *gpu_kernel_find(const char *name);

#endif
