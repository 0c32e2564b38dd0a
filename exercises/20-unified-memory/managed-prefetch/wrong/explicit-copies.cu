/*
 * explicit-copies.cu - WRONG: the five steps with cudaMalloc and cudaMemcpy, right results, but
 * not what this exercise practises: no managed memory at all.
 */
#include <string.h>

#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* Runs call; when it fails, keeps its error and goes to the cleanup. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        err = (call);                                                                              \
        if (err != cudaSuccess)                                                                    \
            goto cleanup;                                                                          \
    } while (0)

int vector_add_managed(const float *a, const float *b, float *c, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *m_a = NULL, *m_b = NULL, *m_c = NULL;
    int dev = 0;
    cudaError_t err = cudaSuccess;

    CHECK(cudaMalloc(&m_a, bytes));
    CHECK(cudaMalloc(&m_b, bytes));
    CHECK(cudaMalloc(&m_c, bytes));
    CHECK(cudaMemcpy(m_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(m_b, b, bytes, cudaMemcpyHostToDevice));

    CHECK(cudaGetDevice(&dev));
    {
        vector_add<<<(n + 255) / 256, 256>>>(m_a, m_b, m_c, n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, m_c, bytes, cudaMemcpyDeviceToHost));

cleanup:
    cudaFree(m_a);
    cudaFree(m_b);
    cudaFree(m_c);
    return err == cudaSuccess ? 0 : 1;
}
