/*
 * scan_work.cu - the same running totals as scan_steps.cu, with little work: 255 additions up a
 * tree, 255 down and one per cook (766) instead of scan_steps.cu's 1,793, in 16 steps instead of 8.
 *
 * Kitchen view: first a tournament up a tree (the up-sweep): in step d, the cook at every
 * (2d)-th place adds in the partial total d places to its left, so fewer cooks work each step and
 * the last place ends with the team's total. Then back down (the down-sweep): the total is
 * replaced by 0, and each step hands every partial total to the right place and adds, which leaves
 * in each slot the total of everything before it (an exclusive scan). Each cook adds its own
 * number to get the inclusive one. The slots a step touches are 2d apart: the larger steps ask one
 * bank of the locker for several words (lesson 13), which `cudachef run scan-team-work` counts.
 *
 * The team must have exactly 256 cooks.
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
        int k = (t + 1) * 2 * d - 1; /* @mark tree-slot */
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
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t] + mine; /* exclusive + my own = inclusive */
}
