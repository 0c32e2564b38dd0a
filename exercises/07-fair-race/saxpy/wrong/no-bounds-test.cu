/* no-bounds-test - a typical wrong version of this exercise: no bounds test: the last team's extra cooks touch memory past the arrays.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    /* My element: my team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* The idle cooks of the last team do nothing. a came with the launch: no array, no index. */
    if (1)
        out[i] = a * x[i] + y[i];
}
