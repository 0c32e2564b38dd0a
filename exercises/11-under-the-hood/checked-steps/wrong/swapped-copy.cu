/*
 * wrong/swapped-copy.cu - WRONG: x is shipped in with its two pointers swapped: cudaMemcpy(x, d_x, ...) copies from
 * the kitchen into the head chef's x, the other way from what its kind says.
 */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}

/* Runs call; when it fails, keeps its error and goes to the cleanup. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        err = (call);                                                                              \
        if (err != cudaSuccess)                                                                    \
            goto cleanup;                                                                          \
    } while (0)

int saxpy_host(const float *x, const float *y, float *out, float a, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_x = NULL, *d_y = NULL, *d_out = NULL;
    dim3 cooks(128), teams((n + 127) / 128);
    cudaError_t err = cudaSuccess;

    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy((float *)x, d_x, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice));
    saxpy<<<teams, cooks>>>(d_x, d_y, d_out, a, n);
    CHECK(cudaGetLastError());      /* the launch itself */
    CHECK(cudaDeviceSynchronize()); /* the kernel's run */
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_out);
    return err == cudaSuccess ? 0 : 1;
}
