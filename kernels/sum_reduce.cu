/*
 * sum_reduce.cu - *sum = a[0] + a[1] + ... + a[n-1]: many cooks, one result.
 *
 * Kitchen view: a sum is the opposite of vector add: every cook has a number, and they all must
 * end up in ONE place. Letting every cook add into *sum directly would make a million cooks queue
 * for one pot. So each team first adds up its own numbers in its shared locker, like a
 * tournament: in the first round cook i adds in the number of cook i + 128, then cook i + 64,
 * then 32, ..., 1, halving the players each round, with a barrier between rounds so nobody reads
 * a number before it is written. After log2(256) = 8 rounds the team's total sits in the locker's
 * first slot, and cook 0 adds it into *sum with one atomic add: one trip to the pot per team.
 *
 * The team must have exactly TEAM cooks (the locker holds one number per cook) and *sum must be 0
 * before the launch (the recipe ships a zero in before every launch).
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

#define TEAM 256

__global__ void sum_reduce(const float *a, float *sum, int n)
{
    __shared__ float partial[TEAM]; /* @mark shared-partial: one slot per cook of the team */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? a[i] : 0.0f; /* idle cooks bring 0, which changes no sum */
    __syncthreads();                  /* every slot filled before the first round */

    /* The tournament: each round the first half of the players adds in the second half. */
    for (int stride = TEAM / 2; stride > 0; stride /= 2) { /* @mark tree */
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads(); /* every cook, playing or not, waits for the round to end */
    }

    /* One cook per team takes the team's total to the pot. atomicAdd makes the read-add-write
       one indivisible step, so two teams adding at the same moment do not lose a number. */
    if (t == 0)
        atomicAdd(sum, partial[0]); /* @mark atomic-add */
}
