/*
 * recipes.c - the kernels of kernels/ as runnable recipes: vector add (plain, grid-stride,
 * unguarded), element-wise square root and sine, saxpy, a sum with the shared locker and an
 * atomic add, and matrix multiply (naive, coalesced, tiled, and tiled with a barrier missing).
 *
 * Each recipe sizes its buffers and its launch, fills the inputs, computes the expected output on
 * the CPU and says which cook owns an output element. The matrix helpers are shared with the
 * library recipes (recipes_library.c).
 */
#include "engine/recipes.h"

#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/blas.h"
#include "base/i18n.h"
#include "kit/emu_half.h" /* the WMMA recipes' references round their inputs as the kernels do */

/* The team size sum_reduce.cu's shared array is made for (its TEAM). */
/* cudachef-check, the program that runs a learner's kernel, is built from this file with
   CHEF_RECIPES_NO_REFERENCE: its recipes prepare the data but hold no CPU reference (nor the library
   recipes), so the learner's code finds no right answer in its own process (src/check_main.c). */
#ifdef CHEF_RECIPES_NO_REFERENCE
#define RECIPE_REFERENCE(f) NULL
#else
#define RECIPE_REFERENCE(f) f
#endif

#define RECIPE_SUM_TEAM 256
#define RECIPE_SCAN_TEAM 256 /* the scans' team: one number of the board per cook */
#define RECIPE_HIST_BINS 256 /* the histograms' bins, and the private one's cooks per team */

/* The scalar saxpy's recipe multiplies x by. */
#define RECIPE_SAXPY_A 2.0f
#define RECIPE_CHAIN_STEPS 8 /* kernels/add_chain.cu's ADD_CHAIN_STEPS */

