/*
 * demo.h - the parameters every kind of lesson demo receives, and the kinds that are more than
 * one kitchen run.
 *
 * A lesson's lesson.ini describes its demos (docs/LESSONS.md); the command line may change them.
 * `run` and `compare` demos are kitchen runs (kitchen.h). The others have a module each, all with
 * the same shape:
 *
 *   int  KIND_run(const demo_params *p, KIND_result **out, chef_error *err);  exit code; *out set
 *                                                        whenever something ran (even if wrong)
 *   void KIND_text(FILE *out, const KIND_result *r);     for people, in the learner's language
 *   json_t *KIND_json(const KIND_result *r);             for programs (docs/lesson-report.md)
 *   void KIND_free(KIND_result *r);
 *
 *   clock (clock.h)  timing honestly: a cold first launch, warm launches and their median, and what
 *                    a timer reads when the program forgets to synchronize
 *   race  (race.h)   CPU loop, CPU BLAS, GPU kernels and the GPU library over a sweep of sizes,
 *                    with and without shipping, and the size where the GPU starts to win
 *   trips (trips.h)  a chain of kernels on data that stays in the kitchen vs a round trip per step,
 *                    with pageable and pinned memory, and the share of time on the road
 *   walk  (walk.h)   the low-level API one call at a time: devices, bytes, copies, error codes, and
 *                    a kernel compiled from a string at run time (NVRTC) where there is a GPU
 *   card  (card.h)   a recipe's card: registers, shared memory, stack and spills as ptxas reported
 *                    them, and the occupancy they allow on the modeled GPU
 *   roofline (roofline.h)  recipes on a GPU's roofline: counted intensity, modeled or measured
 *                    GFLOP/s, the device file's roofs, drawn as text
 *   transfers (transfers.h)  copies from 4 KiB to 1 GiB, each way, pageable and pinned, and the
 *                    device's own copy: GB/s against bytes (`cudachef bench`)
 *   streams (streams.h)  a job in one stream and in several: shipments overlapping cooking, drawn as
 *                    a timeline measured with CUDA events, or modeled on the emulator
 *   managed (managed.h)  one recipe with explicit copies, with managed memory moved on demand
 *                    (page faults) and with managed memory prefetched: each way's times and pages
 */
#ifndef CUDACHEF_DEMO_H
#define CUDACHEF_DEMO_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "base/cancel.h"
#include "engine/kitchen.h"

#define DEMO_MAX_RECIPES 12
#define DEMO_MAX_SIZES 32

typedef struct demo_params {
    /* recipe, n, threads per block, blocks, backend, pinned, seed, repeat, workers, note */
    kitchen_params run;
    const char *recipes[DEMO_MAX_RECIPES]; /* compare, race: the contenders */
    int nrecipes;
    int64_t sizes[DEMO_MAX_SIZES];         /* race: matrix sides, smallest first */
    int nsizes;
    int steps;                             /* trips: kernels in the chain (0: the module's default) */
    int streams;                           /* streams: how many (0: the module's default) */
    /* optional: told how far a long demo has come, as "size 512 (5 of 8): matmul-tiled" (race,
       transfers: the size, its place in the sweep, then what runs) or a name (trips), with
       progress_ctx; may be NULL */
    void (*progress)(void *ctx, const char *text);
    void *progress_ctx;
    /* optional: once it asks to stop, a long demo stops before its next measurement, keeping what
       it measured (the race; asked by the full-screen interface when the learner leaves) */
    const chef_cancel *cancel;
} demo_params;

/* What the demo modules (and lesson_run.c) share, in demo.c (demo_wrap: demo_text.c). */

/* Prints text padded to width terminal columns (Hangul takes two); width < 0 right-aligns. */
void demo_cell(FILE *out, const char *text, int width);

/* Prints text wrapped at spaces to fit width terminal columns, then a newline: the cursor is at
   column col, and the lines after the first start with indent spaces (demo_text.c). */
void demo_wrap(FILE *out, const char *text, int col, int indent, int width);

/* Prints "The kitchen stopped: ..." (heading: a translated format with one %s for the message)
   and the hint, if the error has one. */
void demo_stopped_text(FILE *out, const char *heading, const chef_error *err);

/* A JSON number, null when not finite (JSON has no NaN or infinity). */
json_t *demo_real(double v);

/* A JSON array of n floats (NaN, an element nobody wrote, as null). */
json_t *demo_floats_json(const float *v, size_t n);

/* A JSON array of the three sides of a grid or a block. */
json_t *demo_dim3_json(chef_dim3 d);

/* {"kind": "gpu"|"emu", "name", "no_gpu_code", "no_gpu_reason": text or null}: who cooked. */
json_t *demo_backend_json(const backend_info *b);

/* A demo's JSON object, begun: {"kind": kind, "backend": demo_backend_json(b)}. */
json_t *demo_json_begin(const char *kind, const backend_info *b);

/* {"passed", "checked", "correct", "max_abs_error"}: a taste's outcome. */
json_t *demo_taste_json(const verify_result *t);

/* Keeps the worse of two tastes in *kept (t itself when first): fewer elements right, then the
   larger error. For a demo that tastes every one of several runs and reports the worst. */
void demo_keep_worst_taste(verify_result *kept, const verify_result *t, int first);

/* Adds "status" ("passed", "wrong" or "error"), "exit_code" and "error" ({"message", "hint"} when
   exit_code > 1, else null) at the end of a demo's JSON object. */
void demo_status_json(json_t *o, int exit_code, const chef_error *err);

/* -1 with err set (cause CHEF_CAUSE_CANCELLED) once the demo was asked to stop (p->cancel), else
   0: a long demo checks it between its launches and measurements. */
int demo_stopped(const demo_params *p, chef_error *err);

/* Opens the backend and allocates a zeroed result of size bytes. NULL with err (nothing left
   open) on failure. */
void *demo_open(backend_kind want, size_t size, backend **be, chef_error *err);

/* Fails with "this demo needs ..." when host bytes exceed the host memory available or, on a GPU,
   device bytes exceed its free memory. Returns 0 or -1 with err. */
int demo_check_memory(size_t host, size_t device, const backend_info *info, chef_error *err);

/* Hands a demo's kept error to the caller (its exit code set to fallback when it has none) and
   returns that exit code. */
int demo_error_exit(chef_error *kept, int fallback, chef_error *err);


#endif
