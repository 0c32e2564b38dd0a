/* no-loop - a typical wrong version of this exercise: one element per cook, no loop: the 1024 cooks leave everything past element 1023.
   Expected diagnosis: grid-too-small. */
#include "kernel.h"

__global__ void vector_add_grid_stride(const float *a, const float *b, float *c, int n)
{
    /* The kitchen's size: every cook of every team. */
    int stride = gridDim.x * blockDim.x;

    /* Start at my own element, then jump over the whole kitchen each round. Neighbouring cooks
       still take neighbouring elements in every round, and the test i < n is the bounds check. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    (void)stride;
    if (i < n)
        c[i] = a[i] + b[i];
}
