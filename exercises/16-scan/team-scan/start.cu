/*
 * team-scan.cu - your exercise for lesson 16: out[i] = the sum of the team's numbers up to i (an
 * inclusive scan of each team's 256 numbers).
 *
 * The numbers go onto the first half of the locker's double board, and each cook writes out what
 * the board holds at its place in the end. What is missing are the 8 steps (the TODO).
 * `cudachef grade team-scan` checks it with n = 1, 1000, 4096 and 100000, and on the emulator again
 * with the cooks in shuffled orders.
 */
#include "kernel.h"

#define SCAN_TEAM 256

__global__ void scan_steps(const float *a, float *out, int n)
{
    __shared__ float board[2][SCAN_TEAM]; /* two halves: each step reads one and writes the other */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    board[0][t] = i < n ? a[i] : 0.0f;
    __syncthreads();

    int from = 0; /* the half that holds the latest totals */
    /* TODO: for d = 1, 2, 4, ..., 128: each cook reads its own number on board[from] and, if there
       is one d places to its left (t >= d), adds that too; it writes the result at its place on the
       other half; the team waits for the whole step; then the halves swap (from = 1 - from). */
    if (i < n)
        out[i] = board[from][t];
}
