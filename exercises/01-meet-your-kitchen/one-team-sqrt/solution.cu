/*
 * one-team-sqrt.cu - the reference solution of lesson 1's second exercise.
 */
#include "kernel.h"

__global__ void vector_sqrt(const float *a, float *b, int n)
{
    int i = threadIdx.x;
    if (i < n)              /* with n < 256, the cooks past n have no number */
        b[i] = sqrtf(a[i]); /* my one small step */
}
