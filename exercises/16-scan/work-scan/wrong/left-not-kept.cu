/* left-not-kept - a typical wrong version of this exercise: s[k] += s[k - d] after s[k - d] was overwritten: the right slot adds its own value back.
   Expected diagnosis: wrong-values. */
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
            s[k - d] = s[k];
            s[k] += s[k - d];
        }
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t] + mine; /* exclusive + my own = inclusive */
}
