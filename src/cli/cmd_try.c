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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/cancel.h"
#include "grading/sandbox.h"
#include "grading/exercise_check.h"
#include "grading/program.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"
#include "ui/tui.h"
#include "base/parse.h"
#include "base/i18n.h"

static const char try_usage[] =
    "usage: cudachef try FILE.cu [options]\n"
    "       cudachef try PROGRAM.cu [MORE.cu MORE.cpp ...] [-I DIR]... [options] [-- ARGS...]\n"
    "\n"
    "A whole program (files that define main): cudachef builds it for its CPU emulator (or for the\n"
    "GPU) and runs it with your arguments, input and output; its first launch at each launch site is\n"
    "checked (a cook outside its buffer, a barrier some cooks miss, device memory never freed).\n"
    "Exit codes: 0 it exited 0 and broke no rule, 1 it exited with another status, 3 it did not\n"
    "compile, 4 it broke a rule, crashed or ran out of time, 5 the machine cannot run it.\n"
    "\n"
    "A kernel alone:\n"
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
    "  --kitchen                on a terminal: then show the run in the full-screen kitchen (a program:\n"
    "                           its journey, shipments and launches, on the emulator)\n"
    "  -I DIR                   (a program) a folder its headers are in, besides its own\n"
    "  -x cu                    (a program) its .cpp files are CUDA too, as nvcc -x cu compiles them\n"
    "  --check-launch KERNEL:K  (a program) KERNEL's K-th launch is the checked one, not its first\n"
    "\n"
    "Exit codes: as cudachef run (0 the taste passed, 1 wrong, 2 usage, 3 it did not compile,\n"
    "4 it crashed, broke a rule or did not finish, 5 the machine cannot cook it).\n";

/* What the full-screen kitchen of `try --kitchen` cooks: the learner's built module and the
   recipe's launch. */
typedef struct try_show {
    const char *module, *kernel, *recipe, *file;
    int gpu;
    int64_t n, blocks, seed;
    int threads_per_block;
} try_show;

/* Loads the learner's module into this process and opens the full-screen kitchen on it: the
   interface's exit code. In a sandbox (`cudachef __kitchen`), or here where there is none. */
static int try_kitchen_show(const try_show *w)
{
    chef_error err = {0};
    if (exercise_module_load(w->module, w->gpu, w->kernel, w->recipe, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code ? err.exit_code : CHEF_EXIT_ENVIRONMENT;
    }
    static lesson_demo demo;
    static char title_en[300], title_ko[300], kernel[200];
    memset(&demo, 0, sizeof demo);
    snprintf(title_en, sizeof title_en, "your %s (%s)", w->kernel, w->file);
    snprintf(title_ko, sizeof title_ko, "내 %s (%s)", w->kernel, w->file);
    demo.name = "try";
    demo.title[I18N_EN] = title_en;
    demo.title[I18N_KO] = title_ko;
    demo.kind = DEMO_RUN;
    demo.recipe = (char *)w->recipe;
    demo.n = w->n;
    demo.threads_per_block = w->threads_per_block;
    demo.blocks = w->blocks;
    demo.seed = w->seed;
    demo.expect = EXPECT_PASS;
    snprintf(kernel, sizeof kernel, "exercise:%s", w->kernel);
    char *argv[] = {"cudachef", NULL};
    tui_options o = {.argc = 1, .argv = argv, .kitchen_demo = &demo, .kitchen_kernel = kernel};
    return tui_main(&o);
}

/* `cudachef __kitchen MODULE GPU KERNEL RECIPE FILE N THREADS BLOCKS SEED` (hidden): the kitchen of
   `try --kitchen`, run by try inside the sandbox with the terminal. */
int cmd_try_kitchen_box(int argc, char **argv)
{
    if (argc != 10) {
        fprintf(stderr, "__kitchen: run by cudachef try --kitchen only\n");
        return CHEF_EXIT_USAGE;
    }
    try_show w = {.module = argv[1], .gpu = strcmp(argv[2], "1") == 0, .kernel = argv[3], .recipe = argv[4],
                  .file = argv[5], .n = strtoll(argv[6], NULL, 10), .threads_per_block = atoi(argv[7]),
                  .blocks = strtoll(argv[8], NULL, 10), .seed = strtoll(argv[9], NULL, 10)};
    return try_kitchen_show(&w);
}

/* Runs argv (the boxed kitchen) with this terminal and waits; a box that ended by a signal leaves
   the terminal as it was before (modes, screen, mouse, cursor). Its exit code. */
static int try_kitchen_spawn(const sandbox_cmd *boxed)
{
    struct termios saved;
    int have_tty = tcgetattr(STDIN_FILENO, &saved) == 0;
    struct sigaction ignore, old_int, old_quit;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN; /* Ctrl-C belongs to the interface in the box, as under system() */
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        sandbox_cgroup_enter(boxed);
        if (boxed->seccomp && boxed->seccomp_fd == SANDBOX_SECCOMP_FD) /* dup2 onto itself keeps close-on-exec */
            fcntl(SANDBOX_SECCOMP_FD, F_SETFD, 0);
        else if (boxed->seccomp && dup2(boxed->seccomp_fd, SANDBOX_SECCOMP_FD) < 0)
            _exit(127);
        syscall(SYS_close_range, 3, SANDBOX_SECCOMP_FD - 1, 0); /* nothing of cudachef's but the terminal */
        syscall(SYS_close_range, SANDBOX_SECCOMP_FD + (boxed->seccomp ? 1 : 0), ~0U, 0);
        execv(boxed->argv[0], boxed->argv);
        _exit(127);
    }
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (pid < 0) {
        fprintf(stderr, _("cudachef: cannot start the sandbox: %s\n"), strerror(errno));
        return CHEF_EXIT_ENVIRONMENT;
    }
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : CHEF_EXIT_CRASH;
    if (!WIFEXITED(st) || code > 128) { /* killed: the interface could not put the terminal back */
        if (have_tty)
            tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        fputs("\033[?1000l\033[?1002l\033[?1006l\033[?25h\033[?1049l", stdout);
        fflush(stdout);
        fprintf(stderr, "%s", _("cudachef: the kitchen ended by a signal\n"));
        code = CHEF_EXIT_CRASH;
    }
    return code;
}

