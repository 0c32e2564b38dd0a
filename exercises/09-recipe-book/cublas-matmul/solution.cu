/*
 * cublas-matmul.cu - the reference solution of lesson 9's host exercise: C = A x B (n x n,
 * row-major) by cublasSgemm, which reads matrices column by column: B is passed first, then A, and
 * every runtime call and every cuBLAS status is checked; one cleanup frees the buffers and destroys
 * the handle on every way out.
 */
#include "kernel.h"

#include <cublas_v2.h>

/* Lesson 5's kernel: the kitchen's own recipe, kept to compare with; the library cooks instead. */
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

    CHECK_BLAS(cublasCreate(&handle));
    CHECK(cudaMalloc(&d_A, bytes));
    CHECK(cudaMalloc(&d_B, bytes));
    CHECK(cudaMalloc(&d_C, bytes));
    CHECK(cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, B, bytes, cudaMemcpyHostToDevice));

    /* Row-major A, read column by column, is A^T; so C^T = B^T x A^T: B first, then A. Each
       leading dimension is n, the floats one column takes for cuBLAS. */
    CHECK_BLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, d_B, n, d_A, n, &beta, d_C, n));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(C, d_C, bytes, cudaMemcpyDeviceToHost));
cleanup:
    if (handle)
        cublasDestroy(handle);
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    return err == cudaSuccess && status == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
