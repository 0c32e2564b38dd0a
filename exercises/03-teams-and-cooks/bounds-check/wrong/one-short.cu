/* one-short - a typical wrong version of this exercise: i < n - 1 leaves the last element uncooked (with n = 1, all of them).
   Expected diagnosis: bounds-test. */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    /* My team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* The last team may have more cooks than elements left: those cooks stay idle. */
    if (i < n - 1)
        c[i] = a[i] + b[i];
}
