/*
 * test_kitchen.c - the five steps driven through kitchen_run, plus the taste (verify.c) on its own.
 *
 * The backend comes from CUDACHEF_TEST_BACKEND: "gpu" cooks on the GPU (and the whole file skips
 * with one "SKIP:" line when there is no usable GPU), anything else on the CPU emulator. Every case
 * checks figures that do not depend on timing, so the file is deterministic on both backends.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chef.h"
#include "kitchen.h"
#include "verify.h"

static backend_kind test_backend = BACKEND_EMU;

/* Reads CUDACHEF_TEST_BACKEND: "gpu" means the GPU, anything else (or nothing) the emulator. */
static backend_kind test_backend_from_env(void)
{
    const char *want = getenv("CUDACHEF_TEST_BACKEND");
    return want && strcmp(want, "gpu") == 0 ? BACKEND_GPU : BACKEND_EMU;
}

/* Parameters for one run of a recipe on the test backend (repeat kept small: tests need no timing). */
static kitchen_params test_params(const char *recipe, int64_t n, int tpb, int64_t blocks)
{
    kitchen_params p;
    kitchen_params_default(&p);
    p.recipe = recipe;
    p.n = n;
    p.threads_per_block = tpb;
    p.blocks = blocks;
    p.backend = test_backend;
    p.repeat = 2;
    return p;
}

/* Runs the kitchen into a fresh heap report (a report is large) and returns it; the exit code in *code. */
static kitchen_report *run_kitchen(const kitchen_params *p, int *code)
{
    kitchen_report *r = malloc(sizeof *r);
    assert_non_null(r);
    *code = kitchen_run(p, r);
    assert_int_equal(*code, r->exit_code);
    return r;
}

/* Releases a report made by run_kitchen. */
static void report_release(kitchen_report *r)
{
    kitchen_report_free(r);
    free(r);
}

/* Runs vector-add with 256 cooks per team and checks it passes with the expected teams and idle cooks. */
static void check_vector_add(int64_t n, uint64_t teams, uint64_t idle, uint64_t idle_last)
{
    kitchen_params p = test_params("vector-add", n, 256, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    if (code != 0)
        fprintf(stderr, "vector-add n=%lld: exit %d: %s\n", (long long)n, code, r->error.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_true(r->ran);
    assert_int_equal(r->backend.kind, test_backend);
    assert_int_equal(r->taste.checked, (size_t)n);
    assert_int_equal(r->taste.correct, (size_t)n);
    assert_true(r->taste.passed);
    assert_int_equal(r->taste.nmismatches, 0);
    assert_int_equal(r->teams, teams);
    assert_int_equal(r->cooks_per_team, 256);
    assert_int_equal(r->cooks, teams * 256);
    assert_int_equal(r->idle_cooks, idle);
    assert_int_equal(r->idle_cooks_last_team, idle_last);
    assert_int_equal(r->uncooked, 0);
    assert_int_equal(r->plan.grid.x, (unsigned)teams);
    assert_int_equal(r->plan.block.x, 256);
    /* bytes: two inputs shipped in, one output shipped out, three arrays prepared */
    assert_int_equal(r->ship_in.bytes, 2 * (size_t)n * sizeof(float));
    assert_int_equal(r->ship_out.bytes, (size_t)n * sizeof(float));
    assert_int_equal(r->host_bytes, 3 * (size_t)n * sizeof(float));
    report_release(r);
}

/* One element: one team, 255 of its cooks idle. */
static void test_vector_add_n1(void **state)
{
    (void)state;
    check_vector_add(1, 1, 255, 255);
}

/* 255 elements: one team, one idle cook. */
static void test_vector_add_n255(void **state)
{
    (void)state;
    check_vector_add(255, 1, 1, 1);
}

/* 256 elements: exactly one full team, nobody idle. */
static void test_vector_add_n256(void **state)
{
    (void)state;
    check_vector_add(256, 1, 0, 0);
}

/* 257 elements: a second team for one element, its other 255 cooks idle. */
static void test_vector_add_n257(void **state)
{
    (void)state;
    check_vector_add(257, 2, 255, 255);
}

/* A million elements: 3907 teams, 192 idle cooks, all in the last team. */
static void test_vector_add_n1000000(void **state)
{
    (void)state;
    check_vector_add(1000000, 3907, 192, 192);
}

/* The four-element counting example: [1, 2, 3, 4] + [5, 6, 7, 8] = [6, 8, 10, 12]. */
static void test_counting_example(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 4, 4, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_true(r->plan.counting);
    assert_int_equal(r->teams, 1);
    assert_int_equal(r->cooks, 4);
    assert_int_equal(r->idle_cooks, 0);
    assert_int_equal(r->sample_count, 4);
    static const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {6, 8, 10, 12};
    for (int i = 0; i < 4; i++) {
        assert_true(r->samples[0][i] == a[i]);
        assert_true(r->samples[1][i] == b[i]);
        assert_true(r->samples[2][i] == c[i]);
    }
    assert_true(r->sample_last[2] == 12.0f);
    assert_true(r->taste.max_abs_error == 0.0);
    report_release(r);
}

/* A seed turns the counting example off even for four elements. */
static void test_seed_turns_counting_off(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 4, 4, 0);
    p.seed = 7;
    p.seed_given = 1;
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_false(r->plan.counting);
    assert_int_equal(r->plan.seed, 7);
    assert_true(r->samples[0][0] >= -1.0f && r->samples[0][0] < 1.0f);
    report_release(r);
}

/* Too few teams for plain vector-add: the elements past the grid stay uncooked and the taste fails. */
static void test_too_few_blocks(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 1000, 256, 2);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_WRONG);
    assert_true(r->ran);
    assert_int_equal(r->teams, 2);
    assert_int_equal(r->cooks, 512);
    assert_int_equal(r->idle_cooks, 0);
    assert_int_equal(r->uncooked, 488);
    assert_int_equal(r->taste.checked, 1000);
    assert_int_equal(r->taste.correct, 512);
    assert_false(r->taste.passed);
    assert_int_equal(r->taste.nmismatches, VERIFY_MAX_MISMATCHES);
    assert_int_equal(r->taste.mismatches[0].index, 512);
    assert_true(isnan(r->taste.mismatches[0].got)); /* the output was poisoned with NaN */
    uint64_t block = 99, thread = 99;
    /* no cook of this grid was given element 512 (or 999): the report must not blame one */
    assert_int_equal(kitchen_owner(r, r->taste.mismatches[0].index, &block, &thread), 0);
    assert_int_equal(kitchen_owner(r, 999, &block, &thread), 0);
    assert_int_equal(kitchen_owner(r, 511, &block, &thread), 1); /* the last cook of team 1 */
    assert_int_equal(block, 1);
    assert_int_equal(thread, 255);
    assert_int_equal(r->error.message[0], '\0');
    report_release(r);
}

