/*
 * checked-steps.cu - your exercise for lesson 11: saxpy's five steps, out = a * x + y, written so
 * that no failure slips through. The kernel is written. In saxpy_host:
 *   - wrap every runtime call in CHECK(...): it keeps the error and jumps to the cleanup;
 *   - after the launch, CHECK cudaGetLastError() (the launch) and cudaDeviceSynchronize() (the run);
 *   - at cleanup:, free all three device buffers: every way out passes there;
 *   - return 0 when err is still cudaSuccess, else 1.
 * `cudachef grade checked-steps` cooks n = 1, 1000 and 5000, then makes each cudaMalloc, each
 * cudaMemcpy and the launch fail once.
 */
#include "kernel.h"

__global__ void saxpy(const float *x, const float *y, float *out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}

/* Runs call; when it fails, keeps its error and goes to the cleanup. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        err = (call);                                                                              \
        if (err != cudaSuccess)                                                                    \
            goto cleanup;                                                                          \
    } while (0)

int saxpy_host(const float *x, const float *y, float *out, float a, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_x = NULL, *d_y = NULL, *d_out = NULL;
    dim3 cooks(128), teams((n + 127) / 128);
    cudaError_t err = cudaSuccess;

    /* TODO 1: room for x, y and out in the kitchen's pantry, each call in CHECK(...). */
    CHECK(cudaMalloc(&d_x, bytes));

    /* TODO 2: ship x and y in. */

    /* TODO 3: launch saxpy<<<teams, cooks>>>(d_x, d_y, d_out, a, n), then CHECK the launch and
       the run. */

    /* TODO 4: ship out back into out. */

cleanup:
    /* TODO 5: free every device buffer. */
    (void)x, (void)y, (void)out, (void)a, (void)teams, (void)cooks;
    return err == cudaSuccess ? 0 : 1;
}
