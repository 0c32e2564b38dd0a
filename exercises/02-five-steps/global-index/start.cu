/*
 * global-index.cu - your exercise for lesson 2: b[i] = sqrt(a[i]) for every element, by many teams.
 *
 * The head chef launches n / 256 teams of 256 cooks (every n checked here is a multiple of 256, so
 * each cook has exactly one element). threadIdx.x alone cannot tell the teams apart: cook 5 of
 * team 0 and cook 5 of team 3 would both take element 5. Complete the two TODOs;
 * `cudachef grade global-index` checks your kernel on n = 256, 1024 and 65536.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    /* TODO 1: my place in my team is enough for one team only. Add where my team starts:
       my team's number times the number of cooks in a team. */
    int i = threadIdx.x;

    /* Already written for you: the bounds check. With these sizes no cook is idle, but it keeps
       the kernel safe for any n. */
    if (i < n) {
        /* TODO 2: my one step: the square root of my element of a (sqrtf), into my element of b. */
    }
}
