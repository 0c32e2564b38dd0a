/*
 * conflict-free-tree.cu - the reference solution of lesson 13's second exercise.
 */
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
        if (t < half)
            slots[t] += slots[t + half];
        __syncthreads(); /* outside the if: every cook of the team reaches it */
    }

    if (t == 0)
        atomicAdd(sum, slots[0]);
}
