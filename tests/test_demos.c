/*
 * test_demos.c - the clock, trips, walk, streams and managed demos, run for real, checked on what
 * does not depend on timing: the taste, the order of min, median and max, byte and shipment counts,
 * every step of the walk, which ways of the managed demo ran and what moved, counts of one said in
 * the singular, and the JSON fields programs read (against the schema); and the streams demo's
 * timeline as pure maths (timeline.c): its schedule, overlap and rows.
 *
 * The backend comes from CUDACHEF_TEST_BACKEND: "gpu" runs the demos on the GPU (and the whole file
 * skips with one "SKIP:" line when there is no usable GPU), anything else on the CPU emulator.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_backend.h"

#include "base/text.h"
#include "demos/card.h"
#include "demos/clock.h"
#include "demos/listing.h"
#include "demos/managed.h"
#include "demos/roofline.h"
#include "demos/streams.h"
#include "demos/timeline.h"
#include "demos/trips.h"
#include "demos/walk.h"
#include "test_tree.h"

static backend_kind test_backend = BACKEND_EMU;

/* Demo parameters on the test backend, everything else at its default. */
static demo_params test_params(const char *recipe, int64_t n, int repeat)
{
    demo_params p;
    memset(&p, 0, sizeof p);
    kitchen_params_default(&p.run);
    p.run.recipe = recipe;
    p.run.n = n;
    p.run.repeat = repeat;
    p.run.backend = test_backend;
    return p;
}

