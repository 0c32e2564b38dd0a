/*
 * compaction.cu - your exercise for lesson 16: each team's positive numbers packed, in order, to
 * the front of its part of out, the rest of its part 0.
 *
 * The keep flags and their running totals are written (the steps of scan_steps.cu). What is
 * missing is using them (the TODO). `cudachef grade compaction` checks it with n = 1, 1000, 4096
 * and 100000, and on the emulator again with the cooks in shuffled orders.
 */
#include "kernel.h"

#define SCAN_TEAM 256

__global__ void compact_team(const float *a, float *out, int n)
{
    __shared__ float board[2][SCAN_TEAM];

    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;
    int keep = i < n && a[i] > 0.0f;
    board[0][t] = keep ? 1.0f : 0.0f;
    __syncthreads();

    int from = 0;
    for (int d = 1; d < SCAN_TEAM; d *= 2) {
        float v = board[from][t];
        if (t >= d)
            v += board[from][t - d];
        board[1 - from][t] = v;
        __syncthreads();
        from = 1 - from;
    }
    /* board[from][t] now holds how many keepers stand at or before me. TODO: my place in the packed
       list is the number of keepers before me; a keeper writes its number there (out[start +
       place]). The team's last total says how many were kept: the cooks from that place on, up to
       n, write 0, so that every place of the team's part is written once. */
}
