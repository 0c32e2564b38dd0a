/*
 * still-global.cu - WRONG: the locker is filled and waited for, but the multiply-adds still read A and B
 * from device memory: two fetches per multiply-add, as before, plus the tiles.
 */
#include "kernel.h"

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;

    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        /* one fetch of A and one of B per cook and tile (0 past the edge) */
        int a_col = t * TILE + threadIdx.x;
        int b_row = t * TILE + threadIdx.y;
        tileA[threadIdx.y][threadIdx.x] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        tileB[threadIdx.y][threadIdx.x] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        /* 16 multiply-adds from the locker for those two fetches */
        for (int k = 0; k < TILE; k++)
            if (row < n && col < n && t * TILE + k < n)
                sum += A[row * n + t * TILE + k] * B[(t * TILE + k) * n + col];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = sum;
}
