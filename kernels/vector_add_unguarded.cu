/*
 * vector_add_unguarded.cu - vector add WITHOUT the bounds check, to see what goes wrong.
 *
 * Kitchen view: the grid has more cooks than elements (the number of teams is rounded up), and
 * here nobody tells the extra cooks of the last team to stay idle. They reach past the end of
 * the pantry shelves: reading a[n], b[n] and writing c[n] and beyond. On cudachef's emulator the
 * first such cook is caught and named. On a GPU nothing may seem wrong, because the memory past
 * the end often belongs to nobody yet; compute-sanitizer (memcheck) finds it there.
 */
#include "kernel.h"

__global__ void vector_add_unguarded(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i]; /* @mark missing-bounds-check: no `if (i < n)` */
    (void)n;            /* n is never looked at: that is the bug */
}
