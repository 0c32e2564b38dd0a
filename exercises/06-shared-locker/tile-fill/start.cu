/*
 * tile-fill.cu - your exercise for lesson 6: C = A * B for n x n matrices, with 16 x 16 tiles in
 * the team's shared locker.
 *
 * The barriers and the multiplying are written; what each cook brings into the locker is not (the
 * TODO), so right now every tile is empty. `cudachef grade tile-fill` checks it with n = 16, 33, 64
 * and 70, and on the emulator again with the cooks in shuffled orders.
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
        /* TODO: cook (x, y) brings A's element at row `row`, column t * TILE + x into tileA[y][x],
           and B's element at row t * TILE + y, column `col` into tileB[y][x]; past the matrix's
           edge it brings 0, so that the partial tiles add nothing. */
        tileA[threadIdx.y][threadIdx.x] = 0.0f;
        tileB[threadIdx.y][threadIdx.x] = 0.0f;

        /* Barrier 1: wait until the locker is full. Every cook reaches it, also those whose
           element of C is past the edge: they still bring numbers that teammates need. */
        __syncthreads();

        /* Use: a row of the A square times a column of the B square, all read from the locker. */
        for (int k = 0; k < TILE; k++)
            sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];

        /* Barrier 2: wait until everyone is done with this tile before the next fill. */
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}
