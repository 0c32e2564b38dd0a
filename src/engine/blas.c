/*
 * blas.c - matrix multiply on the CPU with OpenBLAS (see blas.h).
 *
 * OpenBLAS is what NumPy and most scientific code call underneath: blocked for the caches,
 * vectorized with the CPU's widest instructions and spread over every core. It is the fair
 * yardstick for a GPU: a plain triple loop on one core is not.
 */
#include "engine/blas.h"

#include <cblas.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"

/* C = A * B for n x n row-major float matrices, with OpenBLAS on all cores. */
void blas_sgemm(const float *A, const float *B, float *C, int n)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
}

/* "OpenBLAS 0.3.21 (N threads)": the first two words of OpenBLAS's own configuration line. */
const char *blas_describe(void)
{
    static _Thread_local char text[96]; /* a job's thread may describe it while another does */
    const char *config = openblas_get_config();
    char name[32] = "OpenBLAS", version[32] = "";
    if (config)
        sscanf(config, "%31s %31s", name, version);
    int threads = openblas_get_num_threads();
    snprintf(text, sizeof text, threads == 1 ? _("%s%s%s (%d thread)") : _("%s%s%s (%d threads)"), name,
             version[0] ? " " : "", version, threads);
    return text;
}
