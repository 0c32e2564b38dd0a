/*
 * test_security.c - what lesson and exercise files cannot make cudachef do (docs/SECURITY.md).
 *
 * Lessons and exercises are data a teacher edits: nothing in them may run a command, reach a file
 * outside the data folders, or send the terminal control codes. Each case copies lesson 1 (and
 * one exercise) into a temporary folder, puts shell syntax ($(...), backticks, ;, |, &&), paths and
 * control characters into one field, and drives the real program (build/cudachef, or
 * $CUDACHEF_BIN) through CUDACHEF_LESSONS, CUDACHEF_KERNELS and CUDACHEF_EXERCISES: a text field
 * is shown as text, any other field is refused with its file and line, and the marker file that
 * the shell syntax would make never appears.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "test_exec.h"

static const char *sec_bin; /* the program (cli_prepare) */
static char sec_dir[512];    /* the case's temporary folder */
static char sec_marker[600]; /* what the shell syntax would create */

/* Runs a shell command of the test itself (copying, cleaning up), which must succeed. */
static void sec_shell(const char *fmt, ...)
{
    char command[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(command, sizeof command, fmt, ap);
    va_end(ap);
    assert_int_equal(system(command), 0);
}

/* A fresh folder with copies of lesson 1, the kernels and the exercise bounds-check, and the
   variables that make cudachef read them. */
static int sec_setup(void **state)
{
    (void)state;
    snprintf(sec_dir, sizeof sec_dir, "%s/cudachef-security-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(sec_dir));
    /* the marker's path is written into lesson lines, which hold 200 bytes: two of it and the
       words around them fit when it is at most 80 (unique by the pid; removed in the teardown) */
    snprintf(sec_marker, sizeof sec_marker, "%s/cdm-%ld", test_tmp_dir(), (long)getpid());
    if (strlen(sec_marker) > 80)
        fail_msg("TMPDIR is too long for the marker written into lesson lines (%s: %zu bytes, at most 80)", sec_marker,
                 strlen(sec_marker));
    unlink(sec_marker);
    sec_shell("mkdir -p '%s/lessons' '%s/exercises/03-teams-and-cooks' && cp -R '%s/lessons/01-meet-your-kitchen' "
              "'%s/lessons/' && cp -R '%s/kernels' '%s/kernels' && cp -R '%s/exercises/03-teams-and-cooks/bounds-check' "
              "'%s/exercises/03-teams-and-cooks/'",
              sec_dir, sec_dir, test_source_dir(), sec_dir, test_source_dir(), sec_dir, test_source_dir(), sec_dir);
    char path[700];
    snprintf(path, sizeof path, "%s/lessons", sec_dir);
    setenv("CUDACHEF_LESSONS", path, 1);
    snprintf(path, sizeof path, "%s/kernels", sec_dir);
    setenv("CUDACHEF_KERNELS", path, 1);
    snprintf(path, sizeof path, "%s/exercises", sec_dir);
    setenv("CUDACHEF_EXERCISES", path, 1);
    return 0;
}

/* Removes the case's folder. */
static int sec_teardown(void **state)
{
    (void)state;
    sec_shell("rm -rf '%s' '%s'", sec_dir, sec_marker);
    unsetenv("CUDACHEF_LESSONS");
    unsetenv("CUDACHEF_KERNELS");
    unsetenv("CUDACHEF_EXERCISES");
    return 0;
}

/* Replaces the first `old` in the case's copy of file (relative to its folder) with `new`. */
static void sec_replace(const char *file, const char *old, const char *new)
{
    char path[900];
    snprintf(path, sizeof path, "%s/%s", sec_dir, file);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = cli_slurp(f);
    fclose(f);
    char *at = strstr(text, old);
    if (!at)
        fail_msg("%s does not hold '%s'", file, old);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
    assert_int_equal(fclose(f), 0);
    free(text);
}

/* Runs cudachef with the arguments listed (NULL-ended), on the emulator where it cooks. */
static void sec_run(cli_result *r, ...)
{
    const char *argv[16];
    int n = 0;
    argv[n++] = sec_bin;
    va_list ap;
    va_start(ap, r);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 15;)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    cli_exec(r, sec_bin, argv);
}

/* Fails when the marker exists: some command ran the shell syntax. */
static void sec_no_marker(const char *after)
{
    if (access(sec_marker, F_OK) == 0)
        fail_msg("%s made %s: a command from lesson data was run", after, sec_marker);
}

/* Shell syntax in every text field (titles, summaries, demo titles, pages, code blocks) is shown as
   it is written and never run; a kernel directive in a code block that names a path out of the
   kernels folder shows nothing of the file it names. */
static void test_text_fields_are_shown_as_text(void **state)
{
    (void)state;
    char value[4096];
    const char *ini = "lessons/01-meet-your-kitchen/lesson.ini";
    snprintf(value, sizeof value, "title.en   = Meet $(touch %s) kitchen", sec_marker);
    sec_replace(ini, "title.en   = Meet your kitchen", value);
    snprintf(value, sizeof value, "title.ko   = `touch %s`", sec_marker);
    sec_replace(ini, "title.ko   = 주방과 인사하기", value);
    snprintf(value, sizeof value, "summary.en = x;touch %s x|touch %s", sec_marker, sec_marker);
    sec_replace(ini, "summary.en = The head chef", value);
    snprintf(value, sizeof value, "title.en = Who cooks x&&touch %s $HOME", sec_marker);
    sec_replace(ini, "title.en = Who cooks on this machine", value);
    /* a page's text, an HTML comment that is no directive, a code block with a directive in it */
    sec_shell("printf 'SECRET-CONTENT\\n' > '%s/secret.cu'", sec_dir);
    snprintf(value, sizeof value,
             "<!-- kernel vector_add -->\n\nPayload: $(touch %s) and `touch %s` and x;touch %s.\n\n"
             "<!-- demo $(touch %s) -->\n\n```\n<!-- kernel ../secret -->\n$(touch %s)\n```\n",
             sec_marker, sec_marker, sec_marker, sec_marker, sec_marker);
    sec_replace("lessons/01-meet-your-kitchen/en.md", "<!-- kernel vector_add -->\n", value);
    sec_replace("lessons/01-meet-your-kitchen/ko.md", "<!-- kernel vector_add -->\n", value);

    cli_result r;
    sec_run(&r, "list", "--check", NULL);
    if (r.status != 0)
        fail_msg("list --check: %d\n%s%s", r.status, r.out, r.err);
    cli_free(&r);
    sec_no_marker("list --check");
    sec_run(&r, "list", "--format", "json", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "$(touch "));
    cli_free(&r);
    sec_run(&r, "read", "1", "--page", "2", NULL);
    if (r.status != 0)
        fail_msg("read: %d\n%s", r.status, r.err);
    assert_non_null(strstr(r.out, "Payload: $(touch "));
    assert_null(strstr(r.out, "SECRET-CONTENT"));
    assert_non_null(strstr(r.out, "the kernel file could not be read"));
    cli_free(&r);
    sec_no_marker("read");
    sec_run(&r, "read", "1", "--answers", "--lang", "ko", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "touch "));
    cli_free(&r);
    sec_run(&r, "run", "1", "--backend", "emu", NULL);
    if (r.status != 0)
        fail_msg("run 1: %d\n%s%s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "x&&touch "));
    cli_free(&r);
    sec_no_marker("run 1");
}

