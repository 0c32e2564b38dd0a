/* next-element - a typical wrong version of this exercise: the cook reads its neighbour a[i + 1]: the last cook reads past the array.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    /* My team's first element (team number x cooks per team) plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* Not needed when n is a multiple of the team size, but safe for any n. */
    if (i < n) {
        b[i] = sqrtf(a[i + 1]); /* my one step: the float square root */
    }
}
