/*
 * child.c - runs a program in a new process group with limits, capturing its output (child.h).
 *
 * The parent forks a keeper, which makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER),
 * forks the program into a process group of its own and sends its pid up a status pipe. Every
 * process below the keeper that loses its parent, one that called setsid() included, is adopted by
 * the keeper instead of init, so none can leave the tree. Once the program has ended, the keeper
 * kills whatever it has left, again and again until it has no child, sends the program's wait
 * status up the pipe and exits. Between fork and _exit the keeper calls only async-signal-safe
 * functions (the parent may have other threads: a job of the full-screen interface).
 *
 * The parent polls the output pipe, the optional result pipe (the child's fd 3) and the status
 * pipe until all close, or until the deadline, when SIGKILL goes to the program's whole group (a
 * kernel's worker threads, a compiler's subprocesses); the keeper then finishes the rest. Output
 * past spec.keep is counted but not kept; past spec.flood the group is killed too. A stop asked
 * through spec.cancel kills the group at once (cancel.h holds the group while it runs).
 */
#include "grading/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"
#include "grading/sandbox.h"

#define CHILD_SWEEP_MAX 256 /* children the keeper kills in one round */

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
#ifndef CHILD_NO_ADDRESS_LIMIT
#define CHILD_NO_ADDRESS_LIMIT 0
#endif

/* In the program: limits, its own process group, the pipes on 1, 2 (and 3), then exec. */
static void child_exec(const child_spec *spec, char *const *argv, const sandbox_cmd *boxed, int out_fd,
                       int result_fd, int shared_fd, int filter_fd)
{
    setpgid(0, 0);
    if (boxed)
        sandbox_cgroup_enter(boxed); /* before bwrap forks the box: every process of it is counted */
    if (spec->limit_cpu_s > 0)
        child_limit(RLIMIT_CPU, (rlim_t)spec->limit_cpu_s);
#if !CHILD_NO_ADDRESS_LIMIT
    if (spec->limit_memory_mb > 0)
        child_limit(RLIMIT_AS, (rlim_t)spec->limit_memory_mb << 20);
#endif
    if (spec->limit_file_mb > 0)
        child_limit(RLIMIT_FSIZE, (rlim_t)spec->limit_file_mb << 20);
    child_limit(RLIMIT_CORE, 0);
    if (spec->passthrough) {
        close(out_fd); /* the caller's own 0, 1 and 2 stay */
        out_fd = -1;
    } else {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0 && null != 0) {
            dup2(null, 0);
            close(null);
        }
        if (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
            _exit(127);
    }
    if (result_fd >= 0) {
        if (result_fd != 3 && dup2(result_fd, 3) < 0)
            _exit(127);
        if (result_fd != 3)
            close(result_fd);
    }
    if (out_fd > 3)
        close(out_fd);
    if (shared_fd >= 0) {
        if (dup2(shared_fd, 4) < 0)
            _exit(127);
        close(shared_fd);
    }
    if (filter_fd >= 0) { /* the sandbox's system-call filter, where bwrap's --seccomp reads it */
        if (dup2(filter_fd, SANDBOX_SECCOMP_FD) < 0)
            _exit(127);
        close(filter_fd);
    }
    signal(SIGPIPE, SIG_DFL);
    sigset_t none; /* a job's thread started us with its signals blocked: the program gets none */
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(argv[0], argv);
    /* async-signal-safe words only: the parent may have other threads */
    static const char cannot[] = "cannot run ";
    ssize_t ignored = write(2, cannot, sizeof cannot - 1);
    ignored = write(2, argv[0], strlen(argv[0]));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(127);
}

/* Appends the decimal digits of v to path at *at (async-signal-safe). */
static void child_put_number(char *path, size_t *at, long v)
{
    char digits[24];
    int nd = 0;
    do
        digits[nd++] = (char)('0' + v % 10);
    while ((v /= 10) > 0 && nd < (int)sizeof digits);
    while (nd > 0)
        path[(*at)++] = digits[--nd];
    path[*at] = '\0';
}

