/*
 * wrong/kernel-on-host-pointers.cu - WRONG: every step is made and checked, but the launch is given
 * the head chef's buffers (a, b, c) instead of the kitchen's (d_a, d_b, d_c): a kernel reaches
 * device memory only, so on a GPU (and on the emulator) it faults, and the copies were for nothing.
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
        goto cleanup;
    /* 2. ship in: the ingredients from the head chef's pantry */
    if (cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        goto cleanup;
    /* 3. cook: the launch says nothing itself, so ask; then wait for the kitchen */
    vector_add<<<teams, threads>>>(a, b, c, n); /* the head chef's own buffers, not d_a, d_b, d_c */
    if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
        goto cleanup;
    /* 4. ship out: the dish back to the head chef */
    if (cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
        goto cleanup;
    status = 0;
cleanup:
    /* 5. clean up, on every way out (cudaFree of a null pointer does nothing) */
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return status;
}
