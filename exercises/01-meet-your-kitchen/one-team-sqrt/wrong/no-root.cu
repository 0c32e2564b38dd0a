/* no-root - a typical wrong version of this exercise: the cook copies its number instead of taking its square root.
   Expected diagnosis: wrong-values. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = threadIdx.x;
    if (i < n)              /* with n < 256, the cooks past n have no number */
        b[i] = a[i]; /* my one small step */
}
