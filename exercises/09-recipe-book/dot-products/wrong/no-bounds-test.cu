/* no-bounds-test - a typical wrong version of this exercise: no bounds test: cooks past the edge read outside the matrices.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void matmul_coalesced(const float *A, const float *B, float *C, int n)
{
    /* My element of C: neighbouring cooks take neighbouring columns of one row. */
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    /* The teams at the right and bottom edges stick out past the matrix: those cooks stay idle. */
    {
        float sum = 0.0f;

        /* The dot product: n multiply-adds, along row `row` of A and down column `col` of B.
           Every number comes from the pantry for this one cook; cuBLAS's kernels keep them in the
           shared locker and in registers, so each serves many multiply-adds. */
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col];

        C[row * n + col] = sum;
    }
}
