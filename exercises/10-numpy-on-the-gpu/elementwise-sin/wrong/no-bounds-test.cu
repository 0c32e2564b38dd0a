/* no-bounds-test - a typical wrong version of this exercise: no bounds test: the last team's extra cooks read and write past the arrays.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_sin(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
        b[i] = sinf(a[i]); /* the float sine, as cp.sin on float32 arrays */
}
