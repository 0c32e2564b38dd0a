/* team-forgotten - a typical wrong version of this exercise: row and column from the place in the team only: every team does the first square.
   Expected diagnosis: shared-index. */
#include "kernel.h"

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int col = threadIdx.x; /* x: along a row of in */
    int row = threadIdx.y; /* y: down a column */
    if (row < n && col < n)
        out[col * n + row] = in[row * n + col]; /* (row, col) of in is (col, row) of out */
}
