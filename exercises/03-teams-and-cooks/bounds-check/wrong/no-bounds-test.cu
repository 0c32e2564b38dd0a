/* no-bounds-test - a typical wrong version of this exercise: no bounds test: the last team's extra cooks read and write past the arrays.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    /* My team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* The last team may have more cooks than elements left: those cooks stay idle. */
    if (1)
        c[i] = a[i] + b[i];
}
