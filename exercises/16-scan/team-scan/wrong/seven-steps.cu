/* seven-steps - a typical wrong version of this exercise: the steps stop at distance 64: the cooks past 128 miss the first half's numbers.
   Expected diagnosis: wrong-values. */
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
    for (int d = 1; d < SCAN_TEAM / 2; d *= 2) {
        float v = board[from][t];
        if (t >= d)
            v += board[from][t - d]; /* the total of the 2d numbers ending at me, after this step */
        board[1 - from][t] = v;      /* the other half: no neighbour still needs what I overwrite */
        __syncthreads();             /* the whole step is written before the next reads it */
        from = 1 - from;
    }
    if (i < n)
        out[i] = board[from][t];
}
