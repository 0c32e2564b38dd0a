/*
 * cmd_try.c - `cudachef try FILE.cu`: runs a learner's own kernel through the five steps, with the
 * same report as `cudachef run`.
 *
 * The convention (docs/TRY.md): the file includes "kernel.h" and defines a __global__ kernel named
 * and shaped like one of the recipes' kernels (vector_add(const float *a, const float *b, float *c,
 * int n), saxpy, matmul_naive, ...: `cudachef list` shows the recipes). cudachef finds the kernel's
 * name in the file, picks the recipe whose kernel has that name (or --recipe), and cooks the
 * recipe with the learner's kernel in its place: the recipe's inputs, launch, CPU reference and
 * taste. It is built and run like an exercise: on its own, in a child under limits.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/cancel.h"
#include "grading/sandbox.h"
#include "grading/exercise_check.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"
#include "ui/tui.h"
#include "base/parse.h"

static const char try_usage[] =
    "usage: cudachef try FILE.cu [options]\n"
    "\n"
    "Cooks your own kernel through the five steps, with the same report as cudachef run. FILE.cu\n"
    "includes \"kernel.h\" and defines a __global__ kernel named and shaped like a recipe's kernel\n"
    "(for example vector_add(const float *a, const float *b, float *c, int n)); that recipe's inputs,\n"
    "launch and taste are used. docs/TRY.md has the kernels you can write.\n"
    "\n"
    "  --recipe NAME            the recipe to cook with (default: the one whose kernel has your name)\n"
    "  --n N                    elements, or matrix side (default: the recipe's)\n"
    "  --threads-per-block B    cooks per team (default: the recipe's)\n"
    "  --blocks G               teams in the grid (default: enough to cover n)\n"
    "  --backend auto|gpu|emu   who cooks (default auto)\n"
    "  --seed S                 seed of the random inputs\n"
    "  --timeout S              seconds it may run (default 60)\n"
    "  --sandbox bwrap|none     build and run it in a bubblewrap sandbox (default where bubblewrap\n"
    "                           works, else a warning; bwrap insists), or without one\n"
    "  --format text|json       the report, as for cudachef run\n"
    "  --model DEVICE           the GPU the emulator's counts are modeled on (default h200)\n"
    "  --kitchen                on a terminal: then show the run in the full-screen kitchen\n"
    "\n"
    "Exit codes: as cudachef run (0 the taste passed, 1 wrong, 2 usage, 3 it did not compile,\n"
    "4 it crashed, broke a rule or did not finish, 5 the machine cannot cook it).\n";

/* `--kitchen`: loads the learner's kernel (already built, and already run safely in a child) into
   this process and opens the full-screen kitchen on it; returns the interface's exit code. */
static int try_kitchen(const exercise *ex, const char *file, const exercise_options *opt, const recipe *rc)
{
    backend_info info;
    memset(&info, 0, sizeof info);
    int gpu = opt->backend != BACKEND_EMU && backend_gpu_probe(&info) == 0;
    char module[4600], *log = NULL, kernel[200];
    int cached = 0;
    chef_error err = {0};
    if (exercise_build(ex, file, gpu, &info, module, sizeof module, &log, &cached, NULL, &err) != 0 ||
        exercise_module_load(module, gpu, ex->kernel, rc->name, &err) != 0) {
        free(log);
        chef_error_print(&err);
        return err.exit_code ? err.exit_code : CHEF_EXIT_ENVIRONMENT;
    }
    free(log);
    static lesson_demo demo;
    static char title_en[300], title_ko[300];
    memset(&demo, 0, sizeof demo);
    snprintf(title_en, sizeof title_en, "your %s (%s)", ex->kernel, file);
    snprintf(title_ko, sizeof title_ko, "내 %s (%s)", ex->kernel, file);
    demo.name = "try";
    demo.title[I18N_EN] = title_en;
    demo.title[I18N_KO] = title_ko;
    demo.kind = DEMO_RUN;
    demo.recipe = (char *)rc->name;
    demo.n = ex->sizes[0];
    demo.threads_per_block = ex->threads_per_block;
    demo.blocks = ex->blocks;
    demo.seed = opt->seed ? (int64_t)opt->seed : -1;
    demo.expect = EXPECT_PASS;
    snprintf(kernel, sizeof kernel, "exercise:%s", ex->kernel);
    char *argv[] = {"cudachef", NULL};
    tui_options o = {.argc = 1, .argv = argv, .kitchen_demo = &demo, .kitchen_kernel = kernel};
    return tui_main(&o);
}

