/* adds-the-number - a typical wrong version of this exercise: the cook adds its number to the bin instead of 1.
   Expected diagnosis: wrong-values. */
#include "kernel.h"

#define HIST_BINS 256

__global__ void histogram_global(const float *a, float *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS);
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&bins[bin], a[i]); /* many cooks, one jar: the add must be indivisible */
    }
}
