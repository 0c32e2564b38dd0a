/*
 * test_host.c - the CUDA runtime on the emulator that a learner's host code calls
 * (src/engine/host_runtime.c, declared for the code by src/kit/emu_runtime.h): allocations counted
 * and leaks freed, copies checked against their kind and their buffers, the last error and the
 * sticky one as CUDA keeps them, a planned fault per operation, launches with a kernel's fault
 * reported at the next synchronisation, events (reached only once the head chef waits, each elapsed
 * time kept with what its span held), the launches and bytes shipped each way, and the part of
 * cuBLAS lesson 9 calls (src/engine/host_cublas.c); work deferred in streams until waited for,
 * pinned and pageable copies, managed memory and its page faults. The source pass's rewrite of a launch is in
 * test_emu.c; whole host exercises graded are in test_exercises.c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/chef.h"
#include "engine/host_runtime.h"
#include "kit/emu_kernel.h"
#include "kit/emu_runtime.h"
#include "kit/cublas_v2.h"

extern const char test_kernels_fast[], test_kernels_checked[];
void emu_kernels_register(const void *fast_rows, const void *checked_rows);

/* Registers the test kernels once. */
static int group_setup(void **state)
{
    (void)state;
    emu_kernels_register(test_kernels_fast, test_kernels_checked);
    return 0;
}

/* Allocations are counted: what the code leaves is a leak, freed at the end; a freed pointer or
   one cudaMalloc never gave is refused by cudaFree. */
static void test_alloc_and_leaks(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *d_a = NULL, *d_b = NULL;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&d_a, 100 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&d_b, 40), cudaSuccess);
    assert_non_null(d_a);
    assert_true(isnan(d_a[99])); /* poisoned until written */
    assert_int_equal(cudaFree(d_a), cudaSuccess);
    assert_int_equal(cudaFree(d_a), cudaErrorInvalidValue); /* twice */
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaSuccess); /* cleared */
    float local[4];
    assert_int_equal(cudaFree(local), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(NULL), cudaSuccess);
    host_runtime_end(&st);
    assert_int_equal(st.calls[HOST_FAULT_ALLOC], 2);
    assert_int_equal(st.leaked, 1);
    assert_int_equal(st.leaked_bytes, 40);
    assert_int_equal(st.injected, 0);
    /* the next run starts clean */
    host_runtime_begin(HOST_FAULT_NONE, 0);
    host_runtime_end(&st);
    assert_int_equal(st.leaked, 0);
    assert_int_equal(st.calls[HOST_FAULT_ALLOC], 0);
}

/* A copy's kind must agree with where its pointers are; a copy past the end of a buffer the
   runtime knows is refused and named; a null pointer is refused. */
