/*
 * race.h - the fair race: the head chef against the kitchen, matrix multiply over a sweep of sizes.
 *
 * For each matrix side n (smallest first) every contender computes C = A x B on the same inputs:
 *
 *   CPU loop   the plain triple loop in float on one core (skipped, saying why, once the time
 *              predicted from the previous size by n^3 scaling exceeds RACE_LOOP_LIMIT_MS)
 *   CPU BLAS   OpenBLAS on every core: the CPU at its best
 *   recipes    kernels and library recipes, each a full kitchen run: cooking time, and the total
 *              with shipping (ship in + cook + ship out), every result tasted
 *
 * Every time is a median after a warm-up (a CPU run longer than RACE_BUDGET_MS is measured once: it
 * is its own warm-up). The crossover is the smallest size from which the fastest
 * GPU contender beats CPU BLAS at every larger size of the sweep, cooking only and with shipping.
 * Each recipe also gets its own crossovers, against CPU BLAS and against the CPU loop (race_rung).
 * When the emulator cooks, a library recipe is OpenBLAS itself: it stays in the tables but is left
 * out of the crossovers, which would otherwise only race CPU BLAS against itself.
 * The module has the shape of demo.h: race_run, race_text, race_json, race_free (race.c runs the
 * race, race_report.c writes race_text and race_json). The lesson 7 demo and `cudachef bench`
 * (cmd_bench.c) both run it.
 */
#ifndef CUDACHEF_RACE_H
#define CUDACHEF_RACE_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "demos/demo.h"

#define RACE_MAX_CONTENDERS (DEMO_MAX_RECIPES + 2)
#define RACE_LOOP_LIMIT_MS 4000.0   /* the CPU loop is skipped beyond this predicted time */
#define RACE_BUDGET_MS 2000.0       /* timed runs of one contender at one size stay near this */

typedef enum race_kind { RACE_CPU_LOOP, RACE_CPU_BLAS, RACE_KERNEL, RACE_LIBRARY } race_kind;

/* Someone in the race. */
typedef struct race_contender {
    char name[64];          /* "CPU loop", "CPU BLAS" or the recipe's name */
    race_kind kind;
    char letter;            /* its mark in the chart */
    char library[400];      /* CPU BLAS and library recipes: what really cooked; else empty */
} race_contender;

/* One contender at one size. */
typedef struct race_entry {
    int64_t size;
    int contender;          /* index into race_result.contenders */
    int ran;                /* measured (not skipped, no error) */
    int skipped;
    char skipped_reason[200];   /* English, for programs; people read it from the two below */
    double predicted_ms;        /* skipped: the time predicted by n^3 scaling */
    int64_t predicted_from;     /* skipped: the size it was predicted from */
    double cook_ms;         /* median; CPU contenders: the multiply itself */
    double total_ms;        /* recipes: ship in + cook + ship out; CPU contenders: cook_ms */
    double gflops;          /* 2 n^3 / cook time */
    double gflops_total;    /* 2 n^3 / total time */
    int repeat;             /* timed runs behind the median */
    int passed;             /* the taste (CPU loop and CPU BLAS: the two agree) */
    double model_ms;        /* emulator: the modeled GPU time of the recipe's counted launch; 0: none */
} race_entry;

/* One recipe's own crossovers: the smallest size from which it beats a CPU contender at every
   larger size where both were measured (race_crossover); 0 when not reached in this sweep. */
typedef struct race_rung {
    int counted;                   /* 0: left out (not a recipe, or a library recipe on the emulator) */
    int64_t blas_cook, blas_total; /* against CPU BLAS: cooking only, with shipping */
    int64_t loop_cook, loop_total; /* against the CPU loop (only where the loop ran) */
} race_rung;

typedef struct race_result {
    backend_info backend;   /* who cooked the recipes */
    char model_device[64];  /* the GPU the emulator's counts were modeled on ("" when none) */
    int emulated;           /* the recipes ran on the CPU emulator */
    int ncontenders;
    race_contender contenders[RACE_MAX_CONTENDERS];
    int nsizes;
    int64_t sizes[DEMO_MAX_SIZES];
    race_entry *entries;    /* nsizes x ncontenders: entries[size_index * ncontenders + contender] */
    int64_t crossover_cook, crossover_total;   /* 0: not reached in this sweep */
    int crossover_cook_by, crossover_total_by; /* the fastest GPU contender there; -1 if none */
    race_rung rungs[RACE_MAX_CONTENDERS];      /* by contender: each recipe's own crossovers */
    int passed;             /* every result tasted right */
    int complete;           /* every size and contender ran or was skipped (no error stopped it) */
    int stopped;            /* demo_params.stop ended it early (then complete is 0) */
} race_result;

/* Runs the race. Returns the exit code (0 every taste passed, 1 one failed, others: err); *out is
   set whenever something ran, even if wrong or stopped by an error. */
int race_run(const demo_params *p, race_result **out, chef_error *err);

/* For people, in the learner's language: a table per size, a log-log chart and the crossover. */
void race_text(FILE *out, const race_result *r);

/* GFLOP/s for people, as the text report and the bench screen print it: three significant figures
   or so, never exponent notation ("12124", "52.3", "0.481"). */
void race_format_gflops(double g, char *out, size_t size);

/* For programs: {"kind": "race", ..., "results": [{size, contender, kind, cook_ms, total_ms,
   gflops, passed, skipped_reason}], "crossover": {cooking, with_shipping, library_recipes_counted},
   "rungs": [{contender, counted, vs_cpu_blas: {cooking, with_shipping}, vs_cpu_loop: {...}}]}. */
json_t *race_json(const race_result *r);

/* Releases a result. */
void race_free(race_result *r);

/* The entry of contender c at size index s. */
race_entry *race_entry_at(const race_result *r, int s, int c);

#define RACE_LOOP_FIRST_GFLOPS 0.5 /* a plain triple loop's pace on one core, on the slow side */

/* Time at size n predicted from a time at size n_prev, by n^3 scaling. */
double race_predict_ms(double ms_prev, int64_t n_prev, int64_t n);

/* Whether the CPU loop should be skipped at size n, given its last measured time ms_prev at n_prev;
   before anything was measured (ms_prev <= 0) the time is predicted at RACE_LOOP_FIRST_GFLOPS, a
   plain loop's pace, so a first size of days is never started. The prediction in *predicted_ms. */
int race_loop_skips(double ms_prev, int64_t n_prev, int64_t n, double limit_ms, double *predicted_ms);

/* Timed runs to do when one run is expected to take predicted_ms: max_repeat, fewer so that they
   fit budget_ms, at least 1. */
int race_repeats(double predicted_ms, int max_repeat, double budget_ms);

/* The crossover: the smallest sizes[i] from which gpu_ms[j] < cpu_ms[j] at every j >= i where both
   were measured (a time <= 0 means not measured); 0 when the GPU does not win at the largest size
   measured, or nothing was measured. */
int64_t race_crossover(const int64_t *sizes, const double *gpu_ms, const double *cpu_ms, int nsizes);

/* Fills the crossovers of r (crossover_cook, crossover_total and who wins there) from its entries:
   at each size the fastest recipe that tasted right, against CPU BLAS; and each recipe's own
   (rungs), against CPU BLAS and the CPU loop. Library recipes count only when a GPU cooked
   (r->emulated is 0); a result that tasted wrong never wins. */
void race_find_crossover(race_result *r);

/* "cpu-loop", "cpu-blas", "kernel" or "library". */
const char *race_kind_name(race_kind kind);

#endif
