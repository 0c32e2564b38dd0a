/* team-forgotten - a typical wrong version of this exercise: the index is the place in the team only: every team cooks elements 0 to 255.
   Expected diagnosis: missing-team. */
#include "kernel.h"

__global__ void vector_sin(const float *a, float *b, int n)
{
    int i = threadIdx.x;
    if (i < n)
        b[i] = sinf(a[i]); /* the float sine, as cp.sin on float32 arrays */
}
