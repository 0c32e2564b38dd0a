/*
 * resident-chain.cu - your exercise for lesson 8: a dish of eight steps, each a vector add whose
 * result feeds the next: c = a + b, then c = c + b seven more times (b added eight times in all).
 * As written, chain_host makes a round trip per step: the running result goes back to the head
 * chef after every step and out to the kitchen again. Make the data stay in the kitchen:
 *   - ship a and b in once, before the chain;
 *   - run the eight launches on the kitchen's buffers (a step can write c in place: each cook
 *     reads and writes only its own element);
 *   - ship c back once, after the last step.
 * `cudachef grade resident-chain` cooks n = 1, 1000 and 5000, tastes c, and counts the bytes
 * shipped each way and the launches; then it makes each cudaMalloc, each cudaMemcpy and the first
 * launch fail once, as a real GPU can.
 */
#include "kernel.h"

#define STEPS 8

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

int chain_host(const float *a, const float *b, float *c, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    dim3 cooks(256), teams((n + 255) / 256);
    cudaError_t err = cudaSuccess;

    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));

    /* TODO: the chain with a round trip per step. Ship in once, keep the running result in d_c
       between the steps, ship out once. */
    CHECK(cudaMemcpy(c, a, bytes, cudaMemcpyHostToHost)); /* the running result starts as a */
    for (int s = 0; s < STEPS; s++) {
        CHECK(cudaMemcpy(d_a, c, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
        vector_add<<<teams, cooks>>>(d_a, d_b, d_c, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost)); /* feeds the next step */
    }
cleanup:
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return err == cudaSuccess ? 0 : 1;
}
