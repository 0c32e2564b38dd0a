/*
 * test_cli.c - the real program, run as users and scripts run it: exit codes, stdout and stderr.
 *
 * Runs build/cudachef (or $CUDACHEF_BIN) with fork/exec, capturing both streams and the exit
 * status, from the repository root (paths to docs/ and tests/ are relative to it). Commands that
 * cook get --backend from CUDACHEF_TEST_BACKEND ("gpu" or the emulator); on "gpu" without a usable
 * GPU the cases that cook are skipped with a message and the rest still run. The JSON outputs are
 * also checked against docs/run-report.schema.json with tests/check_schema.py when
 * /usr/bin/python3 has the jsonschema module.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "engine/backend.h"
#include "base/chef.h"
#include "test_backend.h"
#include "test_exec.h"

#define CLI_MAX_ARGS 32
#define CLI_PYTHON "/usr/bin/python3"
#define CLI_SCHEMA "docs/run-report.schema.json"
#define CLI_CHECKER "tests/check_schema.py"

static const char *cli_bin = "build/cudachef";
static const char *cli_backend = "emu";  /* value given to --backend */
static int cli_can_cook = 1;             /* 0: gpu asked for but none usable */
static char cli_no_gpu[512];
static int cli_schema_ready = -1;        /* -1 not checked yet, 0 no jsonschema, 1 ready */

/* Runs cudachef with the arguments (NULL-terminated) after the program name. */
static void cli_runv(cli_result *r, const char *const *args)
{
    const char *argv[CLI_MAX_ARGS + 2];
    int n = 0;
    argv[n++] = cli_bin;
    for (int i = 0; args[i]; i++) {
        assert_true(n < CLI_MAX_ARGS);
        argv[n++] = args[i];
    }
    argv[n] = NULL;
    cli_exec(r, cli_bin, argv);
}

/* Runs cudachef with the arguments listed (the NULL is added here). */
#define CLI_RUN(r, ...)                                                                            \
    do {                                                                                           \
        const char *const cli_args_[] = {__VA_ARGS__, NULL};                                       \
        cli_runv((r), cli_args_);                                                                  \
    } while (0)

/* Prints what a run did (for a failing assertion's context). */
static void cli_show(const cli_result *r)
{
    print_message("    $ %s\n    exit %d\n    stdout: %.2000s\n    stderr: %.2000s\n", r->line, r->status, r->out,
                  r->err);
}


/* Asserts the exit status, showing the run when it differs. */
static void cli_expect_status(const cli_result *r, int status)
{
    if (r->status != status)
        cli_show(r);
    assert_int_equal(r->status, status);
}

/* Asserts text contains needle, showing the run when it does not. */
static void cli_expect_contains(const cli_result *r, const char *text, const char *needle)
{
    if (!strstr(text, needle)) {
        print_message("    expected to find \"%s\"\n", needle);
        cli_show(r);
    }
    assert_non_null(strstr(text, needle));
}

/* True when stderr is one "cudachef..." line, optionally followed by one "  hint:" line. */
static int cli_is_one_line_error(const char *err)
{
    if (strncmp(err, "cudachef", 8) != 0)
        return 0;
    const char *nl = strchr(err, '\n');
    if (!nl)
        return 0;
    const char *rest = nl + 1;
    if (*rest == '\0')
        return 1;
    if (strncmp(rest, "  hint:", 7) != 0)
        return 0;
    nl = strchr(rest, '\n');
    return nl && nl[1] == '\0';
}

/* Asserts a usage error: exit 2, nothing on stdout, a one-line message (and hint) on stderr. */
static void cli_expect_usage_error(const cli_result *r)
{
    int ok = r->status == CHEF_EXIT_USAGE && r->out[0] == '\0' && cli_is_one_line_error(r->err);
    if (!ok)
        cli_show(r);
    assert_int_equal(r->status, CHEF_EXIT_USAGE);
    assert_string_equal(r->out, "");
    assert_true(cli_is_one_line_error(r->err));
}

/* Parses a run's stdout as JSON (the caller owns it). */
static json_t *cli_json(const cli_result *r)
{
    json_error_t e;
    json_t *j = json_loads(r->out, 0, &e);
    if (!j) {
        print_message("    JSON error line %d: %s\n", e.line, e.text);
        cli_show(r);
    }
    assert_non_null(j);
    return j;
}

/* A string member of a JSON object, or "" when missing. */
static const char *cli_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* Skips the current test when asked to cook on a GPU that is not there. */
static void cli_need_kitchen(void)
{
    if (!cli_can_cook) {
        print_message("SKIP: no usable GPU (%s)\n", cli_no_gpu);
        skip();
    }
}

