/*
 * test_bench.c - `cudachef bench` and what it is made of: the chart layout (chart.c), each recipe's
 * own crossovers (race.c), the shipments' sweep (transfers.c) and the command itself.
 *
 * The chart is checked cell by cell on series whose place is known (log axes, one point, no point,
 * values with no logarithm, two series in one cell). The command runs for real ($CUDACHEF_BIN, else
 * build/cudachef, from the repository root) on the test backend (CUDACHEF_TEST_BACKEND: the emulator
 * unless "gpu"; without a usable GPU the cases that cook are skipped) with a tiny sweep: its text,
 * JSON (against docs/run-report.schema.json's $defs/bench when python3 has jsonschema) and CSV; the
 * progress lines, on a file and on a terminal; --output; the usage errors.
 */
#include <dirent.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/chart.h"
#include "demos/race.h"
#include "engine/recipes.h"
#include "test_backend.h"
#include "test_exec.h"
#include "demos/transfers.h"

#define BENCH_MAX_ARGS 24
#define BENCH_PYTHON "/usr/bin/python3"

static const char *bench_bin = "build/cudachef";
static backend_kind bench_backend = BACKEND_EMU;
static int bench_can_cook = 1;

/* The runs most cases read, made once by the group setup. */
static cli_result run_text, run_json, run_csv;

/* Runs cudachef with the arguments listed (NULL-terminated) after the program name. */
static void bench_exec(cli_result *r, const char *const *args)
{
    const char *argv[BENCH_MAX_ARGS + 2] = {bench_bin};
    int n = 1;
    for (; args[n - 1]; n++) {
        assert_true(n <= BENCH_MAX_ARGS);
        argv[n] = args[n - 1];
    }
    argv[n] = NULL;
    cli_exec(r, bench_bin, argv);
}

#define BENCH_RUN(r, ...)                                                                          \
    do {                                                                                           \
        const char *const bench_args_[] = {__VA_ARGS__, NULL};                                     \
        bench_exec((r), bench_args_);                                                              \
    } while (0)

/* Asserts a run's exit status, showing the run when it differs. */
static void bench_status(const cli_result *r, int want)
{
    if (r->status != want)
        print_message("    $ %s\n    exit %d\n    stdout: %.1500s\n    stderr: %.1500s\n", r->line, r->status,
                      r->out, r->err);
    assert_int_equal(r->status, want);
}

/* Asserts that text holds needle, saying which when it does not. */
static void bench_has(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        print_message("    expected \"%s\" in:\n%.3000s\n", needle, text);
    assert_non_null(strstr(text, needle));
}

/* Lines in text (a last line without its newline counts too). */
static int bench_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n + (*text && text[strlen(text) - 1] != '\n');
}

/* The test backend's name for --backend. */
static const char *bench_backend_name(void)
{
    return bench_backend == BACKEND_GPU ? "gpu" : "emu";
}

/* Skips a case that cooks when the GPU asked for is not there. */
static void bench_need_kitchen(void)
{
    if (!bench_can_cook) {
        print_message("SKIP: no usable GPU\n");
        skip();
    }
}

/* --- the chart --- */

/* A chart of one series, for the cases below. */
static void chart_one(chart *c, int width, int height, const chart_point *points, int n)
{
    chart_series s = {"A", points, n};
    assert_int_equal(chart_plot(c, width, height, &s, 1, NULL, NULL), 0);
}

/* Points on a line of slope 1 in log-log land on the diagonal, the largest at the top right. */
static void test_chart_known_cells(void **state)
{
    (void)state;
    const chart_point p[] = {{1, 1}, {10, 10}, {100, 100}};
    chart c;
    chart_one(&c, 3, 3, p, 3);
    assert_int_equal(c.plotted, 3);
    assert_int_equal(c.skipped, 0);
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++)
            assert_int_equal(chart_cell(&c, row, col), row + col == 2 ? 0 : CHART_EMPTY);
    assert_string_equal(chart_cell_mark(&c, 2, 0), "A");
    assert_string_equal(chart_cell_mark(&c, 0, 0), " ");
    assert_int_equal(chart_cell(&c, 3, 0), CHART_EMPTY); /* outside */
    assert_int_equal(chart_cell(&c, 0, -1), CHART_EMPTY);
    /* the x ticks are the points' x values, under their columns; the y ticks the top, middle and bottom */
    assert_int_equal(c.nxticks, 3);
    assert_string_equal(c.xticks[0].label, "1");
    assert_string_equal(c.xticks[2].label, "100");
    assert_int_equal(c.xticks[1].at, 1);
    assert_int_equal(c.nyticks, 3);
    assert_int_equal(c.yticks[0].at, 0);
    assert_string_equal(c.yticks[0].label, "100");
    assert_int_equal(c.yticks[1].at, 1);
    assert_string_equal(c.yticks[1].label, "10");
    assert_int_equal(c.yticks[2].at, 2);
    assert_string_equal(c.yticks[2].label, "1");
    chart_free(&c);
    chart_free(&c); /* twice is harmless */
}

/* Both axes are logarithmic: 10^1.5 sits half-way between 1 and 1000, where a linear axis would
   put it near 1. */
