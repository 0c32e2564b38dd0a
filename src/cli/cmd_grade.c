/*
 * cmd_grade.c - `cudachef grade`: checks exercises without a terminal, for a learner, a teacher or
 * a CI system, and reports as text, JSON (GitHub Classroom's autograding fields plus cudachef's
 * own), JUnit XML or TAP. docs/GRADING.md describes the formats and the exit codes.
 *
 * The learner's files are WORKSPACE/LESSON-ID/NAME.cu (cudachef init makes them). Authors grade
 * the exercises' own files instead: --solutions (every one must pass) and --starters (every one
 * must fail) and --wrong (every typical wrong version must fail with the diagnosis it names), which
 * `make check-exercises` runs.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/cancel.h"
#include "demos/demo.h"
#include "base/text.h"
#include "grading/gpu_nodes.h"
#include "grading/sandbox.h"
#include "grading/similar.h"
#include "grading/exercise_check.h"
#include "lessons/progress.h"
#include "engine/report.h"
#include "grading/workspace.h"
#include "base/parse.h"
#include "base/file.h"

static const char grade_usage[] =
    "usage: cudachef grade [EXERCISE...] [options]\n"
    "\n"
    "Checks exercises (all of them, or those named: an exercise's name or a lesson's number) and\n"
    "reports each one. The learner's kernels are WORKSPACE/LESSON/NAME.cu (cudachef init makes a\n"
    "workspace).\n"
    "\n"
    "  --workspace DIR          the workspace (default: $CUDACHEF_WORKSPACE, else ~/cudachef-kitchen)\n"
    "  --backend auto|gpu|emu   who cooks (default auto: the GPU when one works)\n"
    "  --timeout S              seconds each exercise may run (default: the exercise's own)\n"
    "  --format text|json|junit|tap|classroom|exercism\n"
    "                           for people, programs, JUnit, TAP, GitHub Classroom's reporter\n"
    "                           (base64; exit 0 once written), Exercism's results.json (exit 0)\n"
    "  --github-output          with classroom: also append result=... to $GITHUB_OUTPUT\n"
    "  --output FILE            write the report to FILE instead of standard output\n"
    "  --solutions, --starters  grade the exercises' reference solutions or starting files (authors)\n"
    "  --wrong                  grade every exercise's typical wrong versions: each must fail with\n"
    "                           the diagnosis it names (text, json or tap; exit 1 when one does not)\n"
    "  --class DIR              every folder in DIR is a student's workspace: a table of the class\n"
    "  -j, --jobs N             with --class, students graded at once (default: one per core; on a\n"
    "                           GPU, one per visible GPU, each student's runs on its worker's GPU)\n"
    "  --sandbox bwrap|none     learner code runs in a bubblewrap sandbox (default; grading refuses\n"
    "                           without one); none runs it unboxed, and the report says so\n"
    "\n"
    "Exit codes: 0 every exercise passed, 1 some are wrong, 2 usage, 3 some did not compile,\n"
    "4 some crashed or timed out, 5 the machine cannot check them (no compiler, no GPU when asked).\n"
    "With several, the highest of 1, 3, 4 and 5 that happened. docs/GRADING.md has the formats.\n";

#define GRADE_TEXT_WIDTH 100  /* the text report's lines are wrapped to this many columns */
#define GRADE_MAX_JOBS 64     /* --class: students graded at once, at most */
#define GRADE_GPU_NAME 96     /* a CUDA_VISIBLE_DEVICES entry: an index or a UUID (GPU- and 36) */

typedef enum grade_format { GRADE_TEXT, GRADE_JSON, GRADE_JUNIT, GRADE_TAP, GRADE_CLASSROOM, GRADE_EXERCISM } grade_format;

#define GRADE_CLASSROOM_MAX (96 << 10) /* the Classroom result's JSON, before base64: 128 KiB after it,
                                          under Linux's limit on one environment string */
#define GRADE_CLASSROOM_MESSAGE 4096   /* one test's message, at most (longer: cut, with a note) */

/* One exercise's outcome in the grade. */
typedef struct grade_item {
    const exercise *ex;
    char source[4200];
    int missing;              /* the learner's file is not there */
    exercise_result result;
} grade_item;

/* The options of a grade. */
typedef struct grade_options {
    const char *workspace, *output;
    const char *class_dir;    /* --class DIR: one workspace per student folder */
    grade_format format;
    exercise_options check;
    int which;                /* 0 the workspace, 1 solutions, 2 starters, 3 wrong versions */
    int jobs;                 /* --class: students graded at once (0: the default) */
    int github_output;        /* --github-output: classroom's result=... appended to $GITHUB_OUTPUT */
} grade_options;

