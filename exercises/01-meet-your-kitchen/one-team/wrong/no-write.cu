/* no-write - a typical wrong version of this exercise: the sum is computed into a local and never written to c.
   Expected diagnosis: no-write. */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    /* One team only: my place in the team is my element (cook 0 takes element 0, and so on). */
    int i = threadIdx.x;

    /* With fewer than 256 elements, the cooks past the end stay idle. */
    if (i < n) {
        float sum = a[i] + b[i];
        (void)sum; /* my one small step */
    }
}
