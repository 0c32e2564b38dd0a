/*
 * host_cublas.c - the part of cuBLAS a learner's host code calls on the emulator (lesson 9; the
 * names src/kit/cublas_v2.h gives cublasCreate, cublasSgemm & co).
 *
 * A handle is a small record, created and destroyed; those still held when the code returns are
 * counted and freed (host_runtime_end). cublasSgemm computes C = alpha op(A) op(B) + beta C with
 * column-major matrices, as cuBLAS does: its arguments are checked in cuBLAS's order and refused
 * with its status (CUBLAS_STATUS_NOT_INITIALIZED for a handle never created, INVALID_VALUE for a
 * negative size, an unknown operation, a leading dimension below the rows stored, a null alpha or
 * beta); a matrix that does not lie inside one buffer of the kitchen's pantry is a kernel reaching
 * outside it (the sticky cudaErrorIllegalAddress; the call itself succeeds, as an asynchronous
 * launch does); with beta = 0 C is not read. The product is a plain loop with double sums, on the
 * head chef's CPU. What the code did goes into the run's record (host_runtime.h): the calls made
 * and refused, the handles left, where the first call's first matrix came from.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/i18n.h"
#include "engine/blas.h"
#include "engine/host_runtime.h"
#include "kit/cublas_v2.h"

#define CUBLAS_MAGIC 0x63754c41u /* "cuLA": a handle cublasCreate made */
#define CUBLAS_FAST_WORK 67108864.0 /* multiply-adds past which a gemm goes to OpenBLAS (about 0.3 s
                                       as the plain loop) */

struct emu_cublas_context {
    unsigned magic;
    struct emu_cublas_context *next; /* the handles still held, newest first */
};

static struct emu_cublas_context *cublas_held; /* created and not yet destroyed */

/* 1 when handle was made by cublasCreate and not destroyed yet (looked up, never read through). */
static int cublas_held_has(const struct emu_cublas_context *handle)
{
    for (const struct emu_cublas_context *h = cublas_held; h && handle; h = h->next)
        if (h == handle)
            return 1;
    return 0;
}

/* cublasCreate: a handle for the calls that follow. */
cublasStatus_t emu_cublas_create(cublasHandle_t *handle)
{
    HOST_API;
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    *handle = NULL;
    if (host_runtime_broken())
        return CUBLAS_STATUS_NOT_INITIALIZED; /* no context on a broken device */
    *handle = calloc(1, sizeof **handle);
    if (!*handle)
        return CUBLAS_STATUS_ALLOC_FAILED;
    (*handle)->magic = CUBLAS_MAGIC;
    (*handle)->next = cublas_held;
    cublas_held = *handle;
    return CUBLAS_STATUS_SUCCESS;
}

