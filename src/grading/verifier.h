/*
 * verifier.h - the trusted side's taste of a grading check (verifier.c): private inputs, shared
 * memory the boxed child cooks into, and the comparison made once the child is gone.
 */
#ifndef CUDACHEF_VERIFIER_H
#define CUDACHEF_VERIFIER_H

#include "grading/exercise_check.h"
#include "engine/kitchen.h"

/* One asked run as the trusted side planned it. */
typedef struct verifier_run {
    kitchen_plan plan;        /* its buffers' host copies are this process's own */
    int planned;              /* 0: the recipe refused the size (the child says why) */
    size_t offset, floats;    /* where its buffers lie in the shared memory, in floats */
    float *expected;          /* its reference output once computed; the runs of one size in other
                                 cook orders share the first one's (same inputs, same answer) */
    int owns_expected;        /* 1: this run computed it (and frees it) */
} verifier_run;

/* The shared memory opens with this many bytes of text for the child (verifier_header_set): the
   runs asked and the check's nonce, read and wiped by the child before the learner's code loads. */
#define VERIFIER_HEADER_BYTES 8192

/* Every run of one check. */
typedef struct verifier {
    int fd;                   /* the shared memory (memfd), given to the child as fd 4 */
    char *base;               /* its mapping: the header, then the runs' buffers (region) */
    float *region;
    size_t floats;
    verifier_run runs[EXERCISE_MAX_RUNS];
    int nruns;
} verifier;

/* The kitchen parameters of one run of ex, as the child cooks it. */
void verifier_params(const exercise *ex, const exercise_run *run, uint64_t seed, kitchen_params *p);

/* Plans the nruns runs asked, fills their inputs from seed and makes the shared memory: 0, or -1
   with err. */
int verifier_prepare(verifier *v, const exercise *ex, const exercise_run *asked, int nruns, const backend_info *info,
                     uint64_t seed, chef_error *err);

/* Run i's taste (run->taste) from the shared memory's output against this process's reference. */
void verifier_taste(verifier *v, const exercise *ex, int i, exercise_run *run);

/* Writes text (NUL-ended) into the shared memory's header: 0, or -1 when it does not fit. */
int verifier_header_set(verifier *v, const char *text);

/* Frees what verifier_prepare made. */
void verifier_free(verifier *v);

#endif
