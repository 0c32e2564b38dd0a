/* team-forgotten - a typical wrong version of this exercise: the loop starts at threadIdx.x: both teams walk the same elements.
   Expected diagnosis: missing-team. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int step = gridDim.x * blockDim.x; /* every cook of the grid */
    for (int i = threadIdx.x; i < n; i += step)
        b[i] = sqrtf(a[i]);
}
