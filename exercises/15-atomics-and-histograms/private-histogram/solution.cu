/*
 * private-histogram.cu - the reference solution of lesson 15's exercise.
 */
#include "kernel.h"

#define HIST_BINS 256

__global__ void histogram_shared(const float *a, float *bins, int n)
{
    __shared__ float local[HIST_BINS]; /* the team's own 256 jars */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    local[t] = 0.0f;  /* cook t empties jar t */
    __syncthreads();  /* all jars empty before the first drop */

    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS);
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&local[bin], 1.0f); /* teammates may share a jar: an atomic add */
    }
    __syncthreads();  /* all drops in before the jars are carried */

    if (local[t] > 0.0f)
        atomicAdd(&bins[t], local[t]); /* other teams add to the same bin: atomic again */
}
