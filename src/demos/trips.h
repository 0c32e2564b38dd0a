/*
 * trips.h - the "trips" demo (lesson 8, fewer trips): data that stays in the kitchen against a
 * round trip per step.
 *
 * A chain of `steps` kernels on n floats, each step one vector_add: x[k+1] = x[k] + b. Two ways:
 *
 *   stay        ship x and b in once, launch the whole chain on device buffers (two buffers used
 *               in turn, "ping-pong"), ship the result out once;
 *   round trip  for every step: ship x and b in, launch once, ship x out.
 *
 * Each way runs with pageable and with pinned (page-locked) host memory: four variants. Each variant
 * runs the chain once to warm up, then `repeat` times on the clock, timed shipment by shipment and
 * launch by launch; every figure reported is the median of those runs. Every run, the warm-up
 * included, is tasted against x[0] + steps * b computed by the CPU. The round trip ships exactly
 * `steps` times the bytes of the stay.
 */
#ifndef CUDACHEF_TRIPS_H
#define CUDACHEF_TRIPS_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"

#define TRIPS_DEFAULT_N (1 << 24)
#define TRIPS_DEFAULT_STEPS 8
#define TRIPS_MAX_STEPS 1000
#define TRIPS_VARIANTS 4
#define TRIPS_DEFAULT_REPEAT 5     /* timed runs of each variant when the demo gives none */
#define TRIPS_MAX_REPEAT KITCHEN_MAX_REPEAT

/* One way of running the chain, with one kind of host memory. The counts are those of one run of
   the chain; each figure from in_ms to road_share is the median of that figure over the timed
   runs, taken on its own (so total_ms need not be in_ms + cook_ms + out_ms). */
typedef struct trips_variant {
    int round_trip;                 /* 0: the data stays in the kitchen; 1: a round trip per step */
    int pinned;                     /* page-locked host memory */
    size_t bytes_in, bytes_out;
    int shipments_in, shipments_out, launches;
    double in_ms, cook_ms, out_ms;  /* the backend's timers summed over one run */
    double total_ms;                /* in + cook + out of one run */
    double wall_ms;                 /* host clock around the whole chain */
    double gb_per_s;                /* one run's bytes shipped over its time spent shipping */
    double road_share;              /* one run's (in + out) / total: the share of time on the road */
    double total_runs[TRIPS_MAX_REPEAT]; /* total_ms of every timed run, in order */
    int runs;                       /* timed runs behind the medians */
    int tasted, tasted_right;       /* runs tasted (the warm-up too) and those that tasted right */
    verify_result taste;            /* the worst taste of those runs */
    int ran;
} trips_variant;

typedef struct trips_result {
    backend_info backend;
    int64_t n;
    int steps;
    int repeat;                     /* timed runs of each variant, after one warm-up run */
    chef_dim3 grid, block;
    uint64_t seed;
    double atol;                    /* tolerance of the taste (absolute; values are about 1) */
    /* stay pageable, round trip pageable, stay pinned, round trip pinned */
    trips_variant variants[TRIPS_VARIANTS];
    int nvariants;                  /* variants that ran to the end */
    double ratio_pageable, ratio_pinned; /* round trip total / stay total, medians */
    double pinned_speedup;          /* shipping GB/s with pinned memory / with pageable memory */
    int exit_code;
    chef_error error;               /* set when exit_code is neither 0 nor 1 */
} trips_result;

/* Runs the demo. Returns the exit code; *out is set whenever the kitchen was opened. */
int trips_run(const demo_params *p, trips_result **out, chef_error *err);

/* Writes the result for people, in the learner's language. */
void trips_text(FILE *out, const trips_result *r);

/* The result for programs (kind "trips", docs/DEMOS.md); the caller owns the reference. */
json_t *trips_json(const trips_result *r);

/* Releases a result. */
void trips_free(trips_result *r);

/* The chain's sizes, checked: what a trips or streams demo runs. */
typedef struct trips_sizes {
    int64_t n;
    int steps, repeat, threads_per_block;
    int64_t blocks;                 /* of a launch on all n elements */
} trips_sizes;

/* The chain's sizes from a demo's parameters (n, steps, repeat and threads per block, each its
   default when not given), checked against the limits and the backend's (exit code 2), and the
   memory of a run against what is free (exit code 5): 0, or -1 with err. Shared with the streams
   demo (streams.c). */
int trips_chain_plan(const demo_params *p, const backend_info *info, int64_t default_n, int default_steps,
                     int default_repeat, trips_sizes *out, chef_error *err);

/* The chain's inputs, shared with the streams demo (streams.c): x0 and b, n floats each in [-1, 1)
   from seed, and the CPU's x0 + steps * b in double, rounded to float, each in a new array (the
   caller frees all three, also after a failure). 0, or -1 with err when host memory runs out. */
int trips_chain_inputs(int64_t n, int steps, uint64_t seed, float **x0, float **b, float **expected, chef_error *err);

/* The absolute tolerance of a chain of steps additions on values of about 1. */
double trips_chain_atol(int steps);

#endif
