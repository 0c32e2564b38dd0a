/*
 * streams.h - the "streams" demo (lesson 19, streams and overlap): shipments that overlap cooking.
 *
 * The job is the chain of lesson 8's road demo, kept in the kitchen: ship x and b in, `steps`
 * vector adds x[k+1] = x[k] + b on device buffers used in turn, ship x out. Three versions:
 *
 *   (a) one stream        the whole job in one chunk: all in, cook, all out (pinned memory);
 *   (b) K streams         the job cut into K chunks, chunk k's shipments (cudaMemcpyAsync) and
 *                         launches issued in stream k, so that one chunk travels while another
 *                         cooks (pinned memory);
 *   (c) K streams, pageable  (b) from pageable memory, where cudaMemcpyAsync makes the head chef
 *                         wait and little overlaps.
 *
 * On a GPU (streams_gpu.c) every chunk's ship in, cook and ship out is timed by CUDA events recorded
 * in its stream, each version runs once to warm up and then `repeat` times, and the timeline shown
 * is its median run's. On the emulator there is no copy engine and no GPU clock: every chunk is
 * cooked for real and tasted, and the timeline is MODELED (timeline_schedule): shipments at the
 * device file's copy figures, each chunk's cooking from the model of its counted launch. Every run
 * is tasted against x0 + steps * b computed by the CPU (trips_chain_inputs).
 */
#ifndef CUDACHEF_STREAMS_H
#define CUDACHEF_STREAMS_H

#include <jansson.h>
#include <stdio.h>

#include "demos/demo.h"
#include "demos/timeline.h"

#define STREAMS_DEFAULT_N (1 << 24)
#define STREAMS_DEFAULT_STREAMS 4
#define STREAMS_MAX_STREAMS 16
#define STREAMS_DEFAULT_STEPS 30
#define STREAMS_MAX_STEPS 1000
#define STREAMS_DEFAULT_REPEAT 5      /* timed runs of each version on a GPU */
#define STREAMS_MAX_REPEAT KITCHEN_MAX_REPEAT
#define STREAMS_VERSIONS 3
#define STREAMS_MAX_OPS (3 * STREAMS_MAX_STREAMS)
#define STREAMS_KERNEL "vector_add"

/* One version: how the job was cut and issued, its timeline and its taste. */
typedef struct streams_version {
    int streams;                      /* streams, one chunk each */
    int pinned;                       /* page-locked host memory */
    timeline_op ops[STREAMS_MAX_OPS]; /* three per chunk, in issue order: the median run's (GPU) */
    int nops;
    double total_ms;                  /* measured: the first event to the last (the median run);
                                         modeled: the schedule's span */
    double host_ms;                   /* measured: the head chef's clock around the issuing calls;
                                         modeled: the time it waited on blocking shipments */
    double serial_ms;                 /* the operations' lengths added up */
    double overlap_ms;                /* two lanes or more busy at once */
    double busy_ms[TIMELINE_LANES];
    double total_runs[STREAMS_MAX_REPEAT]; /* every timed run's total, in order (GPU) */
    int runs;                         /* timed runs (1 modeled run on the emulator) */
    int tasted, tasted_right;         /* runs tasted (the warm-up too) and those that tasted right */
    verify_result taste;              /* the worst of them */
    int ran;
} streams_version;

typedef struct streams_result {
    backend_info backend;
    int modeled;                      /* 1: every time is the model's (the emulator cooked) */
    char device_id[32], device_name[64]; /* the modeled GPU (when modeled) */
    double copy_us, pinned_gb_s, pageable_gb_s; /* its shipments, from its device file */
    int64_t n;
    int streams, steps, repeat;
    chef_dim3 block;
    uint64_t seed;
    double atol;
    streams_version versions[STREAMS_VERSIONS]; /* one stream, K streams, K streams pageable */
    int nversions;                    /* versions that ran to the end */
    double speedup;                   /* (a) total / (b) total */
    double pageable_ratio;            /* (c) total / (b) total */
    int exit_code;
    chef_error error;                 /* set when exit_code is neither 0 nor 1 */
} streams_result;

/* What one run of a version hands the GPU half: host and device buffers of n floats, and how to
   cut and cook. dx holds two buffers used in turn (the chain's ping-pong); hx receives the result. */
typedef struct streams_job {
    float *hx, *hb;
    float *dx[2], *db;
    int64_t n;
    int chunks;                       /* = streams: chunk k goes in stream k */
    int steps;
    int threads_per_block;
} streams_job;

/* Runs the demo. Returns the exit code; *out is set whenever the kitchen was opened. */
int streams_run(const demo_params *p, streams_result **out, chef_error *err);

/* Writes the result for people, in the learner's language: the three timelines (fit 80 columns). */
void streams_text(FILE *out, const streams_result *r);

/* The result for programs (kind "streams", docs/DEMOS.md); the caller owns the reference. */
json_t *streams_json(const streams_result *r);

/* Releases a result. */
void streams_free(streams_result *r);

/* Chunk k of n elements cut into chunks: its first element and its count (the first n % chunks
   chunks hold one more). */
void streams_chunk(int64_t n, int chunks, int k, int64_t *first, int64_t *count);

/* GPU only (streams_gpu.c; streams_gpu_none.c without CUDA): one run of the job, chunk k's
   shipments (cudaMemcpyAsync) and launches issued in stream k of job->chunks streams, each timed by
   CUDA events. Fills ops[3 * chunks] (ship in, cook, ship out of each chunk in issue order, ms from
   the first event), *total_ms (the first event to the last) and *host_ms (the host clock around
   the issuing calls); the result is in job->hx when it returns. 0, or -1 with err. */
int streams_gpu_run(const streams_job *job, timeline_op *ops, double *total_ms, double *host_ms, chef_error *err);

#endif
