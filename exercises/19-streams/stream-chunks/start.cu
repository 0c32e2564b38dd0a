/*
 * stream-chunks.cu - your exercise for lesson 19: c = a + b cut into 4 chunks, each chunk shipped
 * in, cooked and shipped back in its own stream, so that one chunk's shipment can overlap another
 * chunk's cooking. The kernel, the CHECK macro, the buffers and the cleanup are written. In
 * vector_add_streams:
 *   - the copies use the pinned buffers h_a, h_b and h_c (cudaMallocHost), never a, b or c;
 *   - chunk k's two copies in, its launch and its copy back all go to stream[k];
 *   - wait for every stream before the head chef reads h_c.
 * `cudachef grade stream-chunks` cooks n = 1, 4099 and 100003, then makes each allocation, each
 * copy and the launch fail once.
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
    /* TODO 1: create the STREAMS streams, counting them in made (the cleanup destroys made). */

    memcpy(h_a, a, bytes); /* the head chef's food onto the pinned shelf */
    memcpy(h_b, b, bytes);

    for (int k = 0; k < STREAMS; k++) {
        int first = k * chunk, count = n - first < chunk ? n - first : chunk;
        if (count <= 0)
            break; /* small n: fewer chunks than streams */
        size_t at = (size_t)first, part = (size_t)count * sizeof(float);
        /* TODO 2: in stream[k], ship chunk k of h_a and h_b into d_a and d_b (cudaMemcpyAsync),
           cook it with vector_add<<<teams, 256, 0, stream[k]>>> on count elements from d_a + at,
           CHECK cudaGetLastError(), and ship chunk k of d_c back into h_c. For now the whole job
           goes through the default stream, one step after the other: */
        CHECK(cudaMemcpy(d_a + at, h_a + at, part, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_b + at, h_b + at, part, cudaMemcpyHostToDevice));
        vector_add<<<(count + 255) / 256, 256>>>(d_a + at, d_b + at, d_c + at, count);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_c + at, d_c + at, part, cudaMemcpyDeviceToHost));
    }
    /* TODO 3: wait for every stream (cudaStreamSynchronize) before reading h_c. */
    memcpy(c, h_c, bytes);

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
