/*
 * branch_by_warp.cu - the same two kinds of work as branch_by_cook.cu, chosen per warp: cooks 0 to
 * 31 do the first, 32 to 63 the second, and so on. Every warp agrees, so none runs both branches.
 *
 * Kitchen view: the choice depends on i / 32, which is the same for all 32 cooks of a warp (teams
 * are whole warps, so warps start at multiples of 32). Each warp takes one branch, at full speed.
 * Half the elements get each recipe, as in branch_by_cook.cu: only which ones changes.
 */
#include "kernel.h"
#include "branch_recipes.h"

__global__ void branch_by_warp(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if ((i / 32) % 2 == 0) /* @mark by-warp */
            b[i] = branch_recipe_one(a[i]);
        else
            b[i] = branch_recipe_two(a[i]);
    }
}
