/* no-bounds-test - a typical wrong version of this exercise: no bounds test: cooks past n read and write outside the arrays.
   Expected diagnosis: out-of-bounds. */
#include "kernel.h"

#define BRANCH_STEPS 64

/* The first recipe: 64 multiply-adds towards 1 (as kernels/branch_recipes.h). */
__device__ float branch_recipe_one(float x)
{
    for (int s = 0; s < BRANCH_STEPS; s++)
        x = x * 0.99f + 0.01f;
    return x;
}

/* The second recipe: 64 multiply-adds towards -0.5. */
__device__ float branch_recipe_two(float x)
{
    for (int s = 0; s < BRANCH_STEPS; s++)
        x = x * 0.98f - 0.01f;
    return x;
}

__global__ void branch_by_warp(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    {
        if ((i / 32) % 2 == 0) /* the same for the 32 cooks of a warp: no warp splits */
            b[i] = branch_recipe_one(a[i]);
        else
            b[i] = branch_recipe_two(a[i]);
    }
}
