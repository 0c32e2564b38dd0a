/* not-packed - a typical wrong version of this exercise: a keeper writes its number where it was, out[i]: the kept numbers are not packed.
   Expected diagnosis: unwritten. */
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
    int place = (int)board[from][t] - keep;        /* keepers before me: my place */
    int kept = (int)board[from][SCAN_TEAM - 1];    /* keepers in the whole team */
    if (keep)
        out[i] = a[i];
    (void)place;
    if (t >= kept && i < n)
        out[i] = 0.0f;
}
