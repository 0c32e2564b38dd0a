/*
 * child.c - runs a program in a new process group with limits, capturing its output (child.h).
 *
 * The parent polls two pipes (output, and the optional result on the child's fd 3) until both
 * close and the child has exited, or until the deadline, when SIGKILL goes to the whole group
 * (a kernel's worker threads, a compiler's subprocesses). Output past spec.keep is counted but not
 * kept; past spec.flood the group is killed too.
 */
#include "grading/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/i18n.h"

/* Sets one resource limit (soft and hard) in the child; failures are ignored (best effort). */
static void child_limit(int resource, rlim_t value)
{
    struct rlimit r = {value, value};
    setrlimit(resource, &r);
}

/* CHILD_NO_ADDRESS_LIMIT: built with AddressSanitizer (make asan), whose run-time reserves terabytes
   of address space for its shadow memory at start: a child under RLIMIT_AS could not even start,
   so such a build leaves the child's address space unlimited (docs/SANITIZERS.md). */
#if defined(__SANITIZE_ADDRESS__)
#define CHILD_NO_ADDRESS_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHILD_NO_ADDRESS_LIMIT 1
#endif
#endif

/* In the child: limits, its own process group, the pipes on 1, 2 (and 3), then exec. */
static void child_exec(const child_spec *spec, int out_fd, int result_fd)
{
    setpgid(0, 0);
    if (spec->limit_cpu_s > 0)
        child_limit(RLIMIT_CPU, (rlim_t)spec->limit_cpu_s);
#if !CHILD_NO_ADDRESS_LIMIT
    if (spec->limit_memory_mb > 0)
        child_limit(RLIMIT_AS, (rlim_t)spec->limit_memory_mb << 20);
#endif
    if (spec->limit_file_mb > 0)
        child_limit(RLIMIT_FSIZE, (rlim_t)spec->limit_file_mb << 20);
    child_limit(RLIMIT_CORE, 0);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0 && null != 0) {
        dup2(null, 0);
        close(null);
    }
    if (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
        _exit(127);
    if (result_fd >= 0) {
        if (result_fd != 3 && dup2(result_fd, 3) < 0)
            _exit(127);
        if (result_fd != 3)
            close(result_fd);
    }
    if (out_fd > 3)
        close(out_fd);
    signal(SIGPIPE, SIG_DFL);
    execvp(spec->argv[0], spec->argv);
    dprintf(2, "cannot run %s: %s\n", spec->argv[0], strerror(errno));
    _exit(127);
}

/* Appends up to len bytes to a buffer kept to keep bytes; counts all of them. */
static void child_keep(char **buf, size_t *kept, size_t keep, const char *data, size_t len)
{
    if (*kept < keep) {
        size_t take = len < keep - *kept ? len : keep - *kept;
        memcpy(*buf + *kept, data, take);
        *kept += take;
        (*buf)[*kept] = '\0';
    }
}

/* Runs the program and waits for it. */
int child_run(const child_spec *spec, child_outcome *out, chef_error *err)
{
    memset(out, 0, sizeof *out);
    int outp[2] = {-1, -1}, resp[2] = {-1, -1};
    size_t result_cap = 1 << 20, result_len = 0, kept = 0;
    out->output = calloc(1, spec->keep + 1);
    out->result = spec->result_pipe ? calloc(1, result_cap + 1) : NULL;
    if (!out->output || (spec->result_pipe && !out->result) || pipe2(outp, O_CLOEXEC) != 0 ||
        (spec->result_pipe && pipe2(resp, O_CLOEXEC) != 0)) {
        child_outcome_free(out);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot start %s: %s"), spec->argv[0], strerror(errno));
    }
    double start = chef_now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        /* the pipes' write ends must survive exec: clear their close-on-exec through dup2 */
        int o = dup(outp[1]), r = spec->result_pipe ? dup(resp[1]) : -1;
        child_exec(spec, o, r);
    }
    close(outp[1]);
    if (spec->result_pipe)
        close(resp[1]);
    if (pid < 0) {
        close(outp[0]);
        if (spec->result_pipe)
            close(resp[0]);
        child_outcome_free(out);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot start %s: %s"), spec->argv[0], strerror(errno));
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill */
    struct pollfd fds[2] = {{outp[0], POLLIN, 0}, {spec->result_pipe ? resp[0] : -1, POLLIN, 0}};
    int open_fds = spec->result_pipe ? 2 : 1, killed = 0;
    while (open_fds > 0) {
        double left = start + spec->timeout_s * 1000 - chef_now_ms();
        if (left <= 0 && !killed) {
            out->timed_out = 1;
            kill(-pid, SIGKILL);
            killed = 1;
        }
        int ready = poll(fds, 2, killed ? 1000 : (int)(left + 1));
        if (ready < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[16384];
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            if (i == 0) {
                child_keep(&out->output, &kept, spec->keep, buf, (size_t)n);
                out->output_bytes += (size_t)n;
                if (spec->flood && out->output_bytes > spec->flood && !killed) {
                    out->flooded = 1;
                    kill(-pid, SIGKILL);
                    killed = 1;
                }
            } else {
                child_keep(&out->result, &result_len, result_cap, buf, (size_t)n);
            }
        }
        if (killed && ready == 0)
            break; /* killed and silent: a grandchild may hold the pipe, stop waiting for it */
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (!killed)
        kill(-pid, SIGKILL); /* anything the child left behind in its group */
    out->exited = WIFEXITED(st);
    out->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    out->ms = chef_now_ms() - start;
    return 0;
}

/* Frees the outcome's buffers. */
void child_outcome_free(child_outcome *out)
{
    free(out->output);
    free(out->result);
    out->output = out->result = NULL;
}
