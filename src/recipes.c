/*
 * recipes.c - vector add (plain and grid-stride) and the tiled matrix multiply as runnable recipes.
 */
#include "recipes.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* A fast seeded generator of floats in [-1, 1). */
float recipe_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)((double)(z >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
}

/* Checks threads per block against the device (or emulator) limit. */
static int recipe_check_block(int tpb, const backend_info *info, chef_error *err)
{
    int limit = info->max_threads_per_block > 0 ? info->max_threads_per_block : 1024;
    if (tpb < 1 || tpb > limit)
        return chef_fail(err, CHEF_EXIT_USAGE, "`cudachef info` shows the limit; 256 is a good start",
                         "--threads-per-block %d is outside 1..%d (the %s's limit)", tpb, limit,
                         info->kind == BACKEND_GPU ? "GPU" : "emulator");
    return 0;
}

/* --- vector add: c = a + b, one element per cook (or per step of a grid-stride loop) --- */

static int vector_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                       chef_error *err)
{
    int64_t n = p->n;
    if (n < 1 || n > INT_MAX)
        return chef_fail(err, CHEF_EXIT_USAGE, "the kernel counts elements with an int: use 1 to 2147483647",
                         "--n %lld is outside 1..%d", (long long)n, INT_MAX);
    int tpb = p->threads_per_block;
    if (recipe_check_block(tpb, info, err) != 0)
        return -1;
    int64_t blocks = p->blocks > 0 ? p->blocks : (n + tpb - 1) / tpb;
    int64_t max_grid = info->max_grid_dim[0] > 0 ? info->max_grid_dim[0] : INT_MAX;
    if (blocks > max_grid)
        return chef_fail(err, CHEF_EXIT_USAGE, "use more threads per block or fewer --blocks",
                         "%lld blocks exceed the grid limit of %lld", (long long)blocks, (long long)max_grid);
    plan->n = n;
    plan->n_int = (int)n;
    plan->nbuffers = 3;
    const char *names[3] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        plan->buffers[i].name = names[i];
        plan->buffers[i].count = (size_t)n;
        plan->buffers[i].is_output = i == 2;
    }
    plan->block = (chef_dim3){(unsigned)tpb, 1, 1};
    plan->grid = (chef_dim3){(unsigned)blocks, 1, 1};
    return 0;
}

/* Fills a and b: the counting example for small n without a seed, else seeded random values. */
static void vector_fill(kitchen_plan *plan)
{
    float *a = plan->buffers[0].host, *b = plan->buffers[1].host;
    size_t n = (size_t)plan->n;
    if (plan->counting) {
        for (size_t i = 0; i < n; i++) {
            a[i] = (float)(i + 1);
            b[i] = (float)(n + i + 1);
        }
        return;
    }
    uint64_t s = plan->seed;
    for (size_t i = 0; i < n; i++)
        a[i] = recipe_random(&s);
    for (size_t i = 0; i < n; i++)
        b[i] = recipe_random(&s);
}

/* The head chef's way: one element after another. */
static void vector_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host, *b = plan->buffers[1].host;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        expected[i] = a[i] + b[i];
}

/* Packs a, b, c and n as vector_add(a, b, c, n) takes them. */
static void vector_args(kitchen_plan *plan, void **args)
{
    args[0] = &plan->buffers[0].device;
    args[1] = &plan->buffers[1].device;
    args[2] = &plan->buffers[2].device;
    args[3] = &plan->n_int;
}

/* Element i belongs to the cook whose global index is i: no one's when the grid is too small. */
static int vector_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    uint64_t cooks = (uint64_t)plan->grid.x * plan->block.x;
    if (index >= cooks)
        return 0;
    *block = index / plan->block.x;
    *thread = index % plan->block.x;
    return 1;
}

/* In a grid-stride loop element i belongs to cook i modulo the number of cooks. */
static int stride_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    uint64_t cooks = (uint64_t)plan->grid.x * plan->block.x;
    return vector_owner(plan, index % cooks, block, thread);
}

/* One add per element. */
static double vector_work(int64_t n)
{
    return (double)n;
}

/* n^3 multiply-adds. */
static double matmul_work(int64_t n)
{
    return (double)n * (double)n * (double)n;
}

/* --- tiled matrix multiply: C = A * B, n x n, 16 x 16 cooks per team --- */