/* Reads a small file whole into buf (NUL-ended); its length, or -1. Async-signal-safe. */
static ssize_t child_read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t len = read(fd, buf, size - 1);
    close(fd);
    if (len >= 0)
        buf[len] = '\0';
    return len;
}

/* The parent pid in a /proc/PID/stat line ("pid (comm) state ppid ..."; comm may hold spaces and
   brackets, so it is read after the last ')'); -1 when it cannot be read. */
static long child_stat_ppid(const char *stat)
{
    const char *close_paren = NULL;
    for (const char *p = stat; *p; p++)
        if (*p == ')')
            close_paren = p;
    if (!close_paren || close_paren[1] != ' ' || !close_paren[2] || close_paren[3] != ' ')
        return -1;
    long v = 0;
    for (const char *p = close_paren + 4; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (*p - '0');
    return v;
}

/* In the keeper: the pids of its children, from /proc/self/task/PID/children where the kernel
   lists them, else by reading every /proc/PID/stat for the parent's pid. Async-signal-safe: no
   allocation (getdents64 straight from the kernel). */
static int child_keeper_list(pid_t self, pid_t *out, int max)
{
    char path[64] = "/proc/self/task/";
    size_t at = strlen(path);
    child_put_number(path, &at, self);
    memcpy(path + at, "/children", 10);
    char buf[4096];
    ssize_t len = child_read_small(path, buf, sizeof buf);
    int n = 0;
    if (len >= 0) {
        pid_t value = 0;
        for (ssize_t i = 0; i <= len && n < max; i++) {
            if (i < len && buf[i] >= '0' && buf[i] <= '9') {
                value = value * 10 + (buf[i] - '0');
            } else if (value > 0) {
                out[n++] = value;
                value = 0;
            }
        }
        return n;
    }
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return -1;
    char entries[8192];
    long got;
    while ((got = syscall(SYS_getdents64, dir, entries, sizeof entries)) > 0 && n < max) {
        for (long off = 0; off < got && n < max;) {
            /* struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name */
            unsigned short reclen;
            memcpy(&reclen, entries + off + 16, sizeof reclen);
            const char *name = entries + off + 19;
            off += reclen;
            long pid = 0;
            const char *c = name;
            for (; *c >= '0' && *c <= '9'; c++)
                pid = pid * 10 + (*c - '0');
            if (*c || pid <= 0 || pid == self)
                continue;
            char stat_path[64] = "/proc/", stat[512];
            size_t sp = strlen(stat_path);
            child_put_number(stat_path, &sp, pid);
            memcpy(stat_path + sp, "/stat", 6);
            if (child_read_small(stat_path, stat, sizeof stat) > 0 && child_stat_ppid(stat) == self)
                out[n++] = (pid_t)pid;
        }
    }
    close(dir);
    return n;
}

/* In the keeper: kills every process it still has below it, round after round (each round's
   victims hand their own children to the keeper), reaping them, until it has none. Returns how
   many it reaped: the processes the program left behind. */
static int child_keeper_sweep(pid_t self)
{
    int reaped = 0;
    for (int round = 0; round < 100000; round++) {
        int st;
        while (waitpid(-1, &st, WNOHANG) > 0)
            reaped++;
        pid_t kids[CHILD_SWEEP_MAX];
        int n = child_keeper_list(self, kids, CHILD_SWEEP_MAX);
        for (int i = 0; i < n; i++) {
            kill(-kids[i], SIGKILL); /* its group too, when it leads one (a setsid escape does) */
            kill(kids[i], SIGKILL);
        }
        if (n > 0) {
            pid_t one = waitpid(-1, &st, 0); /* a victim's end; the rest next round */
            if (one > 0)
                reaped++;
            else if (errno == ECHILD)
                return reaped;
            continue;
        }
        if (waitpid(-1, &st, WNOHANG) < 0 && errno == ECHILD)
            return reaped;
        struct timespec nap = {0, 1000000L}; /* a child the list did not show yet: look again */
        nanosleep(&nap, NULL);
    }
    return reaped;
}

/* Writes len bytes whole (async-signal-safe). */
static void child_keeper_send(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        p += n;
        len -= (size_t)n;
    }
}

