/*
 * grid-stride.cu - your exercise for lesson 3: c[i] = a[i] + b[i] for every i below n, with a
 * kitchen of a fixed size.
 *
 * The kitchen is always 4 teams of 256 cooks: 1024 cooks, however large n is. Right now each cook
 * cooks one element, so with n = 5000 most elements are never cooked. Complete the TODOs;
 * `cudachef grade grid-stride` checks your kernel on n = 1, 1000, 5000 and 100000.
 */
#include "kernel.h"

__global__ void vector_add_grid_stride(const float *a, const float *b, float *c, int n)
{
    /* TODO 1: how many cooks are in the whole kitchen? (teams in the grid times cooks per team) */

    /* My first element: my team's first element plus my place in the team. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    /* TODO 2: turn this into a loop. After cooking element i, jump ahead by the kitchen's size and
       cook again, until i reaches n. */
    if (i < n)
        c[i] = a[i] + b[i];
}