static void test_copies_checked(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *h = host_runtime_host_alloc(8 * sizeof(float), "a"), *d = NULL, back[8];
    assert_non_null(h);
    for (int i = 0; i < 8; i++)
        h[i] = (float)i;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&d, 8 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, 8 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, d, 8 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    assert_true(back[7] == 7.0f);
    assert_int_equal(cudaMemcpy(back, d, 8 * sizeof(float), cudaMemcpyDefault), cudaSuccess);
    host_runtime_end(&st);
    assert_int_equal(st.wrong_copies, 0);
    assert_int_equal(st.out_of_bounds, 0);
    assert_int_equal(st.leaked, 1);

    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&d, 8 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, d, 8 * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, h, 8 * sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    host_runtime_end(&st);
    assert_int_equal(st.wrong_copies, 2);
    assert_non_null(strstr(st.message, "cudaMemcpyHostToDevice"));

    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&d, 4 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, 8 * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(d, h + 4, 4 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(h + 4, d, 5 * sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(NULL, h, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(d), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue); /* freed */
    host_runtime_end(&st);
    assert_int_equal(st.out_of_bounds, 3);
    assert_int_equal(st.leaked, 0);
    assert_non_null(strstr(st.message, "past the end"));
    assert_true(h[7] == 7.0f); /* nothing written past c's end */
    host_runtime_host_free(h);
}

/* A planned fault fails exactly its call, in CUDA's words, and only that one. */
static void test_planned_faults(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *d[3] = {NULL, NULL, NULL}, h[4] = {0};
    host_runtime_begin(HOST_FAULT_ALLOC, 2);
    assert_int_equal(cudaMalloc(&d[0], 16), cudaSuccess);
    d[1] = (float *)h;
    assert_int_equal(cudaMalloc(&d[1], 16), cudaErrorMemoryAllocation);
    assert_null(d[1]);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorMemoryAllocation);
    assert_int_equal(cudaMalloc(&d[2], 16), cudaSuccess);
    cudaFree(d[0]);
    cudaFree(d[2]);
    host_runtime_end(&st);
    assert_int_equal(st.injected, 1);
    assert_int_equal(st.leaked, 0);

    host_runtime_begin(HOST_FAULT_COPY, 1);
    assert_int_equal(cudaMalloc(&d[0], 16), cudaSuccess);
    assert_int_equal(cudaMemcpy(d[0], h, 16, cudaMemcpyHostToDevice), cudaErrorLaunchFailure);
    assert_int_equal(cudaMemcpy(d[0], h, 16, cudaMemcpyHostToDevice), cudaSuccess);
    host_runtime_end(&st);
    assert_int_equal(st.injected, 1);
    assert_int_equal(st.leaked, 1);

    host_runtime_begin(HOST_FAULT_COPY, 5); /* never reached: nothing injected */
    assert_int_equal(cudaMalloc(&d[0], 16), cudaSuccess);
    assert_int_equal(cudaMemcpy(d[0], h, 16, cudaMemcpyHostToDevice), cudaSuccess);
    cudaFree(d[0]);
    host_runtime_end(&st);
    assert_int_equal(st.injected, 0);
    assert_string_equal(host_fault_name(HOST_FAULT_LAUNCH), "launch");
}

/* Fills h (bytes of it) with 0, 1, 2, ..., allocates the device's a, b and c of as many bytes, and
   ships h into a and b: a vector add ready to launch. */
static void host_vector_add_ready(float *h, size_t bytes, float **a, float **b, float **c)
{
    for (size_t i = 0; i < bytes / sizeof *h; i++)
        h[i] = (float)i;
    assert_int_equal(cudaMalloc(a, bytes), cudaSuccess);
    assert_int_equal(cudaMalloc(b, bytes), cudaSuccess);
    assert_int_equal(cudaMalloc(c, bytes), cudaSuccess);
    assert_int_equal(cudaMemcpy(*a, h, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(*b, h, bytes, cudaMemcpyHostToDevice), cudaSuccess);
}

/* A launch cooks on the emulator; a refused launch is seen by cudaGetLastError only (not by
   cudaDeviceSynchronize); a kernel's fault is sticky: every later call returns it. */
static void test_launches(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *a = NULL, *b = NULL, *c = NULL, h[64];
    host_runtime_begin(HOST_FAULT_NONE, 0);
    host_vector_add_ready(h, sizeof h, &a, &b, &c);
    void *args[] = {&a, &b, &c};
    dim3 two = EMU_DIM3(2), cooks = EMU_DIM3(32, 1);
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(two, cooks), args), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    float back[64];
    assert_int_equal(cudaMemcpy(back, c, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_true(back[63] == 126.0f);
    /* a bad configuration: refused, and only the last error says so */
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(0, 32), args), cudaErrorInvalidConfiguration);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidConfiguration);
    /* 3 teams of 32 cooks over 64 elements: the third team reads past a's end */
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(3, 32), args), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    assert_int_equal(cudaMemcpy(back, c, sizeof back, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress); /* sticky */
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    host_runtime_end(&st);
    assert_int_equal(st.kernel_faulted, 1);
    assert_int_equal(st.cause, CHEF_CAUSE_OUT_OF_BOUNDS);
    assert_int_equal(st.leaked, 3);
    assert_string_equal(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
    assert_string_equal(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
    /* the launch planned to fail */
    host_runtime_begin(HOST_FAULT_LAUNCH, 1);
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(1, 1), args), cudaErrorLaunchOutOfResources);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaErrorLaunchOutOfResources);
    host_runtime_end(&st);
    assert_int_equal(st.injected, 1);
    assert_int_equal(st.calls[HOST_FAULT_LAUNCH], 1);
}

