/* barrier-in-if - a typical wrong version of this exercise: the barrier is inside if (t < half): the other cooks never reach it.
   Expected diagnosis: divergent-barrier. */
#include "kernel.h"

#define STRIDED_TEAM 256

__global__ void sum_reduce_strided(const float *a, float *sum, int n)
{
    __shared__ float slots[STRIDED_TEAM];

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    slots[t] = i < n ? a[i] : 0.0f;
    __syncthreads();

    /* The players side by side: in a round, cooks 0 .. half - 1 read slots t and t + half. A warp's
       32 reads are 32 neighbouring words, one per bank: one pass, no conflict. */
    for (int half = STRIDED_TEAM / 2; half > 0; half /= 2) {
        if (t < half) {
            slots[t] += slots[t + half];
            __syncthreads();
        }
    }

    if (t == 0)
        atomicAdd(sum, slots[0]);
}
