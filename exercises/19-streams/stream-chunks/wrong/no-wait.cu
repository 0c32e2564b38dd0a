/*
 * no-wait.cu - WRONG: the head chef copies h_c into c without waiting for any stream, so it reads
 * h_c before the chunks were shipped back (it still holds what was there before).
 */
#include <string.h>

#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

#define STREAMS 4

/* Runs call; when it fails, keeps its error and goes to the cleanup. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        err = (call);                                                                              \
        if (err != cudaSuccess)                                                                    \
            goto cleanup;                                                                          \
    } while (0)

int vector_add_streams(const float *a, const float *b, float *c, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *h_a = NULL, *h_b = NULL, *h_c = NULL; /* pinned: the copy engines read them directly */
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    cudaStream_t stream[STREAMS] = {0};
    int chunk = (n + STREAMS - 1) / STREAMS, made = 0;
    cudaError_t err = cudaSuccess;

    CHECK(cudaMallocHost(&h_a, bytes));
    CHECK(cudaMallocHost(&h_b, bytes));
    CHECK(cudaMallocHost(&h_c, bytes));
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    for (; made < STREAMS; made++)
        CHECK(cudaStreamCreate(&stream[made]));
    memcpy(h_a, a, bytes); /* the head chef's food onto the pinned shelf */
    memcpy(h_b, b, bytes);

    for (int k = 0; k < STREAMS; k++) {
        int first = k * chunk, count = n - first < chunk ? n - first : chunk;
        if (count <= 0)
            break; /* small n: fewer chunks than streams */
        size_t at = (size_t)first, part = (size_t)count * sizeof(float);
        CHECK(cudaMemcpyAsync(d_a + at, h_a + at, part, cudaMemcpyHostToDevice, stream[k]));
        CHECK(cudaMemcpyAsync(d_b + at, h_b + at, part, cudaMemcpyHostToDevice, stream[k]));
        vector_add<<<(count + 255) / 256, 256, 0, stream[k]>>>(d_a + at, d_b + at, d_c + at, count);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_c + at, d_c + at, part, cudaMemcpyDeviceToHost, stream[k]));
    }
    memcpy(c, h_c, bytes); /* no wait: the orders are still in the queues */

cleanup:
    for (int k = 0; k < made; k++)
        cudaStreamDestroy(stream[k]);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    cudaFreeHost(h_a);
    cudaFreeHost(h_b);
    cudaFreeHost(h_c);
    return err == cudaSuccess ? 0 : 1;
}
