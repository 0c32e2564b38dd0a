/*
 * compact_team.cu - stream compaction within each team's 256 numbers: the positive ones packed to
 * the front of the team's part of out, in order, the rest of that part set to 0.
 *
 * Kitchen view: each cook asks "do I keep my number?" and writes 1 or 0 on the locker's board. A
 * running total of that board (scan_steps.cu's steps) tells every keeper how many keepers stand
 * before it: that is its place in the packed list. Keepers write their number there; the board's
 * last total says how many were kept, and the cooks from that place on write 0. Every place of
 * the team's part is written once. A whole array's compaction also scans the teams' counts, so
 * that each team knows where its part starts (libraries do it in a second pass).
 *
 * The team must have exactly 256 cooks.
 */
#include "kernel.h"

#define SCAN_TEAM 256

__global__ void compact_team(const float *a, float *out, int n)
{
    __shared__ float board[2][SCAN_TEAM];

    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;
    int keep = i < n && a[i] > 0.0f; /* @mark keep */
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
    int place = (int)board[from][t] - keep;        /* keepers before me: my place */
    int kept = (int)board[from][SCAN_TEAM - 1];    /* keepers in the whole team */
    if (keep)
        out[start + place] = a[i]; /* @mark scatter */
    if (t >= kept && i < n)
        out[i] = 0.0f;
}
