/*
 * cublas_v2.h - cuBLAS for a whole program on the emulator: the kit's model of cuBLAS
 * (../cublas_v2.h: handles, cublasSgemm column-major with its checks, statuses with cuBLAS's
 * numbers; src/engine/host_cublas.c), the vector and matrix copies a program makes around it, and the
 * rest of the Level 1, 2 and 3 calls programs commonly make (axpy, scal, copy, swap, dot, nrm2, asum,
 * amax, amin, gemv, ger, gemm, the batched gemms, geam) in single and double precision, computed
 * on the CPU in the emulator's device memory. Other cuBLAS calls are not modeled: a program that
 * calls one does not compile, naming it.
 */
#ifndef CUDACHEF_CXX_CUBLAS_V2_H
#define CUDACHEF_CXX_CUBLAS_V2_H

#include "cudachef.h"

#pragma push_macro("__CUDACC__")
#undef __CUDACC__ /* the kit's header goes on to the toolkit's under nvcc: here it is the model */
extern "C" {
#include "../cublas_v2.h"
}
#pragma pop_macro("__CUDACC__")

#define CUBLAS_API_H_ /* the toolkit's guard, which helper headers (helper_cuda.h) test */
#define CUBLAS_STATUS_LICENSE_ERROR ((cublasStatus_t)16)
typedef enum cublasFillMode_t { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 } cublasFillMode_t;
typedef enum cublasPointerMode_t { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;

/* n elements of elem_size bytes, every inc-th, between the head chef's memory and the kitchen's. */
inline cublasStatus_t cudachef_cublas_copy(int n, int elem_size, const void *x, int incx, void *y, int incy,
                                           cudaMemcpyKind kind)
{
    if (n < 0 || elem_size <= 0 || incx <= 0 || incy <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int i = 0; i < n; i++)
        if (cudaMemcpy((char *)y + (size_t)i * incy * elem_size, (const char *)x + (size_t)i * incx * elem_size,
                       (size_t)elem_size, kind) != cudaSuccess)
            return CUBLAS_STATUS_MAPPING_ERROR;
    return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetVector(int n, int elem_size, const void *x, int incx, void *y, int incy)
{
    return cudachef_cublas_copy(n, elem_size, x, incx, y, incy, cudaMemcpyHostToDevice);
}
inline cublasStatus_t cublasGetVector(int n, int elem_size, const void *x, int incx, void *y, int incy)
{
    return cudachef_cublas_copy(n, elem_size, x, incx, y, incy, cudaMemcpyDeviceToHost);
}
/* rows x cols of a column-major matrix, with the leading dimensions lda and ldb. */
inline cublasStatus_t cublasSetMatrix(int rows, int cols, int elem_size, const void *a, int lda, void *b, int ldb)
{
    if (rows < 0 || cols < 0 || lda < rows || ldb < rows)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int c = 0; c < cols; c++)
        if (cudaMemcpy((char *)b + (size_t)c * ldb * elem_size, (const char *)a + (size_t)c * lda * elem_size,
                       (size_t)rows * elem_size, cudaMemcpyHostToDevice) != cudaSuccess)
            return CUBLAS_STATUS_MAPPING_ERROR;
    return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetMatrix(int rows, int cols, int elem_size, const void *a, int lda, void *b, int ldb)
{
    if (rows < 0 || cols < 0 || lda < rows || ldb < rows)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (int c = 0; c < cols; c++)
        if (cudaMemcpy((char *)b + (size_t)c * ldb * elem_size, (const char *)a + (size_t)c * lda * elem_size,
                       (size_t)rows * elem_size, cudaMemcpyDeviceToHost) != cudaSuccess)
            return CUBLAS_STATUS_MAPPING_ERROR;
    return CUBLAS_STATUS_SUCCESS;
}
/* The stream and pointer mode: the model runs on the default stream, with host scalars. */
inline cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasSetPointerMode(cublasHandle_t, cublasPointerMode_t mode)
{
    return mode == CUBLAS_POINTER_MODE_HOST ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

/* --- The rest of cuBLAS's Level 1, 2 and 3 a program commonly calls, in single and double
   precision: arithmetic on the CPU in the emulator's device memory (its buffers are the host's), each
   call after the default stream's work, its operands checked to lie in device buffers, sums in
   double. cublasSgemm is the kit's model above (the same one the lessons' host code calls). --- */
typedef enum cublasMath_t { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
                            CUBLAS_TF32_TENSOR_OP_MATH = 3 } cublasMath_t;
typedef enum cublasDiagType_t { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum cublasSideMode_t { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
inline cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t) { return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasGetMathMode(cublasHandle_t, cublasMath_t *mode)
{
    *mode = CUBLAS_DEFAULT_MATH;
    return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetVersion(cublasHandle_t, int *version)
{
    *version = 130000;
    return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetStream(cublasHandle_t, cudaStream_t *stream)
{
    *stream = 0;
    return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetPointerMode(cublasHandle_t, cublasPointerMode_t *mode)
{
    *mode = CUBLAS_POINTER_MODE_HOST;
    return CUBLAS_STATUS_SUCCESS;
}

namespace cudachef {
/* The bytes a strided vector of n elements spans. */
template <class T> inline size_t blas_span(int n, int inc) { return n > 0 ? ((size_t)(n - 1) * (size_t)(inc < 0 ? -inc : inc) + 1) * sizeof(T) : 0; }
/* The bytes a column-major rows x cols matrix with leading dimension ld spans. */
template <class T> inline size_t blas_span(int rows, int cols, int ld)
{
    return rows > 0 && cols > 0 ? ((size_t)ld * (size_t)(cols - 1) + (size_t)rows) * sizeof(T) : 0;
}
/* Element i of a strided vector (a negative increment counts from the end, as BLAS does). */
template <class T> inline T &blas_at(T *x, int n, int inc, int i) { return inc >= 0 ? x[(size_t)i * inc] : x[(size_t)(n - 1 - i) * -inc]; }
template <class T> inline T blas_get(const T *x, int n, int inc, int i) { return inc >= 0 ? x[(size_t)i * inc] : x[(size_t)(n - 1 - i) * -inc]; }
/* op(A)[i][j] of a column-major A. */
template <class T> inline T blas_op(const T *a, int lda, int trans, int i, int j) { return trans ? a[j + (size_t)i * lda] : a[i + (size_t)j * lda]; }

/* The checks of a call over vectors x and y of n elements: 1 to go on, else 0 with *st what the
   call returns (a refusal, or success with the fault of an operand outside the pantry noted). */
template <class T>
inline int blas_pair(cublasHandle_t h, const char *call, int n, const T *x, int incx, const T *y, int incy, cublasStatus_t *st)
{
    *st = emu_cublas_begin(h);
    if (*st != CUBLAS_STATUS_SUCCESS)
        return 0;
    if (n < 0 || incx == 0 || incy == 0) {
        *st = emu_cublas_invalid();
        return 0;
    }
    return emu_cublas_reach(x, blas_span<T>(n, incx), call, "x") && emu_cublas_reach(y, blas_span<T>(n, incy), call, "y");
}
template <class T>
inline cublasStatus_t blas_axpy(cublasHandle_t h, const char *call, int n, const T *alpha, const T *x, int incx, T *y, int incy)
{
    cublasStatus_t st;
    if (!alpha)
        return emu_cublas_invalid();
    if (!blas_pair<T>(h, call, n, x, incx, y, incy, &st))
        return st;
    for (int i = 0; i < n; i++)
        blas_at(y, n, incy, i) += *alpha * blas_get(x, n, incx, i);
    return CUBLAS_STATUS_SUCCESS;
}
template <class T> inline cublasStatus_t blas_scal(cublasHandle_t h, const char *call, int n, const T *alpha, T *x, int incx)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (n < 0 || incx <= 0 || !alpha)
        return emu_cublas_invalid();
    if (!emu_cublas_reach(x, blas_span<T>(n, incx), call, "x"))
        return CUBLAS_STATUS_SUCCESS;
    for (int i = 0; i < n; i++)
        x[(size_t)i * incx] *= *alpha;
    return CUBLAS_STATUS_SUCCESS;
}
template <class T> inline cublasStatus_t blas_copy(cublasHandle_t h, const char *call, int n, const T *x, int incx, T *y, int incy)
{
    cublasStatus_t st;
    if (!blas_pair<T>(h, call, n, x, incx, y, incy, &st))
        return st;
    for (int i = 0; i < n; i++)
        blas_at(y, n, incy, i) = blas_get(x, n, incx, i);
    return CUBLAS_STATUS_SUCCESS;
}
template <class T> inline cublasStatus_t blas_swap(cublasHandle_t h, const char *call, int n, T *x, int incx, T *y, int incy)
{
    cublasStatus_t st;
    if (!blas_pair<T>(h, call, n, x, incx, y, incy, &st))
        return st;
    for (int i = 0; i < n; i++) {
        T t = blas_at(x, n, incx, i);
        blas_at(x, n, incx, i) = blas_at(y, n, incy, i);
        blas_at(y, n, incy, i) = t;
    }
    return CUBLAS_STATUS_SUCCESS;
}
/* dot, nrm2, asum: a scalar result, written where the pointer mode says (the host here). */
template <class T>
inline cublasStatus_t blas_dot(cublasHandle_t h, const char *call, int n, const T *x, int incx, const T *y, int incy, T *result)
{
    cublasStatus_t st;
    if (!result)
        return emu_cublas_invalid();
    if (!blas_pair<T>(h, call, n > 0 ? n : 0, x, incx, y, incy, &st))
        return st;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += (double)blas_get(x, n, incx, i) * (double)blas_get(y, n, incy, i);
    *result = (T)sum;
    return CUBLAS_STATUS_SUCCESS;
}
template <class T> inline cublasStatus_t blas_norm(cublasHandle_t h, const char *call, int n, const T *x, int incx, T *result, int squares)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!result)
        return emu_cublas_invalid();
    double sum = 0;
    if (n > 0 && incx > 0 && !emu_cublas_reach(x, blas_span<T>(n, incx), call, "x"))
        return CUBLAS_STATUS_SUCCESS;
    for (int i = 0; n > 0 && incx > 0 && i < n; i++) {
        double v = (double)x[(size_t)i * incx];
        sum += squares ? v * v : (v < 0 ? -v : v);
    }
    *result = (T)(squares ? __builtin_sqrt(sum) : sum);
    return CUBLAS_STATUS_SUCCESS;
}
/* amax, amin: the 1-based index of the first element of largest (smallest) magnitude. */
template <class T> inline cublasStatus_t blas_iamax(cublasHandle_t h, const char *call, int n, const T *x, int incx, int *result, int largest)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!result)
        return emu_cublas_invalid();
    *result = 0;
    if (n <= 0 || incx <= 0 || !emu_cublas_reach(x, blas_span<T>(n, incx), call, "x"))
        return CUBLAS_STATUS_SUCCESS;
    double best = 0;
    for (int i = 0; i < n; i++) {
        double v = (double)x[(size_t)i * incx];
        v = v < 0 ? -v : v;
        if (i == 0 || (largest ? v > best : v < best)) {
            best = v;
            *result = i + 1;
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}
/* gemv: y = alpha op(A) x + beta y, A m x n. */
template <class T>
inline cublasStatus_t blas_gemv(cublasHandle_t h, const char *call, cublasOperation_t trans, int m, int n, const T *alpha,
                                const T *a, int lda, const T *x, int incx, const T *beta, T *y, int incy)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    int t = trans != CUBLAS_OP_N, rows = t ? n : m, cols = t ? m : n;
    if ((unsigned)trans > CUBLAS_OP_C || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 || !alpha || !beta)
        return emu_cublas_invalid();
    if (!emu_cublas_reach(a, blas_span<T>(m, n, lda), call, "A") || !emu_cublas_reach(x, blas_span<T>(cols, incx), call, "x") ||
        !emu_cublas_reach(y, blas_span<T>(rows, incy), call, "y"))
        return CUBLAS_STATUS_SUCCESS;
    for (int i = 0; i < rows; i++) {
        double sum = 0;
        for (int j = 0; j < cols; j++)
            sum += (double)blas_op(a, lda, t, i, j) * (double)blas_get(x, cols, incx, j);
        T &out = blas_at(y, rows, incy, i);
        out = (T)((double)*alpha * sum + (*beta != (T)0 ? (double)*beta * (double)out : 0.0));
    }
    return CUBLAS_STATUS_SUCCESS;
}
/* ger: A = alpha x y^T + A. */
template <class T>
inline cublasStatus_t blas_ger(cublasHandle_t h, const char *call, int m, int n, const T *alpha, const T *x, int incx, const T *y,
                               int incy, T *a, int lda)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 || !alpha)
        return emu_cublas_invalid();
    if (!emu_cublas_reach(a, blas_span<T>(m, n, lda), call, "A") || !emu_cublas_reach(x, blas_span<T>(m, incx), call, "x") ||
        !emu_cublas_reach(y, blas_span<T>(n, incy), call, "y"))
        return CUBLAS_STATUS_SUCCESS;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            a[i + (size_t)j * lda] += *alpha * blas_get(x, m, incx, i) * blas_get(y, n, incy, j);
    return CUBLAS_STATUS_SUCCESS;
}
/* gemm (without the handle's checks: the callers make them): C = alpha op(A) op(B) + beta C. */
template <class T>
inline cublasStatus_t blas_gemm_at(const char *call, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, T alpha,
                                   const T *a, int lda, const T *b, int ldb, T beta, T *c, int ldc)
{
    int at = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N, a_rows = at ? k : m, b_rows = bt ? n : k;
    if ((unsigned)ta > CUBLAS_OP_C || (unsigned)tb > CUBLAS_OP_C || m < 0 || n < 0 || k < 0 ||
        lda < (a_rows > 1 ? a_rows : 1) || ldb < (b_rows > 1 ? b_rows : 1) || ldc < (m > 1 ? m : 1))
        return emu_cublas_invalid();
    int reads = k > 0 && alpha != (T)0;
    if ((reads && (!emu_cublas_reach(a, blas_span<T>(a_rows, at ? m : k, lda), call, "A") ||
                   !emu_cublas_reach(b, blas_span<T>(b_rows, bt ? k : n, ldb), call, "B"))) ||
        !emu_cublas_reach(c, blas_span<T>(m, n, ldc), call, "C"))
        return CUBLAS_STATUS_SUCCESS;
    if (reads && emu_cublas_gemm_fast(sizeof(T) == sizeof(double), at, bt, m, n, k, (double)alpha, a, lda, b, ldb, (double)beta, c, ldc))
        return CUBLAS_STATUS_SUCCESS; /* a large product: OpenBLAS on every core */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double sum = 0;
            for (int l = 0; reads && l < k; l++)
                sum += (double)blas_op(a, lda, at, i, l) * (double)blas_op(b, ldb, bt, l, j);
            T *out = &c[i + (size_t)j * ldc];
            *out = (T)((double)alpha * sum + (beta != (T)0 ? (double)beta * (double)*out : 0.0));
        }
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
inline cublasStatus_t blas_gemm(cublasHandle_t h, const char *call, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                const T *alpha, const T *a, int lda, const T *b, int ldb, const T *beta, T *c, int ldc)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta)
        return emu_cublas_invalid();
    return blas_gemm_at(call, ta, tb, m, n, k, *alpha, a, lda, b, ldb, *beta, c, ldc);
}
/* The batched forms: count products, by arrays of pointers (in device memory) or by strides. */
template <class T>
inline cublasStatus_t blas_gemm_batched(cublasHandle_t h, const char *call, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                        int k, const T *alpha, const T *const *a, int lda, const T *const *b, int ldb, const T *beta,
                                        T *const *c, int ldc, int count)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta || count < 0)
        return emu_cublas_invalid();
    if (!emu_cublas_reach(a, (size_t)count * sizeof *a, call, "Aarray") || !emu_cublas_reach(b, (size_t)count * sizeof *b, call, "Barray") ||
        !emu_cublas_reach(c, (size_t)count * sizeof *c, call, "Carray"))
        return CUBLAS_STATUS_SUCCESS;
    for (int i = 0; i < count && st == CUBLAS_STATUS_SUCCESS; i++)
        st = blas_gemm_at(call, ta, tb, m, n, k, *alpha, a[i], lda, b[i], ldb, *beta, c[i], ldc);
    return st;
}
template <class T>
inline cublasStatus_t blas_gemm_strided(cublasHandle_t h, const char *call, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                        int k, const T *alpha, const T *a, int lda, long long sa, const T *b, int ldb, long long sb,
                                        const T *beta, T *c, int ldc, long long sc, int count)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta || count < 0)
        return emu_cublas_invalid();
    for (int i = 0; i < count && st == CUBLAS_STATUS_SUCCESS; i++)
        st = blas_gemm_at(call, ta, tb, m, n, k, *alpha, a + i * sa, lda, b + i * sb, ldb, *beta, c + i * sc, ldc);
    return st;
}
/* geam: C = alpha op(A) + beta op(B), m x n. */
template <class T>
inline cublasStatus_t blas_geam(cublasHandle_t h, const char *call, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                const T *alpha, const T *a, int lda, const T *beta, const T *b, int ldb, T *c, int ldc)
{
    cublasStatus_t st = emu_cublas_begin(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    int at = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N;
    if (m < 0 || n < 0 || !alpha || !beta || ldc < (m > 1 ? m : 1) || lda < ((at ? n : m) > 1 ? (at ? n : m) : 1) ||
        ldb < ((bt ? n : m) > 1 ? (bt ? n : m) : 1))
        return emu_cublas_invalid();
    if (!emu_cublas_reach(a, blas_span<T>(at ? n : m, at ? m : n, lda), call, "A") ||
        !emu_cublas_reach(b, blas_span<T>(bt ? n : m, bt ? m : n, ldb), call, "B") || !emu_cublas_reach(c, blas_span<T>(m, n, ldc), call, "C"))
        return CUBLAS_STATUS_SUCCESS;
    T *out = new T[(size_t)m * n]; /* C may be A or B */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            out[i + (size_t)j * m] = *alpha * blas_op(a, lda, at, i, j) + *beta * blas_op(b, ldb, bt, i, j);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            c[i + (size_t)j * ldc] = out[i + (size_t)j * m];
    delete[] out;
    return CUBLAS_STATUS_SUCCESS;
}
} // namespace cudachef

