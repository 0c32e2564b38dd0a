/*
 * branch_by_cook.cu - two kinds of work, chosen by each cook's own index: even cooks one, odd cooks
 * the other. Every warp holds both kinds, so it runs both branches, one after the other.
 *
 * Kitchen view: a warp is 32 cooks on one instruction. When half of them must do the first recipe
 * and half the second, the station runs the first with the odd cooks waiting (masked off), then the
 * second with the even ones waiting: the warp takes the time of both. This is divergence. The
 * emulator counts it as warp runs of a branch with part of the warp; branch_by_warp.cu does the
 * same work with the choice made per warp, so no warp diverges.
 */
#include "kernel.h"
#include "branch_recipes.h"

__global__ void branch_by_cook(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i % 2 == 0) /* @mark by-cook */
            b[i] = branch_recipe_one(a[i]);
        else
            b[i] = branch_recipe_two(a[i]);
    }
}
