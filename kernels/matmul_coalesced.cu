/*
 * matmul_coalesced.cu - C = A * B for n x n matrices, one element of C per cook, with the
 * column from the x index: the same work as matmul_naive.cu, the memory used well.
 *
 * Kitchen view: every cook computes one element C[row][col] as a dot product of row `row` of A
 * and column `col` of B, exactly as in matmul_naive.cu. Only the mapping changes: the COLUMN
 * comes from the x index. A warp is 32 cooks with neighbouring threadIdx.x, so here they own
 * neighbouring columns of one row, and matrices are stored row by row: their 32 writes land on
 * 32 neighbouring floats, 128 bytes, one or two segments of memory (coalesced). Their reads of B
 * are neighbours too, and all of them read the same number of A at each step (one fetch serves
 * the whole warp).
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

__global__ void matmul_coalesced(const float *A, const float *B, float *C, int n)
{
    /* My element of C: the column from my x index, the row from my y index. */
    int col = blockIdx.x * blockDim.x + threadIdx.x; /* @mark col-from-x: neighbouring cooks, neighbouring columns */
    int row = blockIdx.y * blockDim.y + threadIdx.y; /* @mark row-from-y */

    /* The teams at the right and bottom edges stick out past the matrix: those cooks stay idle. */
    if (row < n && col < n) { /* @mark edge-guard */
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col]; /* @mark dot-product */
        /* Cook x + 1 writes C[row][col + 1]: the float right after cook x's element. */
        C[row * n + col] = sum;
    }
}