#define CUDACHEF_BLAS1(P, p, T)                                                                                       \
    inline cublasStatus_t cublas##P##axpy(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy) \
    {                                                                                                              \
        return cudachef::blas_axpy<T>(h, "cublas" #P "axpy", n, alpha, x, incx, y, incy);                          \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T *alpha, T *x, int incx)                \
    {                                                                                                              \
        return cudachef::blas_scal<T>(h, "cublas" #P "scal", n, alpha, x, incx);                                   \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy)          \
    {                                                                                                              \
        return cudachef::blas_copy<T>(h, "cublas" #P "copy", n, x, incx, y, incy);                                 \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##swap(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)                \
    {                                                                                                              \
        return cudachef::blas_swap<T>(h, "cublas" #P "swap", n, x, incx, y, incy);                                 \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##dot(cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *r) \
    {                                                                                                              \
        return cudachef::blas_dot<T>(h, "cublas" #P "dot", n, x, incx, y, incy, r);                                \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##nrm2(cublasHandle_t h, int n, const T *x, int incx, T *r)                    \
    {                                                                                                              \
        return cudachef::blas_norm<T>(h, "cublas" #P "nrm2", n, x, incx, r, 1);                                    \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##asum(cublasHandle_t h, int n, const T *x, int incx, T *r)                    \
    {                                                                                                              \
        return cudachef::blas_norm<T>(h, "cublas" #P "asum", n, x, incx, r, 0);                                    \
    }                                                                                                              \
    inline cublasStatus_t cublasI##p##amax(cublasHandle_t h, int n, const T *x, int incx, int *r)                 \
    {                                                                                                              \
        return cudachef::blas_iamax<T>(h, "cublasI" #p "amax", n, x, incx, r, 1);                                  \
    }                                                                                                              \
    inline cublasStatus_t cublasI##p##amin(cublasHandle_t h, int n, const T *x, int incx, int *r)                 \
    {                                                                                                              \
        return cudachef::blas_iamax<T>(h, "cublasI" #p "amin", n, x, incx, r, 0);                                  \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##gemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const T *alpha,     \
                                          const T *a, int lda, const T *x, int incx, const T *beta, T *y, int incy) \
    {                                                                                                              \
        return cudachef::blas_gemv<T>(h, "cublas" #P "gemv", t, m, n, alpha, a, lda, x, incx, beta, y, incy);      \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##ger(cublasHandle_t h, int m, int n, const T *alpha, const T *x, int incx,     \
                                         const T *y, int incy, T *a, int lda)                                      \
    {                                                                                                              \
        return cudachef::blas_ger<T>(h, "cublas" #P "ger", m, n, alpha, x, incx, y, incy, a, lda);                 \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
                                                 int m, int n, int k, const T *alpha, const T *const a[], int lda, \
                                                 const T *const b[], int ldb, const T *beta, T *const c[], int ldc, \
                                                 int count)                                                        \
    {                                                                                                              \
        return cudachef::blas_gemm_batched<T>(h, "cublas" #P "gemmBatched", ta, tb, m, n, k, alpha, a, lda, b,     \
                                              ldb, beta, c, ldc, count);                                           \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##gemmStridedBatched(cublasHandle_t h, cublasOperation_t ta,                    \
                                                        cublasOperation_t tb, int m, int n, int k, const T *alpha, \
                                                        const T *a, int lda, long long sa, const T *b, int ldb,    \
                                                        long long sb, const T *beta, T *c, int ldc, long long sc,  \
                                                        int count)                                                 \
    {                                                                                                              \
        return cudachef::blas_gemm_strided<T>(h, "cublas" #P "gemmStridedBatched", ta, tb, m, n, k, alpha, a, lda, \
                                              sa, b, ldb, sb, beta, c, ldc, sc, count);                            \
    }                                                                                                              \
    inline cublasStatus_t cublas##P##geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,     \
                                          int n, const T *alpha, const T *a, int lda, const T *beta, const T *b,   \
                                          int ldb, T *c, int ldc)                                                  \
    {                                                                                                              \
        return cudachef::blas_geam<T>(h, "cublas" #P "geam", ta, tb, m, n, alpha, a, lda, beta, b, ldb, c, ldc);   \
    }
CUDACHEF_BLAS1(S, s, float)
CUDACHEF_BLAS1(D, d, double)
#undef CUDACHEF_BLAS1
/* Double precision's product, with the same checks as the others. */
inline cublasStatus_t cublasDgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                  const double *alpha, const double *a, int lda, const double *b, int ldb, const double *beta,
                                  double *c, int ldc)
{
    return cudachef::blas_gemm<double>(h, "cublasDgemm", ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#define cublasCreate_v2 cublasCreate
#define cublasDestroy_v2 cublasDestroy
#define cublasSgemm_v2 cublasSgemm
#define cublasDgemm_v2 cublasDgemm
#define cublasSaxpy_v2 cublasSaxpy
#define cublasDaxpy_v2 cublasDaxpy
#define cublasSscal_v2 cublasSscal
#define cublasDscal_v2 cublasDscal
#define cublasSdot_v2 cublasSdot
#define cublasDdot_v2 cublasDdot
#define cublasSnrm2_v2 cublasSnrm2
#define cublasDnrm2_v2 cublasDnrm2
#define cublasSgemv_v2 cublasSgemv
#define cublasDgemv_v2 cublasDgemv
#define cublasScopy_v2 cublasScopy
#define cublasDcopy_v2 cublasDcopy

#endif
