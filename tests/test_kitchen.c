/*
 * test_kitchen.c - the five steps driven through kitchen_run, plus the taste (verify.c) on its own.
 *
 * The backend comes from CUDACHEF_TEST_BACKEND: "gpu" cooks on the GPU (and the whole file skips
 * with one "SKIP:" line when there is no usable GPU), anything else on the CPU emulator. Every case
 * checks figures that do not depend on timing, so the file is deterministic on both backends.
 */
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "engine/recipes.h"
#include "test_backend.h"
#include "test_shard.h"

#include "demos/access.h"
#include "base/chef.h"
#include "emu/emu.h"
#include "engine/kitchen.h"
#include "engine/model.h"
#include "engine/rates.h"
#include "engine/report.h"
#include "engine/resources.h"
#include "engine/verify.h"
#include "test_tree.h"

static backend_kind test_backend = BACKEND_EMU;

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
    if (test_backend == BACKEND_EMU) { /* --workers 1 is reported as 1 worker, which is all it used */
        kitchen_params one = test_params("vector-add", 1000, 256, 0);
        one.workers = 1;
        int code1;
        kitchen_report *r1 = run_kitchen(&one, &code1);
        assert_int_equal(code1, CHEF_EXIT_OK);
        assert_int_equal(r1->backend.workers, 1);
        assert_int_equal(r1->trace_summary.stations_used, 1);
        report_release(r1);
    }
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

/* Runs a recipe and checks every output element tastes right; returns the report. */
static kitchen_report *check_recipe_passes(const char *recipe, int64_t n, int tpb)
{
    kitchen_params p = test_params(recipe, n, tpb, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    if (code != 0)
        fprintf(stderr, "%s n=%lld tpb=%d: exit %d: %s (%zu of %zu correct)\n", recipe, (long long)n, tpb, code,
                r->error.message, r->taste.correct, r->taste.checked);
    assert_int_equal(code, CHEF_EXIT_OK);
    const kitchen_buffer *out = &r->plan.buffers[r->plan.nbuffers - 1];
    assert_true(out->is_output);
    assert_int_equal(r->taste.checked, out->count);
    assert_int_equal(r->taste.correct, out->count);
    return r;
}

/* The element-wise recipes pass at one element, at sizes that are not a multiple of the team size,
   and at a full million; their idle cooks are counted as for vector-add. */
static void test_elementwise_recipes(void **state)
{
    (void)state;
    static const char *const recipes[] = {"vector-sqrt", "vector-sin", "saxpy"};
    static const int64_t sizes[] = {1, 255, 257, 1000, 1000000};
    for (size_t i = 0; i < sizeof recipes / sizeof *recipes; i++) {
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            kitchen_report *r = check_recipe_passes(recipes[i], sizes[k], 256);
            uint64_t teams = (uint64_t)(sizes[k] + 255) / 256;
            assert_int_equal(r->teams, teams);
            assert_int_equal(r->idle_cooks, teams * 256 - (uint64_t)sizes[k]);
            assert_int_equal(r->plan.buffers[r->plan.nbuffers - 1].count, (size_t)sizes[k]);
            report_release(r);
        }
    }
    kitchen_report *r = check_recipe_passes("vector-sin", 1000, 96); /* a team size that is not a power of 2 */
    report_release(r);
}

/* The counting examples show what each kernel does: roots of squares, and a * x + y with the float
   parameter a = 2 reaching the kernel intact. */
static void test_counting_examples_new(void **state)
{
    (void)state;
    kitchen_report *r = check_recipe_passes("vector-sqrt", 4, 4);
    assert_true(r->plan.counting);
    assert_int_equal(r->plan.nbuffers, 2);
    for (int i = 0; i < 4; i++) {
        assert_true(r->samples[0][i] == (float)((i + 1) * (i + 1)));
        assert_true(r->samples[1][i] == (float)(i + 1));
    }
    report_release(r);
    r = check_recipe_passes("saxpy", 4, 4);
    assert_true(r->plan.scalar == 2.0f);
    static const float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, out[4] = {7, 10, 13, 16};
    for (int i = 0; i < 4; i++) {
        assert_true(r->samples[0][i] == x[i]);
        assert_true(r->samples[1][i] == y[i]);
        assert_true(r->samples[2][i] == out[i]);
    }
    report_release(r);
}

/* The sum: one output element, right at n = 1, at the counting example (1 + ... + 16 = 136), at
   sizes that are not a multiple of 256, and after five timed launches (each starts from 0). */
static void test_sum_reduce(void **state)
{
    (void)state;
    kitchen_report *r = check_recipe_passes("sum-reduce", 1, 256);
    assert_int_equal(r->plan.buffers[1].count, 1);
    assert_int_equal(r->sample_counts[1], 1);
    assert_int_equal(r->sample_counts[0], 1);
    assert_true(r->samples[1][0] == 1.0f);
    assert_int_equal(r->idle_cooks, 255); /* idle cooks count the n inputs, not the one output */
    uint64_t b, t;
    assert_int_equal(kitchen_owner(r, 0, &b, &t), 0); /* every team adds into the sum: no one cook owns it */
    report_release(r);
    r = check_recipe_passes("sum-reduce", 16, 256);
    assert_true(r->samples[1][0] == 136.0f);
    report_release(r);
    static const int64_t sizes[] = {255, 1000, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        r = check_recipe_passes("sum-reduce", sizes[k], 256);
        assert_int_equal(r->idle_cooks, (uint64_t)((sizes[k] + 255) / 256 * 256 - sizes[k]));
        report_release(r);
    }
    kitchen_params p = test_params("sum-reduce", 1000, 256, 0);
    p.repeat = 5;
    int code;
    r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK); /* 5 timed launches and a warm-up: without zeros in between, 6x the sum */
    assert_int_equal(r->repeat, 5);
    report_release(r);
    p = test_params("sum-reduce", 1000, 128, 0); /* the kernel's shared locker holds 256 numbers */
    check_usage_error(&p);
}

/* Naive and coalesced: square teams from --threads-per-block (8 x 8, 16 x 16, 32 x 32), right at n = 1,
   at sides that are not a multiple of the team's, and with the same numbers as each other. */
