/*
 * blas.h - the CPU's recipe book: matrix multiply with OpenBLAS (what NumPy calls underneath).
 *
 * Used as the honest CPU baseline of the benchmarking lessons, as the fast reference when the
 * plain triple loop would take too long, and by the emulator for the "library" recipes.
 */
#ifndef CUDACHEF_BLAS_H
#define CUDACHEF_BLAS_H

/* C = A * B for n x n row-major float matrices, with OpenBLAS on all cores. */
void blas_sgemm(const float *A, const float *B, float *C, int n);

/* "OpenBLAS 0.3.21 (N threads)". */
const char *blas_describe(void);

#endif
