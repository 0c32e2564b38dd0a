/*
 * bench_tensor_gpu.cu - lesson 21's tensor-core kernels against cuBLAS in each precision, side by
 * side in one run.
 *
 * Built with nvcc alone, it includes the kernels of kernels/ directly, so the figures are those of
 * the very code cudachef launches:
 *   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Isrc/kit -Ikernels \
 *        bench/bench_tensor_gpu.cu -lcublas -o bench_tensor_gpu
 * (scripts/tensor-gpu-check.sh builds and runs it; make's BUILD/bench/bench_tensor_gpu too).
 *
 * For each size n: fresh random inputs in [-1, 1); cuBLAS SGEMM (FP32, no tensor cores) gives the
 * reference. The contenders, each against the cuBLAS call of its own precision:
 *   FP32:  matmul_async (rung 9, CUDA cores)      against cublasGemmEx FP32 (CUBLAS_COMPUTE_32F)
 *   TF32:  matmul_wmma_tf32 (WMMA), matmul_tensor (mma.sync by hand)
 *                                                 against cublasGemmEx CUBLAS_COMPUTE_32F_FAST_TF32
 *   FP16:  matmul_wmma_fp16                       against cublasGemmEx, A and B CUDA_R_16F
 *   BF16:  matmul_wmma_bf16                       against cublasGemmEx, A and B CUDA_R_16BF
 * cuBLAS's FP16 and BF16 calls sum in FP32 (CUBLAS_COMPUTE_32F) into a float C, as the kernels do;
 * their inputs are converted once before timing. Our kernels read the float matrices and round
 * them while they fill the locker (as the recipes do): they fetch twice the bytes cuBLAS's
 * 16-bit calls fetch, which the table says rather than hides.
 *
 * Every result is checked against the FP32 reference by ||C - ref|| / ||ref||: below 1e-5 for
 * FP32, 5e-3 for TF32 and FP16, 3e-2 for BF16 (their inputs' rounding); C is poisoned with NaN
 * first, so an element never written fails. Then one warm-up each, and R rounds in which every
 * contender runs once, the order rotating; each run is timed alone between two CUDA events. Rows
 * are medians; "of cuBLAS" is the median time of cuBLAS in the same precision over the row's.
 *
 * Usage: bench_tensor_gpu [N,N,... [R]]   (default 1024,2048,4096,8192; R = 10 rounds)
 * Prints one "BENCH name=... ratio=..." line per kernel and size for scripts.
 * Exit codes: 0 ok, 1 a wrong result, 2 usage, 5 a CUDA or cuBLAS call failed (no GPU), 6 a GPU
 * without BF16 and TF32 tensor cores (compute capability below 8.0).
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define BENCH_PROGRAM "bench_tensor_gpu"
#include "bench_gpu_common.h"

#include "../kernels/matmul_async.cu"
#include "../kernels/matmul_tensor.cu"
#include "../kernels/matmul_wmma.cu"

typedef void (*matmul_fn)(const float *, const float *, float *, int);
enum precision { P_FP32, P_TF32, P_FP16, P_BF16 };
static const char *const precision_names[] = {"FP32", "TF32", "FP16", "BF16"};
static const double precision_tolerance[] = {1e-5, 5e-3, 5e-3, 3e-2};

/* A contender: a kernel (cooks per team, the rows x cols of C a team owns), or the cuBLAS call of
   its precision when fn is NULL. */
typedef struct contender {
    const char *name;
    matmul_fn fn;
    int cooks, rows, cols;
    enum precision p;
    float ms[64];
    double med, err;
} contender;

static contender contenders[] = {
    {"cuBLAS FP32 (GemmEx)", NULL, 0, 0, 0, P_FP32, {0}, 0, 0},
    {"matmul_async (rung 9)", matmul_async, 256, 128, 256, P_FP32, {0}, 0, 0},
    {"cuBLAS TF32 (GemmEx)", NULL, 0, 0, 0, P_TF32, {0}, 0, 0},
    {"matmul_wmma_tf32 (WMMA)", matmul_wmma_tf32, 256, 128, 128, P_TF32, {0}, 0, 0},
    {"matmul_tensor (mma.sync)", matmul_tensor, 128, 128, 128, P_TF32, {0}, 0, 0},
    {"cuBLAS FP16 (GemmEx)", NULL, 0, 0, 0, P_FP16, {0}, 0, 0},
    {"matmul_wmma_fp16 (WMMA)", matmul_wmma_fp16, 256, 128, 128, P_FP16, {0}, 0, 0},
    {"cuBLAS BF16 (GemmEx)", NULL, 0, 0, 0, P_BF16, {0}, 0, 0},
    {"matmul_wmma_bf16 (WMMA)", matmul_wmma_bf16, 256, 128, 128, P_BF16, {0}, 0, 0},
};
#define NALL ((int)(sizeof contenders / sizeof contenders[0]))

