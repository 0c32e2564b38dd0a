/* early-return - a typical wrong version of this exercise: cooks past the end return before the vote: the last warp's other lanes wait for them.
   Expected diagnosis: lanes-missing. */
#include "kernel.h"

#define FULL_MASK 0xffffffffu

__global__ void count_positive(const float *a, float *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int yes = a[i] > 0.0f;

    /* every lane of the warp reaches the vote: bit k of votes is lane k's answer */
    unsigned int votes = __ballot_sync(FULL_MASK, yes);
    if (threadIdx.x % 32 == 0)
        atomicAdd(count, (float)__popc(votes)); /* one add per warp */
}
