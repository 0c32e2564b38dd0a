/*
 * matmul_tiled_no_reuse_barrier.cu - matmul_tiled.cu with its SECOND barrier removed: a bug to
 * study, not to copy.
 *
 * Kitchen view: after using a square of A and a square of B from the shared locker, the team
 * moves on to the next squares and refills the same locker. Without the barrier after the use,
 * a quick cook starts refilling while slower teammates are still reading the old squares: they
 * multiply numbers of the next square with numbers of this one. The result is wrong whenever the
 * matrix needs more than one square (n > TILE). On a GPU it depends on timing (it can even look
 * right by luck); cudachef's emulator resumes the cooks from the first barrier one after another,
 * so the first cook refills the locker before the others have read it: wrong every time.
 */
#include "kernel.h"

#define TILE 16

__global__ void matmul_tiled_no_reuse_barrier(const float *A, const float *B, float *C, int n)
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
        /* @mark missing-reuse-barrier: no __syncthreads() here, so a quick cook refills the locker while others still read it */
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}
