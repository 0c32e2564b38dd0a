/* team-forgotten - a typical wrong version of this exercise: the index is the place in the team only: every team cooks elements 0 to 255.
   Expected diagnosis: missing-team. */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    /* My team's first element (team number x cooks per team) plus my place in the team. */
    int i = threadIdx.x;

    /* Not needed when n is a multiple of the team size, but safe for any n. */
    if (i < n) {
        b[i] = sqrtf(a[i]); /* my one step: the float square root */
    }
}
