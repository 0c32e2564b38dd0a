/*
 * transpose-index.cu - your exercise for lesson 4: out = the transpose of the n x n matrix in
 * (out[c][r] = in[r][c]), one element per cook, with teams of 32 x 32 cooks in a 2D grid.
 *
 * Each cook must find its element's row and column from its team and its place in the team, in
 * both directions (the TODOs). Matrices are stored row by row. `cudachef grade transpose-index`
 * checks it with n = 1, 20, 64 and 100.
 */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    /* TODO 1: the column from the x direction and the row from the y direction, each from the
       team's index, the team's size and the cook's place in the team. */
    int col = threadIdx.x;
    int row = threadIdx.y;
    /* TODO 2: element (row, col) of in goes to (col, row) of out. */
    if (row < n && col < n)
        out[row * n + col] = in[row * n + col];
}