static volatile sig_atomic_t child_keeper_stop; /* the parent asked the keeper to end the run now */
static volatile sig_atomic_t child_keeper_program; /* the program's pid, once the keeper knows it */

/* SIGTERM in the keeper: the run's time is up (or it was stopped); the wait is interrupted. */
static void child_keeper_on_term(int sig)
{
    (void)sig;
    child_keeper_stop = 1;
    if (child_keeper_program > 0) { /* kill is async-signal-safe: the program ends even mid-wait */
        kill(-(pid_t)child_keeper_program, SIGKILL);
        kill((pid_t)child_keeper_program, SIGKILL);
    }
}

/* In the keeper: closes every descriptor but the five it hands on (and 0, 1, 2): those of the
   parent's other threads (another check's pipes) must not stay open under the program. */
static void child_close_others(int a, int b, int c, int d, int e)
{
    int keep[5] = {a, b, c, d, e}, n = 5;
    for (int i = 0; i < n; i++) /* sorted, five at most */
        for (int j = i + 1; j < n; j++)
            if (keep[j] < keep[i]) {
                int t = keep[i];
                keep[i] = keep[j];
                keep[j] = t;
            }
    unsigned from = 3;
    for (int i = 0; i < n; i++) {
        if (keep[i] < 3)
            continue;
        if ((unsigned)keep[i] > from)
            syscall(SYS_close_range, from, (unsigned)keep[i] - 1, 0);
        from = (unsigned)keep[i] + 1;
    }
    syscall(SYS_close_range, from, ~0U, 0);
}

/* The keeper: adopts orphans, starts the program, waits for it, kills what it left, reports
   (the program's pid, then {its wait status, processes killed}) on status_fd, and exits. SIGTERM
   from the parent ends the program and everything below the keeper at once, wherever they moved
   (another process group, a session of their own). */
static void child_keeper(const child_spec *spec, char *const *argv, const sandbox_cmd *boxed, int out_fd,
                         int result_fd, int shared_fd, int filter_fd, int status_fd, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) /* the parent died before the death signal was asked for */
        _exit(1);
    child_close_others(out_fd, result_fd, status_fd, shared_fd, filter_fd);
    struct sigaction term;
    memset(&term, 0, sizeof term);
    term.sa_handler = child_keeper_on_term; /* no SA_RESTART: the wait below returns EINTR */
    sigemptyset(&term.sa_mask);
    sigaction(SIGTERM, &term, NULL); /* before the fork: the program's exec sets it back to default */
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL); /* a job's thread forked us with every signal blocked */
    pid_t self = getpid();
    pid_t pid = _Fork(); /* no fork handlers: this process is a copy of a many-threaded one */
    if (pid == 0) {
        close(status_fd);
        child_exec(spec, argv, boxed, out_fd, result_fd, shared_fd, filter_fd);
    }
    /* the pipes are the program's: the parent sees them close when it and its children are done */
    close(out_fd);
    if (result_fd >= 0)
        close(result_fd);
    if (shared_fd >= 0)
        close(shared_fd);
    if (filter_fd >= 0)
        close(filter_fd);
    if (pid < 0) { /* no program: its pid is the error, negated */
        pid_t failed = -(pid_t)errno;
        child_keeper_send(status_fd, &failed, sizeof failed);
        _exit(0);
    }
    int report[2] = {0, 0};
    setpgid(pid, pid);
    /* a stop asked before the program was known (a short time limit on a busy machine) ends it
       now; one asked from here on, in the handler */
    child_keeper_program = pid;
    if (child_keeper_stop) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    child_keeper_send(status_fd, &pid, sizeof pid);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        if (child_keeper_stop) { /* the program too, even one that left its group */
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
    child_keeper_program = 0; /* reaped: its pid may be another process's from now on */
    kill(-pid, SIGKILL);      /* what the program left in its own group */
    report[0] = st;
    report[1] = child_keeper_sweep(self);
    child_keeper_send(status_fd, report, sizeof report);
    _exit(0);
}

static int child_run_argv(const child_spec *spec, char *const *argv, const sandbox_cmd *boxed, child_outcome *out,
                          chef_error *err);

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

