/*
 * recipes.h - the kernels cudachef can run end to end, each with its data and its CPU reference.
 *
 * A recipe knows its kernel's arguments, how to fill the inputs, how to compute the expected
 * output on the CPU (the head chef's own, slow, one-at-a-time way) and which cook owns an element.
 * Recipes are written with designated initializers; fields left out are 0 or NULL.
 */
#ifndef CUDACHEF_RECIPES_H
#define CUDACHEF_RECIPES_H

#include "engine/kitchen.h"

typedef struct recipe {
    const char *name;
    const char *kernel;
    const char *summary;    /* English; shown through _() */
    int64_t default_n;
    int default_threads_per_block;
    double rtol, atol;
    int atol_scales_with_n; /* sums of n products: allow n times the rounding */
    int strides;            /* each cook loops over the grid: any grid covers every element */
    int counting;           /* small inputs without --seed use the counting example (fill knows it) */
    int zero_output;        /* the kernel adds into its output: the kitchen ships zeros into it before
                               every launch (warm-up, traced and timed), outside the timed region */
    int tensor_tf32;        /* the kernel multiplies on the TF32 tensor cores (the model's pace) */
    int tensor_half;        /* ... on the FP16 and BF16 tensor cores */
    const char *precision;  /* what the kernel rounds its inputs to ("FP16", "BF16", "TF32"); NULL: none */
    int square;             /* matrix kernels whose team of 1D cooks owns a square x square block of C,
                               each cook several results (the ladder's upper rungs); 0 otherwise */
    int square_cols;        /* the block's columns when it is square rows x square_cols; 0: square */
    /* Decides buffers and launch configuration; -1 with err on bad parameters. */
    int (*plan)(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err);
    /* Fills the input buffers on the host. */
    void (*fill)(kitchen_plan *plan);
    /* Computes the expected output on the CPU. */
    void (*reference)(const kitchen_plan *plan, float *expected);
    /* Optional: a fast reference (OpenBLAS), used instead when kitchen_params.fast_reference is set. */
    void (*reference_fast)(const kitchen_plan *plan, float *expected);
    /* Optional, with precision: the exact result of the inputs as given (fast: by OpenBLAS), which
       the report measures the rounding's error against (kitchen_report.exact). */
    void (*exact)(const kitchen_plan *plan, float *expected, int fast);
    /* Packs device pointers and scalars as the kernel's arguments. */
    void (*args)(kitchen_plan *plan, void **args);
    /* The team and cook (linear indices) that should cook output element index; 0 if no cook of
       this grid was given it (a grid too small for a one-element-per-cook kernel) or if no single
       cook owns it (a sum every team adds into). */
    int (*owner)(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread);
    /* Multiply-adds (or adds) one launch does, to warn before very long emulator runs. */
    double (*work)(int64_t n);
    /* NULL for kernels written in kernels/; for a library recipe, which library cooked on this
       backend ("cuBLAS SGEMM", "OpenBLAS on the CPU"). */
    const char *(*library)(const backend_info *info);
} recipe;

/* The recipe called name, or NULL. */
const recipe *recipe_find(const char *name);

/* All recipes, ending with NULL. */
const recipe *const *recipe_all(void);

/* The matrix-multiply ladder, slowest rung first, ending with the library (cuBLAS on a GPU,
   OpenBLAS on the emulator) and NULL: the recipes `cudachef bench` races and lesson 12 climbs. */
const char *const *recipe_ladder(void);

/* A fast seeded generator of floats in [-1, 1). */
float recipe_random(uint64_t *state);

/*
 * Matrix helpers, shared with the library recipes (recipes_library.c). Matrices are n x n floats,
 * row-major, in three buffers A, B (inputs) and C (output).
 */

/* Sizes the three n x n buffers A, B, C and sets a 1 x 1 grid of one cook: for recipes whose
   library picks its own launch. Accepts any --threads-per-block (ignored) and refuses --blocks;
   -1 with err when n is outside 1..46340 (n * n must fit an int index). */
int recipe_matrix_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err);

/* recipe_matrix_plan plus the launch of matmul-tiled: --threads-per-block must be 256 (16 x 16
   cooks), grid of ceil(n / 16) x ceil(n / 16) teams. */
int recipe_matmul_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err);

/* Fills A and B with seeded random values in [-1, 1). */
void recipe_matmul_fill(kitchen_plan *plan);

/* The head chef's way: every dot product in double precision, one after another. */
void recipe_matmul_reference(const kitchen_plan *plan, float *expected);

/* The fast way: OpenBLAS SGEMM on every core (blas.h). */
void recipe_matmul_reference_blas(const kitchen_plan *plan, float *expected);

/* Packs A, B, C (device pointers) and n, as matmul kernels take them. */
void recipe_matrix_args(kitchen_plan *plan, void **args);

/* n^3 multiply-adds. */
double recipe_matmul_work(int64_t n);

/* An owner function for outputs no single cook owns (a sum every team adds into, a library's
   result): always 0. */
int recipe_owner_none(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread);

/* The library recipes (recipes_library.c): cuBLAS on a GPU, OpenBLAS on the emulator. */
extern const recipe recipe_matmul_library;
extern const recipe recipe_matmul_library_tf32;

#endif
