/* less-or-equal - a typical wrong version of this exercise: i <= n: the loop takes one element past the end.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int step = gridDim.x * blockDim.x; /* every cook of the grid */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += step)
        b[i] = sqrtf(a[i]);
}
