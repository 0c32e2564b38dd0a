/* team-forgotten - a typical wrong version of this exercise: the start forgets the team: every team walks the same elements.
   Expected diagnosis: missing-team. */
#include "kernel.h"

__global__ void vector_sin(const float *a, float *b, int n)
{
    /* My first element, from the team size the launch handed over (block x of cuLaunchKernel). */
    int i = threadIdx.x;

    /* The whole kitchen of this launch: teams in the grid (grid x) times cooks per team. */
    int stride = gridDim.x * blockDim.x;

    /* Nothing here assumes a launch: <<<5, 96>>>, <<<4, 256>>> or <<<1, 1>>> all cook every element once. */
    for (; i < n; i += stride)
        b[i] = sinf(a[i]);
}
