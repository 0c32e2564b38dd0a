/*
 * bench_gpu_common.h - what the nvcc-only matrix benchmarks share (bench_matmul_gpu.cu,
 * bench_tensor_gpu.cu): checked CUDA and cuBLAS calls, the list of sizes, the seeded inputs, the
 * relative error against a reference and the median of a few timings.
 *
 * Header-only: each benchmark stays one program built by nvcc from one .cu file. Define
 * BENCH_PROGRAM (the program's name, for messages) before including it.
 */
#ifndef BENCH_GPU_COMMON_H
#define BENCH_GPU_COMMON_H

#include <cublas_v2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, BENCH_PROGRAM ": %s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e_), \
                    __FILE__, __LINE__);                                                           \
            exit(5);                                                                               \
        }                                                                                          \
    } while (0)
#define CHECK_BLAS(call)                                                                           \
    do {                                                                                           \
        cublasStatus_t s_ = (call);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            fprintf(stderr, BENCH_PROGRAM ": %s failed: status %d\n", #call, (int)s_);             \
            exit(5);                                                                               \
        }                                                                                          \
    } while (0)

/* Reads "N,N,..." into sizes (at most max, each 1..16384): how many, or -1 after a message. */
static int bench_parse_sizes(const char *list, int *sizes, int max)
{
    int count = 0;
    for (const char *p = list; *p && count < max;) {
        int v = atoi(p);
        if (v < 1 || v > 16384) {
            fprintf(stderr, BENCH_PROGRAM ": sizes must be 1..16384 (got '%s')\n", p);
            return -1;
        }
        sizes[count++] = v;
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    return count;
}

/* Reads the command line [N,N,... [R]] (default_sizes without one, R = 10 rounds, 1..64) into
   sizes (at most max) and *rounds: how many sizes, or -1 after a message (exit 2). */
static int bench_parse_args(int argc, char **argv, const char *default_sizes, int *sizes, int max, int *rounds)
{
    *rounds = argc > 2 ? atoi(argv[2]) : 10;
    int nsizes = bench_parse_sizes(argc > 1 ? argv[1] : default_sizes, sizes, max);
    if (nsizes >= 0 && (*rounds < 1 || *rounds > 64)) {
        fprintf(stderr, BENCH_PROGRAM ": rounds must be 1..64\n");
        return -1;
    }
    return nsizes;
}

/* Fills the n x n matrices A and B with the same seeded values in [-1, 1) for the same n. */
static void bench_fill_inputs(float *A, float *B, int n)
{
    unsigned long long st = 0x9E3779B97F4A7C15ull * (unsigned long long)(n + 1);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        A[i] = (float)((st >> 40) / (double)(1 << 24) * 2.0 - 1.0);
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        B[i] = (float)((st >> 40) / (double)(1 << 24) * 2.0 - 1.0);
    }
}

/* ||got - ref|| / ||ref|| over count elements (NaN when an element is NaN). */
static double bench_rel_error(const float *got, const float *ref, size_t count)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < count; i++) {
        double d = (double)got[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
    }
    return sqrt(num / den);
}

/* Sorts a few floats (insertion sort) and returns their median. */
static double bench_median_ms(float *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            float t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
