/* copies - a typical wrong version of this exercise: the element goes to the same place of out: a copy, not a transpose.
   Expected diagnosis: swapped-axes. */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* x: along a row of in */
    int row = blockIdx.y * blockDim.y + threadIdx.y; /* y: down a column */
    if (row < n && col < n)
        out[row * n + col] = in[row * n + col]; /* (row, col) of in is (col, row) of out */
}
