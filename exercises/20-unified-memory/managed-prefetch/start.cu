/*
 * managed-prefetch.cu - your exercise for lesson 20: c = a + b with one pointer for both pantries.
 * For now vector_add_managed does the five steps with explicit copies; rewrite it with managed
 * memory:
 *   - m_a, m_b and m_c from cudaMallocManaged; the head chef fills m_a and m_b with memcpy, and
 *     there is no cudaMalloc and no cudaMemcpy left;
 *   - before the launch, prefetch all three arrays, every byte, to the kitchen (cudaMemPrefetchAsync
 *     with a cudaMemLocation of type cudaMemLocationTypeDevice);
 *   - wait (cudaDeviceSynchronize) before the head chef reads m_c.
 * `cudachef grade managed-prefetch` cooks n = 1, 4099 and 100003, then makes each allocation and the
 * launch fail once.
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

    /* TODO 1: cudaMallocManaged instead of cudaMalloc, and memcpy (the head chef's own hands)
       instead of the two shipments in. */
    CHECK(cudaMalloc(&m_a, bytes));
    CHECK(cudaMalloc(&m_b, bytes));
    CHECK(cudaMalloc(&m_c, bytes));
    CHECK(cudaMemcpy(m_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(m_b, b, bytes, cudaMemcpyHostToDevice));

    CHECK(cudaGetDevice(&dev));
    {
        /* TODO 2: prefetch m_a, m_b and m_c (all bytes) to the kitchen, on stream 0: the place is
           struct cudaMemLocation kitchen = {cudaMemLocationTypeDevice, dev}; */
        vector_add<<<(n + 255) / 256, 256>>>(m_a, m_b, m_c, n);
        CHECK(cudaGetLastError());
    }
    /* TODO 3: wait for the kitchen, then let the head chef read m_c with memcpy (no shipment). */
    CHECK(cudaMemcpy(c, m_c, bytes, cudaMemcpyDeviceToHost));

cleanup:
    cudaFree(m_a);
    cudaFree(m_b);
    cudaFree(m_c);
    return err == cudaSuccess ? 0 : 1;
}
