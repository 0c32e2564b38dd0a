/*
 * branch_recipes.h - the two 64-step recipes of lesson 14's branch kernels (branch_by_cook.cu and
 * branch_by_warp.cu), as __device__ functions both call: only which cooks take which differs.
 */
#ifndef CUDACHEF_BRANCH_RECIPES_H
#define CUDACHEF_BRANCH_RECIPES_H

#define BRANCH_STEPS 64 /* how long each recipe is: enough arithmetic that a branch's cost shows */

/* The first recipe: 64 multiply-adds towards 1. */
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

#endif