/* Parses the options; returns -1 to go on, else the exit code to return. */
static int grade_parse(int argc, char **argv, grade_options *o)
{
    static const struct option opts[] = {{"workspace", required_argument, 0, 'w'},
                                         {"backend", required_argument, 0, 'b'},
                                         {"timeout", required_argument, 0, 't'},
                                         {"format", required_argument, 0, 'f'},
                                         {"output", required_argument, 0, 'o'},
                                         {"solutions", no_argument, 0, 'S'},
                                         {"class", required_argument, 0, 'c'},
                                         {"starters", no_argument, 0, 's'},
                                         {"wrong", no_argument, 0, 'W'},
                                         {"sandbox", required_argument, 0, 'X'},
                                         {"jobs", required_argument, 0, 'j'},
                                         {"github-output", no_argument, 0, 'G'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->check.backend = BACKEND_AUTO;
    sandbox_set_policy(sandbox_default(SANDBOX_REQUIRE)); /* grading insists on a sandbox */
    int c;
    chef_error err = {0};
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":hj:", opts, NULL)) != -1) {
        if (cli_once("grade", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        switch (c) {
        case 'w':
            o->workspace = optarg;
            break;
        case 'b':
            if (strcmp(optarg, "auto") && strcmp(optarg, "gpu") && strcmp(optarg, "emu"))
                return cli_usage_error("grade", "--backend is auto, gpu or emu, not '%s'", optarg);
            o->check.backend = optarg[0] == 'g' ? BACKEND_GPU : optarg[0] == 'e' ? BACKEND_EMU : BACKEND_AUTO;
            break;
        case 't': {
            int64_t s;
            if (parse_int64("--timeout", optarg, 1, 3600, &s, &err) != 0)
                return cli_usage_error("grade", "%s", err.message);
            o->check.timeout_s = (double)s;
            break;
        }
        case 'f':
            if (strcmp(optarg, "text") == 0)
                o->format = GRADE_TEXT;
            else if (strcmp(optarg, "json") == 0)
                o->format = GRADE_JSON;
            else if (strcmp(optarg, "junit") == 0)
                o->format = GRADE_JUNIT;
            else if (strcmp(optarg, "tap") == 0)
                o->format = GRADE_TAP;
            else if (strcmp(optarg, "classroom") == 0)
                o->format = GRADE_CLASSROOM;
            else if (strcmp(optarg, "exercism") == 0)
                o->format = GRADE_EXERCISM;
            else
                return cli_usage_error("grade", "--format is text, json, junit, tap, classroom or exercism, not '%s'",
                                       optarg);
            break;
        case 'o':
            if (!*optarg)
                return cli_usage_error("grade", "--output needs a file name");
            o->output = optarg;
            break;
        case 'c':
            o->class_dir = optarg;
            break;
        case 'X':
            if (cli_sandbox_option("grade", optarg) != 0)
                return CHEF_EXIT_USAGE;
            break;
        case 'G':
            o->github_output = 1;
            break;
        case 'j': {
            int64_t j;
            if (parse_int64("--jobs", optarg, 1, GRADE_MAX_JOBS, &j, &err) != 0)
                return cli_usage_error("grade", "%s", err.message);
            o->jobs = (int)j;
            break;
        }
        case 'S':
        case 's':
        case 'W':
            if (o->which)
                return cli_usage_error("grade", "--solutions, --starters and --wrong cannot go together");
            o->which = c == 'S' ? 1 : c == 's' ? 2 : 3;
            break;
        default:
            return cli_common_option(c, "grade", grade_usage, argv);
        }
    }
    if (o->class_dir && (o->which || o->workspace || o->output ||
                         (o->format != GRADE_TEXT && o->format != GRADE_JSON)))
        return cli_usage_error("grade", "--class grades every workspace in a folder, as text or json, to standard "
                                        "output; it does not go with --workspace, --solutions, --starters or --output");
    if (o->which == 3 && o->format != GRADE_TEXT && o->format != GRADE_JSON && o->format != GRADE_TAP)
        return cli_usage_error("grade", "--wrong reports as text, json or tap");
    if (o->which && o->workspace)
        return cli_usage_error("grade", "--workspace grades a learner's files; --solutions and --starters the "
                                        "exercises' own");
    return -1;
}

/* 1 when ex is named by word (its name, or its lesson's number). */
static int grade_named(const exercise *ex, const char *word)
{
    char *end;
    long number = strtol(word, &end, 10);
    return strcmp(ex->name, word) == 0 || (*end == '\0' && end != word && number == ex->lesson_number);
}

/* The exit code of the grade: 0, or the highest of the failures' codes. */
static int grade_exit(const grade_item *items, int n)
{
    int code = 0;
    for (int i = 0; i < n; i++) {
        int c = items[i].missing ? CHEF_EXIT_WRONG : exercise_status_exit(items[i].result.status);
        code = c > code ? c : code;
    }
    return code;
}

/* One item's message: what happened, and what it probably means. */
static void grade_message(const grade_item *it, char *out, size_t size)
{
    if (it->missing)
        snprintf(out, size, _("no file %s: cudachef init makes it"), it->source);
    else if (it->result.explanation[0])
        snprintf(out, size, "%s. %s", it->result.summary, it->result.explanation);
    else
        snprintf(out, size, "%s", it->result.summary);
}

#define GRADE_MAX_CHECKS (EXERCISE_MAX_RUNS + 2)

/* One check of an exercise, its own test with its share of the points. */
typedef struct grade_check {
    char name[96];
    int passed;
    double points;
} grade_check;

/* The checks of an exercise as grading asked them (each size, each cook order or repeat, and the
   coalescing record), each passed when cudachef's own taste of that run passed; the points are
   shared out evenly. A process that ran out of time, crashed, started too many processes, flooded
   or ended itself earns none: what it left behind is not a finished run. Returns how many. */
static int grade_checks(const grade_item *it, grade_check *c)
{
    const exercise *ex = it->ex;
    const exercise_result *r = &it->result;
    int per_size = 1 + (r->on_gpu && ex->shuffles > 2 ? 2 : ex->shuffles);
    int ran = !it->missing && r->status != EXERCISE_BUILD && r->status != EXERCISE_ENVIRONMENT && !r->process_failed;
    int n = 0;
    for (int s = 0; s < (ex->nsizes > 0 ? ex->nsizes : 1); s++)
        for (int k = 0; k < per_size && n < EXERCISE_MAX_RUNS; k++, n++) {
            const exercise_run *run = n < r->nruns ? &r->runs[n] : NULL;
            if (k == 0)
                snprintf(c[n].name, sizeof c[n].name, "n = %lld", (long long)ex->sizes[s]);
            else
                snprintf(c[n].name, sizeof c[n].name, r->on_gpu ? "n = %lld, again (%d)" : "n = %lld, cook order %d",
                         (long long)ex->sizes[s], k);
            c[n].passed = ran && run && run->code == CHEF_EXIT_OK && run->taste.passed;
        }
    int ops[EXERCISE_MAX_RUNS], calls[EXERCISE_MAX_RUNS];
    int nfaults = exercise_fault_plan(ex, ops, calls, EXERCISE_MAX_RUNS - n);
    for (int k = 0; k < nfaults; k++, n++) { /* a host exercise: each runtime call failing once */
        static const char *const what[] = {"", "cudaMalloc", "cudaMemcpy", "launch"};
        const exercise_run *run = n < r->nruns ? &r->runs[n] : NULL;
        if (ops[k] == 3)
            snprintf(c[n].name, sizeof c[n].name, "n = %lld, the launch fails", (long long)ex->sizes[0]);
        else
            snprintf(c[n].name, sizeof c[n].name, "n = %lld, %s %d fails", (long long)ex->sizes[0], what[ops[k]],
                     calls[k]);
        c[n].passed = ran && run && run->code == CHEF_EXIT_OK && run->taste.passed;
    }
    if (ex->conflict_free) {
        int counted = ran && r->nruns > 0 && r->status != EXERCISE_WRONG;
        for (int i = 0; i < r->nruns && counted; i++)
            counted = r->runs[i].conflicts == 0 || (r->on_gpu && r->runs[i].conflicts < 0);
        snprintf(c[n].name, sizeof c[n].name, "bank conflicts: none in the shared locker");
        c[n].passed = counted;
        n++;
    }
    if (ex->coalesced) {
        snprintf(c[n].name, sizeof c[n].name, "coalescing: the first warp's writes in at most 2 segments");
        c[n].passed = ran && r->nruns > 0 && r->runs[0].segments >= 0 && r->runs[0].segments <= 2 &&
                      r->status != EXERCISE_WRONG;
        n++;
    }
    for (int i = 0; i < n; i++) {
        c[i].points = ex->points / n;
        c[i].passed |= !it->missing && r->status == EXERCISE_PASSED; /* a GPU traces no coalescing record
                                                                        unless the runs passed: then it held */
    }
    return n;
}

/* The score of an exercise: the points of the checks that passed (all of them when it passed). */
static double grade_score(const grade_item *it)
{
    if (!it->missing && it->result.status == EXERCISE_PASSED)
        return it->ex->points;
    grade_check c[GRADE_MAX_CHECKS];
    int n = grade_checks(it, c);
    double score = 0;
    for (int i = 0; i < n; i++)
        score += c[i].passed ? c[i].points : 0;
    return score;
}

/* Text of the learner's or another program's (the compiler's words quoting the learner's bytes, a
   run's message, a path) as a JSON string: valid UTF-8, each byte that starts no character made
   U+FFFD (jansson refuses a string that is not UTF-8, and the test would be lost); NULL text: null.
   NULL only when out of memory. */
static json_t *grade_json_text(const char *text)
{
    if (!text)
        return json_null();
    char *valid = text_utf8_valid(text);
    json_t *s = valid ? json_string(valid) : NULL;
    free(valid);
    return s;
}

/* The checks as JSON tests of their own: [{name, status, score, max_score}]. */
static json_t *grade_checks_json(const grade_item *it)
{
    grade_check c[GRADE_MAX_CHECKS];
    int n = grade_checks(it, c);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:f, s:f}", "name", c[i].name, "status",
                                           c[i].passed ? "pass" : "fail", "score", c[i].passed ? c[i].points : 0.0,
                                           "max_score", c[i].points));
    return a;
}


/* Prints text line by line, each after prefix, with what the learner's code or compiler wrote made
   safe for a terminal (chef_print_clean: control codes as \xNN, so a submission cannot send escape
   sequences to the grader's terminal); at most max_lines lines (0: all), each cut at 200 bytes. */
static void grade_print_lines(FILE *out, const char *prefix, const char *text, int max_lines)
{
    int indent = text_width(prefix, strlen(prefix));
    for (int n = 0; text && *text && (max_lines == 0 || n < max_lines); n++) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        char *line = strndup(text, len);
        if (line) {
            chef_clean_text(line); /* no escape sequence reaches the terminal */
            fputs(prefix, out);
            if (indent + text_width(line, strlen(line)) <= GRADE_TEXT_WIDTH)
                fprintf(out, "%s\n", line); /* as it was written (a compiler's caret lines up) */
            else
                demo_wrap(out, line, indent, indent, GRADE_TEXT_WIDTH); /* wrapped at spaces, never cut */
            free(line);
        }
        text = nl ? nl + 1 : NULL;
    }
}

