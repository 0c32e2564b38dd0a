/*
 * verify.h - tasting: comparing what the kernel cooked with the CPU's reference.
 *
 * An element passes when |got - expected| <= atol + rtol * |expected| (NaN never passes). GPUs
 * fuse multiply-adds and sum in other orders, so exact equality is the wrong test for floats.
 */
#ifndef CUDACHEF_VERIFY_H
#define CUDACHEF_VERIFY_H

#include <stddef.h>

#define VERIFY_MAX_MISMATCHES 8

typedef struct verify_mismatch {
    size_t index;
    float expected, got;
} verify_mismatch;

typedef struct verify_result {
    size_t checked, correct;
    double max_abs_error, max_rel_error;
    size_t nmismatches;                      /* kept (at most VERIFY_MAX_MISMATCHES) */
    verify_mismatch mismatches[VERIFY_MAX_MISMATCHES];
    int passed;
    /* the shape of the errors, for telling a mistake by its pattern (exercise_diagnose.c) */
    size_t first_wrong, last_wrong;          /* indices of the first and last wrong element (if any) */
    size_t never_written;                    /* elements still NaN: no cook wrote them */
    size_t zeros;                            /* wrong elements that are exactly 0 */
    size_t correct_prefix;                   /* how many elements from index 0 are right */
    size_t stride;                           /* > 1: the right elements are exactly every stride-th */
    size_t right_run, right_period;          /* > 0: element i is right exactly when i % right_period <
                                                right_run (the same first elements of every round) */
} verify_result;

/* Compares n elements; fills result with the counts, largest errors and the first mismatches. */
void verify_compare(const float *got, const float *expected, size_t n, double rtol, double atol,
                    verify_result *result);

/* True when got matches expected within the tolerance. */
int verify_close(float got, float expected, double rtol, double atol);

#endif