static void test_matmul_naive_coalesced(void **state)
{
    (void)state;
    static const int tpbs[] = {64, 256, 1024};
    static const int64_t sides[] = {1, 17, 64, 100};
    for (size_t i = 0; i < sizeof tpbs / sizeof *tpbs; i++) {
        unsigned side = tpbs[i] == 64 ? 8 : tpbs[i] == 256 ? 16 : 32;
        for (size_t k = 0; k < sizeof sides / sizeof *sides; k++) {
            kitchen_report *naive = check_recipe_passes("matmul-naive", sides[k], tpbs[i]);
            kitchen_report *coal = check_recipe_passes("matmul-coalesced", sides[k], tpbs[i]);
            unsigned teams = (unsigned)((sides[k] + side - 1) / side);
            for (int w = 0; w < 2; w++) {
                const kitchen_report *r = w ? coal : naive;
                assert_int_equal(r->plan.block.x, side);
                assert_int_equal(r->plan.block.y, side);
                assert_int_equal(r->plan.grid.x, teams);
                assert_int_equal(r->plan.grid.y, teams);
                uint64_t covered = (uint64_t)teams * side;
                assert_int_equal(r->idle_cooks, covered * covered - (uint64_t)(sides[k] * sides[k]));
            }
            /* the same dot products in the same order: the same bits (on a GPU, within the tolerance) */
            for (size_t e = 0; e < naive->sample_counts[2]; e++)
                assert_true(test_backend == BACKEND_EMU ? naive->samples[2][e] == coal->samples[2][e]
                                                        : verify_close(naive->samples[2][e], coal->samples[2][e],
                                                                       naive->rtol, naive->atol));
            assert_true(test_backend == BACKEND_EMU ? naive->sample_last[2] == coal->sample_last[2]
                                                    : verify_close(naive->sample_last[2], coal->sample_last[2],
                                                                   naive->rtol, naive->atol));
            report_release(naive);
            report_release(coal);
        }
    }
    kitchen_params p = test_params("matmul-naive", 64, 128, 0); /* not a perfect square */
    check_usage_error(&p);
    p = test_params("matmul-coalesced", 64, 2048, 0); /* over the limit */
    check_usage_error(&p);
    p = test_params("matmul-coalesced", 64, 256, 4); /* matrix recipes set their own grid */
    check_usage_error(&p);
}

/* Every cook of the trace that wrote an element is the one the recipe's owner names for it, and
   writers of them wrote. */
static void check_owners_wrote(const kitchen_report *r, size_t writers)
{
    size_t seen = 0;
    for (size_t k = 0; k < r->trace.nthreads; k++) {
        const trace_thread *rec = &r->trace.threads[k];
        uint64_t b, t;
        if (rec->element < 0)
            continue;
        seen++;
        assert_int_equal(kitchen_owner(r, (size_t)rec->element, &b, &t), 1);
        assert_int_equal(b, rec->block);
        assert_int_equal(t, rec->thread);
    }
    assert_int_equal(seen, writers);
}

/* The owner of element (row, col): naive takes the row from x, coalesced the column. On the
   emulator every cook's recorded write must match it. */
static void test_matmul_owner(void **state)
{
    (void)state;
    static const char *const recipes[] = {"matmul-naive", "matmul-coalesced", "matmul-tiled"};
    for (size_t i = 0; i < sizeof recipes / sizeof *recipes; i++) {
        kitchen_report *r = check_recipe_passes(recipes[i], 100, 256);
        uint64_t b, t;
        /* element (17, 3) with 16 x 16 teams and 7 x 7 teams per grid */
        assert_int_equal(kitchen_owner(r, 17 * 100 + 3, &b, &t), 1);
        if (i == 0) {
            assert_int_equal(b, 17 / 16 + (3 / 16) * 7); /* x = row 17, y = column 3 */
            assert_int_equal(t, 17 % 16 + (3 % 16) * 16);
        } else {
            assert_int_equal(b, 3 / 16 + (17 / 16) * 7); /* x = column 3, y = row 17 */
            assert_int_equal(t, 3 % 16 + (17 % 16) * 16);
        }
        if (test_backend == BACKEND_EMU) {
            assert_int_equal(r->trace.nthreads, r->cooks);
            check_owners_wrote(r, 100 * 100);
        }
        report_release(r);
    }
}

/* The three transposes: every element right at sizes of one element, part of a tile, whole tiles
   and several tiles with a ragged edge; the trace's writers are the cooks owner names; on the
   emulator the counts tell them apart as the lesson says: the naive kernel's stores take one sector
   each, the tiled ones four per warp; the 32-wide tile has 31 extra passes per column read, the
   padded one none. */
static void test_transposes(void **state)
{
    (void)state;
    static const char *const recipes[] = {"transpose-naive", "transpose-shared", "transpose-padded"};
    static const int64_t sides[] = {1, 20, 64, 100};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < sizeof sides / sizeof *sides; k++) {
            kitchen_report *r = check_recipe_passes(recipes[i], sides[k], 1024);
            assert_int_equal(r->plan.block.x, 32);
            assert_int_equal(r->plan.grid.x, (sides[k] + 31) / 32);
            if (test_backend == BACKEND_EMU)
                check_owners_wrote(r, (size_t)(sides[k] * sides[k]));
            if (test_backend == BACKEND_EMU && sides[k] == 64) {
                const counters *c = &r->counters;
                assert_true(c->valid);
                uint64_t st_req = c->value[COUNTER_GLOBAL_ST_REQUESTS], st_sec = c->value[COUNTER_GLOBAL_ST_SECTORS];
                uint64_t ld = c->value[COUNTER_SHARED_LD_INSTRUCTIONS], conflicts = c->value[COUNTER_SHARED_LD_CONFLICTS];
                assert_int_equal(st_req, 64 * 64 / 32);
                assert_int_equal(st_sec, i == 0 ? 64 * 64 : st_req * 4);
                assert_int_equal(ld, i == 0 ? 0 : st_req);
                assert_int_equal(conflicts, i == 1 ? ld * 31 : 0);
                assert_int_equal(c->value[COUNTER_SHARED_ST_CONFLICTS], 0);
            }
            report_release(r);
        }
}

/* The value of counter id of a run (emulator), 0 when it was not counted. */
static uint64_t counted(const kitchen_report *r, counter_id id)
{
    return r->counters.valid ? r->counters.value[id] : 0;
}

/* Lessons 14 and 15's recipes: every one right at one element, a ragged last team and many teams;
   on the emulator their counts show what the lessons say: the per-cook branch diverges and the
   per-warp one does not, the warp sum takes fewer locker passes than the tree, the vote makes one
   atomic per warp, the crowded histogram piles its atomics on one address and the private one
   moves them into the locker. */
