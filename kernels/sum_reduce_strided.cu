/*
 * sum_reduce_strided.cu - the same sum as sum_reduce.cu, with the tournament's players picked the
 * other way: in round s the cooks at index = 2 * s * t add in their neighbour s slots away.
 *
 * Kitchen view: the same rounds, the same adds and barriers, but the slots each round touches are
 * spread out: in the first round cook t works on slots 2t and 2t + 1, in the next on 4t and 4t + 2,
 * and so on. The shared locker has 32 banks (a bank is every 32nd four-byte slot), and cooks of one
 * warp whose slots fall in the same bank wait for each other: two at a time in the first round,
 * four in the next, up to sixteen. These are bank conflicts: `cudachef run sum-reduce-strided` counts
 * them (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum) beside sum-reduce's zero. Whether
 * they make the kernel slower depends on what else it waits for: here every number first comes from
 * device memory, which is slower still (lesson 10 measures both).
 *
 * The team must have exactly TEAM cooks and *sum must be 0 before the launch, as for sum_reduce.
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

    for (int s = 1; s < STRIDED_TEAM; s *= 2) { /* @mark strided-tree */
        int index = 2 * s * t;                  /* the slot this cook adds into, if any */
        if (index < STRIDED_TEAM)
            slots[index] += slots[index + s];
        __syncthreads();
    }

    if (t == 0)
        atomicAdd(sum, slots[0]);
}
