/*
 * clock.h - the "clock" demo (lesson 7, a fair race): how to time a kernel honestly.
 *
 * One recipe (vector-add by default) is prepared and shipped once, then launched again and again:
 *
 *   (a) cold and warm   the first launch of the run against warm launches, both on the host clock
 *                       from the launch call until the cooks are done (on a GPU the first launch of
 *                       a kernel also loads its machine code onto the device);
 *   (b) warm launches   min, median, max and mean of `repeat` launches on the kitchen's own timer
 *                       (CUDA events on a GPU, the CPU clock on the emulator): why we report the median;
 *   (c) stopping the clock  on a GPU, a host timer stopped as soon as cudaLaunchKernel returns,
 *                       the same timer after cudaDeviceSynchronize, and CUDA events; on the emulator
 *                       a launch returns only when it is done, so there is one figure and the report
 *                       says why.
 *
 * The output of the timed launches is shipped back and tasted against the recipe's CPU reference.
 * Every figure comes from this run; nothing is computed from tables.
 */
#ifndef CUDACHEF_CLOCK_H
#define CUDACHEF_CLOCK_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"

#define CLOCK_DEFAULT_REPEAT 20
#define CLOCK_MAX_REPEAT KITCHEN_MAX_REPEAT

/* A handful of launches summed up, in ms. */
typedef struct clock_stats {
    double min, median, max, mean;
} clock_stats;

typedef struct clock_result {
    backend_info backend;
    const char *recipe, *kernel;
    int64_t n;
    chef_dim3 grid, block;
    int pinned;
    uint64_t seed;
    int repeat;                         /* warm launches timed in (b) and in (c) */
    /* (a) the first launch of this run: host clock and kitchen timer */
    double first_host_ms, first_kernel_ms;
    clock_stats warm_host;              /* the warm launches on the host clock */
    double cold_ratio;                  /* first_host_ms / warm_host.median */
    /* (b) the warm launches on the kitchen's timer */
    double warm_runs[CLOCK_MAX_REPEAT];
    clock_stats warm;
    /* (c) stopping the clock */
    int sync_separate;                  /* 1 on a GPU: the three timers below were measured apart */
    clock_stats no_sync;                /* host timer stopped when the launch call returned */
    clock_stats with_sync;              /* host timer stopped after synchronizing */
    clock_stats events;                 /* CUDA events (GPU only) */
    /* taste */
    verify_result taste;
    double rtol, atol;
    int launches;                       /* launches that wrote the output tasted below */
    int ran;                            /* every launch ran and the output was shipped back */
    int exit_code;
    chef_error error;                   /* set when exit_code is neither 0 nor 1 */
} clock_result;

/* Runs the demo. Returns the exit code; *out is set whenever the kitchen was opened. */
int clock_run(const demo_params *p, clock_result **out, chef_error *err);

/* Writes the result for people, in the learner's language. */
void clock_text(FILE *out, const clock_result *r);

/* The result for programs (kind "clock", docs/DEMOS.md); the caller owns the reference. */
json_t *clock_json(const clock_result *r);

/* Releases a result. */
void clock_free(clock_result *r);

/* Min, median, max and mean of n timings in ms (the runs are not reordered); all zero when n < 1.
   Shared with the demos that time a handful of runs (trips.c). */
clock_stats clock_summarize(const double *runs, int n);

/* GPU only (clock_gpu.c; clock_gpu_none.c without CUDA): launches kernel `repeat` times three ways
   and stores each launch's ms: a host timer read as soon as cudaLaunchKernel returns (no_sync), the
   same launch after cudaDeviceSynchronize (with_sync), and CUDA events around a launch (events).
   Returns 0, or -1 with err. */
int clock_gpu_stop_watch(const char *kernel, chef_dim3 grid, chef_dim3 block, void **args, int repeat,
                         double *no_sync, double *with_sync, double *events, chef_error *err);

#endif