static void test_chart_log_axes(void **state)
{
    (void)state;
    const chart_point p[] = {{1, 1000}, {pow(10, 1.5), pow(10, 1.5)}, {1000, 1}};
    chart c;
    chart_one(&c, 5, 5, p, 3);
    assert_int_equal(chart_col_of(&c, pow(10, 1.5)), 2);
    assert_int_equal(chart_row_of(&c, pow(10, 1.5)), 2);
    assert_int_equal(chart_cell(&c, 2, 2), 0);
    assert_int_equal(chart_cell(&c, 0, 0), 0);    /* y 1000 at the top, x 1 on the left */
    assert_int_equal(chart_cell(&c, 4, 4), 0);
    assert_int_equal(chart_col_of(&c, 10), 1);    /* a third of the way in logarithms: 4/3 rounds to 1 */
    assert_true(fabs(chart_x_at(&c, 2) - pow(10, 1.5)) < 1e-6);
    assert_true(fabs(chart_y_at(&c, 4) - 1.0) < 1e-9);
    assert_true(fabs(chart_y_at(&c, 0) - 1000.0) < 1e-6);
    assert_int_equal(chart_col_of(&c, 1e9), 4);   /* outside the range: the nearest edge */
    assert_int_equal(chart_col_of(&c, 0), -1);    /* no logarithm */
    chart_free(&c);
}

/* No series, an empty series and a single point. */
static void test_chart_empty_and_one_point(void **state)
{
    (void)state;
    chart c;
    char text[256];
    assert_int_equal(chart_plot(&c, 10, 4, NULL, 0, NULL, NULL), 0);
    assert_int_equal(c.plotted, 0);
    assert_int_equal(c.nxticks, 0);
    assert_int_equal(c.nyticks, 0);
    assert_int_equal(chart_row_text(&c, 0, text, sizeof text), 0);
    assert_string_equal(text, "");
    assert_int_equal(chart_col_of(&c, 5), -1);
    assert_true(chart_x_at(&c, 3) == 0.0);
    chart_free(&c);
    chart_series none = {"A", NULL, 0};
    assert_int_equal(chart_plot(&c, 10, 4, &none, 1, NULL, NULL), 0);
    assert_int_equal(c.plotted, 0);
    chart_free(&c);
    /* one point: the middle column and row (width / 2, height / 2 from the bottom) */
    const chart_point one = {512, 3.5};
    chart_one(&c, 9, 5, &one, 1);
    assert_int_equal(c.plotted, 1);
    assert_int_equal(chart_cell(&c, 2, 4), 0);
    assert_int_equal(c.nxticks, 1);
    assert_int_equal(c.xticks[0].at, 4);
    assert_int_equal(c.nyticks, 3);
    assert_string_equal(c.yticks[1].label, "3.5");
    chart_free(&c);
    /* one row: one y tick */
    chart_one(&c, 4, 1, &one, 1);
    assert_int_equal(c.nyticks, 1);
    assert_int_equal(chart_cell(&c, 0, 2), 0);
    chart_free(&c);
}

/* NaN, infinities, zero and negative values have no place on a log axis: skipped and counted. */
static void test_chart_non_finite_skipped(void **state)
{
    (void)state;
    const chart_point p[] = {{NAN, 1}, {4, INFINITY}, {0, 2}, {-8, 2}, {8, -1}, {2, 10}, {32, 1000}};
    chart c;
    chart_one(&c, 3, 3, p, 7);
    assert_int_equal(c.plotted, 2);
    assert_int_equal(c.skipped, 5);
    assert_true(c.xmin == 2 && c.xmax == 32 && c.ymin == 10 && c.ymax == 1000);
    assert_int_equal(c.nxticks, 2);
    assert_int_equal(chart_cell(&c, 2, 0), 0);
    assert_int_equal(chart_cell(&c, 0, 2), 0);
    int marked = 0;
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++)
            marked += chart_cell(&c, row, col) != CHART_EMPTY;
    assert_int_equal(marked, 2);
    chart_free(&c);
}

/* Two series in one cell make it CHART_MANY; a series meeting itself does not. */
static void test_chart_overlap(void **state)
{
    (void)state;
    const chart_point a[] = {{1, 1}, {100, 100}, {100, 99}}, b[] = {{1, 1.01}, {10, 50}};
    const chart_series s[] = {{"a", a, 3}, {"b", b, 2}};
    chart c;
    assert_int_equal(chart_plot(&c, 3, 3, s, 2, NULL, NULL), 0);
    assert_int_equal(chart_cell(&c, 2, 0), CHART_MANY);
    assert_string_equal(chart_cell_mark(&c, 2, 0), CHART_MANY_MARK);
    assert_int_equal(chart_cell(&c, 0, 2), 0); /* a twice: still a */
    assert_int_equal(chart_cell(&c, 0, 1), 1);
    chart_free(&c);
}

/* Writes a size as a tick label ("4K"), for the axis text below. */
static void chart_test_label(double v, char *out, size_t size)
{
    snprintf(out, size, "%gK", v / 1024);
}

