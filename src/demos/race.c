/*
 * race.c - the fair race: CPU loop, CPU BLAS, GPU kernels and the GPU library over matrix sizes.
 *
 * Fair means each side at its best and each measured the same way: the CPU with OpenBLAS on every
 * core (not only a loop on one core), the GPU with and without the shipments its results need,
 * every time a median of runs after a warm-up, every result checked. The plain loop stays in the
 * race as the head chef's own way, until it would take too long.
 *
 * The recipes run through kitchen_run (the five steps, with OpenBLAS as the fast reference so large
 * sizes are tasted quickly); the CPU contenders run here, on the same inputs (the same seed and
 * fill as the kitchen's). Nothing in the report comes from anywhere but this run: race_report.c
 * writes the result out for people (race_text) and for programs (race_json).
 */
#include "demos/race.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/blas.h"
#include "base/i18n.h"
#include "engine/recipes.h"
#include "engine/verify.h"

/* Default sweeps: a GPU needs large matrices to show its strength; the emulator needs small ones. */
static const int64_t race_gpu_sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
static const int64_t race_emu_sizes[] = {32, 64, 128, 256};
/* Default contenders when a demo names no recipes. */
static const char *const race_default_recipes[] = {"matmul-tiled", "matmul-library"};

/* The CPU loop is checked against CPU BLAS: two float results, each within the matrix kernels'
   tolerance of the exact product (rtol 1e-4, atol 2e-6 per n), are within twice that of each other. */
#define RACE_RTOL 2e-4
#define RACE_ATOL_PER_N 4e-6

/* "cpu-loop", "cpu-blas", "kernel" or "library". */
const char *race_kind_name(race_kind kind)
{
    switch (kind) {
    case RACE_CPU_LOOP: return "cpu-loop";
    case RACE_CPU_BLAS: return "cpu-blas";
    case RACE_KERNEL: return "kernel";
    case RACE_LIBRARY: return "library";
    }
    return "?";
}

/* Time at size n predicted from a time at size n_prev, by n^3 scaling. */
double race_predict_ms(double ms_prev, int64_t n_prev, int64_t n)
{
    double ratio = (double)n / (double)n_prev;
    return ms_prev * ratio * ratio * ratio;
}

/* Whether the CPU loop should be skipped at size n (see race.h). */
int race_loop_skips(double ms_prev, int64_t n_prev, int64_t n, double limit_ms, double *predicted_ms)
{
    double predicted = ms_prev > 0 && n_prev > 0 ? race_predict_ms(ms_prev, n_prev, n)
                                                 : 2.0 * (double)n * (double)n * (double)n / (RACE_LOOP_FIRST_GFLOPS * 1e6);
    if (predicted_ms)
        *predicted_ms = predicted;
    return predicted > limit_ms;
}

/* Timed runs that fit the budget, between 1 and max_repeat. */
int race_repeats(double predicted_ms, int max_repeat, double budget_ms)
{
    if (max_repeat < 1)
        max_repeat = 1;
    if (!(predicted_ms > 0))
        return max_repeat;
    double fit = floor(budget_ms / predicted_ms);
    if (fit < 1)
        return 1;
    return fit < max_repeat ? (int)fit : max_repeat;
}

/* The crossover (see race.h): walks down from the largest measured size while the GPU wins. */
int64_t race_crossover(const int64_t *sizes, const double *gpu_ms, const double *cpu_ms, int nsizes)
{
    int64_t from = 0;
    int seen = 0;
    for (int i = nsizes - 1; i >= 0; i--) {
        if (!(gpu_ms[i] > 0) || !(cpu_ms[i] > 0))
            continue; /* not measured at this size: it neither breaks nor extends the run */
        if (!(gpu_ms[i] < cpu_ms[i]))
            return seen ? from : 0;
        seen = 1;
        from = sizes[i];
    }
    return from;
}

/* The entry of contender c at size index s. */
race_entry *race_entry_at(const race_result *r, int s, int c)
{
    return &r->entries[(size_t)s * (size_t)r->ncontenders + (size_t)c];
}

