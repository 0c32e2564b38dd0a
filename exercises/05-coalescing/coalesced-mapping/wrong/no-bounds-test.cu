/* no-bounds-test - a typical wrong version of this exercise: no bounds test: with n = 100 cooks past the edge touch memory outside the matrices.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void matmul_coalesced(const float *A, const float *B, float *C, int n)
{
    /* The column from x, the row from y: neighbouring cooks take neighbouring columns of one row. */
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    /* The teams at the right and bottom edges stick out past the matrix: those cooks stay idle. */
    {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col]; /* along row `row` of A, down column `col` of B */
        C[row * n + col] = sum; /* cook x + 1 writes C[row][col + 1]: the very next float */
    }
}
