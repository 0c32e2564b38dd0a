/*
 * test_watch.c - noticing a saved file (src/grading/watch.c), with inotify and with polling
 * (CUDACHEF_WATCH=poll): a write in place, a new file renamed over it (as most editors save), a
 * delete and a new file, each seen once; nothing changed, another file of the folder written, or
 * the file missing for now are no change; a folder that goes away leaves the watch polling.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "grading/watch.h"
#include "test_pace.h"
#include "test_tree.h"

/* A temporary folder with a file k.cu in it, for one test. */
typedef struct watch_fixture {
    char dir[200];
    char path[320];
} watch_fixture;

/* Writes text to path (made or emptied first). */
static void watch_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* Makes the folder and the file. */
static void watch_fixture_make(watch_fixture *fx)
{
    snprintf(fx->dir, sizeof fx->dir, "%s/cudachef-watch-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->path, sizeof fx->path, "%s/k.cu", fx->dir);
    watch_write(fx->path, "first\n");
}

/* Removes the folder and what is in it. */
static void watch_fixture_remove(watch_fixture *fx)
{
    char cmd[320];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    assert_int_equal(system(cmd), 0);
}

/* What watch_changed says once the change has arrived: with inotify, after the descriptor became
   readable (the kernel queues the event as the change is made, so it is there at once; the guard,
   scaled by the machine's pace, only stops a wait for one that never comes). */
static int watch_after(watch *w)
{
    if (watch_fd(w) >= 0) {
        struct pollfd p = {watch_fd(w), POLLIN, 0};
        test_guard guard = test_guard_start(60);
        int ready;
        while (((ready = poll(&p, 1, 100)) == 0 || (ready < 0 && errno == EINTR)) && !test_guard_over(&guard)) {
        }
        if (ready <= 0)
            test_guard_fail(test_guard_waited(&guard), "inotify to report the change to the watched file");
    }
    return watch_changed(w);
}

/* What the watch says right now, without waiting (for "no change"). */
static int watch_now(watch *w)
{
    if (watch_fd(w) >= 0) {
        struct pollfd p = {watch_fd(w), POLLIN, 0};
        poll(&p, 1, 50); /* a change would have arrived by now */
    }
    return watch_changed(w);
}

/* The same story in either mode: each kind of save is seen once, and nothing else is. */
static void watch_story(int polling)
{
    watch_fixture fx;
    watch_fixture_make(&fx);
    if (polling)
        setenv("CUDACHEF_WATCH", "poll", 1);
    else
        unsetenv("CUDACHEF_WATCH");
    watch *w = watch_open(fx.path);
    assert_non_null(w);
    if (polling) {
        assert_true(watch_polling(w));
        assert_int_equal(watch_fd(w), -1);
    } else {
        assert_false(watch_polling(w)); /* inotify works on Linux's /tmp */
        assert_true(watch_fd(w) >= 0);
    }
    assert_int_equal(watch_now(w), 0); /* nothing happened yet */

    watch_write(fx.path, "second, longer\n"); /* in place */
    assert_int_equal(watch_after(w), 1);
    assert_int_equal(watch_now(w), 0); /* seen once */

    char tmp[320], other[320];
    snprintf(tmp, sizeof tmp, "%s/.k.cu.swp", fx.dir);
    watch_write(tmp, "third, by rename\n"); /* as editors save: a new file renamed over */
    assert_int_equal(watch_now(w), 0);      /* another name in the folder is no change */
    assert_int_equal(rename(tmp, fx.path), 0);
    assert_int_equal(watch_after(w), 1);
    assert_int_equal(watch_now(w), 0);

    snprintf(other, sizeof other, "%s/notes.txt", fx.dir);
    watch_write(other, "not the file\n");
    assert_int_equal(watch_now(w), 0);

    assert_int_equal(unlink(fx.path), 0); /* missing for now: no change */
    assert_int_equal(watch_now(w), 0);
    watch_write(fx.path, "fourth, made again\n");
    assert_int_equal(watch_after(w), 1);
    assert_int_equal(watch_now(w), 0);
    watch_close(w);
    watch_fixture_remove(&fx);
}

/* With inotify. */
static void test_watch_inotify(void **state)
{
    (void)state;
    watch_story(0);
}

/* With polling, forced by CUDACHEF_WATCH=poll. */
static void test_watch_poll(void **state)
{
    (void)state;
    watch_story(1);
    unsetenv("CUDACHEF_WATCH");
}

/* A watched folder that is removed: the watch falls back to polling, and the file made again
   where it was is still seen. */
static void test_watch_folder_gone(void **state)
{
    (void)state;
    unsetenv("CUDACHEF_WATCH");
    watch_fixture fx;
    watch_fixture_make(&fx);
    watch *w = watch_open(fx.path);
    assert_non_null(w);
    assert_false(watch_polling(w));
    assert_int_equal(unlink(fx.path), 0);
    assert_int_equal(rmdir(fx.dir), 0);
    assert_int_equal(watch_after(w), 0); /* the file is missing: no change, but now polling */
    assert_true(watch_polling(w));
    assert_int_equal(mkdir(fx.dir, 0700), 0);
    watch_write(fx.path, "back\n");
    assert_int_equal(watch_changed(w), 1);
    assert_int_equal(watch_changed(w), 0);
    watch_close(w);
    watch_fixture_remove(&fx);
}

/* A file that does not exist yet is watched; its creation is the change. A path too long fails
   with errno set; watch_close(NULL) and a NULL watch are harmless. */
static void test_watch_edges(void **state)
{
    (void)state;
    unsetenv("CUDACHEF_WATCH");
    watch_fixture fx;
    watch_fixture_make(&fx);
    char later[320];
    snprintf(later, sizeof later, "%s/later.cu", fx.dir);
    watch *w = watch_open(later);
    assert_non_null(w);
    assert_int_equal(watch_now(w), 0);
    watch_write(later, "now\n");
    assert_int_equal(watch_after(w), 1);
    watch_close(w);
    static char huge[8192];
    memset(huge, 'a', sizeof huge - 1);
    assert_null(watch_open(huge));
    watch_close(NULL);
    assert_int_equal(watch_changed(NULL), 0);
    assert_int_equal(watch_fd(NULL), -1);
    watch_fixture_remove(&fx);
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watch_inotify),
        cmocka_unit_test(test_watch_poll),
        cmocka_unit_test(test_watch_folder_gone),
        cmocka_unit_test(test_watch_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