/* Makes a fresh temporary folder; the name is written to dir. */
static void cli_tempdir(char *dir, size_t size)
{
    snprintf(dir, size, "%s/cudachef-test-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
}

/* Number of entries (other than . and ..) in a folder. */
static int cli_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* Removes a file if it is there and then the (now empty) folder. */
static void cli_cleanup(const char *dir, const char *file)
{
    char path[1024];
    if (file) {
        snprintf(path, sizeof path, "%s/%s", dir, file);
        unlink(path);
    }
    rmdir(dir);
}

/* Writes text to path. */
static void cli_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* --help, -h and --version of the program and of every command: exit 0 and text on stdout. */
static void test_help_and_version(void **state)
{
    (void)state;
    static const char *const commands[] = {NULL, "info", "list", "run"};
    static const char *const flags[] = {"--help", "-h", "--version"};
    char version[64];
    snprintf(version, sizeof version, "cudachef %s\n", CHEF_VERSION);
    for (int c = 0; c < 4; c++) {
        for (int f = 0; f < 3; f++) {
            cli_result r;
            if (commands[c])
                CLI_RUN(&r, commands[c], flags[f]);
            else
                CLI_RUN(&r, flags[f]);
            cli_expect_status(&r, 0);
            assert_string_equal(r.err, "");
            if (f == 2) {
                assert_string_equal(r.out, version);
            } else {
                char usage[64];
                snprintf(usage, sizeof usage, "usage: cudachef %s", commands[c] ? commands[c] : "COMMAND");
                cli_expect_contains(&r, r.out, usage);
                if (!commands[c]) /* the full-screen interface's own options are named too */
                    cli_expect_contains(&r, r.out, "--classroom");
            }
            cli_free(&r);
        }
    }
}

/* No command at all: the usage on stderr and exit 2. */
static void test_no_arguments(void **state)
{
    (void)state;
    cli_result r;
    const char *const none[] = {NULL};
    cli_runv(&r, none);
    cli_expect_status(&r, CHEF_EXIT_USAGE);
    assert_string_equal(r.out, "");
    cli_expect_contains(&r, r.err, "usage: cudachef");
    cli_free(&r);
}

/* An unknown command is a one-line usage error. */
static void test_unknown_command(void **state)
{
    (void)state;
    cli_result r;
    CLI_RUN(&r, "bake");
    cli_expect_usage_error(&r);
    cli_expect_contains(&r, r.err, "bake");
    /* the answer names every command --help lists (both come from the command table) */
    cli_result help;
    CLI_RUN(&help, "--help");
    cli_expect_status(&help, 0);
    const char *at = strstr(help.out, "\nCommands:\n");
    assert_non_null(at);
    int named = 0;
    for (const char *line = at + 11; *line == ' '; line = strchr(line, '\n') + 1) {
        char name[32] = "";
        if (sscanf(line, "  %31[a-z] ", name) == 1 && line[2] != ' ') {
            char want[40];
            snprintf(want, sizeof want, " %s", name);
            cli_expect_contains(&r, r.err, want);
            named++;
        }
        if (!strchr(line, '\n'))
            break;
    }
    assert_true(named >= 11);
    cli_free(&help);
    cli_free(&r);
}

/* An option given twice is refused the same way by every command, and the same words. */
static void test_option_given_twice(void **state)
{
    (void)state;
    cli_result r;
    CLI_RUN(&r, "run", "vector-add", "--n", "4", "--n", "4");
    cli_expect_usage_error(&r);
    cli_expect_contains(&r, r.err, "cudachef run: --n was given twice; give each option once");
    cli_free(&r);
    CLI_RUN(&r, "bench", "--format", "json", "--format", "csv");
    cli_expect_usage_error(&r);
    cli_expect_contains(&r, r.err, "cudachef bench: --format was given twice; give each option once");
    cli_free(&r);
    CLI_RUN(&r, "list", "--format", "json", "--format", "json");
    cli_expect_usage_error(&r);
    cli_expect_contains(&r, r.err, "cudachef list: --format was given twice; give each option once");
    cli_free(&r);
}

/* What the emulator made smaller is a code in the JSON, the same in every language, and the note
   goes away in every language once the learner gives the sizes. */
static void test_reduced_is_a_code(void **state)
{
    (void)state;
    const char *langs[] = {"en", "ko"};
    for (int i = 0; i < 2; i++) {
        cli_result r;
        CLI_RUN(&r, "run", "7", "--demo", "race", "--sizes", "32", "--backend", "emu", "--lang", langs[i]);
        cli_expect_status(&r, 0);
        if (strstr(r.out, "sweep stops at smaller sizes") || strstr(r.out, "더 작은 크기까지만")) {
            print_message("    --lang %s: the note on smaller sizes is printed though --sizes was given\n", langs[i]);
            cli_show(&r);
            fail();
        }
        cli_free(&r);
        CLI_RUN(&r, "run", "7", "--demo", "race", "--sizes", "32", "--backend", "emu", "--format", "json", "--lang",
                langs[i]);
        cli_expect_status(&r, 0);
        json_t *doc = cli_json(&r);
        json_t *demo = json_array_get(json_object_get(doc, "demos"), 0);
        assert_true(json_is_null(json_object_get(demo, "reduced")));
        json_decref(doc);
        cli_free(&r);
        CLI_RUN(&r, "run", "4", "--demo", "naive-512", "--backend", "emu", "--format", "json", "--lang", langs[i]);
        cli_expect_status(&r, 0);
        doc = cli_json(&r);
        demo = json_array_get(json_object_get(doc, "demos"), 0);
        json_t *reduced = json_object_get(demo, "reduced");
        if (!json_is_object(reduced))
            cli_show(&r);
        assert_true(json_is_object(reduced));
        assert_string_equal(cli_str(reduced, "code"), "n");
        assert_true(json_integer_value(json_object_get(reduced, "from")) > json_integer_value(json_object_get(reduced, "to")));
        json_decref(doc);
        cli_free(&r);
    }
}

/* The fields of cudachef's JSON that are words for people, in the learner's language
   (docs/run-report.md, "Languages"); every other field is the same in every language. */
static int cli_prose_field(const char *key)
{
    static const char *const prose[] = {"message", "hint", "title", "summary", "reason", "no_gpu_reason",
                                        "library", "cpu_blas", "lang", NULL};
    for (int i = 0; prose[i]; i++)
        if (strcmp(key, prose[i]) == 0)
            return 1;
    return 0;
}

/* Compares two JSON documents apart from prose fields and the values of numbers (times differ run to
   run); prints the first difference's path. 1 when they match. */
static int cli_same_json(json_t *a, json_t *b, char *path, size_t size)
{
    /* a measurement may come out as a number or as null (not reached in this run): either way */
    int measured = (json_is_number(a) || json_is_null(a)) && (json_is_number(b) || json_is_null(b));
    if (json_typeof(a) != json_typeof(b) && !measured) {
        char *x = json_dumps(a, JSON_ENCODE_ANY), *y = json_dumps(b, JSON_ENCODE_ANY);
        print_message("    %s: %s in English, %s in Korean\n", path, x, y);
        free(x);
        free(y);
        return 0;
    }
    size_t len = strlen(path);
    if (json_is_object(a)) {
        const char *key;
        json_t *value;
        json_object_foreach(a, key, value) {
            snprintf(path + len, size - len, ".%s", key);
            json_t *other = json_object_get(b, key);
            if (!other) {
                print_message("    %s is missing in Korean\n", path);
                return 0;
            }
            /* the crossovers are measured: which size and recipe win may change from run to run */
            if (strcmp(key, "crossover") == 0 || cli_prose_field(key))
                continue;
            if (!cli_same_json(value, other, path, size))
                return 0;
        }
        path[len] = '\0';
        return json_object_size(a) == json_object_size(b);
    }
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b)) {
            print_message("    %s: %zu items in English, %zu in Korean\n", path, json_array_size(a), json_array_size(b));
            return 0;
        }
        for (size_t i = 0; i < json_array_size(a); i++) {
            snprintf(path + len, size - len, "[%zu]", i);
            if (!cli_same_json(json_array_get(a, i), json_array_get(b, i), path, size))
                return 0;
        }
        path[len] = '\0';
        return 1;
    }
    if (json_is_string(a) && strcmp(json_string_value(a), json_string_value(b)) != 0) {
        print_message("    %s: \"%s\" in English, \"%s\" in Korean\n", path, json_string_value(a), json_string_value(b));
        return 0;
    }
    return 1;
}

/* Every command that writes JSON writes the same JSON in English and Korean, apart from the prose
   fields, and those that say what went wrong carry a stable code beside their words. */
