/*
 * global-histogram.cu - the reference solution of lesson 15's second exercise.
 */
#include "kernel.h"

#define HIST_BINS 256

__global__ void histogram_global(const float *a, float *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS);
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&bins[bin], 1.0f); /* many cooks, one jar: the add must be indivisible */
    }
}
