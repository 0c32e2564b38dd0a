/*
 * bare_vector_add.cu - the yardstick for cudachef's kernel time: vector add with no cudachef code.
 *
 * Times vector_add<<<ceil(n/256), 256>>> (the kernel from kernels/vector_add.cu, included as
 * source) the way cudachef's cook step does: one warm-up launch, then R launches, each between a
 * pair of CUDA events on the default stream and waited for; prints the median (and min, max).
 * scripts/bench-gpu.sh compares it with what `cudachef run vector-add` reports.
 *
 * Usage: bare_vector_add [N [R]]   (N elements, default 2^28; R timed launches, default 20)
 * Output: one line, "BARE kernel_ms=MEDIAN n=N repeat=R min_ms=... max_ms=... gb_per_s=...".
 * Exit codes: 0 ok, 1 wrong result, 2 usage error, 5 a CUDA call failed (no GPU, out of memory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/vector_add.cu"

#define TPB 256

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "bare_vector_add: %s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e_), \
                    __FILE__, __LINE__);                                                           \
            exit(5);                                                                               \
        }                                                                                          \
    } while (0)

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* Parses a positive integer argument within [lo, hi]; exits with a usage error otherwise. */
static long long parse_arg(const char *what, const char *s, long long lo, long long hi)
{
    char *end;
    long long v = strtoll(s, &end, 0);
    if (*s == 0 || *end || v < lo || v > hi) {
        fprintf(stderr, "bare_vector_add: %s must be %lld to %lld (got '%s')\n", what, lo, hi, s);
        fprintf(stderr, "usage: bare_vector_add [N [R]]\n");
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc > 3) {
        fprintf(stderr, "usage: bare_vector_add [N [R]]\n");
        return 2;
    }
    int n = argc > 1 ? (int)parse_arg("N", argv[1], 1, 1LL << 30) : 1 << 28;
    int repeat = argc > 2 ? (int)parse_arg("R", argv[2], 1, 100000) : 20;
    size_t bytes = (size_t)n * sizeof(float);

    float *a, *b, *c;
    CHECK(cudaMalloc((void **)&a, bytes));
    CHECK(cudaMalloc((void **)&b, bytes));
    CHECK(cudaMalloc((void **)&c, bytes));
    /* Byte patterns: every a[i] = 0x3f3f3f3f (0.747...), every b[i] = 0x40404040 (3.0039...). */
    CHECK(cudaMemset(a, 0x3f, bytes));
    CHECK(cudaMemset(b, 0x40, bytes));
    CHECK(cudaMemset(c, 0, bytes));

    unsigned blocks = (unsigned)(((long long)n + TPB - 1) / TPB);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    vector_add<<<blocks, TPB>>>(a, b, c, n); /* warm-up */
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    /* Check the first, middle and last elements. */
    float fa, fb, want, got[3];
    unsigned pa = 0x3f3f3f3fu, pb = 0x40404040u;
    memcpy(&fa, &pa, sizeof fa);
    memcpy(&fb, &pb, sizeof fb);
    want = fa + fb;
    size_t at[3] = {0, (size_t)n / 2, (size_t)n - 1};
    for (int i = 0; i < 3; i++)
        CHECK(cudaMemcpy(&got[i], c + at[i], sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 3; i++)
        if (got[i] != want) {
            fprintf(stderr, "bare_vector_add: WRONG: c[%zu] = %g, expected %g\n", at[i], (double)got[i], (double)want);
            return 1;
        }

    float *ms = (float *)malloc(sizeof(float) * (size_t)repeat);
    if (!ms) {
        fprintf(stderr, "bare_vector_add: out of memory\n");
        return 5;
    }
    for (int r = 0; r < repeat; r++) {
        CHECK(cudaEventRecord(start, 0));
        vector_add<<<blocks, TPB>>>(a, b, c, n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop, 0));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    qsort(ms, (size_t)repeat, sizeof *ms, cmp_float);
    double med = repeat % 2 ? ms[repeat / 2] : 0.5 * ((double)ms[repeat / 2 - 1] + ms[repeat / 2]);
    printf("BARE kernel_ms=%.6f n=%d repeat=%d min_ms=%.6f max_ms=%.6f gb_per_s=%.1f\n", med, n, repeat,
           (double)ms[0], (double)ms[repeat - 1], 12.0 * n / (med * 1e6));

    free(ms);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}