/* Sorts doubles ascending (for medians). */
static int race_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (sorts them). */
static double race_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, race_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* 2 n^3 floating-point operations (a multiply and an add per term) in ms, as GFLOP/s. */
static double race_gflops(int64_t n, double ms)
{
    return ms > 0 ? 2.0 * (double)n * (double)n * (double)n / (ms * 1e6) : 0.0;
}

/* The head chef's way: one dot product after another, in float, on one core. */
static void race_cpu_loop(const float *A, const float *B, float *C, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int k = 0; k < n; k++)
                sum += A[(size_t)i * n + k] * B[(size_t)k * n + j];
            C[(size_t)i * n + j] = sum;
        }
    }
}

/* Times a CPU multiply: one warm-up run, then as many runs as fit the budget; the median in ms.
   A warm-up longer than the budget is the measurement itself: what a warm-up removes (first touches
   of the memory, cold caches) is a vanishing share of a run of seconds, and a second run would
   double a wait that is already long. */
static double race_time_cpu(void (*multiply)(const float *, const float *, float *, int), const float *A,
                            const float *B, float *C, int n, int max_repeat, int *repeat)
{
    double runs[KITCHEN_MAX_REPEAT];
    double t0 = chef_now_ms();
    multiply(A, B, C, n);
    double warm = chef_now_ms() - t0;
    if (warm > RACE_BUDGET_MS) {
        *repeat = 1;
        return warm;
    }
    int count = race_repeats(warm, max_repeat, RACE_BUDGET_MS);
    for (int i = 0; i < count; i++) {
        t0 = chef_now_ms();
        multiply(A, B, C, n);
        runs[i] = chef_now_ms() - t0;
    }
    *repeat = count;
    return race_median(runs, count);
}