static int matmul_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                       chef_error *err)
{
    int64_t n = p->n;
    if (n < 1 || n > 46340)
        return chef_fail(err, CHEF_EXIT_USAGE, "matrices are n x n floats indexed by int: use 1 to 46340",
                         "--n %lld is outside 1..46340", (long long)n);
    if (p->threads_per_block != 256)
        return chef_fail(err, CHEF_EXIT_USAGE, "this kernel's tile is fixed at 16 x 16 cooks",
                         "matmul-tiled needs --threads-per-block 256 (16 x 16), not %d", p->threads_per_block);
    if (p->blocks > 0)
        return chef_fail(err, CHEF_EXIT_USAGE, "leave --blocks out for matrix recipes",
                         "matmul-tiled sets its own 2D grid from --n");
    (void)info;
    plan->n = n;
    plan->n_int = (int)n;
    plan->nbuffers = 3;
    const char *names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++) {
        plan->buffers[i].name = names[i];
        plan->buffers[i].count = (size_t)(n * n);
        plan->buffers[i].is_output = i == 2;
    }
    unsigned tiles = (unsigned)((n + 15) / 16);
    plan->block = (chef_dim3){16, 16, 1};
    plan->grid = (chef_dim3){tiles, tiles, 1};
    return 0;
}

/* Fills A and B with seeded random values. */
static void matmul_fill(kitchen_plan *plan)
{
    uint64_t s = plan->seed;
    for (int i = 0; i < 2; i++)
        for (size_t k = 0; k < plan->buffers[i].count; k++)
            plan->buffers[i].host[k] = recipe_random(&s);
}

/* The head chef's way: every dot product in double precision. */
static void matmul_reference(const kitchen_plan *plan, float *expected)
{
    const float *A = plan->buffers[0].host, *B = plan->buffers[1].host;
    size_t n = (size_t)plan->n;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            double sum = 0.0;
            for (size_t k = 0; k < n; k++)
                sum += (double)A[i * n + k] * (double)B[k * n + j];
            expected[i * n + j] = (float)sum;
        }
    }
}

/* Element (row, col) belongs to team (col/16, row/16), cook (col%16, row%16). */
static int matmul_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    uint64_t row = index / (uint64_t)plan->n, col = index % (uint64_t)plan->n;
    *block = (col / 16) + (row / 16) * plan->grid.x;
    *thread = (col % 16) + (row % 16) * 16;
    return 1;
}

static const recipe recipe_vector_add = {
    "vector-add", "vector_add", "c[i] = a[i] + b[i], one element per cook", 1000000, 256, 1e-6, 1e-7, 0, 0,
    vector_plan, vector_fill, vector_reference, vector_args, vector_owner, vector_work};

static const recipe recipe_vector_add_grid_stride = {
    "vector-add-grid-stride", "vector_add_grid_stride",
    "vector add where each cook strides over the grid (any --blocks works)", 1000000, 256, 1e-6, 1e-7, 0, 1,
    vector_plan, vector_fill, vector_reference, vector_args, stride_owner, vector_work};

static const recipe recipe_vector_add_unguarded = {
    "vector-add-unguarded", "vector_add_unguarded",
    "vector add without the bounds check: the idle cooks reach past the end", 1000, 256, 1e-6, 1e-7, 0, 0,
    vector_plan, vector_fill, vector_reference, vector_args, vector_owner, vector_work};

static const recipe recipe_matmul_tiled = {
    "matmul-tiled", "matmul_tiled", "C = A x B (n x n) with 16 x 16 tiles in shared memory", 256, 256,
    1e-4, 2e-6, 1, 0, matmul_plan, matmul_fill, matmul_reference, vector_args, matmul_owner, matmul_work};

static const recipe *const recipe_list[] = {&recipe_vector_add, &recipe_vector_add_grid_stride,
                                            &recipe_vector_add_unguarded,
                                            &recipe_matmul_tiled, NULL};

/* All recipes, ending with NULL. */
const recipe *const *recipe_all(void)
{
    return recipe_list;
}

/* The recipe called name, or NULL. */
const recipe *recipe_find(const char *name)
{
    for (int i = 0; recipe_list[i]; i++)
        if (strcmp(recipe_list[i]->name, name) == 0)
            return recipe_list[i];
    return NULL;
}
