/*
 * lesson_run.h - runs a lesson's demos without a terminal: `cudachef run LESSON [--demo NAME]`.
 *
 * A demo's parameters come from lesson.ini; the learner's options replace them; the emu.* values
 * apply when the CPU emulator cooks and the learner did not choose. The outcome is compared with
 * what the demo expects (a race demo is meant to go wrong), and reported as text or as JSON
 * (schema cudachef.lesson-run/1, docs/run-report.md).
 */
#ifndef CUDACHEF_LESSON_RUN_H
#define CUDACHEF_LESSON_RUN_H

#include <jansson.h>
#include <stdio.h>

#include "lessons/lesson.h"

#define LESSON_RUN_SCHEMA "cudachef.lesson-run/1"

/* What the learner gave on the command line (a flag says which fields were given). */
typedef struct demo_overrides {
    kitchen_params p;
    int n, threads_per_block, blocks, pinned, seed, repeat, workers, backend;
    int64_t sizes[DEMO_MAX_SIZES]; /* race: sizes to sweep (nsizes 0: the demo's) */
    int nsizes;
    int steps;                     /* trips: 0 keeps the demo's */
} demo_overrides;

typedef enum demo_outcome { OUTCOME_PASSED, OUTCOME_WRONG, OUTCOME_OUT_OF_BOUNDS, OUTCOME_ERROR } demo_outcome;

/* Where a demo's results go. */
typedef struct demo_sink {
    FILE *text;         /* text for people, or NULL */
    json_t *json;       /* an array that receives one object per demo, or NULL */
} demo_sink;

/* What the emulator's smaller values (lesson.ini's emu.*) changed, when the learner did not choose:
   n (from, to: the demo's n and the emulator's), or the sizes of a sweep (from, to: the largest
   of each), or nothing. A code, translated into a sentence only where it is shown. */
typedef enum demo_reduced { DEMO_REDUCED_NONE, DEMO_REDUCED_N, DEMO_REDUCED_SIZES } demo_reduced;
typedef struct demo_reduction {
    demo_reduced kind;
    int64_t from, to;
} demo_reduction;

/* Builds the parameters of a demo: lesson.ini, then the overrides, then the emu.* values when
   the emulator will cook. reduced (may be NULL) says what was made smaller. */
void lesson_demo_params(const lesson_demo *d, const demo_overrides *o, int emulator, demo_params *out,
                        demo_reduction *reduced);

/* The sentence that says what was made smaller, in the learner's language ("" for nothing). */
void lesson_reduction_text(const demo_reduction *r, char *out, size_t size);

/* The stable name of what was made smaller: "n", "sizes", or NULL for nothing (JSON). */
const char *lesson_reduction_code(const demo_reduction *r);

/* Runs one demo and reports it to sink; returns 0 when the outcome is the expected one, else the
   exit code (1 the outcome differs, others from chef.h). */
int lesson_run_demo(const lesson *l, const lesson_demo *d, const demo_overrides *o, demo_sink *sink);

/* lesson_run_demo, and when the demo ends in an error (an exit code above 1), that error in *err
   (its one line is the caller's to print: the command line prints it on standard error). */
int lesson_run_demo_why(const lesson *l, const lesson_demo *d, const demo_overrides *o, demo_sink *sink,
                        chef_error *err);

/* The outcome a demo expects on this backend. */
demo_expect lesson_demo_expected(const lesson_demo *d, int on_gpu);

/* Whether an outcome is what a demo expects. */
int lesson_outcome_matches(demo_expect expect, demo_outcome outcome);

/* "passed", "wrong", "out-of-bounds", "error". */
const char *lesson_outcome_name(demo_outcome outcome);

/* The outcome of a kitchen run from kitchen_run's exit code and the report's error. */
demo_outcome lesson_outcome_of(const kitchen_report *r, int code);

#endif
