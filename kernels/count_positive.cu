/*
 * count_positive.cu - how many of n numbers are above 0, each warp voting with __ballot_sync.
 *
 * Kitchen view: every cook looks at its number and raises a hand if it is positive. The warp takes
 * a vote: __ballot_sync gives every cook the same 32-bit word, bit k set when lane k raised its
 * hand. __popc counts the set bits, so lane 0 knows the warp's count at once and adds it to the pot:
 * one atomicAdd per warp instead of one per positive number. Cooks past the end vote no; none
 * returns early, so every lane of the mask reaches the vote.
 *
 * The team must be a whole number of warps and *count must be 0 before the launch.
 */
#include "kernel.h"

__global__ void count_positive(const float *a, float *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int yes = i < n && a[i] > 0.0f;
    unsigned int votes = __ballot_sync(0xffffffffu, yes); /* @mark ballot */
    if (threadIdx.x % 32 == 0)
        atomicAdd(count, (float)__popc(votes)); /* @mark popc */
}
