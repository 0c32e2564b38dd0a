/*
 * cublas_v2.h - the part of cuBLAS a learner's host code calls (lesson 9: a handle, cublasSgemm,
 * the status codes), so that the same file builds with nvcc against the real library and with the
 * C compiler against the CPU emulator.
 *
 * nvcc finds this header first (the kit is on the include path) and goes on to the toolkit's own.
 * For the C compiler each name is a macro onto a function emu_cublas_* that the program running
 * the code defines (src/engine/host_cublas.c): column-major matrices in the kitchen's pantry, the
 * arguments checked as cuBLAS checks them, the product computed on the CPU (docs/EMULATOR.md,
 * "Host code").
 */
#if defined(__CUDACC__)
#include_next <cublas_v2.h>
#else
#ifndef CUDACHEF_EMU_CUBLAS_H
#define CUDACHEF_EMU_CUBLAS_H

#include <stddef.h>

/* The status codes, with cuBLAS's numbers. */
typedef enum cublasStatus_t {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15
} cublasStatus_t;

/* A matrix as it is stored (N), or its transpose (T; C is the same for real numbers). */
typedef enum cublasOperation_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;

typedef struct emu_cublas_context *cublasHandle_t;

cublasStatus_t emu_cublas_create(cublasHandle_t *handle);
cublasStatus_t emu_cublas_destroy(cublasHandle_t handle);
cublasStatus_t emu_cublas_sgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                int n, int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                                const float *beta, float *C, int ldc);
cublasStatus_t emu_cublas_begin(cublasHandle_t handle);
int emu_cublas_reach(const void *p, size_t bytes, const char *call, const char *name);
cublasStatus_t emu_cublas_invalid(void);
int emu_cublas_gemm_fast(int dbl, int ta, int tb, int m, int n, int k, double alpha, const void *A, int lda, const void *B, int ldb, double beta, void *C, int ldc);
const char *emu_cublas_status_name(cublasStatus_t status);
const char *emu_cublas_status_string(cublasStatus_t status);

#define cublasCreate(handle) emu_cublas_create(handle)
#define cublasDestroy(handle) emu_cublas_destroy(handle)
#define cublasSgemm(...) emu_cublas_sgemm(__VA_ARGS__)
#define cublasGetStatusName(status) emu_cublas_status_name(status)
#define cublasGetStatusString(status) emu_cublas_status_string(status)

#endif
#endif
