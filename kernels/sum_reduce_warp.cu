/*
 * sum_reduce_warp.cu - the sum of n numbers, each warp adding its 32 values by passing them along
 * the warp (__shfl_down_sync), without the shared locker or a barrier for that part.
 *
 * Kitchen view: the 32 cooks of a warp stand in a row and can pass a number from their pockets
 * (registers) straight into a neighbour's, all at once. In step 1 each cook takes the number of the cook 16
 * places further along and adds it to its own; then 8, 4, 2, 1. After five steps cook 0 of the warp
 * (lane 0) holds the warp's sum. Each warp's lane 0 puts its sum in the locker, one slot per warp;
 * after one barrier, warp 0 adds those 8 sums the same way, and its lane 0 takes the team's total
 * to the pot with one atomicAdd. Compare sum_reduce.cu: eight rounds in the locker, each behind a
 * barrier.
 *
 * The team must have exactly 256 cooks (8 warps) and *sum must be 0 before the launch.
 */
#include "kernel.h"

#define WARP_TEAM 256            /* cooks per team: 8 warps */
#define FULL_MASK 0xffffffffu    /* all 32 lanes of the warp take part */

/* The sum of the 32 values of a warp's cooks, in lane 0 (the other lanes hold partial sums). */
__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset); /* @mark shuffle */
    return v;
}

__global__ void sum_reduce_warp(const float *a, float *sum, int n)
{
    __shared__ float warp_sums[WARP_TEAM / 32]; /* one slot per warp */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int lane = t % 32, warp = t / 32;

    float v = warp_sum(i < n ? a[i] : 0.0f); /* idle cooks bring 0, and still take part */
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads(); /* every warp's sum is in the locker */

    if (warp == 0) { /* the whole of warp 0, so that every lane reaches the shuffles */
        v = warp_sum(lane < WARP_TEAM / 32 ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            atomicAdd(sum, v);
    }
}