/* Picks a letter for the chart: from the last word of the name, then the whole name, then digits. */
static char race_letter(const char *name, const race_result *r)
{
    const char *dash = strrchr(name, '-');
    const char *tries[2] = {dash ? dash + 1 : name, name};
    for (int t = 0; t < 2; t++) {
        for (const char *p = tries[t]; *p; p++) {
            char c = (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A') : *p;
            if (c < 'A' || c > 'Z')
                continue;
            int used = 0;
            for (int i = 0; i < r->ncontenders; i++)
                used |= r->contenders[i].letter == c;
            if (!used)
                return c;
        }
    }
    return (char)('0' + r->ncontenders % 10);
}

/* Adds a contender; its letter is chosen among those still free. */
static race_contender *race_add(race_result *r, const char *name, race_kind kind, char letter)
{
    race_contender *c = &r->contenders[r->ncontenders];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind;
    c->letter = letter ? letter : race_letter(name, r);
    r->ncontenders++;
    return c;
}

/* Tells the progress callback where the race is: the size, its place in the sweep, who runs. */
static void race_progress(const demo_params *p, const race_result *r, int s, const char *who)
{
    if (!p->progress)
        return;
    char text[200];
    snprintf(text, sizeof text, _("size %lld (%d of %d): %s"), (long long)r->sizes[s], s + 1, r->nsizes, who);
    p->progress(p->progress_ctx, text);
}

/* Sets up the contenders and the sizes; -1 with err on a bad demo. */
static int race_setup(const demo_params *p, race_result *r, chef_error *err)
{
    if (blas_load(err) != 0)
        return -1;
    race_add(r, "CPU loop", RACE_CPU_LOOP, 'L');
    race_contender *blas = race_add(r, "CPU BLAS", RACE_CPU_BLAS, 'B');
    snprintf(blas->library, sizeof blas->library, "%s", blas_describe());
    int nrecipes = p->nrecipes > 0 ? p->nrecipes : (int)(sizeof race_default_recipes / sizeof race_default_recipes[0]);
    if (nrecipes > DEMO_MAX_RECIPES)
        nrecipes = DEMO_MAX_RECIPES;
    for (int i = 0; i < nrecipes; i++) {
        const char *name = p->nrecipes > 0 ? p->recipes[i] : race_default_recipes[i];
        const recipe *rc = name ? recipe_find(name) : NULL;
        if (!rc)
            return chef_fail(err, CHEF_EXIT_USAGE, _("`cudachef list` shows what can be run"),
                             _("unknown recipe '%s' in the race"), name ? name : "");
        race_add(r, rc->name, rc->library ? RACE_LIBRARY : RACE_KERNEL, 0);
    }
    /* who cooks the recipes: the same choice kitchen_run will make */
    backend *be = backend_open(p->run.backend, err);
    if (!be)
        return -1;
    r->backend = be->info;
    backend_close(be);
    r->emulated = r->backend.kind == BACKEND_EMU;
    if (p->nsizes > 0) {
        r->nsizes = p->nsizes < DEMO_MAX_SIZES ? p->nsizes : DEMO_MAX_SIZES;
        memcpy(r->sizes, p->sizes, (size_t)r->nsizes * sizeof r->sizes[0]);
    } else {
        const int64_t *d = r->emulated ? race_emu_sizes : race_gpu_sizes;
        r->nsizes = r->emulated ? (int)(sizeof race_emu_sizes / sizeof race_emu_sizes[0])
                                : (int)(sizeof race_gpu_sizes / sizeof race_gpu_sizes[0]);
        memcpy(r->sizes, d, (size_t)r->nsizes * sizeof r->sizes[0]);
    }
    for (int s = 0; s < r->nsizes; s++) {
        if (r->sizes[s] < 1 || r->sizes[s] > 46340 || (s > 0 && r->sizes[s] <= r->sizes[s - 1]))
            return chef_fail(err, CHEF_EXIT_USAGE, _("list matrix sides from 1 to 46340, smallest first"),
                             _("race size %lld is out of order or outside 1..46340"), (long long)r->sizes[s]);
    }
    /* the largest size must fit before anything starts: four n x n matrices for the CPU, and the
       kitchen's own (three, plus the reference; on the emulator the device ones are host memory too) */
    double n2 = (double)r->sizes[r->nsizes - 1] * (double)r->sizes[r->nsizes - 1] * sizeof(float);
    size_t host = (size_t)(n2 * (r->emulated ? 7 : 4));
    size_t device = r->emulated ? 0 : (size_t)(n2 * 3);
    if (demo_check_memory(host, device, &r->backend, err) != 0) {
        if (err)
            snprintf(err->hint, sizeof err->hint, "%s", _("race smaller matrices (--sizes)"));
        return -1;
    }
    r->entries = calloc((size_t)r->nsizes * (size_t)r->ncontenders, sizeof *r->entries);
    if (!r->entries)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "out of host memory");
    for (int s = 0; s < r->nsizes; s++) {
        for (int c = 0; c < r->ncontenders; c++) {
            race_entry *e = race_entry_at(r, s, c);
            e->size = r->sizes[s];
            e->contender = c;
        }
    }
    r->crossover_cook_by = r->crossover_total_by = -1;
    return 0;
}

/* The head chef's matrices for one size: the kitchen's inputs (same seed, same fill) and two results. */
typedef struct race_cpu_data {
    kitchen_plan plan;       /* buffers A, B (inputs), C (CPU BLAS's result) */
    float *loop_c;           /* the CPU loop's result */
} race_cpu_data;

/* Allocates and fills the CPU contenders' matrices; -1 with err when memory runs out. */
static int race_cpu_prepare(race_cpu_data *d, int64_t n, uint64_t seed, chef_error *err)
{
    memset(d, 0, sizeof *d);
    d->plan.n = n;
    d->plan.n_int = (int)n;
    d->plan.seed = seed;
    d->plan.nbuffers = 3;
    size_t count = (size_t)n * (size_t)n;
    for (int i = 0; i < 3; i++) {
        d->plan.buffers[i].count = count;
        d->plan.buffers[i].is_output = i == 2;
        d->plan.buffers[i].host = malloc(count * sizeof(float));
    }
    d->loop_c = malloc(count * sizeof(float));
    if (!d->plan.buffers[0].host || !d->plan.buffers[1].host || !d->plan.buffers[2].host || !d->loop_c)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("use smaller race sizes"),
                         _("out of host memory for the CPU's %lld x %lld matrices"), (long long)n, (long long)n);
    recipe_matmul_fill(&d->plan);
    return 0;
}

/* Frees the CPU contenders' matrices. */
static void race_cpu_release(race_cpu_data *d)
{
    for (int i = 0; i < 3; i++)
        free(d->plan.buffers[i].host);
    free(d->loop_c);
}

