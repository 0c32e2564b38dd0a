/*
 * vector_add.cu - the first recipe: c[i] = a[i] + b[i].
 *
 * Kitchen view: every cook (thread) adds exactly one pair of numbers. Cooks work in teams
 * (blocks) of blockDim.x cooks; team number blockIdx.x starts at element blockIdx.x * blockDim.x.
 * The grid usually has a few more cooks than elements (the number of teams is rounded up), so
 * the cooks of the last team whose index falls past the end must do nothing: that is the
 * bounds check. Without it they would reach outside the pantry (past the end of the arrays).
 *
 * Runs on the GPU (nvcc) and on cudachef's CPU emulator (the C compiler) from this one file.
 */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    /* Which element is mine? My team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* @mark global-index */

    /* The last team may have more cooks than elements left: those cooks stay idle. */
    if (i < n) {           /* @mark bounds-check */
        c[i] = a[i] + b[i]; /* @mark the-work */
    }
}
