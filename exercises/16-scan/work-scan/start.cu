/*
 * work-scan.cu - your exercise for lesson 16: out[i] = the running total of the team's numbers up to
 * i, the second way: up a tree, then back down.
 *
 * The up-sweep is written: it leaves the team's total in the last slot, which is then set to 0.
 * What is missing is the way back down (the TODO). `cudachef grade work-scan` checks it with n = 1,
 * 1000, 4096 and 100000, and on the emulator again with the cooks in shuffled orders.
 */
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

    /* TODO: the down-sweep. For d = 128, 64, ..., 1: the cook whose slot k = (t + 1) * 2 * d - 1 is
       inside the team's 256 passes s[k] down to s[k - d] and adds what s[k - d] held into s[k]
       (keep that old value aside first); then the whole team waits. Afterwards each slot holds the
       total of everything before it. */
    if (i < n)
        out[i] = s[t] + mine; /* exclusive + my own = inclusive */
}
