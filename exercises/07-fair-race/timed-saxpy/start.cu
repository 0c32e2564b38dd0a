/*
 * timed-saxpy.cu - your exercise for lesson 7: the head chef wants to know how long the kitchen
 * cooks saxpy (out = a * x + y), measured fairly. The five steps are written; time the cooking
 * with CUDA events and give the time back in *ms (milliseconds):
 *   1. create two events, start and stop (cudaEventCreate);
 *   2. warm up: launch saxpy once before timing, and check it;
 *   3. record start, launch saxpy, record stop: nothing but the launch between the two marks;
 *   4. wait for the stop mark (cudaEventSynchronize), then cudaEventElapsedTime(ms, start, stop);
 *   5. destroy both events at cleanup.
 * `cudachef grade timed-saxpy` cooks n = 1, 1000 and 5000, tastes out, and checks that *ms is a
 * time the events gave for the launch alone; then it makes each cudaMalloc, each cudaMemcpy and
 * the first launch fail once, as a real GPU can.
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

    /* TODO 1: create the events start and stop. */

    /* TODO 2: a warm-up launch of saxpy, checked (cudaGetLastError, cudaDeviceSynchronize). */

    /* TODO 3: record start, then the timed launch (below), then record stop. */
    saxpy<<<teams, cooks>>>(d_x, d_y, d_out, a, n);
    CHECK(cudaGetLastError());

    /* TODO 4: wait for stop, then write the time between start and stop into *ms. */
    (void)ms;

    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
cleanup:
    /* TODO 5: destroy the events that were created. */
    (void)start, (void)stop;
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_out);
    return err == cudaSuccess ? 0 : 1;
}