/* Events time what lies between them. */
static void test_events(void **state)
{
    (void)state;
    cudaEvent_t start, stop;
    float ms = -1;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaEventCreate(&start), cudaSuccess);
    assert_int_equal(cudaEventCreate(&stop), cudaSuccess);
    assert_int_equal(cudaEventRecord(start), cudaSuccess);
    assert_int_equal(cudaEventRecord(stop, 0), cudaSuccess);
    assert_int_equal(cudaEventSynchronize(stop), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    assert_true(ms >= 0 && ms < 1000);
    assert_int_equal(cudaEventDestroy(start), cudaSuccess);
    assert_int_equal(cudaEventDestroy(stop), cudaSuccess);
}

/* Lesson 7's rules: an event recorded while a launch is in flight is reached only once the head
   chef waits (cudaEventSynchronize, cudaDeviceSynchronize, a cudaMemcpy); before that the elapsed
   time is refused with cudaErrorNotReady and left unwritten; each time given is kept with what its
   span held (launches, copies, a warm-up before it); an event never recorded is refused. */
static void test_events_wait_for_the_kitchen(void **state)
{
    (void)state;
    host_runtime_stats st;
    float h[64], *a = NULL, *b = NULL, *c = NULL, ms = -1;
    cudaEvent_t start, stop, never;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    host_vector_add_ready(h, sizeof h, &a, &b, &c);
    assert_int_equal(cudaEventCreate(&start), cudaSuccess);
    assert_int_equal(cudaEventCreate(&stop), cudaSuccess);
    assert_int_equal(cudaEventCreate(&never), cudaSuccess);
    void *args[] = {&a, &b, &c};
    /* no warm-up: the first launch between the marks, and the stop mark not waited for */
    assert_int_equal(cudaEventRecord(start, 0), cudaSuccess);
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(2, 32), args), cudaSuccess);
    assert_int_equal(cudaEventRecord(stop, 0), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaErrorNotReady);
    assert_true(ms == -1); /* unwritten */
    assert_int_equal(cudaGetLastError(), cudaErrorNotReady);
    assert_int_equal(cudaEventElapsedTime(&ms, start, never), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaEventSynchronize(stop), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    assert_true(ms >= 0);
    /* warmed up now; a copy inside the span, and the copy is what waits for the launch */
    assert_int_equal(cudaEventRecord(start, 0), cudaSuccess);
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(2, 32), args), cudaSuccess);
    assert_int_equal(cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaEventRecord(stop, 0), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaSuccess); /* nothing in flight at stop */
    /* cudaDeviceSynchronize reaches every mark before it */
    assert_int_equal(cudaEventRecord(start, 0), cudaSuccess);
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(2, 32), args), cudaSuccess);
    assert_int_equal(cudaEventRecord(stop, 0), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    for (cudaEvent_t *e = (cudaEvent_t[]){start, stop, never}, *end = e + 3; e < end; e++)
        assert_int_equal(cudaEventDestroy(*e), cudaSuccess);
    cudaFree(a), cudaFree(b), cudaFree(c);
    host_runtime_end(&st);
    assert_int_equal(st.not_ready, 1);
    assert_int_equal(st.ntimings, 3);
    assert_int_equal(st.timings[0].launches, 1);
    assert_int_equal(st.timings[0].copies, 0);
    assert_int_equal(st.timings[0].warm, 0);
    assert_int_equal(st.timings[1].launches, 1);
    assert_int_equal(st.timings[1].copies, 1);
    assert_int_equal(st.timings[1].warm, 1);
    assert_int_equal(st.timings[2].copies, 0);
    assert_int_equal(st.timings[2].warm, 1);
    assert_true(memcmp(&st.timings[2].ms, &ms, sizeof ms) == 0); /* the time given, bit for bit */
}

/* Lesson 8's record: launches that went out, bytes copied into the kitchen and back (a copy
   within the kitchen, or within the head chef's memory, is neither); a refused launch or copy
   is not counted. */
