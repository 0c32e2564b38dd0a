/*
 * test_emu.c - unit tests of the CPU emulator (src/emu/).
 *
 * Covers: threadIdx/blockIdx/blockDim/gridDim in 1D, 2D and 3D; shared memory and __syncthreads()
 * (with and without shuffled cook orders, and a missing barrier that the shuffle exposes); shared
 * memory being per block; atomics; the kernels of kernels/ (vector_add, matmul_tiled) against CPU
 * results; faults (divergent barriers, out-of-bounds accesses in both builds, invalid launch
 * configurations) and recovery after them; the block and cook trace. The kernels used only here
 * are in tests/kernels/test_kernels.cu.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu.h"
#include "kit/emu_half.h"
#include "kit/emu_prep.h"
#include "base/cancel.h"
#include "base/trace.h"
#include "test_pace.h"

/* The tables of tests/kernels/test_kernels.def (only their addresses are used). */
extern const char test_kernels_fast[], test_kernels_checked[];
void emu_kernels_register(const void *fast_rows, const void *checked_rows);

/* The emulator's SIGSEGV/SIGBUS handlers, saved in the group setup: cmocka installs its own
   handlers around every test, and the emulator installs its handlers only once per process. */
static struct sigaction emu_segv_action, emu_bus_action;
static int emu_actions_saved;

/* Builds an emu_dim3. */
static emu_dim3 dim3_of(unsigned x, unsigned y, unsigned z)
{
    emu_dim3 d = {x, y, z};
    return d;
}

/* Finds a kernel by name and fails the test if it is not compiled in. */
static const emu_kernel *kernel_named(const char *name)
{
    const emu_kernel *k = emu_kernel_find(name);
    assert_non_null(k);
    return k;
}

/* Puts the emulator's signal handlers back (cmocka replaced them for the running test). */
static void restore_emu_signals(void)
{
    if (emu_actions_saved) {
        sigaction(SIGSEGV, &emu_segv_action, NULL);
        sigaction(SIGBUS, &emu_bus_action, NULL);
    }
}

/* Launches kernel name with the given options (the emulator's signal handlers put back first). */
static emu_status launch(const char *name, emu_dim3 grid, emu_dim3 block, void **args, int workers,
                         int checked, uint64_t seed, emu_fault *fault)
{
    restore_emu_signals();
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = workers;
    opt.checked = checked;
    opt.shuffle_seed = seed;
    return emu_launch(kernel_named(name), grid, block, args, &opt, fault);
}

/* Launches and fails the test, printing the emulator's message, unless the launch succeeds. */
static void launch_ok(const char *name, emu_dim3 grid, emu_dim3 block, void **args, int workers, int checked,
                      uint64_t seed)
{
    emu_fault fault;
    emu_status s = launch(name, grid, block, args, workers, checked, seed, &fault);
    if (s != EMU_OK)
        print_error("%s: status %d: %s\n", name, (int)s, fault.message);
    assert_int_equal(s, EMU_OK);
}

/* emu_malloc that fails the test when it returns NULL. */
static void *device_alloc(size_t count, size_t elem_size, const char *label)
{
    void *p = emu_malloc(count * elem_size, label, elem_size);
    assert_non_null(p);
    return p;
}

/* A distinct, irregular int for element i (so a wrong element never matches by chance). */
static int pattern(size_t i)
{
    return (int)((i * 2654435761u) % 1000003u) + 1;
}

/* Registers the test kernels and saves the signal handlers the emulator installs at its first launch. */
static int group_setup(void **state)
{
    (void)state;
    emu_kernels_register(test_kernels_fast, test_kernels_checked);
    int *out = emu_malloc(sizeof(int), "out", sizeof(int));
    if (!out)
        return -1;
    void *args[] = {&out};
    emu_fault fault;
    emu_status s =
        emu_launch(emu_kernel_find("write_index_3d"), dim3_of(1, 1, 1), dim3_of(1, 1, 1), args, NULL, &fault);
    emu_free(out);
    if (s != EMU_OK)
        return -1;
    sigaction(SIGSEGV, NULL, &emu_segv_action);
    sigaction(SIGBUS, NULL, &emu_bus_action);
    emu_actions_saved = 1;
    return 0;
}

/* --- indexing --- */

/* Grids and blocks in 1D, 2D and 3D used by the indexing tests. */
static const struct {
    emu_dim3 grid, block;
} index_shapes[] = {
    {{3, 2, 2}, {4, 3, 2}}, {{5, 1, 1}, {7, 1, 1}},  {{4, 3, 1}, {8, 4, 1}},
    {{1, 1, 1}, {1, 1, 1}}, {{2, 3, 4}, {1, 1, 64}}, {{7, 1, 1}, {1024, 1, 1}},
};
#define NSHAPES (sizeof index_shapes / sizeof index_shapes[0])

/* One cook's threadIdx and blockIdx. */
typedef struct cook_coords {
    unsigned tx, ty, tz, bx, by, bz;
} cook_coords;

/* Every cook of grid g x block b in global-index order (threadIdx.x fastest ... blockIdx.z last). */
static cook_coords *all_cooks(emu_dim3 g, emu_dim3 b, size_t *total)
{
    *total = (size_t)g.x * g.y * g.z * b.x * b.y * b.z;
    cook_coords *c = malloc(*total * sizeof *c);
    assert_non_null(c);
    size_t i = 0;
    for (unsigned bz = 0; bz < g.z; bz++)
        for (unsigned by = 0; by < g.y; by++)
            for (unsigned bx = 0; bx < g.x; bx++)
                for (unsigned tz = 0; tz < b.z; tz++)
                    for (unsigned ty = 0; ty < b.y; ty++)
                        for (unsigned tx = 0; tx < b.x; tx++)
                            c[i++] = (cook_coords){tx, ty, tz, bx, by, bz};
    return c;
}

/* write_index_3d: every cook writes its encoded threadIdx and blockIdx.x at its global index. */
static void test_index_write_index_3d(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        emu_dim3 g = index_shapes[s].grid, b = index_shapes[s].block;
        size_t total;
        cook_coords *c = all_cooks(g, b, &total);
        int *out = device_alloc(total, sizeof(int), "out");
        for (int workers = 1; workers <= 2; workers++) {
            memset(out, 0xFF, total * sizeof(int));
            void *args[] = {&out};
            launch_ok("write_index_3d", g, b, args, workers, 0, 0);
            for (size_t i = 0; i < total; i++)
                assert_int_equal(out[i], (int)(c[i].tx | c[i].ty << 8 | c[i].tz << 16 | c[i].bx << 24));
        }
        emu_free(out);
        free(c);
    }
}

/* write_coords: threadIdx, blockIdx, blockDim and gridDim as each cook sees them, in 1D/2D/3D. */
static void test_index_coords_and_dims(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        emu_dim3 g = index_shapes[s].grid, b = index_shapes[s].block;
        size_t total;
        cook_coords *c = all_cooks(g, b, &total);
        int *out = device_alloc(12 * total, sizeof(int), "out");
        for (int run = 0; run < 3; run++) {
            memset(out, 0xFF, 12 * total * sizeof(int));
            void *args[] = {&out};
            launch_ok("write_coords", g, b, args, run == 0 ? 1 : 2, 0, run == 2 ? 7 : 0);
            for (size_t i = 0; i < total; i++) {
                int want[12] = {(int)c[i].tx, (int)c[i].ty, (int)c[i].tz, (int)c[i].bx,
                                (int)c[i].by, (int)c[i].bz, (int)b.x,     (int)b.y,
                                (int)b.z,     (int)g.x,     (int)g.y,     (int)g.z};
                assert_memory_equal(out + 12 * i, want, sizeof want);
            }
        }
        emu_free(out);
        free(c);
    }
}

/* coords_after_barrier: a cook resumed after __syncthreads() still has its own threadIdx/blockIdx. */
static void test_index_after_barrier(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {0, 1, 99};
    for (size_t s = 0; s < NSHAPES; s++) {
        emu_dim3 g = index_shapes[s].grid, b = index_shapes[s].block;
        size_t total;
        cook_coords *c = all_cooks(g, b, &total);
        int *out = device_alloc(7 * total, sizeof(int), "out");
        for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
            memset(out, 0xFF, 7 * total * sizeof(int));
            void *args[] = {&out};
            launch_ok("coords_after_barrier", g, b, args, 2, 0, seeds[k]);
            for (size_t i = 0; i < total; i++) {
                int linear = (int)(c[i].tx + b.x * (c[i].ty + b.y * c[i].tz));
                int want[7] = {(int)c[i].tx, (int)c[i].ty, (int)c[i].tz, (int)c[i].bx,
                               (int)c[i].by, (int)c[i].bz, linear};
                assert_memory_equal(out + 7 * i, want, sizeof want);
            }
        }
        emu_free(out);
        free(c);
    }
}

/* --- shared memory and barriers --- */

/* Runs a reversal kernel on nblocks x bs cooks; returns how many elements differ from the reversal. */
static size_t run_reverse(const char *name, unsigned nblocks, unsigned bs, int workers, uint64_t seed)
{
    size_t n = (size_t)nblocks * bs;
    int *in = device_alloc(n, sizeof(int), "in");
    int *out = device_alloc(n, sizeof(int), "out");
    for (size_t i = 0; i < n; i++)
        in[i] = pattern(i + 17 * seed);
    memset(out, 0xFF, n * sizeof(int));
    void *args[] = {&in, &out};
    launch_ok(name, dim3_of(nblocks, 1, 1), dim3_of(bs, 1, 1), args, workers, 0, seed);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        size_t block = i / bs, t = i % bs;
        if (out[i] != in[block * bs + (bs - 1 - t)])
            wrong++;
    }
    emu_free(in);
    emu_free(out);
    return wrong;
}

/* reverse_block: correct for several block sizes, worker counts and shuffle seeds. */
static void test_shared_reverse(void **state)
{
    (void)state;
    static const unsigned sizes[] = {1, 2, 32, 100, 256, 1024};
    static const uint64_t seeds[] = {0, 1, 2, 3, 12345, 0xDEADBEEFCAFEull};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++)
            for (int workers = 1; workers <= 2; workers++)
                assert_int_equal(run_reverse("reverse_block", 5, sizes[s], workers, seeds[k]), 0);
}

