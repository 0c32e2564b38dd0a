/*
 * bench_gpu.cu - how close vector add comes to the GPU's memory bandwidth (a device-to-device copy).
 *
 * Vector add reads two floats and writes one per element: 12 bytes per element. The yardstick is a
 * cudaMemcpy device-to-device of 6n bytes, which reads 6n and writes 6n: the same 12n bytes moved.
 * Both are counted as bytes read + written, so the ratio of bandwidths is the copy's time over the
 * kernel's. Contestants, all on the same GPU in this one run:
 *   - the D2D copy (6n bytes, separate buffers);
 *   - vector_add, one element per thread, ceil(n/256) blocks of 256 (kernels/vector_add.cu);
 *   - vector_add_grid_stride with a few blocks per SM (half a full wave, one full wave and four
 *     waves of 256-thread blocks; kernels/vector_add_grid_stride.cu);
 *   - vector_add_float4, four elements per thread with 16-byte loads and stores, 128, 256 and 1024
 *     threads per block (kernels/vector_add_float4.cu).
 * Each result is checked in full first (exit 1 if wrong). Then everyone runs once (warm-up) and
 * R rounds follow, the order rotating every round; each launch or copy is timed alone between two
 * CUDA events. Rows are medians; ratios are ratios of medians. Goal: the best vector add >= 90% of
 * the copy.
 * A missed goal is reported, not failed (exit 0).
 *
 * Usage: bench_gpu [N [R]]   (N elements, default 2^28; R rounds, default 20)
 * Exit codes: 0 ok, 1 wrong result, 2 usage error, 5 a CUDA call failed (no GPU, out of memory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/vector_add.cu"
#include "../kernels/vector_add_grid_stride.cu"
#include "../kernels/vector_add_float4.cu"

#define TPB 256
#define GOAL 0.90 /* the best vector add's bandwidth / the copy's, at least (issue 6) */
#define MAX_CONTESTANTS 12

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "bench_gpu: %s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e_),   \
                    __FILE__, __LINE__);                                                           \
            exit(5);                                                                               \
        }                                                                                          \
    } while (0)

/* Inputs whose sums are exact in float: a[i] = i mod 1024, b[i] = (i / 1024) mod 1024. */
__global__ void bench_fill(float *a, float *b, int n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x) {
        a[i] = (float)(i & 1023);
        b[i] = (float)((i >> 10) & 1023);
    }
}

typedef enum kind { COPY, VECTOR_ADD, GRID_STRIDE, FLOAT4 } kind;

typedef struct contestant {
    char label[96];
    char key[64];
    kind k;
    unsigned blocks;
    int tpb;
    float *ms;
    double med, min, max;
} contestant;

typedef struct bench {
    int n;
    float *a, *b, *c;
    char *src, *dst; /* the copy's own buffers, 6n bytes each */
    size_t copy_bytes;
    cudaEvent_t start, stop;
} bench;

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static void launch(const bench *B, const contestant *c)
{
    switch (c->k) {
    case COPY:
        CHECK(cudaMemcpy(B->dst, B->src, B->copy_bytes, cudaMemcpyDeviceToDevice));
        break;
    case VECTOR_ADD:
        vector_add<<<c->blocks, c->tpb>>>(B->a, B->b, B->c, B->n);
        CHECK(cudaGetLastError());
        break;
    case GRID_STRIDE:
        vector_add_grid_stride<<<c->blocks, c->tpb>>>(B->a, B->b, B->c, B->n);
        CHECK(cudaGetLastError());
        break;
    case FLOAT4:
        vector_add_float4<<<c->blocks, c->tpb>>>(B->a, B->b, B->c, B->n);
        CHECK(cudaGetLastError());
        break;
    }
}

/* One launch (or copy) between two events; returns its time in ms. */
static float timed(const bench *B, const contestant *c)
{
    float ms;
    CHECK(cudaEventRecord(B->start, 0));
    launch(B, c);
    CHECK(cudaEventRecord(B->stop, 0));
    CHECK(cudaEventSynchronize(B->stop));
    CHECK(cudaEventElapsedTime(&ms, B->start, B->stop));
    return ms;
}

