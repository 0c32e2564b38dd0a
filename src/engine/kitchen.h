/*
 * kitchen.h - CUDA's five steps, run for real and measured.
 *
 *   1. prepare   fill the inputs on the host (the head chef's pantry)
 *   2. ship in   copy them to the device (the kitchen's pantry)
 *   3. cook      launch the kernel: a grid of teams (blocks) of cooks (threads)
 *   4. ship out  copy the results back
 *   5. taste     check them against the CPU's own reference
 *
 * kitchen_run does all five on the chosen backend and fills a kitchen_report with every figure
 * of that one run; reports (text, JSON) and the kitchen view only ever show these figures.
 */
#ifndef CUDACHEF_KITCHEN_H
#define CUDACHEF_KITCHEN_H

#include <stddef.h>
#include <stdint.h>

#include "base/cancel.h"
#include "engine/backend.h"
#include "engine/model.h"
#include "base/trace.h"
#include "engine/verify.h"

#define KITCHEN_MAX_BUFFERS 4
#define KITCHEN_MAX_REPEAT 1000
#define KITCHEN_SAMPLE 8
#define KITCHEN_LOOP_REFERENCE_WORK 1.5e8 /* past this, matrix recipes taste against OpenBLAS (the
                                             plain loop takes about a second there on this project's
                                             2-core machine; at 1024 it took 5 to 6 s) */
/* Largest grid (in cooks) whose traced emulator launch uses the checked build and per-cook trace. */
#define KITCHEN_CHECKED_COOKS (1u << 20)
/* The memory instructions of team 0 an emulator run keeps for the memory view (its first ones). */
#define KITCHEN_WATCHED_ACCESSES 4096
/* The most work (the recipe's multiply-adds) a counted launch does in the checked build, about 3 s
   on one core: past it, evenly spaced teams are counted and the totals scaled. */
#define KITCHEN_COUNTED_WORK 6.7e7
/* On a GPU, the launch is counted beside on the emulator in about this many teams (evenly spaced),
   for the model to stand beside the measurement. */
#define KITCHEN_BESIDE_TEAMS 64
/* An emulator run predicted to take longer than this (ms) is told so before it starts. */
#define KITCHEN_NOTE_MS 5000.0

typedef struct kitchen_params {
    const char *recipe;     /* "vector-add", ... */
    int64_t n;              /* problem size (elements, or matrix side); 0 = the recipe's default */
    int threads_per_block;  /* 0 = the recipe's default */
    int64_t blocks;         /* 0 = enough blocks to cover n */
    backend_kind backend;
    int pinned;
    uint64_t seed;
    int seed_given;         /* 0: small inputs use the counting example [1, 2, 3, ...] */
    int repeat;             /* timed launches; the median is reported */
    int workers;            /* emulator worker threads; 0 = one per core */
    double rtol, atol;      /* < 0: the recipe's default */
    int fast_reference;     /* matrix recipes: taste against OpenBLAS at any size (else only past KITCHEN_LOOP_REFERENCE_WORK) */
    uint64_t shuffle_seed;  /* emulator: nonzero runs each team's cooks in a seeded random order */
    const char *kernel;     /* NULL: the recipe's kernel; else this one (a learner's, registered by
                               exercise_module_load), which takes the recipe's arguments */
    int registers_per_cook; /* > 0: the model's registers for a kernel the build's table lacks (a
                               learner's, from nvcc: exercise_registers) */
    const char *model;      /* device file of the GPU the emulator's counts are modeled on
                               (assets/devices/NAME.ini); NULL: the default (model.h) */
    void (*note)(const char *text); /* optional: told about very long emulator runs before they start */
    float *exchange;        /* optional: memory shared with a trusted process (a grading check):
                               the inputs are taken from it after the fill, every buffer in the
                               plan's order, and the output is written back into it after the
                               shipment back; the taste is then that process's (taste_outside) */
    size_t exchange_floats; /* its size: the sum of the plan's buffers, else the run stops */
    int taste_outside;      /* 1: no taste here (the exit code says only that the kernel ran) */
    chef_cancel *cancel;    /* optional: a stop asked here ends the run between its steps and, on the
                               emulator, between teams (the error's cause is CHEF_CAUSE_CANCELLED); a
                               GPU kernel already launched finishes first */
} kitchen_params;

/* A buffer of floats that exists on the host and on the device. */
typedef struct kitchen_buffer {
    const char *name;
    size_t count;
    int is_output;
    float *host;
    void *device;
} kitchen_buffer;

/* What a recipe decided for this run: sizes, buffers and the launch configuration. */
typedef struct kitchen_plan {
    int64_t n;
    int nbuffers;
    kitchen_buffer buffers[KITCHEN_MAX_BUFFERS];
    chef_dim3 grid, block;
    int n_int;              /* n as the kernel's int parameter */
    float scalar;           /* a float parameter of the kernel (saxpy's a) */
    int counting;           /* inputs are the counting example */
    uint64_t seed;
} kitchen_plan;

