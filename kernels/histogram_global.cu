/*
 * histogram_global.cu - counts how many of n numbers in [0, 1) fall in each of 256 bins, every
 * cook adding 1 to its number's bin in device memory with atomicAdd.
 *
 * Kitchen view: 256 jars on a shelf in the pantry, one per bin. Each cook looks at its number and
 * drops one token in the right jar. Two cooks at the same jar at the same moment must not lose a
 * token, so each drop is an atomicAdd: an indivisible read-add-write that the memory does for
 * one cook at a time per address. When the numbers spread over all the jars, the drops rarely
 * meet; when most fall in a few jars, the cooks queue at them. That queue is contention.
 *
 * bins must be 0 before the launch (the kitchen ships zeros into it).
 */
#include "kernel.h"

#define HIST_BINS 256

__global__ void histogram_global(const float *a, float *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS); /* [0, 1) onto 0 .. 255 */
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&bins[bin], 1.0f); /* @mark global-atomic */
    }
}
