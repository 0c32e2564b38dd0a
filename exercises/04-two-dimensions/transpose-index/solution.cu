/*
 * transpose-index.cu - the reference solution of lesson 4's second exercise.
 */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* x: along a row of in */
    int row = blockIdx.y * blockDim.y + threadIdx.y; /* y: down a column */
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col]; /* (row, col) of in is (col, row) of out */
}
