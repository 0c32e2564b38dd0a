/*
 * histogram_shared.cu - the same 256-bin histogram, each team counting into its own private copy
 * in the shared locker first, then adding its 256 counts to the pantry's bins.
 *
 * Kitchen view: every team gets 256 jars of its own on its station (__shared__). Its cooks drop
 * their tokens there, where an atomicAdd is close and only the team's 256 cooks can meet at a jar.
 * Then cook t carries jar t's count to the pantry: 256 atomicAdds per team in all, however the
 * numbers fall, instead of one per number. Privatisation: many private counts, merged once.
 *
 * The team must have exactly 256 cooks (one per bin) and bins must be 0 before the launch.
 */
#include "kernel.h"

#define HIST_BINS 256

__global__ void histogram_shared(const float *a, float *bins, int n)
{
    __shared__ float local[HIST_BINS]; /* @mark private-bins */

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    local[t] = 0.0f;     /* cook t empties jar t */
    __syncthreads();     /* every jar is empty before anyone drops a token */

    if (i < n) {
        int bin = (int)(a[i] * HIST_BINS);
        if (bin > HIST_BINS - 1)
            bin = HIST_BINS - 1;
        atomicAdd(&local[bin], 1.0f); /* @mark shared-atomic */
    }
    __syncthreads();     /* every token is in before the jars are carried */

    if (local[t] > 0.0f) /* an empty jar adds nothing: skip the trip */
        atomicAdd(&bins[t], local[t]); /* @mark merge */
}
