/*
 * cublas-matmul.cu - your exercise for lesson 9: C = A x B for n x n matrices stored row by row.
 * matmul_host works, but with the kitchen's own kernel; order the product from the recipe book
 * instead, as real programs do:
 *   1. cublasCreate a handle first (and cublasDestroy it at cleanup, on every way out);
 *   2. replace the launch by cublasSgemm on d_A, d_B and d_C, alpha = 1 and beta = 0. cuBLAS reads
 *      matrices column by column: think about which matrix goes first, and what each leading
 *      dimension (lda, ldb, ldc) must be;
 *   3. check every cuBLAS status against CUBLAS_STATUS_SUCCESS: return 1 when one is not.
 * `cudachef grade cublas-matmul` multiplies n = 1, 17, 64 and 100 and tastes C; the product must
 * come from cublasSgemm (the emulator's cuBLAS checks its arguments as cuBLAS does); then each
 * cudaMalloc and cudaMemcpy fails once. On a GPU the same file builds with nvcc ... -lcublas.
 */
#include "kernel.h"

#include <cublas_v2.h>

/* Lesson 5's kernel: the kitchen's own recipe. */
__global__ void matmul_coalesced(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

/* Runs a runtime call; when it fails, keeps its error and goes to the cleanup. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        err = (call);                                                                              \
        if (err != cudaSuccess)                                                                    \
            goto cleanup;                                                                          \
    } while (0)

/* Runs a cuBLAS call; when it fails, keeps its status and goes to the cleanup. */
#define CHECK_BLAS(call)                                                                           \
    do {                                                                                           \
        status = (call);                                                                           \
        if (status != CUBLAS_STATUS_SUCCESS)                                                       \
            goto cleanup;                                                                          \
    } while (0)

int matmul_host(const float *A, const float *B, float *C, int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *d_A = NULL, *d_B = NULL, *d_C = NULL;
    const float alpha = 1.0f, beta = 0.0f;
    cublasHandle_t handle = NULL;
    cudaError_t err = cudaSuccess;
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    dim3 cooks(16, 16), teams((n + 15) / 16, (n + 15) / 16);

    /* TODO 1: create the handle (CHECK_BLAS). */

    CHECK(cudaMalloc(&d_A, bytes));
    CHECK(cudaMalloc(&d_B, bytes));
    CHECK(cudaMalloc(&d_C, bytes));
    CHECK(cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, B, bytes, cudaMemcpyHostToDevice));

    /* TODO 2: cublasSgemm instead of this launch (CHECK_BLAS). */
    matmul_coalesced<<<teams, cooks>>>(d_A, d_B, d_C, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(C, d_C, bytes, cudaMemcpyDeviceToHost));
cleanup:
    /* TODO 3: destroy the handle, when it was created. */
    (void)alpha, (void)beta, (void)handle;
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    return err == cudaSuccess && status == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
