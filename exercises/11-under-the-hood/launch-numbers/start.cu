/*
 * launch-numbers.cu - your exercise for lesson 11: b[i] = sin(a[i]) for every i below n, with
 * nothing about the launch taken for granted.
 *
 * A launch hands every cook two things: the kernel's arguments (here a, b and n: the args of
 * cuLaunchKernel) and the launch's shape, the numbers of teams and of cooks per team, which the
 * cook reads as gridDim and blockDim. This kernel was written for vector_sin<<<4, 256>>> and has
 * that shape baked in. The kitchen here launches vector_sin<<<5, 96>>>: 480 cooks, however large
 * n is. Complete the two TODOs; `cudachef grade launch-numbers` checks n = 1, 100, 480 and 50000.
 */
#include "kernel.h"

#define COOKS_PER_TEAM 256    /* the author's guess: true only for <<<..., 256>>> */
#define COOKS_IN_KITCHEN 1024 /* 4 teams x 256 cooks: true only for <<<4, 256>>> */

__global__ void vector_sin(const float *a, float *b, int n)
{
    /* TODO 1: my first element, with the team size this launch really has. */
    int i = blockIdx.x * COOKS_PER_TEAM + threadIdx.x;

    /* TODO 2: the jump to my next element: every cook of this launch's kitchen. */
    int stride = COOKS_IN_KITCHEN;

    /* Lesson 3's grid-stride loop: right as soon as i and stride are. */
    for (; i < n; i += stride)
        b[i] = sinf(a[i]);
}
