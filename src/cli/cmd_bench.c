/*
 * cmd_bench.c - `cudachef bench`: the sweeps of the fair race (lesson 7) and of the shipments
 * (lesson 8), measured on this machine now, for people (tables and log-log charts), for programs
 * (one JSON document, schema cudachef.bench/1) or for spreadsheets (CSV).
 *
 * The matrix-multiply sweep is the race of race.c with every rung of the recipe ladder
 * (recipe_ladder) against the CPU loop and CPU BLAS, with and without shipping; the shipments'
 * sweep is transfers.c. Nothing in a report comes from anywhere but this run: every ratio is of
 * two figures measured side by side in it. While it runs, a progress line on standard error says
 * where it is (rewritten in place on a terminal, a line per size otherwise; --quiet silences it).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/i18n.h"
#include "demos/race.h"
#include "engine/recipes.h"
#include "engine/report.h"
#include "demos/transfers.h"
#include "base/parse.h"
#include "base/file.h"

#define BENCH_SCHEMA "cudachef.bench/1"
#define BENCH_MAX_SIDE 46340 /* n * n must fit the kernels' int index */
#define BENCH_TEXT_WIDTH 79  /* every line of the text fits an 80-column terminal */

static const char bench_usage[] =
    "usage: cudachef bench [--sweep SIZES] [--only matmul|transfers] [--format text|json|csv] [options]\n"
    "\n"
    "Measures, on this machine and now, the two sweeps of the lessons: the matrix multiply race\n"
    "(CPU loop, CPU BLAS, every kernel of the recipe ladder and the GPU library, cooking only and\n"
    "with shipping) over matrix sides, with the crossovers; and the shipments (host to device and\n"
    "back, pageable and pinned, and the device's own copy) from 4 KiB to 1 GiB. Every figure comes\n"
    "from this run.\n"
    "\n"
    "  --sweep SIZES            matrix sides: a list (32,64,128) or the powers of two from A to B\n"
    "                           (32:4096); default 32:4096 on a GPU, 32,64,128 on the emulator\n"
    "  --only matmul|transfers  run only one of the two sweeps\n"
    "  --backend auto|gpu|emu   who cooks (default auto: the GPU when one works)\n"
    "  --format text|json|csv   tables and charts for people, one JSON document (cudachef.bench/1),\n"
    "                           or one CSV row per measurement (docs/BENCHMARKS.md)\n"
    "  --output FILE            write the report to FILE (whole, or not at all) instead of\n"
    "                           standard output\n"
    "  --repeat N               timed runs of each measurement at most, after a warm-up (default 5;\n"
    "                           fewer where one run is long); the median is reported\n"
    "  --seed S                 seed of the random matrices (default 1)\n"
    "  --quiet                  no progress line on standard error\n"
    "  --lang en|ko             language of the text (default from LANG)\n"
    "\n"
    "Exit codes: 0 every result tasted right, 1 a result was wrong, 2 usage error, 4 a kernel\n"
    "crashed, 5 no usable GPU with --backend gpu, not enough memory, or the report could not be\n"
    "written.\n";

typedef enum bench_format { BENCH_TEXT, BENCH_JSON, BENCH_CSV } bench_format;

/* The command line, parsed. */
typedef struct bench_options {
    int64_t sizes[DEMO_MAX_SIZES]; /* --sweep, smallest first; nsizes 0: the default */
    int nsizes;
    int matmul, transfers;         /* the sweeps to run */
    backend_kind backend;
    bench_format format;
    const char *output;
    int repeat;                    /* 0: each sweep's default */
    uint64_t seed;
    int seed_given;
    int quiet;
} bench_options;

/* What the progress line knows between calls. */
static struct {
    int terminal;        /* stderr is a terminal: one line rewritten in place */
    int shown;           /* a line is on the terminal now */
    const char *sweep;   /* "matmul" or "transfers" */
    char last[160];      /* off a terminal: the size last printed */
} bench_progress_state;

/* Default sweeps: a GPU shows its strength on large matrices; the emulator needs small ones. */
static const int64_t bench_gpu_sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
static const int64_t bench_emu_sizes[] = {32, 64, 128};

