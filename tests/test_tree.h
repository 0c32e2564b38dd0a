/*
 * test_tree.h - where a test finds the source tree it tests, and where it may write. Shared by the
 * test programs that read the tree's files (lessons, kernels, documents) or make temporary ones.
 *
 * Nothing of the tree's place is built into a test program, so that a copy of a built tree tests
 * the copy: scripts/run-tests.sh says where the tree is (CUDACHEF_TEST_SOURCE_DIR, from its own
 * place); a program started by hand finds it above itself (/proc/self/exe is BUILD/tests/NAME
 * inside the tree), else in the current folder. The tree is the folder that holds tests/tests.mk.
 * Temporary files go in $TMPDIR, which run-tests.sh makes for each program (/tmp without it).
 */
#ifndef CUDACHEF_TEST_TREE_H
#define CUDACHEF_TEST_TREE_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 when dir is a source tree of cudachef (it holds tests/tests.mk). */
static inline int test_tree_holds(const char *dir)
{
    char path[PATH_MAX + 32];
    int n = snprintf(path, sizeof path, "%s/tests/tests.mk", dir);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* The source tree under test, as an absolute path; found on the first call (see above). Ends the
   program with one line when there is none. (Not inlined: its callers size their buffers for a
   tree's path, not for the PATH_MAX of the buffer it lives in.) */
__attribute__((noinline, unused)) static const char *test_source_dir(void)
{
    static char tree[PATH_MAX];
    if (tree[0])
        return tree;
    const char *given = getenv("CUDACHEF_TEST_SOURCE_DIR");
    char here[PATH_MAX];
    if (given && *given) {
        if (!test_tree_holds(given) || !realpath(given, tree)) {
            fprintf(stderr, "%s: CUDACHEF_TEST_SOURCE_DIR=%s is not a cudachef source tree (no tests/tests.mk)\n",
                    program_invocation_short_name, given);
            exit(1);
        }
        return tree;
    }
    ssize_t n = readlink("/proc/self/exe", here, sizeof here - 1);
    if (n > 0) { /* BUILD/tests/NAME: the tree is a folder or three above */
        here[n] = '\0';
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(here, '/');
            if (!slash || slash == here)
                break;
            *slash = '\0';
            if (test_tree_holds(here) && realpath(here, tree))
                return tree;
        }
    }
    if (getcwd(here, sizeof here) && test_tree_holds(here) && realpath(here, tree))
        return tree;
    fprintf(stderr, "%s: cannot find the source tree (no tests/tests.mk above the test program or in the current "
                    "folder): run it through scripts/run-tests.sh, from the tree, or set CUDACHEF_TEST_SOURCE_DIR\n",
            program_invocation_short_name);
    exit(1);
}

/* The longest $TMPDIR the tests' paths leave room for (run-tests.sh's are about 30 bytes). */
#define TEST_TMP_MAX 100

/* The folder for temporary files: $TMPDIR, or /tmp without it. Ends the program with one line
   when it is longer than the tests' paths leave room for. */
static inline const char *test_tmp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        return "/tmp";
    if (strlen(tmp) > TEST_TMP_MAX) {
        fprintf(stderr, "%s: TMPDIR is %zu bytes long, more than the %d the tests' paths leave room for: set a "
                        "shorter one\n", program_invocation_short_name, strlen(tmp), TEST_TMP_MAX);
        exit(1);
    }
    return tmp;
}

#endif
