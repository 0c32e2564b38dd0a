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
 * fill as the kitchen's). Nothing in the report comes from anywhere but this run.
 */
#include "race.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "i18n.h"
#include "recipes.h"
#include "verify.h"

/* Default sweeps: a GPU needs large matrices to show its strength; the emulator needs small ones. */
static const int64_t race_gpu_sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
static const int64_t race_emu_sizes[] = {32, 64, 128, 256};
/* Default contenders when a demo names no recipes. */
static const char *const race_default_recipes[] = {"matmul-tiled", "matmul-library"};

/* The CPU loop is checked against CPU BLAS: two float results, each within the matrix kernels'
   tolerance of the exact product (rtol 1e-4, atol 2e-6 per n), are within twice that of each other. */
#define RACE_RTOL 2e-4
#define RACE_ATOL_PER_N 4e-6

#define RACE_TEXT_WIDTH 79   /* every line fits an 80-column terminal */
#define RACE_CHART_WIDTH 56
#define RACE_CHART_HEIGHT 12

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
    if (!(ms_prev > 0) || n_prev <= 0) {
        if (predicted_ms)
            *predicted_ms = 0;
        return 0;
    }
    double predicted = race_predict_ms(ms_prev, n_prev, n);
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

/* Tells the progress callback where the race is. */
static void race_progress(const demo_params *p, int64_t n, const char *who)
{
    if (!p->progress)
        return;
    char text[160];
    snprintf(text, sizeof text, _("size %lld: %s"), (long long)n, who);
    p->progress(text);
}