/* Rows as UTF-8 without trailing spaces, the axis labels without overlaps, the framed lines. */
static void test_chart_text(void **state)
{
    (void)state;
    const chart_point p[] = {{4096, 1}, {8192, 2}, {1 << 20, 8}};
    const chart_series s[] = {{"●", p, 3}, {NULL, p, 1}};
    chart c;
    char text[512];
    assert_int_equal(chart_plot(&c, 20, 4, s, 2, chart_test_label, NULL), 0);
    assert_string_equal(c.marks[1], "1"); /* no mark given: the series' digit */
    assert_int_equal(chart_row_text(&c, 0, text, sizeof text), 20);
    assert_string_equal(text, "                   ●");
    assert_int_equal(chart_row_text(&c, 3, text, sizeof text), 1);
    assert_string_equal(text, "*");
    /* 4K and 8K fall two columns apart: the second label would touch the first and is left out */
    assert_int_equal(c.nxticks, 3);
    int cols = chart_xaxis_text(&c, text, sizeof text);
    assert_string_equal(text, "4K             1024K");
    assert_int_equal(cols, 20);
    assert_int_equal(chart_frame_lines(&c), 6);
    assert_int_equal(chart_frame_line(&c, 0, 5, text, sizeof text), 0);
    assert_string_equal(text, "    8 |                   ●");
    assert_int_equal(chart_frame_line(&c, 1, 5, text, sizeof text), 0);
    assert_string_equal(text, "      |");
    assert_int_equal(chart_frame_line(&c, 4, 5, text, sizeof text), 0);
    assert_string_equal(text, "      +--------------------");
    assert_int_equal(chart_frame_line(&c, 5, 5, text, sizeof text), 0);
    assert_string_equal(text, "       4K             1024K");
    assert_int_equal(chart_frame_line(&c, 6, 5, text, sizeof text), -1);
    assert_string_equal(text, "");
    /* a buffer too small cuts at a whole mark */
    char small[5];
    assert_int_equal(chart_row_text(&c, 0, small, sizeof small), 4);
    assert_string_equal(small, "    ");
    chart_free(&c);
    /* bad arguments */
    assert_int_equal(chart_plot(&c, 0, 4, s, 1, NULL, NULL), -1);
    assert_int_equal(chart_plot(&c, 4, CHART_MAX_HEIGHT + 1, s, 1, NULL, NULL), -1);
    assert_int_equal(chart_plot(&c, 4, 4, s, CHART_MAX_SERIES + 1, NULL, NULL), -1);
    const chart_series broken = {"x", NULL, 3};
    assert_int_equal(chart_plot(&c, 4, 4, &broken, 1, NULL, NULL), -1);
    assert_int_equal(chart_plot(NULL, 4, 4, s, 1, NULL, NULL), -1);
    chart_free(&c);
}

/* --- each recipe's own crossovers --- */

/* A made-up race: loop, BLAS, a kernel, a library; BLAS 1 ms everywhere, the loop growing. */
static race_result *bench_made_up_race(int emulated, const double cook[4][4], const double total[4][4])
{
    static const int64_t sizes[] = {64, 128, 256, 512};
    static const race_kind kinds[] = {RACE_CPU_LOOP, RACE_CPU_BLAS, RACE_KERNEL, RACE_LIBRARY};
    race_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->emulated = emulated;
    r->nsizes = r->ncontenders = 4;
    r->entries = calloc(16, sizeof *r->entries);
    assert_non_null(r->entries);
    for (int c = 0; c < 4; c++)
        r->contenders[c].kind = kinds[c];
    for (int s = 0; s < 4; s++) {
        r->sizes[s] = sizes[s];
        for (int c = 0; c < 4; c++) {
            race_entry *e = race_entry_at(r, s, c);
            e->size = sizes[s];
            e->contender = c;
            e->ran = e->passed = cook[s][c] > 0;
            e->cook_ms = cook[s][c];
            e->total_ms = total[s][c];
        }
    }
    return r;
}

/* Each recipe gets its crossovers against CPU BLAS and the CPU loop, cooking only and with
   shipping; a wrong taste breaks a winning run; a library recipe on the emulator is left out. */
static void test_rung_crossovers(void **state)
{
    (void)state;
    /* loop, BLAS, kernel, library; the loop sits out 512 (0) */
    const double cook[4][4] = {{0.5, 1, 2, 0.9}, {4, 1, 1.5, 0.9}, {32, 1, 0.8, 0.9}, {0, 1, 0.5, 0.9}};
    const double total[4][4] = {{0.5, 1, 3, 5}, {4, 1, 3, 5}, {32, 1, 2, 5}, {0, 1, 0.9, 5}};
    race_result *r = bench_made_up_race(0, cook, total);
    race_find_crossover(r);
    assert_true(r->rungs[2].counted);
    assert_int_equal(r->rungs[2].blas_cook, 256);
    assert_int_equal(r->rungs[2].blas_total, 512);
    assert_int_equal(r->rungs[2].loop_cook, 128);  /* 1.5 < 4 at 128, 0.8 < 32 at 256; 512 has no loop */
    assert_int_equal(r->rungs[2].loop_total, 128);
    assert_true(r->rungs[3].counted);
    assert_int_equal(r->rungs[3].blas_cook, 64);
    assert_int_equal(r->rungs[3].blas_total, 0);
    assert_int_equal(r->rungs[3].loop_total, 256); /* 5 < 32 at 256 only */
    assert_false(r->rungs[0].counted);             /* the CPU contenders have no crossover of their own */
    json_t *j = race_json(r);
    json_t *rungs = json_object_get(j, "rungs");
    assert_int_equal(json_array_size(rungs), 2);
    json_t *kernel = json_object_get(json_array_get(rungs, 0), "vs_cpu_blas");
    assert_int_equal(json_integer_value(json_object_get(kernel, "cooking")), 256);
    assert_true(json_is_null(json_object_get(json_object_get(json_array_get(rungs, 1), "vs_cpu_blas"), "with_shipping")));
    json_decref(j);
    /* the kernel tastes wrong at 256: its run against BLAS starts again at 512 */
    race_entry_at(r, 2, 2)->passed = 0;
    race_find_crossover(r);
    assert_int_equal(r->rungs[2].blas_cook, 512);
    race_free(r);
    /* on the emulator the library recipe is OpenBLAS: left out, null in JSON */
    r = bench_made_up_race(1, cook, total);
    race_find_crossover(r);
    assert_true(r->rungs[2].counted);
    assert_false(r->rungs[3].counted);
    assert_int_equal(r->rungs[3].blas_cook, 0);
    j = race_json(r);
    json_t *lib = json_array_get(json_object_get(j, "rungs"), 1);
    assert_true(json_is_false(json_object_get(lib, "counted")));
    assert_true(json_is_null(json_object_get(lib, "vs_cpu_blas")));
    json_decref(j);
    race_free(r);
}

