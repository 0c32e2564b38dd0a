/*
 * matmul_naive.cu - C = A * B for n x n matrices, one element of C per cook, mapped the way many
 * first tutorials do it.
 *
 * Kitchen view: every cook computes one element C[row][col]: it walks along row `row` of A and
 * down column `col` of B, multiplying and adding n pairs of numbers (a dot product). No shared
 * locker: every number comes from the far pantry (global memory).
 *
 * The mapping is the one a popular Numba tutorial writes as `row, col = cuda.grid(2)`: the ROW
 * comes from the x index. The answer is right, but look at what a warp does. A warp is 32 cooks
 * of a team with neighbouring threadIdx.x. Here neighbouring x means neighbouring ROWS of C, and
 * matrices are stored row by row (row-major): C[row][col] and C[row + 1][col] are n floats apart.
 * So the 32 writes of a warp scatter over up to 32 different 128-byte segments of memory
 * (uncoalesced), and the pantry moves a whole segment for each. The reads of A scatter the same
 * way: each cook walks its own row. matmul_coalesced.cu swaps x and y and changes nothing else.
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
    /* My element of C: the row from my x index, the column from my y index. */
    int row = blockIdx.x * blockDim.x + threadIdx.x; /* @mark row-from-x: neighbouring cooks, rows n apart */
    int col = blockIdx.y * blockDim.y + threadIdx.y; /* @mark col-from-y */

    /* The teams at the right and bottom edges stick out past the matrix: those cooks stay idle. */
    if (row < n && col < n) { /* @mark edge-guard */
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col]; /* @mark dot-product */
        /* Cook x + 1 writes C[row + 1][col]: n floats after cook x's element, not next to it. */
        C[row * n + col] = sum;
    }
}