static long long parse_arg(const char *what, const char *s, long long lo, long long hi)
{
    char *end;
    long long v = strtoll(s, &end, 0);
    if (*s == 0 || *end || v < lo || v > hi) {
        fprintf(stderr, "bench_gpu: %s must be %lld to %lld (got '%s')\nusage: bench_gpu [N [R]]\n", what, lo, hi, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc > 3) {
        fprintf(stderr, "usage: bench_gpu [N [R]]\n");
        return 2;
    }
    bench B;
    memset(&B, 0, sizeof B);
    B.n = argc > 1 ? (int)parse_arg("N", argv[1], 1024, 1LL << 30) : 1 << 28;
    int rounds = argc > 2 ? (int)parse_arg("R", argv[2], 1, 10000) : 20;
    size_t n = (size_t)B.n, bytes = n * sizeof(float);
    B.copy_bytes = 6 * n;

    int dev;
    cudaDeviceProp prop;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaGetDeviceProperties(&prop, dev));
    int sms = prop.multiProcessorCount;
    int wave = prop.maxThreadsPerMultiProcessor / TPB; /* resident 256-thread blocks per SM */
    if (wave < 1)
        wave = 1;

    CHECK(cudaMalloc((void **)&B.a, bytes));
    CHECK(cudaMalloc((void **)&B.b, bytes));
    CHECK(cudaMalloc((void **)&B.c, bytes));
    CHECK(cudaMalloc((void **)&B.src, B.copy_bytes));
    CHECK(cudaMalloc((void **)&B.dst, B.copy_bytes));
    CHECK(cudaMemset(B.src, 0x5a, B.copy_bytes));
    CHECK(cudaMemset(B.dst, 0, B.copy_bytes));
    bench_fill<<<sms * wave, TPB>>>(B.a, B.b, B.n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventCreate(&B.start));
    CHECK(cudaEventCreate(&B.stop));

    contestant cs[MAX_CONTESTANTS];
    memset(cs, 0, sizeof cs);
    int ncs = 0;
    snprintf(cs[ncs].label, sizeof cs[ncs].label, "cudaMemcpy device-to-device, %zu bytes", B.copy_bytes);
    snprintf(cs[ncs].key, sizeof cs[ncs].key, "d2d_copy");
    cs[ncs++].k = COPY;
    int tpbs[2] = {TPB, 1024};
    for (int i = 0; i < 2; i++) {
        cs[ncs].k = VECTOR_ADD;
        cs[ncs].tpb = tpbs[i];
        cs[ncs].blocks = (unsigned)((n + tpbs[i] - 1) / tpbs[i]);
        snprintf(cs[ncs].label, sizeof cs[ncs].label, "vector_add, %u blocks x %d", cs[ncs].blocks, tpbs[i]);
        snprintf(cs[ncs].key, sizeof cs[ncs].key, "vector_add_%dtpb", tpbs[i]);
        ncs++;
    }
    int per_sm[3] = {wave / 2 > 0 ? wave / 2 : 1, wave, 4 * wave};
    for (int i = 0; i < 3; i++) {
        cs[ncs].k = GRID_STRIDE;
        cs[ncs].tpb = TPB;
        cs[ncs].blocks = (unsigned)(sms * per_sm[i]);
        snprintf(cs[ncs].label, sizeof cs[ncs].label, "vector_add_grid_stride, %d SMs x %d blocks x %d", sms,
                 per_sm[i], TPB);
        snprintf(cs[ncs].key, sizeof cs[ncs].key, "vector_add_grid_stride_%dpersm", per_sm[i]);
        ncs++;
    }

    int f4_tpbs[3] = {128, TPB, 1024};
    for (int i = 0; i < 3; i++) {
        cs[ncs].k = FLOAT4;
        cs[ncs].tpb = f4_tpbs[i];
        cs[ncs].blocks = (unsigned)(((n + 3) / 4 + f4_tpbs[i] - 1) / f4_tpbs[i]);
        snprintf(cs[ncs].label, sizeof cs[ncs].label, "vector_add_float4, %u blocks x %d", cs[ncs].blocks, f4_tpbs[i]);
        snprintf(cs[ncs].key, sizeof cs[ncs].key, "vector_add_float4_%dtpb", f4_tpbs[i]);
        ncs++;
    }

    /* Check every kernel's result in full before timing. */
    float *host = (float *)malloc(bytes);
    if (!host) {
        fprintf(stderr, "bench_gpu: out of host memory for the check\n");
        return 5;
    }
    for (int i = 1; i < ncs; i++) {
        CHECK(cudaMemset(B.c, 0xff, bytes)); /* NaN */
        launch(&B, &cs[i]);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(host, B.c, bytes, cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < n; k++) {
            float want = (float)(k & 1023) + (float)((k >> 10) & 1023);
            if (host[k] != want) {
                fprintf(stderr, "bench_gpu: WRONG (%s): c[%zu] = %g, expected %g\n", cs[i].label, k, (double)host[k],
                        (double)want);
                return 1;
            }
        }
    }
    free(host);

    for (int i = 0; i < ncs; i++) {
        cs[i].ms = (float *)malloc(sizeof(float) * (size_t)rounds);
        if (!cs[i].ms) {
            fprintf(stderr, "bench_gpu: out of memory\n");
            return 5;
        }
        launch(&B, &cs[i]); /* warm-up */
    }
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < ncs; j++) {
            contestant *c = &cs[(j + r) % ncs];
            c->ms[r] = timed(&B, c);
        }
    for (int i = 0; i < ncs; i++) {
        qsort(cs[i].ms, (size_t)rounds, sizeof(float), cmp_float);
        cs[i].med = rounds % 2 ? cs[i].ms[rounds / 2] : 0.5 * ((double)cs[i].ms[rounds / 2 - 1] + cs[i].ms[rounds / 2]);
        cs[i].min = cs[i].ms[0];
        cs[i].max = cs[i].ms[rounds - 1];
    }

    double moved = 12.0 * (double)n; /* bytes read + written, the same for everyone */
    double copy_ms = cs[0].med;
    printf("GPU bandwidth: %s, %d SMs; n = %d (%.2f GB moved per run, read + written); medians of %d interleaved "
           "rounds\n",
           prop.name, sms, B.n, moved / 1e9, rounds);
    printf("  %-58s %10s %10s %10s %9s %9s\n", "", "median ms", "min", "max", "GB/s", "of copy");
    for (int i = 0; i < ncs; i++)
        printf("  %-58s %10.4f %10.4f %10.4f %9.0f %8.1f%%\n", cs[i].label, cs[i].med, cs[i].min, cs[i].max,
               moved / (cs[i].med * 1e6), 100.0 * copy_ms / cs[i].med);
    printf("\n");
    /* The goal is judged on the best of cudachef's vector-add kernels and launch configurations. */
    int best = 1;
    for (int i = 1; i < ncs; i++) {
        double ratio = copy_ms / cs[i].med; /* bandwidth / the copy's bandwidth */
        printf("BENCH name=gpu_%s_vs_d2d_copy ratio=%.3f\n", cs[i].key, ratio);
        if (cs[i].med < cs[best].med)
            best = i;
    }
    double vb = copy_ms / cs[best].med, va = copy_ms / cs[1].med;
    printf("BENCH name=gpu_best_vector_add_vs_d2d_copy ratio=%.3f goal=>=%.2f met=%s\n", vb, GOAL,
           vb >= GOAL ? "yes" : "no");
    printf("%s: the best vector add (%s) reaches %.1f%% of the device-to-device copy's bandwidth (goal: at "
           "least %.0f%%); the one-element-per-cook kernel with 256 cooks per team reaches %.1f%%\n",
           vb >= GOAL ? "goal met" : "goal missed", cs[best].label, 100.0 * vb, 100.0 * GOAL, 100.0 * va);

    for (int i = 0; i < ncs; i++)
        free(cs[i].ms);
    CHECK(cudaEventDestroy(B.start));
    CHECK(cudaEventDestroy(B.stop));
    CHECK(cudaFree(B.a));
    CHECK(cudaFree(B.b));
    CHECK(cudaFree(B.c));
    CHECK(cudaFree(B.src));
    CHECK(cudaFree(B.dst));
    return 0;
}