typedef struct kitchen_copy {
    size_t bytes;
    double ms, gb_per_s;
} kitchen_copy;

typedef struct kitchen_report {
    kitchen_params params;
    backend_info backend;
    const char *recipe, *kernel;
    kitchen_plan plan;
    /* 1. prepare */
    size_t host_bytes;
    double prepare_ms;
    /* 2. ship in, 4. ship out */
    kitchen_copy ship_in, ship_out;
    /* 3. cook */
    uint64_t teams, cooks_per_team, cooks;
    uint64_t idle_cooks;            /* cooks whose index falls past the end */
    uint64_t idle_cooks_last_team;
    uint64_t uncooked;              /* elements no cook was assigned (grid too small) */
    int repeat;
    int one_launch;                 /* 1: a whole program's launch (program_kitchen.c): no timed
                                       repeats; its idle cooks (idle_known) from the cooks' records */
    int idle_known;                 /* with one_launch: every cook's record was kept */
    double cook_ms;                 /* median of the timed launches */
    double cook_ms_min, cook_ms_max;
    double cook_runs[KITCHEN_MAX_REPEAT];
    double traced_ms;               /* the launch that recorded the trace */
    int trace_checked;              /* emulator: the traced launch used the checked build */
    counters counters;              /* emulator: what the traced (checked) launch counted, per warp */
    int modeled;                    /* 1: model holds the modeled GPU time of the counted launch */
    int counted_beside;             /* 1: on a GPU, counters come from the emulator's count of the
                                       same launch on the same inputs (its counted teams only) */
    double counted_beside_ms;       /* that count's own time on the CPU */
    model_device model_device;      /* the GPU modeled (loaded before the run) */
    model_result model;
    trace trace;
    trace_summary trace_summary;
    /* 5. taste */
    verify_result taste;
    double rtol, atol;
    double reference_ms;            /* time of the reference that was used */
    int reference_blas;             /* 1: OpenBLAS computed the expected result (fast_reference) */
    int exact_known;                /* 1: the recipe rounds its inputs (recipe.precision), and ... */
    double exact_abs_error, exact_rel_error; /* ... these are its largest errors against the product
                                       of the inputs as given (in double, or OpenBLAS's FP32 when
                                       reference_blas) */
    /* the journey */
    double shipping_ms, total_ms, shipping_share;
    /* first elements of each buffer, for showing small examples */
    size_t sample_count;            /* of buffer 0 (the inputs) */
    size_t sample_counts[KITCHEN_MAX_BUFFERS]; /* of each buffer (an output may be shorter: a sum) */
    float samples[KITCHEN_MAX_BUFFERS][KITCHEN_SAMPLE];
    float sample_last[KITCHEN_MAX_BUFFERS]; /* the last element of each buffer */
    /* outcome */
    int started;                    /* step 1 began (parameters and memory were fine) */
    int ran;                        /* the kernel ran to the end */
    int exit_code;
    chef_error error;               /* set when exit_code is neither 0 nor 1 */
} kitchen_report;

/* What an emulator run will do, for predicting its wait (kitchen_note_wait). */
typedef struct kitchen_wait {
    const char *kernel; /* the kernel it cooks: a learner's has no measured pace */
    uint64_t cooks, teams;
    int workers;        /* the emulator's */
    int checked;        /* 1: a checked, counted launch first */
    int launches;       /* plain launches */
    int use_blas;       /* 1: the reference is OpenBLAS, else the plain loop */
} kitchen_wait;

/* Before an emulator run of rc at plan's size predicted to take over KITCHEN_NOTE_MS: tells note
   how long, and from what (the recipe's pace measured here or on the reference machine, else about
   10^9 simple steps a second). */
struct recipe;
void kitchen_note_wait(const struct recipe *rc, const kitchen_plan *plan, const kitchen_wait *w, void (*note)(const char *text));

/* The taste's tolerances for params' recipe at size n (the params' own, else the recipe's). */
struct recipe;
void kitchen_tolerance(const struct recipe *rc, const kitchen_params *params, int64_t n, double *rtol, double *atol);

/* Whether the taste of rc at plan's size uses OpenBLAS (past KITCHEN_LOOP_REFERENCE_WORK, or asked). */
int kitchen_use_blas(const struct recipe *rc, const kitchen_params *params, const kitchen_plan *plan);

/* Runs the five steps. Returns the exit code (0 passed, 1 wrong, others: report->error). */
int kitchen_run(const kitchen_params *params, kitchen_report *report);

/* Which team and cook (linear indices) should have cooked output element index; 0 if none. */
int kitchen_owner(const kitchen_report *report, size_t index, uint64_t *block, uint64_t *thread);

/* Releases the host and device buffers of a plan (for code that runs a plan's steps itself). */
void kitchen_release(backend *be, kitchen_plan *plan, int pinned);

/* Releases what a report holds (its trace). */
void kitchen_report_free(kitchen_report *report);

/* Sets params to the defaults. */
void kitchen_params_default(kitchen_params *params);

#endif