/* One field that is not text, and what list --check says of it. */
typedef struct sec_refusal {
    const char *file, *old, *new_fmt; /* new_fmt: %1$s is the marker */
    const char *says;
} sec_refusal;

/* Every field that names something (a kernel, a mark, a demo, a recipe, a kind, a number) refuses
   shell syntax and paths; no text may hold control characters. Each is named with its file and
   line by list --check (exit 1) and stops read (exit 2); nothing is run. */
static void test_names_with_shell_syntax_are_refused(void **state)
{
    (void)state;
    static const sec_refusal cases[] = {
        {"lesson.ini", "kernels    = vector_add", "kernels    = vector_add $(touch %1$s)", "a kernel is named by its file"},
        {"lesson.ini", "kernels    = vector_add", "kernels    = ../../../../../../../%1$s", "a kernel is named by its file"},
        {"lesson.ini", "marks      = the-work", "marks      = the-work;touch%1$s", "mark 'the-work;touch"},
        {"lesson.ini", "[demo roll-call]", "[demo roll-call`touch %1$s`]", "a demo name is"},
        {"lesson.ini", "recipe   = vector-add", "recipe   = vector-add;touch %1$s", "no such recipe"},
        {"lesson.ini", "kind     = run", "kind     = run|touch %1$s", "use run, compare"},
        {"lesson.ini", "n        = 64", "n        = 64$(touch %1$s)", "expected a whole number"},
        {"lesson.ini", "title.en   = Meet your kitchen", "title.en   = Meet \033]0;owned\007 kitchen", "control character U+001B"},
        {"en.md", "<!-- kernel vector_add -->", "<!-- kernel ../../../../../../..%1$s -->", "a kernel is named by its file"},
        {"en.md", "# Grid, teams and cooks\n", "# Grid, teams and cooks\n\nA \302\233 CSI.\n", "control character U+009B"},
        {"ko.md", "<!-- kernel vector_add -->", "<!-- kernel $(touch%1$s) -->", "a kernel is named by its file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const sec_refusal *c = &cases[i];
        sec_shell("rm -rf '%s/lessons/01-meet-your-kitchen' && cp -R '%s/lessons/01-meet-your-kitchen' '%s/lessons/'",
                  sec_dir, test_source_dir(), sec_dir);
        char file[200], value[2048];
        snprintf(file, sizeof file, "lessons/01-meet-your-kitchen/%s", c->file);
        snprintf(value, sizeof value, c->new_fmt, sec_marker);
        sec_replace(file, c->old, value);
        cli_result r;
        sec_run(&r, "list", "--check", NULL);
        char said[8192];
        snprintf(said, sizeof said, "%s%s", r.out, r.err);
        if (r.status != 1 || !strstr(said, c->says) || !strstr(said, c->file))
            fail_msg("case %zu (%s): list --check gave %d, without '%s' at %s:\n%s%s", i, value, r.status, c->says,
                     c->file, r.out, r.err);
        cli_free(&r);
        sec_run(&r, "read", "1", NULL);
        if (r.status != CHEF_EXIT_USAGE)
            fail_msg("case %zu (%s): read gave %d, not 2", i, value, r.status);
        cli_free(&r);
        sec_run(&r, "run", "1", "--backend", "emu", NULL);
        assert_int_equal(r.status, CHEF_EXIT_USAGE);
        cli_free(&r);
        sec_no_marker(value);
    }
}

/* An exercise's kernel name is written into the C its checks are built with: it must be a C name;
   its task and hints go to the terminal: no control characters. */
static void test_exercise_fields_are_refused(void **state)
{
    (void)state;
    const char *dir = "exercises/03-teams-and-cooks/bounds-check";
    char file[300], value[2048];
    snprintf(file, sizeof file, "%s/exercise.ini", dir);
    snprintf(value, sizeof value, "kernel = vector_add, 4, (int)) system(\"touch %s\"); (", sec_marker);
    sec_replace(file, "kernel = vector_add", value);
    cli_result r;
    sec_run(&r, "exercise", "bounds-check", NULL);
    if (r.status != CHEF_EXIT_USAGE || !strstr(r.err, "kernel must be a C name") || !strstr(r.err, "exercise.ini:6"))
        fail_msg("exercise gave %d:\n%s", r.status, r.err);
    cli_free(&r);
    sec_run(&r, "grade", "--solutions", "--backend", "emu", "bounds-check", NULL);
    char flat[8192]; /* the row wraps where the page ends: read it as one line */
    size_t w = 0;
    for (const char *c = r.out; *c && w + 1 < sizeof flat; c++)
        if (!isspace((unsigned char)*c) || (w > 0 && flat[w - 1] != ' '))
            flat[w++] = isspace((unsigned char)*c) ? ' ' : *c;
    flat[w] = '\0';
    if (r.status != CHEF_EXIT_ENVIRONMENT || !strstr(flat, "kernel must be a C name")) /* its row says it is broken */
        fail_msg("grade gave %d:\n%s\n%s", r.status, r.out, r.err);
    cli_free(&r);
    sec_no_marker("grade");
    sec_replace(file, value, "kernel = vector_add");
    snprintf(file, sizeof file, "%s/task.en.md", dir);
    sec_replace(file, "# The last team's idle cooks", "# The last team's \033[2J idle cooks");
    sec_run(&r, "exercise", "bounds-check", NULL);
    if (r.status != CHEF_EXIT_USAGE || !strstr(r.err, "control character U+001B") || !strstr(r.err, "task.en.md:1"))
        fail_msg("exercise gave %d:\n%s", r.status, r.err);
    assert_null(strchr(r.out, '\033'));
    cli_free(&r);
}

/* A translation is a printf format: one that asks for other arguments than its English (%n, one
   %s more, a star) is dropped when loaded and the English shown; every shipped one is kept. */
static void test_translations_cannot_change_formats(void **state)
{
    (void)state;
    char dir[900];
    snprintf(dir, sizeof dir, "%s/assets/i18n/ko", sec_dir);
    sec_shell("mkdir -p '%s' && cp '%s'/assets/i18n/ko/*.json '%s/'", dir, test_source_dir(), dir);
    FILE *f = fopen(strcat(dir, "/zz-evil.json"), "w");
    assert_non_null(f);
    fputs("{\"cannot write %s: %s\": \"%s %s %n\", \"wrong with n = %lld: right %zu of %zu\": \"%s%s%s\",\n"
          " \"%s is missing\": \"%.*s\", \"no GPU to cook on: %s\": \"GPU %s\"}\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(i18n_init(I18N_KO, sec_dir), 0);
    assert_string_equal(i18n_get("cannot write %s: %s"), "cannot write %s: %s");
    assert_string_equal(i18n_get("wrong with n = %lld: right %zu of %zu"), "wrong with n = %lld: right %zu of %zu");
    assert_string_equal(i18n_get("%s is missing"), "%s is missing");
    assert_string_equal(i18n_get("no GPU to cook on: %s"), "GPU %s"); /* the same arguments: kept */
    /* every shipped translation survives the check */
    snprintf(dir, sizeof dir, "%s/assets/i18n/ko", test_source_dir());
    assert_int_equal(i18n_init(I18N_KO, test_source_dir()), 0);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int kept = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_t *o = json_load_file(path, 0, NULL);
        assert_non_null(o);
        const char *key;
        json_t *value;
        json_object_foreach(o, key, value) {
            if (strcmp(i18n_get(key), json_string_value(value)) != 0)
                fail_msg("%s: the translation of \"%s\" was dropped", e->d_name, key);
            kept++;
        }
        json_decref(o);
    }
    closedir(d);
    assert_true(kept > 100);
    i18n_init(I18N_EN, test_source_dir());
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    if (!(sec_bin = cli_prepare("test_security", "build/cudachef")))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_text_fields_are_shown_as_text, sec_setup, sec_teardown),
        cmocka_unit_test_setup_teardown(test_names_with_shell_syntax_are_refused, sec_setup, sec_teardown),
        cmocka_unit_test_setup_teardown(test_exercise_fields_are_refused, sec_setup, sec_teardown),
        cmocka_unit_test_setup_teardown(test_translations_cannot_change_formats, sec_setup, sec_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
