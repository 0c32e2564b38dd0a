/*
 * test_progress.c - the progress file: records made, states derived, lines of other versions
 * kept, resets, files that cannot be used, two writers at once, and kills in the middle of saves.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "lessons/lesson.h"
#include "lessons/progress.h"
#include "test_tree.h"

static char test_dir[200];

/* Points CUDACHEF_STATE_HOME at a new empty folder. */
static int progress_setup(void **state)
{
    (void)state;
    snprintf(test_dir, sizeof test_dir, "%s/cudachef-progress-XXXXXX", test_tmp_dir());
    if (!mkdtemp(test_dir))
        return -1;
    return setenv("CUDACHEF_STATE_HOME", test_dir, 1);
}

/* Removes the folder and what is in it. */
static int progress_teardown(void **state)
{
    (void)state;
    char cmd[320];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text as the progress file. */
static void write_file(const char *text)
{
    char path[320];
    snprintf(path, sizeof path, "%s/progress", test_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* No file yet: nothing done, and loading is not an error. */
static void test_missing_is_empty(void **state)
{
    (void)state;
    progress p;
    chef_error err = {0};
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(p.count, 0);
    assert_int_equal(progress_state_of(&p, "first-kernel"), PROGRESS_NOT_STARTED);
    assert_int_equal(progress_page_of(&p, "first-kernel"), -1);
    progress_free(&p);
}

/* Pages move the place; the last page marks the lesson read; demos and exercises go further. */
static void test_states(void **state)
{
    (void)state;
    chef_error err = {0};
    progress p;
    assert_int_equal(progress_page("first-kernel", 2, 7, NULL, &err), 0);
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(progress_state_of(&p, "first-kernel"), PROGRESS_STARTED);
    assert_int_equal(progress_page_of(&p, "first-kernel"), 2);
    assert_int_equal(progress_state_of(&p, "teams"), PROGRESS_NOT_STARTED);
    progress_free(&p);

    assert_int_equal(progress_page("first-kernel", 6, 7, NULL, &err), 0);
    assert_int_equal(progress_page("first-kernel", 1, 7, NULL, &err), 0); /* going back keeps "read" */
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(progress_state_of(&p, "first-kernel"), PROGRESS_READ);
    assert_int_equal(progress_page_of(&p, "first-kernel"), 1);
    assert_int_equal(p.count, 2); /* one page record, one read */
    progress_free(&p);

    assert_int_equal(progress_mark("demo", "first-kernel", "tiny", &err), 0);
    assert_int_equal(progress_mark("demo", "first-kernel", "tiny", &err), 0); /* once only */
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(progress_state_of(&p, "first-kernel"), PROGRESS_DEMO_RUN);
    assert_int_equal(p.count, 3);
    progress_free(&p);

    assert_int_equal(progress_mark("exercise", "first-kernel", "global-index", &err), 0);
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(progress_state_of(&p, "first-kernel"), PROGRESS_EXERCISE_PASSED);
    progress_free(&p);
    assert_string_equal(progress_state_name(PROGRESS_DEMO_RUN), "demo run");
}

/* Lines this version does not understand survive every rewrite, in place. */
static void test_unknown_lines_kept(void **state)
{
    (void)state;
    write_file("# cudachef progress, format 1: see docs/PROGRESS.md\n"
               "badge gold first-kernel\r\n"
               "page teams 3\n"
               "# a note the learner wrote\n");
    chef_error err = {0};
    assert_int_equal(progress_mark("demo", "teams", "grid", &err), 0);
    assert_int_equal(progress_reset("teams", &err), 0);
    progress p;
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(p.count, 2);
    assert_string_equal(p.lines[0], "badge gold first-kernel");
    assert_string_equal(p.lines[1], "# a note the learner wrote");
    progress_free(&p);
}

/* Reset of one lesson leaves the others; reset of all keeps only the lines not understood. */
static void test_reset(void **state)
{
    (void)state;
    chef_error err = {0};
    assert_int_equal(progress_page("a", 0, 1, NULL, &err), 0);
    assert_int_equal(progress_mark("demo", "b", "x", &err), 0);
    assert_int_equal(progress_reset("a", &err), 0);
    progress p;
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(progress_state_of(&p, "a"), PROGRESS_NOT_STARTED);
    assert_int_equal(progress_state_of(&p, "b"), PROGRESS_DEMO_RUN);
    progress_free(&p);
    assert_int_equal(progress_reset(NULL, &err), 0);
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(p.count, 0);
    progress_free(&p);
}

/* Names with spaces or control characters are refused before anything is written. */
static void test_bad_names(void **state)
{
    (void)state;
    chef_error err = {0};
    assert_int_equal(progress_mark("demo", "two words", "x", &err), -1);
    assert_int_equal(err.exit_code, 2);
    assert_int_equal(progress_mark("demo", "a", "", &err), -1);
    assert_int_equal(progress_page("a\nread b", 0, 1, NULL, &err), -1);
    struct stat st;
    char path[320];
    snprintf(path, sizeof path, "%s/progress", test_dir);
    assert_int_not_equal(stat(path, &st), 0);
}

/* A progress "file" that is a folder, or a state folder under a file: a clear error, nothing lost. */
static void test_unusable(void **state)
{
    (void)state;
    char path[320];
    snprintf(path, sizeof path, "%s/progress", test_dir);
    assert_int_equal(mkdir(path, 0700), 0);
    chef_error err = {0};
    progress p;
    assert_int_equal(progress_load(&p, &err), -1);
    assert_int_equal(err.exit_code, 5);
    assert_non_null(strstr(err.message, "not a progress file"));
    assert_int_equal(progress_mark("demo", "a", "b", &err), -1);
    assert_int_equal(rmdir(path), 0); /* still an empty folder: nothing was written over it */

    write_file("page a 1\n");
    char under[320];
    snprintf(under, sizeof under, "%s/progress/state", test_dir);
    assert_int_equal(setenv("CUDACHEF_STATE_HOME", under, 1), 0);
    assert_int_equal(progress_mark("demo", "a", "b", &err), -1);
    assert_non_null(strstr(err.message, "cannot make the folder"));
    assert_int_equal(setenv("CUDACHEF_STATE_HOME", test_dir, 1), 0);
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(p.count, 1);
    progress_free(&p);
}

/* Two processes recording at once lose nothing (the lock, and reading again under it). */
static void test_two_writers(void **state)
{
    (void)state;
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        assert_true(kids[k] >= 0);
        if (kids[k] == 0) {
            chef_error err;
            for (int i = 0; i < 40; i++) {
                char name[32];
                snprintf(name, sizeof name, "w%d-%d", k, i);
                if (progress_mark("demo", "race", name, &err) != 0)
                    _exit(1);
            }
            _exit(0);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status;
        assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    progress p;
    chef_error err;
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(p.count, 80);
    progress_free(&p);
}

/* kill -9 at random moments of a stream of saves, 200 times: the file always loads, each time with
   the old or the new records (a prefix of the ones the writer made, in order, all complete). */
static void test_kill_during_save(void **state)
{
    (void)state;
    chef_error err;
    assert_int_equal(progress_mark("demo", "keep", "me", &err), 0);
    srand(2026);
    int last = 0;
    for (int round = 0; round < 200; round++) {
        pid_t kid = fork();
        assert_true(kid >= 0);
        if (kid == 0) {
            for (int i = 0;; i++) {
                char name[32];
                snprintf(name, sizeof name, "r%d-%d", round, i);
                progress_mark("demo", "kill", name, &err);
            }
        }
        struct timespec t = {0, 200000L + (rand() % 3000) * 1000L};
        nanosleep(&t, NULL);
        kill(kid, SIGKILL);
        waitpid(kid, NULL, 0);
        progress p;
        assert_int_equal(progress_load(&p, &err), 0);
        assert_true(p.count >= (size_t)last + 1);
        assert_string_equal(p.lines[0], "demo keep me");
        for (size_t i = 1; i < p.count; i++)
            assert_non_null(strstr(p.lines[i], "demo kill r"));
        char want[48];
        if (p.count > (size_t)last + 1) { /* this round's records are r<round>-0, -1, ... in order */
            snprintf(want, sizeof want, "demo kill r%d-0", round);
            assert_string_equal(p.lines[last + 1], want);
            snprintf(want, sizeof want, "demo kill r%d-%zu", round, p.count - (size_t)last - 2);
            assert_string_equal(p.lines[p.count - 1], want);
        }
        last = (int)p.count - 1;
        progress_free(&p);
    }
    /* the temporary file a killed save left is gone once a save finishes */
    assert_int_equal(progress_mark("demo", "keep", "end", &err), 0);
    char tmp[320];
    struct stat st;
    snprintf(tmp, sizeof tmp, "%s/.progress.tmp", test_dir);
    assert_int_not_equal(stat(tmp, &st), 0);
}

/* A lesson of English page titles, for progress_resume. */
static lesson progress_fake_lesson(const char **titles, int n, lesson_item *items)
{
    lesson l;
    memset(&l, 0, sizeof l);
    l.slug = "ladder";
    for (int i = 0; i < n; i++) {
        memset(&items[i], 0, sizeof items[i]);
        items[i].title = (char *)titles[i];
    }
    l.text[I18N_EN].items = items;
    l.text[I18N_EN].nitems = n;
    return l;
}

/* The page saved is found again by its anchor when pages are split or added before it; without
   the anchor (an older file) or when the page is gone, the number holds, kept within the lesson. */
static void test_resume_anchor(void **state)
{
    (void)state;
    chef_error err = {0};
    lesson_item items[8], more[8];
    const char *before[] = {"The ladder", "Rung 9: porters", "Rung 9 in the code", "? Why wait"};
    const char *after[] = {"The ladder", "Rung 1", "Rung 2", "Rung 9: porters", "Rung 9 in the code", "? Why wait"};
    lesson l = progress_fake_lesson(before, 4, items), split = progress_fake_lesson(after, 6, more);
    char anchor[64];
    assert_string_equal(lesson_item_anchor(&l, 2, anchor, sizeof anchor), "rung-9-in-the-code");
    assert_string_equal(lesson_item_anchor(&l, 3, anchor, sizeof anchor), "why-wait");
    assert_int_equal(progress_page("ladder", 2, 4, lesson_item_anchor(&l, 2, anchor, sizeof anchor), &err), 0);
    progress p;
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(progress_page_of(&p, "ladder"), 2);
    assert_int_equal(lesson_resume_page(&l, &p), 2);
    assert_int_equal(lesson_resume_page(&split, &p), 4); /* two pages came before it */
    progress_free(&p);

    /* an older record, without an anchor: the number, within the lesson */
    assert_int_equal(progress_reset(NULL, &err), 0);
    assert_int_equal(progress_page("ladder", 5, 6, NULL, &err), 0);
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(lesson_resume_page(&split, &p), 5);
    assert_int_equal(lesson_resume_page(&l, &p), 3);
    progress_free(&p);

    /* the same page again with its anchor rewrites the record; a page gone leaves the number */
    assert_int_equal(progress_page("ladder", 5, 6, "gone-page", &err), 0);
    assert_int_equal(progress_load(&p, &err), 0);
    assert_int_equal(p.count, 2); /* one page record (and read) */
    assert_int_equal(lesson_resume_page(&split, &p), 5);
    progress_free(&p);
    assert_int_equal(progress_page("ladder", 1, 6, "bad anchor", &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_missing_is_empty, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_states, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_resume_anchor, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_unknown_lines_kept, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_reset, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_bad_names, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_unusable, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_two_writers, progress_setup, progress_teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_save, progress_setup, progress_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