/* reverse_block_racy (no barrier): a shuffled order gives wrong results for at least one seed. */
static void test_shared_reverse_without_barrier(void **state)
{
    (void)state;
    size_t wrong_runs = 0;
    for (uint64_t seed = 1; seed <= 5; seed++)
        if (run_reverse("reverse_block_racy", 4, 256, 1, seed) != 0)
            wrong_runs++;
    assert_true(wrong_runs >= 1);
}

/* Runs shift_racy over 4 blocks of 256 cooks; returns how many elements differ from the shift. */
static size_t run_shift(int workers, uint64_t seed)
{
    size_t n = 4 * 256;
    int *in = device_alloc(n, sizeof(int), "in");
    int *out = device_alloc(n, sizeof(int), "out");
    for (size_t i = 0; i < n; i++)
        in[i] = pattern(i + 1000 * seed);
    memset(out, 0xFF, n * sizeof(int));
    void *args[] = {&in, &out};
    launch_ok("shift_racy", dim3_of(4, 1, 1), dim3_of(256, 1, 1), args, workers, 0, seed);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        if (out[i] != (i % 256 ? in[i - 1] : in[i]))
            wrong++;
    emu_free(in);
    emu_free(out);
    return wrong;
}

/* shift_racy: right in the plain index order, wrong under a shuffle (that is what the shuffle is for). */
static void test_shared_race_shown_by_shuffle(void **state)
{
    (void)state;
    assert_int_equal(run_shift(1, 0), 0);
    assert_int_equal(run_shift(2, 0), 0);
    size_t wrong_runs = 0;
    for (uint64_t seed = 1; seed <= 5; seed++)
        if (run_shift(1, seed) != 0)
            wrong_runs++;
    assert_true(wrong_runs >= 1);
}

/* block_sum_meeting: two blocks alive at once on two workers each sum their own shared array. */
static void test_shared_per_block(void **state)
{
    (void)state;
    const unsigned bs = 256;
    int *in = device_alloc(2 * bs, sizeof(int), "in");
    int *out = device_alloc(4, sizeof(int), "out");
    int *arrived = device_alloc(1, sizeof(int), "arrived");
    for (uint64_t seed = 0; seed <= 1; seed++) {
        long want[2] = {0, 0};
        for (unsigned i = 0; i < 2 * bs; i++) {
            in[i] = i < bs ? (int)i + 1 : 1000 * ((int)i + 1);
            want[i / bs] += in[i];
        }
        memset(out, 0xFF, 4 * sizeof(int));
        *arrived = 0;
        void *args[] = {&in, &out, &arrived};
        launch_ok("block_sum_meeting", dim3_of(2, 1, 1), dim3_of(bs, 1, 1), args, 2, 0, seed);
        assert_int_equal(out[2], 1); /* block 0 saw block 1 arrive while its own array was filled */
        assert_int_equal(out[3], 1);
        assert_int_equal(out[0], want[0]);
        assert_int_equal(out[1], want[1]);
    }
    emu_free(in);
    emu_free(out);
    emu_free(arrived);
}

/* --- atomics --- */

/* atomic_counters: 1000 blocks x 256 cooks on 2 workers; int, unsigned, ull, float, double exact. */
static void test_atomic_add(void **state)
{
    (void)state;
    int *ci = device_alloc(1, sizeof *ci, "ci");
    unsigned *cu = device_alloc(1, sizeof *cu, "cu");
    unsigned long long *cull = device_alloc(1, sizeof *cull, "cull");
    float *cf = device_alloc(1, sizeof *cf, "cf");
    double *cd = device_alloc(1, sizeof *cd, "cd");
    *ci = 0;
    *cu = 0;
    *cull = 0;
    *cf = 0.0f;
    *cd = 0.0;
    void *args[] = {&ci, &cu, &cull, &cf, &cd};
    launch_ok("atomic_counters", dim3_of(1000, 1, 1), dim3_of(256, 1, 1), args, 2, 0, 0);
    assert_int_equal(*ci, 256000);
    assert_int_equal(*cu, 256000u);
    assert_int_equal(*cull, 256000ull);
    assert_true(*cf == 256000.0f); /* every partial sum is below 2^24, so float adds of 1 are exact */
    assert_true(*cd == 256000.0);
    emu_free(ci);
    emu_free(cu);
    emu_free(cull);
    emu_free(cf);
    emu_free(cd);
}

/* atomic_max_cas: atomicMax finds the largest index; an atomicCAS loop counts every cook once. */
static void test_atomic_max_cas(void **state)
{
    (void)state;
    int *largest = device_alloc(1, sizeof(int), "largest");
    int *counter = device_alloc(1, sizeof(int), "counter");
    *largest = -1;
    *counter = 0;
    void *args[] = {&largest, &counter};
    launch_ok("atomic_max_cas", dim3_of(1000, 1, 1), dim3_of(256, 1, 1), args, 2, 0, 3);
    assert_int_equal(*largest, 1000 * 256 - 1);
    assert_int_equal(*counter, 1000 * 256);
    emu_free(largest);
    emu_free(counter);
}

/* --- kernels from kernels/ --- */

/* A reproducible value in [-1, 1) for element i of a matrix seeded by seed. */
static float matrix_value(uint32_t i, uint32_t seed)
{
    uint32_t x = i * 747796405u + seed * 2891336453u + 1u;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return (float)(x % 20001u) / 10000.0f - 1.0f;
}

/* matmul_tiled at n = 64 and 100 (not a multiple of the tile) vs a double-precision triple loop. */
static void test_matmul_tiled(void **state)
{
    (void)state;
    static const int sizes[] = {64, 100};
    static const struct {
        int workers, checked;
        uint64_t seed;
    } runs[] = {{1, 0, 0}, {2, 0, 0}, {2, 0, 42}, {1, 0, 7}, {2, 1, 0}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        size_t nn = (size_t)n * n;
        float *A = device_alloc(nn, sizeof(float), "A");
        float *B = device_alloc(nn, sizeof(float), "B");
        float *C = device_alloc(nn, sizeof(float), "C");
        double *ref = malloc(nn * sizeof *ref);
        assert_non_null(ref);
        for (size_t i = 0; i < nn; i++) {
            A[i] = matrix_value((uint32_t)i, 1);
            B[i] = matrix_value((uint32_t)i, 2);
        }
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double sum = 0.0;
                for (int k = 0; k < n; k++)
                    sum += (double)A[r * n + k] * (double)B[k * n + c];
                ref[r * n + c] = sum;
            }
        unsigned tiles = (unsigned)(n + 15) / 16;
        for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
            for (size_t i = 0; i < nn; i++)
                C[i] = NAN;
            void *args[] = {&A, &B, &C, &n};
            launch_ok("matmul_tiled", dim3_of(tiles, tiles, 1), dim3_of(16, 16, 1), args, runs[k].workers,
                      runs[k].checked, runs[k].seed);
            for (size_t i = 0; i < nn; i++) {
                double tol = 1e-4 * fabs(ref[i]) + 1e-5;
                if (!(fabs((double)C[i] - ref[i]) <= tol))
                    print_error("n=%d run %zu: C[%zu] = %.9g, expected %.9g\n", n, k, i, (double)C[i],
                                ref[i]);
                assert_true(fabs((double)C[i] - ref[i]) <= tol);
            }
        }
        free(ref);
        emu_free(A);
        emu_free(B);
        emu_free(C);
    }
}

/* Runs vector_add on a[i] = i, b[i] = 2i and checks c[i] == 3i exactly (all values exact in float). */
static void check_vector_add(int n, int workers, int checked)
{
    float *a = device_alloc((size_t)n, sizeof(float), "a");
    float *b = device_alloc((size_t)n, sizeof(float), "b");
    float *c = device_alloc((size_t)n, sizeof(float), "c");
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
        c[i] = -1.0f;
    }
    void *args[] = {&a, &b, &c, &n};
    unsigned blocks = (unsigned)(n + 255) / 256;
    launch_ok("vector_add", dim3_of(blocks, 1, 1), dim3_of(256, 1, 1), args, workers, checked, 0);
    for (int i = 0; i < n; i++)
        if (c[i] != (float)(3 * i)) {
            print_error("n=%d: c[%d] = %g, expected %d\n", n, i, (double)c[i], 3 * i);
            fail();
        }
    emu_free(a);
    emu_free(b);
    emu_free(c);
}

/* vector_add at n = 1, 255, 256, 257 and 1,000,000 with 256 cooks per team: every element exact. */
static void test_vector_add_sizes(void **state)
{
    (void)state;
    static const int sizes[] = {1, 255, 256, 257, 1000000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        check_vector_add(sizes[s], 2, 0);
        check_vector_add(sizes[s], 1, 0);
    }
    check_vector_add(257, 2, 1);
    check_vector_add(1, 1, 1);
}

/* --- barrier faults --- */

/* barrier_divergent: half of block 2 waits at a barrier the other half skips -> EMU_FAULT_BARRIER. */
static void test_barrier_divergent(void **state)
{
    (void)state;
    int *line = device_alloc(1, sizeof(int), "line");
    for (int workers = 1; workers <= 2; workers++) {
        *line = 0;
        void *args[] = {&line};
        emu_fault fault;
        emu_status s =
            launch("barrier_divergent", dim3_of(4, 1, 1), dim3_of(32, 1, 1), args, workers, 0, 0, &fault);
        assert_int_equal(s, EMU_FAULT_BARRIER);
        assert_int_equal(fault.status, EMU_FAULT_BARRIER);
        assert_true(*line > 0);
        assert_int_equal(fault.block.x, 2);
        assert_int_equal(fault.block.y, 0);
        assert_int_equal(fault.block.z, 0);
        assert_in_range(fault.thread.x, 16, 31); /* a cook that never reached the barrier */
        char want[64];
        snprintf(want, sizeof want, "line %d", *line);
        if (!strstr(fault.message, want))
            print_error("message without \"%s\": %s\n", want, fault.message);
        assert_non_null(strstr(fault.message, want));
        snprintf(want, sizeof want, "cook %u ", fault.thread.x);
        if (!strstr(fault.message, want))
            print_error("message without \"%s\": %s\n", want, fault.message);
        assert_non_null(strstr(fault.message, want));
        /* the emulator recovers: a kernel with barriers runs correctly right after */
        assert_int_equal(run_reverse("reverse_block", 3, 64, workers, 0), 0);
    }
    emu_free(line);
}

