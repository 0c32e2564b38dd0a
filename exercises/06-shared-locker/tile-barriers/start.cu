/*
 * tile-barriers.cu - your exercise for lesson 6: C = A * B for n x n matrices, with tiles in the
 * team's shared locker.
 *
 * A team of 16 x 16 cooks computes a 16 x 16 square of C. For every tile, each cook brings one
 * number of A and one of B into the locker, then all cooks multiply what the locker holds. The
 * filling and the multiplying are all written; what is missing are the barriers that keep the
 * cooks of the team in step. Place them (the TODOs); `cudachef grade tile-barriers` checks your
 * kernel on n = 16, 33 and 64, and on the emulator again with the cooks in shuffled orders.
 */
#include "kernel.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float tileA[TILE][TILE]; /* the team's shared locker: one square of A... */
    __shared__ float tileB[TILE][TILE]; /* ...and one square of B */

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;

    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        /* Fill: each cook brings one number of A and one of B into the locker (0 past the edge). */
        int a_col = t * TILE + threadIdx.x;
        int b_row = t * TILE + threadIdx.y;
        tileA[threadIdx.y][threadIdx.x] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        tileB[threadIdx.y][threadIdx.x] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;

        /* TODO 1: nobody may read the locker before every teammate has put their numbers in. */

        /* Use: a row of the A square times a column of the B square, all read from the locker. */
        for (int k = 0; k < TILE; k++)
            sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];

        /* TODO 2: nobody may refill the locker with the next tile while a teammate still reads
           this one. */
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}
