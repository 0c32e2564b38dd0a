/*
 * shared-transpose.cu - your exercise for lesson 13: out = the transpose of in (n x n), through a
 * 32 x 32 tile in the team's shared locker, so that a warp both reads a row of in and writes a row
 * of out.
 *
 * This kernel is right but writes down a column of out. Turn the team's square over inside the
 * locker instead (the TODOs). `cudachef grade shared-transpose` checks the results and the first
 * warp's writes (at most two 128-byte segments) with n = 64, 33, 100 and 1. (The padding that also
 * removes the locker's bank conflicts is the next exercise, padded-transpose.)
 */
#include "kernel.h"

#define TRANSPOSE_TILE 32

__global__ void transpose_shared(const float *in, float *out, int n)
{
    /* TODO 1: a __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE] for the team's square. */
    int col = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int row = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    /* TODO 2: copy in[row][col] into tile[threadIdx.y][threadIdx.x] instead, then __syncthreads()
       (outside any if). TODO 3: write the mirrored square, a row of out per warp: column
       blockIdx.y * TRANSPOSE_TILE + threadIdx.x, row blockIdx.x * TRANSPOSE_TILE + threadIdx.y,
       from tile[threadIdx.x][threadIdx.y]. */
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col];
}