/* Every warp primitive, in two full warps, unchecked, checked and shuffled: results as the hardware
   defines them (docs/EMULATOR.md). */
static void test_warp_primitives(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        int *out = device_alloc(64 * 8, sizeof(int), "out");
        void *args[] = {&out};
        launch_ok("warp_primitives", dim3_of(1, 1, 1), dim3_of(64, 1, 1), args, 1, mode == 1, mode == 2 ? 7 : 0);
        unsigned ballot = 0;
        for (int l = 0; l < 32; l++)
            if (l % 3 == 0)
                ballot |= 1u << l;
        for (int t = 0; t < 64; t++) {
            int lane = t % 32, *o = out + t * 8;
            assert_int_equal(o[0], 30);
            assert_int_equal(o[1], lane == 0 ? 0 : lane - 1);
            assert_int_equal(o[2], lane >= 30 ? lane : lane + 2);
            assert_int_equal(o[3], lane ^ 1);
            assert_int_equal(o[4], (lane % 8) == 7 ? lane : lane + 1);
            assert_int_equal((unsigned)o[5], ballot);
            assert_int_equal(o[6], 101); /* any: yes; all lanes < 31: no; all lanes < 32: yes */
            assert_int_equal((unsigned)o[7], 0xffffffffu);
        }
        emu_free(out);
    }
}

/* A shuffle-down reduction and a butterfly in doubles over 4 teams of 64: exact sums. */
static void test_warp_reduce(void **state)
{
    (void)state;
    float *in = device_alloc(256, sizeof(float), "in"), *sum = device_alloc(1, sizeof(float), "sum");
    double *dsum = device_alloc(1, sizeof(double), "dsum");
    for (int i = 0; i < 256; i++)
        in[i] = (float)(i % 7);
    double want = 0;
    for (int i = 0; i < 256; i++)
        want += in[i];
    for (int workers = 1; workers <= 2; workers++) {
        *sum = 0;
        *dsum = 0;
        void *args[] = {&in, &sum, &dsum};
        launch_ok("warp_reduce", dim3_of(4, 1, 1), dim3_of(64, 1, 1), args, workers, workers == 2, 0);
        assert_true(*sum == (float)want);
        assert_true(*dsum == want);
    }
    emu_free(in);
    emu_free(sum);
    emu_free(dsum);
}

/* Two branches of one warp with their own masks: each __activemask() sees only its branch. */
static void test_warp_divergent(void **state)
{
    (void)state;
    int *out = device_alloc(64, sizeof(int), "out");
    void *args[] = {&out};
    launch_ok("warp_divergent", dim3_of(1, 1, 1), dim3_of(32, 1, 1), args, 1, 0, 3);
    for (int lane = 0; lane < 32; lane++) {
        assert_int_equal((unsigned)out[lane * 2], lane % 2 == 0 ? 0x55555555u : 0xaaaaaaaau);
        assert_int_equal(out[lane * 2 + 1], lane % 2 == 0 ? lane ^ 2 : lane ^ 4);
    }
    emu_free(out);
}

/* __syncwarp() orders shared-memory writes and reads within a warp, in any cook order. */
static void test_warp_syncwarp(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 4; seed++) {
        int *out = device_alloc(64, sizeof(int), "out");
        void *args[] = {&out};
        launch_ok("warp_syncwarp_exchange", dim3_of(1, 1, 1), dim3_of(64, 1, 1), args, 1, 0, seed);
        for (int t = 0; t < 64; t++)
            assert_int_equal(out[t], (t - t % 32 + (t % 32 + 1) % 32) * 3);
        emu_free(out);
    }
}

/* Launches a mistake kernel of one team of 64 and expects EMU_FAULT_WARP with every piece of want. */
static void expect_warp_fault(const char *name, int checked, const char *const *want)
{
    int *out = device_alloc(64, sizeof(int), "out");
    void *args[] = {&out};
    emu_fault fault;
    emu_status s = launch(name, dim3_of(2, 1, 1), dim3_of(64, 1, 1), args, 1, checked, 0, &fault);
    assert_int_equal(s, EMU_FAULT_WARP);
    for (int k = 0; want[k]; k++) {
        if (!strstr(fault.message, want[k]))
            print_error("%s: message without \"%s\": %s\n", name, want[k], fault.message);
        assert_non_null(strstr(fault.message, want[k]));
    }
    emu_free(out);
}

/* Every mask error names the team, the warp and the lanes, and what the missing lanes do. */
static void test_warp_mask_errors(void **state)
{
    (void)state;
    for (int checked = 0; checked < 2; checked++) {
        const char *missing[] = {"team (block) 0, warp 0", "lanes 0-15 wait at __shfl_sync", "0xffffffff",
                                 "lanes 16-31", "finished without reaching it", NULL};
        expect_warp_fault("warp_mask_missing", checked, missing);
        const char *self[] = {"team (block) 0, warp 0: lane 1 calls __shfl_sync", "leaves its own lane out", NULL};
        expect_warp_fault("warp_mask_self", checked, self);
        const char *barrier[] = {"warp 0", "lanes 16-31", "waits at __syncthreads() on line", NULL};
        expect_warp_fault("warp_mask_barrier", checked, barrier);
    }
    /* the emulator goes on cooking correctly after each of them */
    assert_int_equal(run_reverse("reverse_block", 3, 64, 1, 0), 0);
}

/* --- the warp matrix functions (src/kit/emu_wmma.h, src/kit/emu_half.h) --- */

/* A float's bits, and back. */
static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* FP16 as the C compiler's own _Float16 rounds it (IEEE, to the nearest and ties to even), with the
   GPU's one NaN: the reference __float2half is held to. */
static unsigned short half_reference(float f)
{
    if (isnan(f))
        return 0x7fff;
    _Float16 h = (_Float16)f;
    unsigned short b;
    memcpy(&b, &h, sizeof b);
    return b;
}

/* BF16 by distances in double: the nearer of the two neighbours, ties to the even one (past the
   largest, infinity stands where 2^128 would). */
static unsigned short bf16_reference(float f)
{
    if (isnan(f))
        return 0x7fff;
    uint32_t u = bits_of(f), lo = u & 0xffff0000u, hi = lo + 0x10000u;
    if ((u & 0xffffu) == 0)
        return (unsigned short)(u >> 16);
    double dlo = fabs((double)f - (double)float_of(lo));
    double vhi = (hi & 0x7fffffffu) == 0x7f800000u ? copysign(0x1p128, f) : (double)float_of(hi);
    double dhi = fabs(vhi - (double)f);
    uint32_t pick = dlo < dhi ? lo : dhi < dlo ? hi : ((lo >> 16) & 1) ? hi : lo;
    return (unsigned short)(pick >> 16);
}

/* The float conversions round as CUDA's: every tie, subnormal, boundary and special case of FP16
   and BF16 against independent references, then a million random bit patterns; and back exactly. */
static void test_half_conversions(void **state)
{
    (void)state;
    const float special[] = {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 1e9f,
                             0x1p-14f, 0x1p-24f, 0x1p-25f, 0x1.000002p-25f, 0x1.8p-24f, 0x1.8p-23f, 0x1p-26f,
                             1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 1.0f + 0x1p-8f, 1.0f + 0x3p-8f, 0x1.fffffep127f,
                             0x1.ff8p127f, INFINITY, -INFINITY, NAN, -NAN, 0x1p-149f, 0x1.234p-140f};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        float f = special[i];
        if (__float2half(f).__x != half_reference(f) || __float2bfloat16(f).__x != bf16_reference(f))
            print_error("%a: half %04x want %04x, bf16 %04x want %04x\n", (double)f, __float2half(f).__x,
                        half_reference(f), __float2bfloat16(f).__x, bf16_reference(f));
        assert_int_equal(__float2half(f).__x, half_reference(f));
        assert_int_equal(__float2bfloat16(f).__x, bf16_reference(f));
    }
    assert_int_equal(__float2half(1.0f + 0x1p-11f).__x, 0x3c00); /* a tie: to the even 1.0 */
    assert_int_equal(__float2half(1.0f + 0x3p-11f).__x, 0x3c02); /* a tie: to the even 1 + 2^-9 */
    assert_int_equal(__float2half(0x1p-25f).__x, 0x0000);        /* half the least subnormal: to 0 */
    assert_int_equal(__float2half(0x1.8p-24f).__x, 0x0002);      /* 1.5 subnormal steps: to 2 */
    assert_int_equal(__float2half(65520.0f).__x, 0x7c00);        /* past the largest half: infinity */
    assert_int_equal(__float2bfloat16(1.0f + 0x1p-8f).__x, 0x3f80); /* a tie: to the even 1.0 */
    /* under valgrind's memcheck (20-60 times slower) a tenth of the random patterns; make test all */
    const char *tool = getenv("CUDACHEF_TEST_SANITIZER");
    int patterns = tool && strcmp(tool, "valgrind") == 0 ? 100000 : 1000000;
    uint64_t seed = 12345;
    for (int i = 0; i < patterns; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        float f = float_of((uint32_t)(seed >> 32));
        unsigned short h = __float2half(f).__x, b = __float2bfloat16(f).__x;
        if (h != half_reference(f) || b != bf16_reference(f))
            print_error("%a: half %04x want %04x, bf16 %04x want %04x\n", (double)f, h, half_reference(f), b,
                        bf16_reference(f));
        assert_int_equal(h, half_reference(f));
        assert_int_equal(b, bf16_reference(f));
    }
    for (unsigned x = 0; x < 0x10000; x++) { /* every half and bfloat16 back to float, exactly */
        __half h = {(unsigned short)x};
        __nv_bfloat16 b = {(unsigned short)x};
        _Float16 ref;
        memcpy(&ref, &h, sizeof ref);
        float back = __half2float(h);
        if (isnan((float)ref))
            assert_true(isnan(back));
        else
            assert_int_equal(bits_of(back), bits_of((float)ref));
        assert_int_equal(bits_of(__bfloat162float(b)), (uint32_t)x << 16);
    }
    /* TF32: to the nearest, ties away from zero (cvt.rna), infinities and NaN kept */
    assert_int_equal(bits_of(__float_to_tf32(1.0f + 0x1p-11f)), bits_of(1.0f + 0x1p-10f));
    assert_int_equal(bits_of(__float_to_tf32(-1.0f - 0x1p-11f)), bits_of(-1.0f - 0x1p-10f));
    assert_int_equal(bits_of(__float_to_tf32(1.0f + 0x1.fp-12f)), bits_of(1.0f));
    assert_true(isinf(__float_to_tf32(INFINITY)) && isnan(__float_to_tf32(NAN)));
}

