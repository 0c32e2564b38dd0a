/* by-index - a typical wrong version of this exercise: the cook adds to bins[i], its own index, not its number's bin: right in no size, and past 255 it leaves the bins.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

#define HIST_BINS 256

__global__ void histogram_global(const float *a, float *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS);
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&bins[i], 1.0f);
        (void)bin;
    }
}
