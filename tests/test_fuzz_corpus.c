/*
 * test_fuzz_corpus.c - replays the fuzzers' corpus through the same entry points, without clang's
 * fuzzer run-time: every file of tests/fuzz/corpus/TARGET/ goes through fuzz_TARGET (the target's
 * own code, built with -DFUZZ_REPLAY). So `make test` checks with gcc every input the fuzzers kept
 * (the crashes they found among them, as regress-* files), `make asan` and `make valgrind` check
 * them under the memory tools, and a parser change that breaks one fails here first.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fuzz.h"
#include "lessons/lesson.h"
#include "test_tree.h"

FUZZ_TARGET(lesson);
FUZZ_TARGET(markdown);
FUZZ_TARGET(progress);
FUZZ_TARGET(exercise);
FUZZ_TARGET(kernel_name);
FUZZ_TARGET(check_result);
FUZZ_TARGET(i18n);
FUZZ_TARGET(theme);
FUZZ_TARGET(watch);

/* One fuzz target: its corpus folder's name and its entry. */
typedef struct replay_target {
    const char *name;
    int (*one)(const uint8_t *data, size_t size);
} replay_target;

static const replay_target replay_targets[] = {
    {"lesson", fuzz_lesson},
    {"markdown", fuzz_markdown},
    {"progress", fuzz_progress},
    {"exercise", fuzz_exercise},
    {"kernel_name", fuzz_kernel_name},
    {"check_result", fuzz_check_result},
    {"i18n", fuzz_i18n},
    {"theme", fuzz_theme},
    {"watch", fuzz_watch},
};

/* Every file of one target's corpus, in name order, through the target. */
static void test_replay(void **state)
{
    const replay_target *t = *state;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", test_source_dir(), t->name);
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    assert_true(n >= 0);
    int replayed = 0;
    for (int i = 0; i < n; i++) {
        char path[4500];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            size_t size = 0;
            char *data = lesson_read_file(path, &size);
            assert_non_null(data);
            t->one((const uint8_t *)data, size);
            free(data);
            replayed++;
        }
        free(names[i]);
    }
    free(names);
    print_message("%s: %d inputs replayed\n", t->name, replayed);
    assert_true(replayed > 0); /* every target keeps a corpus */
}

int main(void)
{
    struct CMUnitTest tests[sizeof replay_targets / sizeof *replay_targets];
    for (size_t i = 0; i < sizeof replay_targets / sizeof *replay_targets; i++) {
        struct CMUnitTest one = cmocka_unit_test_prestate(test_replay, (void *)&replay_targets[i]);
        one.name = replay_targets[i].name;
        tests[i] = one;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
