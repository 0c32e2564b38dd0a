/*
 * test_race.c - the fair race (race.c) and the library recipes (recipes_library.c).
 *
 * The pure parts are tested on made-up numbers: the n^3 prediction that makes the CPU loop sit out,
 * the number of timed runs, the crossover (and who may win it on the emulator). A tiny real sweep
 * (sizes 16 and 32, matmul-tiled and matmul-library) runs once on the test backend
 * (CUDACHEF_TEST_BACKEND, the emulator by default; "gpu" skips the file without a GPU) and its
 * result, text and JSON are checked.
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

#include "test_backend.h"

#include "engine/blas.h"
#include "demos/race.h"
#include "engine/recipes.h"

static backend_kind test_backend = BACKEND_EMU;
static race_result *sweep;     /* the tiny sweep, run once by the group setup */
static int sweep_code = -1;
static int sweep_progress;     /* progress messages received */

/* Counts progress messages and checks their shape ("size 16: CPU loop"). */
static void count_progress(void *ctx, const char *text)
{
    (void)ctx;
    assert_true(strncmp(text, "size ", 5) == 0);
    assert_non_null(strstr(text, ": "));
    sweep_progress++;
}

/* Race parameters on the test backend: the given sizes and recipes, two timed runs. */
static demo_params race_params(const int64_t *sizes, int nsizes, const char *const *recipes, int nrecipes)
{
    demo_params p;
    memset(&p, 0, sizeof p);
    kitchen_params_default(&p.run);
    p.run.backend = test_backend;
    p.run.repeat = 2;
    for (int i = 0; i < nsizes; i++)
        p.sizes[i] = sizes[i];
    p.nsizes = nsizes;
    for (int i = 0; i < nrecipes; i++)
        p.recipes[i] = recipes[i];
    p.nrecipes = nrecipes;
    return p;
}

/* Runs the tiny sweep once for the whole group. */
static int sweep_setup(void **state)
{
    (void)state;
    static const int64_t sizes[] = {16, 32};
    static const char *const recipes[] = {"matmul-tiled", "matmul-library"};
    demo_params p = race_params(sizes, 2, recipes, 2);
    p.progress = count_progress;
    chef_error err = {0};
    sweep_code = race_run(&p, &sweep, &err);
    if (sweep_code != 0)
        fprintf(stderr, "race: exit %d: %s\n", sweep_code, err.message);
    return 0;
}

/* Frees the sweep. */
static int sweep_teardown(void **state)
{
    (void)state;
    race_free(sweep);
    return 0;
}

/* n^3 scaling: twice the side is eight times the time. */
static void test_predict(void **state)
{
    (void)state;
    assert_true(fabs(race_predict_ms(100.0, 256, 512) - 800.0) < 1e-9);
    assert_true(fabs(race_predict_ms(3.0, 100, 300) - 81.0) < 1e-9);
    assert_true(fabs(race_predict_ms(5.0, 64, 64) - 5.0) < 1e-12);
}

/* GFLOP/s as people read them, on the bench screen as in the text report: no exponent notation
   (the bench screen printed 1.21e+04 where the report said 12124). */
