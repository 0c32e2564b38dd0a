/*
 * elementwise-sin.cu - the reference solution of lesson 10's second exercise.
 */
#include "kernel.h"

__global__ void vector_sin(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = sinf(a[i]); /* the float sine, as cp.sin on float32 arrays */
}
