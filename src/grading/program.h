/*
 * program.h - a learner's whole CUDA program (its main, its host C++, several kernels and files):
 * built for the emulator and run there, boxed, with the terminal's input and output
 * (docs/EMULATOR.md, "Whole programs"; docs/TRY.md). program.c builds it (the preprocessor, the
 * source pass of src/kit/prog_prep.c, g++ twice: plain and checked) into the build cache and runs
 * it under cudachef-check (program_runner.c).
 */
#ifndef CUDACHEF_PROGRAM_H
#define CUDACHEF_PROGRAM_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "base/cancel.h"
#include "base/counters.h"
#include "base/chef.h"

#define PROGRAM_MAX_FILES 64
#define PROGRAM_MAX_INCLUDES 16

/* What to build and run. */
typedef struct program_spec {
    const char *files[PROGRAM_MAX_FILES]; /* the learner's files: .cu, .cpp, .cc, .cxx are compiled,
                                             headers (.cuh, .h, .hpp) are only included */
    int nfiles;
    const char *includes[PROGRAM_MAX_INCLUDES]; /* -I folders */
    int nincludes;
    char *const *args;                    /* the program's own arguments (after --) */
    int nargs;
    int all_cuda;                         /* -x cu: every source file is CUDA (nvcc -x cu), not only .cu */
    int gpu_cc;                           /* 0: the emulator; else the GPU's compute capability (90 for
                                             9.0): built by nvcc for it and run natively */
    double timeout_s;                     /* the run's wall-clock limit */
    const char *check_launch;             /* NULL, or "KERNEL:K": that kernel's K-th launch is the
                                             checked one (try --check-launch) */
    int capture;                          /* 1: its output is kept in the result (a JSON report),
                                             not shown as it comes */
    int watch;                            /* 1: the watched launch (check_launch's, else the first
                                             checked one) keeps its trace for the kitchen (trace) */
    chef_cancel *cancel;                  /* NULL, or a token that stops the build or the run */
} program_spec;

/* How it went. */
typedef enum program_status {
    PROGRAM_RAN = 0,        /* it ran to its end (exit status in exit_status) */
    PROGRAM_BUILD,          /* it did not compile (build_log holds the compiler's words) */
    PROGRAM_UNSUPPORTED,    /* it uses what the emulator cannot run (message names it and where) */
    PROGRAM_CRASHED,        /* it ended by a signal */
    PROGRAM_TIMED_OUT       /* it ran past its time */
} program_status;

typedef struct program_result {
    program_status status;
    int exit_status;        /* PROGRAM_RAN: its exit status */
    int signal;             /* PROGRAM_CRASHED: the signal */
    int kernel_faulted;     /* a kernel broke a rule (out of bounds, a barrier, a warp collective) */
    int leaked;             /* device allocations never freed */
    int launches;           /* launch sites the source pass rewrote */
    int cached;             /* the build came from the cache */
    double build_ms;        /* the build's wall time (0 when cached) */
    char *build_log;        /* PROGRAM_BUILD: the compiler's words, malloc'd */
    char message[600];      /* one line for people (PROGRAM_UNSUPPORTED, PROGRAM_CRASHED, ...) */
    char outdir[4096];      /* where the program ran and wrote its files */
    int gpu;                /* it ran on the GPU (natively) */
    json_t *journey;        /* on the emulator: its journey ({"journey": [...], "not_kept": {...}}) */
    char *output;           /* capture: what it printed (stdout and stderr), malloc'd */
    json_t *trace;          /* watch: the watched launch's trace as the runner sent it (unchecked:
                               program_launch_report checks it), or NULL */
} program_result;

/* 1 when a source text defines main (a whole program rather than a kernel for a recipe). */
int program_defines_main(const char *text);

/* Builds the program (or finds it in the cache) and runs it: 0 with res filled, or -1 with err
   (the machine cannot build or run it: no compiler, no sandbox where one is required). */
int program_try(const program_spec *spec, program_result *res, chef_error *err);

/* The report of a run as JSON (docs/program-report.schema.json), name its first file:
   its journey with a model's time beside each checked launch (program_report.c). */
json_t *program_report_json(const program_result *res, const char *name);

/* A launch's counters back from the journey's JSON (names as counter_table's): 1, or 0 when it has
   none (program_report.c). */
int program_launch_counters(json_t *launch, counters *c);

/* The five steps of a run for people (program_report.c). */
void program_report_text(const program_result *res, const char *name, FILE *out);

/* 1 when event (one of a journey's, as the runner sent it: anything may be missing) is of kind
   ("alloc", "copy", "launch", ...). */
int program_event_is(json_t *event, const char *kind);

/* The watched launch of a run made with watch, as a kitchen report for the kitchen's views (the
   floor, the zoom, the memory view, the step-through): its shape, counts, the model's time and its
   trace, every figure checked against the journey and its bounds. 0, or -1 with why (no launch
   was watched, or what came back is not a trace). Free it with kitchen_report_free
   (program_kitchen.c). */
struct kitchen_report;
int program_launch_report(const program_result *res, struct kitchen_report *out, char *why, size_t size);

/* Frees res's buffers. */
void program_result_free(program_result *res);

#endif
