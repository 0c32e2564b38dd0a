/*
 * matmul_tiled.cu - C = A * B for n x n matrices, with tiles in the shared locker.
 *
 * Kitchen view: a team (block) of TILE x TILE cooks computes a TILE x TILE square of C. Instead
 * of every cook fetching its own row of A and column of B from the far pantry (global memory)
 * again and again, the team copies one TILE x TILE square of A and one of B into its shared
 * locker (__shared__ memory), every cook fetching one number of each. Then all cooks use the
 * locker's numbers. Two barriers guard the locker:
 *   - after filling it: nobody may read a square before every cook has put their number in;
 *   - after using it: nobody may overwrite a square while a teammate still reads it.
 * Matrices are stored row by row (row-major). threadIdx.x walks along a row of C, so the 32
 * cooks of a warp read neighbouring addresses (coalesced).
 */
#include "kernel.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float tileA[TILE][TILE]; /* @mark shared-locker */
    __shared__ float tileB[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;

    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        /* Each cook brings one number of A and one of B into the locker (0 past the edge). */
        int a_col = t * TILE + threadIdx.x;
        int b_row = t * TILE + threadIdx.y;
        tileA[threadIdx.y][threadIdx.x] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        tileB[threadIdx.y][threadIdx.x] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads(); /* @mark barrier-filled: wait until the locker is full */

        for (int k = 0; k < TILE; k++)
            sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
        __syncthreads(); /* @mark barrier-used: wait until everyone is done with it */
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}
