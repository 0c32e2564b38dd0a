/*
 * peer_pocl.c - `make bench-peers`, peer B: cudachef's two kernels as OpenCL C on POCL.
 *
 * POCL (pocl-opencl-icd) is OpenCL on the CPU: it compiles a kernel with LLVM for this processor
 * and turns each work-group's barriers into loops over its work-items, with no switch between
 * them, and spreads the work-groups over the cores. It is the compiler-based way of running a
 * GPU kernel on a CPU, the yardstick for cudachef's emulator, which runs every cook as a fiber.
 * The kernels below are kernels/vector_add.cu (work-groups of 256) and kernels/matmul_tiled.cu
 * (16x16 __local tiles, two barrier(CLK_LOCAL_MEM_FENCE) per tile, zeros past the edges, a grid of
 * ceil(n/16) x ceil(n/16) work-groups of 16 x 16) line for line.
 *
 * The inputs are written to the device once, before anything is timed. One warm-up launch (the
 * first launch compiles the kernel for the device; its time is printed), then R timed launches,
 * each clEnqueueNDRangeKernel + clFinish between two reads of the monotonic clock; the figure is
 * their median. The output is filled with NaN before the warm-up and before the timed launches;
 * the warm-up's and the last launch's are checked against a CPU loop (vector add exactly, the
 * product within 1e-3 of a double-precision one), outside the timing.
 *
 * Usage: peer_pocl vector-add|matmul-tiled N [R]   (R timed launches, at least 7; default 7)
 * Prints the device (DEVICE name="..." compute_units=K ...) and one line PEER peer=pocl recipe=...
 * n=N reps=R ms=MEDIAN min=MIN warmup_ms=W build_ms=B check=passed. Exit codes: 0 passed, 1 a wrong
 * result, 2 POCL could not run (no POCL platform, a failed OpenCL call, bad arguments).
 * Built by bench/bench.mk into build/bench/peer_pocl (-lOpenCL); scripts/bench-peers.py runs it.
 */
#define _POSIX_C_SOURCE          200809L /* clock_gettime under -std=c11 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_stats.h"

#define TILE              16
#define THREADS_PER_BLOCK 256
#define MATMUL_TOL        1e-3
#define MIN_REPS          7
#define MAX_REPS          1000
#define POCL_PLATFORM     "Portable Computing Language"

/* The two kernels, as OpenCL C: the same lines as kernels/vector_add.cu and kernels/matmul_tiled.cu. */
static const char *kernel_source =
    "#define TILE 16\n"
    "__kernel void vector_add(__global const float *a, __global const float *b, __global float *c, int n)\n"
    "{\n"
    "    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);\n"
    "    if (i < n) {\n"
    "        c[i] = a[i] + b[i];\n"
    "    }\n"
    "}\n"
    "__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int n)\n"
    "{\n"
    "    __local float tileA[TILE][TILE];\n"
    "    __local float tileB[TILE][TILE];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int row = get_group_id(1) * TILE + ty;\n"
    "    int col = get_group_id(0) * TILE + tx;\n"
    "    float sum = 0.0f;\n"
    "    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {\n"
    "        int a_col = t * TILE + tx;\n"
    "        int b_row = t * TILE + ty;\n"
    "        tileA[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;\n"
    "        tileB[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TILE; k++)\n"
    "            sum += tileA[ty][k] * tileB[k][tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (row < n && col < n)\n"
    "        C[row * n + col] = sum;\n"
    "}\n";