/* The grid-stride loop covers every element with any number of teams. */
static void test_grid_stride_two_blocks(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add-grid-stride", 1000, 256, 2);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_int_equal(r->teams, 2);
    assert_int_equal(r->cooks, 512);
    assert_int_equal(r->taste.correct, 1000);
    assert_true(r->taste.passed);
    report_release(r);
}

/* Runs matmul-tiled at side n and checks it passes with a 2D grid of 16 x 16 teams. */
static void check_matmul(int64_t n, uint64_t idle, uint64_t idle_last)
{
    kitchen_params p = test_params("matmul-tiled", n, 256, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    if (code != 0)
        fprintf(stderr, "matmul-tiled n=%lld: exit %d: %s\n", (long long)n, code, r->error.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    unsigned tiles = (unsigned)((n + 15) / 16);
    assert_int_equal(r->plan.grid.x, tiles);
    assert_int_equal(r->plan.grid.y, tiles);
    assert_int_equal(r->plan.block.x, 16);
    assert_int_equal(r->plan.block.y, 16);
    assert_int_equal(r->teams, (uint64_t)tiles * tiles);
    assert_int_equal(r->taste.checked, (size_t)(n * n));
    assert_int_equal(r->taste.correct, (size_t)(n * n));
    assert_int_equal(r->idle_cooks, idle);
    assert_int_equal(r->idle_cooks_last_team, idle_last);
    report_release(r);
}

/* 64 x 64: four by four full tiles. */
static void test_matmul_64(void **state)
{
    (void)state;
    check_matmul(64, 0, 0);
}

/* 100 x 100: seven by seven tiles, the edge ones partly idle (112^2 - 100^2 = 2544 idle cooks). */
static void test_matmul_100(void **state)
{
    (void)state;
    check_matmul(100, 2544, 256 - 4 * 4);
}

/* Runs a recipe expected to be refused as a usage error and checks the error is filled in. */
static void check_usage_error(const kitchen_params *p)
{
    int code;
    kitchen_report *r = run_kitchen(p, &code);
    assert_int_equal(code, CHEF_EXIT_USAGE);
    assert_int_equal(r->error.exit_code, CHEF_EXIT_USAGE);
    assert_true(strlen(r->error.message) > 0);
    assert_false(r->ran);
    report_release(r);
}

/* Bad sizes, blocks and repeats are usage errors with a message, not crashes. */
static void test_bad_parameters(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", -5, 256, 0);
    check_usage_error(&p);
    p = test_params("vector-add", (int64_t)3000000000LL, 256, 0); /* over INT_MAX */
    check_usage_error(&p);
    p = test_params("vector-add", 1000, 2000, 0);
    check_usage_error(&p);
    p = test_params("vector-add", 1000, -1, 0);
    check_usage_error(&p);
    p = test_params("matmul-tiled", 64, 128, 0);
    check_usage_error(&p);
    p = test_params("matmul-tiled", 46341, 256, 0); /* n * n would overflow an int index */
    check_usage_error(&p);
    p = test_params("matmul-tiled", 64, 256, 4); /* matmul sets its own grid */
    check_usage_error(&p);
    p = test_params("vector-add", 1000, 256, 0);
    p.repeat = 0;
    check_usage_error(&p);
    p.repeat = KITCHEN_MAX_REPEAT + 1;
    check_usage_error(&p);
    p = test_params("no-such-recipe", 1000, 256, 0);
    check_usage_error(&p);
}

/* n = 0 (and threads per block 0) in the params mean the recipe's defaults, as kitchen.h says. */
static void test_zero_means_default(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 0, 0, 0);
    p.repeat = 1;
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_int_equal(r->params.n, 1000000);
    assert_int_equal(r->params.threads_per_block, 256);
    assert_int_equal(r->taste.correct, 1000000);
    report_release(r);
}

/* Three timed launches: three positive times, the median reported, min and max around it. */
static void test_repeat_median(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 100000, 256, 0);
    p.repeat = 3;
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_int_equal(r->repeat, 3);
    double s[3];
    for (int i = 0; i < 3; i++) {
        assert_true(r->cook_runs[i] > 0.0);
        s[i] = r->cook_runs[i];
    }
    for (int i = 0; i < 2; i++) /* sort three numbers */
        for (int j = 0; j < 2 - i; j++)
            if (s[j] > s[j + 1]) {
                double t = s[j];
                s[j] = s[j + 1];
                s[j + 1] = t;
            }
    assert_true(r->cook_ms == s[1]);
    assert_true(r->cook_ms_min == s[0]);
    assert_true(r->cook_ms_max == s[2]);
    assert_true(r->cook_runs[3] == 0.0); /* nothing past the runs asked for */
    report_release(r);
}