static void test_shipments_counted(void **state)
{
    (void)state;
    host_runtime_stats st;
    float h[16] = {0}, g[16], *a = NULL, *b = NULL;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&a, sizeof h), cudaSuccess);
    assert_int_equal(cudaMalloc(&b, sizeof h), cudaSuccess);
    assert_int_equal(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(b, a, sizeof h, cudaMemcpyDeviceToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(g, b, 8, cudaMemcpyDefault), cudaSuccess);
    assert_int_equal(cudaMemcpy(a, h, sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue); /* refused */
    void *args[] = {&a, &a, &b};
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(1, 16), args), cudaSuccess);
    assert_int_equal(emu_cuda_launch("vector_add_unchecked", EMU_CONFIG(0, 16), args), cudaErrorInvalidConfiguration);
    cudaFree(a), cudaFree(b);
    host_runtime_end(&st);
    assert_int_equal(st.bytes_in, sizeof h);
    assert_int_equal(st.bytes_out, 8);
    assert_int_equal(st.copies, 4);
    assert_int_equal(st.launches, 1);
}

/* Lesson 9's cuBLAS: column-major as cuBLAS (B before A gives row-major A x B, A before B gives
   B x A), its arguments refused with its statuses, beta = 0 not reading C, a matrix outside the
   pantry a kernel's fault, and the record: calls, refusals, handles left, the first call's first
   matrix's source. */
