/*
 * warp-branch.cu - your exercise for lesson 14: element i gets the first 64-step recipe when its
 * warp (cooks 0-31, 32-63, ... of the grid) is even, the second when it is odd.
 *
 * Right now the choice is made per cook (i % 2): every warp holds both kinds and runs both
 * branches, and the elements get the wrong recipes. Make the choice per warp (the TODO).
 * `cudachef grade warp-branch` checks it with n = 1, 40, 512 and 10000.
 */
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
    if (i < n) {
        /* TODO: a test that is the same for all 32 cooks of a warp: which warp is element i's? */
        if (i % 2 == 0)
            b[i] = branch_recipe_one(a[i]);
        else
            b[i] = branch_recipe_two(a[i]);
    }
}
