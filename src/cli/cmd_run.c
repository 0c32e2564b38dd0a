/*
 * cmd_run.c - `cudachef run RECIPE`: CUDA's five steps, for real, with every figure reported.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/i18n.h"
#include "engine/kitchen.h"
#include "lessons/lesson.h"
#include "lessons/lesson_run.h"
#include "lessons/progress.h"
#include "engine/recipes.h"
#include "engine/report.h"
#include "base/parse.h"
#include "base/file.h"

static const char run_usage[] =
    "usage: cudachef run RECIPE [options]\n"
    "       cudachef run LESSON [--demo NAME] [options]\n"
    "\n"
    "Runs CUDA's five steps: prepare on the host, ship to the device, cook (launch the kernel),\n"
    "ship back, taste (check against the CPU). `cudachef list` shows the recipes and the lessons.\n"
    "With a lesson (its number or name), runs its demos, or the one --demo names; the options\n"
    "below change the demo's parameters.\n"
    "\n"
    "  --demo NAME              run only this demo of the lesson\n"
    "  --sizes \"N N ...\"        race demos: the matrix sides to sweep, e.g. --sizes \"64 256 1024\"\n"
    "  --steps S                trips and streams demos: how many kernels the chain runs\n"
    "  --lang en|ko             language of the text (default from LANG)\n"
    "  --n N                    elements (vector recipes) or matrix side (matmul); 2^K accepted\n"
    "  --threads-per-block B    cooks per team (default 256)\n"
    "  --blocks G               teams in the grid (default: enough to cover n)\n"
    "  --backend auto|gpu|emu   who cooks (default auto: the GPU when one works)\n"
    "  --pinned                 page-locked host memory for faster shipping (GPU)\n"
    "  --seed S                 seed of the random inputs (small vectors without it: 1, 2, 3, ...)\n"
    "  --repeat R               timed launches (for trips: timed runs of each way) after the warm-up;\n"
    "                           the median is reported (default 5)\n"
    "  --workers W              emulator worker threads (default: one per core)\n"
    "  --model DEVICE           the GPU the emulator's counts are modeled on: a file of\n"
    "                           assets/devices/ (default h200)\n"
    "  --format text|json       report for people or for programs (docs/run-report.md)\n"
    "  --trace FILE             write the launch's trace (which station cooked which team) as JSON\n"
    "\n"
    "Exit codes: 0 the taste passed (for a lesson: every demo showed what it is meant to show),\n"
    "1 wrong results, 2 usage error or a broken lesson file, 4 the kernel crashed or broke a rule\n"
    "(out-of-bounds access, barrier not reached by every cook), 5 no GPU or not enough memory.\n"
    "Lessons are read from $CUDACHEF_LESSONS, else from lessons/ next to the program.\n";

/* Writes a JSON document to f (file_write_whole's writer). */
static int run_write_json(FILE *f, const void *doc)
{
    return report_json_write(f, (json_t *)doc);
}

/* Writes the trace as JSON to path ("-": standard output), whole or not at all (file_write_whole):
   0, or -1. */
static int run_write_trace(const kitchen_report *r, const char *path)
{
    json_t *j = report_trace_json(r);
    chef_error ignored = {0}; /* the caller says what could not be written */
    int rc = strcmp(path, "-") == 0 ? report_json_write(stdout, j) : file_write_whole(path, run_write_json, j, &ignored);
    json_decref(j);
    return rc;
}

/* Passes the kitchen's notes (a very long emulator run ahead) to stderr at once. */
static void run_note(const char *text)
{
    fprintf(stderr, "cudachef: %s\n", text);
}

