/*
 * test_exec.h - runs a program for a test and keeps what it left behind: its exit code (or 128 +
 * the signal), and everything it wrote to stdout and stderr; cli_exec_with also sets its
 * environment, standard input, a memory limit and the guard against a hang. Shared by the tests that
 * drive the cudachef program from outside (test_cli.c, test_exercises.c, test_badinput.c,
 * test_faults.c, test_sandbox.c, test_security.c, test_bench.c).
 *
 * Every run waits for the program to end, however long that takes on a busy machine; only a guard
 * (test_pace.h: minutes, scaled by the machine's pace) ends a program that hangs, and says so in
 * one line.
 */
#ifndef CUDACHEF_TEST_EXEC_H
#define CUDACHEF_TEST_EXEC_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_pace.h"
#include "test_tree.h"

/* What one run of a program left behind. */
typedef struct cli_result {
    int status;  /* exit code, or 128 + signal */
    char *out;   /* everything written to stdout */
    char *err;   /* everything written to stderr */
    char line[1024];
    int timed_out;  /* killed by the guard: it hung */
    double seconds; /* how long it ran */
    char hung[1400]; /* when timed_out: the guard's line, "test_X: waited N s (guard, ...) for ..." */
} cli_result;

/* Reads a whole open file from its start into a new string. */
static inline char *cli_slurp(FILE *f)
{
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    assert_true(size >= 0);
    rewind(f);
    char *s = malloc((size_t)size + 1);
    assert_non_null(s);
    size_t got = fread(s, 1, (size_t)size, f);
    s[got] = '\0';
    return s;
}

/* The guard of a run that names none: a run of the program takes seconds on an idle machine. */
#define CLI_GUARD_S 600.0

/* How to run a program beyond its arguments (cli_exec_with); zeroed: as cli_exec runs it. */
typedef struct cli_how {
    const char *const *env;  /* "NAME=value" set, "NAME" removed, before exec (NULL-ended), or NULL */
    const char *input;       /* what standard input holds (NULL: /dev/null) */
    double guard_s;          /* the guard against a hang in seconds on an idle machine (0: CLI_GUARD_S),
                                scaled by the pace: past it the whole process group is killed */
    long address_space_mb;   /* > 0: the child's RLIMIT_AS (ulimit -v) */
    int hang_counted;        /* 1: a hang is the caller's to report (r->timed_out, r->hung); 0: it fails
                                the test at once with the guard's line */
} cli_how;

/* A file that holds text, rewound (for standard input). */
static inline FILE *cli_text_file(const char *text)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    if (text)
        assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    rewind(f);
    return f;
}

/* Runs program with argv (argv[0] included) the way how says, in a process group of its own, and
   waits for it to end, capturing its streams, status and time; a run past the guard is killed, and
   fails the test (or, with how->hang_counted, is marked timed_out for the caller). */
static inline void cli_exec_with(cli_result *r, const char *program, const char *const *argv, const cli_how *how)
{
    memset(r, 0, sizeof *r);
    size_t used = 0;
    for (int i = 0; argv[i] && used + 2 < sizeof r->line; i++)
        used += (size_t)snprintf(r->line + used, sizeof r->line - used, "%s%s", i ? " " : "", argv[i]);
    FILE *out = tmpfile(), *err = tmpfile(), *in = how && how->input ? cli_text_file(how->input) : NULL;
    assert_non_null(out);
    assert_non_null(err);
    fflush(stdout);
    fflush(stderr);
    test_guard guard = test_guard_start(how && how->guard_s > 0 ? how->guard_s : CLI_GUARD_S);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        int input = in ? fileno(in) : open("/dev/null", O_RDONLY);
        if (input >= 0)
            dup2(input, 0);
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        for (int i = 0; how && how->env && how->env[i]; i++) {
            const char *eq = strchr(how->env[i], '=');
            if (eq) {
                char name[256];
                snprintf(name, sizeof name, "%.*s", (int)(eq - how->env[i]), how->env[i]);
                setenv(name, eq + 1, 1);
            } else {
                unsetenv(how->env[i]);
            }
        }
        if (how && how->address_space_mb > 0) {
            struct rlimit rl = {(rlim_t)how->address_space_mb << 20, (rlim_t)how->address_space_mb << 20};
            setrlimit(RLIMIT_AS, &rl);
        }
        execv(program, (char *const *)argv);
        fprintf(stderr, "exec %s: %s\n", program, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill below */
    int st = 0;
    for (double nap_ms = 1;;) {
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got == pid)
            break;
        if (got < 0) {
            assert_int_equal(errno, EINTR);
            continue;
        }
        if (!r->timed_out && test_guard_over(&guard)) {
            r->timed_out = 1;
            test_guard_line(r->hung, sizeof r->hung, test_guard_waited(&guard), "`%s` to end (killed it)", r->line);
            kill(-pid, SIGKILL);
        }
        test_nap_ms(nap_ms);
        nap_ms = nap_ms < 20 ? nap_ms * 2 : 20; /* quick programs are seen at once, long ones cheaply */
    }
    if (how && how->guard_s > 0)
        kill(-pid, SIGKILL); /* anything it left running in its group */
    r->seconds = test_guard_waited(&guard);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r->out = cli_slurp(out);
    r->err = cli_slurp(err);
    fclose(out);
    fclose(err);
    if (in)
        fclose(in);
    if (r->timed_out && !(how && how->hang_counted))
        fail_msg("%s", r->hung);
}

/* Runs program with argv (NULL-terminated, argv[0] included), capturing its streams and status. */
static inline void cli_exec(cli_result *r, const char *program, const char *const *argv)
{
    cli_exec_with(r, program, argv, NULL);
}

/* Makes ready a test that drives the program and reads its words: English (only LANG speaks, and
   it says C.UTF-8), and the program $CUDACHEF_BIN, else fallback. The program's path, or NULL after
   saying on stderr, as test, that there is none. */
static inline const char *cli_prepare(const char *test, const char *fallback)
{
    unsetenv("LANGUAGE");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    setenv("LANG", "C.UTF-8", 1);
    const char *bin = getenv("CUDACHEF_BIN");
    if (!bin || !*bin)
        bin = fallback;
    if (access(bin, X_OK) != 0) {
        fprintf(stderr, "%s: %s is not an executable (build it with make, or set CUDACHEF_BIN)\n", test, bin);
        return NULL;
    }
    return bin;
}

/* 1 when the document at path holds want from its first line (begin) to its last (end), the
   block a test prints with --markdown; else 0, after printing what the block should be. */
static inline int cli_doc_holds(const char *path, const char *begin, const char *end, const char *want)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        print_message("cannot read %s\n", path);
        return 0;
    }
    char *doc = cli_slurp(f);
    fclose(f);
    const char *from = strstr(doc, begin), *to = from ? strstr(from, end) : NULL;
    int same = to && (size_t)(to + strlen(end) - from) == strlen(want) && strncmp(from, want, strlen(want)) == 0;
    if (!same)
        print_message("%s does not hold what the test prints with --markdown; put this between its markers:\n%s",
                      path, want);
    free(doc);
    return same;
}

/* Frees a result's captured streams. */
static inline void cli_free(cli_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

#endif
