/* no-scale - a typical wrong version of this exercise: a is forgotten: out = x + y.
   Expected diagnosis: wrong-values. */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    /* My element: my team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* The idle cooks of the last team do nothing. a came with the launch: no array, no index. */
    if (i < n)
        out[i] = x[i] + y[i];
}