static void test_json_same_in_every_language(void **state)
{
    (void)state;
    char dir[300], ws[400], rm[500];
    cli_tempdir(dir, sizeof dir);
    snprintf(ws, sizeof ws, "%s/ws", dir);
    setenv("CUDACHEF_WORKSPACE", ws, 1);
    cli_result r;
    CLI_RUN(&r, "init");
    cli_expect_status(&r, 0);
    cli_free(&r);
    static const char *const commands[][12] = {
        {"info", "--format", "json"},
        {"list", "--format", "json"},
        {"run", "vector-add", "--n", "4", "--backend", "emu", "--format", "json"},
        {"run", "vector-add-unguarded", "--n", "100", "--backend", "emu", "--format", "json"},
        {"run", "1", "--backend", "emu", "--format", "json"},
        {"run", "8", "--backend", "emu", "--format", "json"},
        {"run", "11", "--backend", "emu", "--format", "json"},
        {"progress", "--format", "json"},
        {"grade", "bounds-check", "--backend", "emu", "--format", "json"},
        {"try", "exercises/03-teams-and-cooks/bounds-check/start.cu", "--backend", "emu", "--format", "json"},
        {"bench", "--sweep", "16", "--only", "matmul", "--backend", "emu", "--quiet", "--format", "json"},
    };
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        json_t *docs[2];
        for (int lang = -1; lang < 2; lang++) { /* -1: once first, so that a build is cached for both */
            const char *args[16];
            int n = 0;
            for (int i = 0; commands[c][i]; i++)
                args[n++] = commands[c][i];
            args[n++] = "--lang";
            args[n++] = lang > 0 ? "ko" : "en";
            args[n] = NULL;
            cli_runv(&r, args);
            if (lang >= 0)
                docs[lang] = cli_json(&r);
            cli_free(&r);
        }
        char path[512] = "";
        int same = cli_same_json(docs[0], docs[1], path, sizeof path);
        if (!same) {
            json_decref(docs[0]);
            json_decref(docs[1]);
            fail_msg("cudachef %s %s: its JSON differs between --lang en and --lang ko", commands[c][0],
                     commands[c][1] ? commands[c][1] : "");
        }
        /* what went wrong has a code: the error of a run that stopped, and why no GPU cooked */
        json_t *error = json_object_get(docs[0], "error");
        if (json_is_object(error))
            assert_non_null(json_string_value(json_object_get(error, "code")));
        if (json_is_string(json_object_get(docs[0], "no_gpu_reason")))
            assert_non_null(json_string_value(json_object_get(docs[0], "no_gpu_code")));
        json_decref(docs[0]);
        json_decref(docs[1]);
    }
    unsetenv("CUDACHEF_WORKSPACE");
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    assert_int_equal(system(rm), 0);
}

/* Every way to get `run` wrong: exit 2, one line (plus hint) on stderr, nothing on stdout. */
static void test_run_usage_errors(void **state)
{
    (void)state;
    const char *b = cli_backend;
    /* cooks: the case reaches the kitchen (the backend opens) before it is refused */
    static const struct {
        int cooks;
        const char *args[10];
    } cases[] = {
        {0, {"run", "vector-add", "--n", "abc", "--backend", NULL}},
        {0, {"run", "vector-add", "--n", "-5", "--backend", NULL}},
        {0, {"run", "vector-add", "--n", "0", "--backend", NULL}},
        {0, {"run", "vector-add", "--n", "99999999999999999999", "--backend", NULL}},
        {1, {"run", "vector-add", "--n", "3000000000", "--backend", NULL}},
        {0, {"run", "vector-add", "--n", "12x", "--backend", NULL}},
        {0, {"run", "vector-add", "--n", "", "--backend", NULL}},
        {0, {"run", "vector-add", "--threads-per-block", "0", "--backend", NULL}},
        {1, {"run", "vector-add", "--threads-per-block", "5000", "--backend", NULL}},
        {0, {"run", "vector-add", "--format", "xml", "--backend", NULL}},
        {0, {"run", "vector-add", "--n", "4", "--n", "8", "--backend", NULL}},
        {0, {"run", "vector-add", "--no-such-option", "--backend", NULL}},
        {0, {"run", "vector-soup", "--backend", NULL}},
        {0, {"run", "vector-add", "extra", "--backend", NULL}},
        {0, {"run", "--backend", NULL}},
        {0, {"run", "vector-add", "--repeat", "0", "--backend", NULL}},
        {0, {"run", "vector-add", "--blocks", "0", "--backend", NULL}},
        {1, {"run", "matmul-tiled", "--threads-per-block", "128", "--backend", NULL}},
        {0, {"run", "vector-add", "--trace", "-", "--format", "json", "--backend", NULL}},
        {0, {"run", "vector-add", "--backend", "tpu"}},
        {0, {"run", "vector-add", "--n"}},
        {0, {"info", "--format", "xml"}},
        {0, {"info", "--backend", "tpu"}},
        {0, {"info", "extra"}},
        {0, {"list", "--bogus"}},
        {0, {"list", "--format"}},
        {0, {"list", "extra"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].cooks && !cli_can_cook)
            continue;
        const char *args[12];
        int n = 0;
        for (; cases[i].args[n]; n++)
            args[n] = cases[i].args[n];
        if (n > 0 && strcmp(args[n - 1], "--backend") == 0) /* the test backend goes last */
            args[n++] = b;
        args[n] = NULL;
        cli_result r;
        cli_runv(&r, args);
        cli_expect_usage_error(&r);
        cli_free(&r);
    }
}

/* --backend gpu on a machine without a GPU: exit 5 with a one-line message (emulator runs only). */
static void test_no_gpu_is_environment_error(void **state)
{
    (void)state;
    if (strcmp(cli_backend, "emu") != 0) {
        print_message("SKIP: needs CUDACHEF_TEST_BACKEND=emu\n");
        skip();
    }
    cli_result r;
    CLI_RUN(&r, "info", "--format", "json");
    cli_expect_status(&r, 0);
    json_t *info = cli_json(&r);
    int has_gpu = strcmp(cli_str(info, "backend"), "emu") != 0;
    json_decref(info);
    cli_free(&r);
    if (has_gpu) {
        print_message("SKIP: this machine has a usable GPU\n");
        skip();
    }
    CLI_RUN(&r, "run", "vector-add", "--backend", "gpu");
    cli_expect_status(&r, CHEF_EXIT_ENVIRONMENT);
    assert_string_equal(r.out, "");
    assert_true(cli_is_one_line_error(r.err));
    cli_expect_contains(&r, r.err, "GPU");
    cli_free(&r);
    CLI_RUN(&r, "info", "--backend", "gpu");
    cli_expect_status(&r, CHEF_EXIT_ENVIRONMENT);
    assert_string_equal(r.out, "");
    assert_true(cli_is_one_line_error(r.err));
    cli_free(&r);
    /* in JSON the report still comes, saying why the kitchen stopped */
    CLI_RUN(&r, "run", "vector-add", "--backend", "gpu", "--format", "json");
    cli_expect_status(&r, CHEF_EXIT_ENVIRONMENT);
    json_t *j = cli_json(&r);
    assert_string_equal(cli_str(j, "status"), "stopped");
    assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), CHEF_EXIT_ENVIRONMENT);
    assert_true(json_is_object(json_object_get(j, "error")));
    json_decref(j);
    cli_free(&r);
}