/* The inputs of one size in every form the contenders take. */
typedef struct inputs {
    const float *A, *B;
    const __half *Ah, *Bh;
    const __nv_bfloat16 *Ab, *Bb;
} inputs;

/* x rounded to half and to bfloat16, as the kernels round it. */
__global__ void to_16bit(const float *x, __half *h, __nv_bfloat16 *b, size_t count)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < count) {
        h[i] = __float2half(x[i]);
        b[i] = __float2bfloat16(x[i]);
    }
}

/* cuBLAS is column-major: C^T = B^T A^T gives row-major C = A B (A and B swapped in the call). */
static void run_one(cublasHandle_t h, const contender *c, const inputs *in, float *C, int n)
{
    if (c->fn) {
        dim3 grid((unsigned)((n + c->cols - 1) / c->cols), (unsigned)((n + c->rows - 1) / c->rows));
        c->fn<<<grid, c->cooks>>>(in->A, in->B, C, n);
        CHECK(cudaGetLastError());
        return;
    }
    const float one = 1.0f, zero = 0.0f;
    const void *a = in->B, *b = in->A;
    cudaDataType_t type = CUDA_R_32F;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    if (c->p == P_TF32)
        compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    else if (c->p == P_FP16)
        a = in->Bh, b = in->Ah, type = CUDA_R_16F;
    else if (c->p == P_BF16)
        a = in->Bb, b = in->Ab, type = CUDA_R_16BF;
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, type, n, b, type, n, &zero, C,
                            CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT));
}

/* The row of the cuBLAS call of precision p. */
static int base_of(enum precision p)
{
    for (int i = 0; i < NALL; i++)
        if (!contenders[i].fn && contenders[i].p == p)
            return i;
    return 0;
}