/* The trace: one record per team (each team exactly once); on the emulator also one per cook. */
static void test_trace(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 1000, 256, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_int_equal(r->teams, 4);
    assert_int_equal(r->trace.nblocks, r->teams);
    assert_int_equal(r->trace_summary.blocks, r->teams);
    int seen[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < r->trace.nblocks; i++) {
        const trace_block *b = &r->trace.blocks[i];
        assert_true(b->block < 4);
        seen[b->block]++;
        assert_true(b->end_ns >= b->start_ns);
        if (i > 0) /* normalized: in start order */
            assert_true(b->start_ns >= r->trace.blocks[i - 1].start_ns);
    }
    assert_int_equal(r->trace.blocks[0].start_ns, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(seen[i], 1);
    assert_true(r->trace_summary.stations_used >= 1);
    if (test_backend == BACKEND_EMU) {
        assert_false(r->trace.from_gpu);
        assert_true(r->trace_checked);
        assert_true(r->trace_summary.stations_used <= (unsigned)r->backend.workers);
        assert_int_equal(r->trace.nthreads, r->cooks);
        for (size_t i = 0; i < r->trace.nthreads; i++) {
            const trace_thread *t = &r->trace.threads[i];
            assert_int_equal(t->block, i / 256);
            assert_int_equal(t->thread, i % 256);
            if (i < 1000) {
                assert_int_equal(t->element, (int64_t)i);
                assert_true(t->buffer >= 0); /* the emulator's slot for c */
            } else {
                assert_int_equal(t->element, -1); /* one of the 24 idle cooks */
                assert_int_equal(t->buffer, -1);
            }
        }
    } else {
        assert_true(r->trace.from_gpu);
        assert_int_equal(r->trace.nthreads, 0);
        assert_true(r->traced_ms > 0.0);
    }
    report_release(r);
}

/* The journey: total = shipping + cooking, and the shipping share is a fraction. */
static void test_journey(void **state)
{
    (void)state;
    kitchen_params p = test_params("vector-add", 100000, 256, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_true(r->shipping_ms == r->ship_in.ms + r->ship_out.ms);
    assert_true(r->total_ms == r->shipping_ms + r->cook_ms);
    assert_true(r->shipping_share >= 0.0 && r->shipping_share <= 1.0);
    assert_true(r->total_ms > 0.0);
    assert_true(fabs(r->shipping_share - r->shipping_ms / r->total_ms) < 1e-12);
    assert_true(r->ship_in.gb_per_s >= 0.0 && r->ship_out.gb_per_s >= 0.0);
    if (r->ship_in.ms > 0)
        assert_true(fabs(r->ship_in.gb_per_s - (double)r->ship_in.bytes / (r->ship_in.ms * 1e6)) < 1e-9 * r->ship_in.gb_per_s + 1e-12);
    report_release(r);
}

/* Exact values pass, even with no tolerance at all. */
static void test_verify_exact(void **state)
{
    (void)state;
    const float v[5] = {0.0f, -1.5f, 3.0e30f, 1e-30f, 42.0f};
    verify_result r;
    verify_compare(v, v, 5, 0.0, 0.0, &r);
    assert_true(r.passed);
    assert_int_equal(r.checked, 5);
    assert_int_equal(r.correct, 5);
    assert_int_equal(r.nmismatches, 0);
    assert_true(r.max_abs_error == 0.0);
    assert_true(r.max_rel_error == 0.0);
    for (int i = 0; i < 5; i++)
        assert_true(verify_close(v[i], v[i], 0.0, 0.0));
    verify_compare(v, v, 0, 0.0, 0.0, &r); /* nothing to taste passes */
    assert_true(r.passed);
    assert_int_equal(r.checked, 0);
}

/* The tolerance is atol + rtol * |expected|: inside passes, outside fails. */
static void test_verify_tolerance(void **state)
{
    (void)state;
    /* expected 100, rtol 1e-3, atol 1e-2: tolerance 0.11 */
    assert_true(verify_close(100.1f, 100.0f, 1e-3, 1e-2));
    assert_true(verify_close(99.9f, 100.0f, 1e-3, 1e-2));
    assert_false(verify_close(100.2f, 100.0f, 1e-3, 1e-2));
    assert_false(verify_close(99.8f, 100.0f, 1e-3, 1e-2));
    /* the relative part scales with the expected value, not the value got */
    assert_true(verify_close(-100.1f, -100.0f, 1e-3, 1e-2));
    assert_false(verify_close(0.2f, 0.0f, 1e-3, 1e-2));
    assert_true(verify_close(0.005f, 0.0f, 1e-3, 1e-2));
    /* only atol: a fixed window */
    assert_true(verify_close(1.0f, 1.5f, 0.0, 0.5));
    assert_false(verify_close(1.0f, 1.5f, 0.0, 0.25));
    const float expected[3] = {100.0f, 100.0f, 100.0f}, got[3] = {100.0f, 100.1f, 100.2f};
    verify_result r;
    verify_compare(got, expected, 3, 1e-3, 1e-2, &r);
    assert_false(r.passed);
    assert_int_equal(r.correct, 2);
    assert_int_equal(r.nmismatches, 1);
    assert_int_equal(r.mismatches[0].index, 2);
    assert_true(r.mismatches[0].expected == 100.0f);
    assert_true(r.mismatches[0].got == 100.2f);
}

/* NaN never passes, on either side, whatever the tolerance. */
static void test_verify_nan(void **state)
{
    (void)state;
    assert_false(verify_close(NAN, 1.0f, 1e9, 1e9));
    assert_false(verify_close(1.0f, NAN, 1e9, 1e9));
    assert_false(verify_close(NAN, NAN, 1e9, 1e9));
    const float expected[2] = {1.0f, 2.0f}, got[2] = {1.0f, NAN};
    verify_result r;
    verify_compare(got, expected, 2, 1e9, 1e9, &r);
    assert_false(r.passed);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.nmismatches, 1);
    assert_int_equal(r.mismatches[0].index, 1);
    assert_true(isnan(r.mismatches[0].got));
    assert_true(isinf(r.max_abs_error)); /* a NaN counts as an infinite error */
}

/* An infinity equals only the same infinity, whatever the tolerance. */
static void test_verify_infinity(void **state)
{
    (void)state;
    assert_true(verify_close(INFINITY, INFINITY, 0.0, 0.0));
    assert_true(verify_close(-INFINITY, -INFINITY, 0.0, 0.0));
    assert_false(verify_close(INFINITY, -INFINITY, 1e9, 1e9));
    assert_false(verify_close(-INFINITY, INFINITY, 1e9, 1e9));
    assert_false(verify_close(3.0e38f, INFINITY, 1e9, 1e9));
    assert_false(verify_close(INFINITY, 3.0e38f, 1e9, 1e9));
    assert_false(verify_close(1.0f, INFINITY, 1e9, 1e9));
}

/* Mismatches are kept in index order and capped; the counts still cover every element. */
static void test_verify_mismatch_order_and_cap(void **state)
{
    (void)state;
    enum { N = 100 };
    float expected[N], got[N];
    for (int i = 0; i < N; i++) {
        expected[i] = (float)i;
        got[i] = i % 5 == 3 ? (float)i + 10.0f : (float)i; /* wrong at 3, 8, 13, ... (20 of them) */
    }
    verify_result r;
    verify_compare(got, expected, N, 0.0, 0.5, &r);
    assert_false(r.passed);
    assert_int_equal(r.checked, N);
    assert_int_equal(r.correct, N - 20);
    assert_int_equal(r.nmismatches, VERIFY_MAX_MISMATCHES);
    for (int i = 0; i < VERIFY_MAX_MISMATCHES; i++) {
        assert_int_equal(r.mismatches[i].index, (size_t)(3 + 5 * i));
        assert_true(r.mismatches[i].expected == (float)(3 + 5 * i));
        assert_true(r.mismatches[i].got == (float)(13 + 5 * i));
    }
    /* fewer wrong than the cap: all kept */
    got[3] = 3.0f;
    for (int i = 15; i < N; i++)
        got[i] = (float)i;
    verify_compare(got, expected, N, 0.0, 0.5, &r);
    assert_int_equal(r.correct, N - 2);
    assert_int_equal(r.nmismatches, 2);
    assert_int_equal(r.mismatches[0].index, 8);
    assert_int_equal(r.mismatches[1].index, 13);
}

/* The largest absolute and relative errors are reported, passing elements included. */
static void test_verify_max_errors(void **state)
{
    (void)state;
    const float expected[4] = {1.0f, 10.0f, 0.0f, -4.0f};
    const float got[4] = {1.5f, 12.0f, 0.25f, -4.0f};
    verify_result r;
    verify_compare(got, expected, 4, 0.0, 100.0, &r); /* everything within a huge atol */
    assert_true(r.passed);
    assert_int_equal(r.correct, 4);
    assert_true(fabs(r.max_abs_error - 2.0) < 1e-12);
    assert_true(fabs(r.max_rel_error - 0.5) < 1e-12); /* 0.5 / 1; expected 0 has no relative error */
    verify_compare(got, expected, 4, 0.0, 0.3, &r);
    assert_false(r.passed);
    assert_int_equal(r.correct, 2);
    assert_true(fabs(r.max_abs_error - 2.0) < 1e-12);
    assert_int_equal(r.mismatches[0].index, 0);
    assert_int_equal(r.mismatches[1].index, 1);
}

/* Picks the backend; on "gpu" without a usable GPU prints one SKIP line and succeeds. */
int main(void)
{
    test_backend = test_backend_from_env();
    if (test_backend == BACKEND_GPU) {
        backend_info info;
        memset(&info, 0, sizeof info);
        if (backend_gpu_probe(&info) != 0) {
            printf("SKIP: no usable GPU (%s)\n", info.no_gpu_reason[0] ? info.no_gpu_reason : "unknown reason");
            return 0;
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_exact),
        cmocka_unit_test(test_verify_tolerance),
        cmocka_unit_test(test_verify_nan),
        cmocka_unit_test(test_verify_infinity),
        cmocka_unit_test(test_verify_mismatch_order_and_cap),
        cmocka_unit_test(test_verify_max_errors),
        cmocka_unit_test(test_vector_add_n1),
        cmocka_unit_test(test_vector_add_n255),
        cmocka_unit_test(test_vector_add_n256),
        cmocka_unit_test(test_vector_add_n257),
        cmocka_unit_test(test_vector_add_n1000000),
        cmocka_unit_test(test_counting_example),
        cmocka_unit_test(test_seed_turns_counting_off),
        cmocka_unit_test(test_too_few_blocks),
        cmocka_unit_test(test_grid_stride_two_blocks),
        cmocka_unit_test(test_matmul_64),
        cmocka_unit_test(test_matmul_100),
        cmocka_unit_test(test_bad_parameters),
        cmocka_unit_test(test_zero_means_default),
        cmocka_unit_test(test_repeat_median),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_journey),
    };
    printf("test_kitchen: backend %s\n", backend_kind_name(test_backend));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
