/* no-square-root - a typical wrong version of this exercise: the cook copies its element instead of taking its square root.
   Expected diagnosis: wrong-values. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    /* My team's first element (team number x cooks per team) plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* Not needed when n is a multiple of the team size, but safe for any n. */
    if (i < n) {
        b[i] = a[i]; /* my one step: the float square root */
    }
}