/* One warp's D = A x B + C in each precision against the double product of the inputs as the
   kernel rounds them. Products that need 21 bits (1 + 2^-10 squared) must stay exact: a sum kept
   in half, or products rounded before the sum, would lose them. TF32 unrounded: the top 19 bits. */
static void test_wmma_tile(void **state)
{
    (void)state;
    float *in = device_alloc(3 * 256, sizeof(float), "in");
    float *out = device_alloc(256, sizeof(float), "out");
    for (int kind = 0; kind < 4; kind++) {
        for (int values = 0; values < 2; values++) {
            uint64_t seed = 99 + (uint64_t)kind;
            for (int e = 0; e < 3 * 256; e++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                float r = (float)((seed >> 40) % 20001) / 10000.0f - 1.0f; /* -1 .. 1, awkward */
                in[e] = values ? (e < 512 ? 1.0f + 0x1p-10f : 0.25f) : e % 37 == 0 ? r * 3e-5f : r;
            }
            if (kind == 3 && values)
                for (int e = 0; e < 512; e++)
                    in[e] = 1.0f + 0x1p-10f + 0x1p-13f; /* rounds up in TF32, and the core truncates it */
            int k = kind;
            void *args[] = {&in, &out, &k};
            for (int checked = 0; checked < 2; checked++) {
                launch_ok("wmma_tile", dim3_of(1, 1, 1), dim3_of(32, 1, 1), args, 1, checked, 5);
                for (int r = 0; r < 16; r++)
                    for (int c = 0; c < 16; c++) {
                        double want = in[512 + r * 16 + c];
                        for (int q = 0; q < 16; q++) {
                            float a = in[r * 16 + q], b = in[256 + q * 16 + c];
                            if (kind == 0)
                                a = (float)(_Float16)a, b = (float)(_Float16)b;
                            else if (kind == 1)
                                a = __bfloat162float(__float2bfloat16(a)), b = __bfloat162float(__float2bfloat16(b));
                            else if (kind == 2)
                                a = __float_to_tf32(a), b = __float_to_tf32(b);
                            else
                                a = float_of(bits_of(a) & 0xffffe000u), b = float_of(bits_of(b) & 0xffffe000u);
                            want += (double)a * (double)b;
                        }
                        float got = out[c * 16 + r]; /* stored column-major */
                        double tol = values ? 0 : 1e-6 * (1 + fabs(want));
                        if (fabs(got - want) > tol)
                            print_error("kind %d values %d checked %d: D[%d][%d] = %.9g, want %.9g\n", kind, values,
                                        checked, r, c, (double)got, want);
                        assert_true(fabs(got - want) <= tol);
                    }
            }
        }
    }
    emu_free(in);
    emu_free(out);
}

/* Loads, stores and mma_sync are the whole warp's: half a warp is named as waiting; a leading
   dimension that is not 16 bytes is named too, in both builds. */
static void test_wmma_misuse(void **state)
{
    (void)state;
    for (int checked = 0; checked < 2; checked++) {
        const char *half_warp[] = {"warp 0", "lanes 0-15 wait at wmma::load_matrix_sync", "lanes 16-31", NULL};
        expect_warp_fault("wmma_half_warp", checked, half_warp);
        const char *ldm[] = {"calls wmma::load_matrix_sync", "ldm not a multiple of 8", NULL};
        expect_warp_fault("wmma_bad_ldm", checked, ldm);
    }
}

/* The source pass's WMMA words: the includes, the namespaces, the fragments and num_elements. */
static void test_prep_wmma(void **state)
{
    (void)state;
    const char *src = "#include <mma.h>\n"
                      "#include <cuda_bf16.h>\n"
                      "using namespace nvcuda;\n"
                      "__global__ void k(float *p)\n"
                      "{\n"
                      "    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[2];\n"
                      "    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 8, float> acc;\n"
                      "    for (int e = 0; e < a[1].num_elements + acc.num_elements; e++)\n"
                      "        a[1].x[e] = wmma::__float_to_tf32(a[1].x[e]);\n"
                      "    wmma::store_matrix_sync(p, acc, 16, wmma::mem_row_major); /* wmma::x */\n"
                      "}\n";
    char *out = NULL, why[200];
    assert_int_equal(emu_prep_source(src, strlen(src), "w.cu", &out, why, sizeof why), 0);
    assert_non_null(strstr(out, "#include \"emu_wmma.h\"\n#include \"emu_wmma.h\"\n\n__global__"));
    assert_non_null(strstr(out, "EMU_WMMA_FRAGMENT(matrix_a, 16, 16, 8, tf32, row_major) a[2];"));
    assert_non_null(strstr(out, "EMU_WMMA_FRAGMENT(accumulator, 16, 16, 8, float) acc;"));
    assert_non_null(strstr(out, "e < EMU_WMMA_COUNT(a[1]) + EMU_WMMA_COUNT(acc);"));
    assert_non_null(strstr(out, "a[1].x[e] = __float_to_tf32(a[1].x[e]);"));
    assert_non_null(strstr(out, "store_matrix_sync(p, acc, 16, mem_row_major); /* wmma::x */"));
    assert_null(strstr(out, "using"));
    free(out);
}

/* __shared__ arrays (in a kernel, at file scope, read at a constant index) hold the poison when a
   team reads them before writing, in both builds, after a launch that wrote them and in every team. */
static void test_shared_poisoned(void **state)
{
    (void)state;
    int *out = device_alloc(4 * 64 * 4, sizeof(int), "out");
    for (int checked = 0; checked < 2; checked++) {
        for (int write = 1; write >= 0; write--) {
            int w = write;
            void *args[] = {&out, &w};
            launch_ok("shared_unwritten", dim3_of(4, 1, 1), dim3_of(64, 1, 1), args, 2, checked, 0);
            for (int i = 0; i < 4 * 64 * 4; i++) {
                if (out[i] != (write ? 7 : -1))
                    print_error("checked %d, write %d: out[%d] = %d\n", checked, write, i, out[i]);
                assert_int_equal(out[i], write ? 7 : -1);
            }
        }
    }
    emu_free(out);
}

/* Launches with dynamic shared memory of bytes per team. */
static emu_status launch_dynamic(const char *name, unsigned teams, unsigned cooks, void **args, size_t bytes,
                                 int checked, emu_fault *fault)
{
    restore_emu_signals();
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = 2;
    opt.checked = checked;
    opt.dynamic_shared = bytes;
    return emu_launch(kernel_named(name), dim3_of(teams, 1, 1), dim3_of(cooks, 1, 1), args, &opt, fault);
}

/* extern __shared__: every extern array starts at the same place, sized by the launch; past its end
   the checked build stops the cook; more than a team may have is refused. */
static void test_dynamic_shared(void **state)
{
    (void)state;
    int *in = device_alloc(3 * 128, sizeof(int), "in"), *out = device_alloc(3 * 128, sizeof(int), "out");
    for (int i = 0; i < 3 * 128; i++)
        in[i] = pattern((size_t)i);
    emu_fault fault;
    for (int checked = 0; checked < 2; checked++) {
        void *args[] = {&in, &out};
        assert_int_equal(launch_dynamic("dynamic_reverse", 3, 128, args, 128 * sizeof(int), checked, &fault), EMU_OK);
        for (int b = 0; b < 3; b++)
            for (int t = 0; t < 128; t++)
                assert_int_equal(out[b * 128 + t], in[b * 128 + 127 - t]);
    }
    void *args1[] = {&out};
    assert_int_equal(launch_dynamic("dynamic_past_end", 1, 64, args1, 64 * sizeof(int), 1, &fault),
                     EMU_FAULT_OUT_OF_BOUNDS);
    assert_non_null(strstr(fault.message, "byte 256 of a launch that gave each team 256 bytes"));
    assert_int_equal(launch_dynamic("dynamic_past_end", 1, 64, args1, EMU_MAX_DYNAMIC_SHARED + 1, 0, &fault),
                     EMU_FAULT_CONFIG);
    emu_free(in);
    emu_free(out);
}

/* The checked build starts every local with a pattern, so a local read before written shows. */
static void test_locals_poisoned(void **state)
{
    (void)state;
    int *out = device_alloc(32, sizeof(int), "out");
    int n = 4;
    void *args[] = {&out, &n};
    launch_ok("local_unwritten", dim3_of(1, 1, 1), dim3_of(32, 1, 1), args, 1, 1, 0);
    for (int t = 0; t < 32; t++) {
        if (t % 8 >= 4)
            assert_int_equal(out[t], t % 8);
        else
            assert_int_not_equal(out[t], 0); /* the pattern, not a zero that looks like data */
    }
    emu_free(out);
}

/* The source pass: __shared__ in comments and strings untouched, several names in one
   declaration, lines kept, and an extern array given the dynamic area's name. */
