/*
 * wrong/leak-on-error.cu - WRONG: an error returns at once, without freeing what was allocated before it: the kitchen's
 * pantry keeps those buffers for good.
 */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int vector_add_host(const float *a, const float *b, float *c, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    int threads = 256, teams = (n + threads - 1) / threads;
    int status = 1; /* failed, until the last step went well */

    /* 1. prepare: room in the kitchen's pantry */
    if (cudaMalloc(&d_a, bytes) != cudaSuccess || cudaMalloc(&d_b, bytes) != cudaSuccess ||
        cudaMalloc(&d_c, bytes) != cudaSuccess)
        return 1;
    /* 2. ship in: the ingredients from the head chef's pantry */
    if (cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        return 1;
    /* 3. cook: the launch says nothing itself, so ask; then wait for the kitchen */
    vector_add<<<teams, threads>>>(d_a, d_b, d_c, n);
    if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    /* 4. ship out: the dish back to the head chef */
    if (cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    status = 0;
cleanup:
    /* 5. clean up, on every way out (cudaFree of a null pointer does nothing) */
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return status;
}
