/*
 * blas.c - matrix multiply on the CPU with OpenBLAS (see blas.h).
 *
 * OpenBLAS is what NumPy and most scientific code call underneath: blocked for the caches,
 * vectorized with the CPU's widest instructions and spread over every core. It is the fair
 * yardstick for a GPU: a plain triple loop on one core is not.
 *
 * It is loaded on first use (dlopen), not linked: OpenBLAS starts a thread per core when it is
 * loaded, and each of them spins for about a tenth of a second before it sleeps. Linked, every
 * cudachef process paid that (0.1 s of a core on this 2-core machine, 1.5 s of CPU on a 16-core
 * GPU machine, taken from the emulator's own workers), though most never multiply a matrix.
 */
#include "engine/blas.h"

#include <cblas.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"

/* The library's soname (Debian's libopenblas0 and Ubuntu's ship it under this name). */
#define BLAS_LIBRARY "libopenblas.so.0"

/* The functions cudachef calls, once loaded. */
static struct {
    void (*sgemm)(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const enum CBLAS_TRANSPOSE, const blasint,
                  const blasint, const blasint, const float, const float *, const blasint, const float *,
                  const blasint, const float, float *, const blasint);
    void (*dgemm)(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const enum CBLAS_TRANSPOSE, const blasint,
                  const blasint, const blasint, const double, const double *, const blasint, const double *,
                  const blasint, const double, double *, const blasint);
    char *(*get_config)(void);
    int (*get_num_threads)(void);
    char why[300]; /* dlerror's words when it could not be loaded */
} blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

/* Opens the library and finds its functions (once, for every thread). */
static void blas_open(void)
{
    void *lib = dlopen(BLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        *(void **)&blas.sgemm = dlsym(lib, "cblas_sgemm");
        *(void **)&blas.dgemm = dlsym(lib, "cblas_dgemm");
        *(void **)&blas.get_config = dlsym(lib, "openblas_get_config");
        *(void **)&blas.get_num_threads = dlsym(lib, "openblas_get_num_threads");
    }
    if (!lib || !blas.sgemm || !blas.dgemm || !blas.get_config || !blas.get_num_threads) {
        const char *e = dlerror();
        snprintf(blas.why, sizeof blas.why, "%s", e ? e : BLAS_LIBRARY);
        blas.sgemm = NULL;
    }
}

/* Loads OpenBLAS if it is not yet; 0, or -1 with err saying what to install. */
int blas_load(chef_error *err)
{
    pthread_once(&blas_once, blas_open);
    if (blas.sgemm)
        return 0;
    return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("install OpenBLAS: apt-get install libopenblas0"),
                     _("OpenBLAS could not be loaded: %s"), blas.why);
}

/* C = A * B for n x n row-major float matrices, with OpenBLAS on all cores (after blas_load). */
void blas_sgemm(const float *A, const float *B, float *C, int n)
{
    blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
}

/* C = alpha op(A) op(B) + beta C for column-major matrices, as cuBLAS's gemm takes them, in single
   (dbl 0: float pointers) or double precision, with OpenBLAS (after blas_load). */
void blas_gemm_columns(int dbl, int ta, int tb, int m, int n, int k, double alpha, const void *A, int lda, const void *B,
                       int ldb, double beta, void *C, int ldc)
{
    enum CBLAS_TRANSPOSE a = ta ? CblasTrans : CblasNoTrans, b = tb ? CblasTrans : CblasNoTrans;
    if (dbl)
        blas.dgemm(CblasColMajor, a, b, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        blas.sgemm(CblasColMajor, a, b, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta, C, ldc);
}

/* "OpenBLAS 0.3.21 (N threads)": the first two words of OpenBLAS's own configuration line
   (loading it), or "OpenBLAS (not loaded)". */
const char *blas_describe(void)
{
    static _Thread_local char text[96]; /* a job's thread may describe it while another does */
    if (blas_load(NULL) != 0)
        return _("OpenBLAS (not loaded)");
    const char *config = blas.get_config();
    char name[32] = "OpenBLAS", version[32] = "";
    if (config)
        sscanf(config, "%31s %31s", name, version);
    int threads = blas.get_num_threads();
    snprintf(text, sizeof text, threads == 1 ? _("%s%s%s (%d thread)") : _("%s%s%s (%d threads)"), name,
             version[0] ? " " : "", version, threads);
    return text;
}
