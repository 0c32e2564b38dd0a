/*
 * wrong/no-event-sync.cu - WRONG: the time is read right after the stop mark is recorded, without waiting for the kitchen
 * to reach it (no cudaEventSynchronize(stop)): on a GPU cudaEventElapsedTime answers cudaErrorNotReady.
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

int saxpy_timed(const float *x, const float *y, float *out, float a, int n, float *ms)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_x = NULL, *d_y = NULL, *d_out = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    dim3 cooks(256), teams((n + 255) / 256);
    cudaError_t err = cudaSuccess;

    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    /* warm-up: the first launch pays for loading the kernel; it is not timed */
    saxpy<<<teams, cooks>>>(d_x, d_y, d_out, a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaEventRecord(start, 0)); /* the mark before the launch */
    saxpy<<<teams, cooks>>>(d_x, d_y, d_out, a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));  /* the mark after it */
    CHECK(cudaEventElapsedTime(ms, start, stop));

    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
cleanup:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_out);
    return err == cudaSuccess ? 0 : 1;
}