/* Sorts sides ascending. */
static int bench_cmp_side(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Parses --sweep: "32,64,128" or "32:4096" (the powers of two from 32 to 4096). -1 with err. */
static int bench_parse_sweep(const char *text, bench_options *o, chef_error *err)
{
    char buf[1024];
    if (!*text || strlen(text) >= sizeof buf)
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("--sweep needs matrix sides, such as 32,64,128 or 32:4096"));
    snprintf(buf, sizeof buf, "%s", text);
    int64_t v, lo, hi;
    o->nsizes = 0;
    char *colon = strchr(buf, ':');
    if (colon) {
        *colon = '\0';
        if (parse_int64("--sweep", buf, 1, BENCH_MAX_SIDE, &lo, err) != 0 ||
            parse_int64("--sweep", colon + 1, 1, BENCH_MAX_SIDE, &hi, err) != 0)
            return -1;
        if (lo > hi)
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("--sweep %s: a range goes from the smaller side to the larger"),
                             text);
        for (int64_t side = 1; side <= hi; side *= 2)
            if (side >= lo)
                o->sizes[o->nsizes++] = side;
        if (o->nsizes == 0)
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("--sweep %s: no power of two lies in that range"), text);
        return 0;
    }
    char *save = NULL;
    for (char *p = buf;; p = NULL) {
        char *word = strtok_r(p, ",", &save);
        if (!word)
            break;
        if (o->nsizes >= DEMO_MAX_SIZES)
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("--sweep takes at most %d sizes"), DEMO_MAX_SIZES);
        if (parse_int64("--sweep", word, 1, BENCH_MAX_SIDE, &v, err) != 0)
            return -1;
        o->sizes[o->nsizes++] = v;
    }
    if (o->nsizes == 0 || strstr(text, ",,") || text[0] == ',' || text[strlen(text) - 1] == ',')
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("--sweep %s: a side is missing between the commas"), text);
    qsort(o->sizes, (size_t)o->nsizes, sizeof o->sizes[0], bench_cmp_side);
    for (int i = 1; i < o->nsizes; i++)
        if (o->sizes[i] == o->sizes[i - 1])
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("--sweep gives %lld twice"), (long long)o->sizes[i]);
    return 0;
}

/* Parses --format: text, json or csv. */
static int bench_parse_format(const char *text, bench_format *out)
{
    static const char *const names[] = {"text", "json", "csv"};
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (bench_format)i;
            return 0;
        }
    return -1;
}

/* Parses the command line into o; returns -1 when the command goes on, else its exit code (help,
   or a usage error already printed). */
