/*
 * bench_emu.c - `make bench`: how close the CPU emulator comes to plain C doing the same work.
 *
 * Two figures, each a ratio of times measured side by side in this one run (docs/BENCHMARKS.md):
 *   (a) vector add, 1,000,000 elements, kernel "vector_add" with 256 cooks per team, on one worker
 *       (and on the default number of workers) against a C loop c[i] = a[i] + b[i] on one thread,
 *       on the same warm buffers. The loop is timed twice: as the compiler vectorizes it, and
 *       compiled without vectorization (one element at a time, as one cook does it). Goal: the
 *       emulator on one worker within 2x of the scalar loop.
 *   (b) the tiled 256x256 matrix multiply ("matmul_tiled", 16x16 teams of 16x16 cooks) on one
 *       worker and on the default number of workers against a C triple loop (i-k-j order, float
 *       accumulation) on one thread. For information.
 * Results are checked before anything is timed (exit 1 if wrong). Then the contestants of a
 * benchmark take turns (the order rotates every round) for R rounds after a warm-up; each row is
 * the median of its R times and each ratio the ratio of two medians. A missed goal is reported,
 * not failed: the exit code is 0 unless a result was wrong or the program could not run.
 *
 * Usage: bench_emu [--repeat R]   (R rounds per benchmark, at least 7; default 21 and 9)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_stats.h"
#include "emu/emu.h"

#define VA_N 1000000
#define VA_TPB 256
#define MM_N 256
#define MM_TILE 16
#define MM_TOL 1e-3
#define VA_GOAL 2.0 /* emulator (1 worker) / scalar loop, at most */
#define MAX_ROUNDS 1000
#define MAX_ROWS 4

/* The loops are compiled twice: with the vectorizer on, and with it off. GCC's -O2 leaves a loop
 * with an unknown trip count scalar (its "very-cheap" cost model refuses the leftover loop), so
 * the vectorized versions ask for vectorization explicitly. */
#if defined(__clang__)
#define BENCH_VECTORIZED __attribute__((noinline))
#define BENCH_SCALAR __attribute__((noinline))
#define BENCH_NO_VECTORIZE_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#define BENCH_VECTORIZED __attribute__((noinline, noclone, optimize("tree-vectorize")))
#define BENCH_SCALAR __attribute__((noinline, noclone, optimize("no-tree-vectorize")))
#define BENCH_NO_VECTORIZE_LOOP
#else
#define BENCH_VECTORIZED
#define BENCH_SCALAR
#define BENCH_NO_VECTORIZE_LOOP
#endif

