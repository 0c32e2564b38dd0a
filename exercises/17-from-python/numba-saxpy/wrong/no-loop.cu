/* no-loop - a typical wrong version of this exercise: cuda.grid(1) but no loop: the 1024 cooks leave everything past element 1023.
   Expected diagnosis: grid-too-small. */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    int start = blockIdx.x * blockDim.x + threadIdx.x; /* cuda.grid(1) */
    int step = gridDim.x * blockDim.x;                 /* cuda.gridsize(1) */
    (void)step;
    int i = start;
    if (i < n)
        out[i] = a * x[i] + y[i];
}
