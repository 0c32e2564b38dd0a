/*
 * wrong/ignores-errors.cu - WRONG: no call is checked. When a cudaMalloc or a copy fails, the head chef still serves
 * (returns 0) a dish the kitchen never cooked.
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
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMalloc(&d_c, bytes);
    /* 2. ship in */
    cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
    /* 3. cook */
    vector_add<<<teams, threads>>>(d_a, d_b, d_c, n);
    cudaDeviceSynchronize();
    /* 4. ship out */
    cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
    status = 0;
    goto cleanup;
cleanup:
    /* 5. clean up, on every way out (cudaFree of a null pointer does nothing) */
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return status;
}