static void test_prep_source(void **state)
{
    (void)state;
    const char *src = "/* __shared__ x; */\n"
                      "const char *s = \"__shared__\";\n"
                      "__global__ void k(int *o)\n"
                      "{\n"
                      "    __shared__ float a[4][4], b[2];\n"
                      "    extern __shared__ int dyn[];\n"
                      "    o[__LINE__] = 0;\n"
                      "    { __shared__ int c; c = 1; }\n"
                      "}\n"
                      "int after = __LINE__;\n";
    char *out = NULL, why[200];
    assert_int_equal(emu_prep_source(src, strlen(src), "k.cu", &out, why, sizeof why), 0);
    assert_non_null(strstr(out, "#line 1 \"k.cu\"\n/* __shared__ x; */"));
    assert_non_null(strstr(out, "\"__shared__\""));
    assert_non_null(strstr(out, "EMU_SHARED float emu_shared_a[4][4], emu_shared_b[2];"));
    assert_non_null(strstr(out, "#define a (*emu_shared_ptr_a)\n#define b (*emu_shared_ptr_b)\n#line 5\n"));
    assert_non_null(strstr(out, "EMU_DYNAMIC_SHARED int dyn[] EMU_DYNAMIC_SHARED_NAME;"));
    assert_non_null(strstr(out, "#undef c\n#line 8\n}"));
    assert_non_null(strstr(out, "#undef a\n#undef b\n#line 9\n}"));
    free(out);
    const char *bad = "__global__ void k(void) { __shared__ int x }";
    assert_int_equal(emu_prep_source(bad, strlen(bad), "k.cu", &out, why, sizeof why), -1);
    assert_non_null(strstr(why, "line 1"));
}

/* The source pass over host code: a launch with two or three numbers between <<< and >>> becomes
   a call of the kernel's launcher (its arguments after the configuration, none when it has none),
   a <<< in a comment, a string or a preprocessor line is left alone, lines are kept, dim3's
   constructor becomes EMU_DIM3 inside a function only, and a launch cut short is refused. */
static void test_prep_launch(void **state)
{
    (void)state;
    const char *src = "int f(float *d, int n)\n"
                      "{\n"
                      "    dim3 grid((n + 255) / 256, 1), block(256);\n"
                      "    dim3 team (32), *p = &team, q = {1, 1, 1};\n"
                      "    /* k<<<1, 1>>>(d, n); */ const char *s = \"k<<<2, 2>>>(d)\";\n"
                      "    k<<<grid, dim3(256)>>>(d, n);\n"
                      "    k <<< (n + 1) / 2, 256, 64 * sizeof(float) >>> (d, g(n, 1));\n"
                      "    empty<<<1,\n"
                      "            1>>>();\n"
                      "    return __LINE__ + (a << 2) + (b >> 3);\n"
                      "}\n"
                      "#define LAUNCH k<<<1, 1>>>(d, n)\n"
                      "dim3 make(int x);\n";
    char *out = NULL, why[200];
    assert_int_equal(emu_prep_source(src, strlen(src), "h.cu", &out, why, sizeof why), 0);
    assert_non_null(strstr(out, "dim3 grid = EMU_DIM3((n + 255) / 256, 1), block = EMU_DIM3(256);"));
    assert_non_null(strstr(out, "dim3 team = EMU_DIM3(32), *p = &team, q = {1, 1, 1};"));
    assert_non_null(strstr(out, "/* k<<<1, 1>>>(d, n); */ const char *s = \"k<<<2, 2>>>(d)\";"));
    assert_non_null(strstr(out, "emu_launch_k(EMU_CONFIG(grid, EMU_DIM3(256)), d, n);"));
    assert_non_null(strstr(out, "emu_launch_k(EMU_CONFIG( (n + 1) / 2, 256, 64 * sizeof(float) ), d, g(n, 1));"));
    assert_non_null(strstr(out, "emu_launch_empty(EMU_CONFIG(1,\n            1));"));
    assert_non_null(strstr(out, "return __LINE__ + (a << 2) + (b >> 3);\n}\n#define LAUNCH k<<<1, 1>>>(d, n)\n"));
    assert_non_null(strstr(out, "\ndim3 make(int x);")); /* at file scope: a declaration, left alone */
    /* the line numbers: the return stays on line 10 of h.cu */
    int line = 0;
    for (const char *p = strstr(out, "\n") + 1; p && p < strstr(out, "return __LINE__"); p = strchr(p, '\n') + 1)
        line++;
    assert_int_equal(line, 10); /* lines started up to the return one, which is line 10 */
    free(out);
    const char *cut = "void f(void) { k<<<1, 1>>> ; }";
    assert_int_equal(emu_prep_source(cut, strlen(cut), "h.cu", &out, why, sizeof why), -1);
    assert_non_null(strstr(why, "line 1: a launch k<<<...>>>"));
    const char *open = "void f(void) { k<<<1, 1; }";
    assert_int_equal(emu_prep_source(open, strlen(open), "h.cu", &out, why, sizeof why), -1);
}

/* barrier_two_lines: even and odd cooks wait at barriers on different lines -> EMU_FAULT_BARRIER. */
static void test_barrier_two_lines(void **state)
{
    (void)state;
    int *lines = device_alloc(2, sizeof(int), "lines");
    lines[0] = lines[1] = 0;
    void *args[] = {&lines};
    emu_fault fault;
    emu_status s = launch("barrier_two_lines", dim3_of(1, 1, 1), dim3_of(32, 1, 1), args, 1, 0, 0, &fault);
    assert_int_equal(s, EMU_FAULT_BARRIER);
    assert_int_equal(fault.status, EMU_FAULT_BARRIER);
    assert_true(lines[0] > 0 && lines[1] > lines[0]);
    for (int k = 0; k < 2; k++) {
        char want[64];
        snprintf(want, sizeof want, "line %d", lines[k]);
        if (!strstr(fault.message, want))
            print_error("message without \"%s\": %s\n", want, fault.message);
        assert_non_null(strstr(fault.message, want));
    }
    assert_int_equal(fault.block.x, 0);
    assert_int_equal(run_reverse("reverse_block", 3, 64, 1, 0), 0);
    emu_free(lines);
}

/* barrier_uneven_loop: every cook reaches the first barrier, half of them a second one -> fault. */
static void test_barrier_uneven_loop(void **state)
{
    (void)state;
    int *out = device_alloc(64, sizeof(int), "out");
    void *args[] = {&out};
    emu_fault fault;
    for (uint64_t seed = 0; seed <= 1; seed++) {
        emu_status s =
            launch("barrier_uneven_loop", dim3_of(1, 1, 1), dim3_of(64, 1, 1), args, 1, 0, seed, &fault);
        assert_int_equal(s, EMU_FAULT_BARRIER);
        assert_int_equal(fault.thread.x % 2, 0); /* an even cook is the one missing */
    }
    emu_free(out);
}

/* --- out-of-bounds accesses --- */

/* vector_add_unchecked, 4 x 256 cooks, c of 1000: c[1000] is caught in both builds, then recovery. */
static void test_out_of_bounds_write(void **state)
{
    (void)state;
    int n = 1000;
    float *a = device_alloc(1024, sizeof(float), "a"); /* a and b large enough: c is the one overrun */
    float *b = device_alloc(1024, sizeof(float), "b");
    float *c = device_alloc((size_t)n, sizeof(float), "c");
    for (int i = 0; i < 1024; i++) {
        a[i] = (float)i;
        b[i] = 1.0f;
    }
    for (int checked = 0; checked <= 1; checked++)
        for (int workers = 1; workers <= 2; workers++) {
            void *args[] = {&a, &b, &c};
            emu_fault fault;
            emu_status s = launch("vector_add_unchecked", dim3_of(4, 1, 1), dim3_of(256, 1, 1), args, workers,
                                  checked, 0, &fault);
            assert_int_equal(s, EMU_FAULT_OUT_OF_BOUNDS);
            assert_int_equal(fault.status, EMU_FAULT_OUT_OF_BOUNDS);
            if (!strstr(fault.message, "c[1000]"))
                print_error("checked=%d: message without c[1000]: %s\n", checked, fault.message);
            assert_non_null(strstr(fault.message, "c[1000]"));
            assert_int_equal(fault.block.x, 3);
            assert_int_equal(fault.block.y, 0);
            assert_int_equal(fault.thread.x, 232);
            assert_int_equal(fault.thread.y, 0);
            /* the emulator recovers: the correct kernel on the same buffers */
            for (int i = 0; i < n; i++)
                c[i] = -1.0f;
            void *ok_args[] = {&a, &b, &c, &n};
            launch_ok("vector_add", dim3_of(4, 1, 1), dim3_of(256, 1, 1), ok_args, workers, checked, 0);
            for (int i = 0; i < n; i++)
                assert_true(c[i] == (float)i + 1.0f);
        }
    emu_free(a);
    emu_free(b);
    emu_free(c);
}

/* read_previous with the checked build: cook 0 reading a[-1] is caught; a correct launch works after. */
static void test_out_of_bounds_read_before_start(void **state)
{
    (void)state;
    /* Checked build only: the plain build places a buffer against the guard page after it, so the
       bytes just before its start are padding inside the mapping, and a[-1] reads them unnoticed. */
    float *a = device_alloc(256, sizeof(float), "a");
    float *out = device_alloc(256, sizeof(float), "out");
    for (int i = 0; i < 256; i++)
        a[i] = (float)i;
    for (int workers = 1; workers <= 2; workers++) {
        void *args[] = {&a, &out};
        emu_fault fault;
        emu_status s =
            launch("read_previous", dim3_of(1, 1, 1), dim3_of(256, 1, 1), args, workers, 1, 0, &fault);
        assert_int_equal(s, EMU_FAULT_OUT_OF_BOUNDS);
        if (!strstr(fault.message, "a[-1]"))
            print_error("message without a[-1]: %s\n", fault.message);
        assert_non_null(strstr(fault.message, "a[-1]"));
        assert_int_equal(fault.block.x, 0);
        assert_int_equal(fault.thread.x, 0);
        check_vector_add(300, workers, 1);
    }
    emu_free(a);
    emu_free(out);
}

/* --- trace --- */

/* Three device vectors a, b (zeroed) and c of n floats, as vector_add takes them. */
static void vectors_alloc(int n, float **a, float **b, float **c)
{
    *a = device_alloc((size_t)n, sizeof(float), "a");
    *b = device_alloc((size_t)n, sizeof(float), "b");
    *c = device_alloc((size_t)n, sizeof(float), "c");
    memset(*a, 0, (size_t)n * sizeof(float));
    memset(*b, 0, (size_t)n * sizeof(float));
}