static void test_warp_and_atomic_recipes(void **state)
{
    (void)state;
    static const char *const recipes[] = {"sum-reduce-warp", "count-positive", "branch-by-cook", "branch-by-warp",
                                          "histogram-global", "histogram-global-skewed", "histogram-shared",
                                          "histogram-shared-skewed"};
    static const int64_t sizes[] = {1, 1000, 100000};
    kitchen_report *at[8] = {0};
    for (size_t i = 0; i < 8; i++)
        for (size_t k = 0; k < 3; k++) {
            kitchen_report *r = check_recipe_passes(recipes[i], sizes[k], 256);
            if (k == 2)
                at[i] = r;
            else
                report_release(r);
        }
    if (test_backend == BACKEND_EMU) {
        kitchen_report *tree = check_recipe_passes("sum-reduce", 100000, 256);
        assert_true(counted(at[2], COUNTER_WARP_BLOCKS_DIVERGENT) > 0);
        assert_int_equal(counted(at[3], COUNTER_WARP_BLOCKS_DIVERGENT), 0);
        assert_true(counted(at[0], COUNTER_SHARED_LD_WAVEFRONTS) * 4 < counted(tree, COUNTER_SHARED_LD_WAVEFRONTS));
        assert_int_equal(counted(at[1], COUNTER_GLOBAL_ATOMICS), (100000 + 31) / 32 + (256 - 100000 % 256) / 32);
        assert_true(counted(at[5], COUNTER_ATOMICS_ONE_ADDRESS) > 10 * counted(at[4], COUNTER_ATOMICS_ONE_ADDRESS));
        assert_true(counted(at[6], COUNTER_SHARED_ATOMICS) > 0);
        assert_true(counted(at[7], COUNTER_ATOMICS_ONE_ADDRESS) < counted(at[5], COUNTER_ATOMICS_ONE_ADDRESS) / 100);
        report_release(tree);
    }
    for (size_t i = 0; i < 8; i++)
        report_release(at[i]);
}

/* Lesson 16's scans and compaction: right at one element, a ragged last team and many teams; the
   tree scan's larger steps meet bank conflicts that the double board's steps do not. */
static void test_scans(void **state)
{
    (void)state;
    static const char *const recipes[] = {"scan-team-steps", "scan-team-work", "compact-team"};
    static const int64_t sizes[] = {1, 1000, 100000};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 3; k++) {
            kitchen_report *r = check_recipe_passes(recipes[i], sizes[k], 256);
            if (test_backend == BACKEND_EMU && k == 2 && i < 2) {
                uint64_t conflicts = counted(r, COUNTER_SHARED_LD_CONFLICTS) + counted(r, COUNTER_SHARED_ST_CONFLICTS);
                assert_true(i == 0 ? conflicts == 0 : conflicts > 0);
            }
            report_release(r);
        }
}

/* The upper rungs of the matmul ladder (recipe_ladder, the library left out): each team size it was
   written for, every result right at sizes smaller than one team's square, not a multiple of four,
   of one square and of several with partial squares at the edges (and larger ones on a GPU), in the
   natural cook order and, on the emulator, in two shuffled ones (a missing barrier would show). */
static void test_ladder_rungs(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 5, 64, 100, 130, 257};
    static const int64_t gpu_sizes[] = {1024, 1031};
    /* under memcheck each rung up to n = 130 (several teams, ragged edges) in one order: 8 times less
       cooking than every size in three orders (15 minutes under memcheck), which make test runs */
    int memcheck = test_under_memory_tool();
    if (memcheck)
        print_message("under a memory tool: sizes up to 130, one order each (make test: all)\n");
    const char *const *ladder = recipe_ladder();
    int rungs = 0;
    for (int i = 0; ladder[i]; i++) {
        const recipe *rec = recipe_find(ladder[i]);
        assert_non_null(rec);
        if (backend_is_library(rec->kernel))
            continue;
        rungs++;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
            for (uint64_t shuffle = 0; shuffle < (test_backend == BACKEND_EMU && !memcheck ? 3u : 1u); shuffle++) {
                if ((shuffle || memcheck) && sizes[k] > 130)
                    continue;
                kitchen_params p = test_params(rec->name, sizes[k], rec->default_threads_per_block, 0);
                p.shuffle_seed = shuffle;
                int code;
                kitchen_report *r = run_kitchen(&p, &code);
                if (code != 0)
                    fprintf(stderr, "%s n=%lld shuffle %llu: exit %d: %s\n", rec->name, (long long)sizes[k],
                            (unsigned long long)shuffle, code, r->error.message);
                assert_int_equal(code, CHEF_EXIT_OK);
                assert_int_equal(r->taste.correct, (size_t)(sizes[k] * sizes[k]));
                report_release(r);
            }
        if (test_backend == BACKEND_GPU)
            for (size_t k = 0; k < sizeof gpu_sizes / sizeof *gpu_sizes; k++)
                report_release(check_recipe_passes(rec->name, gpu_sizes[k], rec->default_threads_per_block));
        /* Another team size is refused: the kernel's squares are shared out for this one. */
        kitchen_params bad = test_params(rec->name, 64, rec->default_threads_per_block == 256 ? 128 : 256, 0);
        check_usage_error(&bad);
    }
    assert_true(rungs >= 9); /* naive, coalesced, tiled, 1D and 2D blocking, vectorised, warp tiles, prefetch, async */
}

/* The tensor-core rung passes at the ladder's sizes (on the emulator in shuffled cook orders too:
   its warp shuffles must meet), and it really rounds to TF32: its largest error is many times the
   FP32 rung's on the same matrices, on the emulator as on a GPU. */
static void test_tensor_rung(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 5, 64, 130, 257};
    /* under memcheck (make test runs them all) the sizes up to 64, in one order:
       the emulated tensor core trades every number by shuffles, slow under memcheck, and
       test_ladder_owner cooks this rung over several teams with ragged edges under memcheck too */
    int memcheck = test_under_memory_tool();
    if (memcheck)
        print_message("under a memory tool: n = 1, 5 and 64, one order (make test: all)\n");
    size_t nsizes = memcheck ? 3 : sizeof sizes / sizeof *sizes;
    uint64_t orders = test_backend == BACKEND_EMU && !memcheck ? 2u : 1u;
    for (size_t k = 0; k < nsizes; k++)
        for (uint64_t shuffle = 0; shuffle < (sizes[k] <= 64 ? orders : 1u); shuffle++) {
            kitchen_params p = test_params("matmul-tensor", sizes[k], 128, 0);
            p.shuffle_seed = shuffle;
            int code;
            kitchen_report *r = run_kitchen(&p, &code);
            if (code != 0)
                fprintf(stderr, "matmul-tensor n=%lld: exit %d: %s\n", (long long)sizes[k], code, r->error.message);
            assert_int_equal(code, CHEF_EXIT_OK);
            assert_int_equal(r->taste.correct, (size_t)(sizes[k] * sizes[k]));
            report_release(r);
        }
    if (test_backend == BACKEND_GPU) {
        report_release(check_recipe_passes("matmul-tensor", 1024, 128));
        report_release(check_recipe_passes("matmul-tensor", 1031, 128));
    }
    kitchen_report *tensor = check_recipe_passes("matmul-tensor", 64, 128);
    kitchen_report *fp32 = check_recipe_passes("matmul-async", 64, 256);
    assert_true(tensor->taste.max_abs_error > 10 * fp32->taste.max_abs_error);
    report_release(tensor);
    report_release(fp32);
    kitchen_params bad = test_params("matmul-tensor", 64, 256, 0);
    check_usage_error(&bad);
}

/* The WMMA recipes pass at sizes with and without edges (in shuffled cook orders on the emulator:
   their warps must meet), round their inputs as their precision does (the error against the
   inputs as given grows from TF32 and FP16 to BF16, and stays far above FP32's), and keep their
   team of 256. */
