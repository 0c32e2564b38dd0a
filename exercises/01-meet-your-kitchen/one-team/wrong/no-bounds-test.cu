/* no-bounds-test - a typical wrong version of this exercise: the bounds test is gone: with n = 1 the other 255 cooks read past the arrays.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    /* One team only: my place in the team is my element (cook 0 takes element 0, and so on). */
    int i = threadIdx.x;

    /* With fewer than 256 elements, the cooks past the end stay idle. */
    {
        c[i] = a[i] + b[i]; /* my one small step */
    }
}