/* Closes the descriptors of a pipe pair that are open. */
static void child_close_pair(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0) {
            close(p[i]);
            p[i] = -1;
        }
}

/* Ends the run now: the program's group, and the keeper told to end whatever is below it (woken
   first, should the program have stopped it). */
static void child_stop(pid_t keeper, pid_t pid)
{
    if (pid > 0)
        kill(-pid, SIGKILL);
    kill(keeper, SIGCONT);
    kill(keeper, SIGTERM);
}

/* Waits for the keeper to end; one still there 10 s after its program ended (a process it could
   not kill holds it) is killed with its group, so the caller never waits for ever. */
static void child_reap_keeper(pid_t keeper)
{
    int st;
    double give_up = chef_now_ms() + 10000;
    for (;;) {
        pid_t r = waitpid(keeper, &st, WNOHANG);
        if (r == keeper || (r < 0 && errno != EINTR))
            return;
        if (chef_now_ms() > give_up) {
            kill(-keeper, SIGKILL);
            kill(keeper, SIGKILL);
            while (waitpid(keeper, &st, 0) < 0 && errno == EINTR) {
            }
            return;
        }
        struct timespec nap = {0, 2000000L};
        nanosleep(&nap, NULL);
    }
}

/* Runs the program under its keeper and waits for both. */
int child_run(const child_spec *spec, child_outcome *out, chef_error *err)
{
    memset(out, 0, sizeof *out);
    sandbox_cmd boxed = {0};
    char *const *argv = spec->argv;
    if (spec->sandbox) { /* made before the fork: the keeper only execs */
        if (sandbox_wrap(spec->sandbox, spec->argv, &boxed, err) != 0)
            return -1;
        argv = boxed.argv;
        sandbox_cgroup_open(&boxed, spec->sandbox->max_procs, spec->limit_memory_mb);
    }
    int rc = child_run_argv(spec, argv, spec->sandbox ? &boxed : NULL, out, err);
    out->boxed = spec->sandbox != NULL;
    if (rc == 0 && out->boxed && out->exited) {
        /* the box's first process reports its own endings, and a signal as 128 + N */
        if (out->status == SANDBOX_EXIT_WALL) {
            out->timed_out = 1;
        } else if (out->status == SANDBOX_EXIT_PROCS) {
            out->exited = 0;
            out->status = SIGKILL;
            out->too_many = 1;
        } else if (out->status > 128 && out->status <= 128 + 64) {
            out->exited = 0;
            out->status -= 128;
        }
    }
    sandbox_cmd_free(&boxed);
    return rc;
}