/* --- the shipments' sweep, as a module --- */

/* Counts the progress messages of the sweep. */
static int transfers_messages;
static void bench_count_progress(void *ctx, const char *text)
{
    (void)ctx;
    assert_non_null(strstr(text, " of "));
    transfers_messages++;
}

/* Two small sizes: every copy measured and tasted, both host memories each way; the default sizes;
   sizes that are not whole words are refused. */
static void test_transfers_module(void **state)
{
    (void)state;
    bench_need_kitchen();
    size_t sizes[TRANSFERS_MAX_SIZES];
    assert_int_equal(transfers_default_sizes(TRANSFERS_GPU_TOP, sizes, TRANSFERS_MAX_SIZES), 10);
    assert_int_equal(sizes[0], 4096);
    assert_int_equal(sizes[9], (size_t)1 << 30);
    assert_int_equal(transfers_default_sizes(TRANSFERS_EMU_TOP, sizes, TRANSFERS_MAX_SIZES), 8);
    assert_int_equal(transfers_default_sizes(TRANSFERS_EMU_TOP, sizes, 3), 3);
    assert_true(transfers_bytes_moved(TRANSFERS_ON_DEVICE, 4096) == 8192.0);
    assert_true(transfers_bytes_moved(TRANSFERS_IN_PINNED, 4096) == 4096.0);
    char text[32];
    transfers_format_size(1 << 30, text, sizeof text);
    assert_string_equal(text, "1 GiB");
    transfers_format_size(3 << 19, text, sizeof text);
    assert_string_equal(text, "1.5 MiB");

    demo_params p;
    memset(&p, 0, sizeof p);
    kitchen_params_default(&p.run);
    p.run.backend = bench_backend;
    p.run.repeat = 3;
    p.sizes[0] = 4096;
    p.sizes[1] = 65536;
    p.nsizes = 2;
    p.progress = bench_count_progress;
    transfers_messages = 0;
    transfers_result *r = NULL;
    chef_error err = {0};
    assert_int_equal(transfers_run(&p, &r, &err), CHEF_EXIT_OK);
    assert_non_null(r);
    assert_int_equal(r->nsizes, 2);
    assert_true(r->passed && r->complete);
    assert_int_equal(r->stopped_at, 0);
    assert_int_equal(r->emulated, bench_backend == BACKEND_EMU);
    assert_int_equal(transfers_messages, 2 * TRANSFERS_KINDS);
    for (int s = 0; s < 2; s++) {
        assert_true(r->sizes[s].tasted && r->sizes[s].passed);
        for (int k = 0; k < TRANSFERS_KINDS; k++) {
            const transfers_entry *e = &r->sizes[s].copies[k];
            assert_true(e->ran);
            assert_true(e->ms > 0 && e->gbps > 0);
            assert_true(e->repeat >= 1 && e->repeat <= 3);
            assert_true(fabs(e->gbps - transfers_bytes_moved((transfers_kind)k, r->sizes[s].bytes) / (e->ms * 1e6)) <
                        1e-9 * e->gbps);
        }
    }
    json_t *j = transfers_json(r);
    assert_string_equal(json_string_value(json_object_get(j, "kind")), "transfers");
    json_t *copies = json_object_get(json_array_get(json_object_get(j, "sizes"), 1), "copies");
    assert_int_equal(json_array_size(copies), TRANSFERS_KINDS);
    assert_string_equal(json_string_value(json_object_get(json_array_get(copies, TRANSFERS_OUT_PINNED), "direction")),
                        "device-to-host");
    assert_string_equal(json_string_value(json_object_get(json_array_get(copies, TRANSFERS_OUT_PINNED), "memory")),
                        "pinned");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(copies, TRANSFERS_ON_DEVICE), "bytes_moved")),
                     131072);
    json_decref(j);
    transfers_free(r);

    p.sizes[1] = 4098; /* not a whole number of words */
    r = (transfers_result *)1;
    assert_int_equal(transfers_run(&p, &r, &err), CHEF_EXIT_USAGE);
    assert_null(r);
    assert_non_null(strstr(err.message, "4098"));
}