/* The four-element example prints the arrays of the lesson and passes. */
static void test_counting_example(void **state)
{
    (void)state;
    cli_need_kitchen();
    cli_result r;
    CLI_RUN(&r, "run", "vector-add", "--n", "4", "--threads-per-block", "4", "--backend", cli_backend);
    cli_expect_status(&r, 0);
    cli_expect_contains(&r, r.out, "[1, 2, 3, 4]");
    cli_expect_contains(&r, r.out, "[5, 6, 7, 8]");
    cli_expect_contains(&r, r.out, "[6, 8, 10, 12]");
    cli_expect_contains(&r, r.out, "PASS");
    assert_null(strstr(r.out, "FAIL"));
    assert_string_equal(r.err, "");
    cli_free(&r);
}

/* Too few teams: exit 1, FAIL, and the first wrong element named with its cook. */
static void test_too_few_blocks(void **state)
{
    (void)state;
    cli_need_kitchen();
    cli_result r;
    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--blocks", "2", "--backend", cli_backend);
    cli_expect_status(&r, CHEF_EXIT_WRONG);
    cli_expect_contains(&r, r.out, "FAIL");
    cli_expect_contains(&r, r.out, "wrong at [512]");
    cli_expect_contains(&r, r.out, "(no cook of this grid was given it)");
    cli_expect_contains(&r, r.out, "488 elements have no cook");
    assert_null(strstr(r.out, "PASS"));
    cli_free(&r);
}

/* True when `cudachef list` knows the recipe name. */
static int cli_has_recipe(const char *name)
{
    cli_result r;
    CLI_RUN(&r, "list", "--format", "json");
    cli_expect_status(&r, 0);
    json_t *j = cli_json(&r);
    json_t *items = json_object_get(j, "items");
    int found = 0;
    for (size_t i = 0; i < json_array_size(items); i++)
        found |= strcmp(cli_str(json_array_get(items, i), "name"), name) == 0;
    json_decref(j);
    cli_free(&r);
    return found;
}

/* A cook writing past the end stops the emulator's kitchen: exit 4, the cook and element named. */
static void test_out_of_bounds_is_crash(void **state)
{
    (void)state;
    if (strcmp(cli_backend, "emu") != 0 || !cli_has_recipe("vector-add-unguarded")) {
        print_message("SKIP: needs the emulator and the vector-add-unguarded recipe\n");
        skip();
    }
    cli_result r;
    CLI_RUN(&r, "run", "vector-add-unguarded", "--n", "1000", "--backend", "emu");
    cli_expect_status(&r, CHEF_EXIT_CRASH);
    cli_expect_contains(&r, r.out, "team (block) 3");
    cli_expect_contains(&r, r.out, "past the end");
    assert_null(strstr(r.out, "PASS"));
    cli_free(&r);
    CLI_RUN(&r, "run", "vector-add-unguarded", "--n", "1000", "--format", "json", "--backend", "emu");
    cli_expect_status(&r, CHEF_EXIT_CRASH);
    json_t *j = cli_json(&r);
    assert_string_equal(cli_str(j, "status"), "stopped");
    assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), CHEF_EXIT_CRASH);
    assert_true(json_is_null(json_object_get(json_object_get(j, "steps"), "taste")));
    json_t *error = json_object_get(j, "error");
    assert_non_null(strstr(cli_str(error, "message"), "past the end"));
    json_decref(j);
    cli_free(&r);
}

/* `info --format json` and `list --format json` parse and carry their schema names. */
static void test_info_and_list_json(void **state)
{
    (void)state;
    cli_result r;
    CLI_RUN(&r, "info", "--format", "json");
    cli_expect_status(&r, 0);
    json_t *j = cli_json(&r);
    assert_string_equal(cli_str(j, "schema"), "cudachef.info/1");
    const char *kind = cli_str(j, "backend");
    assert_true(strcmp(kind, "emu") == 0 || strcmp(kind, "gpu") == 0);
    assert_true(json_is_object(json_object_get(j, strcmp(kind, "gpu") == 0 ? "gpu" : "emulator")));
    json_decref(j);
    cli_free(&r);

    CLI_RUN(&r, "list", "--format", "json");
    cli_expect_status(&r, 0);
    j = cli_json(&r);
    assert_string_equal(cli_str(j, "schema"), "cudachef.list/1");
    json_t *items = json_object_get(j, "items");
    assert_true(json_is_array(items));
    static const char *const names[] = {"vector-add", "vector-add-grid-stride", "matmul-tiled"};
    for (int k = 0; k < 3; k++) {
        int found = 0;
        for (size_t i = 0; i < json_array_size(items); i++)
            found |= strcmp(cli_str(json_array_get(items, i), "name"), names[k]) == 0;
        assert_true(found);
    }
    json_decref(j);
    cli_free(&r);
}

