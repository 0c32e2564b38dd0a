/* every-lane-adds - a typical wrong version of this exercise: every lane adds the warp's count, not only lane 0: 32 times too many.
   Expected diagnosis: sum-wrong. */
#include "kernel.h"

#define FULL_MASK 0xffffffffu

__global__ void count_positive(const float *a, float *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int yes = i < n && a[i] > 0.0f;

    /* every lane of the warp reaches the vote: bit k of votes is lane k's answer */
    unsigned int votes = __ballot_sync(FULL_MASK, yes);
    atomicAdd(count, (float)__popc(votes)); /* one add per warp */
}
