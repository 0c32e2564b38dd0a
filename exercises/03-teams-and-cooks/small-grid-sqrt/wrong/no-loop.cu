/* no-loop - a typical wrong version of this exercise: one element per cook: the 512 cooks leave everything past element 511.
   Expected diagnosis: grid-too-small. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int step = gridDim.x * blockDim.x; /* every cook of the grid */
    (void)step;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = sqrtf(a[i]);
}