static void test_wmma_recipes(void **state)
{
    (void)state;
    static const char *const names[] = {"matmul-wmma-tf32", "matmul-wmma-fp16", "matmul-wmma-bf16"};
    static const int64_t sizes[] = {1, 17, 128, 130};
    int memcheck = test_under_memory_tool();
    size_t nsizes = memcheck ? 3 : sizeof sizes / sizeof *sizes;
    double exact[3];
    for (int i = 0; i < 3; i++) {
        for (size_t k = 0; k < nsizes; k++) {
            kitchen_params p = test_params(names[i], sizes[k], 256, 0);
            p.shuffle_seed = test_backend == BACKEND_EMU && sizes[k] == 17 ? 3 : 0;
            int code;
            kitchen_report *r = run_kitchen(&p, &code);
            if (code != 0)
                fprintf(stderr, "%s n=%lld: exit %d: %s\n", names[i], (long long)sizes[k], code, r->error.message);
            assert_int_equal(code, CHEF_EXIT_OK);
            assert_int_equal(r->taste.correct, (size_t)(sizes[k] * sizes[k]));
            assert_true(r->exact_known);
            report_release(r);
        }
        kitchen_report *r = check_recipe_passes(names[i], 64, 256);
        exact[i] = r->exact_abs_error;
        report_release(r);
        kitchen_params bad = test_params(names[i], 64, 128, 0);
        check_usage_error(&bad);
    }
    kitchen_report *fp32 = check_recipe_passes("matmul-async", 64, 256);
    assert_true(exact[0] > 10 * fp32->taste.max_abs_error);
    assert_true(exact[1] > 10 * fp32->taste.max_abs_error);
    assert_true(exact[2] > 2 * exact[1]); /* BF16 keeps 3 bits fewer than FP16 and TF32 */
    assert_false(fp32->exact_known);
    report_release(fp32);
}

/* Each cook of a rung that makes several results is the owner of the first element it writes: on
   the emulator every recorded first write must be where recipe.owner says, with partial squares,
   and the cooks counted idle are those that wrote nothing. */
static void test_ladder_owner(void **state)
{
    (void)state;
    if (test_backend != BACKEND_EMU)
        return; /* the per-cook record exists on the emulator only */
    static const char *const recipes[] = {"matmul-1d-blocking", "matmul-2d-blocking", "matmul-vectorized",
                                          "matmul-warptile", "matmul-prefetch", "matmul-async", "matmul-tensor",
                                          "matmul-wmma-fp16", "matmul-wmma-tf32"};
    /* n = 150: several teams (most rungs' squares are 128 wide), the last ones ragged; under
       memcheck 130, the same teams with two thirds of the cooking (make test: 150) */
    int64_t n = test_under_memory_tool() ? 130 : 150;
    if (n != 150)
        print_message("under a memory tool: n = 130 (make test: 150)\n");
    for (size_t i = 0; i < sizeof recipes / sizeof *recipes; i++) {
        const recipe *rec = recipe_find(recipes[i]);
        kitchen_report *r = check_recipe_passes(rec->name, n, rec->default_threads_per_block);
        size_t writers = 0;
        for (size_t k = 0; k < r->trace.nthreads; k++) {
            const trace_thread *w = &r->trace.threads[k];
            if (w->element < 0)
                continue;
            writers++;
            uint64_t b, t;
            assert_int_equal(kitchen_owner(r, (size_t)w->element, &b, &t), 1);
            assert_int_equal(b, w->block);
            assert_int_equal(t, w->thread);
        }
        assert_true(writers > 0);
        /* The idle cooks counted from the recipe are exactly the cooks that wrote nothing. */
        assert_int_equal(r->idle_cooks, r->trace.nthreads - writers);
        report_release(r);
    }
}

/* Four elements per cook: right at sizes around a multiple of four; element i is cook i / 4's. */
static void test_vector_add_float4(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 3, 4, 5, 1023, 1024, 1025, 1000001};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        kitchen_report *r = check_recipe_passes("vector-add-float4", sizes[k], 256);
        assert_int_equal(r->plan.grid.x, (unsigned)(((sizes[k] + 3) / 4 + 255) / 256));
        uint64_t b, t;
        assert_int_equal(kitchen_owner(r, (size_t)sizes[k] - 1, &b, &t), 1);
        assert_int_equal(b * 256 + t, (uint64_t)(sizes[k] - 1) / 4);
        report_release(r);
    }
}

/* Without either barrier of the tiled kernel the emulator's cooks read squares not yet filled or
   already refilled: the taste fails (exit 1), in order and in several shuffled orders. */
static void test_missing_barriers_fail(void **state)
{
    (void)state;
    if (test_backend != BACKEND_EMU)
        return; /* on a GPU the outcome depends on timing */
    static const char *const recipes[] = {"matmul-tiled-no-fill-barrier", "matmul-tiled-no-reuse-barrier"};
    static const uint64_t shuffles[] = {0, 1, 2, 3};
    static const int64_t sides[] = {64, 100};
    /* under memcheck the first two orders (make test: all four) */
    size_t orders = test_under_memory_tool() ? 2 : sizeof shuffles / sizeof *shuffles;
    for (size_t i = 0; i < sizeof recipes / sizeof *recipes; i++)
        for (size_t s = 0; s < orders; s++)
            for (size_t k = 0; k < sizeof sides / sizeof *sides; k++) {
                kitchen_params p = test_params(recipes[i], sides[k], 256, 0);
                p.shuffle_seed = shuffles[s];
                int code;
                kitchen_report *r = run_kitchen(&p, &code);
                if (code != CHEF_EXIT_WRONG)
                    fprintf(stderr, "%s n=%lld shuffle %llu: exit %d\n", recipes[i], (long long)sides[k],
                            (unsigned long long)shuffles[s], code);
                assert_int_equal(code, CHEF_EXIT_WRONG);
                assert_true(r->ran);
                assert_true(r->taste.correct < r->taste.checked / 2);
                report_release(r);
            }
    /* the intact kernel passes with the same shuffled orders */
    for (size_t s = 0; s < orders; s++) {
        kitchen_params p = test_params("matmul-tiled", 100, 256, 0);
        p.shuffle_seed = shuffles[s];
        int code;
        kitchen_report *r = run_kitchen(&p, &code);
        assert_int_equal(code, CHEF_EXIT_OK);
        report_release(r);
    }
}

/* With fast_reference the matrix recipes taste against OpenBLAS and say so; others keep their own. */
static void test_fast_reference(void **state)
{
    (void)state;
    kitchen_params p = test_params("matmul-coalesced", 100, 256, 0);
    p.fast_reference = 1;
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_true(r->reference_blas);
    assert_int_equal(r->taste.correct, 100 * 100);
    report_release(r);
    p.fast_reference = 0;
    r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_false(r->reference_blas);
    report_release(r);
    p = test_params("vector-add", 1000, 256, 0);
    p.fast_reference = 1;
    r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_false(r->reference_blas); /* no library reference for vectors */
    report_release(r);
}