/* A 100-block launch on 2 workers records each block exactly once, on station 0 or 1, start <= end. */
static void test_trace_blocks(void **state)
{
    (void)state;
    int n = 100 * 64;
    float *a, *b, *c;
    vectors_alloc(n, &a, &b, &c);
    trace tr;
    memset(&tr, 0, sizeof tr);
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = 2;
    opt.trace = &tr;
    void *args[] = {&a, &b, &c, &n};
    emu_fault fault;
    restore_emu_signals();
    assert_int_equal(
        emu_launch(kernel_named("vector_add"), dim3_of(100, 1, 1), dim3_of(64, 1, 1), args, &opt, &fault),
        EMU_OK);
    assert_int_equal(tr.nblocks, 100);
    assert_non_null(tr.blocks);
    assert_int_equal(tr.from_gpu, 0);
    int seen[100] = {0};
    for (size_t i = 0; i < tr.nblocks; i++) {
        const trace_block *r = &tr.blocks[i];
        assert_in_range(r->block, 0, 99);
        seen[r->block]++;
        assert_in_range(r->station, 0, 1);
        assert_true(r->start_ns <= r->end_ns);
    }
    for (int k = 0; k < 100; k++)
        assert_int_equal(seen[k], 1);
    trace_free(&tr);
    emu_free(a);
    emu_free(b);
    emu_free(c);
}

/* The stations a plain launch used, its workers left to the emulator (0). */
static unsigned stations_of(const char *name, emu_dim3 grid, emu_dim3 block, void **args)
{
    trace tr;
    memset(&tr, 0, sizeof tr);
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.trace = &tr;
    emu_fault fault;
    restore_emu_signals();
    assert_int_equal(emu_launch(kernel_named(name), grid, block, args, &opt, &fault), EMU_OK);
    unsigned used = trace_summarize(&tr).stations_used;
    trace_free(&tr);
    return used;
}

/* With its workers left to it, a short launch stays on one worker (waking another costs about as
   long as it takes) and a long one uses every core: vector add in 4 teams (a microsecond) on one
   station; 64 teams that each spin some 0.3 ms on all of them. */
static void test_workers_woken_for_long_launches(void **state)
{
    (void)state;
    const char *tool = getenv("CUDACHEF_TEST_SANITIZER");
    if (tool && *tool)
        skip(); /* under a sanitizer a short launch is a long one */
    int n = 1000;
    float *a = device_alloc(1024, sizeof(float), "a"), *b = device_alloc(1024, sizeof(float), "b"),
          *c = device_alloc(1024, sizeof(float), "c");
    void *vargs[] = {&a, &b, &c, &n};
    /* the choice reads the clock: on a machine busy with other work a first team can take long
       enough to wake a worker, so the short launch gets five tries to stay on one station */
    unsigned short_used = 0;
    for (int attempt = 0; attempt < 5 && short_used != 1; attempt++)
        short_used = stations_of("vector_add", dim3_of(4, 1, 1), dim3_of(256, 1, 1), vargs);
    assert_int_equal(short_used, 1);
    if (emu_default_workers() < 2)
        return;
    int *done = device_alloc(64, sizeof(int), "done"), spins = 300000;
    void *sargs[] = {&done, &spins};
    /* every worker, give or take one that woke as the last teams were taken (16 cores) */
    unsigned used = stations_of("slow_teams", dim3_of(64, 1, 1), dim3_of(32, 1, 1), sargs);
    assert_true(used + 1 >= (unsigned)emu_default_workers() && used > 1);
    emu_free(a);
    emu_free(b);
    emu_free(c);
    emu_free(done);
}

/* Checked vector_add with a cook trace: each cook's element is its global index, idle cooks -1. */
static void test_trace_threads(void **state)
{
    (void)state;
    int n = 1000;
    const size_t cooks = 4 * 256;
    float *a, *b, *c;
    vectors_alloc(n, &a, &b, &c);
    for (uint64_t seed = 0; seed <= 1; seed++) {
        trace tr;
        memset(&tr, 0, sizeof tr);
        tr.threads = calloc(cooks, sizeof *tr.threads);
        assert_non_null(tr.threads);
        tr.threads_capacity = cooks;
        emu_options opt;
        memset(&opt, 0, sizeof opt);
        opt.workers = 2;
        opt.checked = 1;
        opt.shuffle_seed = seed;
        opt.trace = &tr;
        void *args[] = {&a, &b, &c, &n};
        emu_fault fault;
        restore_emu_signals();
        assert_int_equal(
            emu_launch(kernel_named("vector_add"), dim3_of(4, 1, 1), dim3_of(256, 1, 1), args, &opt, &fault),
            EMU_OK);
        assert_int_equal(tr.nblocks, 4);
        assert_int_equal(tr.nthreads, cooks);
        int32_t c_buffer = tr.threads[0].buffer;
        assert_true(c_buffer >= 0);
        for (size_t i = 0; i < cooks; i++) {
            const trace_thread *r = &tr.threads[i];
            assert_int_equal(r->block, i / 256);
            assert_int_equal(r->thread, i % 256);
            if (i < (size_t)n) {
                assert_int_equal(r->element, (int64_t)i);
                assert_int_equal(r->buffer, c_buffer);
            } else {
                assert_int_equal(r->element, -1);
                assert_int_equal(r->buffer, -1);
            }
        }
        trace_free(&tr);
    }
    emu_free(a);
    emu_free(b);
    emu_free(c);
}

/* Runs kernel name checked, with a record of every cook, into tr (its threads allocated here). */
static emu_status launch_recorded(const char *name, emu_dim3 grid, emu_dim3 block, void **args, trace *tr,
                                  emu_fault *fault)
{
    memset(tr, 0, sizeof *tr);
    size_t cooks = (size_t)grid.x * grid.y * grid.z * block.x * block.y * block.z;
    tr->threads = calloc(cooks, sizeof *tr->threads);
    assert_non_null(tr->threads);
    tr->threads_capacity = cooks;
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = 2;
    opt.checked = 1;
    opt.trace = tr;
    restore_emu_signals();
    return emu_launch(kernel_named(name), grid, block, args, &opt, fault);
}

/* What each cook did, for the warps view: a grid-stride cook's first and last elements written and
   read with its counts; the cook that reads outside is marked and the launch's team kept (its
   records stay, its blocks do not); the cooks left at a barrier half their team skips are stuck,
   and the barriers each passed are counted. */
static void test_trace_records(void **state)
{
    (void)state;
    int n = 1000;
    float *a, *b, *c;
    vectors_alloc(n, &a, &b, &c);
    trace tr;
    emu_fault fault;
    void *args[] = {&a, &b, &c, &n};
    assert_int_equal(launch_recorded("vector_add_grid_stride", dim3_of(2, 1, 1), dim3_of(32, 1, 1), args, &tr, &fault),
                     EMU_OK);
    assert_int_equal(tr.stopped, 0);
    for (size_t i = 0; i < 64; i++) { /* cook i writes i, i + 64, ... up to the last below 1000 */
        const trace_thread *r = &tr.threads[i];
        int64_t last = (int64_t)i + (int64_t)((n - 1 - (int)i) / 64) * 64;
        assert_int_equal(r->element, (int64_t)i);
        assert_int_equal(r->last_element, last);
        assert_int_equal(r->writes, (uint32_t)((last - (int64_t)i) / 64 + 1));
        assert_int_equal(r->reads, 2 * r->writes);
        assert_int_equal(r->first_read, (int64_t)i);
        assert_int_equal(r->last_read, last);
        assert_int_equal(r->outside, 0);
        assert_int_equal(r->barriers, 0);
    }
    trace_free(&tr);

    void *unchecked[] = {&a, &b, &c}; /* 4 teams of 256 over 1000 elements: cook 232 of team 3 reads a[1000] */
    assert_int_equal(launch_recorded("vector_add_unchecked", dim3_of(4, 1, 1), dim3_of(256, 1, 1), unchecked, &tr,
                                     &fault),
                     EMU_FAULT_OUT_OF_BOUNDS);
    assert_int_equal(tr.stopped, 1);
    assert_int_equal(tr.stopped_team, fault.block.x);
    assert_int_equal(tr.nblocks, 0);
    assert_int_equal(tr.nthreads, 1024);
    size_t outside = 0;
    for (size_t i = 0; i < tr.nthreads; i++)
        if (tr.threads[i].outside) {
            outside++;
            assert_int_equal(tr.threads[i].block, fault.block.x);
            assert_int_equal(tr.threads[i].thread, fault.thread.x);
            assert_true((size_t)fault.block.x * 256 + fault.thread.x >= (size_t)n);
        }
    assert_int_equal(outside, 1);
    trace_free(&tr);

    int line[1] = {0};
    int *d_line = device_alloc(1, sizeof(int), "line");
    void *bargs[] = {&d_line};
    assert_int_equal(launch_recorded("barrier_divergent", dim3_of(4, 1, 1), dim3_of(32, 1, 1), bargs, &tr, &fault),
                     EMU_FAULT_BARRIER);
    assert_int_equal(tr.stopped_team, 2);
    for (size_t i = 0; i < 32; i++) { /* team 2: cooks 0-15 wait at the barrier, 16-31 skip it */
        const trace_thread *r = &tr.threads[2 * 32 + i];
        assert_int_equal(r->stuck, i < 16);
        assert_int_equal(r->barriers, i < 16 ? 1 : 0);
    }
    (void)line;
    trace_free(&tr);
    emu_free(d_line);
    emu_free(a);
    emu_free(b);
    emu_free(c);
}

/* A counted launch that keeps team 0's memory instructions (the kitchen's memory view) in tr,
   whose other records (threads) the caller may have readied. */
static void launch_watched_into(const char *name, emu_dim3 grid, emu_dim3 block, void **args, trace *tr)
{
    restore_emu_signals();
    tr->accesses_capacity = 64;
    tr->accesses = calloc(tr->accesses_capacity, sizeof *tr->accesses);
    assert_non_null(tr->accesses);
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = 2;
    opt.checked = 1;
    counters c;
    opt.counters = &c;
    opt.trace = tr;
    emu_fault fault;
    assert_int_equal(emu_launch(kernel_named(name), grid, block, args, &opt, &fault), EMU_OK);
}

