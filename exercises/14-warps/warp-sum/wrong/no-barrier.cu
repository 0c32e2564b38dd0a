/* no-barrier - a typical wrong version of this exercise: no barrier before warp 0 reads the warp sums: some are not there yet.
   Expected diagnosis: read-unfilled. */
#include "kernel.h"

#define WARP_TEAM 256
#define FULL_MASK 0xffffffffu

/* The sum of the 32 values of a warp's cooks, in lane 0. */
__device__ float warp_sum(float v)
{
    /* each step folds the upper half of the lanes still counting onto the lower half */
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void sum_reduce_warp(const float *a, float *sum, int n)
{
    __shared__ float warp_sums[WARP_TEAM / 32];

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int lane = t % 32, warp = t / 32;

    float v = warp_sum(i < n ? a[i] : 0.0f);
    if (lane == 0)
        warp_sums[warp] = v;

    if (warp == 0) { /* the whole warp: every lane reaches the shuffles */
        v = warp_sum(lane < WARP_TEAM / 32 ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            atomicAdd(sum, v);
    }
}