int main(int argc, char **argv)
{
    int sizes[16], rounds;
    int nsizes = bench_parse_args(argc, argv, "1024,2048,4096,8192", sizes, 16, &rounds);
    if (nsizes < 0)
        return 2;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        fprintf(stderr, "bench_tensor_gpu: %s is compute capability %d.%d: BF16 and TF32 tensor cores need 8.0\n",
                prop.name, prop.major, prop.minor);
        return 6;
    }
    int version = 0;
    cublasHandle_t h, pedantic;
    CHECK_BLAS(cublasCreate(&h));
    CHECK_BLAS(cublasCreate(&pedantic));
    CHECK_BLAS(cublasSetMathMode(pedantic, CUBLAS_PEDANTIC_MATH)); /* the reference: plain FP32 */
    CHECK_BLAS(cublasGetVersion(h, &version));
    printf("tensor cores: WMMA and mma.sync against cuBLAS in each precision on %s (compute capability %d.%d, "
           "%d SMs), cuBLAS %d: medians of %d rotating rounds\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, version, rounds);
    printf("(our kernels read float inputs and round them in the locker; cuBLAS's FP16 and BF16 calls read "
           "16-bit inputs converted beforehand)\n");
    int status = 0;
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s];
        size_t count = (size_t)n * n, bytes = count * sizeof(float);
        float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes), *ref = (float *)malloc(bytes),
              *got = (float *)malloc(bytes);
        if (!hA || !hB || !ref || !got) {
            fprintf(stderr, "bench_tensor_gpu: out of host memory\n");
            return 5;
        }
        bench_fill_inputs(hA, hB, n);
        float *A, *B, *C;
        __half *Ah, *Bh;
        __nv_bfloat16 *Ab, *Bb;
        CHECK(cudaMalloc(&A, bytes));
        CHECK(cudaMalloc(&B, bytes));
        CHECK(cudaMalloc(&C, bytes));
        CHECK(cudaMalloc(&Ah, count * sizeof(__half)));
        CHECK(cudaMalloc(&Bh, count * sizeof(__half)));
        CHECK(cudaMalloc(&Ab, count * sizeof(__nv_bfloat16)));
        CHECK(cudaMalloc(&Bb, count * sizeof(__nv_bfloat16)));
        CHECK(cudaMemcpy(A, hA, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(B, hB, bytes, cudaMemcpyHostToDevice));
        unsigned blocks = (unsigned)((count + 255) / 256);
        to_16bit<<<blocks, 256>>>(A, Ah, Ab, count);
        to_16bit<<<blocks, 256>>>(B, Bh, Bb, count);
        CHECK(cudaGetLastError());
        inputs in = {A, B, Ah, Bh, Ab, Bb};
        /* the reference: cuBLAS SGEMM in plain FP32 */
        contender reference = {"reference", NULL, 0, 0, 0, P_FP32, {0}, 0, 0};
        run_one(pedantic, &reference, &in, C, n);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(ref, C, bytes, cudaMemcpyDeviceToHost));
        for (int c = 0; c < NALL; c++) {
            CHECK(cudaMemset(C, 0xff, bytes)); /* NaN everywhere */
            run_one(h, &contenders[c], &in, C, n);
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(got, C, bytes, cudaMemcpyDeviceToHost));
            contenders[c].err = bench_rel_error(got, ref, count);
            if (!(contenders[c].err < precision_tolerance[contenders[c].p])) {
                fprintf(stderr, "bench_tensor_gpu: WRONG: %s at n = %d: ||C - ref|| / ||ref|| = %g\n", contenders[c].name, n,
                        contenders[c].err);
                status = 1;
            }
        }
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        for (int c = 0; c < NALL; c++) /* a warm-up each */
            run_one(h, &contenders[c], &in, C, n);
        CHECK(cudaDeviceSynchronize());
        for (int round = 0; round < rounds; round++)
            for (int k = 0; k < NALL; k++) {
                int c = (k + round) % NALL;
                CHECK(cudaEventRecord(e0));
                run_one(h, &contenders[c], &in, C, n);
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                CHECK(cudaEventElapsedTime(&contenders[c].ms[round], e0, e1));
            }
        for (int c = 0; c < NALL; c++)
            contenders[c].med = bench_median_ms(contenders[c].ms, rounds);
        double flop = 2.0 * n * (double)n * n;
        printf("\nn = %d\n  %-26s %-5s %10s %9s %10s %13s\n", n, "", "in", "median ms", "TFLOP/s", "of cuBLAS",
               "error vs FP32");
        for (int c = 0; c < NALL; c++) {
            double base = contenders[base_of(contenders[c].p)].med;
            printf("  %-26s %-5s %10.4f %9.1f %9.1f%% %13.2e\n", contenders[c].name, precision_names[contenders[c].p], contenders[c].med,
                   flop / contenders[c].med / 1e9, 100.0 * base / contenders[c].med, contenders[c].err);
        }
        for (int c = 0; c < NALL; c++) {
            if (!contenders[c].fn)
                continue;
            char id[64];
            snprintf(id, sizeof id, "%s", contenders[c].name);
            *strchr(id, ' ') = 0;
            printf("BENCH name=gpu_%s_vs_cublas_%s_%d ratio=%.3f goal=none met=n/a\n", id, precision_names[contenders[c].p], n,
                   contenders[base_of(contenders[c].p)].med / contenders[c].med);
        }
        for (int c = 0; c < NALL; c++)
            if (!contenders[c].fn && contenders[c].p != P_FP32)
                printf("BENCH name=gpu_cublas_%s_vs_cublas_fp32_%d ratio=%.3f goal=none met=n/a\n",
                       precision_names[contenders[c].p], n, contenders[base_of(P_FP32)].med / contenders[c].med);
        CHECK(cudaEventDestroy(e0));
        CHECK(cudaEventDestroy(e1));
        CHECK(cudaFree(A));
        CHECK(cudaFree(B));
        CHECK(cudaFree(C));
        CHECK(cudaFree(Ah));
        CHECK(cudaFree(Bh));
        CHECK(cudaFree(Ab));
        CHECK(cudaFree(Bb));
        free(hA);
        free(hB);
        free(ref);
        free(got);
    }
    CHECK_BLAS(cublasDestroy(h));
    CHECK_BLAS(cublasDestroy(pedantic));
    return status;
}
