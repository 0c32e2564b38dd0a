/*
 * small-grid-sqrt.cu - the reference solution of lesson 3's third exercise.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int step = gridDim.x * blockDim.x; /* every cook of the grid */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        b[i] = sqrtf(a[i]);
}