/* Makes text one line safe for a terminal in place: control characters (line ends and tabs too:
   C0, DEL, C1) and bytes that are not UTF-8 become '?'. */
static void grade_clean_line(char *text)
{
    chef_clean_text(text);
    for (char *p = text; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = '?';
}

/* A name for the class table (a folder's name, the student's): one clean line (grade_clean_line),
   cut to size. */
static void grade_safe_name(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src);
    grade_clean_line(dst);
}

/* The checks of one exercise made inside the process that runs the learner's kernel, which that
   kernel could therefore change (its memory is theirs): advisory. The taste is not among them:
   cudachef tastes every run's output itself, outside that process (grading/verifier.c), as it does
   the repeated runs on a GPU. Their stable codes into codes[]; returns how many. */
#define GRADE_ADVISORY_MAX 9 /* every code grade_advisory can give at once */
static int grade_advisory(const grade_item *it, const char *codes[GRADE_ADVISORY_MAX])
{
    int n = 0;
    const exercise_result *r = &it->result;
    if (it->missing || r->status == EXERCISE_BUILD || r->status == EXERCISE_ENVIRONMENT)
        return 0; /* nothing of it ran */
    if (!r->on_gpu)
        codes[n++] = "bounds";
    if (it->ex->host)
        codes[n++] = "faults";
    if (it->ex->shuffles > 0 && !r->on_gpu)
        codes[n++] = "shuffled-orders";
    if (it->ex->coalesced)
        codes[n++] = "coalescing";
    if (it->ex->conflict_free)
        codes[n++] = "bank-conflicts";
    if (it->ex->timed || it->ex->one_trip || it->ex->min_launches || it->ex->library)
        codes[n++] = "host-record"; /* the runtime's record of events, launches and shipments */
    if (it->ex->streams)
        codes[n++] = "streams";
    if (it->ex->managed)
        codes[n++] = "managed";
    if (it->ex->nlimits)
        codes[n++] = "counters";
    return n;
}

/* The report for people. */
static void grade_text(FILE *out, const grade_item *items, int n, const char *who)
{
    int passed = 0;
    fprintf(out, _("Exercises to grade: %d (who cooks: %s)\n"), n, who);
    if (strcmp(sandbox_name(), "none") == 0)
        fprintf(out, "%s\n", _("No sandbox: learner code ran as this user, with this user's files (--sandbox none)"));
    fputc('\n', out);
    for (int i = 0; i < n; i++) {
        const grade_item *it = &items[i];
        int ok = !it->missing && it->result.status == EXERCISE_PASSED;
        passed += ok;
        fprintf(out, "%s %-22s %s\n", ok ? "PASS" : "FAIL", it->ex->name, exercise_title(it->ex, i18n_current()));
        if (it->missing) {
            char *source = strdup(it->source);
            if (source)
                grade_clean_line(source);
            fprintf(out, _("     no file %s: cudachef init makes it\n"), source ? source : "?");
            free(source);
            continue;
        }
        grade_print_lines(out, "     ", it->result.summary, 0);
        if (it->result.explanation[0])
            grade_print_lines(out, "     ", it->result.explanation, 0);
        if (it->result.output_bytes > 0) { /* what the kernel printed: its first lines */
            fprintf(out, _("     the kernel printed %zu bytes; the first lines:\n"), it->result.output_bytes);
            grade_print_lines(out, "       ", it->result.output, 3);
        }
        if (it->result.status == EXERCISE_BUILD && it->result.build_log)
            grade_print_lines(out, "", it->result.build_log, 0);
    }
    fprintf(out, _("\n%d of %d passed\n"), passed, n);
    const char *codes[GRADE_ADVISORY_MAX];
    for (int i = 0; i < n; i++)
        if (grade_advisory(&items[i], codes) > 0) {
            demo_wrap(out,
                      _("Advisory: these checks run inside the process that runs the learner's kernel, which "
                        "could change them (docs/GRADING.md): on the emulator the bounds checks, shuffled "
                        "orders, coalescing record and bank-conflict count, and a host exercise's fault runs "
                        "and record of events, launches and shipments. The taste of every run is cudachef's "
                        "own."),
                      0, 0, GRADE_TEXT_WIDTH);
            break;
        }
}

/* Who cooked, for programs: the GPU's name, or "CPU emulator", in every language. */
static const char *grade_backend_id(const exercise_result *r)
{
    return r->on_gpu ? r->backend : "CPU emulator";
}

/* The report as JSON: GitHub Classroom's fields (version, status, max_score, tests) and more; who
   cooked is said by name (a GPU's, or "CPU emulator") and as backend_kind, gpu or emu. */
static json_t *grade_json(const grade_item *items, int n, const char *who)
{
    (void)who; /* the people's words: JSON names who cooked from the results themselves */
    const exercise_result *first = NULL;
    for (int i = 0; i < n && !first; i++)
        if (!items[i].missing && items[i].result.backend[0])
            first = &items[i].result;
    json_t *tests = json_array();
    double max = 0, score = 0;
    int all = 1, error = 0;
    for (int i = 0; i < n; i++) {
        const grade_item *it = &items[i];
        const exercise_result *r = &it->result;
        int ok = !it->missing && r->status == EXERCISE_PASSED;
        int err = !it->missing && r->status == EXERCISE_ENVIRONMENT;
        char message[2400];
        grade_message(it, message, sizeof message);
        double points = grade_score(it);
        max += it->ex->points;
        score += points;
        all &= ok;
        error |= err;
        json_t *t = json_pack(
            "{s:s, s:s, s:f, s:f, s:o, s:s, s:s, s:s, s:o, s:o, s:b, s:f, s:f, s:o, s:s, s:i, s:I}", "name",
            it->ex->name, "status", ok ? "pass" : err ? "error" : "fail", "score", points, "max_score",
            it->ex->points, "message", grade_json_text(message), "result",
            it->missing ? "missing" : exercise_status_name(r->status), "lesson", it->ex->lesson_id, "title",
            exercise_title(it->ex, i18n_current()), "filename", grade_json_text(it->source), "build_log",
            grade_json_text(r->build_log && r->build_log[0] ? r->build_log : NULL), "build_cached", r->cached,
            "build_ms", r->build_ms, "run_ms", r->run_ms, "backend",
            grade_json_text(r->backend[0] ? grade_backend_id(r) : first ? grade_backend_id(first) : "none"),
            "backend_kind",
            r->backend[0] || first ? ((r->backend[0] ? r->on_gpu : first->on_gpu) ? "gpu" : "emu") : "none", "runs",
            r->nruns, "output_bytes", (json_int_t)r->output_bytes);
        const char *codes[GRADE_ADVISORY_MAX];
        int nadvisory = grade_advisory(it, codes);
        json_t *advisory = json_array();
        for (int k = 0; k < nadvisory; k++)
            json_array_append_new(advisory, json_string(codes[k]));
        /* each test's fields on its own object; a test that cannot be written fails the report
           rather than leave it out (or give its fields to the test before it) */
        if (!t || json_object_set_new(t, "advisory", advisory) != 0 ||
            json_object_set_new(t, "checks", grade_checks_json(it)) != 0 ||
            json_object_set_new(t, "diagnosis", grade_json_text(it->missing ? "missing" : it->result.diagnosis)) != 0 ||
            json_array_append_new(tests, t) != 0) {
            json_decref(t);
            json_decref(tests);
            return NULL;
        }
    }
    return json_pack("{s:s, s:i, s:s, s:f, s:f, s:s, s:s, s:s, s:o}", "schema", "cudachef.grade/1", "version", 1,
                     "status", all ? "pass" : error ? "error" : "fail", "max_score", max, "score", score, "backend",
                     first ? grade_backend_id(first) : "none", "backend_kind", /* none: nothing cooked (no GPU
                                                                                    when one was asked for) */
                     first ? (first->on_gpu ? "gpu" : "emu") : "none", "sandbox", sandbox_name(), "tests", tests);
}

