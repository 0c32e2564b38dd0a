/*
 * coalesced-mapping.cu - your exercise for lesson 5: C = A * B for n x n matrices, with a warp's
 * writes side by side in memory.
 *
 * This kernel is lesson 4's naive one: the results are right, but the row comes from x. The 32
 * cooks of a warp differ mostly in threadIdx.x, so here they walk DOWN a column of C, and their
 * writes land n floats apart, in up to 16 different 128-byte segments: 16 trips to the pantry.
 * Change the mapping so that the warp's writes fit in 2 segments, and keep the results right.
 * `cudachef grade coalesced-mapping` checks n = 32, 64 and 100, and counts the segments of the
 * first warp's writes.
 */
#include "kernel.h"

__global__ void matmul_coalesced(const float *A, const float *B, float *C, int n)
{
    /* TODO: let x pick the column and y pick the row, so that neighbouring cooks (threadIdx.x
       next to each other) take neighbouring elements of one row. */
    int row = blockIdx.x * blockDim.x + threadIdx.x; /* neighbouring cooks: rows n floats apart */
    int col = blockIdx.y * blockDim.y + threadIdx.y;

    /* The teams at the right and bottom edges stick out past the matrix: those cooks stay idle. */
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col]; /* along row `row` of A, down column `col` of B */
        C[row * n + col] = sum; /* cook x + 1 writes C[row + 1][col]: n floats further on */
    }
}
