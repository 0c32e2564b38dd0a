/*
 * prefetch-to-host.cu - WRONG: the arrays are prefetched to the head chef (cudaMemLocationTypeHost) instead of
 * the kitchen: the cooks meet a page fault on every page.
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
    float *m_a = NULL, *m_b = NULL, *m_c = NULL; /* valid for the head chef and for the cooks */
    int dev = 0;
    cudaError_t err = cudaSuccess;

    CHECK(cudaMallocManaged(&m_a, bytes));
    CHECK(cudaMallocManaged(&m_b, bytes));
    CHECK(cudaMallocManaged(&m_c, bytes));
    memcpy(m_a, a, bytes); /* the head chef fills them directly: no cudaMemcpy */
    memcpy(m_b, b, bytes);

    CHECK(cudaGetDevice(&dev));
    {
        struct cudaMemLocation chef = {cudaMemLocationTypeHost, 0}; /* the id is ignored */
        /* every page the cooks will touch, moved in bulk before they start (stream 0) */
        CHECK(cudaMemPrefetchAsync(m_a, bytes, chef, 0, 0));
        CHECK(cudaMemPrefetchAsync(m_b, bytes, chef, 0, 0));
        CHECK(cudaMemPrefetchAsync(m_c, bytes, chef, 0, 0));
        vector_add<<<(n + 255) / 256, 256>>>(m_a, m_b, m_c, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemPrefetchAsync(m_c, bytes, chef, 0, 0)); /* c home before the head chef reads it */
    }
    CHECK(cudaDeviceSynchronize()); /* the launch and the prefetches only sat in the queue until now */
    memcpy(c, m_c, bytes);

cleanup:
    cudaFree(m_a);
    cudaFree(m_b);
    cudaFree(m_c);
    return err == cudaSuccess ? 0 : 1;
}