/* A test's message for Classroom: the diagnosis, cut to size with a note saying so. */
static void grade_classroom_message(const grade_item *it, char *out, size_t size)
{
    char message[2400];
    grade_message(it, message, sizeof message);
    const exercise_result *r = &it->result;
    int n = snprintf(out, size, "%s", message);
    if (!it->missing && r->status == EXERCISE_BUILD && r->build_log && r->build_log[0] && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "\n%s", r->build_log);
    size_t len = strlen(out), note = 64;
    if (len + 1 >= size && size > note) { /* cut: say so, on a whole UTF-8 character */
        size_t cut = size - note;
        while (cut > 0 && ((unsigned char)out[cut] & 0xC0) == 0x80)
            cut--;
        snprintf(out + cut, size - cut, "\n[... cut by cudachef: the whole log is in --format json]");
    }
}

/* --format classroom: GitHub Classroom's grading reporter's input, base64 of {version, status,
   max_score, tests: [...]}, one line; with github_output also "result=..." appended to
   $GITHUB_OUTPUT. Messages are cut so the whole stays under GRADE_CLASSROOM_MAX. */
static int grade_classroom(FILE *out, const grade_item *items, int n, int github_output)
{
    char *text = NULL;
    for (size_t limit = GRADE_CLASSROOM_MESSAGE; limit >= 128; limit /= 2) {
        json_t *tests = json_array();
        double max = 0, score = 0;
        int all = 1, error = 0, lost = 0;
        char *message = malloc(limit);
        for (int i = 0; message && i < n; i++) {
            const grade_item *it = &items[i];
            int ok = !it->missing && it->result.status == EXERCISE_PASSED;
            int err = !it->missing && it->result.status == EXERCISE_ENVIRONMENT;
            grade_classroom_message(it, message, limit);
            char code[300];
            snprintf(code, sizeof code, "cudachef grade %s", it->ex->name);
            max += it->ex->points;
            score += grade_score(it);
            all &= ok;
            error |= err;
            if (json_array_append_new(
                    tests, json_pack("{s:s, s:s, s:f, s:f, s:o, s:s, s:o, s:i, s:f}", "name", it->ex->name, "status",
                                     ok ? "pass" : err ? "error" : "fail", "score", grade_score(it), "max_score",
                                     it->ex->points, "message", grade_json_text(message), "test_code", code,
                                     "filename", grade_json_text(it->source), "line_no", 1, "duration",
                                     it->result.build_ms + it->result.run_ms)) != 0)
                lost = 1; /* the report fails rather than leave a test out */
        }
        lost |= !message;
        free(message);
        json_t *doc = lost ? NULL
                                       : json_pack("{s:i, s:s, s:f, s:o}", "version", 1, "status",
                                                   all ? "pass" : error ? "error" : "fail", "max_score", max, "tests",
                                                   json_incref(tests));
        json_decref(tests);
        free(text);
        text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
        json_decref(doc);
        if (!text || strlen(text) <= GRADE_CLASSROOM_MAX)
            break;
    }
    if (!text)
        return -1;
    size_t len = strlen(text);
    unsigned char *b64 = malloc(4 * ((len + 2) / 3) + 1);
    if (!b64) {
        free(text);
        return -1;
    }
    EVP_EncodeBlock(b64, (const unsigned char *)text, (int)len);
    free(text);
    int rc = fprintf(out, "%s\n", b64) < 0 ? -1 : 0;
    const char *gh = getenv("GITHUB_OUTPUT");
    if (github_output && gh && *gh) {
        FILE *f = fopen(gh, "a");
        if (!f || fprintf(f, "result=%s\n", b64) < 0)
            rc = -1;
        if (f && fclose(f) != 0)
            rc = -1;
    }
    free(b64);
    return rc == 0 && fflush(out) == 0 ? 0 : -1;
}

/* --format exercism: Exercism's test runner's results.json, version 3 (status pass, fail or
   error; a test per exercise with its message). */
static void grade_exercism(FILE *out, const grade_item *items, int n)
{
    json_t *tests = json_array();
    int all = 1, error = 0;
    for (int i = 0; i < n; i++) {
        const grade_item *it = &items[i];
        int ok = !it->missing && it->result.status == EXERCISE_PASSED;
        int err = !it->missing && (it->result.status == EXERCISE_ENVIRONMENT || it->result.status == EXERCISE_BUILD);
        char message[2400];
        grade_message(it, message, sizeof message);
        char code[300];
        snprintf(code, sizeof code, "cudachef grade %s", it->ex->name);
        all &= ok;
        error |= err;
        json_t *t = json_pack("{s:s, s:s, s:s}", "name", exercise_title(it->ex, i18n_current()), "status",
                              ok ? "pass" : err ? "error" : "fail", "test_code", code);
        if (!ok)
            json_object_set_new(t, "message", grade_json_text(message));
        if (it->result.output && it->result.output[0])
            json_object_set_new(t, "output", grade_json_text(it->result.output));
        json_array_append_new(tests, t);
    }
    json_t *doc = json_pack("{s:i, s:s, s:o}", "version", 3, "status", all ? "pass" : error ? "error" : "fail", "tests",
                            tests);
    if (error) { /* the top-level message is for an error only (results.json, version 3) */
        char first[2400] = "";
        for (int i = 0; i < n && !first[0]; i++)
            if (!items[i].missing && (items[i].result.status == EXERCISE_ENVIRONMENT ||
                                      items[i].result.status == EXERCISE_BUILD))
                grade_message(&items[i], first, sizeof first);
        json_object_set_new(doc, "message", grade_json_text(first));
    }
    report_json_write(out, doc);
    json_decref(doc);
}

/* Writes text escaped for XML 1.0, as well-formed UTF-8: markup characters as entities, a carriage
   return as a character reference, newlines and tabs as they are, and each byte that starts no UTF-8
   character, each other control character (C0, DEL, C1) and U+FFFE and U+FFFF (not characters of
   XML) as U+FFFD. */
static void grade_xml(FILE *out, const char *text)
{
    for (const char *p = text ? text : ""; *p;) {
        int n = text_utf8_length(p);
        const unsigned char *u = (const unsigned char *)p;
        if (n == 1 && (*p == '<' || *p == '>' || *p == '&' || *p == '"'))
            fputs(*p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : "&quot;", out);
        else if (n == 1 && (*p == '\n' || *p == '\t'))
            fputc(*p, out);
        else if (n == 1 && *p == '\r')
            fputs("&#13;", out);
        else if (n == 0 || text_is_control(p, n) || (n == 3 && u[0] == 0xEF && u[1] == 0xBF && u[2] >= 0xBE))
            fputs("\xEF\xBF\xBD", out);
        else
            fwrite(p, 1, (size_t)n, out);
        p += n ? n : 1;
    }
}

