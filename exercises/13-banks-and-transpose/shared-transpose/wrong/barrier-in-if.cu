/* barrier-in-if - a typical wrong version of this exercise: the barrier sits inside the edge test: with n = 33 cooks past the edge never reach it.
   Expected diagnosis: divergent-barrier. */
#include "kernel.h"

#define TRANSPOSE_TILE 32

__global__ void transpose_shared(const float *in, float *out, int n)
{
    __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE];

    /* Bring: cook (x, y) copies in[row][col] of the team's square into tile[y][x]. */
    int col = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int row = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        tile[threadIdx.y][threadIdx.x] = in[row * n + col];
    if (row < n && col < n)
        __syncthreads();

    /* Write: the team's square goes to the mirrored place, teams (bx, by) to (by, bx); cook (x, y)
       writes out[row][col] of that square, which is tile[x][y]: a column of the locker. */
    col = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
    row = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        out[row * n + col] = tile[threadIdx.x][threadIdx.y];
}