/* The same into an empty trace. */
static void launch_watched(const char *name, emu_dim3 grid, emu_dim3 block, void **args, trace *tr)
{
    memset(tr, 0, sizeof *tr);
    launch_watched_into(name, grid, block, args, tr);
}

/* The watched team's memory instructions, warp by warp: lanes a row apart need a sector and a
   line each (32 of each, where 4 sectors would do), their neighbours' store 4 sectors of one line;
   a shared tile written by rows is one wavefront, read by columns 8 (the fewest 1), after the
   barrier (phase 1); each access names its buffer and holds every lane's address. */
static void test_memory_watch(void **state)
{
    (void)state;
    int stride = 64;
    float *m = device_alloc(128 * 64, sizeof(float), "m");
    float *out = device_alloc(256, sizeof(float), "out");
    void *sargs[] = {&m, &out, &stride};
    trace tr;
    launch_watched("count_row_stride", dim3_of(2, 1, 1), dim3_of(64, 1, 1), sargs, &tr);
    assert_int_equal(tr.naccesses, 4); /* team 0 only: 2 warps, a load and a store each */
    assert_int_equal(tr.accesses_left_out, 0);
    for (int w = 0; w < 2; w++) {
        const trace_access *ld = &tr.accesses[2 * w], *st = &tr.accesses[2 * w + 1];
        assert_int_equal(ld->warp, w);
        assert_int_equal(ld->op, TRACE_LOAD);
        assert_int_equal(ld->space, TRACE_GLOBAL);
        assert_string_equal(ld->label, "m");
        assert_int_equal(ld->elem_size, sizeof(float));
        assert_int_equal(ld->lanes, 0xFFFFFFFFu);
        assert_int_equal(ld->units, 32);
        assert_int_equal(ld->lines, 32);
        assert_int_equal(ld->ideal, 4);
        for (int l = 0; l < 32; l++) /* lane l of warp w reads m[(32 w + l) * 64] */
            assert_int_equal(ld->address[l] - ld->base, (uint64_t)(32 * w + l) * 64 * sizeof(float));
        assert_int_equal(st->op, TRACE_STORE);
        assert_string_equal(st->label, "out");
        assert_int_equal(st->units, 4);
        assert_int_equal(st->lines, 1);
    }
    trace_free(&tr);

    int pad = 0;
    void *targs[] = {&out, &pad};
    tr.threads = calloc(256, sizeof *tr.threads); /* and every cook's record: one store to the locker each */
    assert_non_null(tr.threads);
    tr.threads_capacity = 256;
    launch_watched_into("count_tile", dim3_of(1, 1, 1), dim3_of(16, 16, 1), targs, &tr);
    assert_int_equal(tr.naccesses, 8 * 4); /* 8 warps: a shared store, two shared loads, a store */
    assert_int_equal(tr.nthreads, 256);
    for (size_t i = 0; i < 256; i++) {
        assert_int_equal(tr.threads[i].shared_writes, 1);
        assert_int_equal(tr.threads[i].writes, 1); /* out[] */
    }
    int stores = 0, columns = 0;
    for (size_t i = 0; i < tr.naccesses; i++) {
        const trace_access *a = &tr.accesses[i];
        if (a->space == TRACE_SHARED && a->op == TRACE_STORE) {
            stores++;
            assert_int_equal(a->phase, 0);
            assert_int_equal(a->units, 1);
        } else if (a->space == TRACE_SHARED && a->units == 8) {
            columns++;
            assert_int_equal(a->phase, 1);
            assert_int_equal(a->ideal, 1);
        }
    }
    assert_int_equal(stores, 8);
    assert_int_equal(columns, 8);
    trace_free(&tr);
    emu_free(m);
    emu_free(out);
}

/* --- launch configuration --- */

/* Blocks of 0 or more than 1024 cooks (and other out-of-range shapes) -> EMU_FAULT_CONFIG, nothing runs. */
static void test_config_errors(void **state)
{
    (void)state;
    static const struct {
        emu_dim3 grid, block;
    } bad[] = {
        {{1, 1, 1}, {0, 1, 1}},     {{1, 1, 1}, {2048, 1, 1}}, {{1, 1, 1}, {32, 32, 2}},
        {{1, 1, 1}, {1, 1, 65}},    {{1, 1, 1}, {32, 0, 1}},   {{0, 1, 1}, {32, 1, 1}},
        {{1, 65536, 1}, {1, 1, 1}},
    };
    int *out = device_alloc(1024, sizeof(int), "out");
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memset(out, 0xFF, 1024 * sizeof(int));
        void *args[] = {&out};
        emu_fault fault;
        emu_status s = launch("write_index_3d", bad[k].grid, bad[k].block, args, 1, 0, 0, &fault);
        assert_int_equal(s, EMU_FAULT_CONFIG);
        assert_int_equal(fault.status, EMU_FAULT_CONFIG);
        assert_true(fault.message[0] != '\0');
        assert_int_equal(out[0], -1); /* no cook ran */
    }
    /* the largest block is accepted */
    void *args[] = {&out};
    launch_ok("write_index_3d", dim3_of(1, 1, 1), dim3_of(1024, 1, 1), args, 1, 0, 0);
    launch_ok("write_index_3d", dim3_of(1, 1, 1), dim3_of(32, 32, 1), args, 1, 0, 0);
    assert_int_equal(out[1023], 31 | 31 << 8);
    emu_free(out);
}

/* --- odds and ends --- */

/* 1 when the arithmetic counters are exact here: x86-64 (Capstone), and not the sanitizer build,
   whose UBSan checks move the checked kernels' arithmetic out of the blocks the emulator reads
   (docs/EMULATOR.md). */
static int arithmetic_exact(void)
{
#ifdef EMU_WITH_CAPSTONE
    const char *tool = getenv("CUDACHEF_TEST_SANITIZER");
    return !tool || strcmp(tool, "address") != 0;
#else
    return 0;
#endif
}

/* Launches name counted (the checked build) on workers workers; fails unless it succeeds. */
static counters launch_counted(const char *name, emu_dim3 grid, emu_dim3 block, void **args, int workers)
{
    restore_emu_signals();
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = workers;
    opt.checked = 1;
    counters c;
    opt.counters = &c;
    emu_fault fault;
    emu_status s = emu_launch(kernel_named(name), grid, block, args, &opt, &fault);
    if (s != EMU_OK)
        print_error("%s: %s\n", name, fault.message);
    assert_int_equal(s, EMU_OK);
    assert_int_equal(c.valid, 1);
    assert_int_equal(c.teams, (uint64_t)grid.x * grid.y * grid.z);
    assert_int_equal(c.teams_counted, c.teams);
    return c;
}

/* Counters of kernels counted by hand (docs/EMULATOR.md, "Counters"): vector add moves 2n x 4 / 32
   load sectors; lanes one row apart need a sector each; a 16 x 16 shared tile read by columns
   conflicts 8 ways without padding; atomics and barriers per warp; the same counts on 1 or 2 workers;
   nothing is counted by a plain launch. */