/* Ends the program with exit code 2 when an OpenCL call did not return CL_SUCCESS. */
#define CL_CHECK(call)                                                                                       \
    do {                                                                                                     \
        cl_int err_ = (call);                                                                                \
        if (err_ != CL_SUCCESS)                                                                              \
            cl_fail(#call, err_, __LINE__);                                                                  \
    } while (0)

/* Says which OpenCL call failed, with its error code, and exits 2. */
static void cl_fail(const char *what, cl_int err, int line)
{
    fprintf(stderr, "peer_pocl: %s failed with OpenCL error %d (peer_pocl.c:%d)\n", what, (int)err, line);
    exit(2);
}

/* Milliseconds on the monotonic clock. */
static double now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        perror("peer_pocl: clock_gettime");
        exit(2);
    }
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* malloc that exits 2 when there is no memory. */
static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "peer_pocl: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* Seeded values in [-1, 1) (xorshift64*), the same on every run. */
static void fill(float *v, size_t count, unsigned long long seed)
{
    unsigned long long s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < count; i++) {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        v[i] = (float)((double)((s * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

/* The platform named POCL_PLATFORM, or exit 2 saying it is not installed. */
static cl_platform_id find_pocl(void)
{
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &count);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && count == 0)) {
        fprintf(stderr, "peer_pocl: no OpenCL platform found (install pocl-opencl-icd)\n");
        exit(2);
    }
    CL_CHECK(err);
    cl_platform_id *ids = xmalloc(count * sizeof *ids);
    CL_CHECK(clGetPlatformIDs(count, ids, NULL));
    for (cl_uint i = 0; i < count; i++) {
        char name[256] = "";
        CL_CHECK(clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL));
        if (strcmp(name, POCL_PLATFORM) == 0) {
            cl_platform_id id = ids[i];
            free(ids);
            return id;
        }
    }
    free(ids);
    fprintf(stderr, "peer_pocl: %u OpenCL platform(s), none of them POCL (install pocl-opencl-icd)\n", count);
    exit(2);
}

/* Prints the device's name, compute units and versions on one DEVICE line. */
static void print_device(cl_device_id dev)
{
    char name[256] = "", version[256] = "", driver[256] = "";
    cl_uint units = 0;
    CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL));
    CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version - 1, version, NULL));
    CL_CHECK(clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL));
    CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    printf("DEVICE name=\"%s\" compute_units=%u version=\"%s\" driver=\"%s\"\n", name, units, version,
           driver);
}

/* The program built for dev, or exit 2 with the compiler's log. */
static cl_program build_program(cl_context ctx, cl_device_id dev)
{
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_source, NULL, &err);
    CL_CHECK(err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        CL_CHECK(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL));
        fprintf(stderr, "peer_pocl: clBuildProgram failed with OpenCL error %d:\n%s\n", (int)err, log);
        exit(2);
    }
    return prog;
}

/* The expected output: c = a + b, or C = A B accumulated in double. */
static void reference(int matmul, const float *a, const float *b, double *want, int n)
{
    if (!matmul) {
        for (int i = 0; i < n; i++)
            want[i] = (float)(a[i] + b[i]);
        return;
    }
    for (int i = 0; i < n; i++) { /* i-k-j order: the rows of B are read in order */
        double *row = want + (size_t)i * n;
        for (int j = 0; j < n; j++)
            row[j] = 0;
        for (int k = 0; k < n; k++) {
            double aik = a[(size_t)i * n + k];
            const float *brow = b + (size_t)k * n;
            for (int j = 0; j < n; j++)
                row[j] += aik * brow[j];
        }
    }
}

/* Reads the output back and compares it with want (exactly, or within tol); exits 1 if wrong. */
static double check_output(cl_command_queue q, cl_mem out, float *got, const double *want, size_t count,
                           double tol, const char *which)
{
    CL_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, count * sizeof *got, got, 0, NULL, NULL));
    double worst = 0;
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < count; i++) {
        double e = fabs((double)got[i] - want[i]);
        if (!(e <= tol)) { /* NaN is wrong too */
            if (!wrong++)
                first = i;
        } else if (e > worst) {
            worst = e;
        }
    }
    if (wrong) {
        fprintf(stderr,
                "peer_pocl: wrong result after the %s launch: %zu of %zu elements, first [%zu] = %g, "
                "expected %g\n",
                which, wrong, count, first, got[first], want[first]);
        exit(1);
    }
    return worst;
}

/* Fills the output with NaN, so that a launch that writes nothing cannot pass the check. */
static void poison(cl_command_queue q, cl_mem out, size_t count)
{
    const float nan_pattern = NAN;
    CL_CHECK(clEnqueueFillBuffer(q, out, &nan_pattern, sizeof nan_pattern, 0, count * sizeof(float), 0, NULL,
                                 NULL));
    CL_CHECK(clFinish(q));
}

/* One launch: clEnqueueNDRangeKernel and clFinish, in milliseconds. */
static double launch_ms(cl_command_queue q, cl_kernel kern, cl_uint dims, const size_t *global,
                        const size_t *local)
{
    double start = now_ms();
    CL_CHECK(clEnqueueNDRangeKernel(q, kern, dims, NULL, global, local, 0, NULL, NULL));
    CL_CHECK(clFinish(q));
    return now_ms() - start;
}