/* Writes a demo's text into a string (caller frees). */
static char *test_text(void (*write)(FILE *, const void *), const void *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    write(f, r);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* clock_text with test_text's signature. */
static void test_clock_text(FILE *f, const void *r)
{
    clock_text(f, r);
}

/* trips_text with test_text's signature. */
static void test_trips_text(FILE *f, const void *r)
{
    trips_text(f, r);
}

/* managed_text with test_text's signature. */
static void test_managed_text(FILE *f, const void *r)
{
    managed_text(f, r);
}

/* walk_text with test_text's signature. */
static void test_walk_text(FILE *f, const void *r)
{
    walk_text(f, r);
}

/* How many times needle occurs in text. */
static int test_count(const char *text, const char *needle)
{
    int count = 0;
    size_t len = strlen(text);
    for (size_t at = 0; at < len; at++)
        count += strncmp(text + at, needle, strlen(needle)) == 0;
    return count;
}

/* Asserts that text has no English count of one with a plural noun ("1 kernels"). */
static void test_no_plural_one(const char *text)
{
    static const char *const words[] = {"1 kernels", "1 launches", "1 teams", "1 cooks", "1 steps", "1 runs",
                                        "1 worker threads", "1 elements"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const char *p = strstr(text, words[i]);
        /* "21 kernels" is fine: only a count that is exactly 1 */
        while (p && p > text && p[-1] >= '0' && p[-1] <= '9')
            p = strstr(p + 1, words[i]);
        if (p)
            fprintf(stderr, "plural after 1: %.40s\n", p);
        assert_null(p);
    }
}

/* Asserts that object o has a member called key. */
static json_t *test_member(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        fprintf(stderr, "JSON member '%s' missing\n", key);
    assert_non_null(v);
    return v;
}

/* clock: the first launch was timed, min <= median <= max, and the launches tasted right. */
static void test_clock_vector_add(void **state)
{
    (void)state;
    demo_params p = test_params("vector-add", 100000, 9);
    chef_error err = {0};
    clock_result *r = NULL;
    int code = clock_run(&p, &r, &err);
    if (code != 0)
        fprintf(stderr, "clock: exit %d: %s\n", code, err.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_non_null(r);
    assert_int_equal(r->exit_code, CHEF_EXIT_OK);
    assert_int_equal(r->backend.kind, test_backend);
    assert_true(r->ran);
    assert_int_equal(r->repeat, 9);
    assert_int_equal(r->n, 100000);
    assert_int_equal(r->grid.x, 391);
    assert_int_equal(r->block.x, 256);
    assert_true(r->first_host_ms >= 0);
    assert_true(r->first_kernel_ms >= 0);
    assert_true(r->warm.min <= r->warm.median);
    assert_true(r->warm.median <= r->warm.max);
    assert_true(r->warm.min <= r->warm.mean && r->warm.mean <= r->warm.max);
    assert_true(r->warm_host.min <= r->warm_host.median && r->warm_host.median <= r->warm_host.max);
    assert_true(r->taste.passed);
    assert_int_equal(r->taste.checked, 100000);
    assert_int_equal(r->taste.correct, 100000);
    if (test_backend == BACKEND_EMU) {
        /* one reading: a launch on the emulator returns when it is done */
        assert_false(r->sync_separate);
        assert_true(r->no_sync.median == r->with_sync.median);
        assert_int_equal(r->launches, 1 + 9);
    } else {
        assert_true(r->sync_separate);
        /* two timings of a busy machine: printed, not asserted (the launch without a wait for the
           kernel is usually the quicker) */
        print_message("clock on the GPU: median %.4f ms without the wait for the kernel, %.4f ms with it\n",
                      r->no_sync.median, r->with_sync.median);
        assert_int_equal(r->launches, 1 + 3 * 9);
    }
    char *text = test_text(test_clock_text, r);
    assert_non_null(strstr(text, "(a)"));
    assert_non_null(strstr(text, "median"));
    assert_non_null(strstr(text, "PASS"));
    if (test_backend == BACKEND_EMU) {
        assert_non_null(strstr(text, "does not invent"));
        /* one reading, one row: no second row repeating the same figure */
        assert_non_null(strstr(text, "with or without synchronizing"));
        assert_null(strstr(text, "the same launches"));
        assert_int_equal(test_count(text, "host timer"), 1);
    }
    free(text);
    json_t *j = clock_json(r);
    assert_string_equal(json_string_value(test_member(j, "kind")), "clock");
    assert_string_equal(json_string_value(test_member(j, "status")), "passed");
    json_t *first = test_member(j, "first");
    assert_true(json_real_value(test_member(first, "host_ms")) >= 0);
    json_t *warm = test_member(j, "warm");
    test_member(warm, "min_ms");
    test_member(warm, "median_ms");
    test_member(warm, "max_ms");
    assert_int_equal(json_array_size(test_member(warm, "runs_ms")), 9);
    json_t *stop = test_member(j, "stop_the_clock");
    test_member(stop, "no_sync");
    test_member(stop, "with_sync");
    test_member(stop, "events");
    assert_true(json_is_true(test_member(test_member(j, "taste"), "passed")));
    json_decref(j);
    clock_free(r);
}

/* clock: one team of one cook and one warm launch are said in the singular. */
static void test_clock_singular(void **state)
{
    (void)state;
    demo_params p = test_params("vector-add", 1, 1);
    p.run.threads_per_block = 1;
    chef_error err = {0};
    clock_result *r = NULL;
    assert_int_equal(clock_run(&p, &r, &err), CHEF_EXIT_OK);
    assert_int_equal(r->grid.x, 1);
    assert_int_equal(r->block.x, 1);
    char *text = test_text(test_clock_text, r);
    assert_non_null(strstr(text, "1 team of 1 cook)"));
    assert_non_null(strstr(text, "one warm launch"));
    test_no_plural_one(text);
    free(text);
    clock_free(r);
}

/* clock: an unknown recipe is a usage error, before any kitchen opens. */
static void test_clock_unknown_recipe(void **state)
{
    (void)state;
    demo_params p = test_params("no-such-recipe", 10, 3);
    chef_error err = {0};
    clock_result *r = NULL;
    assert_int_equal(clock_run(&p, &r, &err), CHEF_EXIT_USAGE);
    assert_null(r);
    assert_non_null(strstr(err.message, "no-such-recipe"));
}

/* trips: all four variants taste right, and the round trip ships exactly steps times the bytes. */
static void test_trips_four_variants(void **state)
{
    (void)state;
    const int64_t n = 1 << 16;
    const int steps = 5;
    demo_params p = test_params(NULL, n, 0);
    p.steps = steps;
    p.run.seed = 7;
    chef_error err = {0};
    trips_result *r = NULL;
    int code = trips_run(&p, &r, &err);
    if (code != 0)
        fprintf(stderr, "trips: exit %d: %s\n", code, err.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_non_null(r);
    assert_int_equal(r->nvariants, TRIPS_VARIANTS);
    assert_int_equal(r->steps, steps);
    assert_int_equal(r->n, n);
    assert_int_equal(r->repeat, TRIPS_DEFAULT_REPEAT); /* the demo gave none */
    const size_t bytes = (size_t)n * sizeof(float);
    for (int i = 0; i < TRIPS_VARIANTS; i++) {
        const trips_variant *v = &r->variants[i];
        assert_true(v->ran);
        assert_true(v->taste.passed);
        /* one warm-up run and the timed runs, every one tasted right */
        assert_int_equal(v->runs, TRIPS_DEFAULT_REPEAT);
        assert_int_equal(v->tasted, TRIPS_DEFAULT_REPEAT + 1);
        assert_int_equal(v->tasted_right, TRIPS_DEFAULT_REPEAT + 1);
        /* the total is the median of the timed runs' totals */
        double lo = v->total_runs[0], hi = v->total_runs[0];
        int below = 0, above = 0;
        for (int k = 0; k < v->runs; k++) {
            lo = v->total_runs[k] < lo ? v->total_runs[k] : lo;
            hi = v->total_runs[k] > hi ? v->total_runs[k] : hi;
            below += v->total_runs[k] <= v->total_ms;
            above += v->total_runs[k] >= v->total_ms;
        }
        assert_true(lo <= v->total_ms && v->total_ms <= hi);
        assert_true(below >= (v->runs + 1) / 2 && above >= (v->runs + 1) / 2);
        assert_int_equal(v->taste.checked, (size_t)n);
        assert_int_equal(v->taste.correct, (size_t)n);
        assert_int_equal(v->round_trip, i % 2);
        assert_int_equal(v->pinned, i / 2);
        assert_int_equal(v->launches, steps);
        assert_true(v->road_share >= 0 && v->road_share <= 1);
        if (v->round_trip) {
            assert_int_equal(v->bytes_in, (size_t)steps * 2 * bytes);
            assert_int_equal(v->bytes_out, (size_t)steps * bytes);
            assert_int_equal(v->shipments_in, 2 * steps);
            assert_int_equal(v->shipments_out, steps);
            /* exactly steps times the stay's bytes, in and out */
            assert_int_equal(v->bytes_in, (size_t)steps * r->variants[i - 1].bytes_in);
            assert_int_equal(v->bytes_out, (size_t)steps * r->variants[i - 1].bytes_out);
        } else {
            assert_int_equal(v->bytes_in, 2 * bytes);
            assert_int_equal(v->bytes_out, bytes);
            assert_int_equal(v->shipments_in, 2);
            assert_int_equal(v->shipments_out, 1);
        }
    }
    assert_true(r->ratio_pageable > 0);
    assert_true(r->ratio_pinned > 0);
    char *text = test_text(test_trips_text, r);
    assert_non_null(strstr(text, "round trip, pinned memory"));
    assert_non_null(strstr(text, "4 of 4 variants correct"));
    assert_non_null(strstr(text, "the median of 5 runs"));
    assert_non_null(strstr(text, "a chain of 5 kernels"));
    if (test_backend == BACKEND_EMU)
        assert_non_null(strstr(text, "pinned changes nothing here"));
    free(text);
    json_t *j = trips_json(r);
    assert_string_equal(json_string_value(test_member(j, "kind")), "trips");
    assert_int_equal(json_integer_value(test_member(j, "steps")), steps);
    assert_int_equal(json_integer_value(test_member(j, "repeat")), TRIPS_DEFAULT_REPEAT);
    assert_int_equal(json_integer_value(test_member(j, "warm_up_runs")), 1);
    json_t *variants = test_member(j, "variants");
    assert_int_equal(json_array_size(variants), TRIPS_VARIANTS);
    json_t *round = json_array_get(variants, 1);
    assert_string_equal(json_string_value(test_member(round, "way")), "round-trip");
    assert_string_equal(json_string_value(test_member(round, "memory")), "pageable");
    assert_int_equal(json_integer_value(test_member(round, "bytes_in")), (json_int_t)(steps * 2 * bytes));
    test_member(round, "ship_in_ms");
    test_member(round, "cook_ms");
    test_member(round, "ship_out_ms");
    test_member(round, "total_ms");
    test_member(round, "gb_per_s");
    test_member(round, "road_share");
    assert_int_equal(json_array_size(test_member(round, "total_runs_ms")), TRIPS_DEFAULT_REPEAT);
    assert_int_equal(json_integer_value(test_member(round, "tasted_runs")), TRIPS_DEFAULT_REPEAT + 1);
    assert_int_equal(json_integer_value(test_member(round, "tasted_right_runs")), TRIPS_DEFAULT_REPEAT + 1);
    assert_true(json_is_true(test_member(test_member(round, "taste"), "passed")));
    json_t *ratio = test_member(j, "ratio_round_trip_to_stay");
    test_member(ratio, "pageable");
    test_member(ratio, "pinned");
    json_decref(j);
    trips_free(r);
}

/* trips: a chain of one step timed once is said in the singular, and both ways ship the same bytes. */
static void test_trips_one_step(void **state)
{
    (void)state;
    demo_params p = test_params(NULL, 4096, 1);
    p.steps = 1;
    chef_error err = {0};
    trips_result *r = NULL;
    assert_int_equal(trips_run(&p, &r, &err), CHEF_EXIT_OK);
    assert_int_equal(r->repeat, 1);
    for (int i = 0; i < TRIPS_VARIANTS; i++) {
        assert_int_equal(r->variants[i].runs, 1);
        assert_int_equal(r->variants[i].tasted_right, 2);
        assert_int_equal(r->variants[i].bytes_in, r->variants[0].bytes_in);
        assert_true(r->variants[i].total_ms == r->variants[i].total_runs[0]);
    }
    char *text = test_text(test_trips_text, r);
    assert_non_null(strstr(text, "a chain of one kernel"));
    assert_non_null(strstr(text, "once on the clock"));
    assert_non_null(strstr(text, "for the one step"));
    test_no_plural_one(text);
    free(text);
    trips_free(r);
}

/* trips: a negative step count is a usage error, and so is a repeat beyond the limit. */
static void test_trips_bad_steps(void **state)
{
    (void)state;
    demo_params p = test_params(NULL, 1000, 0);
    p.steps = -1;
    chef_error err = {0};
    trips_result *r = NULL;
    assert_int_equal(trips_run(&p, &r, &err), CHEF_EXIT_USAGE);
    assert_non_null(r);
    assert_int_equal(r->exit_code, CHEF_EXIT_USAGE);
    assert_int_equal(r->nvariants, 0);
    trips_free(r);
    p = test_params(NULL, 1000, TRIPS_MAX_REPEAT + 1);
    r = NULL;
    assert_int_equal(trips_run(&p, &r, &err), CHEF_EXIT_USAGE);
    assert_non_null(strstr(err.message, "--repeat"));
    trips_free(r);
}

/* Finds the first step called id, or NULL. */
static const walk_step *test_walk_step(const walk_result *r, const char *id)
{
    for (int i = 0; i < r->nsteps; i++)
        if (strcmp(r->steps[i].id, id) == 0)
            return &r->steps[i];
    return NULL;
}

/* walk: every step ok, the error on purpose reported with a message, NVRTC skipped on the emulator. */
static void test_walk(void **state)
{
    (void)state;
    demo_params p = test_params(NULL, 0, 0);
    chef_error err = {0};
    walk_result *r = NULL;
    int code = walk_run(&p, &r, &err);
    if (code != 0)
        fprintf(stderr, "walk: exit %d: %s\n", code, err.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_non_null(r);
    assert_int_equal(r->backend.kind, test_backend);
    const float expected[WALK_N] = {6, 8, 10, 12};
    for (int i = 0; i < WALK_N; i++)
        assert_true(r->c[i] == expected[i]);
    assert_true(r->verified);
    assert_int_equal(r->bytes, 16);
    int errors = 0;
    for (int i = 0; i < r->nsteps; i++) {
        const walk_step *s = &r->steps[i];
        assert_true(s->call[0]);
        assert_true(s->returned[0]);
        if (strcmp(s->id, "error") == 0) {
            assert_int_equal(s->status, WALK_ERROR_ON_PURPOSE);
            errors++;
        } else if (test_backend == BACKEND_EMU && strcmp(s->id, "nvrtc") == 0) {
            assert_int_equal(s->status, WALK_SKIPPED);
        } else if (strcmp(s->id, "nvrtc-load") == 0 && s->status == WALK_SKIPPED) {
            /* a GPU without NVRTC installed: skipped, with the reason */
            assert_true(r->nvrtc_reason[0]);
        } else {
            if (s->status != WALK_OK)
                fprintf(stderr, "walk step %s: %s -> %s: %s\n", s->id, s->call, s->returned, s->detail);
            assert_int_equal(s->status, WALK_OK);
        }
    }
    assert_int_equal(errors, 1);
    assert_true(r->error_reported);
    assert_true(r->error_text[0]);
    assert_true(r->carried_on);
    assert_non_null(test_walk_step(r, "alloc"));
    assert_non_null(test_walk_step(r, "copy-in"));
    assert_non_null(test_walk_step(r, "launch"));
    assert_non_null(test_walk_step(r, "copy-out"));
    assert_non_null(test_walk_step(r, "free"));
    assert_non_null(strstr(test_walk_step(r, "alloc")->call, "16"));
    if (test_backend == BACKEND_EMU) {
        assert_int_equal(r->nvrtc, WALK_SKIPPED);
        assert_non_null(strstr(r->nvrtc_reason, "needs a GPU"));
        assert_int_equal(r->error_exit_code, CHEF_EXIT_ENVIRONMENT);
    } else if (r->nvrtc == WALK_OK) {
        assert_true(r->nvrtc_verified);
        for (int i = 0; i < WALK_N; i++)
            assert_true(r->nvrtc_c[i] == expected[i]);
        assert_string_equal(r->error_name, "cudaErrorMemoryAllocation");
    }
    char *text = test_text(test_walk_text, r);
    assert_non_null(strstr(text, "[6, 8, 10, 12]"));
    assert_non_null(strstr(text, "on purpose"));
    /* said once: the step's status says "on purpose", its explanation does not repeat it */
    assert_non_null(strstr(text, "(an error, on purpose): asked for "));
    assert_int_equal(test_count(text, "on purpose"), 1);
    test_no_plural_one(text);
    assert_non_null(strstr(text, "PASS"));
    if (test_backend == BACKEND_EMU) {
        assert_non_null(strstr(text, "CPU emulator"));
        assert_non_null(strstr(text, "(skipped)"));
    }
    free(text);
    json_t *j = walk_json(r);
    assert_string_equal(json_string_value(test_member(j, "kind")), "walk");
    assert_int_equal(json_integer_value(test_member(j, "bytes")), 16);
    assert_int_equal(json_array_size(test_member(j, "c")), WALK_N);
    assert_true(json_is_true(test_member(j, "verified")));
    assert_int_equal(json_array_size(test_member(j, "steps")), (size_t)r->nsteps);
    json_t *step0 = json_array_get(test_member(j, "steps"), 0);
    test_member(step0, "id");
    test_member(step0, "call");
    test_member(step0, "returned");
    test_member(step0, "status");
    json_t *e = test_member(j, "error_on_purpose");
    assert_true(json_is_true(test_member(e, "reported")));
    assert_true(strlen(json_string_value(test_member(e, "message"))) > 0);
    assert_true(json_is_true(test_member(e, "carried_on")));
    json_t *nv = test_member(j, "nvrtc");
    if (test_backend == BACKEND_EMU)
        assert_string_equal(json_string_value(test_member(nv, "status")), "skipped");
    test_member(nv, "source");
    json_decref(j);
    walk_free(r);
}

/* A PTX listing of two kernels, one named like the other's prefix: the cut takes the one asked for,
   and the counts see through predicates, labels, directives and braces. */
static const char test_ptx[] =
    ".visible .entry _Z29matmul_tiled_no_fill_barrierPKfS0_Pfi(\n"
    "\t.param .u64 p\n)\n{\n\tld.global.f32 \t%f1, [%rd1];\n\tret;\n}\n"
    ".visible .entry _Z12matmul_tiledPKfS0_Pfi(\n"
    "\t.param .u64 _Z12matmul_tiledPKfS0_Pfi_param_0\n)\n{\n"
    "\t.reg .f32 \t%f<63>;\n"
    "\tld.global.f32 \t%f1, [%rd7];\n"
    "\tst.shared.f32 \t[%r3], %f1;\n"
    "\tbar.sync \t0;\n"
    "\tld.shared.f32 \t%f2, [%r4];\n"
    "\tld.shared.f32 \t%f3, [%r5];\n"
    "\tfma.rn.f32 \t%f4, %f2, %f3, %f4;\n"
    "$L__BB0_2:\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\tst.global.f32 \t[%rd9], %f4;\n"
    "\tret;\n}\n";

static void test_listing_ptx(void **state)
{
    (void)state;
    const char *begin, *end;
    assert_int_equal(listing_cut(LISTING_PTX, test_ptx, "matmul_tiled", &begin, &end), 0);
    assert_non_null(strstr(begin, "_Z12matmul_tiled"));
    assert_true(begin > strstr(test_ptx, "_Z12matmul_tiled") - 40); /* not the no_fill_barrier kernel */
    int counts[LISTING_NOPS];
    assert_int_equal(listing_count(LISTING_PTX, begin, (size_t)(end - begin), counts), 9);
    assert_int_equal(counts[LISTING_GLOBAL_LOAD], 1);
    assert_int_equal(counts[LISTING_GLOBAL_STORE], 1);
    assert_int_equal(counts[LISTING_SHARED_LOAD], 2);
    assert_int_equal(counts[LISTING_SHARED_STORE], 1);
    assert_int_equal(counts[LISTING_FMA], 1);
    assert_int_equal(counts[LISTING_BARRIER], 1);
    assert_int_equal(counts[LISTING_BRANCH], 1);
    assert_int_equal(counts[LISTING_OTHER], 1); /* ret; the other kernel's lines are not counted */
    assert_int_equal(listing_cut(LISTING_PTX, test_ptx, "vector_add", &begin, &end), -1);
}

/* A SASS listing as cuobjdump writes it: addresses in comments, predicates, a spill. */
static void test_listing_sass(void **state)
{
    (void)state;
    static const char sass[] =
        "\tcode for sm_90\n"
        "\t\tFunction : _Z10vector_addPKfS0_Pfi\n"
        "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
        "        /*0010*/                   S2R R6, SR_TID.X ;\n"
        "        /*0020*/               @P0 EXIT ;\n"
        "        /*0030*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
        "        /*0040*/                   LDG.E R4, desc[UR4][R4.64] ;\n"
        "        /*0050*/                   STL [R1], R2 ;\n"
        "        /*0060*/                   FFMA R9, R2, R4, R9 ;\n"
        "        /*0070*/                   STG.E desc[UR4][R6.64], R9 ;\n"
        "        /*0080*/                   BRA 0x80;\n"
        "\t\t..........\n\n"
        "\t\tFunction : _Z12matmul_tiledPKfS0_Pfi\n"
        "        /*0000*/                   LDS R1, [R2] ;\n";
    const char *begin, *end;
    assert_int_equal(listing_cut(LISTING_SASS, sass, "vector_add", &begin, &end), 0);
    int counts[LISTING_NOPS];
    assert_int_equal(listing_count(LISTING_SASS, begin, (size_t)(end - begin), counts), 9);
    assert_int_equal(counts[LISTING_GLOBAL_LOAD], 2);
    assert_int_equal(counts[LISTING_GLOBAL_STORE], 1);
    assert_int_equal(counts[LISTING_LOCAL], 1);
    assert_int_equal(counts[LISTING_FMA], 1);
    assert_int_equal(counts[LISTING_BRANCH], 1);
    assert_int_equal(counts[LISTING_SHARED_LOAD], 0); /* matmul_tiled's LDS is not vector_add's */
    assert_int_equal(listing_cut(LISTING_SASS, sass, "matmul_tiled", &begin, &end), 0);
    assert_int_equal(listing_count(LISTING_SASS, begin, (size_t)(end - begin), counts), 1);
    assert_int_equal(counts[LISTING_SHARED_LOAD], 1);
}

/* The card of matmul-tiled: its locker of two 16 x 16 tiles of floats, one barrier, and the
   occupancy the model allows (the build without CUDA has no card, and says it is not known). */
static void test_card_matmul_tiled(void **state)
{
    (void)state;
    model_device d;
    chef_error err = {0};
    setenv("CUDACHEF_DATA", test_source_dir(), 0); /* assets/devices/ of this tree */
    assert_int_equal(model_device_open(NULL, &d, &err), 0);
    card_row row;
    assert_int_equal(card_fill(&d, "matmul-tiled", 0, &row, &err), 0);
    assert_int_equal(row.cooks_per_team, 256);
#ifdef CHEF_WITH_CUDA
    assert_true(row.known);
    assert_int_equal(row.card.shared_bytes, 2 * 16 * 16 * 4);
    assert_int_equal(row.card.barriers, 1);
    assert_int_equal(row.card.spill_stores, 0);
    assert_true(row.teams_per_station >= 1 && row.teams_per_station <= d.threads_per_station / 256);
    assert_int_equal(row.warps_per_station, row.teams_per_station * 8);
    card_row big; /* the same kernel in teams of 1024 holds at most two teams a station */
    assert_int_equal(card_fill(&d, "matmul-tiled", 1024, &big, &err), 0);
    assert_true(big.teams_per_station <= 2);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    card_row_text(f, &d, &row);
    fclose(f);
    assert_non_null(strstr(text, "2048 bytes"));
    assert_non_null(strstr(text, "limited by"));
    free(text);
#else
    assert_false(row.known);
#endif
    assert_int_equal(card_fill(&d, "no-such-recipe", 0, &row, &err), -1);
    assert_int_equal(err.exit_code, CHEF_EXIT_USAGE);
}

/* The roofline's layout from points alone: the roofs along the chart, a point on the memory roof
   drawn over it, and a point under the compute roof. */
static void test_roofline_draw(void **state)
{
    (void)state;
    roofline_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->peak_gflops = 1000;
    r->dram_gb_s = 100; /* the ridge at 10 FLOP per byte */
    r->ridge = 10;
    r->npoints = 2;
    r->points[0] = (roofline_point){.recipe = "a", .mark = "A", .ran = 1, .intensity = 0.1, .modeled_gflops = 10};
    r->points[1] = (roofline_point){.recipe = "b", .mark = "B", .ran = 1, .intensity = 100, .modeled_gflops = 100};
    assert_int_equal(roofline_draw(r), 0);
    assert_int_equal(r->nlines, ROOFLINE_HEIGHT + 2);
    int a = 0, b = 0, slash = 0, dash = 0;
    for (int i = 0; i < ROOFLINE_HEIGHT; i++) {
        const char *bar = strstr(r->lines[i], " |");
        assert_non_null(bar);
        a += strchr(bar, 'A') != NULL;
        b += strchr(bar, 'B') != NULL;
        slash += strchr(bar, '/') != NULL;
        dash += strchr(bar, '-') != NULL;
    }
    assert_int_equal(a, 1);
    assert_int_equal(b, 1);
    assert_true(slash >= ROOFLINE_HEIGHT / 2); /* the memory roof climbs through the rows */
    assert_int_equal(dash, 1);                 /* the compute roof is one row: the top */
    assert_non_null(strchr(strstr(r->lines[0], " |"), '-'));
    assert_non_null(strstr(r->lines[ROOFLINE_HEIGHT + 1], "0.1")); /* decades under the axis */
    assert_non_null(strstr(r->lines[ROOFLINE_HEIGHT + 1], "100"));
    for (int i = 0; i < r->nlines; i++)
        assert_true(strlen(r->lines[i]) <= 78);
    r->npoints = 0;
    r->peak_gflops = 0;
    assert_int_equal(roofline_draw(r), -1);
    roofline_free(r);
}

/* Two streams of three operations each, lengths 2, 3 and 1 (ship in, cook, ship out). */
static void test_two_streams(timeline_op ops[6], int blocking)
{
    for (int i = 0; i < 6; i++) {
        timeline_lane lane = (timeline_lane)(i % 3);
        ops[i] = (timeline_op){.stream = i / 3, .chunk = i / 3, .lane = lane,
                               .ms = lane == TIMELINE_IN ? 2 : lane == TIMELINE_COOK ? 3 : 1,
                               .blocks_host = blocking && lane != TIMELINE_COOK};
    }
}

/* The schedule: with pinned memory the second stream ships in while the first cooks and cooks
   once the kitchen is free; with blocking (pageable) copies every operation waits for the one
   before. Busy, overlapping and serial times follow. */
static void test_timeline_schedule(void **state)
{
    (void)state;
    timeline_op ops[6];
    test_two_streams(ops, 0);
    double wait = -1;
    assert_true(timeline_schedule(ops, 6, &wait) == 9);
    assert_true(wait == 0);
    /* stream 0: in 0-2, cook 2-5, out 5-6; stream 1: in 2-4 (the engine frees at 2), cook 5-8
       (the kitchen frees at 5), out 8-9 */
    const double starts[6] = {0, 2, 5, 2, 5, 8}, ends[6] = {2, 5, 6, 4, 8, 9};
    for (int i = 0; i < 6; i++) {
        assert_true(ops[i].start_ms == starts[i]);
        assert_true(ops[i].end_ms == ends[i]);
    }
    assert_true(timeline_span_ms(ops, 6) == 9);
    assert_true(timeline_serial_ms(ops, 6) == 12);
    assert_true(timeline_busy_ms(ops, 6, TIMELINE_IN) == 4);
    assert_true(timeline_busy_ms(ops, 6, TIMELINE_COOK) == 6);
    assert_true(timeline_busy_ms(ops, 6, TIMELINE_OUT) == 2);
    assert_true(timeline_overlap_ms(ops, 6) == 3); /* 2-4 in with cook, 5-6 cook with out */

    test_two_streams(ops, 1);
    assert_true(timeline_schedule(ops, 6, &wait) == 12);
    /* the head chef waits 2 for the first ship in, 4 for the first ship out (its cooking first),
       then the same again */
    assert_true(wait == 12);
    assert_true(timeline_overlap_ms(ops, 6) == 0);
    assert_true(timeline_serial_ms(ops, 6) == timeline_span_ms(ops, 6));
    assert_true(timeline_schedule(ops, 0, NULL) == 0);
}

/* The rows: one cell a millisecond, a stream's row and a lane's; an operation too short for a cell
   of its own still shows. */
static void test_timeline_rows(void **state)
{
    (void)state;
    timeline_op ops[6];
    test_two_streams(ops, 0);
    timeline_schedule(ops, 6, NULL);
    char row[32];
    timeline_row(ops, 6, 0, TIMELINE_IN, 9, 9, row);
    assert_string_equal(row, ">>###<   ");
    timeline_row(ops, 6, 1, TIMELINE_IN, 9, 9, row);
    assert_string_equal(row, "  >> ###<");
    timeline_row(ops, 6, -1, TIMELINE_COOK, 9, 9, row);
    assert_string_equal(row, "  ###### ");
    timeline_row(ops, 6, -1, TIMELINE_IN, 18, 9, row); /* twice the span: half the width */
    assert_string_equal(row, ">>       ");
    timeline_op tiny[2] = {{.stream = 0, .lane = TIMELINE_COOK, .start_ms = 0, .end_ms = 4.55},
                           {.stream = 0, .lane = TIMELINE_OUT, .start_ms = 4.55, .end_ms = 4.6}};
    timeline_row(tiny, 2, 0, TIMELINE_IN, 9, 9, row);
    assert_string_equal(row, "####<    ");
    timeline_row(tiny, 2, 1, TIMELINE_IN, 9, 9, row); /* a stream with nothing */
    assert_string_equal(row, "         ");
    assert_int_equal(timeline_glyph(TIMELINE_IN), '>');
    assert_int_equal(timeline_glyph(TIMELINE_OUT), '<');
}

/* Chunks cover n exactly, in order, the first n % chunks one longer. */
static void test_streams_chunks(void **state)
{
    (void)state;
    const int64_t firsts[4] = {0, 3, 6, 8}, counts[4] = {3, 3, 2, 2};
    for (int k = 0; k < 4; k++) {
        int64_t first, count;
        streams_chunk(10, 4, k, &first, &count);
        assert_int_equal(first, firsts[k]);
        assert_int_equal(count, counts[k]);
    }
    int64_t next = 0;
    for (int k = 0; k < 16; k++) {
        int64_t first, count;
        streams_chunk(1000003, 16, k, &first, &count);
        assert_int_equal(first, next);
        next += count;
    }
    assert_int_equal(next, 1000003);
}

/* streams_text with test_text's signature. */
static void test_streams_text(FILE *f, const void *r)
{
    streams_text(f, r);
}

/* Whether a line of a report gives a time: a digit, a space, then ms, us or ns. */
static int test_has_time(const char *line, size_t len)
{
    for (size_t i = 1; i + 3 < len; i++)
        if (line[i - 1] >= '0' && line[i - 1] <= '9' && line[i] == ' ' &&
            (strncmp(line + i + 1, "ms", 2) == 0 || strncmp(line + i + 1, "us", 2) == 0 ||
             strncmp(line + i + 1, "ns", 2) == 0))
            return 1;
    return 0;
}

/* Asserts that every line of a streams report fits 80 columns and, when modeled, that every line
   giving a time says it is modeled. */
static void test_streams_lines(const char *text, int modeled)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (text_width(line, len) > 80)
            fprintf(stderr, "too wide: %.*s\n", (int)len, line);
        assert_true(text_width(line, len) <= 80);
        int says = memmem(line, len, "modeled", 7) || memmem(line, len, "MODELED", 7);
        if (modeled && test_has_time(line, len) && !says)
            fprintf(stderr, "a time without 'modeled': %.*s\n", (int)len, line);
        assert_true(!modeled || !test_has_time(line, len) || says);
        line += len + (line[len] == '\n');
    }
}

/* Checks streams_json against docs/run-report.schema.json's $defs/streams, when python3 has
   jsonschema; a renamed field fails it. */
static void test_streams_schema(json_t *j)
{
    if (system("python3 -c 'import jsonschema' 2>/dev/null") != 0) {
        print_message("SKIP (schema part): python3 cannot import jsonschema\n");
        return;
    }
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/test-streams-XXXXXX", test_tmp_dir());
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(j, path, 0), 0);
    snprintf(cmd, sizeof cmd, "cd '%s' && python3 tests/check_schema.py docs/run-report.schema.json %s streams",
             test_source_dir(), path);
    assert_int_equal(system(cmd), 0);
    json_t *bad = json_deep_copy(j);
    json_object_set_new(bad, "overlapped", json_object_get(bad, "versions") ? json_true() : json_false());
    assert_int_equal(json_dump_file(bad, path, 0), 0);
    json_decref(bad);
    snprintf(cmd, sizeof cmd, "cd '%s' && python3 tests/check_schema.py docs/run-report.schema.json %s streams 2>/dev/null",
             test_source_dir(), path);
    assert_int_not_equal(system(cmd), 0);
    unlink(path);
}

/* streams: the three versions taste right, every chunk's ship in, cook and ship out come in that
   order in its stream; on the emulator the timeline is modeled and says so on every line with a
   time, K streams beat one, and pageable memory overlaps nothing. */
static void test_streams_overlap(void **state)
{
    (void)state;
    setenv("CUDACHEF_DATA", test_source_dir(), 0); /* assets/devices/ of this tree */
    demo_params p = test_params(NULL, 1 << 22, 2);
    p.steps = 4;
    p.streams = 4;
    chef_error err = {0};
    streams_result *r = NULL;
    int code = streams_run(&p, &r, &err);
    if (code != 0)
        fprintf(stderr, "streams: exit %d: %s\n", code, err.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_non_null(r);
    int gpu = test_backend == BACKEND_GPU;
    assert_int_equal(r->modeled, !gpu);
    assert_int_equal(r->nversions, STREAMS_VERSIONS);
    for (int i = 0; i < STREAMS_VERSIONS; i++) {
        const streams_version *v = &r->versions[i];
        assert_int_equal(v->streams, i == 0 ? 1 : 4);
        assert_int_equal(v->pinned, i < 2);
        assert_true(v->taste.passed);
        assert_int_equal(v->tasted, gpu ? 3 : 1); /* the warm-up is tasted too */
        assert_int_equal(v->tasted_right, v->tasted);
        assert_int_equal(v->runs, gpu ? 2 : 1);
        assert_int_equal(v->nops, 3 * v->streams);
        assert_true(v->total_ms > 0);
        for (int k = 0; k < v->nops; k++) {
            const timeline_op *op = &v->ops[k];
            assert_int_equal(op->stream, k / 3);
            assert_int_equal((int)op->lane, k % 3);
            assert_true(op->start_ms >= 0 && op->end_ms >= op->start_ms);
            assert_true(op->end_ms <= v->total_ms + 1e-2); /* the last event comes after every bar */
            if (k % 3)
                assert_true(op->start_ms >= v->ops[k - 1].end_ms - 1e-6);
        }
        assert_true(v->overlap_ms >= 0 && v->overlap_ms <= v->total_ms + 1e-6);
    }
    if (!gpu) {
        const streams_version *v = r->versions;
        assert_true(v[0].overlap_ms == 0);
        assert_true(v[1].overlap_ms > 0);
        assert_true(v[2].overlap_ms == 0);
        assert_true(r->speedup > 1);
        assert_true(r->pageable_ratio > 1);
        assert_true(v[0].host_ms == 0 && v[1].host_ms == 0 && v[2].host_ms > 0);
        assert_true(v[2].serial_ms <= v[2].total_ms + 1e-9); /* nothing overlapped: the span is the sum */
    }
    char *text = test_text(test_streams_text, r);
    assert_non_null(strstr(text, "stream 4"));
    assert_non_null(strstr(text, gpu ? "measured" : "MODELED"));
    assert_non_null(strstr(text, "PASS"));
    assert_null(strstr(text, "stream 5"));
    test_streams_lines(text, !gpu);
    free(text);
    json_t *j = streams_json(r);
    assert_string_equal(json_string_value(test_member(j, "kind")), "streams");
    assert_string_equal(json_string_value(test_member(j, "timeline")), gpu ? "measured" : "modeled");
    assert_true(json_is_null(test_member(j, "model")) == gpu);
    json_t *versions = test_member(j, "versions");
    assert_int_equal(json_array_size(versions), 3);
    assert_int_equal(json_array_size(test_member(json_array_get(versions, 1), "operations")), 12);
    assert_string_equal(json_string_value(test_member(json_array_get(versions, 2), "memory")), "pageable");
    test_streams_schema(j);
    json_decref(j);
    streams_free(r);
}

/* streams' report of a GPU's run, from a result made by hand (the GPU half is only reached on a
   GPU): every line fits 80 columns, the times say "measured" and never "modeled", the median is
   named, and the JSON holds to its schema. */
static void test_streams_measured_text(void **state)
{
    (void)state;
    streams_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->backend.kind = BACKEND_GPU;
    snprintf(r->backend.name, sizeof r->backend.name, "%s", "NVIDIA H200");
    r->backend.cc_major = 9;
    r->backend.sm_count = 132;
    r->n = 1 << 24;
    r->streams = 4;
    r->steps = 30;
    r->repeat = 5;
    r->block = (chef_dim3){256, 1, 1};
    r->atol = trips_chain_atol(30);
    r->nversions = STREAMS_VERSIONS;
    for (int i = 0; i < STREAMS_VERSIONS; i++) {
        streams_version *v = &r->versions[i];
        v->streams = i == 0 ? 1 : 4;
        v->pinned = i < 2;
        for (int k = 0; k < v->streams; k++)
            for (int lane = 0; lane < TIMELINE_LANES; lane++)
                v->ops[v->nops++] = (timeline_op){.stream = k, .chunk = k, .lane = (timeline_lane)lane,
                                                  .ms = (lane == TIMELINE_IN ? 2.4 : 1.2) / v->streams,
                                                  .blocks_host = !v->pinned};
        v->total_ms = timeline_schedule(v->ops, v->nops, NULL);
        v->host_ms = v->pinned ? 0.05 : v->total_ms;
        v->serial_ms = timeline_serial_ms(v->ops, v->nops);
        v->overlap_ms = timeline_overlap_ms(v->ops, v->nops);
        v->runs = 5;
        for (int k = 0; k < 5; k++)
            v->total_runs[k] = v->total_ms;
        v->tasted = v->tasted_right = 6;
        v->taste = (verify_result){.passed = 1, .checked = (size_t)r->n, .correct = (size_t)r->n};
        v->ran = 1;
    }
    r->speedup = r->versions[0].total_ms / r->versions[1].total_ms;
    r->pageable_ratio = r->versions[2].total_ms / r->versions[1].total_ms;
    char *text = test_text(test_streams_text, r);
    assert_non_null(strstr(text, "cooked on the GPU: NVIDIA H200"));
    assert_non_null(strstr(text, "the median of 5 runs"));
    assert_non_null(strstr(text, "measured on the host clock"));
    assert_non_null(strstr(text, "stream 4"));
    assert_null(strstr(text, "modeled"));
    assert_null(strstr(text, "MODELED"));
    test_streams_lines(text, 0);
    free(text);
    json_t *j = streams_json(r);
    assert_string_equal(json_string_value(test_member(j, "timeline")), "measured");
    assert_true(json_is_null(test_member(j, "model")));
    test_streams_schema(j);
    json_decref(j);
    streams_free(r);
}

/* streams: one stream, seventeen, fewer elements than streams and too many steps are usage errors;
   a modeled GPU whose file has no shipment figures is named. */
static void test_streams_bad(void **state)
{
    (void)state;
    setenv("CUDACHEF_DATA", test_source_dir(), 0);
    const struct {
        int64_t n;
        int streams, steps;
    } bad[] = {{1000, 1, 2}, {1000, 17, 2}, {3, 4, 2}, {1000, 4, 1001}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        demo_params p = test_params(NULL, bad[i].n, 1);
        p.streams = bad[i].streams;
        p.steps = bad[i].steps;
        chef_error err = {0};
        streams_result *r = NULL;
        assert_int_equal(streams_run(&p, &r, &err), CHEF_EXIT_USAGE);
        assert_non_null(r);
        assert_int_equal(r->nversions, 0);
        char *text = test_text(test_streams_text, r);
        assert_non_null(strstr(text, "stopped"));
        free(text);
        streams_free(r);
    }
    if (test_backend == BACKEND_GPU)
        return; /* the model is the emulator's */
    demo_params p = test_params(NULL, 1000, 1);
    p.run.model = "a100";
    chef_error err = {0};
    streams_result *r = NULL;
    assert_int_equal(streams_run(&p, &r, &err), CHEF_EXIT_ENVIRONMENT);
    assert_non_null(strstr(err.message, "pinned_gb_s"));
    streams_free(r);
}

/* Checks a JSON value against a $defs entry of docs/run-report.schema.json with tests/check_schema.py;
   says SKIP and passes where python3 has no jsonschema module. */
static void test_schema(json_t *j, const char *def)
{
    if (system("python3 -c 'import jsonschema' 2>/dev/null") != 0) {
        printf("SKIP: python3 cannot import jsonschema: %s not checked against the schema\n", def);
        return;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/cudachef-test-demos-XXXXXX", test_tmp_dir());
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(j, path, 0), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd '%s' && python3 tests/check_schema.py docs/run-report.schema.json '%s' %s",
             test_source_dir(), path, def);
    int rc = system(cmd);
    unlink(path);
    assert_int_equal(rc, 0);
}

/* managed: the three ways (those the device allows) taste right on every run, move what they should,
   and the text and the JSON say so. */
static void test_managed_three_ways(void **state)
{
    (void)state;
    const int64_t n = 1 << 16;
    demo_params p = test_params("vector-add", n, 3);
    p.run.seed = 7;
    chef_error err = {0};
    managed_result *r = NULL;
    int code = managed_run(&p, &r, &err);
    if (code != 0)
        fprintf(stderr, "managed: exit %d: %s\n", code, err.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_non_null(r);
    assert_int_equal(r->backend.kind, test_backend);
    assert_int_equal(r->n, n);
    assert_int_equal(r->repeat, 3);
    assert_int_equal(r->bytes_in, 2 * (size_t)n * sizeof(float));
    assert_int_equal(r->bytes_out, (size_t)n * sizeof(float));
    assert_string_equal(r->inputs, "a, b");
    assert_string_equal(r->output, "c");
    int gpu = test_backend == BACKEND_GPU;
    assert_int_equal(r->support.asked, gpu);
    /* which ways run: all three on the emulator; on a GPU what the device allows */
    int runs[MANAGED_WAYS] = {1, !gpu || r->support.managed_memory,
                              !gpu || (r->support.managed_memory && r->support.concurrent_access)};
    if (gpu && !runs[MANAGED_PREFETCH])
        printf("note: this GPU reports managed %d, concurrent access %d: not every way runs\n",
               r->support.managed_memory, r->support.concurrent_access);
    for (int w = 0; w < MANAGED_WAYS; w++) {
        const managed_variant *v = &r->variants[w];
        assert_int_equal(v->way, w);
        assert_int_equal(v->ran, runs[w]);
        assert_int_equal(v->skipped != MANAGED_SKIP_NONE, !runs[w]);
        /* explicit copies move; the prefetched way moves only where there is a second memory */
        assert_int_equal(v->moved, w == MANAGED_EXPLICIT || (w == MANAGED_PREFETCH && gpu));
        if (!v->ran)
            continue;
        assert_int_equal(v->runs, 3);
        assert_int_equal(v->tasted, 4); /* the warm-up too */
        assert_int_equal(v->tasted_right, 4);
        assert_true(v->taste.passed);
        assert_int_equal(v->taste.checked, (size_t)n);
        const managed_figures *m = &v->median;
        assert_true(m->cook > 0 && m->again > 0 && m->read >= 0 && m->clock > 0);
        if (!v->moved)
            assert_true(m->in == 0 && m->out == 0);
        /* the journey is the median of the runs' journeys */
        double lo = v->journey_runs[0], hi = v->journey_runs[0];
        for (int k = 1; k < v->runs; k++) {
            lo = v->journey_runs[k] < lo ? v->journey_runs[k] : lo;
            hi = v->journey_runs[k] > hi ? v->journey_runs[k] : hi;
        }
        assert_true(lo <= m->journey && m->journey <= hi);
    }
    char *text = test_text(test_managed_text, r);
    assert_non_null(strstr(text, "(a) explicit copies"));
    assert_non_null(strstr(text, "the median of 3 runs"));
    assert_non_null(strstr(text, "Which pages moved, and when:"));
    assert_non_null(strstr(text, "PASS"));
    if (gpu) {
        assert_non_null(strstr(text, "cudaDevAttrConcurrentManagedAccess"));
        assert_null(strstr(text, "There is no GPU here"));
    } else {
        assert_non_null(strstr(text, "There is no GPU here"));
        assert_non_null(strstr(text, "modeled:")); /* no GPU time is: nothing gives its figures */
        assert_non_null(strstr(text, "Nothing to prefetch"));
        assert_non_null(strstr(text, "3 of 3 ways correct"));
        assert_null(strstr(text, "cudaDevAttr")); /* no device was asked */
    }
    free(text);
    json_t *j = managed_json(r);
    assert_string_equal(json_string_value(test_member(j, "kind")), "managed");
    assert_string_equal(json_string_value(test_member(j, "status")), "passed");
    assert_string_equal(json_string_value(test_member(j, "timer")), gpu ? "cuda-events" : "cpu-clock");
    assert_int_equal(json_is_true(test_member(j, "one_memory")), !gpu);
    assert_int_equal(json_is_null(test_member(j, "device")), !gpu);
    json_t *variants = test_member(j, "variants");
    assert_int_equal(json_array_size(variants), MANAGED_WAYS);
    json_t *demand = json_array_get(variants, MANAGED_ON_DEMAND);
    assert_string_equal(json_string_value(test_member(demand, "way")), "on-demand");
    assert_true(json_is_null(test_member(demand, "move_in_ms")));
    if (runs[MANAGED_ON_DEMAND]) {
        assert_true(json_number_value(test_member(demand, "cook_ms")) > 0);
        assert_int_equal(json_array_size(test_member(demand, "journey_runs_ms")), 3);
    }
    json_t *copies = json_array_get(variants, MANAGED_EXPLICIT);
    assert_true(json_number_value(test_member(copies, "move_in_ms")) >= 0);
    assert_int_equal(json_integer_value(test_member(copies, "tasted_right_runs")), 4);
    test_schema(j, "managed");
    json_decref(j);
    managed_free(r);
}

/* managed: one timed run is said so, with no plural after one. */
static void test_managed_one_run(void **state)
{
    (void)state;
    demo_params p = test_params("vector-add", 4096, 1);
    chef_error err = {0};
    managed_result *r = NULL;
    assert_int_equal(managed_run(&p, &r, &err), CHEF_EXIT_OK);
    for (int w = 0; w < MANAGED_WAYS; w++)
        if (r->variants[w].ran) {
            assert_int_equal(r->variants[w].runs, 1);
            assert_true(r->variants[w].median.journey == r->variants[w].journey_runs[0]);
        }
    char *text = test_text(test_managed_text, r);
    assert_non_null(strstr(text, "then once on the clock"));
    test_no_plural_one(text);
    free(text);
    managed_free(r);
}

/* managed: recipes it cannot cook three ways, too much memory and too many runs are usage errors. */
static void test_managed_refuses(void **state)
{
    (void)state;
    static const struct {
        const char *recipe;
        int64_t n;
        int repeat;
        const char *says;
    } cases[] = {
        {"no-such-recipe", 1000, 1, "no-such-recipe"},
        {"sum-reduce", 1000, 1, "writes its whole output once"},   /* adds into its output */
        {"matmul-library", 64, 1, "writes its whole output once"}, /* a library call */
        {"vector-add", (int64_t)1 << 27, 1, "under 1 GiB"},        /* 1.5 GiB */
        {"vector-add", 1000, MANAGED_MAX_REPEAT + 1, "--repeat"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        demo_params p = test_params(cases[i].recipe, cases[i].n, cases[i].repeat);
        chef_error err = {0};
        managed_result *r = NULL;
        int code = managed_run(&p, &r, &err);
        if (code != CHEF_EXIT_USAGE || !strstr(err.message, cases[i].says))
            fprintf(stderr, "managed %s: exit %d: %s\n", cases[i].recipe, code, err.message);
        assert_int_equal(code, CHEF_EXIT_USAGE);
        assert_non_null(strstr(err.message, cases[i].says));
        if (r) {
            for (int w = 0; w < MANAGED_WAYS; w++)
                assert_false(r->variants[w].ran);
            json_t *j = managed_json(r);
            assert_string_equal(json_string_value(test_member(j, "status")), "error");
            json_decref(j);
            managed_free(r);
        }
    }
}

/* Picks the backend; on "gpu" without a usable GPU prints one SKIP line and succeeds. */
int main(void)
{
    test_backend = test_backend_from_env();
    if (test_backend_skip(test_backend))
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_vector_add),
        cmocka_unit_test(test_clock_singular),
        cmocka_unit_test(test_clock_unknown_recipe),
        cmocka_unit_test(test_trips_four_variants),
        cmocka_unit_test(test_trips_one_step),
        cmocka_unit_test(test_trips_bad_steps),
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_listing_ptx),
        cmocka_unit_test(test_listing_sass),
        cmocka_unit_test(test_card_matmul_tiled),
        cmocka_unit_test(test_roofline_draw),
        cmocka_unit_test(test_timeline_schedule),
        cmocka_unit_test(test_timeline_rows),
        cmocka_unit_test(test_streams_chunks),
        cmocka_unit_test(test_streams_overlap),
        cmocka_unit_test(test_streams_measured_text),
        cmocka_unit_test(test_streams_bad),
        cmocka_unit_test(test_managed_three_ways),
        cmocka_unit_test(test_managed_one_run),
        cmocka_unit_test(test_managed_refuses),
    };
    printf("test_demos: backend %s\n", backend_kind_name(test_backend));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