static void test_gflops_for_people(void **state)
{
    (void)state;
    static const struct {
        double g;
        const char *text;
    } cases[] = {{12124.3, "12124"}, {523.4, "523"}, {52.34, "52.3"}, {5.234, "5.23"}, {0.4812, "0.481"}, {1e-5, "0.000"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[32];
        race_format_gflops(cases[i].g, out, sizeof out);
        assert_string_equal(out, cases[i].text);
    }
}

/* The loop sits out once the predicted time passes the limit, from the first size on. */
static void test_loop_skipping_rule(void **state)
{
    (void)state;
    double predicted = -1;
    assert_false(race_loop_skips(0, 0, 32, RACE_LOOP_LIMIT_MS, &predicted)); /* nothing measured: a loop's pace */
    assert_true(predicted > 0 && predicted < 1.0);
    assert_true(race_loop_skips(0, 0, 46340, RACE_LOOP_LIMIT_MS, &predicted)); /* days: never started */
    assert_false(race_loop_skips(400.0, 512, 1024, 4000.0, &predicted)); /* 3.2 s: still runs */
    assert_true(fabs(predicted - 3200.0) < 1e-9);
    assert_true(race_loop_skips(600.0, 512, 1024, 4000.0, &predicted));  /* 4.8 s: sits out */
    assert_true(fabs(predicted - 4800.0) < 1e-9);
    assert_true(race_loop_skips(2000.0, 1024, 4096, 4000.0, NULL));      /* 128 s, two sizes on */
    assert_false(race_loop_skips(1.0, 32, 256, 4000.0, NULL));           /* 512 ms */
}

/* Fewer timed runs for long runs, never fewer than one nor more than asked. */
static void test_repeats(void **state)
{
    (void)state;
    assert_int_equal(race_repeats(0, 5, 2000), 5);      /* nothing known yet: as asked */
    assert_int_equal(race_repeats(1.0, 5, 2000), 5);
    assert_int_equal(race_repeats(700.0, 5, 2000), 2);
    assert_int_equal(race_repeats(5000.0, 5, 2000), 1);
    assert_int_equal(race_repeats(10.0, 0, 2000), 1);
}

/* The crossover on made-up times: the smallest size from which the GPU wins at every larger size. */
static void test_crossover(void **state)
{
    (void)state;
    const int64_t sizes[] = {32, 64, 128, 256};
    const double cpu[] = {1.0, 1.5, 2.0, 4.0};
    const double wins_from_128[] = {2.0, 2.0, 1.0, 0.5};
    const double wins_everywhere[] = {0.1, 0.1, 0.1, 0.1};
    const double never[] = {9.0, 9.0, 9.0, 9.0};
    const double wins_then_loses[] = {0.5, 1.0, 3.0, 5.0};
    const double wins_loses_wins[] = {0.5, 2.0, 1.0, 1.0};
    const double equal_is_no_win[] = {2.0, 2.0, 2.0, 4.0};
    assert_int_equal(race_crossover(sizes, wins_from_128, cpu, 4), 128);
    assert_int_equal(race_crossover(sizes, wins_everywhere, cpu, 4), 32);
    assert_int_equal(race_crossover(sizes, never, cpu, 4), 0);
    assert_int_equal(race_crossover(sizes, wins_then_loses, cpu, 4), 0);
    assert_int_equal(race_crossover(sizes, wins_loses_wins, cpu, 4), 128);
    assert_int_equal(race_crossover(sizes, equal_is_no_win, cpu, 4), 0);
    /* a size without a GPU time neither breaks nor extends the winning run */
    const double gap[] = {0.5, 0.0, 1.0, 1.0};
    assert_int_equal(race_crossover(sizes, gap, cpu, 4), 32);
    const double none[] = {0, 0, 0, 0};
    assert_int_equal(race_crossover(sizes, none, cpu, 4), 0);
    assert_int_equal(race_crossover(sizes, wins_everywhere, none, 4), 0);
}

/* A made-up race of four contenders (loop, BLAS, a kernel, a library) over three sizes: BLAS takes
   1 ms everywhere, the kernel beats it only at the largest size, the library at every size. */
static race_result *made_up_race(int emulated)
{
    static const int64_t sizes[] = {64, 128, 256};
    static const race_kind kinds[] = {RACE_CPU_LOOP, RACE_CPU_BLAS, RACE_KERNEL, RACE_LIBRARY};
    static const double cook[3][4] = {{5, 1, 2, 0.5}, {40, 1, 3, 0.5}, {320, 1, 0.9, 0.5}};
    race_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->emulated = emulated;
    r->nsizes = 3;
    r->ncontenders = 4;
    for (int c = 0; c < 4; c++)
        r->contenders[c].kind = kinds[c];
    r->entries = calloc(3 * 4, sizeof *r->entries);
    assert_non_null(r->entries);
    for (int s = 0; s < 3; s++) {
        r->sizes[s] = sizes[s];
        for (int c = 0; c < 4; c++) {
            race_entry *e = race_entry_at(r, s, c);
            e->size = sizes[s];
            e->contender = c;
            e->ran = e->passed = 1;
            e->cook_ms = e->total_ms = cook[s][c];
        }
    }
    return r;
}

/* On the emulator a library recipe is OpenBLAS itself: it is left out of the crossover, which the
   kernel alone decides; on a GPU the library counts and wins from the smallest size. */
static void test_crossover_library_on_emulator(void **state)
{
    (void)state;
    race_result *r = made_up_race(1);
    race_find_crossover(r);
    assert_int_equal(r->crossover_cook, 256);
    assert_int_equal(r->crossover_cook_by, 2);
    assert_int_equal(r->crossover_total, 256);
    assert_int_equal(r->crossover_total_by, 2);
    race_free(r);
    r = made_up_race(0);
    race_find_crossover(r);
    assert_int_equal(r->crossover_cook, 64);
    assert_int_equal(r->crossover_cook_by, 3);
    assert_int_equal(r->crossover_total_by, 3);
    race_free(r);
    /* a wrong result wins nothing, even on a GPU */
    r = made_up_race(0);
    for (int s = 0; s < 3; s++)
        race_entry_at(r, s, 3)->passed = 0;
    race_find_crossover(r);
    assert_int_equal(r->crossover_cook, 256);
    assert_int_equal(r->crossover_cook_by, 2);
    race_free(r);
}

/* Every contender at every size ran, was tasted right and took time. */
static void test_sweep_verified(void **state)
{
    (void)state;
    assert_int_equal(sweep_code, CHEF_EXIT_OK);
    assert_non_null(sweep);
    assert_true(sweep->passed);
    assert_true(sweep->complete);
    assert_int_equal(sweep->nsizes, 2);
    assert_int_equal(sweep->sizes[0], 16);
    assert_int_equal(sweep->sizes[1], 32);
    assert_int_equal(sweep->ncontenders, 4);
    assert_int_equal(sweep->contenders[0].kind, RACE_CPU_LOOP);
    assert_int_equal(sweep->contenders[1].kind, RACE_CPU_BLAS);
    assert_string_equal(sweep->contenders[2].name, "matmul-tiled");
    assert_int_equal(sweep->contenders[2].kind, RACE_KERNEL);
    assert_string_equal(sweep->contenders[3].name, "matmul-library");
    assert_int_equal(sweep->contenders[3].kind, RACE_LIBRARY);
    for (int s = 0; s < sweep->nsizes; s++) {
        for (int c = 0; c < sweep->ncontenders; c++) {
            const race_entry *e = race_entry_at(sweep, s, c);
            assert_int_equal(e->size, sweep->sizes[s]);
            assert_int_equal(e->contender, c);
            assert_true(e->ran);
            assert_false(e->skipped);
            assert_true(e->passed);
            assert_true(e->cook_ms > 0);
            assert_true(e->total_ms >= e->cook_ms);
            assert_true(e->gflops > 0);
            assert_true(e->repeat >= 1 && e->repeat <= 2);
        }
    }
    assert_int_equal(sweep_progress, sweep->nsizes * sweep->ncontenders);
    /* the crossover is one of the sizes, or not reached */
    assert_true(sweep->crossover_cook == 0 || sweep->crossover_cook == 16 || sweep->crossover_cook == 32);
    assert_true(sweep->crossover_total == 0 || sweep->crossover_total == 16 || sweep->crossover_total == 32);
    if (sweep->crossover_cook)
        assert_true(sweep->crossover_cook_by >= 2);
    /* on the emulator the library recipe (OpenBLAS itself) never wins the crossover */
    if (test_backend == BACKEND_EMU) {
        assert_true(sweep->crossover_cook == 0 || sweep->crossover_cook_by == 2);
        assert_true(sweep->crossover_total == 0 || sweep->crossover_total_by == 2);
    }
    /* who cooked, said plainly */
    assert_int_equal(sweep->emulated, test_backend == BACKEND_EMU);
    assert_non_null(strstr(sweep->contenders[1].library, "OpenBLAS"));
    if (test_backend == BACKEND_EMU)
        assert_non_null(strstr(sweep->contenders[3].library, "OpenBLAS on the CPU: cuBLAS needs a GPU"));
    else
        assert_non_null(strstr(sweep->contenders[3].library, "cuBLAS"));
}

/* The text: every line fits 80 columns, the crossover is stated, the emulator is named. */
static void test_sweep_text(void **state)
{
    (void)state;
    assert_non_null(sweep);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    race_text(f, sweep);
    fclose(f);
    assert_non_null(strstr(text, "Crossover"));
    assert_non_null(strstr(text, "cooking only"));
    assert_non_null(strstr(text, "with shipping"));
    assert_non_null(strstr(text, "n = 16"));
    assert_non_null(strstr(text, "n = 32"));
    assert_non_null(strstr(text, "log scales"));
    if (test_backend == BACKEND_EMU) {
        assert_non_null(strstr(text, "ran on the CPU emulator"));
        assert_non_null(strstr(text, "library recipes left out"));
    } else {
        assert_null(strstr(text, "left out"));
    }
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 80)
            fprintf(stderr, "line too long (%zu): %.*s\n", len, (int)len, line);
        assert_true(len <= 80); /* ASCII here (English): bytes are columns */
        line = end ? end + 1 : line + len;
    }
    free(text);
}

