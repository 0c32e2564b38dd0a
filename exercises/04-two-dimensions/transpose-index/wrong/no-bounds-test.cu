/* no-bounds-test - a typical wrong version of this exercise: no bounds test: cooks past the edge read and write outside the matrices.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* x: along a row of in */
    int row = blockIdx.y * blockDim.y + threadIdx.y; /* y: down a column */
        out[col * n + row] = in[row * n + col]; /* (row, col) of in is (col, row) of out */
}
