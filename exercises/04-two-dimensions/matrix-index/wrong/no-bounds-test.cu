/* no-bounds-test - a typical wrong version of this exercise: no bounds test: cooks past the matrix's edge read and write outside it.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
    /* My place in the whole grid, once per direction: the row from x, the column from y. */
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;

    /* The teams at the right and bottom edges stick out past the matrix: those cooks stay idle. */
    {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col]; /* along row `row` of A, down column `col` of B */
        C[row * n + col] = sum;                     /* matrices are stored row by row */
    }
}