/* The 128-byte segments (32 floats each) the writes of one warp touch, computed from the kernel's
   mapping alone: cook t of team (bx, by) has x = t % side, y = t / side; naive writes C[x'][y'],
   coalesced C[y'][x'], with x' = bx * side + x and y' = by * side + y. */
static int expected_segments(int naive, int64_t n, unsigned side, unsigned bx, unsigned by, unsigned warp,
                             int *full)
{
    int64_t seg[32];
    int count = 0;
    *full = 1;
    for (unsigned t = warp * 32; t < warp * 32 + 32 && t < side * side; t++) {
        int64_t gx = (int64_t)bx * side + t % side, gy = (int64_t)by * side + t / side;
        if (gx >= n || gy >= n) {
            *full = 0;
            continue;
        }
        int64_t element = naive ? gx * n + gy : gy * n + gx;
        seg[count++] = element * 4 / 128;
    }
    *full &= count == 32;
    int distinct = 0;
    for (int i = 0; i < count; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= seg[j] == seg[i];
        distinct += !seen;
    }
    return distinct;
}

/* access_trace: the naive kernel's warp scatters over more segments than the coalesced one's, by
   exactly as many as the mappings say, for team 0's first warp and on average over full warps. */
static void test_access_segments(void **state)
{
    (void)state;
    static const struct {
        int64_t n;
        int tpb;
        unsigned side;
    } cases[] = {{64, 256, 16}, {100, 1024, 32}, {64, 64, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t n = cases[c].n;
        unsigned side = cases[c].side, teams = (unsigned)((n + side - 1) / side);
        access_pattern pat[2];
        for (int naive = 0; naive < 2; naive++) {
            chef_error err = {0};
            access_pattern *a = &pat[naive];
            int code = access_trace(naive ? "matmul-naive" : "matmul-coalesced", n, cases[c].tpb, a, &err);
            if (code != 0)
                fprintf(stderr, "access_trace: exit %d: %s\n", code, err.message);
            assert_int_equal(code, 0);
            assert_int_equal(a->cooks, 32);
            assert_int_equal(a->width, n);
            assert_string_equal(a->buffer, "C");
            for (unsigned t = 0; t < 32; t++) {
                int64_t x = t % side, y = t / side;
                assert_int_equal(a->element[t], naive ? x * n + y : y * n + x);
                assert_int_equal(a->segment[t], a->element[t] * 4 / 128);
            }
            int full, first = expected_segments(naive, n, side, 0, 0, 0, &full);
            assert_int_equal(a->segments, first);
            int full_warps = 0;
            double total = 0;
            for (unsigned by = 0; by < teams; by++)
                for (unsigned bx = 0; bx < teams; bx++)
                    for (unsigned w = 0; w < (side * side + 31) / 32; w++) {
                        int s = expected_segments(naive, n, side, bx, by, w, &full);
                        if (full) {
                            full_warps++;
                            total += s;
                        }
                    }
            assert_int_equal(a->full_warps, full_warps);
            assert_true(fabs(a->mean_segments - total / full_warps) < 1e-9);
        }
        assert_true(pat[1].segments > pat[0].segments);
        assert_true(pat[1].mean_segments > pat[0].mean_segments);
        /* and the text and JSON carry the counts */
        json_t *j = access_json(&pat[1]);
        assert_int_equal(json_integer_value(json_object_get(j, "segments")), pat[1].segments);
        assert_int_equal(json_array_size(json_object_get(j, "warp")), 32);
        json_decref(j);
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);
        assert_non_null(f);
        access_text(f, &pat[1]);
        fclose(f);
        assert_non_null(strstr(text, "emulator"));
        assert_non_null(strstr(text, "C[1][0]"));
        free(text);
    }
    chef_error err = {0};
    access_pattern a;
    assert_int_equal(access_trace("matmul-naive", 2000, 256, &a, &err), CHEF_EXIT_USAGE); /* 4 million cooks */
    assert_true(strlen(err.message) > 0);
}

/* Picks the backend; on "gpu" without a usable GPU prints one SKIP line and succeeds. */
/* Every device file of assets/devices/ is read whole; an unknown name is a usage error. */
static void test_model_devices(void **state)
{
    (void)state;
    static const char *const ids[] = {"h200", "a100", "t4"};
    chef_error err = {0};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        model_device d;
        assert_int_equal(model_device_load(ids[i], &d, &err), 0);
        assert_true(d.stations > 0 && d.dram_gb_s > 0 && d.warps_to_hide_latency > 0 && d.name[0]);
    }
    model_device d;
    assert_int_equal(model_device_load("no-such-gpu", &d, &err), -1);
    assert_int_equal(err.exit_code, CHEF_EXIT_USAGE);
    assert_int_equal(model_device_load("../etc", &d, &err), -1);
    assert_int_equal(err.exit_code, CHEF_EXIT_USAGE);
    assert_int_equal(model_device_open(NULL, &d, &err), 0);
    assert_string_equal(d.id, MODEL_DEFAULT_DEVICE);
    /* the road the streams demo models: measured on the H200, not given for the others */
    assert_true(d.copy_us > 0 && d.pinned_gb_s > d.pageable_gb_s && d.pageable_gb_s > 0);
    assert_int_equal(model_device_load("a100", &d, &err), 0);
    assert_true(d.pinned_gb_s == 0 && d.copy_us == 0);
}

/* The model by hand: each term is its counted work over its throughput, the slowest bounds it,
   idle stations and too few warps slow the per-station terms, uncounted launches are refused. */
