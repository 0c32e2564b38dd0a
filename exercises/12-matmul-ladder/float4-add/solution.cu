/*
 * float4-add.cu - the reference solution of lesson 12's second exercise.
 */
#include "kernel.h"

__global__ void vector_add_float4(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* my group of four */
    int first = i * 4;
    if (first + 3 < n) {
        float4 x = ((const float4 *)a)[i];
        float4 y = ((const float4 *)b)[i];
        ((float4 *)c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    } else {
        for (int k = first; k < n; k++)             /* the tail: fewer than four left */
            c[k] = a[k] + b[k];
    }
}
