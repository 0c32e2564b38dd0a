/*
 * bench_matmul_gpu.cu - the matmul ladder's kernels against cuBLAS SGEMM, side by side in one run.
 *
 * Built with nvcc alone (the GPU machine has no headers but CUDA's), it includes the kernels of
 * kernels/ directly, so the figures are those of the very code cudachef launches. For each size n:
 * fresh random inputs in [-1, 1); cuBLAS SGEMM (FP32, no tensor cores) computes the reference and
 * every rung is checked against it by ||C - ref|| / ||ref|| (< 1e-5, and every element written: C
 * is poisoned with NaN first). Then one warm-up each, and R rounds in which every contender runs
 * once, the order rotating; each run is timed alone between two CUDA events. Rows are medians;
 * "of cuBLAS" is cuBLAS's median time over the rung's. GFLOP/s = 2 n^3 / time.
 *
 * Each row also gives the share of the GPU's FP32 peak: SMs x FP32 lanes per SM x 2 (a multiply-add
 * is two operations) x the SM clock the driver reports as its maximum. Goals: at the largest size,
 * the best hand-written rung reaches at least 75% of cuBLAS (issue 6); at every size of 2048 and
 * more, the top FP32 rung at least 95% of cuBLAS SGEMM (issue 18).
 *
 * The tensor-core rung (matmul_tensor, TF32) is measured against cuBLAS in its TF32 mode
 * (CUBLAS_TF32_TENSOR_OP_MATH), in the same rounds, and checked against the FP32 reference with a
 * TF32 tolerance (||C - ref|| / ||ref|| < 5e-3); goal (issue 18): at least 50% of cuBLAS TF32.
 *
 * Usage: bench_matmul_gpu [N,N,... [R]]   (default 1024,2048,4096; R = 10 rounds)
 * Prints one "BENCH name=... ratio=..." line per rung and size for scripts; a missed goal is
 * reported, not failed.
 * Exit codes: 0 ok, 1 a wrong result, 2 usage, 5 a CUDA or cuBLAS call failed (no GPU).
 * A tuning build can add kernels: -DEXTRA_KERNELS='"file.cu"' -DEXTRA_ROWS='ROW(name, cooks, side)'
 * (RECT_ROW(name, cooks, columns, rows) for a team whose block of C is not square).
 */
#define BENCH_PROGRAM "bench_matmul_gpu"
#include "bench_gpu_common.h"

#include "../kernels/matmul_naive.cu"
#include "../kernels/matmul_coalesced.cu"
#include "../kernels/matmul_tiled.cu"
#include "../kernels/matmul_1d_blocking.cu"
#include "../kernels/matmul_2d_blocking.cu"
#include "../kernels/matmul_vectorized.cu"
#include "../kernels/matmul_warptile.cu"
#include "../kernels/matmul_prefetch.cu"
#include "../kernels/matmul_async.cu"
#include "../kernels/matmul_tensor.cu"
#ifdef EXTRA_KERNELS
#include EXTRA_KERNELS
#endif
#ifndef EXTRA_ROWS
#define EXTRA_ROWS
#endif

typedef void (*matmul_fn)(const float *, const float *, float *, int);

/* A contender: a kernel with its launch (side x side square per team of `cooks`, or 2D `tile` x
   `tile` teams when cooks == 0), or cuBLAS when fn is NULL. */
typedef struct rung {
    const char *name;
    matmul_fn fn;
    int cooks;  /* 1D team size; 0: a 2D team of tile x tile */
    int side;   /* C square per team (its columns) */
    int side_y; /* its rows: side unless the block of C is not square */
    int tf32;   /* 1: TF32 tensor cores, against cuBLAS TF32 */
    float ms[64];
    double med;
} rung;

