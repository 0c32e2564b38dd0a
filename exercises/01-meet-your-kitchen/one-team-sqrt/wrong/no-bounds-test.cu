/* no-bounds-test - a typical wrong version of this exercise: no bounds test: with n = 1 the other 255 cooks read past the arrays.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = threadIdx.x;
        b[i] = sqrtf(a[i]); /* my one small step */
}
