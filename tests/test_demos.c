/*
 * test_demos.c - the clock, trips, walk and managed demos, run for real, checked on what does not
 * depend on timing: the taste, the order of min, median and max, byte and shipment counts, every
 * step of the walk, which ways of the managed demo ran and what moved, counts of one said in the
 * singular, and the JSON fields programs read (the managed demo's against the schema).
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

#include "demos/card.h"
#include "demos/clock.h"
#include "demos/listing.h"
#include "demos/managed.h"
#include "demos/roofline.h"
#include "demos/trips.h"
#include "demos/walk.h"

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
        assert_true(r->no_sync.median <= r->with_sync.median);
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
    setenv("CUDACHEF_DATA", TEST_SOURCE_DIR, 0); /* assets/devices/ of this tree */
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

/* Checks a JSON value against a $defs entry of docs/run-report.schema.json with tests/check_schema.py;
   says SKIP and passes where python3 has no jsonschema module. */
static void test_schema(json_t *j, const char *def)
{
    if (system("python3 -c 'import jsonschema' 2>/dev/null") != 0) {
        printf("SKIP: python3 cannot import jsonschema: %s not checked against the schema\n", def);
        return;
    }
    char path[] = "/tmp/cudachef-test-demos-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(j, path, 0), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd '%s' && python3 tests/check_schema.py docs/run-report.schema.json '%s' %s",
             TEST_SOURCE_DIR, path, def);
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
        cmocka_unit_test(test_managed_three_ways),
        cmocka_unit_test(test_managed_one_run),
        cmocka_unit_test(test_managed_refuses),
    };
    printf("test_demos: backend %s\n", backend_kind_name(test_backend));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
