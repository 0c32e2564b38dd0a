/*
 * transpose_naive.cu - out = the transpose of in (n x n floats, row by row): out[c][r] = in[r][c].
 *
 * Kitchen view: a team of 32 x 32 cooks moves a 32 x 32 square of the matrix, one number per cook.
 * The 32 cooks of a warp (one threadIdx.y, threadIdx.x from 0 to 31) read 32 neighbouring numbers
 * of one row of in: one 128-byte line from the pantry. But they write them down a column of out,
 * n floats apart: 32 separate lines, 32 trips for what could have been one (lesson 5's lesson, on
 * the writing side). `cudachef run transpose-naive` counts the sectors.
 */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* neighbouring cooks: neighbouring columns of in */
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col]; /* @mark strided-write */
}