static void test_model_by_hand(void **state)
{
    (void)state;
    model_device d;
    chef_error err = {0};
    assert_int_equal(model_device_load("h200", &d, &err), 0);
    counters c;
    memset(&c, 0, sizeof c);
    model_result m;
    model_launch l = {.teams = 4096, .cooks_per_team = 256};
    assert_int_equal(model_predict(&d, &c, &l, &m), -1); /* not counted */
    c.valid = 1;
    c.teams = c.teams_counted = 4096;
    c.value[COUNTER_GLOBAL_LD_SECTORS] = 10000000;
    c.value[COUNTER_GLOBAL_SECTORS_DISTINCT] = 1000;
    assert_int_equal(model_predict(&d, &c, &l, &m), 0);
    assert_int_equal(m.bound, MODEL_BOUND_L2);
    assert_int_equal(m.teams_per_station, 8); /* 2048 threads a station / 256 */
    assert_true(fabs(m.ms - (d.launch_us * 1e-3 + 320e6 / (d.l2_gb_s * 1e9) * 1e3)) < 1e-9);
    /* the same work in 4 teams: 4 stations of 132 busy, each with 8 warps of the 16 it needs */
    model_result few;
    l.teams = 4;
    assert_int_equal(model_predict(&d, &c, &l, &few), 0);
    assert_true(fabs(few.l2_ms / m.l2_ms - (d.stations / 4.0) * (d.warps_to_hide_latency / 8.0)) < 1e-6);
    l.teams = 4096;
    /* shared wavefronts: one per station per clock */
    memset(c.value, 0, sizeof c.value);
    c.value[COUNTER_SHARED_LD_WAVEFRONTS] = (uint64_t)(d.stations * d.clock_ghz * 1e9 / 1000); /* 1 ms */
    assert_int_equal(model_predict(&d, &c, &l, &m), 0);
    assert_int_equal(m.bound, MODEL_BOUND_SHARED);
    assert_true(fabs(m.shared_ms - 1.0) < 1e-3);
    /* atomics on one address queue */
    c.value[COUNTER_ATOMICS_ONE_ADDRESS] = 10000000;
    assert_int_equal(model_predict(&d, &c, &l, &m), 0);
    assert_int_equal(m.bound, MODEL_BOUND_ATOMICS);
    assert_true(fabs(m.atomics_ms - 1e7 * d.atomic_one_address_ns * 1e-6) < 1e-9);
    /* a few teams counted of many: the totals scale */
    memset(c.value, 0, sizeof c.value);
    c.value[COUNTER_FP32_OPS] = 1000000;
    c.teams_counted = 16;
    assert_int_equal(model_predict(&d, &c, &l, &m), 0);
    assert_true(fabs(m.flops - 1e6 * 4096 / 16) < 1);
    /* the same multiply-adds on the TF32 tensor cores: at their pace, 2048 per station per clock
       on the H200 against 256 on the CUDA cores; a device without them (t4) keeps the lanes' pace */
    model_result tensor;
    l.tensor_tf32 = 1;
    assert_int_equal(model_predict(&d, &c, &l, &tensor), 0);
    assert_true(d.tf32_tensor_flops > d.fp32_lanes * 2);
    assert_true(fabs(m.compute_ms / tensor.compute_ms - d.tf32_tensor_flops / (d.fp32_lanes * 2)) < 1e-6);
    assert_true(tensor.peak_gflops > m.peak_gflops);
    model_device t4;
    assert_int_equal(model_device_load("t4", &t4, &err), 0);
    assert_true(t4.tf32_tensor_flops == 0);
    model_result t4_plain, t4_tensor;
    l.tensor_tf32 = 0;
    assert_int_equal(model_predict(&t4, &c, &l, &t4_plain), 0);
    l.tensor_tf32 = 1;
    assert_int_equal(model_predict(&t4, &c, &l, &t4_tensor), 0);
    assert_true(t4_plain.compute_ms == t4_tensor.compute_ms);
    l.tensor_tf32 = 0;
    /* nothing at all: the launch's fixed cost */
    memset(c.value, 0, sizeof c.value);
    assert_int_equal(model_predict(&d, &c, &l, &m), 0);
    assert_int_equal(m.bound, MODEL_BOUND_LATENCY);
}

/* The model reads no name: model.c and model.h include nothing that declares a recipe or a
   kernel, and their code (comments aside) never says "recipe" or "kernel". */
static void test_model_reads_no_names(void **state)
{
    (void)state;
    static const char *const files[] = {"src/engine/model.c", "src/engine/model.h"};
    for (size_t f = 0; f < 2; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", test_source_dir(), files[f]);
        FILE *in = fopen(path, "r");
        assert_non_null(in);
        char line[1024];
        int in_comment = 0;
        while (fgets(line, sizeof line, in)) {
            char code[1024];
            size_t k = 0;
            for (size_t i = 0; line[i]; i++) { /* drop comments */
                if (in_comment) {
                    if (line[i] == '*' && line[i + 1] == '/')
                        in_comment = 0, i++;
                } else if (line[i] == '/' && line[i + 1] == '*') {
                    in_comment = 1, i++;
                } else {
                    code[k++] = line[i];
                }
            }
            code[k] = '\0';
            if (strncmp(code, "#include \"", 10) == 0) {
                int allowed = strstr(code, "\"engine/model.h\"") || strstr(code, "\"base/chef.h\"") ||
                              strstr(code, "\"base/counters.h\"") || strstr(code, "\"base/i18n.h\"");
                if (!allowed)
                    print_error("%s includes %s", files[f], code);
                assert_true(allowed);
            }
            if (strstr(code, "recipe") || strstr(code, "kernel"))
                print_error("%s: %s", files[f], code);
            assert_null(strstr(code, "recipe"));
            assert_null(strstr(code, "kernel"));
        }
        fclose(in);
    }
}

/* The share of pairs (percent) the model must rank as the H200 does (docs/PERFORMANCE.md). */
#define MODEL_RANK_GOAL_PERCENT 100

/* One run of the H200 calibration file: its GPU time and the counts of its launch. */
typedef struct model_row {
    char recipe[64];
    long long n;
    double gpu_ms, model_ms;
} model_row;

/* The H200 calibration (tests/data/h200-calibration.tsv: the GPU's CUDA-event medians and the
   emulator's counts of the same launches, docs/PERFORMANCE.md): the model, run on those counts,
   ranks every pair of one size that the H200 puts 1.3x or more apart as the H200 does, but the
   pairs listed as known misses, and is within 2x of the H200 for 80% of the runs or more. */