/* --- the command --- */

/* Runs the three reports once: text (with progress on stderr), JSON (--quiet) and CSV. */
static int bench_setup(void **state)
{
    (void)state;
    if (!bench_can_cook)
        return 0;
    const char *be = bench_backend_name();
    BENCH_RUN(&run_text, "bench", "--sweep", "16,32", "--backend", be, "--repeat", "2");
    BENCH_RUN(&run_json, "bench", "--sweep", "16:32", "--backend", be, "--repeat", "2", "--format", "json", "--quiet");
    BENCH_RUN(&run_csv, "bench", "--sweep", "32,16", "--backend", be, "--repeat", "2", "--format", "csv", "--quiet");
    return 0;
}

/* One of the three runs, which must have passed without a word on stderr (they are --quiet). */
static const cli_result *bench_quiet_pass(const cli_result *r)
{
    bench_need_kitchen();
    bench_status(r, 0);
    assert_string_equal(r->err, "");
    return r;
}

/* Frees the three runs. */
static int bench_teardown(void **state)
{
    (void)state;
    cli_free(&run_text);
    cli_free(&run_json);
    cli_free(&run_csv);
    return 0;
}

/* The ladder's recipes, counted. */
static int bench_ladder_length(void)
{
    int n = 0;
    while (recipe_ladder()[n])
        n++;
    return n;
}

/* Asserts that every line of an English text fits 80 columns (bytes are columns there). */
static void bench_fits_80(const char *text)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 80)
            print_message("    line too long (%zu): %.*s\n", len, (int)len, line);
        assert_true(len <= 80);
        line = end ? end + 1 : line + len;
    }
}

/* Text: the race's tables per size, its chart and crossovers; the shipments' table and chart; PASS;
   every line within 80 columns; the progress on stderr, a line per size. */
static void test_bench_text(void **state)
{
    (void)state;
    bench_need_kitchen();
    const cli_result *r = &run_text;
    bench_status(r, 0);
    static const char *const needles[] = {
        "== Matrix multiply: the fair race over sizes ==", "n = 16 ", "n = 32 ", "CPU loop", "CPU BLAS",
        "matmul-tiled", "Cooking time against n, both on log scales", "n (matrix side)", "Crossover",
        "cooking only", "with shipping", "Each recipe's own crossover", "against CPU BLAS",
        "== Shipments: pageable and pinned", "ship in (to device)", "4 KiB", "GB/s against bytes per copy",
        "D device to device", "PASS: every result tasted right"};
    for (size_t i = 0; i < sizeof needles / sizeof needles[0]; i++)
        bench_has(r->out, needles[i]);
    for (int i = 0; recipe_ladder()[i]; i++)
        bench_has(r->out, recipe_ladder()[i]);
    /* the charts: two x axes with their labels, the race's under its sizes */
    int axes = 0;
    for (const char *p = r->out; (p = strstr(p, " +-----")); p++)
        axes++;
    assert_int_equal(axes, 2);
    bench_has(r->out, "16                                                    32\n");
    if (bench_backend == BACKEND_EMU) {
        bench_has(r->out, "the CPU emulator cooked");
        bench_has(r->out, "every copy is a memcpy on this CPU");
        bench_has(r->out, "64 MiB ");
    }
    bench_fits_80(r->out);
    /* progress: off a terminal one line per size, each sweep's sizes in order */
    bench_has(r->err, "bench: matmul, size 16 (1 of 2)\nbench: matmul, size 32 (2 of 2)\n");
    bench_has(r->err, "bench: transfers, size 4 KiB (1 of ");
    assert_null(strchr(r->err, '\r'));
    assert_null(strstr(r->err, ": CPU loop")); /* who runs is for the terminal's line only */
}

