/*
 * wrong/b-every-step.cu - WRONG: b is shipped in again before every step, though it never left the kitchen.
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
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice)); /* each input in, once */
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

    vector_add<<<teams, cooks>>>(d_a, d_b, d_c, n); /* step 1: c = a + b */
    CHECK(cudaGetLastError());
    for (int s = 1; s < STEPS; s++) {
        CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
        vector_add<<<teams, cooks>>>(d_c, d_b, d_c, n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost)); /* the result out, once */
cleanup:
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return err == cudaSuccess ? 0 : 1;
}