static void test_model_ranks_recipes(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/h200-calibration.tsv", test_source_dir());
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    model_device d;
    chef_error err = {0};
    assert_int_equal(model_device_load("h200", &d, &err), 0);
    static model_row rows[256];
    int nrows = 0;
    static char line[65536];
    while (fgets(line, sizeof line, in) && nrows < 256) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *save = NULL, *recipe = strtok_r(line, "\t", &save), *n = strtok_r(NULL, "\t", &save),
             *gpu = strtok_r(NULL, "\t", &save);
        strtok_r(NULL, "\t", &save); /* the model's time when the file was written */
        strtok_r(NULL, "\t", &save); /* its bound */
        char *counted = strtok_r(NULL, "\n", &save);
        assert_non_null(counted);
        json_error_t jerr;
        json_t *j = json_loads(counted, 0, &jerr);
        assert_non_null(j);
        counters c;
        memset(&c, 0, sizeof c);
        c.valid = 1;
        json_t *counting = json_object_get(j, "counting"), *values = json_object_get(j, "counters");
        c.teams = (uint64_t)json_integer_value(json_object_get(counting, "teams"));
        c.teams_counted = (uint64_t)json_integer_value(json_object_get(counting, "teams_counted"));
        for (int i = 0; i < COUNTER_COUNT; i++) {
            json_t *v = json_object_get(values, counter_table[i].metric);
            if (!v && (i == COUNTER_WARP_BLOCKS || i == COUNTER_WARP_BLOCKS_DIVERGENT))
                continue; /* counted since the calibration run; the model does not read them */
            assert_non_null(v);
            /* scaled totals come back as the counted teams' */
            c.value[i] = (uint64_t)llround(json_number_value(v) * (double)c.teams_counted / (double)c.teams);
        }
        model_launch l = {.teams = c.teams};
        l.cooks_per_team = (uint64_t)json_integer_value(json_object_get(j, "cooks_per_team"));
        l.shared_bytes_per_team = (uint64_t)json_integer_value(json_object_get(j, "shared_bytes_per_team"));
        /* the registers nvcc gave the recipe's kernel, as a run models it (none without CUDA) */
        const struct recipe *kind = recipe_find(recipe);
        l.registers_per_cook = kind ? resources_registers(kind->kernel, d.compute_capability) : 0;
        model_result m;
        assert_int_equal(model_predict(&d, &c, &l, &m), 0);
        model_row *r = &rows[nrows++];
        snprintf(r->recipe, sizeof r->recipe, "%s", recipe);
        r->n = atoll(n);
        r->gpu_ms = atof(gpu);
        r->model_ms = m.ms;
        json_decref(j);
    }
    fclose(in);
    assert_true(nrows >= 40);
    int pairs = 0, same = 0, within = 0;
    for (int a = 0; a < nrows; a++) {
        double ratio = rows[a].model_ms / rows[a].gpu_ms;
        within += ratio >= 0.5 && ratio <= 2.0;
        for (int b = a + 1; b < nrows; b++) {
            if (rows[a].n != rows[b].n)
                continue;
            double hi = fmax(rows[a].gpu_ms, rows[b].gpu_ms), lo = fmin(rows[a].gpu_ms, rows[b].gpu_ms);
            if (hi / lo < 1.3)
                continue;
            pairs++;
            int agree = (rows[a].gpu_ms < rows[b].gpu_ms) == (rows[a].model_ms < rows[b].model_ms);
            same += agree;
            if (!agree)
                print_message("model ranks %s and %s at n = %lld the other way (H200 %.4f / %.4f ms, model %.4f / %.4f)\n",
                              rows[a].recipe, rows[b].recipe, rows[a].n, rows[a].gpu_ms, rows[b].gpu_ms,
                              rows[a].model_ms, rows[b].model_ms);
        }
    }
    print_message("model: %d of %d pairs ranked as the H200 ranks them; %d of %d runs within 2x\n", same, pairs,
                  within, nrows);
    assert_true(within * 10 >= nrows * 8);
    assert_true(pairs > 0);
    assert_true(same * 100 >= pairs * MODEL_RANK_GOAL_PERCENT);
}

/* On a GPU the launch is also counted on the emulator, on the same inputs and only in its counted
   teams (at most about 64 of them), and the model of this GPU stands beside the measured median
   with its error; on the emulator the counts are the run's own and there is no such error. */
static void test_model_beside_measurement(void **state)
{
    (void)state;
    kitchen_params p = test_params("matmul-tiled", 256, 256, 0);
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_true(r->counters.valid && r->modeled && r->model.ms > 0);
    if (test_backend == BACKEND_GPU) {
        assert_true(r->counted_beside);
        assert_true(r->counters.teams_counted >= 1 && r->counters.teams_counted <= 64);
        assert_int_equal(r->counters.teams, r->teams);
        assert_true(counters_scaled(&r->counters, COUNTER_GLOBAL_LD_SECTORS) > 0);
        json_t *doc = report_run_json(r);
        json_t *m = json_object_get(json_object_get(json_object_get(doc, "steps"), "cook"), "model");
        if (strcmp(r->backend.name, r->model_device.name) == 0) { /* the GPU modeled is this one */
            double error = json_number_value(json_object_get(m, "error"));
            print_message("model beside the GPU: modeled %.4f ms, measured %.4f ms, %.2fx\n", r->model.ms, r->cook_ms,
                          error);
            assert_true(error > 0.25 && error < 4);
        }
        json_decref(doc);
    } else {
        assert_false(r->counted_beside);
    }
    report_release(r);
}

/* The registers nvcc gave the kernels: in a CUDA build every kernel of the tree has a row for
   each architecture, the newest at most the GPU's is taken, a GPU older than every one has none;
   a build without CUDA knows none. Then a modeled run says what limited its occupancy with them. */
static void test_kernel_registers(void **state)
{
    (void)state;
    int rows = 0;
    for (const kernel_resource *k = kernel_resources; k->kernel; k++) {
        rows++;
        assert_true(k->registers > 0 && k->registers <= 255 && k->sm >= 30);
    }
#ifdef CHEF_WITH_CUDA
    /* the architectures the build's GPU code was made for (the Makefile's GPU_ARCH_LIST): each has
       a row for every kernel, and one left out (sm_80 in a build for sm_90 alone) has none */
    int archs = 0, built80 = 0;
    for (const char *a = CHEF_GPU_SMS; *a;) {
        char *end;
        long sm = strtol(a, &end, 10);
        if (end == a)
            break;
        archs++;
        built80 |= sm == 80;
        assert_true(resources_registers("matmul_tiled", (double)sm / 10.0) > 0);
        a = end;
    }
    assert_true(archs >= 1);
    assert_true(rows >= archs * 15);
    int r90 = resources_registers("matmul_tiled", 9.0), r80 = resources_registers("matmul_tiled", 8.0);
    assert_true(r90 > 0);
    assert_true(built80 ? r80 > 0 : r80 == 0 || strstr(CHEF_GPU_SMS, "75") != NULL);
    assert_int_equal(resources_registers("matmul_tiled", 9.9), r90); /* a newer GPU loads sm_90's */
    assert_int_equal(resources_registers("matmul_tiled", 3.0), 0);
    assert_int_equal(resources_card("matmul_tiled", 9.0)->shared_bytes, 2048); /* two 16 x 16 tiles */
    assert_null(resources_card("matmul_tiled", 3.0));
#else
    assert_int_equal(rows, 0);
#endif
    assert_int_equal(resources_registers("no_such_kernel", 9.0), 0);
    assert_int_equal(resources_registers(NULL, 9.0), 0);
}

/* scripts/kernel-resources.sh on a ptxas report with a spill: every figure of the card into its
   row, the traced copy left out, a kernel without shared memory or barriers given 0 for them. */
