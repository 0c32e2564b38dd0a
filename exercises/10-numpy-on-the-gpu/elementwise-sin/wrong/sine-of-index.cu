/* sine-of-index - a typical wrong version of this exercise: the cook takes the sine of its index, sinf(i), not of its number.
   Expected diagnosis: wrong-values. */
#include "kernel.h"

__global__ void vector_sin(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = sinf((float)i); /* the float sine, as cp.sin on float32 arrays */
}