/* `cudachef try FILE.cu`. */
int cmd_try(int argc, char **argv)
{
    static const struct option opts[] = {{"recipe", required_argument, 0, 'r'},
                                         {"n", required_argument, 0, 'n'},
                                         {"threads-per-block", required_argument, 0, 't'},
                                         {"blocks", required_argument, 0, 'g'},
                                         {"backend", required_argument, 0, 'b'},
                                         {"seed", required_argument, 0, 's'},
                                         {"timeout", required_argument, 0, 'T'},
                                         {"format", required_argument, 0, 'f'},
                                         {"model", required_argument, 0, 'M'},
                                         {"kitchen", no_argument, 0, 'k'},
                                         {"sandbox", required_argument, 0, 'X'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    const char *recipe_name = NULL;
    int64_t n = 0, tpb = 0, blocks = 0, seed = 0, timeout = 60;
    exercise_options opt = {.backend = BACKEND_AUTO};
    sandbox_set_policy(sandbox_default(SANDBOX_PREFER)); /* self-study: a warning without bubblewrap */
    cli_format format = CLI_FORMAT_TEXT;
    chef_error err = {0};
    int c, kitchen = 0;
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("try", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        int bad = 0;
        switch (c) {
        case 'r':
            recipe_name = optarg;
            break;
        case 'n':
            bad = parse_int64("--n", optarg, 1, (int64_t)1 << 31, &n, &err);
            break;
        case 't':
            bad = parse_int64("--threads-per-block", optarg, 1, 4096, &tpb, &err);
            break;
        case 'g':
            bad = parse_int64("--blocks", optarg, 1, (int64_t)1 << 31, &blocks, &err);
            break;
        case 's':
            bad = parse_int64("--seed", optarg, 1, INT64_MAX, &seed, &err);
            break;
        case 'T':
            bad = parse_int64("--timeout", optarg, 1, 3600, &timeout, &err);
            break;
        case 'X':
            if (cli_sandbox_option("try", optarg) != 0)
                return CHEF_EXIT_USAGE;
            break;
        case 'b':
            if (strcmp(optarg, "auto") && strcmp(optarg, "gpu") && strcmp(optarg, "emu"))
                return cli_usage_error("try", "--backend is auto, gpu or emu, not '%s'", optarg);
            opt.backend = optarg[0] == 'g' ? BACKEND_GPU : optarg[0] == 'e' ? BACKEND_EMU : BACKEND_AUTO;
            break;
        case 'f':
            bad = cli_parse_format(optarg, &format, &err);
            break;
        case 'M': {
            int wrong = cli_check_model("try", optarg);
            if (wrong)
                return wrong;
            opt.model = optarg;
            break;
        }
        case 'k':
            kitchen = 1;
            break;
        default:
            return cli_common_option(c, "try", try_usage, argv);
        }
        if (bad)
            return cli_usage_error("try", "%s", err.message);
    }
    if (argc - optind != 1)
        return cli_usage_error("try", "give one .cu file with your kernel");
    if (kitchen && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || format == CLI_FORMAT_JSON))
        return cli_usage_error("try", "--kitchen needs a terminal and the text format");
    const char *file = argv[optind];
    char *text = lesson_read_file(file, NULL);
    if (!text)
        return cli_usage_error("try", "cannot read %s", file);
    char kernel[128];
    int found = exercise_kernel_name(text, NULL, kernel, sizeof kernel);
    free(text);
    if (found != 0)
        return cli_usage_error("try", "%s has no __global__ kernel", file);
    const recipe *rc = recipe_name ? recipe_find(recipe_name) : NULL;
    for (const recipe *const *all = recipe_all(); !recipe_name && *all && !rc; all++)
        if (!(*all)->library && strcmp((*all)->kernel, kernel) == 0)
            rc = *all;
    if (!rc)
        return recipe_name ? cli_usage_error("try", "no recipe '%s' (cudachef list shows them)", recipe_name)
                           : cli_usage_error("try", "no recipe has a kernel called %s: name it like a recipe's kernel "
                                                    "(docs/TRY.md), or give --recipe", kernel);
    exercise ex;
    memset(&ex, 0, sizeof ex);
    char name[160];
    snprintf(name, sizeof name, "try-%s", kernel);
    ex.name = name;
    ex.lesson_id = "try";
    ex.recipe = (char *)rc->name;
    ex.kernel = kernel;
    ex.sizes[0] = n;
    ex.nsizes = 1;
    ex.threads_per_block = (int)tpb;
    ex.blocks = blocks;
    ex.timeout_s = (double)timeout;
    ex.rtol = ex.atol = -1;
    opt.seed = (uint64_t)seed;
    exercise_result res;
    char *report = NULL;
    int code = 0;
    static chef_cancel stop; /* Ctrl-C, SIGTERM, SIGHUP: the run ends with its sandbox, and try says so */
    cancel_init(&stop);
    opt.cancel = &stop;
    cli_stop_on_signals(&stop);
    if (exercise_try(&ex, file, &opt, format == CLI_FORMAT_JSON ? "json" : "text", &res, &report, &code, &err) != 0) {
        if (cli_stopped_by()) {
            exercise_result_free(&res);
            return cli_stopped("try");
        }
        exercise_result_free(&res);
        chef_error_print(&err);
        return err.exit_code;
    }
    if (res.output && res.output[0]) { /* what the kernel printed, before the report */
        fputs(res.output, stderr);
        if (res.output[strlen(res.output) - 1] != '\n')
            fputc('\n', stderr); /* cut short by the limit: the message still starts a line */
    }
    if (res.status == EXERCISE_PASSED && kitchen) {
        /* it ran to the end in the child: now cook it again here, in the full-screen kitchen */
        code = try_kitchen(&ex, file, &opt, rc);
    } else if (res.status == EXERCISE_PASSED) {
        fputs(report ? report : "", stdout);
    } else {
        fprintf(stderr, "cudachef: %s\n", res.summary);
        if (res.explanation[0])
            fprintf(stderr, _("  hint: %s\n"), res.explanation);
        if (res.status == EXERCISE_BUILD && res.build_log)
            fputs(res.build_log, stderr);
    }
    free(report);
    exercise_result_free(&res);
    return code;
}
