/* team-forgotten - a typical wrong version of this exercise: the start forgets the team: every team walks the same elements.
   Expected diagnosis: missing-team. */
#include "kernel.h"

__global__ void vector_add_grid_stride(const float *a, const float *b, float *c, int n)
{
    /* The kitchen's size: every cook of every team. */
    int stride = gridDim.x * blockDim.x;

    /* Start at my own element, then jump over the whole kitchen each round. Neighbouring cooks
       still take neighbouring elements in every round, and the test i < n is the bounds check. */
    for (int i = threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}