/* Writes text to a file in dir; returns its path in path. */
static void bench_write_file(const char *dir, const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Checks a file against $defs/bench; returns the checker's exit status (-1 without jsonschema),
   showing what it said when that is not want. */
static int bench_schema_check(const char *path, int want)
{
    cli_result r;
    const char *const probe[] = {BENCH_PYTHON, "-c", "import jsonschema", NULL};
    if (access(BENCH_PYTHON, X_OK) != 0)
        return -1;
    cli_exec(&r, BENCH_PYTHON, probe);
    int have = r.status == 0;
    cli_free(&r);
    if (!have)
        return -1;
    const char *const argv[] = {BENCH_PYTHON, "tests/check_schema.py", "docs/run-report.schema.json", path, "bench",
                                NULL};
    cli_exec(&r, BENCH_PYTHON, argv);
    int status = r.status;
    if (status != want)
        print_message("    check_schema %s: exit %d: %.2000s\n", path, status, r.err);
    cli_free(&r);
    return status;
}

/* Without --sweep the emulator races 32, 64 and 128 and says why the sizes are small; a GPU races
   32 to 4096 (not run here: it takes a while). */
static void test_bench_default_sweep(void **state)
{
    (void)state;
    if (bench_backend != BACKEND_EMU) {
        print_message("SKIP: the emulator's default sweep\n");
        skip();
    }
    cli_result r;
    BENCH_RUN(&r, "bench", "--only", "matmul", "--repeat", "1", "--quiet", "--backend", "emu");
    bench_status(&r, 0);
    assert_string_equal(r.err, "");
    bench_has(r.out, "The matrices stay small (32, 64 and 128; --sweep changes them)");
    bench_has(r.out, "  n = 32 ");
    bench_has(r.out, "  n = 128 ");
    assert_null(strstr(r.out, "n = 256"));
    assert_null(strstr(r.out, "Shipments")); /* --only matmul */
    bench_fits_80(r.out);
    cli_free(&r);
}

/* JSON: one cudachef.bench/1 document with every ladder recipe, the transfers with pageable and
   pinned both ways, valid against the schema (and a renamed field is not); --quiet: no stderr. */
static void test_bench_json(void **state)
{
    (void)state;
    const cli_result *r = bench_quiet_pass(&run_json);
    json_error_t e;
    json_t *j = json_loads(r->out, 0, &e);
    if (!j)
        print_message("    JSON error line %d: %s\n", e.line, e.text);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "schema")), "cudachef.bench/1");
    assert_string_equal(json_string_value(json_object_get(j, "status")), "passed");
    assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), 0);
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "backend"), "kind")),
                        bench_backend_name());
    json_t *race = json_object_get(j, "matmul");
    assert_string_equal(json_string_value(json_object_get(race, "kind")), "race");
    assert_int_equal(json_array_size(json_object_get(race, "sizes")), 2);
    json_t *contenders = json_object_get(race, "contenders");
    assert_int_equal(json_array_size(contenders), 2 + bench_ladder_length());
    for (int i = 0; recipe_ladder()[i]; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(contenders, 2 + (size_t)i), "name")),
                            recipe_ladder()[i]);
    assert_int_equal(json_array_size(json_object_get(race, "results")), 2 * (2 + (size_t)bench_ladder_length()));
    assert_int_equal(json_array_size(json_object_get(race, "rungs")), (size_t)bench_ladder_length());
    json_t *transfers = json_object_get(j, "transfers");
    json_t *sizes = json_object_get(transfers, "sizes");
    assert_true(json_array_size(sizes) >= 1);
    if (bench_backend == BACKEND_EMU) {
        assert_int_equal(json_array_size(sizes), 8);
        assert_int_equal(json_integer_value(json_object_get(transfers, "top_bytes")), 64 << 20);
    }
    size_t i;
    json_t *size;
    json_array_foreach(sizes, i, size) {
        int seen[3][3] = {{0}};
        json_t *copies = json_object_get(size, "copies");
        assert_int_equal(json_array_size(copies), 5);
        assert_true(json_is_true(json_object_get(size, "passed")));
        size_t k;
        json_t *copy;
        json_array_foreach(copies, k, copy) {
            const char *dir = json_string_value(json_object_get(copy, "direction"));
            const char *mem = json_string_value(json_object_get(copy, "memory"));
            int d = strcmp(dir, "host-to-device") == 0 ? 0 : strcmp(dir, "device-to-host") == 0 ? 1 : 2;
            int m = strcmp(mem, "pageable") == 0 ? 0 : strcmp(mem, "pinned") == 0 ? 1 : 2;
            seen[d][m]++;
            assert_true(json_real_value(json_object_get(copy, "gbps")) > 0);
        }
        assert_true(seen[0][0] == 1 && seen[0][1] == 1 && seen[1][0] == 1 && seen[1][1] == 1 && seen[2][2] == 1);
    }
    char dir[256], path[512];
    snprintf(dir, sizeof dir, "%s/cudachef-bench-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
    bench_write_file(dir, "bench.json", r->out, path, sizeof path);
    int status = bench_schema_check(path, 0);
    if (status < 0) {
        print_message("SKIP (schema part): %s cannot import jsonschema\n", BENCH_PYTHON);
    } else {
        assert_int_equal(status, 0);
        /* the same document with a rung's field renamed must fail */
        json_t *rung = json_array_get(json_object_get(race, "rungs"), 0);
        json_object_set(rung, "vs_blas", json_object_get(rung, "vs_cpu_blas"));
        json_object_del(rung, "vs_cpu_blas");
        char *bad = json_dumps(j, 0);
        unlink(path);
        bench_write_file(dir, "bad.json", bad, path, sizeof path);
        free(bad);
        assert_int_equal(bench_schema_check(path, 1), 1);
    }
    unlink(path);
    rmdir(dir);
    json_decref(j);
}

/* CSV: the header, then one row of ten fields per measurement: every contender at both sizes and
   the five copies at every size. */
static void test_bench_csv(void **state)
{
    (void)state;
    const cli_result *r = bench_quiet_pass(&run_csv);
    const char *header = "sweep,size,contender,kind,cook_ms,total_ms,gflops,gbps,repeat,passed\n";
    assert_int_equal(strncmp(r->out, header, strlen(header)), 0);
    int matmul = 0, transfers = 0;
    for (const char *line = r->out + strlen(header); *line;) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        int commas = 0;
        for (const char *p = line; p < end; p++)
            commas += *p == ',';
        assert_int_equal(commas, 9);
        matmul += strncmp(line, "matmul,", 7) == 0;
        transfers += strncmp(line, "transfers,", 10) == 0;
        assert_int_equal(strncmp(end - 5, ",true", 5), 0);
        line = end + 1;
    }
    assert_int_equal(matmul, 2 * (2 + bench_ladder_length()));
    size_t sizes[TRANSFERS_MAX_SIZES];
    if (bench_backend == BACKEND_EMU)
        assert_int_equal(transfers, 5 * transfers_default_sizes(TRANSFERS_EMU_TOP, sizes, TRANSFERS_MAX_SIZES));
    assert_int_equal(bench_lines(r->out), 1 + matmul + transfers);
    bench_has(r->out, "\nmatmul,16,CPU loop,cpu-loop,");
    bench_has(r->out, "\nmatmul,32,matmul-tiled,kernel,");
    bench_has(r->out, "\ntransfers,4096,pinned,host-to-device,");
    bench_has(r->out, "\ntransfers,4096,device,device-to-device,");
}

