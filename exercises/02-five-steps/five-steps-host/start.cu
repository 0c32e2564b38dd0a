/*
 * five-steps-host.cu - your exercise for lesson 2: this time you are the head chef. The kernel is
 * written; write the five steps that get it cooked, in vector_add_host:
 *   1. prepare: cudaMalloc room for a, b and c in the kitchen's pantry (the device);
 *   2. ship in: cudaMemcpy a and b there (cudaMemcpyHostToDevice);
 *   3. cook: vector_add<<<teams, cooks>>>(...), then cudaGetLastError() and cudaDeviceSynchronize();
 *   4. ship out: cudaMemcpy c back (cudaMemcpyDeviceToHost);
 *   5. clean up: cudaFree every buffer.
 * Every call returns a cudaError_t: when one is not cudaSuccess, free what you hold and return 1.
 * Return 0 when all went well. `cudachef grade five-steps-host` cooks n = 1, 1000 and 4099, then
 * makes each cudaMalloc, each cudaMemcpy and the launch fail once, as a real GPU can.
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

    /* TODO 1: cudaMalloc d_a, d_b and d_c (bytes each); on an error, goto cleanup. */

    /* TODO 2: ship a into d_a and b into d_b. */

    /* TODO 3: launch vector_add with teams teams of threads cooks, then check cudaGetLastError()
       and cudaDeviceSynchronize(). */

    /* TODO 4: ship d_c back into c; then the run went well: status = 0. */

    goto cleanup;
cleanup:
    /* TODO 5: cudaFree every buffer here, on every way out. */
    (void)a, (void)b, (void)c, (void)bytes, (void)teams;
    (void)d_a, (void)d_b, (void)d_c;
    return status;
}
