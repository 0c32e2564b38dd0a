/*
 * wrong/head-chef-cooks.cu - WRONG: the head chef adds the numbers alone, in a loop on the CPU: the
 * results are right, but nothing is allocated, shipped or cooked in the kitchen (the five steps
 * are the exercise).
 */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int vector_add_host(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    return 0;
}