/* `run --format json`: a cudachef.run/1 report, passed with exit code 0, nothing on stderr. */
static void test_run_json(void **state)
{
    (void)state;
    cli_need_kitchen();
    cli_result r;
    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--format", "json", "--backend", cli_backend);
    cli_expect_status(&r, 0);
    assert_string_equal(r.err, "");
    json_t *j = cli_json(&r);
    assert_string_equal(cli_str(j, "schema"), "cudachef.run/1");
    assert_string_equal(cli_str(j, "status"), "passed");
    assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), 0);
    assert_true(json_is_null(json_object_get(j, "error")));
    assert_string_equal(cli_str(json_object_get(j, "backend"), "kind"), cli_backend);
    json_t *cook = json_object_get(json_object_get(j, "steps"), "cook");
    assert_int_equal(json_integer_value(json_object_get(cook, "teams")), 4);
    assert_int_equal(json_integer_value(json_object_get(cook, "idle_cooks")), 24);
    json_t *taste = json_object_get(json_object_get(j, "steps"), "taste");
    assert_int_equal(json_integer_value(json_object_get(taste, "correct")), 1000);
    /* the emulator counts what a GPU would move: 2 n x 4 bytes / 32 in load sectors, n x 4 / 32
       stored, one request per warp (32 warps hold an element); on a GPU it counts the same launch
       beside the run (its 4 teams, all of them) */
    json_t *counted = json_object_get(cook, "counters");
    assert_int_equal(json_integer_value(json_object_get(counted, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")),
                     2 * 1000 * 4 / 32);
    assert_int_equal(json_integer_value(json_object_get(counted, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")),
                     1000 * 4 / 32);
    assert_int_equal(json_integer_value(json_object_get(counted, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")),
                     2 * 32);
    json_t *counting = json_object_get(cook, "counting");
    assert_false(json_is_true(json_object_get(counting, "scaled")));
    assert_string_equal(cli_str(counting, "source"),
                        strcmp(cli_backend, "emu") == 0 ? "emulator-checked-build" : "emulator-beside-gpu");
    json_decref(j);
    cli_free(&r);

    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--blocks", "2", "--format", "json", "--backend", cli_backend);
    cli_expect_status(&r, CHEF_EXIT_WRONG);
    j = cli_json(&r);
    assert_string_equal(cli_str(j, "status"), "wrong");
    assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), 1);
    json_t *first = json_array_get(json_object_get(json_object_get(json_object_get(j, "steps"), "taste"), "mismatches"), 0);
    assert_int_equal(json_integer_value(json_object_get(first, "index")), 512);
    assert_int_equal(json_integer_value(json_object_get(first, "block")), 0);
    assert_int_equal(json_integer_value(json_object_get(first, "thread")), 0);
    assert_true(json_is_null(json_object_get(first, "got"))); /* NaN in JSON is null */
    json_decref(j);
    cli_free(&r);
}

/* --trace FILE: a trace with one block record per team, written without leftovers. */
static void test_trace_file(void **state)
{
    (void)state;
    cli_need_kitchen();
    char dir[256], path[600];
    cli_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    cli_result r;
    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--format", "json", "--trace", path, "--backend", cli_backend);
    cli_expect_status(&r, 0);
    json_t *report = cli_json(&r);
    json_int_t teams = json_integer_value(json_object_get(json_object_get(json_object_get(report, "steps"), "cook"), "teams"));
    json_decref(report);
    cli_free(&r);
    assert_int_equal(teams, 4);
    json_error_t e;
    json_t *t = json_load_file(path, 0, &e);
    if (!t)
        print_message("    %s: line %d: %s\n", path, e.line, e.text);
    assert_non_null(t);
    assert_string_equal(cli_str(t, "schema"), "cudachef.trace/1");
    assert_string_equal(cli_str(t, "kernel"), "vector_add");
    json_t *blocks = json_object_get(t, "blocks");
    assert_int_equal(json_array_size(blocks), (size_t)teams);
    for (size_t i = 0; i < json_array_size(blocks); i++)
        assert_int_equal(json_array_size(json_array_get(blocks, i)), 4);
    if (strcmp(cli_backend, "emu") == 0) {
        json_t *cooks = json_object_get(t, "cooks");
        assert_int_equal(json_array_size(cooks), 1024);
        json_t *last = json_array_get(cooks, 1023); /* an idle cook: [3, 255, -1] */
        assert_int_equal(json_integer_value(json_array_get(last, 0)), 3);
        assert_int_equal(json_integer_value(json_array_get(last, 1)), 255);
        assert_int_equal(json_integer_value(json_array_get(last, 2)), -1);
        json_t *some = json_array_get(cooks, 777);
        assert_int_equal(json_integer_value(json_array_get(some, 2)), 777);
    }
    json_decref(t);
    assert_int_equal(cli_count_entries(dir), 1); /* only trace.json: no temporary file left */
    cli_cleanup(dir, "trace.json");
}

/* --trace into a folder that does not exist: a clear message, non-zero exit, nothing created. */
static void test_trace_missing_folder(void **state)
{
    (void)state;
    cli_need_kitchen();
    char dir[256], path[700], missing[400];
    cli_tempdir(dir, sizeof dir);
    snprintf(missing, sizeof missing, "%s/no-such-folder", dir);
    snprintf(path, sizeof path, "%s/trace.json", missing);
    cli_result r;
    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--trace", path, "--backend", cli_backend);
    if (r.status == 0)
        cli_show(&r);
    assert_true(r.status != 0);
    cli_expect_contains(&r, r.err, "could not write the trace");
    cli_expect_contains(&r, r.err, path);
    struct stat st;
    assert_true(stat(missing, &st) != 0);
    assert_int_equal(cli_count_entries(dir), 0);
    cli_free(&r);
    cli_cleanup(dir, NULL);
}

/* True when /usr/bin/python3 can import jsonschema (checked once; prints why not). */
static int cli_have_jsonschema(void)
{
    if (cli_schema_ready < 0) {
        cli_schema_ready = 0;
        if (access(CLI_PYTHON, X_OK) == 0) {
            cli_result r;
            const char *const argv[] = {CLI_PYTHON, "-c", "import jsonschema", NULL};
            cli_exec(&r, CLI_PYTHON, argv);
            cli_schema_ready = r.status == 0;
            cli_free(&r);
        }
    }
    return cli_schema_ready;
}

/* Runs tests/check_schema.py on a file (against a named $defs entry when def is not NULL). */
static int cli_check_schema(const char *file, const char *def, cli_result *r)
{
    const char *argv[] = {CLI_PYTHON, CLI_CHECKER, CLI_SCHEMA, file, def, NULL};
    cli_exec(r, CLI_PYTHON, argv);
    return r->status;
}

/* Writes the stdout of a run to dir/name and checks it against the schema; expects exit want. */
static void cli_schema_case(const char *dir, const char *name, const cli_result *run, const char *def, int want)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cli_write_file(path, run->out);
    cli_result r;
    int status = cli_check_schema(path, def, &r);
    if (status != want) {
        print_message("    schema check of %s (from: %s): want exit %d\n", name, run->line, want);
        cli_show(&r);
    }
    assert_int_equal(status, want);
    if (want != 0) /* the checker names the first error with its path */
        cli_expect_contains(&r, r.err, "$");
    cli_free(&r);
    unlink(path);
}

/* Every JSON output validates against docs/run-report.schema.json; a renamed field does not. */
static void test_json_schema(void **state)
{
    (void)state;
    if (!cli_have_jsonschema()) {
        print_message("SKIP: %s cannot import jsonschema (apt-get install python3-jsonschema)\n", CLI_PYTHON);
        skip();
    }
    char dir[256];
    cli_tempdir(dir, sizeof dir);
    cli_result r;

    CLI_RUN(&r, "info", "--format", "json");
    cli_expect_status(&r, 0);
    cli_schema_case(dir, "info.json", &r, "info", 0);
    cli_free(&r);
    CLI_RUN(&r, "list", "--format", "json");
    cli_expect_status(&r, 0);
    cli_schema_case(dir, "list.json", &r, "list", 0);
    cli_free(&r);
    CLI_RUN(&r, "list", "--check", "--format", "json");
    cli_expect_status(&r, 0);
    cli_schema_case(dir, "check.json", &r, "lesson-check", 0);
    cli_free(&r);
    if (cli_can_cook) {
        CLI_RUN(&r, "run", "3", "--format", "json", "--backend", cli_backend);
        cli_expect_status(&r, 0);
        cli_schema_case(dir, "lesson-run.json", &r, "lesson-run", 0);
        cli_free(&r);
    }
    if (strcmp(cli_backend, "emu") == 0) {
        /* a run stopped before cooking still writes a valid report */
        CLI_RUN(&r, "run", "matmul-tiled", "--threads-per-block", "128", "--format", "json", "--backend", "emu");
        cli_expect_status(&r, CHEF_EXIT_USAGE);
        cli_schema_case(dir, "run-usage.json", &r, NULL, 0);
        cli_free(&r);
    }
    if (!cli_can_cook) {
        print_message("SKIP: run reports: no usable GPU (%s)\n", cli_no_gpu);
        cli_cleanup(dir, NULL);
        return;
    }
    char trace[600];
    snprintf(trace, sizeof trace, "%s/trace.json", dir);
    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--format", "json", "--trace", trace, "--backend", cli_backend);
    cli_expect_status(&r, 0);
    cli_schema_case(dir, "run-passed.json", &r, NULL, 0);
    {
        cli_result tr;
        assert_int_equal(cli_check_schema(trace, "trace", &tr), 0);
        cli_free(&tr);
        unlink(trace);
    }
    /* the same report with one field renamed, or a status outside the enum, must fail */
    json_t *j = cli_json(&r);
    json_t *cook = json_object_get(json_object_get(j, "steps"), "cook");
    json_object_set(cook, "milliseconds", json_object_get(cook, "ms"));
    json_object_del(cook, "ms");
    cli_result bad;
    memset(&bad, 0, sizeof bad);
    snprintf(bad.line, sizeof bad.line, "(steps.cook.ms renamed)");
    bad.out = json_dumps(j, 0);
    cli_schema_case(dir, "run-renamed.json", &bad, NULL, 1);
    free(bad.out);
    json_decref(j);
    j = cli_json(&r);
    json_object_set_new(j, "status", json_string("fine"));
    bad.out = json_dumps(j, 0);
    snprintf(bad.line, sizeof bad.line, "(status changed)");
    cli_schema_case(dir, "run-status.json", &bad, NULL, 1);
    free(bad.out);
    json_decref(j);
    j = cli_json(&r);
    json_object_set_new(j, "surprise", json_true());
    bad.out = json_dumps(j, 0);
    snprintf(bad.line, sizeof bad.line, "(a field added at the top)");
    cli_schema_case(dir, "run-added.json", &bad, NULL, 1);
    free(bad.out);
    json_decref(j);
    cli_free(&r);

    CLI_RUN(&r, "run", "vector-add", "--n", "1000", "--blocks", "2", "--format", "json", "--backend", cli_backend);
    cli_expect_status(&r, CHEF_EXIT_WRONG);
    cli_schema_case(dir, "run-wrong.json", &r, NULL, 0);
    cli_free(&r);
    CLI_RUN(&r, "run", "matmul-tiled", "--n", "40", "--repeat", "1", "--format", "json", "--backend", cli_backend);
    cli_expect_status(&r, 0);
    cli_schema_case(dir, "run-matmul.json", &r, NULL, 0);
    cli_free(&r);
    if (strcmp(cli_backend, "emu") == 0 && cli_has_recipe("vector-add-unguarded")) {
        CLI_RUN(&r, "run", "vector-add-unguarded", "--n", "1000", "--format", "json", "--backend", "emu");
        cli_expect_status(&r, CHEF_EXIT_CRASH);
        cli_schema_case(dir, "run-crash.json", &r, NULL, 0);
        cli_free(&r);
    }
    CLI_RUN(&r, "run", "vector-add", "--n", "4", "--threads-per-block", "4", "--pinned", "--format", "json",
            "--backend", cli_backend);
    cli_expect_status(&r, 0);
    cli_schema_case(dir, "run-small.json", &r, NULL, 0);
    cli_free(&r);
    assert_int_equal(cli_count_entries(dir), 0);
    cli_cleanup(dir, NULL);
}

/* Reads the settings from the environment, then runs the cases. */

/* The lessons whose demos test_lesson_demos cooks under valgrind's memcheck (20-60 times slower):
   those that cook in about a second natively, 6 minutes under memcheck in all. Among them are
   demos of every kind (the test checks it against every lesson.ini), so every way the program runs
   a demo runs under memcheck; lessons 10 and 12 to 16 cook larger kernels for 2 to 8 s natively
   (5 to 10 minutes each under memcheck), and make test cooks them. */
static const int cli_memcheck_lessons[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 17};

/* 1 when lesson number n is one of cli_memcheck_lessons. */
static int cli_memcheck_lesson(int n)
{
    for (size_t i = 0; i < sizeof cli_memcheck_lessons / sizeof *cli_memcheck_lessons; i++)
        if (cli_memcheck_lessons[i] == n)
            return 1;
    return 0;
}

/* Adds to kinds (an object used as a set) the kind of every demo of the lesson.ini files named. */
static void cli_demo_kinds(const glob_t *folders, json_t *kinds)
{
    for (size_t i = 0; i < folders->gl_pathc; i++) {
        char path[512], line[256], kind[64];
        snprintf(path, sizeof path, "%s/lesson.ini", folders->gl_pathv[i]);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        while (fgets(line, sizeof line, f))
            if (sscanf(line, " kind = %63s", kind) == 1)
                json_object_set_new(kinds, kind, json_true());
        fclose(f);
    }
}

/* Under memcheck, one demo of each kind the lessons of cli_memcheck_lessons lack, at a size that
   keeps memcheck's pace bearable (make test cooks them whole). */
static const char *const cli_memcheck_demos[][8] = {
    {"18", "--demo", "cards", NULL},
    {"18", "--demo", "roofline", "--n", "64", NULL},
    {"19", "--demo", "overlap", "--n", "65536", "--steps", "2", NULL},
    {"20", "--demo", "three-ways", "--n", "65536", NULL},
};

/* Cooks a lesson's demos (args: the lesson and any options, NULL-terminated) on the test backend
   as JSON: every demo shows what it is meant to, on that backend, and its kind goes into
   cooked_kinds; the JSON is checked against the schema in schema_dir when that is not NULL. */
static void cli_cook_lesson(const char *const *args, json_t *cooked_kinds, const char *schema_dir)
{
    const char *argv[16];
    int c = 0;
    argv[c++] = "run";
    for (int i = 0; args[i] && c < 11; i++)
        argv[c++] = args[i];
    argv[c++] = "--backend";
    argv[c++] = cli_backend;
    argv[c++] = "--format";
    argv[c++] = "json";
    argv[c] = NULL;
    double t0 = test_now_s();
    cli_result r;
    cli_runv(&r, argv);
    json_t *j = cli_json(&r);
    json_t *demos = json_object_get(j, "demos");
    print_message("lesson %2s%s%s: %zu demos, exit %d, %.1f s\n", args[0], args[1] ? " " : "", args[1] ? args[2] : "",
                  json_array_size(demos), r.status, test_now_s() - t0);
    for (size_t i = 0; i < json_array_size(demos); i++) {
        json_t *d = json_array_get(demos, i);
        if (!json_is_true(json_object_get(d, "as_expected"))) {
            print_message("    demo %s: expected %s, outcome %s\n", cli_str(d, "name"), cli_str(d, "expect"),
                          cli_str(d, "outcome"));
            cli_show(&r);
        }
        assert_true(json_is_true(json_object_get(d, "as_expected")));
        assert_string_equal(cli_str(d, "backend"), cli_backend);
        json_object_set_new(cooked_kinds, cli_str(d, "kind"), json_true());
    }
    cli_expect_status(&r, 0);
    assert_string_equal(cli_str(j, "schema"), "cudachef.lesson-run/1");
    assert_true(json_array_size(demos) >= 1);
    assert_true(json_is_true(json_object_get(j, "as_expected")));
    if (schema_dir)
        cli_schema_case(schema_dir, "lesson.json", &r, "lesson-run", 0);
    json_decref(j);
    cli_free(&r);
}

/* Every demo of every lesson shows what it is meant to show on the test backend, as JSON. */
static void test_lesson_demos(void **state)
{
    (void)state;
    cli_need_kitchen();
    /* each lesson's JSON is also checked against its schema where jsonschema is installed */
    int schema = cli_have_jsonschema();
    char dir[256];
    if (schema)
        cli_tempdir(dir, sizeof dir);
    /* every lesson folder's demos; under valgrind's memcheck those of cli_memcheck_lessons, which
       must hold a demo of every kind that any lesson has */
    glob_t folders;
    assert_int_equal(glob("lessons/[0-9][0-9]-*", GLOB_ONLYDIR, NULL, &folders), 0);
    int lessons = (int)folders.gl_pathc;
    assert_true(lessons >= 17);
    json_t *kinds = json_object(), *cooked_kinds = json_object();
    cli_demo_kinds(&folders, kinds);
    globfree(&folders);
    int memcheck = test_under_memory_tool();
    if (memcheck)
        print_message("under a memory tool: the demos of %zu lessons of %d, every kind of demo among them (make test "
                      "runs all)\n", sizeof cli_memcheck_lessons / sizeof *cli_memcheck_lessons, lessons);
    for (int n = 1; n <= lessons; n++) {
        if (memcheck && !cli_memcheck_lesson(n))
            continue;
        char number[16];
        snprintf(number, sizeof number, "%d", n);
        const char *args[] = {number, NULL};
        cli_cook_lesson(args, cooked_kinds, schema ? dir : NULL);
    }
    /* under memcheck, one smaller demo of each kind the lessons above lack */
    for (size_t i = 0; memcheck && i < sizeof cli_memcheck_demos / sizeof *cli_memcheck_demos; i++)
        cli_cook_lesson(cli_memcheck_demos[i], cooked_kinds, schema ? dir : NULL);
    globfree(&folders);
    if (schema)
        cli_cleanup(dir, NULL);
    /* every kind of demo that a lesson.ini names was cooked (under memcheck too) */
    const char *kind;
    json_t *value;
    assert_true(json_object_size(kinds) >= 7); /* info, run, compare, clock, race, trips, walk */
    json_object_foreach(kinds, kind, value) {
        if (!json_object_get(cooked_kinds, kind))
            print_message("no demo of kind %s was cooked\n", kind);
        assert_non_null(json_object_get(cooked_kinds, kind));
    }
    json_decref(kinds);
    json_decref(cooked_kinds);
}

/* Lessons on the command line: list, read, run one demo, mistakes, --lang, a broken lesson file. */
static void test_lesson_commands(void **state)
{
    (void)state;
    cli_result r;
    /* without HOME or a state folder the demos run, and the progress they cannot save is said once */
    {
        const char *argv[] = {cli_bin, "run", "3", NULL};
        const char *env[] = {"HOME", "CUDACHEF_STATE_HOME", "XDG_STATE_HOME", NULL};
        cli_how how = {env, NULL, 120, 0, 0};
        cli_exec_with(&r, cli_bin, argv, &how);
        cli_expect_status(&r, 0);
        const char *first = strstr(r.err, "progress not saved");
        if (!first || strstr(first + 1, "progress not saved"))
            fail_msg("run 3 without HOME should say once that progress is not saved:\n%s", r.err);
        cli_free(&r);
    }
    /* Korean is UTF-8: a locale of another character set gets English, and a note saying why */
    {
        const char *argv[] = {cli_bin, "info", NULL};
        const char *env[] = {"LC_ALL=ko_KR.EUC-KR", NULL};
        cli_how how = {env, NULL, 60, 0, 0};
        cli_exec_with(&r, cli_bin, argv, &how);
        cli_expect_status(&r, 0);
        for (const unsigned char *p = (const unsigned char *)r.out; *p; p++)
            if (*p >= 0x80)
                fail_msg("info under ko_KR.EUC-KR wrote UTF-8 bytes:\n%s", r.out);
        cli_expect_contains(&r, r.err, "EUC-KR");
        cli_free(&r);
    }
    CLI_RUN(&r, "list", "--check");
    cli_expect_status(&r, 0);
    cli_expect_contains(&r, r.out, "lessons loaded: 21, problems: 0");
    cli_free(&r);

    CLI_RUN(&r, "list");
    cli_expect_status(&r, 0);
    cli_expect_contains(&r, r.out, " 1  ");
    cli_expect_contains(&r, r.out, "11  ");
    cli_free(&r);

    CLI_RUN(&r, "read", "3");
    cli_expect_status(&r, 0);
    cli_expect_contains(&r, r.out, "cudachef run 3 --demo last-team");
    cli_expect_contains(&r, r.out, ">>  "); /* a marked kernel line */
    cli_free(&r);

    CLI_RUN(&r, "read", "1", "--answers", "--lang", "ko");
    cli_expect_status(&r, 0);
    cli_expect_contains(&r, r.out, "총괄 셰프");
    cli_free(&r);

    /* the learner's order of the choices: the same on the next run (the seed is kept in the state
       folder), the file's with --file-order and with CUDACHEF_ANSWER_SEED=0 */
    cli_result again, file, zero;
    CLI_RUN(&r, "read", "4", "--answers");
    CLI_RUN(&again, "read", "4", "--answers");
    CLI_RUN(&file, "read", "4", "--answers", "--file-order");
    setenv("CUDACHEF_ANSWER_SEED", "0", 1);
    CLI_RUN(&zero, "read", "4", "--answers");
    unsetenv("CUDACHEF_ANSWER_SEED");
    cli_expect_status(&r, 0);
    cli_expect_status(&file, 0);
    assert_string_equal(r.out, again.out);
    assert_string_equal(file.out, zero.out);
    assert_true(strlen(r.out) == strlen(file.out)); /* the same choices, only in other places */
    char seed_path[4200];
    const char *state_home = getenv("CUDACHEF_STATE_HOME");
    snprintf(seed_path, sizeof seed_path, "%s/answer-seed", state_home ? state_home : "");
    struct stat seed_st;
    assert_true(!state_home || stat(seed_path, &seed_st) == 0);
    cli_free(&r);
    cli_free(&again);
    cli_free(&file);
    cli_free(&zero);

    CLI_RUN(&r, "read", "1", "--page", "999");
    cli_expect_usage_error(&r);
    cli_free(&r);
    CLI_RUN(&r, "read", "no-such-lesson");
    cli_expect_usage_error(&r);
    cli_free(&r);
    CLI_RUN(&r, "run", "3", "--demo", "no-such-demo");
    cli_expect_usage_error(&r);
    cli_expect_contains(&r, r.err, "last-team");
    cli_free(&r);
    CLI_RUN(&r, "run", "99");
    cli_expect_usage_error(&r);
    cli_free(&r);
    CLI_RUN(&r, "run", "vector-add", "--demo", "tiny");
    cli_expect_usage_error(&r);
    cli_free(&r);
    CLI_RUN(&r, "--lang", "fr", "list");
    cli_expect_usage_error(&r);
    cli_free(&r);
    char trace[320];
    snprintf(trace, sizeof trace, "%s/x.json", test_tmp_dir()); /* refused: never written */
    CLI_RUN(&r, "run", "2", "--trace", trace);
    cli_expect_usage_error(&r);
    cli_free(&r);
    CLI_RUN(&r, "run", "3", "--sizes", "32 64"); /* lesson 3 has no race to sweep */
    cli_expect_usage_error(&r);
    cli_free(&r);
    CLI_RUN(&r, "run", "7", "--demo", "clock", "--steps", "3"); /* steps go with a trips demo */
    cli_expect_usage_error(&r);
    cli_free(&r);

    if (cli_can_cook) {
        /* one demo, its parameters changed, in Korean */
        CLI_RUN(&r, "run", "2", "--demo", "tiny", "--backend", cli_backend, "--lang", "ko");
        cli_expect_status(&r, 0);
        cli_expect_contains(&r, r.out, "tiny");
        cli_free(&r);
        CLI_RUN(&r, "run", "3", "--demo", "last-team", "--n", "2000", "--backend", cli_backend, "--format", "json");
        cli_expect_status(&r, 0);
        json_t *j = cli_json(&r);
        json_t *d = json_array_get(json_object_get(j, "demos"), 0);
        assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(d, "report"), "params"), "n")), 2000);
        assert_int_equal(json_array_size(json_object_get(j, "demos")), 1);
        json_decref(j);
        cli_free(&r);
    }

    /* a broken copy of a lesson: named with its file and line, the others still load */
    char dir[512], path[700], cmd[1600];
    cli_tempdir(dir, sizeof dir);
    snprintf(cmd, sizeof cmd, "cp -r lessons/01-meet-your-kitchen lessons/02-five-steps '%s'/ && "
                              "sed -i 's/^- \\[x\\]/- [ ]/' '%s'/02-five-steps/en.md", dir, dir);
    assert_int_equal(system(cmd), 0);
    setenv("CUDACHEF_LESSONS", dir, 1);
    CLI_RUN(&r, "list", "--check");
    cli_expect_status(&r, 1);
    cli_expect_contains(&r, r.out, "02-five-steps/en.md:");
    cli_expect_contains(&r, r.out, "exactly one right choice");
    cli_expect_contains(&r, r.out, "lessons loaded: 1,");
    cli_free(&r);
    CLI_RUN(&r, "run", "2", "--backend", "emu");
    cli_expect_status(&r, 2);
    cli_expect_contains(&r, r.err, "02-five-steps/en.md:");
    cli_free(&r);
    CLI_RUN(&r, "read", "five-steps");
    cli_expect_status(&r, 2);
    cli_expect_contains(&r, r.err, "02-five-steps/en.md:");
    cli_free(&r);
    CLI_RUN(&r, "list");
    cli_expect_status(&r, 0); /* the good lesson is listed, the problem goes to stderr */
    cli_expect_contains(&r, r.err, "exactly one right choice");
    cli_free(&r);
    snprintf(path, sizeof path, "%s/none", dir);
    setenv("CUDACHEF_LESSONS", path, 1);
    CLI_RUN(&r, "list"); /* no lessons folder: said on stderr, the recipes still listed */
    cli_expect_status(&r, 0);
    cli_expect_contains(&r, r.err, "cannot read the lessons folder");
    cli_expect_contains(&r, r.out, "vector-add");
    cli_free(&r);
    CLI_RUN(&r, "list", "--check");
    cli_expect_status(&r, CHEF_EXIT_ENVIRONMENT);
    cli_free(&r);
    unsetenv("CUDACHEF_LESSONS");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    /* the interface language comes from --lang only */
    unsetenv("LANGUAGE");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    setenv("LANG", "C.UTF-8", 1);
    const char *bin = getenv("CUDACHEF_BIN");
    if (bin && *bin)
        cli_bin = bin;
    const char *want = getenv("CUDACHEF_TEST_BACKEND");
    if (want && strcmp(want, "gpu") == 0) {
        cli_backend = "gpu";
        backend_info info;
        memset(&info, 0, sizeof info);
        if (backend_gpu_probe(&info) != 0) {
            cli_can_cook = 0;
            snprintf(cli_no_gpu, sizeof cli_no_gpu, "%s", info.no_gpu_reason[0] ? info.no_gpu_reason : "unknown reason");
            printf("SKIP: no usable GPU (%s): only the cases that do not cook run\n", cli_no_gpu);
        }
    }
    if (access(cli_bin, X_OK) != 0) {
        fprintf(stderr, "test_cli: %s is not an executable (build it with make, or set CUDACHEF_BIN)\n", cli_bin);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_no_arguments),
        cmocka_unit_test(test_unknown_command),
        cmocka_unit_test(test_option_given_twice),
        cmocka_unit_test(test_reduced_is_a_code),
        cmocka_unit_test(test_json_same_in_every_language),
        cmocka_unit_test(test_run_usage_errors),
        cmocka_unit_test(test_no_gpu_is_environment_error),
        cmocka_unit_test(test_counting_example),
        cmocka_unit_test(test_too_few_blocks),
        cmocka_unit_test(test_out_of_bounds_is_crash),
        cmocka_unit_test(test_info_and_list_json),
        cmocka_unit_test(test_run_json),
        cmocka_unit_test(test_trace_file),
        cmocka_unit_test(test_trace_missing_folder),
        cmocka_unit_test(test_json_schema),
        cmocka_unit_test(test_lesson_commands),
        cmocka_unit_test(test_lesson_demos),
    };
    printf("test_cli: %s, backend %s\n", cli_bin, cli_backend);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
