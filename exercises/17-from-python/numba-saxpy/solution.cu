/*
 * numba-saxpy.cu - the reference solution of lesson 17's exercise.
 */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    int start = blockIdx.x * blockDim.x + threadIdx.x; /* cuda.grid(1) */
    int step = gridDim.x * blockDim.x;                 /* cuda.gridsize(1) */
    for (int i = start; i < n; i += step)              /* range(start, n, step) */
        out[i] = a * x[i] + y[i];
}
