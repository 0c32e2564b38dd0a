/*
 * numba-saxpy.cu - your exercise for lesson 17: this Numba kernel, in CUDA C.
 *
 *     @cuda.jit
 *     def saxpy(x, y, out, a, n):
 *         for i in range(cuda.grid(1), n, cuda.gridsize(1)):
 *             out[i] = a * x[i] + y[i]
 *
 * Launched as saxpy[4, 256](x, y, out, a, n): 4 teams of 256 cooks, whatever n is. Lesson 17's
 * table gives each call's CUDA C (the TODO). `cudachef grade numba-saxpy` checks it with n = 1,
 * 1000, 5000 and 100000.
 */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    /* TODO: cuda.grid(1) and cuda.gridsize(1) in CUDA C, and the loop range(start, n, step). */
    int i = threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}