/* Parses a whole positive decimal number no larger than max, or returns 0. */
static long parse_count(const char *s, long max)
{
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v > 0 && v <= max) ? v : 0;
}

/* Sets up POCL, runs the warm-up and the timed launches, checks, prints the PEER line. */
int main(int argc, char **argv)
{
    const char *usage = "usage: peer_pocl vector-add|matmul-tiled N [R]   (R >= 7 timed launches, default 7)";
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "vector-add") && strcmp(argv[1], "matmul-tiled"))) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
    int matmul = strcmp(argv[1], "matmul-tiled") == 0;
    int n = (int)parse_count(argv[2], matmul ? 8192 : 1 << 28);
    int reps = argc == 4 ? (int)parse_count(argv[3], MAX_REPS) : MIN_REPS;
    if (!n || reps < MIN_REPS) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }

    cl_platform_id platform = find_pocl();
    cl_device_id dev;
    cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
    if (err == CL_DEVICE_NOT_FOUND) {
        fprintf(stderr, "peer_pocl: POCL offers no CPU device\n");
        return 2;
    }
    CL_CHECK(err);
    print_device(dev);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CL_CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_CHECK(err);
    double t0 = now_ms();
    cl_program prog = build_program(ctx, dev);
    double build_ms = now_ms() - t0;
    cl_kernel kern = clCreateKernel(prog, matmul ? "matmul_tiled" : "vector_add", &err);
    CL_CHECK(err);

    size_t count = matmul ? (size_t)n * n : (size_t)n;
    float *a = xmalloc(count * sizeof *a), *b = xmalloc(count * sizeof *b),
          *got = xmalloc(count * sizeof *got);
    double *want = xmalloc(count * sizeof *want);
    fill(a, count, 1);
    fill(b, count, 2);
    reference(matmul, a, b, want, n);
    /* The kernel's buffers, which are also its first three arguments: the two inputs, the output. */
    float *host[3] = {a, b, NULL};
    cl_mem buf[3];
    for (int i = 0; i < 3; i++) {
        cl_mem_flags flags = host[i] ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_WRITE_ONLY;
        buf[i] = clCreateBuffer(ctx, flags, count * sizeof(float), host[i], &err);
        CL_CHECK(err);
        CL_CHECK(clSetKernelArg(kern, (cl_uint)i, sizeof buf[i], &buf[i]));
    }
    free(a); /* copied into the buffers (CL_MEM_COPY_HOST_PTR) */
    free(b);
    cl_int n_arg = n;
    CL_CHECK(clSetKernelArg(kern, 3, sizeof n_arg, &n_arg));

    size_t side = (size_t)(n + TILE - 1) / TILE * TILE;
    size_t global[2] = {
        matmul ? side : (size_t)(n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK * THREADS_PER_BLOCK, side};
    size_t local[2] = {matmul ? TILE : THREADS_PER_BLOCK, TILE};
    cl_uint dims = matmul ? 2 : 1;
    double tol = matmul ? MATMUL_TOL : 0;

    poison(q, buf[2], count);
    double warmup_ms = launch_ms(q, kern, dims, global, local); /* the first launch compiles for the device */
    double worst = check_output(q, buf[2], got, want, count, tol, "warm-up");
    poison(q, buf[2], count);
    double times[MAX_REPS];
    for (int r = 0; r < reps; r++)
        times[r] = launch_ms(q, kern, dims, global, local);
    double last = check_output(q, buf[2], got, want, count, tol, "last");
    if (last > worst)
        worst = last;
    double fastest = times[0];
    for (int r = 1; r < reps; r++)
        fastest = times[r] < fastest ? times[r] : fastest;
    printf("PEER peer=pocl recipe=%s n=%d reps=%d ms=%.4f min=%.4f warmup_ms=%.3f build_ms=%.3f "
           "max_abs_error=%.3g check=passed\n",
           argv[1], n, reps, bench_median(times, reps), fastest, warmup_ms, build_ms, worst);

    for (int i = 0; i < 3; i++)
        CL_CHECK(clReleaseMemObject(buf[i]));
    CL_CHECK(clReleaseKernel(kern));
    CL_CHECK(clReleaseProgram(prog));
    CL_CHECK(clReleaseCommandQueue(q));
    CL_CHECK(clReleaseContext(ctx));
    free(got);
    free(want);
    return 0;
}
