/*
 * cublas_v2.h - cuBLAS for a whole program on the emulator: the kit's model of cuBLAS
 * (../cublas_v2.h: handles, cublasSgemm column-major with its checks, statuses with cuBLAS's
 * numbers; src/engine/host_cublas.c), and the vector and matrix copies a program makes around it.
 * Other cuBLAS calls are not modeled: a program that calls one does not compile, naming it.
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
#define cublasCreate_v2 cublasCreate
#define cublasDestroy_v2 cublasDestroy
#define cublasSgemm_v2 cublasSgemm

#endif