/* The JSON has the documented fields on every result. */
static void test_sweep_json(void **state)
{
    (void)state;
    assert_non_null(sweep);
    json_t *j = race_json(sweep);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "kind")), "race");
    assert_true(json_is_boolean(json_object_get(j, "emulated")));
    assert_true(json_is_true(json_object_get(j, "passed")));
    json_t *crossover = json_object_get(j, "crossover");
    assert_non_null(json_object_get(crossover, "cooking"));
    assert_non_null(json_object_get(crossover, "with_shipping"));
    assert_true(json_is_boolean(json_object_get(crossover, "library_recipes_counted")));
    assert_int_equal(json_is_true(json_object_get(crossover, "library_recipes_counted")), test_backend != BACKEND_EMU);
    json_t *results = json_object_get(j, "results");
    assert_true(json_is_array(results));
    assert_int_equal(json_array_size(results), (size_t)(sweep->nsizes * sweep->ncontenders));
    size_t i;
    json_t *row;
    json_array_foreach(results, i, row) {
        static const char *const fields[] = {"size", "contender", "kind", "cook_ms", "total_ms", "gflops", "passed",
                                             "skipped_reason"};
        for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
            assert_non_null(json_object_get(row, fields[k]));
        const char *kind = json_string_value(json_object_get(row, "kind"));
        assert_non_null(kind);
        assert_true(strcmp(kind, "cpu-loop") == 0 || strcmp(kind, "cpu-blas") == 0 || strcmp(kind, "kernel") == 0 ||
                    strcmp(kind, "library") == 0);
        assert_true(json_is_integer(json_object_get(row, "size")));
        assert_true(json_real_value(json_object_get(row, "cook_ms")) > 0);
        assert_true(json_is_true(json_object_get(row, "passed")));
        assert_true(json_is_null(json_object_get(row, "skipped_reason")));
    }
    json_decref(j);
}

