/*
 * private-histogram.cu - your exercise for lesson 15: a 256-bin histogram of n numbers in [0, 1),
 * each team counting into its own jars in the shared locker first.
 *
 * The drops into the team's jars are written. What is missing (the TODOs): emptying the jars
 * before the first drop, the two barriers, and carrying each jar's count to the pantry's bins.
 * `cudachef grade private-histogram` checks it with n = 1, 1000, 4096 and 100000, and on the
 * emulator again with the cooks in shuffled orders.
 */
#include "kernel.h"

#define HIST_BINS 256 /* one jar per bin, one cook per jar: the team has 256 cooks */

__global__ void histogram_shared(const float *a, float *bins, int n)
{
    __shared__ float local[HIST_BINS]; /* the team's own 256 jars */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    /* TODO 1: cook t empties jar t (a locker starts with no numbers in it), then the whole team
       waits until every jar is empty. */

    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS);
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&local[bin], 1.0f);
    }

    /* TODO 2: wait until every cook's token is in, then cook t adds jar t's count to bins[t]: other
       teams add to the same bins, so that addition must be atomic too. */
}
