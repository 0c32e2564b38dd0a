/*
 * recipes.h - the kernels cudachef can run end to end, each with its data and its CPU reference.
 *
 * A recipe knows its kernel's arguments, how to fill the inputs, how to compute the expected
 * output on the CPU (the head chef's own, slow, one-at-a-time way) and which cook owns an element.
 */
#ifndef CUDACHEF_RECIPES_H
#define CUDACHEF_RECIPES_H

#include "kitchen.h"

typedef struct recipe {
    const char *name;
    const char *kernel;
    const char *summary;
    int64_t default_n;
    int default_threads_per_block;
    double rtol, atol;
    int atol_scales_with_n; /* sums of n products: allow n times the rounding */
    int strides;            /* each cook loops over the grid: any grid covers every element */
    /* Decides buffers and launch configuration; -1 with err on bad parameters. */
    int (*plan)(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err);
    /* Fills the input buffers on the host. */
    void (*fill)(kitchen_plan *plan);
    /* Computes the expected output on the CPU. */
    void (*reference)(const kitchen_plan *plan, float *expected);
    /* Packs device pointers and scalars as the kernel's arguments. */
    void (*args)(kitchen_plan *plan, void **args);
    /* The team and cook (linear indices) that should cook output element index; 0 if no cook of
       this grid was given it (a grid too small for a one-element-per-cook kernel). */
    int (*owner)(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread);
    /* Multiply-adds (or adds) one launch does, to warn before very long emulator runs. */
    double (*work)(int64_t n);
} recipe;

/* The recipe called name, or NULL. */
const recipe *recipe_find(const char *name);

/* All recipes, ending with NULL. */
const recipe *const *recipe_all(void);

/* A fast seeded generator of floats in [-1, 1). */
float recipe_random(uint64_t *state);

#endif
