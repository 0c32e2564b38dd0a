/*
 * one-team-sqrt.cu - your exercise for lesson 1: b[i] = the square root of a[i], for up to 256
 * numbers, with one team of 256 cooks.
 *
 * There is one team, so a cook's number in its team (threadIdx.x) is its element. The TODO is the
 * one step each cook does. `cudachef grade one-team-sqrt` checks it with n = 1, 7, 100 and 256.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = threadIdx.x; /* my number in the team: my element */
    /* TODO: if my element is one of the n (i < n), b[i] gets the square root of a[i] (sqrtf). */
}