/* Runs the two CPU contenders at size index s and checks them against each other. */
static void race_cpu_contenders(const demo_params *p, race_result *r, int s, race_cpu_data *d,
                                double *loop_ms, int64_t *loop_n)
{
    int64_t n = r->sizes[s];
    int repeat = p->run.repeat > 0 ? p->run.repeat : 5;
    const float *A = d->plan.buffers[0].host, *B = d->plan.buffers[1].host;
    float *C = d->plan.buffers[2].host;
    race_entry *loop = race_entry_at(r, s, 0), *blas = race_entry_at(r, s, 1);

    race_progress(p, r, s, _("CPU loop"));
    double predicted = 0;
    if (race_loop_skips(*loop_ms, *loop_n, n, RACE_LOOP_LIMIT_MS, &predicted)) {
        char took[32], would[32];
        chef_format_ms(*loop_ms, took, sizeof took);
        chef_format_ms(predicted, would, sizeof would);
        loop->skipped = 1;
        loop->predicted_ms = predicted;
        loop->predicted_from = *loop_n;
        if (*loop_n > 0)
            snprintf(loop->skipped_reason, sizeof loop->skipped_reason,
                     "would take about %s (%s at n = %lld, times (%lld / %lld)^3), over the %.0f s limit", would,
                     took, (long long)*loop_n, (long long)n, (long long)*loop_n, RACE_LOOP_LIMIT_MS / 1000.0);
        else
            snprintf(loop->skipped_reason, sizeof loop->skipped_reason,
                     "would take about %s at a plain loop's pace (%.1f GFLOP/s), over the %.0f s limit", would,
                     RACE_LOOP_FIRST_GFLOPS, RACE_LOOP_LIMIT_MS / 1000.0);
    } else {
        loop->cook_ms = race_time_cpu(race_cpu_loop, A, B, d->loop_c, (int)n, repeat, &loop->repeat);
        loop->ran = 1;
        *loop_ms = loop->cook_ms;
        *loop_n = n;
    }

    race_progress(p, r, s, _("CPU BLAS"));
    blas->cook_ms = race_time_cpu(blas_sgemm, A, B, C, (int)n, repeat, &blas->repeat);
    blas->ran = 1;

    /* the two CPU results taste each other; without the loop, BLAS is the kitchen's reference */
    blas->passed = 1;
    if (loop->ran) {
        verify_result v;
        verify_compare(d->loop_c, C, (size_t)n * (size_t)n, RACE_RTOL, RACE_ATOL_PER_N * (double)n, &v);
        loop->passed = blas->passed = v.passed;
    }
    for (int c = 0; c < 2; c++) {
        race_entry *e = race_entry_at(r, s, c);
        if (e->ran) {
            e->total_ms = e->cook_ms;
            e->gflops = e->gflops_total = race_gflops(n, e->cook_ms);
        }
    }
}

/* Runs recipe contender c at size index s through the kitchen. Returns the kitchen's exit code. */
static int race_recipe(const demo_params *p, race_result *r, int s, int c, double *prev_ms, int64_t *prev_n,
                       chef_error *err)
{
    int64_t n = r->sizes[s];
    race_contender *who = &r->contenders[c];
    race_entry *e = race_entry_at(r, s, c);
    race_progress(p, r, s, who->name);
    kitchen_params kp = p->run;
    kp.recipe = who->name;
    kp.n = n;
    kp.blocks = 0;
    kp.fast_reference = 1;
    int repeat = p->run.repeat > 0 ? p->run.repeat : 5;
    kp.repeat = race_repeats(*prev_ms > 0 ? race_predict_ms(*prev_ms, *prev_n, n) : 0, repeat, RACE_BUDGET_MS);
    kitchen_report *rep = malloc(sizeof *rep);
    if (!rep)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "out of host memory");
    int code = kitchen_run(&kp, rep);
    if (code == CHEF_EXIT_OK || code == CHEF_EXIT_WRONG) {
        e->ran = 1;
        e->passed = rep->taste.passed;
        e->repeat = rep->repeat;
        e->cook_ms = rep->cook_ms;
        e->total_ms = rep->total_ms;
        e->gflops = race_gflops(n, rep->cook_ms);
        e->gflops_total = race_gflops(n, rep->total_ms);
        e->model_ms = rep->modeled ? rep->model.ms : 0;
        if (rep->modeled)
            snprintf(r->model_device, sizeof r->model_device, "%s", rep->model_device.name);
        r->backend = rep->backend;
        r->emulated = rep->backend.kind == BACKEND_EMU;
        const recipe *rc = recipe_find(who->name);
        if (rc && rc->library && !who->library[0])
            snprintf(who->library, sizeof who->library, "%s", rc->library(&rep->backend));
        *prev_ms = rep->cook_ms;
        *prev_n = n;
    } else if (err) {
        *err = rep->error;
    }
    kitchen_report_free(rep);
    free(rep);
    return code;
}