static int bench_parse(int argc, char **argv, bench_options *o)
{
    static const struct option opts[] = {{"sweep", required_argument, 0, 'S'},
                                         {"only", required_argument, 0, 'O'},
                                         {"backend", required_argument, 0, 'b'},
                                         {"format", required_argument, 0, 'f'},
                                         {"output", required_argument, 0, 'o'},
                                         {"repeat", required_argument, 0, 'r'},
                                         {"seed", required_argument, 0, 's'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    uint64_t seen = 0; /* the options given so far (cli_once) */
    chef_error err = {0};
    int64_t v;
    int c, index = -1;
    memset(o, 0, sizeof *o);
    o->matmul = o->transfers = 1;
    o->seed = 1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, &index)) != -1) {
        if (cli_once("bench", opts, c, &seen) != 0)
            return CHEF_EXIT_USAGE;
        index = -1;
        switch (c) {
        case 'S':
            if (bench_parse_sweep(optarg, o, &err) != 0)
                return cli_usage_error("bench", "%s", err.message);
            break;
        case 'O':
            if (strcmp(optarg, "matmul") == 0)
                o->transfers = 0;
            else if (strcmp(optarg, "transfers") == 0)
                o->matmul = 0;
            else
                return cli_usage_error("bench", "unknown sweep '%s' for --only (use matmul or transfers)", optarg);
            break;
        case 'b':
            if (backend_kind_parse(optarg, &o->backend) != 0)
                return cli_usage_error("bench", "unknown backend '%s' (use auto, gpu or emu)", optarg);
            break;
        case 'f':
            if (bench_parse_format(optarg, &o->format) != 0)
                return cli_usage_error("bench", "unknown format '%s' (use text, json or csv)", optarg);
            break;
        case 'o':
            if (!*optarg)
                return cli_usage_error("bench", "--output needs a file name");
            o->output = optarg;
            break;
        case 'r':
            if (parse_int64("--repeat", optarg, 1, TRANSFERS_MAX_REPEAT, &v, &err) != 0)
                return cli_usage_error("bench", "%s", err.message);
            o->repeat = (int)v;
            break;
        case 's':
            if (parse_int64("--seed", optarg, 0, INT64_MAX, &v, &err) != 0)
                return cli_usage_error("bench", "%s", err.message);
            o->seed = (uint64_t)v;
            o->seed_given = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        default:
            return cli_common_option(c, "bench", bench_usage, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("bench", "unexpected argument '%s' (options start with --)", argv[optind]);
    if (o->nsizes && !o->matmul)
        return cli_usage_error("bench", "--sweep sets the matrix sides, and --only transfers runs no matrices");
    return -1;
}

/* Shows where a sweep is, on standard error: in place on a terminal, else a line per size. */
static void bench_progress(void *ctx, const char *text)
{
    (void)ctx;
    if (bench_progress_state.terminal) {
        fputc('\r', stderr);
        fprintf(stderr, _("bench: %s, %s"), bench_progress_state.sweep, text);
        fputs("\033[K", stderr);
        bench_progress_state.shown = 1;
    } else {
        /* the size is what comes before ": " (then who runs): each size gets one line */
        const char *cut = strstr(text, ": ");
        size_t len = cut ? (size_t)(cut - text) : strlen(text);
        char head[sizeof bench_progress_state.last];
        snprintf(head, sizeof head, "%s: %.*s", bench_progress_state.sweep, (int)len, text);
        if (strcmp(head, bench_progress_state.last) == 0)
            return;
        snprintf(bench_progress_state.last, sizeof bench_progress_state.last, "%s", head);
        fprintf(stderr, _("bench: %s, %.*s\n"), bench_progress_state.sweep, (int)len, text);
    }
    fflush(stderr);
}

/* Clears the progress line from a terminal, before anything else is written there. */
static void bench_progress_clear(void)
{
    if (bench_progress_state.shown)
        fputs("\r\033[K", stderr);
    bench_progress_state.shown = 0;
}

/* Passes the kitchen's notes (a very long emulator run ahead) to standard error at once. */
static void bench_note(const char *text)
{
    bench_progress_clear();
    fprintf(stderr, "cudachef: %s\n", text);
}

/* The parameters both sweeps share: backend, repeat, seed, progress. */
static demo_params bench_params(const bench_options *o, backend_kind who)
{
    demo_params p;
    memset(&p, 0, sizeof p);
    kitchen_params_default(&p.run);
    p.run.backend = who;
    if (o->repeat)
        p.run.repeat = o->repeat;
    p.run.seed = o->seed;
    p.run.seed_given = o->seed_given;
    if (!o->quiet) {
        p.run.note = bench_note;
        p.progress = bench_progress;
    }
    return p;
}

/* Runs the matrix-multiply sweep: the race with every rung of the ladder. */
static int bench_matmul(const bench_options *o, backend_kind who, int emulated, race_result **out, chef_error *err)
{
    demo_params p = bench_params(o, who);
    const char *const *ladder = recipe_ladder();
    for (int i = 0; ladder[i] && p.nrecipes < DEMO_MAX_RECIPES; i++)
        p.recipes[p.nrecipes++] = ladder[i];
    const int64_t *sizes = o->nsizes ? o->sizes : emulated ? bench_emu_sizes : bench_gpu_sizes;
    p.nsizes = o->nsizes ? o->nsizes
               : emulated ? (int)(sizeof bench_emu_sizes / sizeof bench_emu_sizes[0])
                          : (int)(sizeof bench_gpu_sizes / sizeof bench_gpu_sizes[0]);
    memcpy(p.sizes, sizes, (size_t)p.nsizes * sizeof p.sizes[0]);
    bench_progress_state.sweep = "matmul";
    int code = race_run(&p, out, err);
    if (code == CHEF_EXIT_ENVIRONMENT && !*out)
        snprintf(err->hint, sizeof err->hint, "%s", _("sweep smaller matrices (--sweep)"));
    return code;
}

/* Runs the shipments' sweep. */
static int bench_transfers(const bench_options *o, backend_kind who, transfers_result **out, chef_error *err)
{
    demo_params p = bench_params(o, who);
    bench_progress_state.sweep = "transfers";
    return transfers_run(&p, out, err);
}

/* The worse of two exit codes: an error over a wrong result over a pass. */
static int bench_worse(int a, int b)
{
    return a > b ? a : b;
}

/* --- the report --- */

/* Everything the report shows: who cooked and what the sweeps returned. */
typedef struct bench_report {
    const bench_options *o;
    backend_info info;
    int emulated;
    race_result *race;
    transfers_result *transfers;
    int code;
    chef_error err;            /* the first error (exit code > 1) */
} bench_report;

/* For people: who cooked, the race, the shipments, and the verdict. */
static void bench_text(FILE *out, const bench_report *b)
{
    char line[1024];
    if (b->emulated && b->info.no_gpu_reason[0])
        snprintf(line, sizeof line, _("cudachef bench: the CPU emulator cooked (no GPU here: %s)."),
                 b->info.no_gpu_reason);
    else if (b->emulated)
        snprintf(line, sizeof line, "%s", _("cudachef bench: the CPU emulator cooked, as asked (--backend emu)."));
    else
        snprintf(line, sizeof line, _("cudachef bench: cooked on %s."), b->info.name);
    demo_wrap(out, line, 0, 2, BENCH_TEXT_WIDTH);
    if (b->emulated && b->o->matmul && !b->o->nsizes)
        demo_wrap(out,
                  _("The matrices stay small (32, 64 and 128; --sweep changes them): an emulated kernel runs its "
                    "cooks on this CPU's few cores, thousands of times slower than a GPU would."),
                  0, 0, BENCH_TEXT_WIDTH);
    if (b->race) {
        fprintf(out, "\n== %s ==\n", _("Matrix multiply: the fair race over sizes"));
        race_text(out, b->race);
    }
    if (b->transfers) {
        fprintf(out, "\n== %s ==\n", _("Shipments: pageable and pinned, each way, and the device's own copy"));
        transfers_text(out, b->transfers);
    }
    fputc('\n', out);
    if (b->code == CHEF_EXIT_OK)
        fprintf(out, "%s\n", _("PASS: every result tasted right"));
    else if (b->code == CHEF_EXIT_WRONG)
        fprintf(out, "%s\n", _("FAIL: a result tasted wrong (marked WRONG above)"));
    else
        fprintf(out, "%s\n", _("The bench stopped early: the error is on standard error."));
}

/* For programs: one cudachef.bench/1 document. */
static json_t *bench_json(const bench_report *b)
{
    json_t *notes = json_array();
    if (b->emulated && b->o->matmul && !b->o->nsizes)
        json_array_append_new(notes, json_string("the CPU emulator cooked: the default matrix sweep stays at 32, 64 "
                                                 "and 128, as emulated kernels run thousands of times slower than "
                                                 "a GPU"));
    if (b->emulated && b->o->transfers)
        json_array_append_new(notes, json_string("the CPU emulator cooked: every copy is a memcpy on this CPU, "
                                                 "pinned memory is ordinary memory, and the sweep stops at 64 MiB"));
    json_t *doc = json_pack("{s:s, s:o, s:b, s:o, s:o, s:o}", "schema", BENCH_SCHEMA, "backend",
                            demo_backend_json(&b->info), "emulated", b->emulated, "notes", notes, "matmul",
                            b->race ? race_json(b->race) : json_null(), "transfers",
                            b->transfers ? transfers_json(b->transfers) : json_null());
    demo_status_json(doc, b->code, &b->err);
    return doc;
}

/* Writes a CSV number, or nothing when it was not measured. */
static void bench_csv_number(FILE *out, int measured, double v)
{
    if (measured)
        fprintf(out, "%.6g", v);
}

/* Writes a CSV field, quoted when it holds a comma, a quote or a line break. */
static void bench_csv_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* One CSV row: sweep, size, contender, kind, then the figures (docs/BENCHMARKS.md). */
static void bench_csv_row(FILE *out, const char *sweep, long long size, const char *contender, const char *kind,
                          const double figures[4], const int measured[4], int repeat, int passed)
{
    fprintf(out, "%s,%lld,", sweep, size);
    bench_csv_text(out, contender);
    fputc(',', out);
    bench_csv_text(out, kind);
    for (int i = 0; i < 4; i++) {
        fputc(',', out);
        bench_csv_number(out, measured[i], figures[i]);
    }
    fprintf(out, ",%d,%s\n", repeat, passed ? "true" : "false");
}

/* For spreadsheets: a header, then one row per measurement (what sat out a size has no row). */
static void bench_csv(FILE *out, const bench_report *b)
{
    fputs("sweep,size,contender,kind,cook_ms,total_ms,gflops,gbps,repeat,passed\n", out);
    const race_result *r = b->race;
    for (int s = 0; r && s < r->nsizes; s++)
        for (int c = 0; c < r->ncontenders; c++) {
            const race_entry *e = race_entry_at(r, s, c);
            if (!e->ran)
                continue;
            const double figures[4] = {e->cook_ms, e->total_ms, e->gflops, 0};
            const int measured[4] = {1, 1, 1, 0};
            bench_csv_row(out, "matmul", (long long)e->size, r->contenders[c].name,
                          race_kind_name(r->contenders[c].kind), figures, measured, e->repeat, e->passed);
        }
    const transfers_result *t = b->transfers;
    for (int s = 0; t && s < t->nsizes; s++)
        for (int k = 0; k < TRANSFERS_KINDS; k++) {
            const transfers_entry *e = &t->sizes[s].copies[k];
            if (!e->ran)
                continue;
            const double figures[4] = {e->ms, e->ms, 0, e->gbps};
            const int measured[4] = {1, 1, 0, 1};
            bench_csv_row(out, "transfers", (long long)t->sizes[s].bytes, transfers_memory_name((transfers_kind)k),
                          transfers_direction_name((transfers_kind)k), figures, measured, e->repeat,
                          t->sizes[s].passed);
        }
}

/* Writes the report in its format; 0, or -1 when the stream failed. */
static int bench_write(FILE *out, const bench_report *b)
{
    if (b->o->format == BENCH_JSON) {
        json_t *doc = bench_json(b);
        int rc = report_json_write(out, doc);
        json_decref(doc);
        return rc;
    }
    if (b->o->format == BENCH_CSV)
        bench_csv(out, b);
    else
        bench_text(out, b);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* Writes the report to f (file_write_whole's writer). */
static int bench_write_report(FILE *f, const void *ctx)
{
    return bench_write(f, ctx);
}

/* Writes the report to path whole or not at all, through file_write_whole (a temporary file renamed
   over a regular file; written in place over a device or a pipe; never following a planted link
   of its own). 0, or -1 after printing why. */
static int bench_write_file(const char *path, const bench_report *b)
{
    chef_error err;
    memset(&err, 0, sizeof err);
    if (file_write_whole(path, bench_write_report, b, &err) != 0) {
        chef_error_print(&err);
        return -1;
    }
    return 0;
}

/* `cudachef bench [options]`: parses, runs the sweeps, reports; returns the exit code. */
int cmd_bench(int argc, char **argv)
{
    bench_options o;
    int done = bench_parse(argc, argv, &o);
    if (done >= 0)
        return done;
    bench_report b = {.o = &o};
    backend *be = backend_open(o.backend, &b.err);
    if (!be) {
        chef_error_print(&b.err);
        return b.err.exit_code ? b.err.exit_code : CHEF_EXIT_ENVIRONMENT;
    }
    b.info = be->info;
    backend_close(be);
    b.emulated = b.info.kind == BACKEND_EMU;
    /* both sweeps cook where the backend just opened, so they cannot disagree about who cooks */
    backend_kind who = b.emulated ? BACKEND_EMU : BACKEND_GPU;
    bench_progress_state.terminal = isatty(STDERR_FILENO);
    chef_error matmul_err = {0}, transfers_err = {0};
    int matmul_code = o.matmul ? bench_matmul(&o, who, b.emulated, &b.race, &matmul_err) : CHEF_EXIT_OK;
    int transfers_code = o.transfers ? bench_transfers(&o, who, &b.transfers, &transfers_err) : CHEF_EXIT_OK;
    bench_progress_clear();
    b.code = bench_worse(matmul_code, transfers_code);
    b.err = matmul_code > CHEF_EXIT_WRONG ? matmul_err : transfers_err;
    if (b.race || b.transfers) {
        int rc = o.output ? bench_write_file(o.output, &b) : bench_write(stdout, &b);
        if (rc != 0 && b.code <= CHEF_EXIT_WRONG)
            b.code = CHEF_EXIT_ENVIRONMENT;
        else if (rc == 0 && o.output && !o.quiet)
            fprintf(stderr, _("bench: the report is in %s\n"), o.output);
    }
    /* every outcome other than passed or wrong also gets its lines on stderr */
    if (matmul_code > CHEF_EXIT_WRONG)
        chef_error_print(&matmul_err);
    if (transfers_code > CHEF_EXIT_WRONG)
        chef_error_print(&transfers_err);
    race_free(b.race);
    transfers_free(b.transfers);
    return b.code;
}
