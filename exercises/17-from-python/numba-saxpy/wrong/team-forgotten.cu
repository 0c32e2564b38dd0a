/* team-forgotten - a typical wrong version of this exercise: cuda.grid(1) taken as threadIdx.x: every team walks the same elements.
   Expected diagnosis: missing-team. */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    int start = threadIdx.x; /* cuda.grid(1) */
    int step = gridDim.x * blockDim.x;                 /* cuda.gridsize(1) */
    for (int i = start; i < n; i += step)              /* range(start, n, step) */
        out[i] = a * x[i] + y[i];
}