/* Sets up the contenders and the sizes; -1 with err on a bad demo. */
static int race_setup(const demo_params *p, race_result *r, chef_error *err)
{
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

    race_progress(p, n, _("CPU loop"));
    double predicted = 0;
    if (race_loop_skips(*loop_ms, *loop_n, n, RACE_LOOP_LIMIT_MS, &predicted)) {
        char took[32], would[32];
        chef_format_ms(*loop_ms, took, sizeof took);
        chef_format_ms(predicted, would, sizeof would);
        loop->skipped = 1;
        loop->predicted_ms = predicted;
        loop->predicted_from = *loop_n;
        snprintf(loop->skipped_reason, sizeof loop->skipped_reason,
                 "would take about %s (%s at n = %lld, times (%lld / %lld)^3), over the %.0f s limit", would,
                 took, (long long)*loop_n, (long long)n, (long long)*loop_n, RACE_LOOP_LIMIT_MS / 1000.0);
    } else {
        loop->cook_ms = race_time_cpu(race_cpu_loop, A, B, d->loop_c, (int)n, repeat, &loop->repeat);
        loop->ran = 1;
        *loop_ms = loop->cook_ms;
        *loop_n = n;
    }

    race_progress(p, n, _("CPU BLAS"));
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
    race_progress(p, n, who->name);
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

/* Finds the fastest recipe that counts at every size and the crossovers against CPU BLAS (see race.h). */
void race_find_crossover(race_result *r)
{
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
    int code = CHEF_EXIT_OK, anything = 0;
    uint64_t seed = p->run.seed;
    for (int s = 0; s < r->nsizes && (code == CHEF_EXIT_OK || code == CHEF_EXIT_WRONG); s++) {
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
        for (int c = 2; c < r->ncontenders; c++) {
            int k = race_recipe(p, r, s, c, &prev_ms[c], &prev_n[c], err);
            if (k == CHEF_EXIT_WRONG) {
                code = CHEF_EXIT_WRONG;
            } else if (k != CHEF_EXIT_OK) {
                code = k;
                break;
            }
        }
    }
    r->complete = code == CHEF_EXIT_OK || code == CHEF_EXIT_WRONG;
    r->passed = r->complete;
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

/* --- text --- */

/* Columns a UTF-8 string takes on a terminal: 2 for Hangul and other wide characters, else 1. */
static int race_columns(const char *s)
{
    int cols = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned cp;
        int len;
        if (*p < 0x80) {
            cp = *p;
            len = 1;
        } else if ((*p & 0xE0) == 0xC0) {
            cp = *p & 0x1Fu;
            len = 2;
        } else if ((*p & 0xF0) == 0xE0) {
            cp = *p & 0x0Fu;
            len = 3;
        } else {
            cp = *p & 0x07u;
            len = 4;
        }
        for (int i = 1; i < len; i++) {
            if ((p[i] & 0xC0) != 0x80) {
                len = i;
                break;
            }
            cp = (cp << 6) | (p[i] & 0x3Fu);
        }
        p += len;
        int wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                   (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                   (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                   (cp >= 0xFFE0 && cp <= 0xFFE6);
        cols += wide ? 2 : 1;
    }
    return cols;
}

/* Prints text padded with spaces to width columns, on the left (right = 0) or right (right = 1). */
static void race_pad(FILE *out, const char *text, int width, int right)
{
    int pad = width - race_columns(text);
    if (right)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
    fputs(text, out);
    if (!right)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
}

/* Prints text wrapped at spaces to fit width columns: the cursor is at column `col`, and lines after
   the first start with `indent` spaces. Ends with a newline. */
static void race_wrap(FILE *out, const char *text, int col, int indent, int width)
{
    const char *p = text;
    int line_start = 1;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char word[512];
        if (len >= sizeof word)
            len = sizeof word - 1;
        memcpy(word, p, len);
        word[len] = '\0';
        int w = race_columns(word);
        if (!line_start && col + 1 + w > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            line_start = 1;
        }
        if (!line_start) {
            fputc(' ', out);
            col++;
        }
        fputs(word, out);
        col += w;
        line_start = 0;
        p += len;
    }
    fputc('\n', out);
}

/* GFLOP/s for people: three significant figures or so, never exponent notation. */
static void race_format_gflops(double g, char *out, size_t size)
{
    snprintf(out, size, g >= 100 ? "%.0f" : g >= 10 ? "%.1f" : g >= 1 ? "%.2f" : "%.3f", g);
}

/* A contender's name for people (the CPU contenders' names are translated). */
static const char *race_display_name(const race_contender *c)
{
    return c->kind == RACE_CPU_LOOP ? _("CPU loop") : c->kind == RACE_CPU_BLAS ? _("CPU BLAS") : c->name;
}

/* Who the contenders are, one line each. */
static void race_text_contenders(FILE *out, const race_result *r)
{
    fprintf(out, "%s\n", _("Contenders:"));
    for (int c = 0; c < r->ncontenders; c++) {
        const race_contender *who = &r->contenders[c];
        fprintf(out, "  %c  ", who->letter);
        race_pad(out, race_display_name(who), 22, 0);
        char what[512];
        switch (who->kind) {
        case RACE_CPU_LOOP:
            snprintf(what, sizeof what, "%s", _("the plain triple loop in float, on one core"));
            break;
        case RACE_CPU_BLAS:
            snprintf(what, sizeof what, _("%s, on every core"), who->library);
            break;
        case RACE_KERNEL:
            snprintf(what, sizeof what, "%s", r->emulated ? _("a kernel of kernels/, on the CPU emulator")
                                                           : _("a kernel of kernels/, on the GPU"));
            break;
        case RACE_LIBRARY:
        default:
            snprintf(what, sizeof what, "%s", who->library[0] ? who->library : _("the library (it did not run)"));
            break;
        }
        race_wrap(out, what, 27, 27, RACE_TEXT_WIDTH);
    }
}

/* One size: a row per contender with its times, speeds and taste. */
static void race_text_size(FILE *out, const race_result *r, int s)
{
    char head[64];
    snprintf(head, sizeof head, _("n = %lld"), (long long)r->sizes[s]);
    fputs("\n  ", out);
    race_pad(out, head, 25, 0);
    race_pad(out, _("cook"), 10, 1);
    race_pad(out, _("GFLOP/s"), 9, 1);
    race_pad(out, _("with shipping"), 15, 1);
    race_pad(out, _("GFLOP/s"), 9, 1);
    fputs("  ", out);
    fputs(_("taste"), out);
    fputc('\n', out);
    for (int c = 0; c < r->ncontenders; c++) {
        const race_contender *who = &r->contenders[c];
        const race_entry *e = race_entry_at(r, s, c);
        fprintf(out, "  %c ", who->letter);
        race_pad(out, race_display_name(who), 23, 0);
        if (e->skipped) {
            char would[32];
            chef_format_ms(e->predicted_ms, would, sizeof would);
            fprintf(out, _("skipped: about %s predicted from n = %lld"), would, (long long)e->predicted_from);
            fputc('\n', out);
            continue;
        }
        if (!e->ran) {
            fprintf(out, "%s\n", _("did not run"));
            continue;
        }
        char t[32], g[32];
        chef_format_ms(e->cook_ms, t, sizeof t);
        race_format_gflops(e->gflops, g, sizeof g);
        race_pad(out, t, 10, 1);
        race_pad(out, g, 9, 1);
        if (who->kind == RACE_CPU_LOOP || who->kind == RACE_CPU_BLAS) {
            race_pad(out, "-", 15, 1);
            race_pad(out, "-", 9, 1);
        } else {
            chef_format_ms(e->total_ms, t, sizeof t);
            race_format_gflops(e->gflops_total, g, sizeof g);
            race_pad(out, t, 15, 1);
            race_pad(out, g, 9, 1);
        }
        fprintf(out, "  %s\n", e->passed ? _("ok") : _("WRONG"));
    }
}

/* One crossover line: from which size, and who won there. */
static void race_text_crossover(FILE *out, const race_result *r, const char *label, int64_t size, int by)
{
    char text[300];
    if (size > 0 && by >= 0)
        snprintf(text, sizeof text, _("from n = %lld on (%s beats CPU BLAS there and at every larger size)"),
                 (long long)size, r->contenders[by].name);
    else
        snprintf(text, sizeof text, "%s", _("not reached in this sweep"));
    fputs("  ", out);
    race_pad(out, label, 16, 0);
    race_wrap(out, text, 2 + (race_columns(label) > 16 ? race_columns(label) : 16), 18, RACE_TEXT_WIDTH);
}

/* Maps v in [lo, hi] (logarithms) to 0 .. cells - 1. */
static int race_scale(double v, double lo, double hi, int cells)
{
    if (hi - lo < 1e-12)
        return cells / 2;
    int i = (int)lround((v - lo) / (hi - lo) * (cells - 1));
    return i < 0 ? 0 : i >= cells ? cells - 1 : i;
}

/* The chart: cooking time against size, both on log scales, one letter per contender. */
static void race_text_chart(FILE *out, const race_result *r)
{
    double tmin = 0, tmax = 0;
    int points = 0;
    for (int s = 0; s < r->nsizes; s++)
        for (int c = 0; c < r->ncontenders; c++) {
            const race_entry *e = race_entry_at(r, s, c);
            if (!e->ran || !(e->cook_ms > 0))
                continue;
            if (!points || e->cook_ms < tmin)
                tmin = e->cook_ms;
            if (!points || e->cook_ms > tmax)
                tmax = e->cook_ms;
            points++;
        }
    if (!points)
        return;
    char grid[RACE_CHART_HEIGHT][RACE_CHART_WIDTH + 1];
    memset(grid, ' ', sizeof grid);
    double xlo = log((double)r->sizes[0]), xhi = log((double)r->sizes[r->nsizes - 1]);
    double ylo = log(tmin), yhi = log(tmax);
    for (int s = 0; s < r->nsizes; s++)
        for (int c = 0; c < r->ncontenders; c++) {
            const race_entry *e = race_entry_at(r, s, c);
            if (!e->ran || !(e->cook_ms > 0))
                continue;
            int x = race_scale(log((double)e->size), xlo, xhi, RACE_CHART_WIDTH);
            int y = RACE_CHART_HEIGHT - 1 - race_scale(log(e->cook_ms), ylo, yhi, RACE_CHART_HEIGHT);
            char *cell = &grid[y][x];
            *cell = *cell == ' ' || *cell == r->contenders[c].letter ? r->contenders[c].letter : '*';
        }
    fputs("\n  ", out);
    race_wrap(out, _("Cooking time against n, both on log scales (lower is faster; * several):"), 2, 2,
              RACE_TEXT_WIDTH);
    for (int y = 0; y < RACE_CHART_HEIGHT; y++) {
        char label[32] = "";
        if (y == 0 || y == RACE_CHART_HEIGHT - 1 || y == RACE_CHART_HEIGHT / 2) {
            double v = exp(yhi - (yhi - ylo) * y / (RACE_CHART_HEIGHT - 1));
            chef_format_ms(v, label, sizeof label);
        }
        fputs("  ", out);
        race_pad(out, label, 9, 1);
        fputs(" |", out);
        grid[y][RACE_CHART_WIDTH] = '\0';
        int end = RACE_CHART_WIDTH; /* no trailing spaces */
        while (end > 0 && grid[y][end - 1] == ' ')
            end--;
        fprintf(out, "%.*s\n", end, grid[y]);
    }
    fprintf(out, "  %9s +", "");
    for (int i = 0; i < RACE_CHART_WIDTH; i++)
        fputc('-', out);
    fputc('\n', out);
    /* size labels under their columns, left out where they would overlap */
    char axis[RACE_CHART_WIDTH + 16];
    memset(axis, ' ', sizeof axis);
    int next_free = 0, last = 0;
    for (int s = 0; s < r->nsizes; s++) {
        char num[24];
        int len = snprintf(num, sizeof num, "%lld", (long long)r->sizes[s]);
        int x = race_scale(log((double)r->sizes[s]), xlo, xhi, RACE_CHART_WIDTH);
        int at = x - len / 2;
        if (at < 0)
            at = 0;
        if (at < next_free)
            continue;
        if (at + len > (int)sizeof axis - 1)
            at = (int)sizeof axis - 1 - len;
        memcpy(axis + at, num, (size_t)len);
        next_free = at + len + 1;
        last = at + len;
    }
    fprintf(out, "  %9s  %.*s\n", "", last, axis);
    const char *xname = _("n (matrix side)");
    int xpad = 13 + RACE_CHART_WIDTH - race_columns(xname);
    fprintf(out, "%*s%s\n", xpad > 0 ? xpad : 0, "", xname);
    /* the legend, wrapped to fit 80 columns */
    int col = 0;
    for (int c = 0; c < r->ncontenders; c++) {
        const char *name = race_display_name(&r->contenders[c]);
        int w = 2 + race_columns(name);
        if (c > 0 && col + 2 + w > RACE_TEXT_WIDTH) {
            fputc('\n', out);
            col = 0;
        }
        col += fprintf(out, "  %c ", r->contenders[c].letter);
        fputs(name, out);
        col += race_columns(name);
    }
    fputc('\n', out);
}

/* For people (see race.h). */
void race_text(FILE *out, const race_result *r)
{
    race_wrap(out, _("The race: C = A x B for n x n floats, 2 n^3 operations. Every time is a median after a "
                     "warm-up; every result is tasted."), 0, 0, RACE_TEXT_WIDTH);
    if (r->emulated) {
        race_wrap(out, _("The \"GPU\" contenders ran on the CPU emulator (there is no GPU here): their times are "
                         "CPU times, so the crossover below is CPU against CPU, and a real GPU's would differ."),
                  0, 0, RACE_TEXT_WIDTH);
    } else {
        char line[400];
        snprintf(line, sizeof line, _("The GPU contenders cooked on %s."), r->backend.name);
        race_wrap(out, line, 0, 0, RACE_TEXT_WIDTH);
    }
    race_text_contenders(out, r);
    for (int s = 0; s < r->nsizes; s++)
        race_text_size(out, r, s);
    int any_skip = 0;
    for (int s = 0; s < r->nsizes; s++)
        any_skip |= race_entry_at(r, s, 0)->skipped;
    if (any_skip) {
        fputc('\n', out);
        race_wrap(out, _("The CPU loop sits out a size once its time, predicted from the size before by n^3 "
                         "scaling, would be more than a few seconds."), 0, 0, RACE_TEXT_WIDTH);
    }
    race_text_chart(out, r);
    fputc('\n', out);
    int libraries = 0;
    for (int c = 0; c < r->ncontenders; c++)
        libraries |= r->contenders[c].kind == RACE_LIBRARY;
    const char *heading = _("Crossover (the fastest GPU contender against CPU BLAS):");
    if (r->emulated && libraries)
        heading = _("Crossover (the fastest \"GPU\" kernel against CPU BLAS, here CPU against CPU; library recipes "
                    "left out, as on the emulator they are OpenBLAS too):");
    else if (r->emulated)
        heading = _("Crossover (the fastest \"GPU\" contender against CPU BLAS; here CPU against CPU):");
    race_wrap(out, heading, 0, 0, RACE_TEXT_WIDTH);
    race_text_crossover(out, r, _("cooking only"), r->crossover_cook, r->crossover_cook_by);
    race_text_crossover(out, r, _("with shipping"), r->crossover_total, r->crossover_total_by);
    if (!r->passed && r->complete)
        race_wrap(out, _("A result tasted wrong (marked WRONG above): the race does not pass."), 0, 0, RACE_TEXT_WIDTH);
    else if (!r->complete)
        race_wrap(out, _("The race stopped early (the error is below): the sizes after it did not run."), 0, 0,
                  RACE_TEXT_WIDTH);
}

/* --- JSON --- */

/* A number, or null when it was not measured. */
static json_t *race_number(int measured, double v)
{
    return measured ? json_real(v) : json_null();
}

/* The crossover for programs: {"size": n or null, "contender": name or null}. */
static json_t *race_crossover_json(const race_result *r, int64_t size, int by)
{
    return json_pack("{s:o, s:o}", "size", size > 0 ? json_integer((json_int_t)size) : json_null(), "contender",
                     size > 0 && by >= 0 ? json_string(r->contenders[by].name) : json_null());
}

/* For programs (see race.h). */
json_t *race_json(const race_result *r)
{
    json_t *contenders = json_array(), *results = json_array(), *sizes = json_array();
    for (int c = 0; c < r->ncontenders; c++) {
        const race_contender *who = &r->contenders[c];
        char letter[2] = {who->letter, '\0'};
        json_array_append_new(contenders,
                              json_pack("{s:s, s:s, s:s, s:o}", "name", who->name, "kind", race_kind_name(who->kind),
                                        "letter", letter, "library",
                                        who->library[0] ? json_string(who->library) : json_null()));
    }
    for (int s = 0; s < r->nsizes; s++) {
        json_array_append_new(sizes, json_integer((json_int_t)r->sizes[s]));
        for (int c = 0; c < r->ncontenders; c++) {
            const race_entry *e = race_entry_at(r, s, c);
            const race_contender *who = &r->contenders[c];
            json_t *row = json_pack(
                "{s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "size", (json_int_t)e->size, "contender",
                who->name, "kind", race_kind_name(who->kind), "cook_ms", race_number(e->ran, e->cook_ms),
                "total_ms", race_number(e->ran, e->total_ms), "gflops", race_number(e->ran, e->gflops),
                "gflops_with_shipping", race_number(e->ran, e->gflops_total), "repeat",
                e->ran ? json_integer(e->repeat) : json_null(), "passed",
                e->ran ? json_boolean(e->passed) : json_null(), "skipped_reason",
                e->skipped ? json_string(e->skipped_reason) : json_null());
            json_array_append_new(results, row);
        }
    }
    return json_pack("{s:s, s:s, s:{s:s, s:s}, s:b, s:s, s:o, s:o, s:o, s:{s:o, s:o, s:b}, s:b, s:b}", "kind", "race",
                     "operation", "C = A x B, n x n float, 2 n^3 operations", "backend", "kind",
                     backend_kind_name(r->backend.kind), "name", r->backend.name, "emulated", r->emulated,
                     "cpu_blas", r->contenders[1].library, "sizes", sizes, "contenders", contenders, "results",
                     results, "crossover", "cooking", race_crossover_json(r, r->crossover_cook, r->crossover_cook_by),
                     "with_shipping", race_crossover_json(r, r->crossover_total, r->crossover_total_by),
                     "library_recipes_counted", !r->emulated, "complete",
                     r->complete, "passed", r->passed);
}
