/*
 * scan_steps.cu - the running total (inclusive prefix sum) of each team's 256 numbers, in as few
 * steps as possible: out[i] = a[start] + ... + a[i], start being the team's first element.
 *
 * Kitchen view: 256 cooks stand in a row, each with one number on the locker's board. In step 1
 * every cook adds the number of the cook 1 place to its left; in step 2, 2 places; then 4, 8, ...,
 * 128. After 8 steps each cook holds the total of everyone up to itself. Every cook works in every
 * step: 8 steps, but 1,793 additions where a single cook would need 255. The board is
 * double: each step reads one half and writes the other, so no cook overwrites a number a
 * neighbour has yet to read (scan_work.cu does less work in more steps).
 *
 * The team must have exactly 256 cooks.
 */
#include "kernel.h"

#define SCAN_TEAM 256

__global__ void scan_steps(const float *a, float *out, int n)
{
    __shared__ float board[2][SCAN_TEAM]; /* @mark double-board */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    board[0][t] = i < n ? a[i] : 0.0f;
    __syncthreads();

    int from = 0; /* the half read in this step */
    for (int d = 1; d < SCAN_TEAM; d *= 2) {
        float v = board[from][t];
        if (t >= d)
            v += board[from][t - d]; /* @mark add-left */
        board[1 - from][t] = v;
        __syncthreads(); /* the whole step is written before the next reads it */
        from = 1 - from;
    }
    if (i < n)
        out[i] = board[from][t];
}
