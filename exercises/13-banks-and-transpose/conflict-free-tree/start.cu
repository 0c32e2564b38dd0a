/*
 * conflict-free-tree.cu - your exercise for lesson 13: *sum = a[0] + ... + a[n-1], each team adding
 * its 256 numbers in a tree in the shared locker, with no bank conflicts.
 *
 * This kernel is right: in round s, cook t adds slot 2st + s into slot 2st. But the slots a warp
 * touches are 2s apart, so its 32 reads ask one bank for several words: bank conflicts in every
 * round. Rewrite the tournament (the TODO) so that, in every round, the cooks at work touch
 * neighbouring slots. `cudachef grade conflict-free-tree` checks the sum and counts the conflicts
 * (none may be left) with n = 1, 1000, 4096 and 100000.
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

    /* TODO: the same rounds with the players side by side: in each round, cooks 0 to half - 1 add
       the slot half places along into their own (half = 128, 64, ..., 1), then the team waits. */
    for (int s = 1; s < STRIDED_TEAM; s *= 2) {
        int index = 2 * s * t;
        if (index < STRIDED_TEAM)
            slots[index] += slots[index + s];
        __syncthreads();
    }

    if (t == 0)
        atomicAdd(sum, slots[0]);
}
