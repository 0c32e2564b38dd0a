/*
 * small-grid-sqrt.cu - your exercise for lesson 3: b[i] = the square root of a[i] for every i below
 * n, with a grid of only 2 teams of 256 cooks, whatever n is.
 *
 * Right now each cook does one element, so everything past the first 512 stays uncooked. Give each
 * cook a loop (the TODO). `cudachef grade small-grid-sqrt` checks it with n = 1, 300, 512 and 20000.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: a grid-stride loop: after element i, the cook goes on a whole grid further along. */
    if (i < n)
        b[i] = sqrtf(a[i]);
}