/* Largest matrix side: n * n elements must fit the kernels' int index. */
#define RECIPE_MATRIX_MAX 46340

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
        return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef info` shows the limit; 256 is a good start"),
                         info->kind == BACKEND_GPU ? _("--threads-per-block %d is outside 1..%d (the GPU's limit)")
                                                   : _("--threads-per-block %d is outside 1..%d (the emulator's limit)"),
                         tpb, limit);
    return 0;
}

/* --- one element per cook: vectors, element-wise functions and the sum --- */

/* Plans a 1D launch over n elements with nbuffers buffers called names; the last one is the
   output, of out_count elements (n for element-wise kernels, 1 for the sum). */
static int vector_plan_buffers(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                               chef_error *err, int nbuffers, const char *const *names, size_t out_count)
{
    int64_t n = p->n;
    if (n < 1 || n > INT_MAX)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the kernel counts elements with an int: use 1 to 2147483647"),
                         _("--n %lld is outside 1..%d"), (long long)n, INT_MAX);
    int tpb = p->threads_per_block;
    if (recipe_check_block(tpb, info, err) != 0)
        return -1;
    int64_t blocks = p->blocks > 0 ? p->blocks : (n + tpb - 1) / tpb;
    int64_t max_grid = info->max_grid_dim[0] > 0 ? info->max_grid_dim[0] : INT_MAX;
    if (blocks > max_grid)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use more threads per block or fewer --blocks"),
                         _("%lld blocks exceed the grid limit of %lld"), (long long)blocks, (long long)max_grid);
    /* the kernels count cooks with an int (a grid-stride loop's step is gridDim.x * blockDim.x) */
    if (p->blocks > 0 && blocks * (int64_t)tpb > INT_MAX)
        return chef_fail(err, CHEF_EXIT_USAGE, _("use fewer --blocks: a grid of up to 2147483647 cooks"),
                         _("%lld blocks of %d cooks are %lld cooks, more than the kernel's int index can count"),
                         (long long)blocks, tpb, (long long)(blocks * (int64_t)tpb));
    plan->n = n;
    plan->n_int = (int)n;
    plan->nbuffers = nbuffers;
    for (int i = 0; i < nbuffers; i++) {
        plan->buffers[i].name = names[i];
        plan->buffers[i].is_output = i == nbuffers - 1;
        plan->buffers[i].count = plan->buffers[i].is_output ? out_count : (size_t)n;
    }
    plan->block = (chef_dim3){(unsigned)tpb, 1, 1};
    plan->grid = (chef_dim3){(unsigned)blocks, 1, 1};
    return 0;
}

/* c = a + b: inputs a, b and output c, n elements each. */
static int vector_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                       chef_error *err)
{
    static const char *const names[] = {"a", "b", "c"};
    return vector_plan_buffers(p, info, plan, err, 3, names, (size_t)p->n);
}

/* b = f(a): input a and output b, n elements each. */
static int unary_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                      chef_error *err)
{
    static const char *const names[] = {"a", "b"};
    return vector_plan_buffers(p, info, plan, err, 2, names, (size_t)p->n);
}

/* out = a * x + y with a fixed a: inputs x, y and output out. */
static int saxpy_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                      chef_error *err)
{
    static const char *const names[] = {"x", "y", "out"};
    plan->scalar = RECIPE_SAXPY_A;
    return vector_plan_buffers(p, info, plan, err, 3, names, (size_t)p->n);
}

/* sum = a[0] + ... + a[n-1]: input a, an output of one element; teams of exactly the kernel's size. */
static int sum_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    static const char *const names[] = {"a", "sum"};
    if (p->threads_per_block != RECIPE_SUM_TEAM)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the kernel's shared locker holds one number per cook of a team of 256"),
                         _("%s needs --threads-per-block %d, not %d"), p->recipe, RECIPE_SUM_TEAM,
                         p->threads_per_block);
    return vector_plan_buffers(p, info, plan, err, 2, names, 1);
}

/* bins = a 256-bin histogram of a's n numbers: one output of 256 counts, any team size. */
static int histogram_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    static const char *const names[] = {"a", "bins"};
    return vector_plan_buffers(p, info, plan, err, 2, names, RECIPE_HIST_BINS);
}

/* The private histogram's launch: one cook per bin of the team's locker, 256 a team. */
static int histogram_team_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan,
                               chef_error *err)
{
    if (p->threads_per_block != RECIPE_HIST_BINS)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the private histogram has one cook per bin: 256 cooks a team"),
                         _("%s needs --threads-per-block %d, not %d"), p->recipe, RECIPE_HIST_BINS,
                         p->threads_per_block);
    return histogram_plan(p, info, plan, err);
}

/* count = how many of a's n numbers are above 0: one output; teams of whole warps (the vote is a
   warp's). */
static int vote_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    static const char *const names[] = {"a", "count"};
    if (p->threads_per_block % 32 != 0)
        return chef_fail(err, CHEF_EXIT_USAGE, _("a warp votes with all its 32 cooks: give teams of whole warps"),
                         _("%s needs --threads-per-block a multiple of 32, not %d"), p->recipe, p->threads_per_block);
    return vector_plan_buffers(p, info, plan, err, 2, names, 1);
}

/* out = a scan of a, team by team: teams of exactly the kernels' 256 cooks. */
static int scan_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (p->threads_per_block != RECIPE_SCAN_TEAM)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the scans' locker holds one number per cook of a team of 256"),
                         _("%s needs --threads-per-block %d, not %d"), p->recipe, RECIPE_SCAN_TEAM,
                         p->threads_per_block);
    return unary_plan(p, info, plan, err);
}

/* b = f(a) for the branch kernels: teams of whole warps, so that a warp's 32 cooks share i / 32. */
static int branch_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (p->threads_per_block % 32 != 0)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the branches are chosen per warp: give teams of whole warps"),
                         _("%s needs --threads-per-block a multiple of 32, not %d"), p->recipe, p->threads_per_block);
    return unary_plan(p, info, plan, err);
}

/* Fills every input buffer: counting on from 1 through the buffers ([1, 2, 3, 4] and [5, 6, 7, 8])
   for the counting example, else seeded random values in [-1, 1). */
static void vector_fill(kitchen_plan *plan)
{
    uint64_t s = plan->seed;
    float next = 1.0f;
    for (int b = 0; b < plan->nbuffers; b++) {
        kitchen_buffer *buf = &plan->buffers[b];
        if (buf->is_output)
            continue;
        for (size_t i = 0; i < buf->count; i++)
            buf->host[i] = plan->counting ? next++ : recipe_random(&s);
    }
}

/* Numbers spread evenly over [0, 1): every bin gets about n / 256. */
static void histogram_fill(kitchen_plan *plan)
{
    vector_fill(plan);
    float *a = plan->buffers[0].host;
    for (size_t i = 0; i < plan->buffers[0].count; i++)
        a[i] = (a[i] + 1.0f) * 0.5f;
}

/* Numbers crowded near 0 (x^16 of an even spread): about seven in ten fall in the first bin, the
   queue an atomicAdd on one address makes. */
static void histogram_skewed_fill(kitchen_plan *plan)
{
    histogram_fill(plan);
    float *a = plan->buffers[0].host;
    for (size_t i = 0; i < plan->buffers[0].count; i++) {
        float x = a[i] * a[i];
        x *= x;
        x *= x;
        a[i] = x * x;
    }
}

/* Square roots need inputs >= 0: the squares [1, 4, 9, 16] for the counting example (their roots
   are [1, 2, 3, 4]), else seeded random values in [0, 100). */
static void sqrt_fill(kitchen_plan *plan)
{
    vector_fill(plan);
    float *a = plan->buffers[0].host;
    for (size_t i = 0; i < plan->buffers[0].count; i++)
        a[i] = plan->counting ? a[i] * a[i] : (a[i] + 1.0f) * 50.0f;
}

/* Angles in radians: [1, 2, 3, ...] for the counting example, else seeded random values in [-pi, pi). */
static void sin_fill(kitchen_plan *plan)
{
    vector_fill(plan);
    float *a = plan->buffers[0].host;
    if (!plan->counting)
        for (size_t i = 0; i < plan->buffers[0].count; i++)
            a[i] *= 3.14159265f;
}

#ifndef CHEF_RECIPES_NO_REFERENCE
/* The head chef's way: one element after another. */
static void vector_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host, *b = plan->buffers[1].host;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        expected[i] = a[i] + b[i];
}

/* Lesson 8's chain: b added to a eight times, in the order eight launches add it. */
static void add_chain_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host, *b = plan->buffers[1].host;
    for (size_t i = 0; i < (size_t)plan->n; i++) {
        float x = a[i];
        for (int s = 0; s < RECIPE_CHAIN_STEPS; s++)
            x = x + b[i];
        expected[i] = x;
    }
}

/* Square roots in double precision, rounded to float. */
static void sqrt_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        expected[i] = (float)sqrt((double)a[i]);
}

/* Sines in double precision, rounded to float. */
static void sin_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        expected[i] = (float)sin((double)a[i]);
}

/* a * x + y in double precision, rounded once (as a fused multiply-add on the GPU is). */
static void saxpy_reference(const kitchen_plan *plan, float *expected)
{
    const float *x = plan->buffers[0].host, *y = plan->buffers[1].host;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        expected[i] = (float)((double)plan->scalar * x[i] + y[i]);
}

/* The two recipes of the branch kernels, 64 steps each, in double precision; which one element i
   gets is its cook's parity (by cook) or its warp's (by warp). */
static void branch_reference(const kitchen_plan *plan, float *expected, size_t group)
{
    const float *a = plan->buffers[0].host;
    for (size_t i = 0; i < (size_t)plan->n; i++) {
        double x = a[i];
        int first = (i / group) % 2 == 0;
        for (int s = 0; s < 64; s++)
            x = first ? x * (double)0.99f + (double)0.01f : x * (double)0.98f - (double)0.01f;
        expected[i] = (float)x;
    }
}

/* branch_by_cook: even cooks the first recipe. */
static void branch_by_cook_reference(const kitchen_plan *plan, float *expected)
{
    branch_reference(plan, expected, 1);
}

/* branch_by_warp: even warps the first recipe. */
static void branch_by_warp_reference(const kitchen_plan *plan, float *expected)
{
    branch_reference(plan, expected, 32);
}

/* The 256 bins' counts of numbers in [0, 1), binned as the kernels bin them (in float). */
static void histogram_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    size_t counts[RECIPE_HIST_BINS] = {0};
    for (size_t i = 0; i < (size_t)plan->n; i++) {
        int bin = (int)(a[i] * RECIPE_HIST_BINS);
        counts[bin > RECIPE_HIST_BINS - 1 ? RECIPE_HIST_BINS - 1 : bin]++;
    }
    for (int b = 0; b < RECIPE_HIST_BINS; b++)
        expected[b] = (float)counts[b];
}

/* Each team's running totals: out[i] = the sum of its part's numbers up to i, in double precision. */
static void scan_team_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    double total = 0;
    for (size_t i = 0; i < (size_t)plan->n; i++) {
        total = (i % RECIPE_SCAN_TEAM == 0 ? 0 : total) + a[i];
        expected[i] = (float)total;
    }
}

/* Each team's positive numbers packed to the front of its part, in order, the rest 0. */
static void compact_team_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    size_t n = (size_t)plan->n;
    for (size_t start = 0; start < n; start += RECIPE_SCAN_TEAM) {
        size_t end = start + RECIPE_SCAN_TEAM < n ? start + RECIPE_SCAN_TEAM : n, put = start;
        for (size_t i = start; i < end; i++)
            if (a[i] > 0.0f)
                expected[put++] = a[i];
        while (put < end)
            expected[put++] = 0.0f;
    }
}

/* How many of the numbers are above 0. */
static void count_positive_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    size_t count = 0;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        count += a[i] > 0.0f;
    expected[0] = (float)count;
}

/* One running total in double precision. */
static void sum_reference(const kitchen_plan *plan, float *expected)
{
    const float *a = plan->buffers[0].host;
    double sum = 0.0;
    for (size_t i = 0; i < (size_t)plan->n; i++)
        sum += a[i];
    expected[0] = (float)sum;
}
#endif

/* Packs the device pointer of every buffer, in order, from args[0]; returns how many. */
static int recipe_pack_buffers(kitchen_plan *plan, void **args)
{
    for (int i = 0; i < plan->nbuffers; i++)
        args[i] = &plan->buffers[i].device;
    return plan->nbuffers;
}

/* Packs every buffer then n: vector_add(a, b, c, n), vector_sqrt(a, b, n), sum_reduce(a, sum, n). */
static void buffers_n_args(kitchen_plan *plan, void **args)
{
    args[recipe_pack_buffers(plan, args)] = &plan->n_int;
}

/* Packs saxpy(x, y, out, a, n). */
static void saxpy_args(kitchen_plan *plan, void **args)
{
    int i = recipe_pack_buffers(plan, args);
    args[i] = &plan->scalar;
    args[i + 1] = &plan->n_int;
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

/* Four elements per cook: a grid of ceil(n / 4 / threads) teams unless --blocks says otherwise. */
static int vector4_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (vector_plan(p, info, plan, err) != 0)
        return -1;
    if (p->blocks <= 0) {
        int64_t groups = (p->n + 3) / 4;
        plan->grid.x = (unsigned)((groups + plan->block.x - 1) / plan->block.x);
    }
    return 0;
}

/* Element i belongs to the cook whose global index is i / 4. */
static int vector4_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    return vector_owner(plan, index / 4, block, thread);
}

/* No single cook owns an element: a sum that cook 0 of every team adds into, or a library that
   picks its own teams. */
int recipe_owner_none(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    (void)plan;
    (void)index;
    (void)block;
    (void)thread;
    return 0;
}

/* One add (or one function) per element. */
static double vector_work(int64_t n)
{
    return (double)n;
}

/* The chain's adds per element. */
static double add_chain_work(int64_t n)
{
    return (double)n * RECIPE_CHAIN_STEPS;
}

/* 64 multiply-adds per element. */
static double branch_work(int64_t n)
{
    return 64.0 * (double)n;
}

/* --- matrix multiply: C = A * B, n x n --- */

/* n^3 multiply-adds. */
double recipe_matmul_work(int64_t n)
{
    return (double)n * (double)n * (double)n;
}

/* Sizes the three n x n buffers and sets a 1 x 1 grid of one cook (see recipes.h). */
int recipe_matrix_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    (void)info;
    int64_t n = p->n;
    if (n < 1 || n > RECIPE_MATRIX_MAX)
        return chef_fail(err, CHEF_EXIT_USAGE, _("matrices are n x n floats indexed by int: use 1 to 46340"),
                         _("--n %lld is outside 1..%d"), (long long)n, RECIPE_MATRIX_MAX);
    if (p->blocks > 0)
        return chef_fail(err, CHEF_EXIT_USAGE, _("leave --blocks out for matrix recipes"),
                         _("%s sets its own 2D grid from --n"), p->recipe);
    plan->n = n;
    plan->n_int = (int)n;
    plan->nbuffers = 3;
    static const char *const names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++) {
        plan->buffers[i].name = names[i];
        plan->buffers[i].count = (size_t)(n * n);
        plan->buffers[i].is_output = i == 2;
    }
    plan->block = (chef_dim3){1, 1, 1};
    plan->grid = (chef_dim3){1, 1, 1};
    return 0;
}

/* Sets a 2D launch of side x side cooks per team and enough teams to cover the n x n matrix. */
static void matrix_grid(kitchen_plan *plan, unsigned side)
{
    unsigned teams = (unsigned)((plan->n + side - 1) / side);
    plan->block = (chef_dim3){side, side, 1};
    plan->grid = (chef_dim3){teams, teams, 1};
}

/* The tiled kernel's launch: 16 x 16 cooks per team, fixed by its TILE. */
int recipe_matmul_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (recipe_matrix_plan(p, info, plan, err) != 0)
        return -1;
    if (p->threads_per_block != 256)
        return chef_fail(err, CHEF_EXIT_USAGE, _("this kernel's tile is fixed at 16 x 16 cooks"),
                         _("%s needs --threads-per-block 256 (16 x 16), not %d"), p->recipe, p->threads_per_block);
    matrix_grid(plan, 16);
    return 0;
}

/* Square teams for the naive and coalesced kernels: side x side cooks, --threads-per-block = side^2. */
static int square_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (recipe_matrix_plan(p, info, plan, err) != 0 || recipe_check_block(p->threads_per_block, info, err) != 0)
        return -1;
    int side = (int)lround(sqrt((double)p->threads_per_block));
    if (side * side != p->threads_per_block)
        return chef_fail(err, CHEF_EXIT_USAGE, _("teams are squares of cooks: use 64 (8 x 8), 256 (16 x 16) or 1024 (32 x 32)"),
                         _("--threads-per-block %d is not a perfect square"), p->threads_per_block);
    matrix_grid(plan, (unsigned)side);
    return 0;
}

/* Fills A and B with seeded random values. */
void recipe_matmul_fill(kitchen_plan *plan)
{
    uint64_t s = plan->seed;
    for (int i = 0; i < 2; i++)
        for (size_t k = 0; k < plan->buffers[i].count; k++)
            plan->buffers[i].host[k] = recipe_random(&s);
}

#ifndef CHEF_RECIPES_NO_REFERENCE
/* The head chef's way: every dot product in double precision. */
void recipe_matmul_reference(const kitchen_plan *plan, float *expected)
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

/* The fast way: OpenBLAS on every core. */
void recipe_matmul_reference_blas(const kitchen_plan *plan, float *expected)
{
    blas_sgemm(plan->buffers[0].host, plan->buffers[1].host, expected, plan->n_int);
}

/* The product of the inputs as given, by the loop or (fast) by OpenBLAS: what a recipe whose
   inputs are rounded reports its error against (recipe.exact). */
static void matmul_exact(const kitchen_plan *plan, float *expected, int fast)
{
    (fast ? recipe_matmul_reference_blas : recipe_matmul_reference)(plan, expected);
}

/* x as the tensor cores read it after the kernel's rounding (round: 'h' FP16, 'b' BF16, 't' TF32). */
static float wmma_round(float x, char round)
{
    return round == 'h' ? __half2float(__float2half(x))
           : round == 'b' ? __bfloat162float(__float2bfloat16(x))
                          : __float_to_tf32(x);
}

/* The reference of a WMMA recipe: A and B rounded as the kernel rounds them, then multiplied by the
   loop in double precision or (fast) by OpenBLAS. The kernel's products are exact in FP32 and its
   sums FP32, so what is left to tolerate is FP32's sums, as for the other rungs. */
static void wmma_reference(const kitchen_plan *plan, float *expected, char round, int fast)
{
    kitchen_plan rounded = *plan;
    size_t count = plan->buffers[0].count;
    float *copy = malloc(2 * count * sizeof(float));
    if (!copy) { /* no room for rounded copies: an impossible result, so the taste says so */
        for (size_t i = 0; i < plan->buffers[2].count; i++)
            expected[i] = NAN;
        return;
    }
    for (size_t i = 0; i < count; i++) {
        copy[i] = wmma_round(plan->buffers[0].host[i], round);
        copy[count + i] = wmma_round(plan->buffers[1].host[i], round);
    }
    rounded.buffers[0].host = copy;
    rounded.buffers[1].host = copy + count;
    (fast ? recipe_matmul_reference_blas : recipe_matmul_reference)(&rounded, expected);
    free(copy);
}

static void wmma_reference_fp16(const kitchen_plan *plan, float *expected)
{
    wmma_reference(plan, expected, 'h', 0);
}
static void wmma_reference_fp16_blas(const kitchen_plan *plan, float *expected)
{
    wmma_reference(plan, expected, 'h', 1);
}
static void wmma_reference_bf16(const kitchen_plan *plan, float *expected)
{
    wmma_reference(plan, expected, 'b', 0);
}
static void wmma_reference_bf16_blas(const kitchen_plan *plan, float *expected)
{
    wmma_reference(plan, expected, 'b', 1);
}
static void wmma_reference_tf32(const kitchen_plan *plan, float *expected)
{
    wmma_reference(plan, expected, 't', 0);
}
static void wmma_reference_tf32_blas(const kitchen_plan *plan, float *expected)
{
    wmma_reference(plan, expected, 't', 1);
}
#endif

/* Packs A, B, C and n as the matmul kernels take them. */
void recipe_matrix_args(kitchen_plan *plan, void **args)
{
    buffers_n_args(plan, args);
}

/* Element (row, col) of C: its team and cook when the row comes from the x index (rows_on_x) or,
   as usual, the column does. Teams are plan->block.x cooks wide (square teams). */
static int matrix_owner_mapped(const kitchen_plan *plan, size_t index, int rows_on_x, uint64_t *block,
                               uint64_t *thread)
{
    uint64_t row = index / (uint64_t)plan->n, col = index % (uint64_t)plan->n, side = plan->block.x;
    uint64_t x = rows_on_x ? row : col, y = rows_on_x ? col : row;
    *block = x / side + (y / side) * plan->grid.x;
    *thread = x % side + (y % side) * side;
    return 1;
}

/* threadIdx.x walks along a row of C (coalesced, tiled). */
static int matrix_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    return matrix_owner_mapped(plan, index, 0, block, thread);
}

/* threadIdx.x walks down a column of C (naive: row from x). */
static int matrix_owner_rows_on_x(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    return matrix_owner_mapped(plan, index, 1, block, thread);
}

/* --- transpose: out = the transpose of in, n x n --- */

/* Two n x n buffers, in and out, and teams of 32 x 32 cooks (the kernels' tile), one per square. */
static int transpose_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (recipe_matrix_plan(p, info, plan, err) != 0)
        return -1;
    if (p->threads_per_block != 1024)
        return chef_fail(err, CHEF_EXIT_USAGE, _("the transposes' teams are fixed at 32 x 32 cooks, one per number of the tile"),
                         _("%s needs --threads-per-block 1024 (32 x 32), not %d"), p->recipe, p->threads_per_block);
    static const char *const names[2] = {"in", "out"};
    plan->nbuffers = 2;
    for (int i = 0; i < 2; i++) {
        plan->buffers[i].name = names[i];
        plan->buffers[i].is_output = i == 1;
    }
    matrix_grid(plan, 32);
    return 0;
}

/* Fills in with seeded random values. */
static void transpose_fill(kitchen_plan *plan)
{
    uint64_t s = plan->seed;
    for (size_t k = 0; k < plan->buffers[0].count; k++)
        plan->buffers[0].host[k] = recipe_random(&s);
}

#ifndef CHEF_RECIPES_NO_REFERENCE
/* The head chef's way: every number to its mirrored place. */
static void transpose_reference(const kitchen_plan *plan, float *expected)
{
    const float *in = plan->buffers[0].host;
    size_t n = (size_t)plan->n;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++)
            expected[c * n + r] = in[r * n + c];
}
#endif

/* out[r][c] in the naive transpose: the cook that read in[c][r], x along in's row. */
static int transpose_owner_naive(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    return matrix_owner_mapped(plan, index, 1, block, thread);
}

/* out[r][c] in the transposes through the locker: team (r / 32, c / 32), cook x = c % 32, y = r % 32. */
static int transpose_owner_tiled(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    uint64_t r = index / (uint64_t)plan->n, c = index % (uint64_t)plan->n;
    *block = r / 32 + (c / 32) * plan->grid.x;
    *thread = c % 32 + (r % 32) * 32;
    return 1;
}

/* One number moved per element. */
static double transpose_work(int64_t n)
{
    return (double)n * (double)n;
}

/* A ladder rung's launch: exactly `cooks` cooks per team (1D), one team per rows x cols block of C. */
static int ladder_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err,
                       int cooks, unsigned rows, unsigned cols)
{
    if (recipe_matrix_plan(p, info, plan, err) != 0)
        return -1;
    if (p->threads_per_block != cooks)
        return chef_fail(err, CHEF_EXIT_USAGE, _("this kernel's team size is fixed by the squares of C it shares out"),
                         _("%s needs --threads-per-block %d, not %d"), p->recipe, cooks, p->threads_per_block);
    plan->block = (chef_dim3){(unsigned)cooks, 1, 1};
    plan->grid = (chef_dim3){(unsigned)((plan->n + cols - 1) / cols), (unsigned)((plan->n + rows - 1) / rows), 1};
    return 0;
}

/* matmul_1d_blocking.cu: 512 cooks on a 64 x 64 square. */
static int blocking_1d_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    return ladder_plan(p, info, plan, err, 512, 64, 64);
}

/* matmul_2d_blocking.cu, matmul_vectorized.cu, matmul_warptile.cu and matmul_prefetch.cu: 256 cooks
   on a 128 x 128 square. */
static int blocking_2d_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    return ladder_plan(p, info, plan, err, 256, 128, 128);
}

/* matmul_async.cu: 256 cooks on a block of 128 rows x 256 columns. */
static int async_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    return ladder_plan(p, info, plan, err, 256, 128, 256);
}

/* matmul_tensor.cu: 128 cooks (4 warps) on a 128 x 128 square. */
static int tensor_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    return ladder_plan(p, info, plan, err, 128, 128, 128);
}

/* Element (row, col) of C in its team's rows x cols block: the team's linear index, and the
   position (r, c) inside the block. */
static uint64_t ladder_block(const kitchen_plan *plan, size_t index, unsigned rows, unsigned cols, unsigned *r,
                             unsigned *c)
{
    uint64_t row = index / (uint64_t)plan->n, col = index % (uint64_t)plan->n;
    *r = (unsigned)(row % rows);
    *c = (unsigned)(col % cols);
    return col / cols + (row / rows) * plan->grid.x;
}

/* The same for a side x side square. */
static uint64_t ladder_team(const kitchen_plan *plan, size_t index, unsigned side, unsigned *r, unsigned *c)
{
    return ladder_block(plan, index, side, side, r, c);
}

/* Cook t owns column t % 64 and rows 8 (t / 64) .. + 7 of its team's square. */
static int blocking_1d_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    unsigned r, c;
    *block = ladder_team(plan, index, 64, &r, &c);
    *thread = c + (r / 8) * 64;
    return 1;
}

/* Cook t owns the 8 x 8 square at rows 8 (t / 16), columns 8 (t % 16) of its team's square. */
static int blocking_2d_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    unsigned r, c;
    *block = ladder_team(plan, index, 128, &r, &c);
    *thread = (r / 8) * 16 + c / 8;
    return 1;
}

/* Warp w owns the 64 x 32 piece in row w / 4, column w % 4 of pieces; in each of its 16-column
   sub-pieces lane l owns rows 8 (l / 4) .. + 7 and columns 4 (l % 4) .. + 3. */
static int warptile_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    unsigned r, c;
    *block = ladder_team(plan, index, 128, &r, &c);
    unsigned warp = (r / 64) * 4 + c / 32, lane = ((r % 64) / 8) * 4 + ((c % 16) / 4);
    *thread = warp * 32 + lane;
    return 1;
}

/* matmul_async.cu: warp w owns the 64 x 64 piece in row w / 4, column w % 4 of pieces; lane l
   owns rows 4 (l / 4) .. + 3 of each 32-row half and columns 4 (l % 4) .. + 3 of each 16-column
   quarter of it. */
static int async_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    unsigned r, c;
    *block = ladder_block(plan, index, 128, 256, &r, &c);
    unsigned warp = (r / 64) * 4 + c / 64, lane = ((r % 32) / 4) * 4 + (c % 16) / 4;
    *thread = warp * 32 + lane;
    return 1;
}

/* matmul_tensor.cu: teams take 8 rows of 128 x 128 blocks at a time, column by column (its
   team-order); warp w owns the 64 x 64 piece in row w / 2, column w % 2 of pieces; lane l holds rows
   l / 4 and l / 4 + 8 of each 16 rows, and columns 8 (l % 4) .. + 7 of each 32 (tiles interleaved). */
static int tensor_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    uint64_t row = index / (uint64_t)plan->n, col = index % (uint64_t)plan->n;
    unsigned tile_row = (unsigned)(row / 128), tile_col = (unsigned)(col / 128), r = (unsigned)(row % 128),
             c = (unsigned)(col % 128);
    unsigned first = tile_row / 8 * 8, rows = plan->grid.y - first < 8 ? plan->grid.y - first : 8;
    *block = (uint64_t)first * plan->grid.x + (uint64_t)tile_col * rows + (tile_row - first);
    unsigned warp = (r / 64) * 2 + c / 64, lane = (r % 8) * 4 + (c % 32) / 8;
    *thread = warp * 32 + lane;
    return 1;
}

/* matmul_wmma.cu: 256 cooks (8 warps) on a 128 x 128 square; BF16 and TF32 tiles need compute
   capability 8.0 on a GPU. */
static int wmma_plan(const kitchen_params *p, const backend_info *info, kitchen_plan *plan, chef_error *err)
{
    if (info->kind == BACKEND_GPU && info->cc_major < 8 && strcmp(p->recipe, "matmul-wmma-fp16") != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("matmul-wmma-fp16 runs on this GPU; BF16 and TF32 need 8.0"),
                         _("%s needs tensor cores of compute capability 8.0 or later; this GPU is %d.%d"), p->recipe,
                         info->cc_major, info->cc_minor);
    return ladder_plan(p, info, plan, err, 256, 128, 128);
}

/* matmul_wmma.cu: warp w owns the 64 x 32 piece in row w / 4, column w % 4 of pieces, as 16 x 16
   tiles. A tile inside C is stored by the fragments: the emulator's give lane l row l % 16, columns
   8 (l / 16) .. + 7 (on a GPU the layout is the GPU's own); a tile across the edge is copied from
   the locker, element e of the tile by lane e % 32. */
static int wmma_owner(const kitchen_plan *plan, size_t index, uint64_t *block, uint64_t *thread)
{
    unsigned r, c;
    *block = ladder_team(plan, index, 128, &r, &c);
    uint64_t row = index / (uint64_t)plan->n - r % 16, col = index % (uint64_t)plan->n - c % 16;
    int whole = row + 16 <= (uint64_t)plan->n && col + 16 <= (uint64_t)plan->n && plan->n % 4 == 0;
    unsigned warp = (r / 64) * 4 + c / 32, lane = whole ? r % 16 + 16 * ((c % 16) / 8) : ((r % 16) * 16 + c % 16) % 32;
    *thread = warp * 32 + lane;
    return 1;
}

/* --- the recipes --- */

static const recipe recipe_vector_add = {
    .name = "vector-add", .kernel = "vector_add", .summary = "c[i] = a[i] + b[i], one element per cook",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1e-7, .counting = 1,
    .plan = vector_plan, .fill = vector_fill, .reference = RECIPE_REFERENCE(vector_reference), .args = buffers_n_args,
    .owner = vector_owner, .work = vector_work};

/* a fused kernel (b * 8 in one multiply) rounds differently: the tolerance of the trips demo's chain */
static const recipe recipe_add_chain = {
    .name = "add-chain", .kernel = "add_chain", .summary = "c[i] = a[i] + b[i] added eight times: lesson 8's chain",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1.1e-5, .plan = vector_plan,
    .fill = vector_fill, .reference = RECIPE_REFERENCE(add_chain_reference), .args = buffers_n_args,
    .owner = vector_owner, .work = add_chain_work};

static const recipe recipe_vector_add_grid_stride = {
    .name = "vector-add-grid-stride", .kernel = "vector_add_grid_stride",
    .summary = "vector add where each cook strides over the grid (any --blocks works)",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1e-7, .strides = 1,
    .counting = 1, .plan = vector_plan, .fill = vector_fill, .reference = RECIPE_REFERENCE(vector_reference),
    .args = buffers_n_args, .owner = stride_owner, .work = vector_work};

static const recipe recipe_vector_add_unguarded = {
    .name = "vector-add-unguarded", .kernel = "vector_add_unguarded",
    .summary = "vector add without the bounds check: the idle cooks reach past the end",
    .default_n = 1000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1e-7, .counting = 1,
    .plan = vector_plan, .fill = vector_fill, .reference = RECIPE_REFERENCE(vector_reference), .args = buffers_n_args,
    .owner = vector_owner, .work = vector_work};

/* sqrtf is correctly rounded on both sides; the tolerance only absorbs the last bit. */
static const recipe recipe_vector_sqrt = {
    .name = "vector-sqrt", .kernel = "vector_sqrt", .summary = "b[i] = sqrt(a[i]), one element per cook",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1e-7, .counting = 1,
    .plan = unary_plan, .fill = sqrt_fill, .reference = RECIPE_REFERENCE(sqrt_reference), .args = buffers_n_args,
    .owner = vector_owner, .work = vector_work};

/* The GPU's sinf is within 2 units in the last place (about 2.4e-7 near 1): rtol and atol cover it. */
static const recipe recipe_vector_sin = {
    .name = "vector-sin", .kernel = "vector_sin", .summary = "b[i] = sin(a[i]), one element per cook",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-5, .atol = 1e-6, .counting = 1,
    .plan = unary_plan, .fill = sin_fill, .reference = RECIPE_REFERENCE(sin_reference), .args = buffers_n_args,
    .owner = vector_owner, .work = vector_work};

static const recipe recipe_saxpy = {
    .name = "saxpy", .kernel = "saxpy", .summary = "out[i] = 2 x[i] + y[i]: a float parameter beside the arrays",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1e-7, .counting = 1,
    .plan = saxpy_plan, .fill = vector_fill, .reference = RECIPE_REFERENCE(saxpy_reference), .args = saxpy_args,
    .owner = vector_owner, .work = vector_work};

/* Float sums depend on the order of the adds (and atomic adds come in any order): atol grows with n. */
/* The fields the two tree sums share. */
#define RECIPE_SUM_COMMON                                                                          \
    .default_n = 1000000, .default_threads_per_block = RECIPE_SUM_TEAM, .rtol = 1e-5, .atol = 1e-6,   \
    .atol_scales_with_n = 1, .counting = 1, .zero_output = 1, .plan = sum_plan, .fill = vector_fill, \
    .reference = RECIPE_REFERENCE(sum_reference), .args = buffers_n_args, .owner = recipe_owner_none, .work = vector_work

static const recipe recipe_sum_reduce = {
    .name = "sum-reduce", .kernel = "sum_reduce",
    .summary = "one sum of n numbers: a tree in each team's shared locker, then one atomic add per team",
    RECIPE_SUM_COMMON};

/* The sum with each warp adding its 32 values by shuffles, then one slot per warp in the locker. */
static const recipe recipe_sum_reduce_warp = {
    .name = "sum-reduce-warp", .kernel = "sum_reduce_warp",
    .summary = "one sum of n numbers: each warp adds its 32 by __shfl_down_sync, one locker slot per warp",
    RECIPE_SUM_COMMON};

/* Counts are whole numbers: exact below 2^24, so no tolerance beyond half a count. */
#define RECIPE_HIST_COMMON                                                                           \
    .default_n = 1000000, .default_threads_per_block = RECIPE_HIST_BINS, .rtol = 0, .atol = 0.5,       \
    .zero_output = 1, .reference = RECIPE_REFERENCE(histogram_reference),                            \
    .args = buffers_n_args, .owner = recipe_owner_none, .work = vector_work

static const recipe recipe_histogram_global = {
    .name = "histogram-global", .kernel = "histogram_global",
    .summary = "a 256-bin histogram of n numbers spread evenly: one atomicAdd per number, in device memory",
    RECIPE_HIST_COMMON, .plan = histogram_plan, .fill = histogram_fill};

static const recipe recipe_histogram_global_skewed = {
    .name = "histogram-global-skewed", .kernel = "histogram_global",
    .summary = "histogram-global on numbers crowded in the first bin: the atomicAdds queue at one address",
    RECIPE_HIST_COMMON, .plan = histogram_plan, .fill = histogram_skewed_fill};

static const recipe recipe_histogram_shared = {
    .name = "histogram-shared", .kernel = "histogram_shared",
    .summary = "the histogram counted in each team's locker first, then 256 atomicAdds per team",
    RECIPE_HIST_COMMON, .plan = histogram_team_plan, .fill = histogram_fill};

static const recipe recipe_histogram_shared_skewed = {
    .name = "histogram-shared-skewed", .kernel = "histogram_shared",
    .summary = "histogram-shared on the crowded numbers: the queue stays in each team's locker",
    RECIPE_HIST_COMMON, .plan = histogram_team_plan, .fill = histogram_skewed_fill};

/* Sums of up to 256 numbers in [-1, 1), added in another order than the reference's. */
#define RECIPE_SCAN_COMMON                                                                           \
    .default_n = 1000000, .default_threads_per_block = RECIPE_SCAN_TEAM, .rtol = 1e-5, .atol = 1e-5,   \
    .plan = scan_plan, .fill = vector_fill, .args = buffers_n_args, .work = vector_work

static const recipe recipe_scan_team_steps = {
    .name = "scan-team-steps", .kernel = "scan_steps",
    .summary = "running totals of each team's 256 numbers in 8 steps, every cook adding in every step",
    RECIPE_SCAN_COMMON, .reference = RECIPE_REFERENCE(scan_team_reference), .owner = vector_owner};

static const recipe recipe_scan_team_work = {
    .name = "scan-team-work", .kernel = "scan_work",
    .summary = "the same running totals up and down a tree: 766 additions in 16 steps instead of 1,793 in 8",
    RECIPE_SCAN_COMMON, .reference = RECIPE_REFERENCE(scan_team_reference), .owner = vector_owner};

static const recipe recipe_compact_team = {
    .name = "compact-team", .kernel = "compact_team",
    .summary = "each team's positive numbers packed to the front of its part, by a scan of keep flags",
    .default_n = 1000000, .default_threads_per_block = RECIPE_SCAN_TEAM, .rtol = 0, .atol = 0, .plan = scan_plan,
    .fill = vector_fill, .args = buffers_n_args, .work = vector_work,
    .reference = RECIPE_REFERENCE(compact_team_reference), .owner = recipe_owner_none};

/* A count is a whole number: exact below 2^24, so no tolerance beyond half a count. */
static const recipe recipe_count_positive = {
    .name = "count-positive", .kernel = "count_positive",
    .summary = "how many of n numbers are above 0: each warp votes with __ballot_sync and counts with __popc",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 0, .atol = 0.5, .zero_output = 1,
    .plan = vote_plan, .fill = vector_fill, .reference = RECIPE_REFERENCE(count_positive_reference),
    .args = buffers_n_args, .owner = recipe_owner_none, .work = vector_work};

/* 64 multiply-adds in float against double: a few units in the last place, rtol and atol cover them. */
#define RECIPE_BRANCH_COMMON                                                                         \
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-5, .atol = 1e-5, .plan = branch_plan, \
    .fill = vector_fill, .args = buffers_n_args, .owner = vector_owner, .work = branch_work

static const recipe recipe_branch_by_cook = {
    .name = "branch-by-cook", .kernel = "branch_by_cook",
    .summary = "two 64-step recipes chosen by each cook's parity: every warp diverges and runs both",
    RECIPE_BRANCH_COMMON, .reference = RECIPE_REFERENCE(branch_by_cook_reference)};

static const recipe recipe_branch_by_warp = {
    .name = "branch-by-warp", .kernel = "branch_by_warp",
    .summary = "the same two recipes chosen per warp: no warp diverges",
    RECIPE_BRANCH_COMMON, .reference = RECIPE_REFERENCE(branch_by_warp_reference)};

/* The same tree with its slots spread out: the pair whose shared-memory bank conflicts hide. */
static const recipe recipe_sum_reduce_strided = {
    .name = "sum-reduce-strided", .kernel = "sum_reduce_strided",
    .summary = "sum-reduce with the tree's slots spread out: the same adds, with shared-memory bank conflicts",
    RECIPE_SUM_COMMON};

/* The fields every matrix multiply of kernels/ shares, but its team size. */
#define RECIPE_MATMUL_DATA                                                                          \
    .default_n = 256, .rtol = 1e-4, .atol = 2e-6, .atol_scales_with_n = 1, .fill = recipe_matmul_fill, \
    .reference = RECIPE_REFERENCE(recipe_matmul_reference), .reference_fast = RECIPE_REFERENCE(recipe_matmul_reference_blas),          \
    .args = recipe_matrix_args, .work = recipe_matmul_work
#define RECIPE_MATMUL_COMMON RECIPE_MATMUL_DATA, .default_threads_per_block = 256

static const recipe recipe_matmul_naive = {
    .name = "matmul-naive", .kernel = "matmul_naive",
    .summary = "C = A x B (n x n), row from x: a warp's writes land n elements apart",
    RECIPE_MATMUL_COMMON, .plan = square_plan, .owner = matrix_owner_rows_on_x};

static const recipe recipe_matmul_coalesced = {
    .name = "matmul-coalesced", .kernel = "matmul_coalesced",
    .summary = "C = A x B (n x n), column from x: a warp writes neighbouring elements",
    RECIPE_MATMUL_COMMON, .plan = square_plan, .owner = matrix_owner};

static const recipe recipe_matmul_tiled = {
    .name = "matmul-tiled", .kernel = "matmul_tiled", .summary = "C = A x B (n x n) with 16 x 16 tiles in shared memory",
    RECIPE_MATMUL_COMMON, .plan = recipe_matmul_plan, .owner = matrix_owner};

static const recipe recipe_matmul_tiled_no_fill_barrier = {
    .name = "matmul-tiled-no-fill-barrier", .kernel = "matmul_tiled_no_fill_barrier",
    .summary = "matmul-tiled without the barrier after filling the locker: cooks read squares not yet there",
    RECIPE_MATMUL_COMMON, .plan = recipe_matmul_plan, .owner = matrix_owner};

static const recipe recipe_matmul_tiled_no_reuse_barrier = {
    .name = "matmul-tiled-no-reuse-barrier", .kernel = "matmul_tiled_no_reuse_barrier",
    .summary = "matmul-tiled without the barrier before refilling the locker: fast cooks overwrite squares still in use",
    RECIPE_MATMUL_COMMON, .plan = recipe_matmul_plan, .owner = matrix_owner};

/* The ladder's upper rungs (lesson 12): each cook makes several results; fixed team sizes. */
static const recipe recipe_matmul_1d_blocking = {
    .name = "matmul-1d-blocking", .kernel = "matmul_1d_blocking",
    .summary = "C = A x B (n x n): each cook makes 8 results of one column, teams of 512 on 64 x 64 squares",
    RECIPE_MATMUL_DATA, .default_threads_per_block = 512, .square = 64, .plan = blocking_1d_plan, .owner = blocking_1d_owner};

static const recipe recipe_matmul_2d_blocking = {
    .name = "matmul-2d-blocking", .kernel = "matmul_2d_blocking",
    .summary = "C = A x B (n x n): each cook makes an 8 x 8 square of results, teams of 256 on 128 x 128 squares",
    RECIPE_MATMUL_COMMON, .square = 128, .plan = blocking_2d_plan, .owner = blocking_2d_owner};

static const recipe recipe_matmul_vectorized = {
    .name = "matmul-vectorized", .kernel = "matmul_vectorized",
    .summary = "matmul-2d-blocking with four numbers per trip to memory (float4)",
    RECIPE_MATMUL_COMMON, .square = 128, .plan = blocking_2d_plan, .owner = blocking_2d_owner};

static const recipe recipe_matmul_warptile = {
    .name = "matmul-warptile", .kernel = "matmul_warptile",
    .summary = "C = A x B (n x n): team, warp and cook each own a tile; teams of 256 on 128 x 128 squares",
    RECIPE_MATMUL_COMMON, .square = 128, .plan = blocking_2d_plan, .owner = warptile_owner};

static const recipe recipe_matmul_prefetch = {
    .name = "matmul-prefetch", .kernel = "matmul_prefetch",
    .summary = "matmul-warptile fetching the next strips while it cooks, with a locker of two halves",
    RECIPE_MATMUL_COMMON, .square = 128, .plan = blocking_2d_plan, .owner = warptile_owner};

static const recipe recipe_matmul_async = {
    .name = "matmul-async", .kernel = "matmul_async",
    .summary = "matmul-warptile with asynchronous copies straight into a locker of three strips (cp.async)",
    RECIPE_MATMUL_COMMON, .square = 128, .square_cols = 256, .plan = async_plan, .owner = async_owner};

/* TF32 inputs: the tolerance of matmul-library-tf32 (recipes_library.c says why). */
static const recipe recipe_matmul_tensor = {
    .name = "matmul-tensor", .kernel = "matmul_tensor",
    .summary = "matmul-async with the multiply-adds on the tensor cores, in TF32 (mma.sync, 16 x 8 x 8 per warp)",
    .default_n = 256, .default_threads_per_block = 128, .rtol = 1e-3, .atol = 1e-3, .atol_scales_with_n = 1,
    .fill = recipe_matmul_fill, .reference = RECIPE_REFERENCE(recipe_matmul_reference),
    .reference_fast = RECIPE_REFERENCE(recipe_matmul_reference_blas), .args = recipe_matrix_args,
    .work = recipe_matmul_work, .square = 128, .tensor_tf32 = 1, .plan = tensor_plan, .owner = tensor_owner,
    .precision = "TF32", .exact = RECIPE_REFERENCE(matmul_exact)};

/* The WMMA recipes (lesson 21): inputs rounded by the kernel, products exact, sums in FP32. The
   references round the inputs the same way, so the taste's tolerance is the FP32 rungs' (with a
   wider atol for the tensor cores' own order of sums); the report's error against the product of
   the inputs as given (exact) shows what the rounding costs. */
#define RECIPE_WMMA_COMMON                                                                          \
    .default_n = 256, .default_threads_per_block = 256, .rtol = 1e-4, .atol = 4e-6, .atol_scales_with_n = 1, \
    .fill = recipe_matmul_fill, .args = recipe_matrix_args, .work = recipe_matmul_work, .square = 128,  \
    .plan = wmma_plan, .owner = wmma_owner, .exact = RECIPE_REFERENCE(matmul_exact)

static const recipe recipe_matmul_wmma_fp16 = {
    .name = "matmul-wmma-fp16", .kernel = "matmul_wmma_fp16",
    .summary = "C = A x B on the tensor cores with WMMA: inputs in FP16, sums in FP32 (16 x 16 x 16 per warp)",
    RECIPE_WMMA_COMMON, .precision = "FP16", .tensor_half = 1,
    .reference = RECIPE_REFERENCE(wmma_reference_fp16), .reference_fast = RECIPE_REFERENCE(wmma_reference_fp16_blas)};

static const recipe recipe_matmul_wmma_bf16 = {
    .name = "matmul-wmma-bf16", .kernel = "matmul_wmma_bf16",
    .summary = "C = A x B on the tensor cores with WMMA: inputs in BF16, sums in FP32 (16 x 16 x 16 per warp)",
    RECIPE_WMMA_COMMON, .precision = "BF16", .tensor_half = 1,
    .reference = RECIPE_REFERENCE(wmma_reference_bf16), .reference_fast = RECIPE_REFERENCE(wmma_reference_bf16_blas)};

static const recipe recipe_matmul_wmma_tf32 = {
    .name = "matmul-wmma-tf32", .kernel = "matmul_wmma_tf32",
    .summary = "C = A x B on the tensor cores with WMMA: inputs in TF32, sums in FP32 (16 x 16 x 8 per warp)",
    RECIPE_WMMA_COMMON, .precision = "TF32", .tensor_tf32 = 1,
    .reference = RECIPE_REFERENCE(wmma_reference_tf32), .reference_fast = RECIPE_REFERENCE(wmma_reference_tf32_blas)};

static const recipe recipe_vector_add_float4 = {
    .name = "vector-add-float4", .kernel = "vector_add_float4",
    .summary = "vector add, four elements per cook with 16-byte loads and stores (float4)",
    .default_n = 1000000, .default_threads_per_block = 256, .rtol = 1e-6, .atol = 1e-7, .counting = 1,
    .plan = vector4_plan, .fill = vector_fill, .reference = RECIPE_REFERENCE(vector_reference), .args = buffers_n_args,
    .owner = vector4_owner, .work = vector_work};

/* The fields the three transposes share. */
#define RECIPE_TRANSPOSE_COMMON                                                                      \
    .default_n = 1024, .default_threads_per_block = 1024, .plan = transpose_plan, .fill = transpose_fill, \
    .reference = RECIPE_REFERENCE(transpose_reference), .args = buffers_n_args, .work = transpose_work

static const recipe recipe_transpose_naive = {
    .name = "transpose-naive", .kernel = "transpose_naive",
    .summary = "out = the transpose of in (n x n): rows read together, written down a column, n floats apart",
    RECIPE_TRANSPOSE_COMMON, .owner = transpose_owner_naive};

static const recipe recipe_transpose_shared = {
    .name = "transpose-shared", .kernel = "transpose_shared",
    .summary = "the transpose through a 32 x 32 tile in the shared locker: coalesced both ways, 32-way bank conflicts",
    RECIPE_TRANSPOSE_COMMON, .owner = transpose_owner_tiled};

static const recipe recipe_transpose_padded = {
    .name = "transpose-padded", .kernel = "transpose_padded",
    .summary = "the transpose through a 32 x 33 tile: the extra column puts a column's words in 32 banks",
    RECIPE_TRANSPOSE_COMMON, .owner = transpose_owner_tiled};

static const recipe *const recipe_list[] = {
    &recipe_vector_add, &recipe_vector_add_grid_stride, &recipe_vector_add_unguarded,
    &recipe_vector_sqrt, &recipe_vector_sin, &recipe_saxpy, &recipe_sum_reduce, &recipe_sum_reduce_strided,
    &recipe_matmul_naive, &recipe_matmul_coalesced, &recipe_matmul_tiled,
    &recipe_matmul_tiled_no_fill_barrier, &recipe_matmul_tiled_no_reuse_barrier,
    &recipe_matmul_1d_blocking, &recipe_matmul_2d_blocking, &recipe_matmul_vectorized,
    &recipe_matmul_warptile, &recipe_matmul_prefetch, &recipe_matmul_async, &recipe_matmul_tensor,
    &recipe_matmul_wmma_fp16, &recipe_matmul_wmma_bf16, &recipe_matmul_wmma_tf32, &recipe_vector_add_float4,
    &recipe_add_chain,
    &recipe_transpose_naive, &recipe_transpose_shared, &recipe_transpose_padded, &recipe_sum_reduce_warp,
    &recipe_count_positive, &recipe_branch_by_cook, &recipe_branch_by_warp, &recipe_histogram_global,
    &recipe_histogram_global_skewed, &recipe_histogram_shared, &recipe_histogram_shared_skewed,
    &recipe_scan_team_steps, &recipe_scan_team_work, &recipe_compact_team,
#ifndef CHEF_RECIPES_NO_REFERENCE
    &recipe_matmul_library, &recipe_matmul_library_tf32,
#endif
    NULL};

/* All recipes, ending with NULL. */
const recipe *const *recipe_all(void)
{
    return recipe_list;
}

/* The matrix-multiply ladder, slowest rung first (see recipes.h). */
const char *const *recipe_ladder(void)
{
    static const char *const ladder[] = {"matmul-naive", "matmul-coalesced", "matmul-tiled",
                                          "matmul-1d-blocking", "matmul-2d-blocking", "matmul-vectorized",
                                          "matmul-warptile", "matmul-prefetch", "matmul-async", "matmul-library", NULL};
    return ladder;
}

/* The recipe called name, or NULL. */
const recipe *recipe_find(const char *name)
{
    for (int i = 0; recipe_list[i]; i++)
        if (strcmp(recipe_list[i]->name, name) == 0)
            return recipe_list[i];
    return NULL;
}
