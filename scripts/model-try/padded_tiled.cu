#include "kernel.h"
#define T 16
/* The tiled multiply with tiles padded to 17 columns and the sum kept in two halves. */
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float sa[T][T + 1];
    __shared__ float sb[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float lo = 0.0f, hi = 0.0f;
    for (int t = 0; t < (n + T - 1) / T; t++) {
        sa[ty][tx] = row < n && t * T + tx < n ? A[row * n + t * T + tx] : 0.0f;
        sb[ty][tx] = t * T + ty < n && col < n ? B[(t * T + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T / 2; k++) {
            lo += sa[ty][k] * sb[k][tx];
            hi += sa[ty][k + T / 2] * sb[k + T / 2][tx];
        }
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = lo + hi;
}