/* `--kitchen`: builds the learner's kernel (already built, and already run safely in a child) and
   opens the full-screen kitchen on it, in a sandbox that holds the terminal (the interface and the
   learner's code together: nothing of the learner's runs in this process), or here where there is
   no sandbox (try's policy warned already); returns the interface's exit code. */
static int try_kitchen(const exercise *ex, const char *file, const exercise_options *opt, const recipe *rc)
{
    backend_info info;
    memset(&info, 0, sizeof info);
    int gpu = opt->backend != BACKEND_EMU && backend_gpu_probe(&info) == 0;
    char module[4600], *log = NULL;
    int cached = 0;
    chef_error err = {0};
    if (exercise_build(ex, file, gpu, &info, module, sizeof module, &log, &cached, NULL, &err) != 0) {
        free(log);
        chef_error_print(&err);
        return err.exit_code ? err.exit_code : CHEF_EXIT_ENVIRONMENT;
    }
    free(log);
    try_show w = {.module = module, .gpu = gpu, .kernel = ex->kernel, .recipe = rc->name, .file = file,
                  .n = ex->sizes[0], .threads_per_block = ex->threads_per_block, .blocks = ex->blocks,
                  .seed = opt->seed ? (int64_t)opt->seed : -1};
    int boxed = sandbox_decide(&err);
    if (boxed < 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    if (!boxed)
        return try_kitchen_show(&w);
    char entry[4600], lessons[PATH_MAX + 16], kernels[PATH_MAX + 16], nt[32], tp[32], bl[32], sd[32];
    snprintf(entry, sizeof entry, "%s", module);
    if (strrchr(entry, '/'))
        *strrchr(entry, '/') = '\0';
    snprintf(lessons, sizeof lessons, "%s", lesson_default_dir());
    snprintf(kernels, sizeof kernels, "%s", lesson_kernels_dir());
    snprintf(nt, sizeof nt, "%lld", (long long)w.n);
    snprintf(tp, sizeof tp, "%d", w.threads_per_block);
    snprintf(bl, sizeof bl, "%lld", (long long)w.blocks);
    snprintf(sd, sizeof sd, "%lld", (long long)w.seed);
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return CHEF_EXIT_ENVIRONMENT;
    self[len] = '\0';
    char *argv[] = {self, "__kitchen", module, gpu ? "1" : "0", (char *)ex->kernel, (char *)rc->name,
                    (char *)file, nt, tp, bl, sd, "--lang", (char *)i18n_code(i18n_current()), NULL};
    sandbox_spec box = {.ro = {entry, lessons, kernels}, .nro = 3, .gpu = gpu, .max_procs = 64, .terminal = 1};
    sandbox_cmd cmd;
    if (sandbox_wrap(&box, argv, &cmd, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    sandbox_cgroup_open(&cmd, box.max_procs, 0);
    int code = try_kitchen_spawn(&cmd);
    sandbox_cmd_free(&cmd);
    return code;
}


/* `cudachef try PROGRAM.cu ... [-- ARGS]`: builds and runs a whole program; try's exit code. */
static int try_program(program_spec *prog, cli_format format, int kitchen)
{
    static chef_cancel stop; /* Ctrl-C, SIGTERM, SIGHUP: the run ends with its sandbox, and try says so */
    cancel_init(&stop);
    prog->cancel = &stop;
    cli_stop_on_signals(&stop);
    program_result res;
    chef_error err = {0};
    if (program_try(prog, &res, &err) != 0) {
        program_result_free(&res);
        if (cli_stopped_by())
            return cli_stopped("try");
        chef_error_print(&err);
        return err.exit_code ? err.exit_code : CHEF_EXIT_ENVIRONMENT;
    }
    fflush(stdout);
    const char *name = strrchr(prog->files[0], '/') ? strrchr(prog->files[0], '/') + 1 : prog->files[0];
    if (format == CLI_FORMAT_JSON && res.status == PROGRAM_RAN) { /* the report alone on stdout */
        json_t *rep = program_report_json(&res, name);
        json_object_set_new(rep, "output", json_string(res.output ? res.output : ""));
        char *text = json_dumps(rep, JSON_INDENT(2));
        json_decref(rep);
        if (text)
            puts(text);
        free(text);
    } else if (res.status == PROGRAM_RAN && !res.gpu) {
        program_report_text(&res, name, stderr);
    }
    if (res.status == PROGRAM_RAN && res.outdir[0])
        fprintf(stderr, _("cudachef: the program ran in %s (what it wrote is there)\n"), res.outdir);
    int code = CHEF_EXIT_OK;
    switch (res.status) {
    case PROGRAM_BUILD:
        if (res.build_log)
            fputs(res.build_log, stderr);
        fprintf(stderr, "%s", _("cudachef: the program did not compile (the compiler's words are above)\n"));
        code = CHEF_EXIT_BUILD;
        break;
    case PROGRAM_UNSUPPORTED:
        if (res.message[0] && (format == CLI_FORMAT_JSON || !res.output)) /* else the runner said it, above */
            fprintf(stderr, "cudachef: %s\n", res.message);
        code = CHEF_EXIT_ENVIRONMENT;
        break;
    case PROGRAM_CRASHED:
    case PROGRAM_TIMED_OUT:
        fprintf(stderr, "cudachef: %s\n", res.message);
        code = CHEF_EXIT_CRASH;
        break;
    case PROGRAM_RAN:
        if (res.kernel_faulted) {
            fprintf(stderr, "%s", _("cudachef: a kernel broke a rule (above); on a GPU this is undefined behaviour\n"));
            code = CHEF_EXIT_CRASH;
        } else if (res.exit_status != 0) {
            fprintf(stderr, _("cudachef: the program exited with status %d\n"), res.exit_status);
            code = CHEF_EXIT_WRONG;
        }
        break;
    }
    if (kitchen && res.status == PROGRAM_RAN && res.journey) {
        /* it ran to its end: its kitchen, on this terminal (the program's code runs only in the box
           of a re-run; this process reads what the runs sent back) */
        char *argv[] = {"cudachef", NULL};
        ui_program_arg arg = {.spec = prog, .res = &res, .name = name};
        tui_options o = {.argc = 1, .argv = argv, .program = &arg};
        int shown = tui_main(&o);
        if (shown != CHEF_EXIT_OK)
            code = shown;
    }
    program_result_free(&res);
    return code;
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
                                         {"include", required_argument, 0, 'I'},
                                         {"language", required_argument, 0, 'x'},
                                         {"check-launch", required_argument, 0, 'C'},
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
    program_spec prog = {0};
    int dashes = argc; /* a program's own arguments come after -- */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dashes = i;
            break;
        }
    prog.args = argv + (dashes < argc ? dashes + 1 : argc);
    prog.nargs = dashes < argc ? argc - dashes - 1 : 0;
    while ((c = getopt_long(dashes, argv, ":hI:x:", opts, NULL)) != -1) {
        if (c != 'I' && cli_once("try", opts, c, &seen) != 0) /* options are given once (-I as often as needed) */
            return CHEF_EXIT_USAGE;
        int bad = 0;
        switch (c) {
        case 'C': {
            const char *colon = strrchr(optarg, ':');
            char *end = NULL;
            long k = colon ? strtol(colon + 1, &end, 10) : 0;
            if (!colon || colon == optarg || !end || *end || k < 1)
                return cli_usage_error("try", "--check-launch takes KERNEL:K (K from 1), not '%s'", optarg);
            prog.check_launch = optarg;
            break;
        }
        case 'x':
            if (strcmp(optarg, "cu") != 0)
                return cli_usage_error("try", "-x takes cu (every file is CUDA), not '%s'", optarg);
            prog.all_cuda = 1;
            break;
        case 'I':
            if (prog.nincludes == PROGRAM_MAX_INCLUDES)
                return cli_usage_error("try", "at most %d -I folders", PROGRAM_MAX_INCLUDES);
            prog.includes[prog.nincludes++] = optarg;
            break;
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
    if (dashes - optind < 1)
        return cli_usage_error("try", "give one .cu file with your kernel, or your program's files");
    /* read once (it may be standard input): a whole program defines main */
    char *first = lesson_read_file(argv[optind], NULL);
    int whole = first && program_defines_main(first);
    if (dashes - optind > 1 || prog.nincludes > 0 || prog.nargs > 0 || prog.all_cuda || prog.check_launch || whole) {
        free(first);
        struct stat st;
        if (!strncmp(argv[optind], "/dev/", 5) || !strncmp(argv[optind], "/proc/", 6) ||
            (stat(argv[optind], &st) == 0 && !S_ISREG(st.st_mode)))
            return cli_usage_error("try", "a whole program is built from its files: save %s in a .cu file", argv[optind]);
        if (dashes - optind > PROGRAM_MAX_FILES)
            return cli_usage_error("try", "at most %d files", PROGRAM_MAX_FILES);
        if (recipe_name || n || tpb || blocks)
            return cli_usage_error("try", "--recipe, --n, --threads-per-block and --blocks are for a kernel "
                                          "alone, not a whole program");
        if (kitchen && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || format == CLI_FORMAT_JSON))
            return cli_usage_error("try", "--kitchen needs a terminal and the text format");
        prog.watch = kitchen;
        prog.capture = format == CLI_FORMAT_JSON;
        for (int i = optind; i < dashes; i++)
            prog.files[prog.nfiles++] = argv[i];
        prog.timeout_s = (double)timeout;
        backend_info info;
        memset(&info, 0, sizeof info);
        if (kitchen && opt.backend == BACKEND_GPU)
            return cli_usage_error("try", "--kitchen shows a program's run on the emulator: leave out --backend gpu");
        if (kitchen && opt.backend == BACKEND_AUTO && backend_gpu_probe(&info) == 0)
            fprintf(stderr, "%s", _("cudachef: --kitchen: the program runs on the CPU emulator, whose run the kitchen "
                                    "shows (without --kitchen it runs on the GPU)\n"));
        if (opt.backend != BACKEND_EMU && !kitchen && backend_gpu_probe(&info) == 0)
            prog.gpu_cc = info.cc_major * 10 + info.cc_minor;
        else if (opt.backend == BACKEND_GPU) {
            fprintf(stderr, _("cudachef: no GPU to run it on (%s): --backend emu runs it on the emulator\n"),
                    info.no_gpu_reason[0] ? info.no_gpu_reason : "none found");
            return CHEF_EXIT_ENVIRONMENT;
        }
        return try_program(&prog, format, kitchen);
    }
    if (kitchen && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || format == CLI_FORMAT_JSON)) {
        free(first);
        return cli_usage_error("try", "--kitchen needs a terminal and the text format");
    }
    const char *file = argv[optind];
    char *text = first;
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