/* --output FILE: the report goes there whole, nothing to stdout, no temporary file left. */
static void test_bench_output(void **state)
{
    (void)state;
    bench_need_kitchen();
    char dir[256], path[512];
    snprintf(dir, sizeof dir, "%s/cudachef-bench-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    cli_result r;
    BENCH_RUN(&r, "bench", "--only", "matmul", "--sweep", "16", "--repeat", "1", "--format", "csv", "--output", path,
              "--backend", bench_backend_name());
    bench_status(&r, 0);
    assert_string_equal(r.out, "");
    bench_has(r.err, "bench: the report is in ");
    cli_free(&r);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = cli_slurp(f);
    fclose(f);
    assert_int_equal(strncmp(text, "sweep,size,", 11), 0);
    assert_int_equal(bench_lines(text), 1 + 2 + bench_ladder_length());
    assert_null(strstr(text, "transfers,"));
    free(text);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);
    unlink(path);
    /* a folder that does not exist: exit 5 with the reason, nothing created */
    snprintf(path, sizeof path, "%s/no-such-folder/sweep.csv", dir);
    BENCH_RUN(&r, "bench", "--only", "matmul", "--sweep", "16", "--repeat", "1", "--output", path, "--quiet",
              "--backend", bench_backend_name());
    bench_status(&r, CHEF_EXIT_ENVIRONMENT);
    bench_has(r.err, "cannot write");
    cli_free(&r);
    assert_int_equal(rmdir(dir), 0);
}

/* On a terminal the progress is one line rewritten in place, saying who runs, and cleared at the end. */
static void test_bench_progress_terminal(void **state)
{
    (void)state;
    bench_need_kitchen();
    int master = -1;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    assert_true(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, STDOUT_FILENO);
        execl(bench_bin, bench_bin, "bench", "--only", "matmul", "--sweep", "16", "--repeat", "1", "--backend",
              bench_backend_name(), (char *)NULL);
        _exit(127);
    }
    char buf[65536];
    size_t used = 0;
    test_guard guard = test_guard_start(CLI_GUARD_S); /* read to the end, however long it takes */
    for (;;) {
        struct pollfd pfd = {master, POLLIN, 0};
        int ready = poll(&pfd, 1, 100);
        if (ready == 0 || (ready < 0 && errno == EINTR)) {
            if (test_guard_over(&guard)) {
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                test_guard_fail(test_guard_waited(&guard), "`cudachef bench` in a terminal to end (killed it)");
            }
            continue;
        }
        if (ready < 0)
            break;
        ssize_t got = read(master, buf + used, sizeof buf - 1 - used);
        if (got <= 0)
            break; /* EIO once the child has gone */
        used += (size_t)got;
    }
    buf[used] = '\0';
    close(master);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    bench_has(buf, "\rbench: matmul, size 16 (1 of 1): CPU loop\033[K");
    bench_has(buf, "\rbench: matmul, size 16 (1 of 1): matmul-tiled\033[K");
    assert_null(strchr(buf, '\n')); /* one line, rewritten */
    assert_int_equal(strcmp(buf + used - 4, "\r\033[K"), 0);
}