static void test_cublas(void **state)
{
    (void)state;
    host_runtime_stats st;
    /* row-major 2 x 2: A = [1 2; 3 4], B = [5 6; 7 8]; A x B = [19 22; 43 50], B x A = [23 34; 31 46] */
    float *ha = host_runtime_host_alloc(4 * sizeof(float), "A"), *hb = host_runtime_host_alloc(4 * sizeof(float), "B");
    memcpy(ha, (float[]){1, 2, 3, 4}, 4 * sizeof(float));
    memcpy(hb, (float[]){5, 6, 7, 8}, 4 * sizeof(float));
    float *a = NULL, *b = NULL, *c = NULL, back[4], one = 1, zero = 0;
    cublasHandle_t handle = NULL, kept = NULL;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a, 2, b, 2, &zero, c, 2),
                     CUBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(cublasCreate(&handle), CUBLAS_STATUS_SUCCESS);
    assert_int_equal(cublasCreate(&kept), CUBLAS_STATUS_SUCCESS);
    assert_int_equal(cudaMalloc(&a, 4 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&b, 4 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&c, 4 * sizeof(float)), cudaSuccess); /* NaN: beta = 0 must not read it */
    assert_int_equal(cudaMemcpy(a, ha, 4 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(b, hb, 4 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    /* B first: row-major A x B */
    assert_int_equal(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, b, 2, a, 2, &zero, c, 2),
                     CUBLAS_STATUS_SUCCESS);
    assert_int_equal(cudaMemcpy(back, c, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_true(back[0] == 19 && back[1] == 22 && back[2] == 43 && back[3] == 50);
    /* A first: B x A; beta = 1 adds what C holds */
    assert_int_equal(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a, 2, b, 2, &one, c, 2),
                     CUBLAS_STATUS_SUCCESS);
    assert_int_equal(cudaMemcpy(back, c, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_true(back[0] == 19 + 23 && back[1] == 22 + 34 && back[2] == 43 + 31 && back[3] == 50 + 46);
    /* refused as cuBLAS refuses: a leading dimension below the rows, a negative size, no alpha */
    assert_int_equal(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, b, 1, a, 2, &zero, c, 2),
                     CUBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, b, 2, a, 2, &zero, c, 2),
                     CUBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, NULL, b, 2, a, 2, &zero, c, 2),
                     CUBLAS_STATUS_INVALID_VALUE);
    assert_string_equal(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE");
    assert_int_equal(cublasDestroy(handle), CUBLAS_STATUS_SUCCESS);
    /* a host matrix: launched, and the fault is sticky at the next synchronisation */
    assert_int_equal(cublasSgemm(kept, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, hb, 2, a, 2, &zero, c, 2),
                     CUBLAS_STATUS_SUCCESS);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cudaFree(a), cudaFree(b), cudaFree(c);
    host_runtime_end(&st);
    assert_int_equal(st.library_calls, 2);
    assert_int_equal(st.library_refused, 4);
    assert_int_equal(st.library_status, CUBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(st.handles_left, 1);
    assert_string_equal(st.first_operand, "B");
    assert_int_equal(st.first_transposed, 0);
    assert_int_equal(st.cause, CHEF_CAUSE_OUT_OF_BOUNDS);
    host_runtime_host_free(ha);
    host_runtime_host_free(hb);
}

/* ---- streams, pinned and managed memory ---- */

/* Queues vector_add_unchecked(a, b, c) with teams of 32 on stream, as a launcher of the kit does. */
static cudaError_t queue_add(float *a, float *b, float *c, unsigned teams, cudaStream_t stream)
{
    void *args[] = {&a, &b, &c};
    const size_t sizes[] = {sizeof a, sizeof b, sizeof c};
    return emu_cuda_launch_queued("vector_add_unchecked", EMU_CONFIG(teams, 32, 0, stream), args, sizes, 3);
}

/* A launch waits in its queue until something waits for it: the results are not there before
   (stale, as a GPU may show them), cudaStreamQuery says not ready, and cudaDeviceSynchronize or a
   blocking cudaMemcpy runs it; the arguments' values are kept when the launch is made. What nothing
   waited for (run by cudaFree, or never) is counted. */
static void test_deferred_work(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *a = NULL, *b = NULL, *c = NULL, h[64], back[64];
    for (int i = 0; i < 64; i++)
        h[i] = (float)i;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&a, sizeof h), cudaSuccess);
    assert_int_equal(cudaMalloc(&b, sizeof h), cudaSuccess);
    assert_int_equal(cudaMalloc(&c, sizeof h), cudaSuccess);
    assert_int_equal(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    float *keep_c = c;
    assert_int_equal(queue_add(a, b, c, 2, 0), cudaSuccess); /* its arguments' values kept */
    assert_true(isnan(keep_c[5])); /* queued, not run */
    assert_int_equal(cudaStreamQuery(0), cudaErrorNotReady);
    assert_int_equal(cudaGetLastError(), cudaSuccess); /* not ready is no error */
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_true(keep_c[5] == 10.0f);
    assert_int_equal(cudaStreamQuery(0), cudaSuccess);
    /* a blocking copy waits for the default stream's work */
    assert_int_equal(queue_add(a, a, keep_c, 2, 0), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, keep_c, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_true(back[63] == 126.0f);
    /* queued, then cudaFree: run by the free, never waited for */
    assert_int_equal(queue_add(a, b, keep_c, 2, 0), cudaSuccess);
    assert_int_equal(cudaFree(a), cudaSuccess);
    /* a bad configuration is refused when made; a fault shows at the synchronisation */
    assert_int_equal(queue_add(b, b, keep_c, 0, 0), cudaErrorInvalidConfiguration);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidConfiguration);
    assert_int_equal(queue_add(b, b, keep_c, 3, 0), cudaSuccess); /* 96 cooks over 64 elements */
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    host_runtime_end(&st);
    assert_int_equal(st.unwaited, 1);
    assert_int_equal(st.kernel_faulted, 1);
    assert_int_equal(st.default_launches, 4);
    /* work still queued at the end never runs */
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMalloc(&a, sizeof h), cudaSuccess);
    assert_int_equal(queue_add(a, a, a, 1, 0), cudaSuccess);
    assert_int_equal(queue_add(a, a, a, 1, 0), cudaSuccess);
    host_runtime_end(&st);
    assert_int_equal(st.unwaited, 2);
    assert_int_equal(st.leaked, 1);
}

/* Events and the queues together: recording an event runs the work queued before it (its time is
   after it), yet the event is reached only once the head chef waits, as lesson 7 asks; a stream's
   own cudaStreamSynchronize does not wait for the default stream's mark, the default stream's does.
   Launches and copies are counted when they are made, queued or not, so a span holds what was
   asked between its marks. */
static void test_events_and_queues(void **state)
{
    (void)state;
    host_runtime_stats st;
    float h[64], *a = NULL, *b = NULL, *c = NULL, *pinned = NULL, ms = -1;
    cudaEvent_t start, stop;
    cudaStream_t s;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    host_vector_add_ready(h, sizeof h, &a, &b, &c);
    assert_int_equal(cudaMallocHost(&pinned, sizeof h), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaEventCreate(&start), cudaSuccess);
    assert_int_equal(cudaEventCreate(&stop), cudaSuccess);
    assert_int_equal(queue_add(a, b, c, 2, 0), cudaSuccess); /* a warm-up, queued */
    assert_int_equal(cudaEventRecord(start, 0), cudaSuccess); /* runs it, but it was in flight */
    assert_false(isnan(c[5]));
    assert_int_equal(queue_add(a, b, c, 2, s), cudaSuccess);
    assert_int_equal(cudaEventRecord(stop, 0), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaErrorNotReady);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess); /* not the default stream's marks */
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaErrorNotReady);
    assert_int_equal(cudaStreamSynchronize(0), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    /* a queued copy is counted when asked for, and is in flight until waited for */
    assert_int_equal(cudaEventRecord(start, 0), cudaSuccess);
    assert_int_equal(cudaMemcpyAsync(pinned, c, sizeof h, cudaMemcpyDeviceToHost, s), cudaSuccess);
    assert_int_equal(cudaEventRecord(stop, 0), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaErrorNotReady);
    assert_int_equal(cudaEventSynchronize(stop), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    assert_true(pinned[5] == 10.0f); /* the mark came after the copy: it ran */
    assert_int_equal(cudaEventDestroy(start), cudaSuccess);
    assert_int_equal(cudaEventDestroy(stop), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
    assert_int_equal(cudaFreeHost(pinned), cudaSuccess);
    cudaFree(a), cudaFree(b), cudaFree(c);
    host_runtime_end(&st);
    assert_int_equal(st.not_ready, 3);
    assert_int_equal(st.launches, 2);
    assert_int_equal(st.ntimings, 2);
    assert_int_equal(st.timings[0].launches, 1);
    assert_int_equal(st.timings[0].warm, 1);
    assert_int_equal(st.timings[1].launches, 0);
    assert_int_equal(st.timings[1].copies, 1);
    assert_int_equal(st.bytes_out, sizeof h);
    assert_int_equal(st.unwaited, 0);
    assert_int_equal(st.leaked, 0);
}

/* Streams: each queue runs on its own when waited for; the legacy default stream waits for the
   blocking streams' earlier work, and they wait for its; a non-blocking stream waits for no one.
   A destroyed stream is no handle any more. */
static void test_streams(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *a = NULL, *c1 = NULL, *c2 = NULL, *c3 = NULL;
    cudaStream_t s1, s2, free_one;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaStreamCreate(&s1), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s2), cudaSuccess);
    assert_int_equal(cudaStreamCreateWithFlags(&free_one, cudaStreamNonBlocking), cudaSuccess);
    assert_int_equal(cudaMalloc(&a, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&c1, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&c2, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&c3, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemset(a, 0, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(queue_add(a, a, c1, 2, s1), cudaSuccess);
    assert_int_equal(queue_add(a, a, c2, 2, s2), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s2), cudaSuccess);
    assert_true(c2[0] == 0.0f);
    assert_true(isnan(c1[0])); /* s1 was not waited for */
    assert_int_equal(cudaStreamQuery(s1), cudaErrorNotReady);
    assert_int_equal(cudaStreamSynchronize(s1), cudaSuccess);
    assert_true(c1[0] == 0.0f);
    /* s1's work after the default stream's waits for it, and that waits for s2's before it */
    assert_int_equal(queue_add(a, a, c3, 2, free_one), cudaSuccess);
    assert_int_equal(cudaMemset(c1, 0xFF, 64 * sizeof(float)), cudaSuccess); /* NaN again (a blocking call) */
    assert_int_equal(queue_add(a, a, c2, 2, s2), cudaSuccess);
    assert_int_equal(cudaMemset(c2, 0xFF, 64 * sizeof(float)), cudaSuccess); /* ran s2's work first */
    assert_true(isnan(c2[0]));
    assert_true(isnan(c3[0])); /* the non-blocking stream waited for no one */
    assert_int_equal(queue_add(a, a, c1, 2, 0), cudaSuccess);  /* default */
    assert_int_equal(queue_add(c1, a, c2, 2, s1), cudaSuccess); /* after the default's */
    assert_int_equal(cudaStreamSynchronize(s1), cudaSuccess);
    assert_true(c1[0] == 0.0f && c2[0] == 0.0f);
    assert_true(isnan(c3[0]));
    assert_int_equal(cudaStreamSynchronize(free_one), cudaSuccess);
    assert_true(c3[0] == 0.0f);
    assert_int_equal(cudaStreamDestroy(s1), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s1), cudaErrorInvalidResourceHandle);
    assert_int_equal(queue_add(a, a, c1, 1, s1), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaStreamDestroy((cudaStream_t)(void *)&st), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(a), cudaFree(c1), cudaFree(c2), cudaFree(c3);
    host_runtime_end(&st);
    assert_int_equal(st.launch_streams, 3);
    assert_int_equal(st.default_launches, 1);
    assert_int_equal(st.unwaited, 0);
    assert_int_equal(st.leaked, 0);
}

/* Pinned memory: an async copy from it is queued (its destination unchanged until waited for);
   from pageable memory it runs at once and is counted. Pinned memory is an allocation: planned to
   fail, counted, a leak when kept; cudaFreeHost takes only what cudaMallocHost gave. */
static void test_pinned_and_pageable(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *pin = NULL, *d = NULL, page[16];
    cudaStream_t s;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaMallocHost(&pin, 16 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&d, 16 * sizeof(float)), cudaSuccess);
    for (int i = 0; i < 16; i++)
        pin[i] = page[i] = 2.0f;
    assert_int_equal(cudaMemcpyAsync(d, pin, 16 * sizeof(float), cudaMemcpyHostToDevice, s), cudaSuccess);
    assert_true(isnan(d[0])); /* queued */
    assert_int_equal(cudaMemcpyAsync(pin, d, 16 * sizeof(float), cudaMemcpyHostToDevice, s), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue); /* the kind checked when made */
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_true(d[0] == 2.0f);
    page[0] = 7.0f;
    assert_int_equal(cudaMemcpyAsync(d, page, sizeof(float), cudaMemcpyHostToDevice, s), cudaSuccess);
    assert_true(d[0] == 7.0f); /* pageable: at once */
    assert_int_equal(cudaMemcpyAsync(page, d, sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaFreeHost(page), cudaErrorInvalidValue);
    assert_int_equal(cudaFreeHost(pin), cudaSuccess);
    assert_int_equal(cudaFreeHost(pin), cudaErrorInvalidValue);
    assert_int_equal(cudaMallocHost(&pin, 100), cudaSuccess); /* kept: a leak */
    cudaFree(d);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
    host_runtime_end(&st);
    assert_int_equal(st.pageable_copies, 2);
    assert_int_equal(st.copy_streams, 1);
    assert_int_equal(st.calls[HOST_FAULT_ALLOC], 3);
    assert_int_equal(st.leaked, 1);
    assert_int_equal(st.leaked_bytes, 100);
    host_runtime_begin(HOST_FAULT_ALLOC, 1);
    assert_int_equal(cudaMallocHost(&pin, 100), cudaErrorMemoryAllocation);
    assert_null(pin);
    host_runtime_end(&st);
    assert_int_equal(st.injected, 1);
    assert_int_equal(st.leaked, 0);
}

/* Managed memory: host-visible, poisoned, freed by cudaFree; a launch counts as page faults the
   pages of its managed buffers not on the device, none after a prefetch there, those a prefetch
   sent to the host apart; prefetches are queued, checked against managed memory and the device. */
static void test_managed(void **state)
{
    (void)state;
    host_runtime_stats st;
    float *a = NULL, *c = NULL, *d = NULL;
    size_t n = 3000, bytes = n * sizeof(float); /* 12000 bytes: 3 pages of 4 KiB */
    int dev = -1;
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaGetDevice(&dev), cudaSuccess);
    assert_int_equal(dev, 0);
    assert_int_equal(cudaMallocManaged(&a, bytes), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&c, bytes, cudaMemAttachGlobal), cudaSuccess);
    assert_int_equal(cudaMalloc(&d, bytes), cudaSuccess);
    assert_true(isnan(c[0]));
    for (size_t i = 0; i < n; i++)
        a[i] = 1.0f; /* the head chef writes it directly */
    struct cudaMemLocation kitchen = {cudaMemLocationTypeDevice, dev}, chef = {cudaMemLocationTypeHost, 0};
    struct cudaMemLocation elsewhere = {cudaMemLocationTypeDevice, 1};
    assert_int_equal(cudaMemPrefetchAsync(a, bytes, kitchen, 0, 0), cudaSuccess);
    assert_int_equal(cudaMemPrefetchAsync(c, bytes / 2, kitchen, 0, 0), cudaSuccess); /* pages 0 and 1 */
    assert_int_equal(cudaMemPrefetchAsync(d, bytes, kitchen, 0, 0), cudaErrorInvalidValue);
    assert_int_equal(cudaMemPrefetchAsync(a, bytes + 1, kitchen, 0, 0), cudaErrorInvalidValue);
    assert_int_equal(cudaMemPrefetchAsync(a, bytes, elsewhere, 0, 0), cudaErrorInvalidDevice);
    assert_int_equal(cudaMemPrefetchAsync(a, bytes, kitchen, 1, 0), cudaErrorInvalidValue);
    assert_int_equal(queue_add(a, a, c, 94, 0), cudaSuccess); /* 3008 cooks: c's third page faults */
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress); /* past n: the checked build */
    host_runtime_end(&st);
    assert_int_equal(st.page_faults, 1);
    assert_int_equal(st.page_faults_host, 0);
    assert_int_equal(st.managed_args, 3);
    assert_int_equal(st.leaked, 3);
    /* nothing prefetched: every page faults; sent to the host: counted apart; the next launch finds
       them on the device */
    host_runtime_begin(HOST_FAULT_NONE, 0);
    assert_int_equal(cudaMallocManaged(&a, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&c, 64 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&d, 64 * sizeof(float)), cudaSuccess);
    for (int i = 0; i < 64; i++)
        a[i] = (float)i;
    assert_int_equal(cudaMemPrefetchAsync(c, 64 * sizeof(float), chef, 0, 0), cudaSuccess);
    assert_int_equal(queue_add(a, a, c, 2, 0), cudaSuccess);
    assert_true(isnan(c[3])); /* read before waiting: stale */
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_true(c[3] == 6.0f);
    assert_int_equal(queue_add(a, a, c, 2, 0), cudaSuccess);
    assert_int_equal(queue_add(a, a, d, 2, 0), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaFree(a), cudaSuccess);
    assert_int_equal(cudaFree(c), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaSuccess);
    host_runtime_end(&st);
    assert_int_equal(st.page_faults, 2);
    assert_int_equal(st.page_faults_host, 1);
    assert_int_equal(st.unmanaged_args, 1);
    assert_int_equal(st.managed_args, 8);
    assert_int_equal(st.leaked, 0);
    assert_int_equal(st.unwaited, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_and_leaks), cmocka_unit_test(test_copies_checked),
        cmocka_unit_test(test_planned_faults),  cmocka_unit_test(test_launches),
        cmocka_unit_test(test_events),          cmocka_unit_test(test_events_wait_for_the_kitchen),
        cmocka_unit_test(test_shipments_counted), cmocka_unit_test(test_cublas),
        cmocka_unit_test(test_deferred_work),   cmocka_unit_test(test_events_and_queues),
        cmocka_unit_test(test_streams),         cmocka_unit_test(test_pinned_and_pageable),
        cmocka_unit_test(test_managed),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