/* An unknown recipe is a usage error and nothing runs. */
static void test_unknown_recipe(void **state)
{
    (void)state;
    static const int64_t sizes[] = {16};
    static const char *const recipes[] = {"no-such-recipe"};
    demo_params p = race_params(sizes, 1, recipes, 1);
    race_result *r = (race_result *)1;
    chef_error err = {0};
    assert_int_equal(race_run(&p, &r, &err), CHEF_EXIT_USAGE);
    assert_null(r);
    assert_non_null(strstr(err.message, "no-such-recipe"));
}

/* Sizes must grow. */
static void test_sizes_in_order(void **state)
{
    (void)state;
    static const int64_t sizes[] = {32, 16};
    static const char *const recipes[] = {"matmul-tiled"};
    demo_params p = race_params(sizes, 2, recipes, 1);
    race_result *r = NULL;
    chef_error err = {0};
    assert_int_equal(race_run(&p, &r, &err), CHEF_EXIT_USAGE);
    assert_null(r);
}

/* Runs a library recipe through the kitchen and checks it passes; returns its report. */
static kitchen_report *run_library(const char *name, int64_t n, int fast)
{
    kitchen_params p;
    kitchen_params_default(&p);
    p.recipe = name;
    p.n = n;
    p.backend = test_backend;
    p.repeat = 2;
    p.fast_reference = fast;
    kitchen_report *r = malloc(sizeof *r);
    assert_non_null(r);
    int code = kitchen_run(&p, r);
    if (code != 0)
        fprintf(stderr, "%s n=%lld: exit %d: %s\n", name, (long long)n, code, r->error.message);
    assert_int_equal(code, CHEF_EXIT_OK);
    assert_true(r->taste.passed);
    assert_int_equal(r->taste.checked, (size_t)(n * n));
    assert_true(r->cook_ms > 0);
    return r;
}

