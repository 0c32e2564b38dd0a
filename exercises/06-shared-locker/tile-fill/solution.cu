/*
 * tile-fill.cu - the reference solution of lesson 6's second exercise.
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