#define ROW(name, cooks, side) {#name, name, cooks, side, side, 0, {0}, 0},
#define RECT_ROW(name, cooks, side, side_y) {#name, name, cooks, side, side_y, 0, {0}, 0},
#define TF32_ROW(name, cooks, side) {#name, name, cooks, side, side, 1, {0}, 0},
static rung rungs[] = {
    {"cuBLAS SGEMM", NULL, 0, 0, 0, 0, {0}, 0},
    {"matmul_naive", matmul_naive, 0, 16, 16, 0, {0}, 0},
    {"matmul_coalesced", matmul_coalesced, 0, 16, 16, 0, {0}, 0},
    {"matmul_tiled", matmul_tiled, 0, 16, 16, 0, {0}, 0},
    ROW(matmul_1d_blocking, 512, 64)
    ROW(matmul_2d_blocking, 256, 128)
    ROW(matmul_vectorized, 256, 128)
    ROW(matmul_warptile, 256, 128)
    ROW(matmul_prefetch, 256, 128)
    RECT_ROW(matmul_async, 256, 256, 128)
    {"cuBLAS TF32", NULL, 0, 0, 0, 1, {0}, 0},
    TF32_ROW(matmul_tensor, 128, 128)
    EXTRA_ROWS
};
#define NRUNGS ((int)(sizeof rungs / sizeof rungs[0]))

/* cuBLAS is column-major: C^T = B^T A^T gives row-major C = A B. h[0] computes in FP32, h[1] in
   TF32 on the tensor cores. */