/* Whether contender c may win the crossover: a recipe that tasted right at that size. On the
   emulator a library recipe is OpenBLAS itself, so it would only race CPU BLAS against itself. */
static int race_counts_for_crossover(const race_result *r, int c, const race_entry *e)
{
    if (r->emulated && r->contenders[c].kind == RACE_LIBRARY)
        return 0;
    return e->ran && e->passed; /* a wrong answer, however fast, wins nothing */
}

/* A recipe's own crossovers against CPU BLAS and the CPU loop. A size where it tasted wrong breaks
   its winning run (an infinite time); a size where it or the CPU contender did not run is neutral. */
static void race_find_rung(race_result *r, int c)
{
    race_rung *g = &r->rungs[c];
    memset(g, 0, sizeof *g);
    g->counted = !(r->emulated && r->contenders[c].kind == RACE_LIBRARY);
    if (!g->counted)
        return;
    double cook[DEMO_MAX_SIZES], total[DEMO_MAX_SIZES], loop[DEMO_MAX_SIZES], blas[DEMO_MAX_SIZES];
    for (int s = 0; s < r->nsizes; s++) {
        const race_entry *e = race_entry_at(r, s, c), *l = race_entry_at(r, s, 0), *b = race_entry_at(r, s, 1);
        cook[s] = !e->ran ? 0 : e->passed ? e->cook_ms : INFINITY;
        total[s] = !e->ran ? 0 : e->passed ? e->total_ms : INFINITY;
        loop[s] = l->ran ? l->cook_ms : 0;
        blas[s] = b->ran ? b->cook_ms : 0;
    }
    g->blas_cook = race_crossover(r->sizes, cook, blas, r->nsizes);
    g->blas_total = race_crossover(r->sizes, total, blas, r->nsizes);
    g->loop_cook = race_crossover(r->sizes, cook, loop, r->nsizes);
    g->loop_total = race_crossover(r->sizes, total, loop, r->nsizes);
}

/* Finds the fastest recipe that counts at every size and the crossovers against CPU BLAS, then each
   recipe's own (see race.h). */
void race_find_crossover(race_result *r)
{
    memset(r->rungs, 0, sizeof r->rungs);
    for (int c = 2; c < r->ncontenders; c++)
        race_find_rung(r, c);
    double gpu_cook[DEMO_MAX_SIZES], gpu_total[DEMO_MAX_SIZES], cpu[DEMO_MAX_SIZES];
    int by_cook[DEMO_MAX_SIZES], by_total[DEMO_MAX_SIZES];
    for (int s = 0; s < r->nsizes; s++) {
        gpu_cook[s] = gpu_total[s] = cpu[s] = 0;
        by_cook[s] = by_total[s] = -1;
        race_entry *b = race_entry_at(r, s, 1);
        if (b->ran)
            cpu[s] = b->cook_ms;
        for (int c = 2; c < r->ncontenders; c++) {
            race_entry *e = race_entry_at(r, s, c);
            if (!race_counts_for_crossover(r, c, e))
                continue;
            if (by_cook[s] < 0 || e->cook_ms < gpu_cook[s]) {
                gpu_cook[s] = e->cook_ms;
                by_cook[s] = c;
            }
            if (by_total[s] < 0 || e->total_ms < gpu_total[s]) {
                gpu_total[s] = e->total_ms;
                by_total[s] = c;
            }
        }
    }
    r->crossover_cook = race_crossover(r->sizes, gpu_cook, cpu, r->nsizes);
    r->crossover_total = race_crossover(r->sizes, gpu_total, cpu, r->nsizes);
    r->crossover_cook_by = r->crossover_total_by = -1;
    for (int s = 0; s < r->nsizes; s++) {
        if (r->crossover_cook && r->sizes[s] == r->crossover_cook)
            r->crossover_cook_by = by_cook[s];
        if (r->crossover_total && r->sizes[s] == r->crossover_total)
            r->crossover_total_by = by_total[s];
    }
}

