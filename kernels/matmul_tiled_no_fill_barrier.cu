/*
 * matmul_tiled_no_fill_barrier.cu - matmul_tiled.cu with its FIRST barrier removed: a bug to
 * study, not to copy.
 *
 * Kitchen view: the team fills its shared locker with a square of A and a square of B, one
 * number per cook, and then every cook reads 2 x TILE numbers that its teammates brought. Without
 * the barrier after the filling, a cook starts reading while teammates have not put their numbers
 * in yet: it multiplies whatever the locker still holds (the previous square, or leftovers).
 * The result is wrong, and differently wrong from run to run on a GPU, where nobody decides which
 * cook gets there first. cudachef's emulator runs a team's cooks one after another, so every cook
 * but the last reads squares its later teammates have not filled: wrong every time the matrix
 * needs more than one team. (With one team, n <= TILE, a rerun finds the previous run's numbers
 * still in the locker, the very numbers it needs, and may look right: a bug that hides.)
 */
#include "kernel.h"

#define TILE 16

__global__ void matmul_tiled_no_fill_barrier(const float *A, const float *B, float *C, int n)
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
        /* @mark missing-fill-barrier: no __syncthreads() here, so nobody waits for the locker to be full */

        for (int k = 0; k < TILE; k++)
            sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
        __syncthreads(); /* @mark barrier-used: wait until everyone is done with it */
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}