/* cublasDestroy: the handle's resources given back. */
cublasStatus_t emu_cublas_destroy(cublasHandle_t handle)
{
    HOST_API;
    struct emu_cublas_context **at = &cublas_held;
    while (*at && *at != handle)
        at = &(*at)->next;
    if (!handle || !*at) /* never made, or destroyed already */
        return CUBLAS_STATUS_NOT_INITIALIZED;
    *at = handle->next;
    handle->magic = 0;
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

/* The handles still held, counted and given back (as the runtime frees what the code left). */
int host_cublas_end(void)
{
    int left = 0;
    while (cublas_held) {
        struct emu_cublas_context *h = cublas_held;
        cublas_held = h->next;
        free(h);
        left++;
    }
    return left;
}

/* Notes a refused call in the record, and returns its status. */
static cublasStatus_t cublas_refuse(cublasStatus_t status)
{
    host_runtime_stats *st = host_runtime_record();
    if (st->library_refused++ == 0)
        st->library_status = status;
    return status;
}

/* 1 when the matrix of rows x cols (column-major, leading dimension ld) at p lies in one device
   buffer; else the fault is noted. */
static int cublas_matrix_in(const float *p, int rows, int cols, int ld, const char *name, const char **from)
{
    size_t floats = cols > 0 && rows > 0 ? (size_t)ld * (size_t)(cols - 1) + (size_t)rows : 0;
    if (floats == 0 || host_runtime_device_span(p, floats * sizeof(float), from))
        return 1;
    char message[200];
    snprintf(message, sizeof message,
             _("cublasSgemm's matrix %s (%d x %d, leading dimension %d) is not inside one buffer of the kitchen's "
               "pantry: a host pointer, or a leading dimension larger than the buffer allows"),
             name, rows, cols, ld);
    host_runtime_library_fault(message);
    return 0;
}

/* Before another cuBLAS call of a whole program (src/kit/cxx/cublas_v2.h does its arithmetic):
   the handle checked, and the default stream's work done first, as cuBLAS's kernels follow it.
   CUBLAS_STATUS_SUCCESS, or the status it fails with (noted as a refusal). */
cublasStatus_t emu_cublas_begin(cublasHandle_t handle)
{
    HOST_API;
    if (!cublas_held_has(handle))
        return cublas_refuse(CUBLAS_STATUS_NOT_INITIALIZED);
    if (host_runtime_broken())
        return cublas_refuse(CUBLAS_STATUS_EXECUTION_FAILED);
    host_runtime_library_launch();
    return CUBLAS_STATUS_SUCCESS;
}

/* 1 when bytes at p lie in one device buffer (or bytes is 0); else the fault is noted as a
   launch's is, naming the call and its operand, and 0. */
int emu_cublas_reach(const void *p, size_t bytes, const char *call, const char *name)
{
    HOST_API;
    const char *from = "";
    if (bytes == 0 || host_runtime_device_span(p, bytes, &from))
        return 1;
    char message[240];
    snprintf(message, sizeof message,
             _("%s's operand %s (%zu bytes) is not inside one buffer of the kitchen's pantry: a host pointer, or "
               "sizes larger than the buffer allows"),
             call, name, bytes);
    host_runtime_library_fault(message);
    return 0;
}

/* A large product (past CUBLAS_FAST_WORK multiply-adds) of a whole program's gemm, by OpenBLAS on
   every core, as cuBLAS runs it on every station: 1 when done, 0 when OpenBLAS is not there (the
   kit then multiplies itself). The operands were checked by the caller. */
int emu_cublas_gemm_fast(int dbl, int ta, int tb, int m, int n, int k, double alpha, const void *A, int lda, const void *B,
                         int ldb, double beta, void *C, int ldc)
{
    HOST_API;
    if ((double)m * n * k < CUBLAS_FAST_WORK || blas_load(NULL) != 0)
        return 0;
    blas_gemm_columns(dbl, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    return 1;
}

/* The call's sizes were refused (a negative size, a leading dimension too small). */
cublasStatus_t emu_cublas_invalid(void)
{
    HOST_API;
    return cublas_refuse(CUBLAS_STATUS_INVALID_VALUE);
}

/* cublasSgemm: C = alpha op(A) op(B) + beta C, op(A) m x k, op(B) k x n, C m x n, column-major. */
cublasStatus_t emu_cublas_sgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                int n, int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                                const float *beta, float *C, int ldc)
{
    HOST_API;
    if (!cublas_held_has(handle))
        return cublas_refuse(CUBLAS_STATUS_NOT_INITIALIZED);
    int ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
    int a_rows = ta ? k : m, b_rows = tb ? n : k;
    if ((unsigned)transa > CUBLAS_OP_C || (unsigned)transb > CUBLAS_OP_C || m < 0 || n < 0 || k < 0 ||
        lda < (a_rows > 1 ? a_rows : 1) || ldb < (b_rows > 1 ? b_rows : 1) || ldc < (m > 1 ? m : 1) || !alpha || !beta)
        return cublas_refuse(CUBLAS_STATUS_INVALID_VALUE);
    if (host_runtime_broken())
        return cublas_refuse(CUBLAS_STATUS_EXECUTION_FAILED);
    host_runtime_stats *st = host_runtime_record();
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS; /* nothing to do, as cuBLAS returns at once */
    host_runtime_library_launch(); /* after the default stream's work, as cuBLAS's kernels are */
    const char *from_a = "", *from_b = "", *from_c = "";
    int reads_ab = k > 0 && *alpha != 0.0f;
    if ((reads_ab && (!cublas_matrix_in(A, a_rows, ta ? m : k, lda, "A", &from_a) ||
                      !cublas_matrix_in(B, b_rows, tb ? k : n, ldb, "B", &from_b))) ||
        !cublas_matrix_in(C, m, n, ldc, "C", &from_c))
        return CUBLAS_STATUS_SUCCESS; /* launched; the fault shows at the next synchronisation */
    if (st->library_calls++ == 0) {
        snprintf(st->first_operand, sizeof st->first_operand, "%s", from_a);
        st->first_transposed = ta || tb;
    }
    if (reads_ab && emu_cublas_gemm_fast(0, ta, tb, m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc))
        return CUBLAS_STATUS_SUCCESS;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double sum = 0;
            for (int l = 0; reads_ab && l < k; l++)
                sum += (double)(ta ? A[l + (size_t)i * lda] : A[i + (size_t)l * lda]) *
                       (double)(tb ? B[j + (size_t)l * ldb] : B[l + (size_t)j * ldb]);
            float *c = &C[i + (size_t)j * ldc];
            *c = (float)(*alpha * sum + (*beta != 0.0f ? (double)*beta * *c : 0.0));
        }
    return CUBLAS_STATUS_SUCCESS;
}

/* A cuBLAS status's name, by cuBLAS's numbers (host_runtime.h), or NULL. */
const char *host_cublas_status_name(int status)
{
    static const char *const names[] = {
        [0] = "CUBLAS_STATUS_SUCCESS",          [1] = "CUBLAS_STATUS_NOT_INITIALIZED",
        [3] = "CUBLAS_STATUS_ALLOC_FAILED",     [7] = "CUBLAS_STATUS_INVALID_VALUE",
        [8] = "CUBLAS_STATUS_ARCH_MISMATCH",    [11] = "CUBLAS_STATUS_MAPPING_ERROR",
        [13] = "CUBLAS_STATUS_EXECUTION_FAILED", [14] = "CUBLAS_STATUS_INTERNAL_ERROR",
        [15] = "CUBLAS_STATUS_NOT_SUPPORTED",   [16] = "CUBLAS_STATUS_LICENSE_ERROR"};
    return status >= 0 && status < (int)(sizeof names / sizeof *names) ? names[status] : NULL;
}

/* The status's name, as cublasGetStatusName gives it. */
const char *emu_cublas_status_name(cublasStatus_t status)
{
    HOST_API;
    const char *name = host_cublas_status_name((int)status);
    return name ? name : "CUBLAS_STATUS_UNKNOWN";
}

/* The status's sentence, as cublasGetStatusString gives it. */
const char *emu_cublas_status_string(cublasStatus_t status)
{
    HOST_API;
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    default: return "unknown error";
    }
}