static void test_counters(void **state)
{
    (void)state;
    int n = 1000;
    float *a = device_alloc(1024, sizeof(float), "a"), *b = device_alloc(1024, sizeof(float), "b"),
          *c = device_alloc(1024, sizeof(float), "c");
    void *vargs[] = {&a, &b, &c, &n};
    for (int workers = 1; workers <= 2; workers++) {
        counters k = launch_counted("vector_add", dim3_of(4, 1, 1), dim3_of(256, 1, 1), vargs, workers);
        /* 32 warps have a cook with an element (the last one 8 of them): 2 loads and a store each */
        assert_int_equal(k.value[COUNTER_GLOBAL_LD_REQUESTS], 2 * 32);
        assert_int_equal(k.value[COUNTER_GLOBAL_LD_SECTORS], 2 * 1000 * 4 / 32);
        assert_int_equal(k.value[COUNTER_GLOBAL_ST_REQUESTS], 32);
        assert_int_equal(k.value[COUNTER_GLOBAL_ST_SECTORS], 1000 * 4 / 32);
        assert_int_equal(k.value[COUNTER_MEMORY_INSTRUCTIONS], 96);
        assert_int_equal(k.value[COUNTER_DIVERGENT], 3);
        assert_int_equal(k.value[COUNTER_SHARED_LD_WAVEFRONTS] + k.value[COUNTER_BARRIERS], 0);
        if (arithmetic_exact())
            assert_int_equal(k.value[COUNTER_FP32_OPS], 1000); /* one add per element, read from the machine code */
        assert_int_equal(k.value[COUNTER_GLOBAL_SECTORS_DISTINCT], 3 * 1000 * 4 / 32);
    }
    int stride = 64;
    float *m = device_alloc(128 * 64, sizeof(float), "m");
    void *sargs[] = {&m, &c, &stride};
    counters k = launch_counted("count_row_stride", dim3_of(1, 1, 1), dim3_of(128, 1, 1), sargs, 2);
    assert_int_equal(k.value[COUNTER_GLOBAL_LD_REQUESTS], 4);
    assert_int_equal(k.value[COUNTER_GLOBAL_LD_SECTORS], 4 * 32);
    assert_int_equal(k.value[COUNTER_GLOBAL_ST_SECTORS], 4 * 4);

    /* 8 warps, each two rows of the tile: a row-wise write is 32 distinct banks; a column read
       without padding puts 8 words in each bank it uses (8 wavefronts), with padding 2; the
       broadcast of tile[0] is one wavefront */
    for (int pad = 0; pad <= 1; pad++) {
        void *targs[] = {&c, &pad};
        k = launch_counted("count_tile", dim3_of(1, 1, 1), dim3_of(16, 16, 1), targs, 1);
        assert_int_equal(k.value[COUNTER_SHARED_ST_INSTRUCTIONS], 8);
        assert_int_equal(k.value[COUNTER_SHARED_ST_WAVEFRONTS], pad ? 16 : 8);
        assert_int_equal(k.value[COUNTER_SHARED_ST_CONFLICTS], pad ? 8 : 0);
        assert_int_equal(k.value[COUNTER_SHARED_LD_INSTRUCTIONS], 16);
        assert_int_equal(k.value[COUNTER_SHARED_LD_WAVEFRONTS], pad ? 8 * 2 + 8 : 8 * 8 + 8);
        assert_int_equal(k.value[COUNTER_SHARED_LD_CONFLICTS], pad ? 8 : 8 * 7);
        assert_int_equal(k.value[COUNTER_BARRIERS], 8);
        assert_int_equal(k.value[COUNTER_GLOBAL_ST_SECTORS], 8 * 4);
        if (arithmetic_exact())
            assert_int_equal(k.value[COUNTER_FP32_OPS], 256);
    }

    int *out = device_alloc(4, sizeof(int), "out");
    memset(out, 0, 4 * sizeof(int));
    void *aargs[] = {&out};
    k = launch_counted("count_atomics", dim3_of(3, 1, 1), dim3_of(64, 1, 1), aargs, 2);
    assert_int_equal(out[0], 3 * 64);
    assert_int_equal(out[1], 64);
    assert_int_equal(k.value[COUNTER_GLOBAL_ATOMICS], 3 * 2);
    assert_int_equal(k.value[COUNTER_SHARED_ATOMICS], 3 * 2);
    assert_int_equal(k.value[COUNTER_BARRIERS], 3 * 2 * 2);
    /* cook 0's three accesses are one-lane warp instructions */
    assert_int_equal(k.value[COUNTER_DIVERGENT], 3 * 3);
    assert_int_equal(k.value[COUNTER_MEMORY_INSTRUCTIONS], 3 * 7);
    /* branches: both sides of t % 2 are run by half of each of the 4 warps (2 x 4 apart); t < 64
       is whole warps or none; the emulator's own entry and the first cook's poisoning of shared
       memory are not the kernel's branches (none here, none in count_tile, whose every cook takes
       the same path). (The two sides' stores may be one instruction after the compiler merges
       their tails, as GCC does under UBSan: only the blocks are counted by hand here.) */
    int *branchy = device_alloc(384, sizeof(int), "branchy");
    void *bargs[] = {&branchy};
    k = launch_counted("count_branches", dim3_of(1, 1, 1), dim3_of(128, 1, 1), bargs, 1);
    assert_int_equal(k.value[COUNTER_WARP_BLOCKS_DIVERGENT], 2 * 4);
    assert_true(k.value[COUNTER_WARP_BLOCKS] >= 4 * 4); /* entry, two sides, the second branch, per warp */
    void *targs0[] = {&c, &(int){0}};
    k = launch_counted("count_tile", dim3_of(1, 1, 1), dim3_of(16, 16, 1), targs0, 1);
    assert_int_equal(k.value[COUNTER_WARP_BLOCKS_DIVERGENT], 0);
    assert_true(k.value[COUNTER_WARP_BLOCKS] >= 8);
    k = launch_counted("count_atomics", dim3_of(3, 1, 1), dim3_of(64, 1, 1), aargs, 2);

    /* every cook's add to out[0] queues on one address, the same in a second launch */
    for (int again = 0; again < 2; again++) {
        assert_int_equal(k.value[COUNTER_ATOMICS_ONE_ADDRESS], 3 * 64);
        k = launch_counted("count_atomics", dim3_of(3, 1, 1), dim3_of(64, 1, 1), aargs, 2);
    }

    /* a plain launch counts nothing */
    restore_emu_signals();
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    counters none;
    none.valid = 1;
    opt.counters = &none;
    assert_int_equal(emu_launch(kernel_named("vector_add"), dim3_of(4, 1, 1), dim3_of(256, 1, 1), vargs, &opt, NULL),
                     EMU_OK);
    assert_int_equal(none.valid, 0);
    emu_free(a);
    emu_free(b);
    emu_free(c);
    emu_free(m);
    emu_free(out);
}

/* emu_kernel_find: finds kernels of kernels/ and of the tests, with a checked build; NULL if unknown. */
static void test_kernel_find(void **state)
{
    (void)state;
    const emu_kernel *k = emu_kernel_find("vector_add");
    assert_non_null(k);
    assert_string_equal(k->name, "vector_add");
    assert_non_null(k->fast);
    assert_non_null(k->checked);
    assert_ptr_equal(emu_kernel_find("vector_add"), k);
    k = emu_kernel_find("reverse_block");
    assert_non_null(k);
    assert_non_null(k->checked);
    assert_null(emu_kernel_find("no_such_kernel"));
}

/* stack_alignment: every cook's stack is 16-byte aligned as the x86-64 ABI requires. */
static void test_stack_alignment(void **state)
{
    (void)state;
    int *out = device_alloc(2 * 64, sizeof(int), "out");
    memset(out, 0xFF, 2 * 64 * sizeof(int));
    void *args[] = {&out};
    launch_ok("stack_alignment", dim3_of(2, 1, 1), dim3_of(64, 1, 1), args, 2, 0, 0);
    for (int i = 0; i < 2 * 64; i++)
        assert_int_equal(out[i], 0);
    emu_free(out);
}

/* What the thread that asks the stop watches, and whether its guard ran out first. */
typedef struct cancel_watch {
    chef_cancel *token;
    int *done;      /* the launch's teams: 1 once cooked */
    int gave_up;    /* the first team never cooked within the guard */
    double waited_s;
} cancel_watch;

/* Sets the stop token from another thread (as the full-screen interface does) once the launch
   has cooked its first team: the stop comes while it runs, however slowly the machine runs it. */
static void *cancel_once_cooking(void *arg)
{
    cancel_watch *w = arg;
    test_guard guard = test_guard_start(120);
    while (!__atomic_load_n(&w->done[0], __ATOMIC_ACQUIRE) && !test_guard_over(&guard))
        test_nap_ms(1);
    w->gave_up = !__atomic_load_n(&w->done[0], __ATOMIC_ACQUIRE);
    w->waited_s = test_guard_waited(&guard);
    cancel_request(w->token);
    return NULL;
}

/* A stop asked before the launch cooks no team; one asked during it (once its first team has
   cooked, with some 25 s of teams left on an idle machine) stops it between teams: the launch says
   it was stopped, the teams before the stop cooked whole and the rest not at all. */
static void test_cancel_between_teams(void **state)
{
    (void)state;
    enum { TEAMS = 100000 };
    int *done = emu_malloc(TEAMS * sizeof *done, "done", sizeof *done);
    assert_non_null(done);
    memset(done, 0, TEAMS * sizeof *done);
    int spins = 200000; /* a few hundred microseconds a team: the launch would last some 25 s */
    void *args[] = {&done, &spins};
    chef_cancel token;
    cancel_init(&token);
    cancel_request(&token);
    emu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = 1;
    opt.cancel = &token;
    emu_fault fault;
    restore_emu_signals();
    assert_int_equal(emu_launch(kernel_named("slow_teams"), dim3_of(TEAMS, 1, 1), dim3_of(32, 1, 1), args, &opt,
                                &fault),
                     EMU_CANCELLED);
    for (int i = 0; i < TEAMS; i++)
        assert_int_equal(done[i], 0);
    cancel_init(&token);
    pthread_t asker;
    cancel_watch watch = {&token, done, 0, 0};
    assert_int_equal(pthread_create(&asker, NULL, cancel_once_cooking, &watch), 0);
    restore_emu_signals();
    emu_status st = emu_launch(kernel_named("slow_teams"), dim3_of(TEAMS, 1, 1), dim3_of(32, 1, 1), args, &opt, &fault);
    pthread_join(asker, NULL);
    if (watch.gave_up)
        test_guard_fail(watch.waited_s, "the launch's first team to cook");
    assert_int_equal(st, EMU_CANCELLED);
    int cooked = 0;
    while (cooked < TEAMS && done[cooked])
        cooked++;
    for (int i = cooked; i < TEAMS; i++)
        assert_int_equal(done[i], 0); /* one worker takes the teams in order: none after the stop */
    assert_true(cooked > 0);
    assert_true(cooked < TEAMS);
    emu_free(done);
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cancel_between_teams),
        cmocka_unit_test(test_kernel_find),
        cmocka_unit_test(test_index_write_index_3d),
        cmocka_unit_test(test_index_coords_and_dims),
        cmocka_unit_test(test_index_after_barrier),
        cmocka_unit_test(test_shared_reverse),
        cmocka_unit_test(test_shared_reverse_without_barrier),
        cmocka_unit_test(test_shared_race_shown_by_shuffle),
        cmocka_unit_test(test_shared_per_block),
        cmocka_unit_test(test_atomic_add),
        cmocka_unit_test(test_atomic_max_cas),
        cmocka_unit_test(test_matmul_tiled),
        cmocka_unit_test(test_vector_add_sizes),
        cmocka_unit_test(test_barrier_divergent),
        cmocka_unit_test(test_barrier_two_lines),
        cmocka_unit_test(test_barrier_uneven_loop),
        cmocka_unit_test(test_warp_primitives),
        cmocka_unit_test(test_warp_reduce),
        cmocka_unit_test(test_warp_divergent),
        cmocka_unit_test(test_warp_syncwarp),
        cmocka_unit_test(test_warp_mask_errors),
        cmocka_unit_test(test_half_conversions),
        cmocka_unit_test(test_wmma_tile),
        cmocka_unit_test(test_wmma_misuse),
        cmocka_unit_test(test_prep_wmma),
        cmocka_unit_test(test_shared_poisoned),
        cmocka_unit_test(test_dynamic_shared),
        cmocka_unit_test(test_locals_poisoned),
        cmocka_unit_test(test_counters),
        cmocka_unit_test(test_workers_woken_for_long_launches),
        cmocka_unit_test(test_prep_source),
        cmocka_unit_test(test_prep_launch),
        cmocka_unit_test(test_out_of_bounds_write),
        cmocka_unit_test(test_out_of_bounds_read_before_start),
        cmocka_unit_test(test_trace_blocks),
        cmocka_unit_test(test_trace_threads),
        cmocka_unit_test(test_trace_records),
        cmocka_unit_test(test_memory_watch),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_stack_alignment),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
