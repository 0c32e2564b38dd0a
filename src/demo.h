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
 */
#ifndef CUDACHEF_DEMO_H
#define CUDACHEF_DEMO_H

#include <stdint.h>

#include "kitchen.h"

#define DEMO_MAX_RECIPES 8
#define DEMO_MAX_SIZES 32

typedef struct demo_params {
    /* recipe, n, threads per block, blocks, backend, pinned, seed, repeat, workers, note */
    kitchen_params run;
    const char *recipes[DEMO_MAX_RECIPES]; /* compare, race: the contenders */
    int nrecipes;
    int64_t sizes[DEMO_MAX_SIZES];         /* race: matrix sides, smallest first */
    int nsizes;
    int steps;                             /* trips: kernels in the chain (0: the module's default) */
    /* optional: told how far a long demo has come ("size 512: cuBLAS"); may be NULL */
    void (*progress)(const char *text);
} demo_params;

#endif
