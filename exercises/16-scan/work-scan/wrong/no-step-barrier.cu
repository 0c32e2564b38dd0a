/* no-step-barrier - a typical wrong version of this exercise: no barrier ends a down-sweep step: the next step reads slots not yet passed down.
   Expected diagnosis: race. */
#include "kernel.h"

#define SCAN_TEAM 256

__global__ void scan_work(const float *a, float *out, int n)
{
    __shared__ float s[SCAN_TEAM];

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float mine = i < n ? a[i] : 0.0f;
    s[t] = mine;
    __syncthreads();

    /* up-sweep: partial totals up the tree */
    for (int d = 1; d < SCAN_TEAM; d *= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < SCAN_TEAM)
            s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0)
        s[SCAN_TEAM - 1] = 0.0f; /* the total makes way for "nothing before the first" */
    __syncthreads();

    /* down-sweep: each slot gets the total of everything before it */
    for (int d = SCAN_TEAM / 2; d >= 1; d /= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < SCAN_TEAM) {
            float left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
    }
    if (i < n)
        out[i] = s[t] + mine; /* exclusive + my own = inclusive */
}