/* child_run's work, with the command line to exec (the boxed one, or the spec's own). */
static int child_run_argv(const child_spec *spec, char *const *argv, const sandbox_cmd *boxed, child_outcome *out,
                          chef_error *err)
{
    int outp[2] = {-1, -1}, resp[2] = {-1, -1}, statp[2] = {-1, -1};
    size_t result_cap = spec->result_keep ? spec->result_keep : 1 << 20, result_len = 0, kept = 0;
    out->output = calloc(1, spec->keep + 1);
    out->result = spec->result_pipe ? calloc(1, result_cap + 1) : NULL;
    if (!out->output || (spec->result_pipe && !out->result) || pipe2(outp, O_CLOEXEC) != 0 ||
        (spec->result_pipe && pipe2(resp, O_CLOEXEC) != 0) || pipe2(statp, O_CLOEXEC) != 0) {
        int e = errno;
        child_close_pair(outp);
        child_close_pair(resp);
        child_close_pair(statp);
        child_outcome_free(out);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot start %s: %s", spec->argv[0], strerror(e));
    }
    double start = chef_now_ms();
    pid_t parent = getpid();
    pid_t keeper = _Fork(); /* no fork handlers (OpenBLAS's, CUDA's) in a copy of a threaded process */
    if (keeper == 0) {
        /* the pipes' write ends must survive exec: clear their close-on-exec through dup */
        int o = dup(outp[1]), r = spec->result_pipe ? dup(resp[1]) : -1;
        int s = spec->shared_fd >= 3 ? fcntl(spec->shared_fd, F_DUPFD, 10) : -1;
        int f = boxed && boxed->seccomp ? fcntl(boxed->seccomp_fd, F_DUPFD, 10) : -1;
        close(statp[0]);
        child_keeper(spec, argv, boxed, o, r, s, f, statp[1], parent);
    }
    int forked = errno;
    close(outp[1]);
    outp[1] = -1;
    if (spec->result_pipe) {
        close(resp[1]);
        resp[1] = -1;
    }
    close(statp[1]);
    statp[1] = -1;
    if (keeper < 0) {
        child_close_pair(outp);
        child_close_pair(resp);
        child_close_pair(statp);
        child_outcome_free(out);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot start %s: %s", spec->argv[0], strerror(forked));
    }
    /* the keeper's reports: the program's pid, then its wait status and what it left behind */
    unsigned char status[sizeof(pid_t) + 2 * sizeof(int)];
    size_t status_len = 0;
    pid_t pid = 0;
    struct pollfd fds[3] = {{outp[0], POLLIN, 0}, {spec->result_pipe ? resp[0] : -1, POLLIN, 0}, {statp[0], POLLIN, 0}};
    int open_fds = spec->result_pipe ? 3 : 2, killed = 0;
    while (open_fds > 0) {
        double left = start + spec->timeout_s * 1000 - chef_now_ms();
        if (!killed && pid > 0 && (left <= 0 || cancel_requested(spec->cancel))) {
            if (cancel_requested(spec->cancel))
                out->cancelled = 1;
            else
                out->timed_out = 1;
            child_stop(keeper, pid);
            killed = 1;
        }
        /* with a stop token, look at it every 50 ms even when nothing is written */
        int wait_ms = killed ? 1000 : left <= 0 ? 50 : (int)(left + 1);
        if (spec->cancel && wait_ms > 50)
            wait_ms = 50;
        int ready = poll(fds, 3, wait_ms);
        if (ready < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 3; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[16384];
            size_t room = i == 2 ? sizeof status - status_len : sizeof buf;
            ssize_t n = room ? read(fds[i].fd, i == 2 ? (char *)status + status_len : buf, room) : 0;
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            if (i == 0) {
                child_keep(&out->output, &kept, spec->keep, buf, (size_t)n);
                out->output_bytes += (size_t)n;
                if (spec->flood && out->output_bytes > spec->flood && !killed && pid > 0) {
                    out->flooded = 1;
                    child_stop(keeper, pid);
                    killed = 1;
                }
            } else if (i == 1) {
                child_keep(&out->result, &result_len, result_cap, buf, (size_t)n);
            } else {
                status_len += (size_t)n;
                if (pid == 0 && status_len >= sizeof pid) {
                    memcpy(&pid, status, sizeof pid);
                    if (pid < 0) /* the keeper could not start the program */
                        break;
                    if (pid > 0 && cancel_attach_group(spec->cancel, pid)) {
                        out->cancelled = 1;
                        child_stop(keeper, pid);
                        killed = 1;
                    }
                }
            }
        }
        if (killed && ready == 0)
            break; /* killed and silent: stop waiting for the pipes (the keeper ends the rest) */
    }
    for (int i = 0; i < 3; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    if (cancel_requested(spec->cancel))
        out->cancelled = 1; /* the stop's own kill may have ended the program before the loop saw it */
    cancel_detach_group(spec->cancel);
    child_reap_keeper(keeper);
    if (pid < 0) {
        child_outcome_free(out);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "cannot start %s: %s", spec->argv[0], strerror((int)-pid));
    }
    int program = 127 << 8;
    if (status_len == sizeof status) {
        memcpy(&program, status + sizeof pid, sizeof program);
        memcpy(&out->left_behind, status + sizeof pid + sizeof program, sizeof out->left_behind);
    } else if (pid > 0) {
        kill(-pid, SIGKILL); /* the keeper died first (killed from below): end what it can reach */
        program = SIGKILL;
    }
    out->exited = WIFEXITED(program);
    out->status = WIFEXITED(program) ? WEXITSTATUS(program) : WIFSIGNALED(program) ? WTERMSIG(program) : 0;
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
