/* no-fill-barrier - a typical wrong version of this exercise: no barrier after filling the locker: the first round reads slots not yet filled.
   Expected diagnosis: read-unfilled. */
#include "kernel.h"

#define TEAM 256 /* cooks per team: the locker holds one number per cook */

__global__ void sum_reduce(const float *a, float *sum, int n)
{
    __shared__ float partial[TEAM]; /* the team's shared locker: one slot per cook */

    int t = threadIdx.x;                 /* my place in the team, and my slot */
    int i = blockIdx.x * blockDim.x + t; /* my element */
    partial[t] = i < n ? a[i] : 0.0f;    /* idle cooks bring 0, which changes no sum */

    /* The tournament: 128 players add in the other 128, then 64 add in 64, ..., then 1 adds in 1.
       After 8 rounds the team's total sits in partial[0]. */
    for (int stride = TEAM / 2; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        /* Outside the if: every cook must reach the same barrier, players or not. */
        __syncthreads();
    }

    /* One cook per team takes the team's total to the pot, with one indivisible add. */
    if (t == 0)
        atomicAdd(sum, partial[0]);
}
