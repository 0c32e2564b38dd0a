/*
 * global-index.cu - the reference solution of lesson 2's exercise.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    /* My team's first element (team number x cooks per team) plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* Not needed when n is a multiple of the team size, but safe for any n. */
    if (i < n) {
        b[i] = sqrtf(a[i]); /* my one step: the float square root */
    }
}
