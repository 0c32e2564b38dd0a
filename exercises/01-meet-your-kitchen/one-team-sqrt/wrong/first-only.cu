/* first-only - a typical wrong version of this exercise: only cook 0 works: if (i == 0) instead of if (i < n).
   Expected diagnosis: unwritten. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = threadIdx.x;
    if (i == 0)              /* with n < 256, the cooks past n have no number */
        b[i] = sqrtf(a[i]); /* my one small step */
}