/* True (and noted in r) once the caller asked the race to stop (demo_params.cancel). */
static int race_stopped(const demo_params *p, race_result *r)
{
    if (cancel_requested(p->cancel))
        r->stopped = 1;
    return r->stopped;
}

/* Runs the race (see race.h). */
int race_run(const demo_params *p, race_result **out, chef_error *err)
{
    *out = NULL;
    race_result *r = calloc(1, sizeof *r);
    if (!r)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "out of host memory");
    if (race_setup(p, r, err) != 0) {
        race_free(r);
        return err ? err->exit_code : CHEF_EXIT_USAGE;
    }
    double loop_ms = 0, prev_ms[RACE_MAX_CONTENDERS] = {0};
    int64_t loop_n = 0, prev_n[RACE_MAX_CONTENDERS] = {0};
    char dropped[RACE_MAX_CONTENDERS][200] = {{0}}; /* why a contender cannot run here, once known */
    int code = CHEF_EXIT_OK, anything = 0;
    uint64_t seed = p->run.seed;
    for (int s = 0; s < r->nsizes && (code == CHEF_EXIT_OK || code == CHEF_EXIT_WRONG); s++) {
        if (race_stopped(p, r))
            break;
        race_cpu_data d;
        if (race_cpu_prepare(&d, r->sizes[s], seed, err) != 0) {
            race_cpu_release(&d);
            code = CHEF_EXIT_ENVIRONMENT;
            break;
        }
        race_cpu_contenders(p, r, s, &d, &loop_ms, &loop_n);
        race_cpu_release(&d);
        anything = 1;
        if (!race_entry_at(r, s, 0)->passed && race_entry_at(r, s, 0)->ran)
            code = CHEF_EXIT_WRONG;
        for (int c = 2; c < r->ncontenders && !race_stopped(p, r); c++) {
            race_entry *e = race_entry_at(r, s, c);
            if (dropped[c][0]) { /* this machine cannot run it: said once, skipped at every size */
                e->skipped = 1;
                snprintf(e->skipped_reason, sizeof e->skipped_reason, "%s", dropped[c]);
                continue;
            }
            int k = race_recipe(p, r, s, c, &prev_ms[c], &prev_n[c], err);
            if (k == CHEF_EXIT_ENVIRONMENT && r->contenders[c].kind == RACE_LIBRARY && !r->emulated &&
                library_gpu_load(NULL) != 0) {
                /* a library that is not installed leaves the others to race (exit 0); one that is
                   there but fails (out of memory, say) stops the race like any contender */
                snprintf(dropped[c], sizeof dropped[c], "%.199s", err->message);
                e->skipped = 1;
                snprintf(e->skipped_reason, sizeof e->skipped_reason, "%s", dropped[c]);
            } else if (k == CHEF_EXIT_WRONG) {
                code = CHEF_EXIT_WRONG;
            } else if (k != CHEF_EXIT_OK) {
                code = k;
                break;
            }
        }
    }
    r->passed = code == CHEF_EXIT_OK || code == CHEF_EXIT_WRONG;
    r->complete = r->passed && !r->stopped;
    for (int s = 0; s < r->nsizes; s++)
        for (int c = 0; c < r->ncontenders; c++) {
            race_entry *e = race_entry_at(r, s, c);
            if (e->ran && !e->passed)
                r->passed = 0;
        }
    race_find_crossover(r);
    if (anything)
        *out = r;
    else
        race_free(r);
    return code;
}

/* Releases a result. */
void race_free(race_result *r)
{
    if (!r)
        return;
    free(r->entries);
    free(r);
}