/* The report as JUnit XML. */
static void grade_junit(FILE *out, const grade_item *items, int n)
{
    int tests = 0, failures = 0, errors = 0;
    double total = 0;
    grade_check c[GRADE_MAX_CHECKS];
    for (int i = 0; i < n; i++) {
        const exercise_result *r = &items[i].result;
        int env = !items[i].missing && r->status == EXERCISE_ENVIRONMENT;
        int k = grade_checks(&items[i], c);
        for (int j = 0; j < k; j++) {
            tests++;
            failures += !c[j].passed && !env;
            errors += !c[j].passed && env;
        }
        total += (r->build_ms + r->run_ms) / 1000;
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cudachef\" tests=\"%d\" failures=\"%d\" "
                 "errors=\"%d\" time=\"%.3f\">\n  <testsuite name=\"cudachef exercises\" tests=\"%d\" failures=\"%d\" "
                 "errors=\"%d\" time=\"%.3f\">\n",
            tests, failures, errors, total, tests, failures, errors, total);
    /* a testcase per check (each size, each cook order, the coalescing record), named by its
       exercise (classname LESSON-ID.NAME), with its share of the points */
    for (int i = 0; i < n; i++) {
        const grade_item *it = &items[i];
        const exercise_result *r = &it->result;
        char message[2400];
        grade_message(it, message, sizeof message);
        int k = grade_checks(it, c);
        for (int j = 0; j < k; j++) {
            fprintf(out, "    <testcase classname=\"");
            grade_xml(out, it->ex->lesson_id);
            fputc('.', out);
            grade_xml(out, it->ex->name);
            fprintf(out, "\" name=\"");
            grade_xml(out, c[j].name);
            fprintf(out, "\" time=\"%.3f\">\n      <properties><property name=\"points\" value=\"%g\"/>"
                         "<property name=\"score\" value=\"%g\"/></properties>\n",
                    j == 0 ? (r->build_ms + r->run_ms) / 1000 : 0.0, c[j].points, c[j].passed ? c[j].points : 0.0);
            if (!c[j].passed) {
                const char *tag = !it->missing && r->status == EXERCISE_ENVIRONMENT ? "error" : "failure";
                fprintf(out, "      <%s type=\"%s\" message=\"", tag,
                        it->missing ? "missing" : exercise_status_name(r->status == EXERCISE_PASSED ? EXERCISE_WRONG : r->status));
                grade_xml(out, message);
                fprintf(out, "\">");
                grade_xml(out, r->build_log ? r->build_log : message);
                fprintf(out, "</%s>\n", tag);
            }
            fprintf(out, "    </testcase>\n");
        }
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}

/* Writes text inside a YAML double-quoted string of TAP's: quote and backslash escaped, a newline
   as a space, every other control character (C0 with tab, ESC, BEL and CR; DEL; C1) as YAML's \xNN,
   each byte that is not UTF-8 as U+FFFD: nothing of the learner's reaches a terminal raw. */
static void grade_tap_text(FILE *out, const char *text)
{
    for (const char *p = text; *p;) {
        int n = text_utf8_length(p);
        if (n == 0)
            fputs("\xEF\xBF\xBD", out);
        else if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputc(' ', out);
        else if (text_is_control(p, n))
            fprintf(out, "\\x%02X", (unsigned char)p[n - 1]); /* C1's code point is its second byte */
        else
            fwrite(p, 1, (size_t)n, out);
        p += n ? n : 1;
    }
}

/* The report as TAP version 13. */
static void grade_tap(FILE *out, const grade_item *items, int n)
{
    fprintf(out, "TAP version 13\n1..%d\n", n);
    grade_check c[GRADE_MAX_CHECKS];
    for (int i = 0; i < n; i++) {
        const grade_item *it = &items[i];
        int ok = !it->missing && it->result.status == EXERCISE_PASSED;
        char message[2400];
        grade_message(it, message, sizeof message);
        /* each check a subtest (TAP 13's indented plan and lines, before the exercise's own line) */
        int k = grade_checks(it, c);
        fprintf(out, "# Subtest: %s\n    1..%d\n", it->ex->name, k);
        for (int j = 0; j < k; j++)
            fprintf(out, "    %s %d - %s # points %g of %g\n", c[j].passed ? "ok" : "not ok", j + 1, c[j].name,
                    c[j].passed ? c[j].points : 0.0, c[j].points);
        fprintf(out, "%s %d - %s\n", ok ? "ok" : "not ok", i + 1, it->ex->name);
        if (!ok) {
            fprintf(out, "  ---\n  result: %s\n  diagnosis: %s\n  score: %g\n  message: \"",
                    it->missing ? "missing" : exercise_status_name(it->result.status),
                    it->missing ? "missing" : it->result.diagnosis, grade_score(it));
            grade_tap_text(out, message);
            fprintf(out, "\"\n  ...\n");
        }
    }
}

/* What a report is written from (grade_write's context). */
typedef struct grade_doc {
    const grade_options *o;
    const grade_item *items;
    int n;
    const char *who;
} grade_doc;

/* Writes the report in its format to out: 0, or -1 when out could not take it all. */
static int grade_write(FILE *out, const void *ctx)
{
    const grade_doc *d = ctx;
    if (d->o->format == GRADE_TEXT)
        grade_text(out, d->items, d->n, d->who);
    else if (d->o->format == GRADE_JUNIT)
        grade_junit(out, d->items, d->n);
    else if (d->o->format == GRADE_TAP)
        grade_tap(out, d->items, d->n);
    else if (d->o->format == GRADE_CLASSROOM)
        return grade_classroom(out, d->items, d->n, d->o->github_output);
    else if (d->o->format == GRADE_EXERCISM)
        grade_exercism(out, d->items, d->n);
    else {
        json_t *doc = grade_json(d->items, d->n, d->who);
        int rc = doc ? report_json_write(out, doc) : -1;
        json_decref(doc);
        if (rc != 0)
            return -1;
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* Writes the report to the output (a file written whole, or standard output): 0, or -1 after
   saying why on standard error. */
static int grade_report(const grade_options *o, const grade_item *items, int n, const char *who)
{
    grade_doc d = {o, items, n, who};
    if (!o->output) {
        grade_write(stdout, &d); /* main() says when standard output could not take it */
        return 0;
    }
    chef_error err = {0};
    if (file_write_whole(o->output, grade_write, &d, &err) != 0) {
        chef_error_print(&err);
        return -1;
    }
    return 0;
}

/* Grades the wanted exercises (argv[first..argc), none: all) of one workspace, or the exercises'
   own files (o->which), into items (*n of them, results to free); *who gets who cooked. own: a
   pass is recorded in the learner's progress. Returns -1, or an exit code when checking itself
   failed. */
static int grade_workspace(const grade_options *o, const exercise_set *set, int first, int argc, char **argv,
                           const char *workspace, int own, grade_item *items, int *n, char *who, size_t who_size)
{
    chef_error err = {0};
    *n = 0;
    for (int k = 0; k < set->count; k++) {
        const exercise *ex = &set->items[k];
        int wanted = first >= argc;
        for (int i = first; i < argc; i++)
            wanted |= grade_named(ex, argv[i]);
        if (!wanted)
            continue;
        grade_item *it = &items[(*n)++];
        memset(it, 0, sizeof *it);
        it->ex = ex;
        if (o->which)
            exercise_file(ex, o->which == 1 ? "solution.cu" : "start.cu", it->source, sizeof it->source);
        else
            workspace_exercise_path(workspace, ex, it->source, sizeof it->source);
        struct stat st;
        if (!ex->broken && lstat(it->source, &st) != 0 && errno == ENOENT) { /* one that cannot be read is checked: its row says why */
            it->missing = 1;
            continue;
        }
        if (exercise_check(ex, it->source, &o->check, &it->result, &err) != 0) {
            if (cli_stopped_by())
                return cli_stopped("grade");
            chef_error_print(&err);
            return err.exit_code;
        }
        if (!who[0])
            snprintf(who, who_size, "%s", it->result.backend);
        if (own && it->result.status == EXERCISE_PASSED) {
            chef_error perr = {0};
            if (progress_mark("exercise", strchr(ex->lesson_id, '-') ? strchr(ex->lesson_id, '-') + 1 : ex->lesson_id,
                              ex->name, &perr) != 0)
                cli_progress_not_saved(&perr);
        }
    }
    return -1;
}

/* Frees the results of n items. */
static void grade_items_free(grade_item *items, int n)
{
    for (int i = 0; items && i < n; i++)
        exercise_result_free(&items[i].result);
}

/* Orders folder names. */
static int grade_compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A class: every folder in o->class_dir is a student's workspace. Prints a table (text) or one
   document (JSON) with each student's grade and how many passed each exercise. */
/* One student's grade, made by a worker of the pool. */
typedef struct grade_slot {
    grade_item *items;        /* set->count + 1 of them */
    int n, rc, done, taken;
    char who[300];
    const char *gpu;          /* the GPU its runs had (CUDA_VISIBLE_DEVICES' entry), NULL on the emulator */
} grade_slot;

/* Workers grading a class's students, each the next one not taken. */
typedef struct grade_pool {
    const grade_options *o;
    const exercise_set *set;
    int first, argc;
    char **argv;
    const char *dir;
    char **names;
    int count, nworkers, ngpus;
    grade_slot *slots;
    atomic_int next;
    pthread_mutex_t lock;
    pthread_cond_t done;
    pthread_t threads[GRADE_MAX_JOBS];
    grade_options per_worker[GRADE_MAX_JOBS]; /* o, with each worker's GPU */
    char gpus[GRADE_MAX_JOBS][GRADE_GPU_NAME];  /* the GPUs' CUDA_VISIBLE_DEVICES entries, as given */
    char uuids[GRADE_MAX_JOBS][GRADE_GPU_NAME]; /* and the UUIDs they name: what each worker's runs get */
} grade_pool;

/* A worker's argument: the pool and which worker it is. */
typedef struct grade_worker_arg {
    grade_pool *pool;
    int index;
} grade_worker_arg;

static grade_worker_arg grade_worker_args[GRADE_MAX_JOBS];

/* A worker: grades students until none is left. */
static void *grade_worker(void *arg)
{
    grade_worker_arg *w = arg;
    grade_pool *p = w->pool;
    const grade_options *o = &p->per_worker[w->index];
    for (int s; (s = atomic_fetch_add(&p->next, 1)) < p->count;) {
        grade_slot *slot = &p->slots[s];
        char ws[4400];
        snprintf(ws, sizeof ws, "%s/%s", p->dir, p->names[s]);
        slot->gpu = o->check.visible_gpu ? p->gpus[w->index % p->ngpus] : NULL; /* the entry as given */
        slot->rc = slot->items ? grade_workspace(o, p->set, p->first, p->argc, p->argv, ws, 0, slot->items, &slot->n,
                                                 slot->who, sizeof slot->who)
                               : CHEF_EXIT_ENVIRONMENT;
        pthread_mutex_lock(&p->lock);
        slot->done = 1;
        pthread_cond_broadcast(&p->done);
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

/* The GPUs the workers share out: CUDA_VISIBLE_DEVICES' entries, else every GPU of the driver's
   list (gpu_nodes.h), else 0 .. count-1 of the device nodes; none on the emulator, unless the list
   is a fake one (a test of sharing out: the runs stay on the emulator). Fills gpus with the entries
   as given and uuids with the UUIDs they name (the entry itself without a list). Returns how many,
   or -1 with a message when an entry names no GPU of the driver's list. */
static int grade_visible_gpus(const grade_options *o, char gpus[][GRADE_GPU_NAME], char uuids[][GRADE_GPU_NAME],
                              int max)
{
    static gpu_node list[GPU_NODES_MAX];
    int listed = gpu_nodes_list(list, GPU_NODES_MAX), fake = gpu_nodes_fake();
    if (!fake) {
        if (o->check.backend == BACKEND_EMU)
            return 0;
        backend_info info;
        memset(&info, 0, sizeof info);
        if (backend_gpu_probe(&info) != 0)
            return 0;
    }
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    int n = 0;
    if (visible) { /* as CUDA reads it: the entries before the first empty one (none when it is empty) */
        for (const char *p = visible; *p && n < max;) {
            size_t len = strcspn(p, ",");
            if (gpu_nodes_entry(p, len, gpus[n], GRADE_GPU_NAME) != 0)
                break;
            n++;
            p += len + (p[len] == ',');
        }
    } else {
        for (; n < listed && n < max; n++)
            snprintf(gpus[n], GRADE_GPU_NAME, "%d", list[n].index);
        /* no driver's list: every device node /dev/nvidia0, /dev/nvidia1, ... */
        int by_node = n == 0 && !fake;
        for (char node[32]; by_node && n < max; n++) {
            snprintf(node, sizeof node, "/dev/nvidia%d", n);
            if (access(node, F_OK) != 0)
                break;
            snprintf(gpus[n], GRADE_GPU_NAME, "%d", n);
        }
        if (n == 0)
            snprintf(gpus[n++], GRADE_GPU_NAME, "0");
    }
    for (int i = 0; i < n; i++) {
        const gpu_node *g = gpu_nodes_find(list, listed, gpus[i]);
        if (!g && (listed > 0 || fake)) {
            fprintf(stderr, _("cudachef grade: CUDA_VISIBLE_DEVICES names '%s', which is no GPU of the driver's list "
                              "(nvidia-smi -L lists them; a UUID's beginning must name one GPU)\n"),
                    gpus[i]);
            return -1;
        }
        snprintf(uuids[i], GRADE_GPU_NAME, "%s", g ? g->uuid : gpus[i]);
    }
    return n;
}

/* A student's device in the class's JSON: the GPU its worker had, by index and UUID (the driver's
   list), with the entry it was given; null when its runs had no GPU of their own. */
static json_t *grade_device_json(const char *entry)
{
    if (!entry)
        return json_null();
    static gpu_node list[GPU_NODES_MAX];
    static int listed = -1;
    if (listed < 0)
        listed = gpu_nodes_list(list, GPU_NODES_MAX);
    const gpu_node *g = gpu_nodes_find(list, listed, entry);
    json_t *d = json_object();
    json_object_set_new(d, "visible", json_string(entry));
    json_object_set_new(d, "index", g ? json_integer(g->index) : json_null());
    json_object_set_new(d, "uuid", g ? json_string(g->uuid) : json_null());
    json_object_set_new(d, "name", g && g->model[0] ? json_string(g->model) : json_null());
    json_object_set_new(d, "fake", json_boolean(gpu_nodes_fake()));
    return d;
}

/* Starts the workers: -j of them, else one per visible GPU on a GPU, else one per core. */
static int grade_pool_start(grade_pool *p, const grade_options *o, const exercise_set *set, int first, int argc,
                            char **argv, const char *dir, char **names, int count)
{
    memset(p, 0, sizeof *p);
    p->o = o;
    p->set = set;
    p->first = first;
    p->argc = argc;
    p->argv = argv;
    p->dir = dir;
    p->names = names;
    p->count = count;
    p->slots = calloc((size_t)(count ? count : 1), sizeof *p->slots);
    if (!p->slots)
        return -1;
    for (int s = 0; s < count; s++)
        p->slots[s].items = calloc((size_t)set->count + 1, sizeof(grade_item));
    int ngpus = p->ngpus = grade_visible_gpus(o, p->gpus, p->uuids, GRADE_MAX_JOBS);
    if (ngpus < 0) {
        for (int s = 0; s < count; s++)
            free(p->slots[s].items);
        free(p->slots);
        return -2;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = o->jobs > 0 ? o->jobs : ngpus > 0 ? ngpus : cores > 0 ? (int)cores : 1;
    if (jobs > GRADE_MAX_JOBS)
        jobs = GRADE_MAX_JOBS;
    if (jobs > count)
        jobs = count > 0 ? count : 1;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    for (int i = 0; i < jobs; i++) {
        p->per_worker[i] = *o;
        p->per_worker[i].check.visible_gpu = ngpus > 0 ? p->uuids[i % ngpus] : NULL; /* resolved once, here */
        grade_worker_args[i] = (grade_worker_arg){p, i};
        if (pthread_create(&p->threads[i], NULL, grade_worker, &grade_worker_args[i]) != 0)
            break;
        p->nworkers++;
    }
    if (p->nworkers == 0) {
        for (int s = 0; s < count; s++)
            free(p->slots[s].items);
        free(p->slots);
        return -1;
    }
    return 0;
}

/* Waits for student s's slot. */
static grade_slot *grade_pool_wait(grade_pool *p, int s)
{
    pthread_mutex_lock(&p->lock);
    while (!p->slots[s].done)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return &p->slots[s];
}

/* Waits for the workers and frees the slots (their items were taken or are freed here). */
static void grade_pool_finish(grade_pool *p)
{
    for (int i = 0; i < p->nworkers; i++)
        pthread_join(p->threads[i], NULL);
    for (int s = 0; s < p->count; s++) {
        if (!p->slots[s].taken && p->slots[s].items)
            grade_items_free(p->slots[s].items, p->slots[s].n);
        free(p->slots[s].items);
    }
    free(p->slots);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->done);
}

/* The fingerprints (similar.h) of every student's file of every exercise graded, by
   student * set->count + exercise: "" for an exercise not graded, a file that cannot be read, or
   one that is the exercise's starting file still (every student starts from it). */
static char (*grade_fingerprints(const grade_options *o, const exercise_set *set, int first, int argc, char **argv,
                                 char **names, int count))[65]
{
    char (*fp)[65] = calloc((size_t)(count ? count : 1) * (size_t)(set->count ? set->count : 1), sizeof *fp);
    for (int k = 0; fp && k < set->count; k++) {
        const exercise *ex = &set->items[k];
        int wanted = first >= argc;
        for (int i = first; i < argc; i++)
            wanted |= grade_named(ex, argv[i]);
        if (!wanted || ex->broken)
            continue;
        char start[4400], start_fp[65] = "", *text = NULL;
        size_t size = 0;
        chef_error ignored = {0};
        exercise_file(ex, "start.cu", start, sizeof start);
        if (exercise_source_read(start, &text, &size, &ignored) == 0)
            similar_fingerprint(text, start_fp);
        free(text);
        for (int s = 0; s < count; s++) {
            char ws[4400], path[4500];
            snprintf(ws, sizeof ws, "%s/%s", o->class_dir, names[s]);
            workspace_exercise_path(ws, ex, path, sizeof path);
            text = NULL;
            char *mine = fp[(size_t)s * (size_t)set->count + (size_t)k];
            if (exercise_source_read(path, &text, &size, &ignored) == 0 && similar_fingerprint(text, mine) == 0 &&
                strcmp(mine, start_fp) == 0)
                mine[0] = '\0';
            free(text);
        }
    }
    return fp;
}

/* The other students whose file of exercise k has student s's fingerprint, into others
   (", "-separated); 0 when none. */
static int grade_same_as(char (*fp)[65], const exercise_set *set, char **names, int count, int s, int k, char *others,
                         size_t size)
{
    others[0] = '\0';
    const char *mine = fp ? fp[(size_t)s * (size_t)set->count + (size_t)k] : "";
    int found = 0;
    for (int t = 0; mine[0] && t < count; t++)
        if (t != s && strcmp(fp[(size_t)t * (size_t)set->count + (size_t)k], mine) == 0) {
            size_t len = strlen(others);
            snprintf(others + len, size - len, "%s%s", found++ ? ", " : "", names[t]);
        }
    return found;
}

static int grade_class(const grade_options *o, const exercise_set *set, int first, int argc, char **argv)
{
    DIR *d = opendir(o->class_dir);
    if (!d)
        return cli_usage_error("grade", "cannot read the class folder %s: %s", o->class_dir, strerror(errno));
    char **names = NULL;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[4400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", o->class_dir, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        char **grown = realloc(names, (size_t)(count + 1) * sizeof *grown);
        if (!grown || !(grown[count] = strdup(e->d_name)))
            break;
        names = grown;
        count++;
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof *names, grade_compare_names);
    grade_item *items = calloc((size_t)set->count + 1, sizeof *items);
    int *passed = calloc((size_t)set->count + 1, sizeof *passed), code = 0, n = 0;
    char who[300] = "";
    json_t *students = json_array();
    FILE *out = stdout;
    if (o->format == GRADE_TEXT) {
        fprintf(out, _("Grading a class of %d in %s\n\n"), count, o->class_dir);
        /* the exercises are numbered columns; their names are listed first */
        int col = 0;
        for (int k = 0; k < set->count; k++) {
            int wanted = first >= argc;
            for (int i = first; i < argc; i++)
                wanted |= grade_named(&set->items[k], argv[i]);
            if (wanted)
                fprintf(out, "%3d  %s\n", ++col, set->items[k].name);
        }
        fprintf(out, "\n%-20s %7s  ", _("student"), _("score"));
        for (int k = 1; k <= col; k++)
            fprintf(out, "%3d ", k);
        fprintf(out, "\n");
    }
    /* files that are the same work but for comments, layout and names: flagged, never failed */
    char (*fp)[65] = grade_fingerprints(o, set, first, argc, argv, names, count);
    /* the students are graded by jobs workers at once, each into its slot; the table and the JSON
       take them in order as they finish */
    grade_pool pool;
    int named = count; /* the names to free, graded or not */
    int started = grade_pool_start(&pool, o, set, first, argc, argv, o->class_dir, names, count);
    if (started != 0) {
        if (started == -1)
            fprintf(stderr, "cudachef grade: %s\n", _("out of memory"));
        code = CHEF_EXIT_ENVIRONMENT; /* -2: a GPU entry named no GPU, said above */
        count = 0;
    }
    for (int s = 0; s < count && items && passed; s++) {
        grade_slot *slot = grade_pool_wait(&pool, s);
        slot->taken = 1; /* its results are freed here */
        n = slot->n;
        memcpy(items, slot->items, (size_t)n * sizeof *items);
        snprintf(who, sizeof who, "%s", slot->who);
        int rc = slot->rc;
        if (rc >= 0) {
            code = rc;
            grade_items_free(items, n);
            break;
        }
        double score = 0, max = 0;
        for (int i = 0; i < n; i++) {
            int ok = !items[i].missing && items[i].result.status == EXERCISE_PASSED;
            score += grade_score(&items[i]);
            max += items[i].ex->points;
            passed[i] += ok;
        }
        int c = grade_exit(items, n);
        code = c > code ? c : code;
        if (o->format == GRADE_TEXT) {
            char mark[32];
            snprintf(mark, sizeof mark, "%g/%g", score, max);
            char shown[21]; /* the column's 20 bytes: a character cut there becomes '?' */
            grade_safe_name(shown, sizeof shown, names[s]);
            fprintf(out, "%-20.20s %7s  ", shown, mark);
            for (int i = 0; i < n; i++)
                fprintf(out, "%3s ", items[i].missing                              ? "-"
                                     : items[i].result.status == EXERCISE_PASSED ? "+"
                                     : items[i].result.status == EXERCISE_BUILD  ? "B"
                                     : items[i].result.status == EXERCISE_WRONG  ? "x"
                                                                                  : "!");
            for (int i = 0; i < n; i++) {
                char others[2048];
                if (grade_same_as(fp, set, names, count, s, (int)(items[i].ex - set->items), others, sizeof others)) {
                    char *clean = strdup(others);
                    if (clean)
                        grade_clean_line(clean);
                    fprintf(out, _(" same %s as %s"), items[i].ex->name, clean ? clean : "?");
                    free(clean);
                }
            }
            fprintf(out, "\n");
            fflush(out);
        } else {
            json_t *doc = grade_json(items, n, who[0] ? who : "CPU emulator");
            if (!doc) { /* out of memory: no report rather than one without this student */
                fprintf(stderr, "cudachef grade: %s\n", _("out of memory"));
                code = CHEF_EXIT_ENVIRONMENT;
                grade_items_free(items, n);
                break;
            }
            json_object_set_new(doc, "student", grade_json_text(names[s]));
            json_object_set_new(doc, "device", grade_device_json(slot->gpu));
            json_t *similar = json_array();
            for (int i = 0; i < n; i++) {
                int k = (int)(items[i].ex - set->items);
                const char *mine = fp ? fp[(size_t)s * (size_t)set->count + (size_t)k] : "";
                json_t *same = json_array();
                for (int t = 0; mine[0] && t < count; t++)
                    if (t != s && strcmp(fp[(size_t)t * (size_t)set->count + (size_t)k], mine) == 0)
                        json_array_append_new(same, grade_json_text(names[t]));
                if (json_array_size(same) > 0)
                    json_array_append_new(similar, json_pack("{s:s, s:o}", "exercise", items[i].ex->name, "students", same));
                else
                    json_decref(same);
            }
            json_object_set_new(doc, "similar", similar);
            json_array_append_new(students, doc);
        }
        grade_items_free(items, n);
    }
    if (count > 0)
        grade_pool_finish(&pool);
    if (o->format == GRADE_TEXT) {
        fprintf(out, "%-20s %7s  ", _("passed"), "");
        for (int i = 0; i < n; i++)
            fprintf(out, "%3d ", passed[i]);
        fprintf(out, _("\n\n+ passed   x wrong   B does not compile   ! crashed or timed out   - no file\n"));
        fprintf(out, "%s\n", _("same NAME as ...: the same work as those students' (comments, layout and names aside): "
                               "a flag for a teacher to read, not a fail"));
        json_decref(students);
    } else {
        json_t *doc = json_pack("{s:s, s:o, s:i, s:o}", "schema", "cudachef.class-grade/1", "folder",
                                grade_json_text(o->class_dir), "students_count", count, "students", students);
        report_json_write(out, doc);
        json_decref(doc);
    }
    for (int s = 0; s < named; s++)
        free(names[s]);
    free(names);
    free(items);
    free(passed);
    free(fp);
    return code;
}

/* --wrong: checks every typical wrong version of the wanted exercises (argv[first..argc)) and
   reports whether each failed with the diagnosis it names. Returns the exit code: 0 all did, 1 one
   passed or was diagnosed otherwise, or checking's own error's code. */
static int grade_wrongs(const grade_options *o, const exercise_set *set, int first, int argc, char **argv)
{
    json_t *tests = json_array();
    int total = 0, bad = 0, code = 0;
    char lines[1 << 16];
    size_t used = 0;
    lines[0] = '\0';
    for (int k = 0; k < set->count && code == 0; k++) {
        const exercise *ex = &set->items[k];
        int wanted = first >= argc;
        for (int i = first; i < argc; i++)
            wanted |= grade_named(ex, argv[i]);
        for (int w = 0; wanted && w < ex->nwrongs && code == 0; w++) {
            char source[4400];
            snprintf(source, sizeof source, "%s/wrong/%s.cu", ex->dir, ex->wrongs[w].name);
            exercise_result r;
            chef_error err = {0};
            if (exercise_check(ex, source, &o->check, &r, &err) != 0) {
                code = cli_stopped_by() ? cli_stopped("grade") : (chef_error_print(&err), err.exit_code);
                break;
            }
            int ok = r.status != EXERCISE_PASSED && strcmp(r.diagnosis, ex->wrongs[w].diagnosis) == 0;
            total++;
            bad += !ok;
            const char *got = r.status == EXERCISE_PASSED ? "passed" : r.diagnosis;
            if (o->format == GRADE_TAP)
                used += (size_t)snprintf(lines + used, used < sizeof lines ? sizeof lines - used : 0,
                                         "%s %d - %s/%s # diagnosis %s, expected %s\n", ok ? "ok" : "not ok", total,
                                         ex->name, ex->wrongs[w].name, got, ex->wrongs[w].diagnosis);
            else if (o->format == GRADE_TEXT) {
                grade_clean_line(r.summary); /* the compiler's words: no escape sequence */
                used += (size_t)snprintf(lines + used, used < sizeof lines ? sizeof lines - used : 0,
                                         "%-4s %s/%s: %s (expected %s)%s%s\n", ok ? "ok" : "FAIL", ex->name,
                                         ex->wrongs[w].name, got, ex->wrongs[w].diagnosis, ok ? "" : ": ",
                                         ok ? "" : r.summary);
            }
            json_array_append_new(tests, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:o}", "exercise", ex->name,
                                                   "wrong", ex->wrongs[w].name, "expected", ex->wrongs[w].diagnosis,
                                                   "diagnosis", got, "result", exercise_status_name(r.status), "ok",
                                                   ok, "message", grade_json_text(r.summary)));
            exercise_result_free(&r);
            if (used >= sizeof lines)
                used = sizeof lines - 1;
        }
    }
    if (code == 0) {
        if (o->format == GRADE_TAP) {
            printf("TAP version 13\n1..%d\n%s", total, lines);
        } else if (o->format == GRADE_TEXT) {
            fputs(lines, stdout);
            printf(_("%d of %d wrong versions failed with the diagnosis they name\n"), total - bad, total);
        } else {
            json_t *doc = json_pack("{s:s, s:s, s:i, s:i, s:o}", "schema", "cudachef.wrong/1", "status",
                                    bad ? "fail" : "pass", "total", total, "as_expected", total - bad, "tests", tests);
            tests = NULL;
            report_json_write(stdout, doc);
            json_decref(doc);
        }
        code = bad ? CHEF_EXIT_WRONG : CHEF_EXIT_OK;
    }
    json_decref(tests);
    return code;
}

/* `cudachef grade`. */
int cmd_grade(int argc, char **argv)
{
    grade_options o;
    int code = grade_parse(argc, argv, &o);
    if (code >= 0)
        return code;
    static chef_cancel stop; /* Ctrl-C, SIGTERM, SIGHUP: the check running ends, and grade says so */
    cancel_init(&stop);
    o.check.cancel = &stop;
    cli_stop_on_signals(&stop);
    exercise_set set;
    chef_error err = {0};
    if (exercise_load_all(NULL, &set, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    char workspace[4096] = "";
    int own = !o.workspace; /* the learner's own workspace: passes are recorded as progress */
    if (!o.which && !o.class_dir && workspace_resolve(o.workspace, workspace, sizeof workspace, &err) != 0) {
        chef_error_print(&err);
        exercise_set_free(&set);
        return err.exit_code;
    }
    for (int i = optind; i < argc; i++) {
        int found = 0;
        for (int k = 0; k < set.count; k++)
            found |= grade_named(&set.items[k], argv[i]);
        if (!found) {
            exercise_set_free(&set);
            return cli_usage_error("grade", "no exercise '%s' (cudachef init lists them all)", argv[i]);
        }
    }
    if (o.which == 3) {
        code = grade_wrongs(&o, &set, optind, argc, argv);
        exercise_set_free(&set);
        return code;
    }
    if (o.class_dir) {
        code = grade_class(&o, &set, optind, argc, argv);
        exercise_set_free(&set);
        return code;
    }
    grade_item *items = calloc((size_t)set.count + 1, sizeof *items);
    int n = 0;
    char who[300] = "";
    if (items)
        code = grade_workspace(&o, &set, optind, argc, argv, workspace, own && !o.which, items, &n, who, sizeof who);
    if (code < 0 && items)
        code = grade_report(&o, items, n, who[0] ? who : "CPU emulator") != 0 ? CHEF_EXIT_ENVIRONMENT
                                                                             : grade_exit(items, n);
    /* Classroom's reporter and Exercism's runner read the score from the report: a report written
       is a success of the step, whatever the score */
    if ((o.format == GRADE_CLASSROOM || o.format == GRADE_EXERCISM) && code >= 0 && code != CHEF_EXIT_INTERNAL &&
        code <= CHEF_EXIT_CRASH)
        code = CHEF_EXIT_OK;
    grade_items_free(items, n);
    free(items);
    exercise_set_free(&set);
    return code < 0 ? CHEF_EXIT_INTERNAL : code;
}
