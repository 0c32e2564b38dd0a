/*
 * test_exec.h - runs a program for a test and keeps what it left behind: its exit code (or 128 +
 * the signal), and everything it wrote to stdout and stderr. Shared by the tests that drive the
 * cudachef program from outside (test_cli.c, test_exercises.c).
 */
#ifndef CUDACHEF_TEST_EXEC_H
#define CUDACHEF_TEST_EXEC_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What one run of a program left behind. */
typedef struct cli_result {
    int status;  /* exit code, or 128 + signal */
    char *out;   /* everything written to stdout */
    char *err;   /* everything written to stderr */
    char line[1024];
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

/* Runs program with argv (NULL-terminated, argv[0] included), capturing its streams and status. */
static inline void cli_exec(cli_result *r, const char *program, const char *const *argv)
{
    memset(r, 0, sizeof *r);
    size_t used = 0;
    for (int i = 0; argv[i] && used + 2 < sizeof r->line; i++)
        used += (size_t)snprintf(r->line + used, sizeof r->line - used, "%s%s", i ? " " : "", argv[i]);
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        execv(program, (char *const *)argv);
        fprintf(stderr, "exec %s: %s\n", program, strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        assert_int_equal(errno, EINTR);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r->out = cli_slurp(out);
    r->err = cli_slurp(err);
    fclose(out);
    fclose(err);
}

/* Frees a result's captured streams. */
static inline void cli_free(cli_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

#endif
