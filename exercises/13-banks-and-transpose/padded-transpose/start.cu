/*
 * padded-transpose.cu - your exercise for lesson 13: out = the transpose of in (n x n floats).
 *
 * This kernel is right, but each warp writes down a column of out: 32 scattered writes. Make it
 * turn each 32 x 32 square over inside the team's shared locker, so that both the reads of in and
 * the writes of out are coalesced, and lay the locker out so that reading a column of it has no
 * bank conflicts (the TODOs). `cudachef grade padded-transpose` checks the results, the first
 * warp's writes and the locker's bank conflicts, on n = 64, 33, 100 and 1.
 */
#include "kernel.h"

#define TRANSPOSE_TILE 32 /* the team is TRANSPOSE_TILE x TRANSPOSE_TILE cooks */

__global__ void transpose_padded(const float *in, float *out, int n)
{
    /* TODO 1: a __shared__ tile for the team's square; give each of its rows one extra float, so
       that the words of a column fall in 32 different banks. */

    int col = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int row = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;

    /* TODO 2: copy in[row][col] into the tile at [threadIdx.y][threadIdx.x] instead, then wait for
       the whole team (__syncthreads, outside any if). */
    /* TODO 3: write the mirrored square: column blockIdx.y * TRANSPOSE_TILE + threadIdx.x and row
       blockIdx.x * TRANSPOSE_TILE + threadIdx.y of out get tile[threadIdx.x][threadIdx.y]. */
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col];
}