/* matmul-library and matmul-library-tf32 cook right at a size no tile divides, and say what cooked. */
static void test_library_recipes(void **state)
{
    (void)state;
    const recipe *fp32 = recipe_find("matmul-library"), *tf32 = recipe_find("matmul-library-tf32");
    assert_non_null(fp32);
    assert_non_null(tf32);
    assert_non_null(fp32->library);
    assert_non_null(tf32->library);
    assert_string_equal(fp32->kernel, "library_sgemm");
    assert_string_equal(tf32->kernel, "library_sgemm_tf32");
    kitchen_report *r = run_library("matmul-library", 100, 0);
    const char *what = fp32->library(&r->backend);
    if (test_backend == BACKEND_EMU)
        assert_non_null(strstr(what, "OpenBLAS on the CPU: cuBLAS needs a GPU"));
    kitchen_report_free(r);
    free(r);
    r = run_library("matmul-library-tf32", 129, 1);
    what = tf32->library(&r->backend);
    if (test_backend == BACKEND_EMU)
        assert_non_null(strstr(what, "the CPU has no TF32, so it ran FP32"));
    else
        assert_non_null(strstr(what, "TF32"));
    kitchen_report_free(r);
    free(r);
}

/* Whether this process has OpenBLAS mapped (/proc/self/maps). */
static int test_blas_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, "libopenblas") != NULL;
    fclose(f);
    return found;
}

/* OpenBLAS is loaded on first use, not with the program (its threads spin as they start): not
   mapped before blas_load, mapped after; blas_sgemm multiplies row-major matrices (a small product
   worked by hand) and describes itself. The first test of the program, before any race. */
static void test_blas(void **state)
{
    (void)state;
    assert_false(test_blas_mapped());
    assert_int_equal(blas_load(NULL), 0);
    assert_true(test_blas_mapped());
    const float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8};
    float C[4] = {0};
    blas_sgemm(A, B, C, 2);
    assert_true(C[0] == 19 && C[1] == 22 && C[2] == 43 && C[3] == 50);
    assert_true(strncmp(blas_describe(), "OpenBLAS", 8) == 0);
    assert_non_null(strstr(blas_describe(), "thread"));
}

int main(void)
{
    test_backend = test_backend_from_env();
    if (test_backend_skip(test_backend))
        return 0;
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(test_blas), /* first: nothing has loaded OpenBLAS yet */
        cmocka_unit_test(test_predict),
        cmocka_unit_test(test_gflops_for_people),
        cmocka_unit_test(test_loop_skipping_rule),
        cmocka_unit_test(test_repeats),
        cmocka_unit_test(test_crossover),
        cmocka_unit_test(test_crossover_library_on_emulator),
        cmocka_unit_test(test_unknown_recipe),
        cmocka_unit_test(test_sizes_in_order),
        cmocka_unit_test(test_library_recipes),
    };
    const struct CMUnitTest swept[] = {
        cmocka_unit_test(test_sweep_verified),
        cmocka_unit_test(test_sweep_text),
        cmocka_unit_test(test_sweep_json),
    };
    printf("test_race: backend %s\n", backend_kind_name(test_backend));
    int failed = cmocka_run_group_tests_name("race: rules and recipes", pure, NULL, NULL);
    failed += cmocka_run_group_tests_name("race: a tiny sweep", swept, sweep_setup, sweep_teardown);
    return failed ? 1 : 0;
}
