/*
 * blas.h - the CPU's recipe book: matrix multiply with OpenBLAS (what NumPy calls underneath).
 *
 * Used as the honest CPU baseline of the benchmarking lessons, as the fast reference when the
 * plain triple loop would take too long, and by the emulator for the "library" recipes.
 */
#ifndef CUDACHEF_BLAS_H
#define CUDACHEF_BLAS_H

#include "base/chef.h"

/* Loads OpenBLAS on first use (its threads start then, not with every process); 0, or -1 with
   err (if not NULL) saying what to install. */
int blas_load(chef_error *err);

/* C = A * B for n x n row-major float matrices, with OpenBLAS on all cores; only after
   blas_load returned 0. */
void blas_sgemm(const float *A, const float *B, float *C, int n);

/* C = alpha op(A) op(B) + beta C, column-major (cuBLAS's layout), in float (dbl 0) or double, with
   OpenBLAS on all cores (after blas_load). */
void blas_gemm_columns(int dbl, int ta, int tb, int m, int n, int k, double alpha, const void *A, int lda, const void *B,
                       int ldb, double beta, void *C, int ldc);

/* "OpenBLAS 0.3.21 (N threads)" (loading it), or "OpenBLAS (not loaded)". */
const char *blas_describe(void);

#endif