BENCH_VECTORIZED static void add_vectorized(const float *restrict a, const float *restrict b, float *restrict c,
                                            int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

BENCH_SCALAR static void add_scalar(const float *restrict a, const float *restrict b, float *restrict c, int n)
{
    BENCH_NO_VECTORIZE_LOOP
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

BENCH_VECTORIZED static void matmul_vectorized(const float *restrict A, const float *restrict B, float *restrict C,
                                               int n)
{
    for (int i = 0; i < n; i++) {
        float *restrict row = C + (size_t)i * n;
        for (int j = 0; j < n; j++)
            row[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            float aik = A[(size_t)i * n + k];
            const float *restrict brow = B + (size_t)k * n;
            for (int j = 0; j < n; j++)
                row[j] += aik * brow[j];
        }
    }
}

BENCH_SCALAR static void matmul_scalar(const float *restrict A, const float *restrict B, float *restrict C, int n)
{
    for (int i = 0; i < n; i++) {
        float *restrict row = C + (size_t)i * n;
        BENCH_NO_VECTORIZE_LOOP
        for (int j = 0; j < n; j++)
            row[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            float aik = A[(size_t)i * n + k];
            const float *restrict brow = B + (size_t)k * n;
            BENCH_NO_VECTORIZE_LOOP
            for (int j = 0; j < n; j++)
                row[j] += aik * brow[j];
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The buffers and launch configurations every contestant works on. */
typedef struct bench_data {
    int n;
    float *a, *b, *c; /* inputs and output (emu_malloc'd: the emulator's device memory) */
    const emu_kernel *kernel;
    emu_dim3 grid, block;
} bench_data;

typedef enum contestant_kind { LOOP_VECTORIZED, LOOP_SCALAR, EMULATOR } contestant_kind;

typedef struct contestant {
    const char *label;
    const char *key;  /* short name used in BENCH lines */
    contestant_kind kind;
    int workers;      /* EMULATOR: worker threads */
    double ms[MAX_ROUNDS];
    double med, min, max;
} contestant;

/* Runs kernel over the data on workers; exits with a message if the launch fails. */
static void emu_run(const bench_data *d, int workers)
{
    const float *a = d->a, *b = d->b;
    float *c = d->c;
    int n = d->n;
    void *args[4] = {&a, &b, &c, &n};
    emu_options o;
    memset(&o, 0, sizeof o);
    o.workers = workers;
    emu_fault fault;
    if (emu_launch(d->kernel, d->grid, d->block, args, &o, &fault) != EMU_OK) {
        fprintf(stderr, "bench_emu: %s on %d worker(s) failed: %s\n", d->kernel->name, workers, fault.message);
        exit(2);
    }
}

/* Runs one contestant once; returns its time in ms. */
static double run_once(const bench_data *d, const contestant *c, int matmul)
{
    double t0 = now_ms();
    switch (c->kind) {
    case LOOP_VECTORIZED:
        if (matmul)
            matmul_vectorized(d->a, d->b, d->c, d->n);
        else
            add_vectorized(d->a, d->b, d->c, d->n);
        break;
    case LOOP_SCALAR:
        if (matmul)
            matmul_scalar(d->a, d->b, d->c, d->n);
        else
            add_scalar(d->a, d->b, d->c, d->n);
        break;
    case EMULATOR:
        emu_run(d, c->workers);
        break;
    }
    return now_ms() - t0;
}

/* One warm-up run each, then rounds rounds in rotating order; fills med, min, max. */
static void race(const bench_data *d, contestant *cs, int ncs, int rounds, int matmul)
{
    for (int i = 0; i < ncs; i++)
        run_once(d, &cs[i], matmul);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < ncs; j++) {
            contestant *c = &cs[(j + r) % ncs];
            c->ms[r] = run_once(d, c, matmul);
        }
    for (int i = 0; i < ncs; i++) {
        cs[i].med = bench_median(cs[i].ms, rounds);
        cs[i].min = cs[i].ms[0];
        cs[i].max = cs[i].ms[rounds - 1];
    }
}

/* Deterministic inputs in [-1, 1). */
static void fill(float *v, size_t count, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < count; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (float)((double)(s >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
    }
}

static int goals_missed;
static char bench_lines[4096]; /* BENCH lines of the current benchmark, printed after its table */

/* Prints one figure as a table row and queues its BENCH line; goal <= 0 means "for information". */
static void figure(const char *name, const char *what, double ratio, double goal)
{
    const char *verdict = goal <= 0 ? "for information" : ratio <= goal ? "goal met" : "GOAL MISSED";
    char goal_text[32], line[256];
    if (goal > 0)
        snprintf(goal_text, sizeof goal_text, "<= %.2gx", goal);
    else
        snprintf(goal_text, sizeof goal_text, "-");
    printf("  %-52s %8.2fx  %-8s %s\n", what, ratio, goal_text, verdict);
    if (goal > 0)
        snprintf(line, sizeof line, "BENCH name=%s ratio=%.3f goal=<=%.3g met=%s\n", name, ratio, goal,
                 ratio <= goal ? "yes" : "no");
    else
        snprintf(line, sizeof line, "BENCH name=%s ratio=%.3f goal=none met=n/a\n", name, ratio);
    size_t used = strlen(bench_lines);
    snprintf(bench_lines + used, sizeof bench_lines - used, "%s", line);
    if (goal > 0 && ratio > goal)
        goals_missed++;
}

/* Prints the queued BENCH lines. */
static void flush_bench_lines(void)
{
    printf("\n%s", bench_lines);
    bench_lines[0] = 0;
}

static void print_rows(const contestant *cs, int ncs)
{
    printf("  %-52s %9s %9s %9s\n", "", "median ms", "min", "max");
    for (int i = 0; i < ncs; i++)
        printf("  %-52s %9.3f %9.3f %9.3f\n", cs[i].label, cs[i].med, cs[i].min, cs[i].max);
}

static void *emu_alloc_or_die(size_t bytes, const char *label)
{
    void *p = emu_malloc(bytes, label, sizeof(float));
    if (!p) {
        fprintf(stderr, "bench_emu: could not allocate %zu bytes for %s\n", bytes, label);
        exit(2);
    }
    return p;
}

/* (a) vector add. Returns 0, or 1 if a result was wrong. */
static int bench_vector_add(int rounds, int default_workers)
{
    bench_data d;
    d.n = VA_N;
    d.a = emu_alloc_or_die(sizeof(float) * VA_N, "a");
    d.b = emu_alloc_or_die(sizeof(float) * VA_N, "b");
    d.c = emu_alloc_or_die(sizeof(float) * VA_N, "c");
    d.kernel = emu_kernel_find("vector_add");
    if (!d.kernel) {
        fprintf(stderr, "bench_emu: kernel vector_add is not compiled in\n");
        exit(2);
    }
    d.grid = (emu_dim3){(VA_N + VA_TPB - 1) / VA_TPB, 1, 1};
    d.block = (emu_dim3){VA_TPB, 1, 1};
    fill(d.a, VA_N, 1);
    fill(d.b, VA_N, 2);

    char label_default[64];
    snprintf(label_default, sizeof label_default, "emulator, %d workers (the default)", default_workers);
    contestant cs[4] = {
        {.label = "C loop, vectorized (one thread)", .key = "vectorized_loop", .kind = LOOP_VECTORIZED},
        {.label = "C loop, scalar: one element at a time (one thread)", .key = "scalar_loop", .kind = LOOP_SCALAR},
        {.label = "emulator, 1 worker", .key = "1w", .kind = EMULATOR, .workers = 1},
        {.label = label_default, .key = "default_workers", .kind = EMULATOR, .workers = default_workers},
    };
    int ncs = default_workers > 1 ? 4 : 3;

    /* Check every contestant's result (exactly: each is one float addition) before timing. */
    for (int i = 0; i < ncs; i++) {
        memset(d.c, 0xFF, sizeof(float) * VA_N); /* NaN everywhere */
        run_once(&d, &cs[i], 0);
        for (int k = 0; k < VA_N; k++) {
            float want = d.a[k] + d.b[k];
            if (memcmp(&d.c[k], &want, sizeof want) != 0) {
                fprintf(stderr, "bench_emu: vector add WRONG (%s): c[%d] = %g, expected %g\n", cs[i].label, k,
                        (double)d.c[k], (double)want);
                return 1;
            }
        }
    }

    race(&d, cs, ncs, rounds, 0);
    printf("(a) vector add, n = %d: %u teams x %d cooks; medians of %d interleaved rounds\n", VA_N, d.grid.x,
           VA_TPB, rounds);
    print_rows(cs, ncs);
    printf("\n  %-52s %9s  %-8s\n", "figure (time / time)", "ratio", "goal");
    double vec = cs[0].med, sc = cs[1].med;
    figure("emu_vector_add_1w_vs_scalar_loop", "emulator 1 worker / scalar loop", cs[2].med / sc, VA_GOAL);
    figure("emu_vector_add_1w_vs_vectorized_loop", "emulator 1 worker / vectorized loop", cs[2].med / vec, 0);
    if (ncs > 3) {
        char name[96], what[96];
        snprintf(what, sizeof what, "emulator %d workers / scalar loop", default_workers);
        snprintf(name, sizeof name, "emu_vector_add_%dw_vs_scalar_loop", default_workers);
        figure(name, what, cs[3].med / sc, 0);
        snprintf(what, sizeof what, "emulator %d workers / vectorized loop", default_workers);
        snprintf(name, sizeof name, "emu_vector_add_%dw_vs_vectorized_loop", default_workers);
        figure(name, what, cs[3].med / vec, 0);
    }
    figure("vector_add_scalar_loop_vs_vectorized_loop", "scalar loop / vectorized loop", sc / vec, 0);
    if (cs[2].med / sc > VA_GOAL)
        printf("  goal missed: the emulator on 1 worker takes %.2fx the scalar loop's time (goal: within %.0fx)\n",
               cs[2].med / sc, VA_GOAL);
    else
        printf("  goal met: the emulator on 1 worker takes %.2fx the scalar loop's time (goal: within %.0fx)\n",
               cs[2].med / sc, VA_GOAL);
    flush_bench_lines();
    emu_free(d.a);
    emu_free(d.b);
    emu_free(d.c);
    return 0;
}

/* (b) tiled matrix multiply. Returns 0, or 1 if a result was wrong. */
static int bench_matmul(int rounds, int default_workers)
{
    size_t count = (size_t)MM_N * MM_N;
    bench_data d;
    d.n = MM_N;
    d.a = emu_alloc_or_die(sizeof(float) * count, "A");
    d.b = emu_alloc_or_die(sizeof(float) * count, "B");
    d.c = emu_alloc_or_die(sizeof(float) * count, "C");
    d.kernel = emu_kernel_find("matmul_tiled");
    if (!d.kernel) {
        fprintf(stderr, "bench_emu: kernel matmul_tiled is not compiled in\n");
        exit(2);
    }
    d.grid = (emu_dim3){MM_N / MM_TILE, MM_N / MM_TILE, 1};
    d.block = (emu_dim3){MM_TILE, MM_TILE, 1};
    fill(d.a, count, 3);
    fill(d.b, count, 4);
    float *ref = malloc(sizeof(float) * count);
    if (!ref) {
        fprintf(stderr, "bench_emu: out of memory\n");
        exit(2);
    }
    /* The reference, in double precision, for checking everyone (the loops included). */
    for (int i = 0; i < MM_N; i++)
        for (int j = 0; j < MM_N; j++) {
            double s = 0;
            for (int k = 0; k < MM_N; k++)
                s += (double)d.a[(size_t)i * MM_N + k] * d.b[(size_t)k * MM_N + j];
            ref[(size_t)i * MM_N + j] = (float)s;
        }

    char label_default[64];
    snprintf(label_default, sizeof label_default, "emulator, %d workers (the default)", default_workers);
    contestant cs[4] = {
        {.label = "C triple loop i-k-j, vectorized (one thread)", .key = "vectorized_loop", .kind = LOOP_VECTORIZED},
        {.label = "C triple loop i-k-j, scalar (one thread)", .key = "scalar_loop", .kind = LOOP_SCALAR},
        {.label = "emulator, 1 worker", .key = "1w", .kind = EMULATOR, .workers = 1},
        {.label = label_default, .key = "default_workers", .kind = EMULATOR, .workers = default_workers},
    };
    int ncs = default_workers > 1 ? 4 : 3;

    for (int i = 0; i < ncs; i++) {
        memset(d.c, 0xFF, sizeof(float) * count);
        run_once(&d, &cs[i], 1);
        for (size_t k = 0; k < count; k++) {
            if (!(fabs((double)d.c[k] - ref[k]) <= MM_TOL)) {
                fprintf(stderr, "bench_emu: matmul WRONG (%s): C[%zu][%zu] = %g, expected %g (tolerance %g)\n",
                        cs[i].label, k / MM_N, k % MM_N, (double)d.c[k], (double)ref[k], MM_TOL);
                free(ref);
                return 1;
            }
        }
    }
    free(ref);

    race(&d, cs, ncs, rounds, 1);
    printf("(b) tiled matrix multiply, %dx%d: %ux%u teams of %dx%d cooks; medians of %d interleaved rounds\n", MM_N,
           MM_N, d.grid.x, d.grid.y, MM_TILE, MM_TILE, rounds);
    print_rows(cs, ncs);
    printf("\n  %-52s %9s  %-8s\n", "figure (time / time)", "ratio", "goal");
    double vec = cs[0].med, sc = cs[1].med;
    figure("emu_matmul_tiled_1w_vs_scalar_loop", "emulator 1 worker / scalar triple loop", cs[2].med / sc, 0);
    figure("emu_matmul_tiled_1w_vs_vectorized_loop", "emulator 1 worker / vectorized triple loop", cs[2].med / vec,
           0);
    if (ncs > 3) {
        char name[96], what[96];
        snprintf(what, sizeof what, "emulator %d workers / scalar triple loop", default_workers);
        snprintf(name, sizeof name, "emu_matmul_tiled_%dw_vs_scalar_loop", default_workers);
        figure(name, what, cs[3].med / sc, 0);
        snprintf(what, sizeof what, "emulator %d workers / vectorized triple loop", default_workers);
        snprintf(name, sizeof name, "emu_matmul_tiled_%dw_vs_vectorized_loop", default_workers);
        figure(name, what, cs[3].med / vec, 0);
    }
    flush_bench_lines();
    emu_free(d.a);
    emu_free(d.b);
    emu_free(d.c);
    return 0;
}

int main(int argc, char **argv)
{
    int rounds_va = 21, rounds_mm = 9;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            char *end;
            long r = strtol(argv[++i], &end, 10);
            if (*end || r < 7 || r > MAX_ROUNDS) {
                fprintf(stderr, "bench_emu: --repeat takes 7 to %d rounds\n", MAX_ROUNDS);
                return 2;
            }
            rounds_va = rounds_mm = (int)r;
        } else {
            fprintf(stderr, "usage: bench_emu [--repeat R]   (R rounds per benchmark, 7 to %d)\n", MAX_ROUNDS);
            return 2;
        }
    }
    int workers = emu_default_workers();
    printf("cudachef emulator benchmarks: %d CPU core%s, times in ms (CPU clock), ratios of medians\n\n", workers,
           workers == 1 ? "" : "s");
    if (bench_vector_add(rounds_va, workers) != 0)
        return 1;
    printf("\n");
    if (bench_matmul(rounds_mm, workers) != 0)
        return 1;
    printf("\n");
    if (goals_missed)
        printf("bench: %d goal%s missed (reported, not failed)\n", goals_missed, goals_missed == 1 ? "" : "s");
    else
        printf("bench: all goals met\n");
    return 0;
}
