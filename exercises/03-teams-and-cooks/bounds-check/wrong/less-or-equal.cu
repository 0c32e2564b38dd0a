/* less-or-equal - a typical wrong version of this exercise: i <= n lets the cook of element n touch one past the end.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    /* My team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* The last team may have more cooks than elements left: those cooks stay idle. */
    if (i <= n)
        c[i] = a[i] + b[i];
}