/* Every way to get bench wrong: exit 2, nothing on stdout, one line and its hint on stderr. */
static void test_bench_usage_errors(void **state)
{
    (void)state;
    static const char *const cases[][6] = {
        {"--sweep", "0"},        {"--sweep", "-32"},         {"--sweep", "abc"},     {"--sweep", "46341"},
        {"--sweep", "64,32,64"}, {"--sweep", "32,,64"},      {"--sweep", ""},        {"--sweep", "4096:32"},
        {"--sweep", "3:3"},      {"--sweep", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33"},
        {"--only", "gemm"},      {"--format", "xml"},        {"--format", "json", "--format", "csv"},
        {"--repeat", "0"},       {"--backend", "tpu"},       {"--output", ""},       {"--only", "transfers", "--sweep", "32"},
        {"--bogus"},             {"extra"},                  {"--sweep"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[8] = {"bench"};
        int n = 1;
        for (int k = 0; k < 6 && cases[i][k]; k++)
            args[n++] = cases[i][k];
        args[n] = NULL;
        cli_result r;
        bench_exec(&r, args);
        bench_status(&r, CHEF_EXIT_USAGE);
        assert_string_equal(r.out, "");
        const char *nl = strchr(r.err, '\n');
        int ok = strncmp(r.err, "cudachef bench: ", 16) == 0 && nl && strncmp(nl + 1, "  hint: ", 8) == 0 &&
                 bench_lines(r.err) == 2;
        if (!ok)
            print_message("    $ %s\n    stderr: %s\n", r.line, r.err);
        assert_true(ok);
        cli_free(&r);
    }
    /* --help is not an error */
    cli_result r;
    BENCH_RUN(&r, "bench", "--help");
    bench_status(&r, 0);
    bench_has(r.out, "usage: cudachef bench");
    bench_has(r.out, "--sweep SIZES");
    cli_free(&r);
}

/* The roofline's maths: the lower roof wins, the samples split at the ridge, a point put on a roof
   cell takes it, and decade ticks sit on powers of ten. */
static void test_chart_roofline(void **state)
{
    (void)state;
    assert_true(chart_roof(0.5, 1000, 100) == 50);   /* under the ridge (10): bandwidth x intensity */
    assert_true(chart_roof(50, 1000, 100) == 1000);  /* past it: the peak */
    chart_point mem[8], comp[8];
    int nm, nc;
    assert_int_equal(chart_roof_points(1000, 100, 1, 100, 5, mem, &nm, comp, &nc), 0);
    assert_int_equal(nm, 2); /* 1 and 3.16 below the ridge; 10, 31.6, 100 on the flat roof */
    assert_int_equal(nc, 3);
    assert_true(fabs(mem[1].x - sqrt(10)) < 1e-9 && fabs(mem[1].y - 100 * sqrt(10)) < 1e-6);
    assert_true(comp[0].y == 1000 && fabs(comp[2].x - 100) < 1e-9);
    chart_series s[2] = {{"/", mem, nm}, {"-", comp, nc}};
    chart c;
    assert_int_equal(chart_plot(&c, 21, 5, s, 2, NULL, NULL), 0);
    assert_int_equal(chart_cell(&c, 0, 20), 1);
    assert_int_equal(chart_put(&c, 100, 1000, 0), 0); /* drawn over the compute roof */
    assert_int_equal(chart_cell(&c, 0, 20), 0);
    assert_int_equal(chart_put(&c, 100, 1000, 2), -1); /* no such series */
    assert_int_equal(chart_decade_xticks(&c, NULL), 3); /* 1, 10, 100 */
    assert_int_equal(c.xticks[0].at, 0);
    assert_int_equal(c.xticks[1].at, 10);
    assert_string_equal(c.xticks[2].label, "100");
    chart_free(&c);
    assert_int_equal(chart_roof_points(1000, 0, 1, 100, 5, mem, &nm, comp, &nc), -1);
    assert_int_equal(chart_roof_points(1000, 100, 100, 1, 5, mem, &nm, comp, &nc), -1);
}

/* --backend gpu on a machine without one: exit 5, one line and its hint, nothing on stdout. */
static void test_bench_no_gpu(void **state)
{
    (void)state;
    backend_info info;
    memset(&info, 0, sizeof info);
    if (backend_gpu_probe(&info) == 0) {
        print_message("SKIP: this machine has a usable GPU\n");
        skip();
    }
    cli_result r;
    BENCH_RUN(&r, "bench", "--backend", "gpu", "--format", "json");
    bench_status(&r, CHEF_EXIT_ENVIRONMENT);
    assert_string_equal(r.out, "");
    bench_has(r.err, "GPU");
    assert_int_equal(bench_lines(r.err), 2);
    cli_free(&r);
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    /* the interface language comes from --lang only; the program from $CUDACHEF_BIN if set */
    static const char *const locale_vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES"};
    for (size_t i = 0; i < sizeof locale_vars / sizeof locale_vars[0]; i++)
        unsetenv(locale_vars[i]);
    setenv("LANG", "C.UTF-8", 1);
    const char *bin = getenv("CUDACHEF_BIN");
    bench_bin = bin && *bin ? bin : bench_bin;
    bench_backend = test_backend_from_env();
    bench_can_cook = !test_backend_skip(bench_backend);
    if (access(bench_bin, X_OK) != 0) {
        fprintf(stderr, "test_bench: %s is not an executable (build it with make, or set CUDACHEF_BIN)\n", bench_bin);
        return 1;
    }
    printf("test_bench: backend %s\n", backend_kind_name(bench_backend));
    /* the group's setup runs the command's three reports once, for the cases that read them */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chart_known_cells),
        cmocka_unit_test(test_chart_roofline),
        cmocka_unit_test(test_chart_log_axes),
        cmocka_unit_test(test_chart_empty_and_one_point),
        cmocka_unit_test(test_chart_non_finite_skipped),
        cmocka_unit_test(test_chart_overlap),
        cmocka_unit_test(test_chart_text),
        cmocka_unit_test(test_rung_crossovers),
        cmocka_unit_test(test_transfers_module),
        cmocka_unit_test(test_bench_text),
        cmocka_unit_test(test_bench_default_sweep),
        cmocka_unit_test(test_bench_json),
        cmocka_unit_test(test_bench_csv),
        cmocka_unit_test(test_bench_output),
        cmocka_unit_test(test_bench_progress_terminal),
        cmocka_unit_test(test_bench_usage_errors),
        cmocka_unit_test(test_bench_no_gpu),
    };
    return cmocka_run_group_tests_name("bench: chart, crossovers, transfers, the command", tests, bench_setup,
                                       bench_teardown) ? 1 : 0;
}