static void run_one(cublasHandle_t *handles, const rung *r, const float *A, const float *B, float *C, int n)
{
    cublasHandle_t h = handles[r->tf32];
    if (!r->fn) {
        const float one = 1.0f, zero = 0.0f;
        CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
        return;
    }
    dim3 grid((unsigned)((n + r->side - 1) / r->side), (unsigned)((n + r->side_y - 1) / r->side_y));
    dim3 block = r->cooks ? dim3(r->cooks) : dim3(r->side, r->side);
    r->fn<<<grid, block>>>(A, B, C, n);
    CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    int sizes[16], rounds;
    int nsizes = bench_parse_args(argc, argv, "1024,2048,4096", sizes, 16, &rounds);
    if (nsizes < 0)
        return 2;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    /* FP32 lanes per SM: 64 on compute capability 6.0, 7.x and 8.0; 128 on 6.1/6.2, 8.6+, 9.x, 10+. */
    int lanes = (prop.major == 7 || (prop.major == 8 && prop.minor == 0) || (prop.major == 6 && prop.minor == 0)) ? 64 : 128;
    double peak_gflops = (double)prop.multiProcessorCount * lanes * 2.0 * clock_khz / 1e6;
    cublasHandle_t h[2];
    CHECK_BLAS(cublasCreate(&h[0]));
    CHECK_BLAS(cublasSetMathMode(h[0], CUBLAS_PEDANTIC_MATH)); /* plain FP32: no TF32 tensor cores */
    CHECK_BLAS(cublasCreate(&h[1]));
    CHECK_BLAS(cublasSetMathMode(h[1], CUBLAS_TF32_TENSOR_OP_MATH));
    int tf32_base = 0; /* the row of cuBLAS TF32 */
    for (int r = 0; r < NRUNGS; r++)
        if (rungs[r].tf32 && !rungs[r].fn)
            tf32_base = r;
    printf("matmul ladder vs cuBLAS SGEMM (FP32) on %s, %d SMs: medians of %d rotating rounds\n", prop.name,
           prop.multiProcessorCount, rounds);
    printf("FP32 peak: %d SMs x %d lanes x 2 x %.0f MHz = %.1f TFLOP/s\n", prop.multiProcessorCount, lanes,
           clock_khz / 1e3, peak_gflops / 1e3);
    double best_ratio = 0;
    const char *best_name = "";
    int last_n = 0;
    int status = 0;
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s];
        size_t count = (size_t)n * n, bytes = count * sizeof(float);
        float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes), *ref = (float *)malloc(bytes),
              *got = (float *)malloc(bytes);
        if (!hA || !hB || !ref || !got) {
            fprintf(stderr, "bench_matmul_gpu: out of host memory\n");
            return 5;
        }
        bench_fill_inputs(hA, hB, n);
        float *A, *B, *C;
        CHECK(cudaMalloc(&A, bytes));
        CHECK(cudaMalloc(&B, bytes));
        CHECK(cudaMalloc(&C, bytes));
        CHECK(cudaMemcpy(A, hA, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(B, hB, bytes, cudaMemcpyHostToDevice));
        /* Check: cuBLAS first (the reference), then every rung on a poisoned C. */
        for (int r = 0; r < NRUNGS; r++) {
            CHECK(cudaMemset(C, 0xff, bytes)); /* NaN everywhere */
            run_one(h, &rungs[r], A, B, C, n);
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(r == 0 ? ref : got, C, bytes, cudaMemcpyDeviceToHost));
            if (r == 0)
                continue;
            double rel = bench_rel_error(got, ref, count);
            if (!(rel < (rungs[r].tf32 ? 5e-3 : 1e-5))) {
                fprintf(stderr, "bench_matmul_gpu: WRONG: %s at n = %d: ||C - ref|| / ||ref|| = %g\n", rungs[r].name,
                        n, rel);
                status = 1;
            }
        }
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        /* Slow rungs at large sizes get fewer rounds: the naive kernel at 4096 takes ~0.15 s. */
        int rr = rounds;
        for (int round = 0; round < rr; round++)
            for (int k = 0; k < NRUNGS; k++) {
                int r = (k + round) % NRUNGS;
                CHECK(cudaEventRecord(e0));
                run_one(h, &rungs[r], A, B, C, n);
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                CHECK(cudaEventElapsedTime(&rungs[r].ms[round], e0, e1));
            }
        for (int r = 0; r < NRUNGS; r++)
            rungs[r].med = bench_median_ms(rungs[r].ms, rr);
        double flop = 2.0 * n * (double)n * n;
        printf("\nn = %d (TF32 rows: of cuBLAS TF32; the FP32 peak does not apply to them)\n  %-26s %10s %10s %9s %9s\n",
               n, "", "median ms", "GFLOP/s", "of cuBLAS", "of peak");
        for (int r = 0; r < NRUNGS; r++) {
            double base = rungs[rungs[r].tf32 ? tf32_base : 0].med;
            printf("  %-26s %10.4f %10.0f %8.1f%% ", rungs[r].name, rungs[r].med, flop / rungs[r].med / 1e6,
                   100.0 * base / rungs[r].med);
            if (rungs[r].tf32)
                printf("%9s\n", "-");
            else
                printf("%8.1f%%\n", 100.0 * flop / rungs[r].med / 1e6 / peak_gflops);
        }
        best_ratio = 0;
        double best_tf32 = 0;
        for (int r = 1; r < NRUNGS; r++) {
            if (!rungs[r].fn)
                continue;
            double ratio = rungs[rungs[r].tf32 ? tf32_base : 0].med / rungs[r].med;
            printf("BENCH name=gpu_%s_vs_cublas%s_%d ratio=%.3f goal=none met=n/a\n", rungs[r].name,
                   rungs[r].tf32 ? "_tf32" : "", n, ratio);
            if (rungs[r].tf32) {
                if (ratio > best_tf32)
                    best_tf32 = ratio;
            } else if (ratio > best_ratio) {
                best_ratio = ratio;
                best_name = rungs[r].name;
            }
        }
        if (n >= 2048)
            printf("BENCH name=gpu_top_fp32_rung_vs_cublas_%d ratio=%.3f goal=>=0.95 met=%s (%s)\n", n, best_ratio,
                   best_ratio >= 0.95 ? "yes" : "no", best_name);
        if (n >= 4096 && best_tf32 > 0)
            printf("BENCH name=gpu_tensor_rung_vs_cublas_tf32_%d ratio=%.3f goal=>=0.50 met=%s\n", n, best_tf32,
                   best_tf32 >= 0.5 ? "yes" : "no");
        printf("BENCH name=gpu_cublas_vs_fp32_peak_%d ratio=%.3f goal=none met=n/a\n", n,
               flop / rungs[0].med / 1e6 / peak_gflops);
        last_n = n;
        CHECK(cudaEventDestroy(e0));
        CHECK(cudaEventDestroy(e1));
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(C));
        free(hA);
        free(hB);
        free(ref);
        free(got);
    }
    CHECK_BLAS(cublasDestroy(h[0]));
    CHECK_BLAS(cublasDestroy(h[1]));
    printf("\nBENCH name=gpu_best_matmul_rung_vs_cublas_%d ratio=%.3f goal=>=0.75 met=%s\n", last_n, best_ratio,
           best_ratio >= 0.75 ? "yes" : "no");
    printf("%s: at n = %d the best hand-written rung (%s) reaches %.1f%% of cuBLAS SGEMM (goal: at least 75%%)\n",
           best_ratio >= 0.75 ? "goal met" : "goal missed", last_n, best_name, 100.0 * best_ratio);
    return status;
}
