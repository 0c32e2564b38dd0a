/*
 * matrix-index.cu - your exercise for lesson 4: C = A * B for n x n matrices, one element of C
 * per cook.
 *
 * The head chef launches a 2D grid of ceil(n/16) x ceil(n/16) teams of 16 x 16 cooks. Each cook
 * finds its place in the whole grid, once across (x) and once down (y), and computes the element
 * of C there: as in the lesson's kernel, the row from x and the column from y. When n is not a
 * multiple of 16, the teams at the right and bottom edges stick out past the matrix.
 * Complete the two TODOs; `cudachef grade matrix-index` checks n = 1, 17, 64 and 100.
 */
#include "kernel.h"

__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
    /* TODO 1: my element of C. In each direction: my team's first cook plus my place in the team
       (lesson 3's index, with .x for the row and .y for the column). */
    int row = 0;
    int col = 0;

    /* TODO 2: the edge guard. A cook whose row or column is past the matrix must stay idle:
       put an if in front of this block. */
    {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col]; /* along row `row` of A, down column `col` of B */
        C[row * n + col] = sum;                     /* matrices are stored row by row */
    }
}
