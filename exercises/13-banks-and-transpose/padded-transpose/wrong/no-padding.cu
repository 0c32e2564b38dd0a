/* no-padding - a typical wrong version of this exercise: the tile has 32 columns: reading a column of it is a 32-way bank conflict.
   Expected diagnosis: bank-conflicts. */
#include "kernel.h"

#define TRANSPOSE_TILE 32

__global__ void transpose_padded(const float *in, float *out, int n)
{
    /* One extra float a row: tile[k][y] is word 33k + y, in bank (k + y) % 32, so the 32 words of a
       column sit in 32 different banks. */
    __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE];

    /* Bring: a warp reads 32 neighbouring floats of a row of in (coalesced). */
    int col = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int row = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        tile[threadIdx.y][threadIdx.x] = in[row * n + col];

    __syncthreads(); /* every cook, also those past the edge: the square is complete */

    /* Write the mirrored square: a warp writes 32 neighbouring floats of a row of out (coalesced),
       reading a column of the tile (no conflicts, thanks to the padding). */
    col = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
    row = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
    if (row < n && col < n)
        out[row * n + col] = tile[threadIdx.x][threadIdx.y];
}