static void test_kernel_resources_script(void **state)
{
    (void)state;
    char dir[256], log[320], out[320], script[4200];
    snprintf(dir, sizeof dir, "%s/test-resources-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/ptxas.log", dir);
    snprintf(out, sizeof out, "%s/resources.c", dir);
    snprintf(script, sizeof script, "%s/scripts/kernel-resources.sh", test_source_dir());
    FILE *f = fopen(log, "w");
    assert_non_null(f);
    fputs("ptxas info    : Compiling entry function '_ZN10chef_plain7spillerEPKfPfi' for 'sm_90'\n"
          "ptxas info    : Function properties for _ZN10chef_plain7spillerEPKfPfi\n"
          "    264 bytes stack frame, 40 bytes spill stores, 48 bytes spill loads\n"
          "ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem, 380 bytes cmem[0]\n"
          "ptxas info    : Compiling entry function '_ZN11chef_traced14spiller_tracedEPKfPfiP1x' for 'sm_90'\n"
          "ptxas info    : Function properties for _ZN11chef_traced14spiller_tracedEPKfPfiP1x\n"
          "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
          "ptxas info    : Used 30 registers, used 0 barriers, 380 bytes cmem[0]\n"
          "ptxas info    : Compiling entry function '_ZN10chef_plain4plusEPKfPfi' for 'sm_80'\n"
          "ptxas info    : Function properties for _ZN10chef_plain4plusEPKfPfi\n"
          "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
          "ptxas info    : Used 12 registers, 380 bytes cmem[0]\n",
          f);
    fclose(f);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", script, log, out, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char text[4096] = "";
    f = fopen(out, "r");
    assert_non_null(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "{\"spiller\", 90, 255, 4096, 264, 40, 48, 1},"));
    assert_non_null(strstr(text, "{\"plus\", 80, 12, 0, 0, 0, 0, 0},"));
    assert_null(strstr(text, "traced"));
    unlink(log);
    unlink(out);
    rmdir(dir);
}

/* The kitchen's notes of one run, kept for the test. */
static char test_notes[2048];
static int test_nnotes;

/* Keeps a note. */
static void test_note(const char *text)
{
    test_nnotes++;
    snprintf(test_notes, sizeof test_notes, "%s", text);
}

/* The wait note is predicted from the recipe's measured pace: a pace written into this machine's
   rates that makes matmul-tiled at 32 a minute's work draws one note, before the run, naming the
   recipe and where the pace came from; a run long enough to time then puts its own pace there
   (a real one, far quicker), and the same small run draws no note. vector-add at 1000 (the
   reference machine's pace) draws none. */
static void test_wait_note_from_rates(void **state)
{
    (void)state;
    if (test_backend != BACKEND_EMU)
        skip(); /* the note is the emulator's */
    char dir[256], path[4200], *old = getenv("CUDACHEF_CACHE_HOME");
    old = old ? strdup(old) : NULL;
    snprintf(dir, sizeof dir, "%s/cudachef-rates-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
    assert_int_equal(setenv("CUDACHEF_CACHE_HOME", dir, 1), 0);
    assert_int_equal(rates_path(path, sizeof path), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "# a pace far slower than any machine's\nmatmul-tiled\t2\t1000\t2e6\t2e5\t1\t-\n");
    assert_int_equal(fclose(f), 0);
    rates_entry e;
    assert_int_equal(rates_find("matmul-tiled", &e), 2);
    assert_true(e.counted_ns == 2e6 && e.plain_ns == 2e5 && e.work == 1000);

    kitchen_params p = test_params("matmul-tiled", 32, 256, 0);
    p.note = test_note;
    test_nnotes = 0;
    int code;
    kitchen_report *r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_int_equal(test_nnotes, 1);
    assert_non_null(strstr(test_notes, "matmul-tiled at n = 32"));
    assert_non_null(strstr(test_notes, "measured on this machine"));
    report_release(r);

    p = test_params("matmul-tiled", 128, 256, 0); /* some 2e6 multiply-adds: long enough to time */
    r = run_kitchen(&p, &code);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_int_equal(rates_find("matmul-tiled", &e), 2);
    /* this run's own paces replaced the ones written above: each is the one its figures give (how
       quick they are depends on the machine and on what else runs, so no speed is asserted) */
    assert_true(fabs(e.work - 128.0 * 128 * 128) < 1e4); /* written with 4 digits */
    double work = 128.0 * 128 * 128, plain_ns = r->cook_ms * 1e6 / work;
    double share = r->counters.teams_counted > 0 && r->teams > 0 ? (double)r->counters.teams_counted / r->teams : 1;
    double counted_ns = (r->traced_ms - (1 - share) * work * plain_ns * 1e-6) * 1e6 / (share * work);
    assert_true(e.counted_ns > 0 && e.plain_ns > 0);
    if (fabs(e.plain_ns - plain_ns) > 1e-3 * plain_ns || fabs(e.counted_ns - counted_ns) > 1e-3 * counted_ns)
        fail_msg("the rates hold %g and %g ns a multiply-add (counted, plain); this run's figures give %g and %g",
                 e.counted_ns, e.plain_ns, counted_ns, plain_ns);
    report_release(r);

    p = test_params("matmul-tiled", 32, 256, 0);
    p.note = test_note;
    test_nnotes = 0;
    r = run_kitchen(&p, &code);
    assert_int_equal(test_nnotes, 0);
    report_release(r);
    p = test_params("vector-add", 1000, 256, 0);
    p.note = test_note;
    r = run_kitchen(&p, &code);
    assert_int_equal(test_nnotes, 0);
    report_release(r);
    if (old)
        setenv("CUDACHEF_CACHE_HOME", old, 1);
    else
        unsetenv("CUDACHEF_CACHE_HOME");
    free(old);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    setenv("CUDACHEF_DATA", test_source_dir(), 0); /* assets/devices/ of this tree */
    test_backend = test_backend_from_env();
    if (test_backend_skip(test_backend))
        return 0;
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wait_note_from_rates),
        cmocka_unit_test(test_model_beside_measurement),
        cmocka_unit_test(test_kernel_registers),
        cmocka_unit_test(test_kernel_resources_script),
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
        cmocka_unit_test(test_elementwise_recipes),
        cmocka_unit_test(test_counting_examples_new),
        cmocka_unit_test(test_sum_reduce),
        cmocka_unit_test(test_matmul_naive_coalesced),
        cmocka_unit_test(test_matmul_owner),
        cmocka_unit_test(test_transposes),
        cmocka_unit_test(test_warp_and_atomic_recipes),
        cmocka_unit_test(test_scans),
        cmocka_unit_test(test_ladder_rungs),
        cmocka_unit_test(test_tensor_rung),
        cmocka_unit_test(test_wmma_recipes),
        cmocka_unit_test(test_ladder_owner),
        cmocka_unit_test(test_vector_add_float4),
        cmocka_unit_test(test_missing_barriers_fail),
        cmocka_unit_test(test_fast_reference),
        cmocka_unit_test(test_access_segments),
        cmocka_unit_test(test_model_devices),
        cmocka_unit_test(test_model_by_hand),
        cmocka_unit_test(test_model_reads_no_names),
        cmocka_unit_test(test_model_ranks_recipes),
    };
    printf("test_kitchen: backend %s\n", backend_kind_name(test_backend));
    size_t n = test_shard_select(tests, sizeof tests / sizeof *tests); /* make valgrind runs it in two */
    return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