/* Runs a lesson's demos (all, or the one named) and reports them; returns the exit code. */
static int run_lesson(const char *name, const char *demo_name, const demo_overrides *o, cli_format format)
{
    lesson_set set;
    chef_error err = {0};
    if (lesson_load_all(lesson_default_dir(), lesson_kernels_dir(), &set, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    const lesson *l = lesson_find(&set, name);
    if (!l) {
        /* a lesson that did not load says why */
        if (lesson_report_broken(&set, name, "run") != 0) {
            lesson_set_free(&set);
            return CHEF_EXIT_USAGE;
        }
        lesson_set_free(&set);
        return cli_usage_error("run", "no recipe or lesson called '%s' (`cudachef list` shows them)", name);
    }
    const lesson_demo *only = NULL;
    if (demo_name && !(only = lesson_demo_find(l, demo_name))) {
        char names[512] = "";
        for (int i = 0; i < l->ndemos; i++) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", l->demos[i].name);
        }
        int code = cli_usage_error("run", "lesson %d has no demo '%s' (its demos: %s)", l->number, demo_name, names);
        lesson_set_free(&set);
        return code;
    }
    /* --sizes and --steps change only demos of their kind: one must be among those that run */
    int races = 0, trips = 0;
    for (int i = 0; i < l->ndemos; i++)
        if (!only || only == &l->demos[i]) {
            races += l->demos[i].kind == DEMO_RACE;
            trips += l->demos[i].kind == DEMO_TRIPS || l->demos[i].kind == DEMO_STREAMS;
        }
    if ((o->nsizes && !races) || (o->steps && !trips)) {
        int code = cli_usage_error("run", "%s changes a %s demo, and %s has none to run",
                                   o->nsizes && !races ? "--sizes" : "--steps", o->nsizes && !races ? "race" : "trips or streams",
                                   only ? only->name : l->id);
        lesson_set_free(&set);
        return code;
    }
    demo_sink sink = {format == CLI_FORMAT_TEXT ? stdout : NULL, format == CLI_FORMAT_JSON ? json_array() : NULL};
    int code = 0;
    for (int i = 0; i < l->ndemos; i++) {
        if (only && only != &l->demos[i])
            continue;
        chef_error why = {0};
        int rc = lesson_run_demo_why(l, &l->demos[i], o, &sink, &why);
        if (rc != 0 && code == 0)
            code = rc;
        if (rc > CHEF_EXIT_WRONG && why.message[0]) /* the one line, as `run RECIPE` gives it, in either format */
            chef_error_print(&why);
        /* a demo that showed what it is meant to show counts as run (docs/PROGRESS.md) */
        chef_error perr = {0};
        if (rc == 0 && progress_mark("demo", l->slug, l->demos[i].name, &perr) != 0)
            cli_progress_not_saved(&perr);
    }
    if (sink.json) {
        i18n_lang lang = i18n_current();
        json_t *doc = json_pack("{s:s, s:{s:s, s:i, s:s}, s:s, s:o, s:b}", "schema", LESSON_RUN_SCHEMA, "lesson", "id",
                                l->id, "number", l->number, "title", l->title[lang], "lang", i18n_code(lang),
                                "demos", sink.json, "as_expected", code == 0);
        report_json_write(stdout, doc);
        json_decref(doc);
    }
    lesson_set_free(&set);
    return code;
}

/* `cudachef run RECIPE [options]`: parses, runs the kitchen, reports; returns the exit code. */
int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {{"n", required_argument, 0, 'n'},
                                         {"threads-per-block", required_argument, 0, 't'},
                                         {"blocks", required_argument, 0, 'g'},
                                         {"backend", required_argument, 0, 'b'},
                                         {"pinned", no_argument, 0, 'p'},
                                         {"seed", required_argument, 0, 's'},
                                         {"repeat", required_argument, 0, 'r'},
                                         {"workers", required_argument, 0, 'w'},
                                         {"model", required_argument, 0, 'M'},
                                         {"format", required_argument, 0, 'f'},
                                         {"trace", required_argument, 0, 'T'},
                                         {"demo", required_argument, 0, 'D'},
                                         {"sizes", required_argument, 0, 'S'},
                                         {"steps", required_argument, 0, 'P'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    kitchen_params p;
    kitchen_params_default(&p);
    cli_format format = CLI_FORMAT_TEXT;
    const char *trace_path = NULL, *demo_name = NULL;
    int64_t sizes[DEMO_MAX_SIZES];
    int nsizes = 0, steps = 0;
    chef_error err = {0};
    uint64_t seen = 0; /* the options given so far (cli_once) */
    int64_t v;
    int c, index = -1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, &index)) != -1) {
        if (cli_once("run", opts, c, &seen) != 0)
            return CHEF_EXIT_USAGE;
        index = -1;
        switch (c) {
        case 'n':
            if (parse_int64("--n", optarg, 1, INT_MAX, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            p.n = v;
            break;
        case 't':
            if (parse_int64("--threads-per-block", optarg, 1, 1024, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            p.threads_per_block = (int)v;
            break;
        case 'g':
            if (parse_int64("--blocks", optarg, 1, 2147483647, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            p.blocks = v;
            break;
        case 'b':
            if (backend_kind_parse(optarg, &p.backend) != 0)
                return cli_usage_error("run", "unknown backend '%s' (use auto, gpu or emu)", optarg);
            break;
        case 'p':
            p.pinned = 1;
            break;
        case 's':
            if (parse_int64("--seed", optarg, 0, INT64_MAX, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            p.seed = (uint64_t)v;
            p.seed_given = 1;
            break;
        case 'r':
            if (parse_int64("--repeat", optarg, 1, KITCHEN_MAX_REPEAT, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            p.repeat = (int)v;
            break;
        case 'w':
            if (parse_int64("--workers", optarg, 1, 256, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            p.workers = (int)v;
            break;
        case 'M': {
            int bad = cli_check_model("run", optarg);
            if (bad)
                return bad;
            p.model = optarg;
            break;
        }
        case 'f':
            if (cli_parse_format(optarg, &format, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            break;
        case 'D':
            demo_name = optarg;
            break;
        case 'S': {
            char buf[1024];
            snprintf(buf, sizeof buf, "%s", optarg);
            for (char *save = NULL, *w = strtok_r(buf, " ,", &save); w; w = strtok_r(NULL, " ,", &save)) {
                if (nsizes >= DEMO_MAX_SIZES)
                    return cli_usage_error("run", "--sizes takes at most %d sizes", DEMO_MAX_SIZES);
                if (parse_int64("--sizes", w, 1, 46340, &v, &err) != 0)
                    return cli_usage_error("run", "%s", err.message);
                sizes[nsizes++] = v;
            }
            if (nsizes == 0)
                return cli_usage_error("run", "--sizes needs matrix sides, e.g. --sizes \"64 256 1024\"");
            break;
        }
        case 'P':
            if (parse_int64("--steps", optarg, 1, 1000, &v, &err) != 0)
                return cli_usage_error("run", "%s", err.message);
            steps = (int)v;
            break;
        case 'T':
            if (!*optarg)
                return cli_usage_error("run", "--trace needs a file name");
            trace_path = optarg;
            break;
        default:
            return cli_common_option(c, "run", run_usage, argv);
        }
    }
    if (optind >= argc)
        return cli_usage_error("run", "which recipe or lesson? for example: cudachef run vector-add, or cudachef run 2");
    if (optind + 1 < argc && strcmp(argv[optind], "--") != 0 && optind > 1 && strcmp(argv[optind - 1], "--") == 0)
        return cli_usage_error("run", "nothing after '--' is read as an option: put '%s' before it", argv[optind + 1]);
    if (optind + 1 < argc)
        return cli_usage_error("run", "unexpected argument '%s' (options start with --)", argv[optind + 1]);
    p.recipe = argv[optind];
    if (!recipe_find(p.recipe)) {
        if (trace_path)
            return cli_usage_error("run", "--trace works with a recipe, not a lesson");
        demo_overrides o = {.p = p,
                            .n = cli_given(opts, 'n', seen),
                            .threads_per_block = cli_given(opts, 't', seen),
                            .blocks = cli_given(opts, 'g', seen),
                            .pinned = cli_given(opts, 'p', seen),
                            .seed = cli_given(opts, 's', seen),
                            .repeat = cli_given(opts, 'r', seen),
                            .workers = cli_given(opts, 'w', seen),
                            .backend = cli_given(opts, 'b', seen)};
        o.p.note = run_note;
        memcpy(o.sizes, sizes, sizeof sizes);
        o.nsizes = nsizes;
        o.steps = steps;
        return run_lesson(p.recipe, demo_name, &o, format);
    }
    if (demo_name || nsizes || steps)
        return cli_usage_error("run", "--%s goes with a lesson's demo; '%s' is a recipe",
                               demo_name ? "demo" : nsizes ? "sizes" : "steps", p.recipe);
    if (trace_path && strcmp(trace_path, "-") == 0 && format == CLI_FORMAT_JSON)
        return cli_usage_error("run", "--trace - and --format json both write to standard output; give --trace a file");

    kitchen_report *r = malloc(sizeof *r);
    if (!r) {
        fprintf(stderr, "cudachef run: out of memory\n");
        return CHEF_EXIT_ENVIRONMENT;
    }
    p.note = run_note;
    int code = kitchen_run(&p, r);
    int trace_to_stdout = trace_path && strcmp(trace_path, "-") == 0;
    /* a trace file first, so that the report can say if it could not be written */
    if (trace_path && !trace_to_stdout && r->ran && run_write_trace(r, trace_path) != 0) {
        chef_fail(&r->error, CHEF_EXIT_ENVIRONMENT, "check the folder exists and is writable",
                  "could not write the trace to %s", trace_path);
        code = r->exit_code = CHEF_EXIT_ENVIRONMENT;
    }
    if (!r->started) {
        /* stopped before anything ran: a one-line error, nothing else */
        if (format == CLI_FORMAT_JSON) {
            json_t *j = report_run_json(r);
            report_json_write(stdout, j);
            json_decref(j);
        }
    } else if (format == CLI_FORMAT_JSON) {
        json_t *j = report_run_json(r);
        report_json_write(stdout, j);
        json_decref(j);
    } else {
        report_run_text(stdout, r);
    }
    /* every outcome other than passed or wrong also gets its one line on stderr */
    if (code > CHEF_EXIT_WRONG)
        chef_error_print(&r->error);
    if (trace_to_stdout && r->ran && run_write_trace(r, trace_path) != 0 && code <= CHEF_EXIT_WRONG)
        code = CHEF_EXIT_ENVIRONMENT; /* main() says standard output could not be written */
    kitchen_report_free(r);
    free(r);
    return code;
}
