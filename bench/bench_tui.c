/*
 * bench_tui.c - how quick and light the full-screen interface is (issue 4's speed goals).
 *
 * Runs build/cudachef (or argv[1]) in a pseudo-terminal (forkpty, 100 x 30, TERM=xterm-256color)
 * as a learner would, and measures in this one run, each against its goal:
 *   - start to first frame: from just before exec to the home screen's last word ("quit", the
 *     footer) arriving on the terminal; several starts, median and worst (goal: within 100 ms);
 *   - the same with a slow CUDA start: CUDACHEF_PROBE_DELAY_MS=3000 makes the background GPU probe
 *     sleep 3 s first; the first frame must still come within 100 ms and say "checking for a
 *     GPU..."; one of these starts also waits for the probe's answer (for information: about 3 s);
 *   - when the home screen is complete: the time of the last output before 500 ms of quiet, which
 *     includes the background GPU probe's answer (for information);
 *   - a keypress to the screen's answer: j and k alternately on the home screen, from the write to
 *     the first bytes of the redraw; median and worst (goal: within one frame at 30 fps, 33 ms);
 *   - CPU while idle on the home screen for 2 s, from utime + stime in /proc/PID/stat (goal: near
 *     zero, taken as under 1% of a core);
 *   - resident memory, VmRSS in /proc/PID/status, less what starting CUDA added to it (goal: under
 *     50 MB apart from what the CUDA driver maps): argv[2] (build/bench/cuda_probe_rss) makes the
 *     TUI's GPU probe in a process of its own and prints its VmRSS before and after; the
 *     difference is taken off (0 where the program is not given);
 *   - the kitchen's animation: lesson 2's "million" demo cooked (j Enter, n to its page, r), its
 *     cook step (l l) replaying the launch (about 4 s on screen); in each of several 2 s windows,
 *     each starting the replay afresh, the frames that reached the terminal (bursts of output
 *     separated by at least BENCH_GAP_MS of quiet: curses sends each frame in one go, 30 ms apart)
 *     per second, and the CPU the process used as a % of one core; medians of the windows (goals:
 *     at least 30 frames a second, under 10% of a core).
 *   - a keypress while a check runs: the exercise of lesson 3 opened on a learner's file whose kernel
 *     never ends (it runs until its 20 s limit), then ? and any key, again and again, from the write
 *     of ? to the help's last line arriving ("Press any key to close."); median and worst (goal:
 *     33 ms, as on an idle screen: the check runs as a job, off the interface's thread).
 * Each figure is printed as a row and as a BENCH line whose ratio is the figure over its goal, or
 * the goal over the figure for a goal of "at least" (met when <= 1), with the figure itself in
 * value=. A missed goal is reported, not failed: the exit code is 0 unless the program could not
 * be run or did not show what was expected (1). The program's progress file goes to a temporary
 * folder (CUDACHEF_STATE_HOME), removed at the end. docs/BENCHMARKS.md shows results.
 *
 * Build and run: make bench-tui (or make build/bench/bench_tui && build/bench/bench_tui [BIN]).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"

#define BENCH_STARTS       7                       /* starts timed for the first frame, each way */
#define BENCH_KEYS         30                      /* keypresses timed */
#define BENCH_IDLE_SECONDS 2.0                     /* idle time measured for CPU use */
#define BENCH_QUIET_MS     500                     /* quiet that means "the screen is complete" */
#define BENCH_FRAME_MARK   "quit"                  /* the home screen's last word (its footer) */
#define BENCH_CHECKING     "checking for a GPU..." /* the home screen before the probe answers */
#define BENCH_PROBE_DELAY  "3000"                  /* CUDACHEF_PROBE_DELAY_MS of the slow starts */
#define BENCH_DEMO_PAGE    "shipping vs cooking"   /* the title of lesson 2's page of the million demo */
#define BENCH_WINDOWS      5                       /* windows of the kitchen's replay measured */
#define BENCH_WINDOW_MS    2000                    /* each this long (the replay lasts about 4 s) */
#define BENCH_SETTLE_MS    250                     /* after restarting the replay, before a window starts */
#define BENCH_GAP_MS       10                      /* quiet that separates two frames on the terminal */
#define BENCH_SEEN         65536 /* the last bytes the program wrote, kept to look for text in */
#define BENCH_CHECK_KEYS   15    /* keypresses timed while the endless check runs */
#define BENCH_HELP_END     "Press any key to close."

/* A learner's kernel that never ends (the check runs until its time limit). */
static const char bench_endless_kernel[] =
    "#include \"kernel.h\"\n"
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "#ifdef __CUDACC__\n"
    "    while (clock64() >= 0) { } /* the clock is read each time: nvcc cannot drop the loop */\n"
    "#else\n"
    "    volatile int forever = 1;\n"
    "    while (forever) { }\n"
    "#endif\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* One running cudachef in a pseudo-terminal; seen keeps the last bytes it wrote. */
typedef struct bench_run {
    pid_t pid;
    int fd;
    char seen[BENCH_SEEN];
    size_t seen_len;
} bench_run;

static char bench_state_dir[] = "/tmp/bench_tui.XXXXXX"; /* the child's CUDACHEF_STATE_HOME */

/* Monotonic time in milliseconds. */
static double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Starts bin in a new pseudo-terminal, with the GPU probe delayed probe_delay ms (NULL: not
   delayed); 0, or -1 with a message. */
static int bench_start(bench_run *r, const char *bin, const char *probe_delay)
{
    r->seen_len = 0;
    struct winsize ws = {.ws_row = 30, .ws_col = 100};
    r->pid = forkpty(&r->fd, NULL, NULL, &ws);
    if (r->pid < 0) {
        fprintf(stderr, "bench_tui: forkpty failed: %s\n", strerror(errno));
        return -1;
    }
    if (r->pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        setenv("CUDACHEF_STATE_HOME", bench_state_dir, 1);
        unsetenv("NO_COLOR");
        unsetenv("LINES");
        unsetenv("COLUMNS");
        unsetenv("LANGUAGE");
        if (probe_delay)
            setenv("CUDACHEF_PROBE_DELAY_MS", probe_delay, 1);
        else
            unsetenv("CUDACHEF_PROBE_DELAY_MS");
        execl(bin, "cudachef", (char *)NULL);
        _exit(127);
    }
    return 0;
}

/* Reads what is there within ms milliseconds and keeps it in r->seen; returns the bytes read (0
   on timeout, -1 when the program closed the terminal). */
static ssize_t bench_read(bench_run *r, int ms)
{
    struct pollfd p = {r->fd, POLLIN, 0};
    int got = poll(&p, 1, ms);
    if (got <= 0)
        return got < 0 && errno != EINTR ? -1 : 0;
    char buf[16384];
    ssize_t n = read(r->fd, buf, sizeof buf);
    if (n <= 0)
        return -1;
    if (r->seen_len + (size_t)n > sizeof r->seen) { /* full: keep the newer half */
        size_t keep = sizeof r->seen / 2 < r->seen_len ? sizeof r->seen / 2 : r->seen_len;
        memmove(r->seen, r->seen + r->seen_len - keep, keep);
        r->seen_len = keep;
    }
    memcpy(r->seen + r->seen_len, buf, (size_t)n);
    r->seen_len += (size_t)n;
    return n;
}

/* 1 when text is among the bytes kept since the start or the last bench_forget. */
static int bench_seen(const bench_run *r, const char *text)
{
    return memmem(r->seen, r->seen_len, text, strlen(text)) != NULL;
}

/* Forgets the bytes kept, so that bench_seen looks only at what comes next. */
static void bench_forget(bench_run *r)
{
    r->seen_len = 0;
}

/* Reads until text has been seen (1) or limit_ms pass or the program ends (0). */
static int bench_wait_for(bench_run *r, const char *text, int limit_ms)
{
    double start = bench_now_ms();
    while (!bench_seen(r, text)) {
        double left = limit_ms - (bench_now_ms() - start);
        if (left <= 0 || bench_read(r, left < 100 ? (int)left + 1 : 100) < 0)
            return bench_seen(r, text);
    }
    return 1;
}

/* Writes keys to the program; 0, or -1 with a message. */
static int bench_keys(bench_run *r, const char *keys)
{
    size_t len = strlen(keys);
    if (write(r->fd, keys, len) != (ssize_t)len) {
        fprintf(stderr, "bench_tui: could not send keys to cudachef: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

/* Reads until quiet_ms pass without output (or limit_ms in all); returns the time of the last
   output, or start when there was none. */
static double bench_drain(bench_run *r, int quiet_ms, int limit_ms)
{
    double start = bench_now_ms(), last = start;
    while (bench_now_ms() - start < limit_ms) {
        ssize_t n = bench_read(r, quiet_ms);
        if (n <= 0)
            break;
        last = bench_now_ms();
    }
    return last;
}

/* Ends the program: q (three times: out of the kitchen and the reader too), then SIGTERM if it
   has not gone within a second. */
static void bench_stop(bench_run *r)
{
    ssize_t ignored = write(r->fd, "qqq", 3);
    (void)ignored;
    for (int i = 0; i < 100; i++) {
        bench_read(r, 10);
        if (waitpid(r->pid, NULL, WNOHANG) == r->pid) {
            close(r->fd);
            return;
        }
    }
    if (kill(r->pid, SIGTERM) != 0)
        fprintf(stderr, "bench_tui: could not stop cudachef (pid %d): %s\n", (int)r->pid, strerror(errno));
    waitpid(r->pid, NULL, 0);
    close(r->fd);
}

/* Ends a program that failed to show what was expected, saying what it was and how it ended. */
static void bench_fail(bench_run *r, const char *what)
{
    kill(r->pid, SIGTERM);
    int status = 0;
    waitpid(r->pid, &status, 0);
    close(r->fd);
    fprintf(stderr, "bench_tui: %s (cudachef's %s %d)\n", what, WIFEXITED(status) ? "exit code" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/* CPU time used by pid (user + system, all its threads) in seconds, from /proc/PID/stat; -1 if
   unreadable. */
static double bench_cpu_seconds(pid_t pid)
{
    char path[64], text[2048];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *p = strrchr(text, ')'); /* the command name may hold spaces: fields start after it */
    unsigned long long utime, stime;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* Resident memory of pid in MB (VmRSS in /proc/PID/status); -1 if unreadable. */
static double bench_rss_mb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    double mb = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long kb;
        if (sscanf(line, "VmRSS: %lu kB", &kb) == 1)
            mb = kb / 1024.0;
    }
    fclose(f);
    return mb;
}

/* The largest of n values. */
static double bench_worst(const double *v, int n)
{
    double worst = v[0];
    for (int i = 1; i < n; i++)
        worst = v[i] > worst ? v[i] : worst;
    return worst;
}

/* Times n starts to the first frame (first[i], ms), each with the probe delayed probe_delay ms
   (NULL: not). settled[i], when not NULL, is when the home screen was complete: the last output
   before BENCH_QUIET_MS of quiet, or with answer 1 the first output after the first frame and
   100 ms of quiet (the delayed probe's answer). *checking counts the first frames that said
   "checking for a GPU...". The last start is left running in *r when keep is 1. 0, or -1 with a
   message. */
static int bench_starts(const char *bin, const char *probe_delay, int n, double *first, double *settled,
                        int answer, int *checking, bench_run *r, int keep)
{
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_ms();
        if (bench_start(r, bin, probe_delay) != 0)
            return -1;
        if (!bench_wait_for(r, BENCH_FRAME_MARK, 10000)) {
            bench_fail(r, "no home screen within 10 s (no \"" BENCH_FRAME_MARK "\" on the terminal)");
            return -1;
        }
        first[i] = bench_now_ms() - t0;
        *checking += bench_seen(r, BENCH_CHECKING);
        if (settled && answer) {
            bench_drain(r, 100, 1000);
            if (bench_read(r, 15000) <= 0) {
                bench_fail(r, "the delayed GPU probe did not answer within 15 s");
                return -1;
            }
            settled[i] = bench_now_ms() - t0;
        } else if (settled) {
            settled[i] = bench_drain(r, BENCH_QUIET_MS, 15000) - t0;
            if (settled[i] < first[i])
                settled[i] = first[i];
        }
        if (!keep || i + 1 < n)
            bench_stop(r);
    }
    return 0;
}

/* Sends keys, then reads until want has been seen in what follows (within limit_ms); 0, or -1 with
   a message saying what did not happen (and the program ended). */
static int bench_step(bench_run *r, const char *keys, const char *want, int limit_ms, const char *what)
{
    bench_drain(r, 50, 2000); /* the previous screen's last bytes must not count */
    bench_forget(r);
    if (bench_keys(r, keys) != 0 || !bench_wait_for(r, want, limit_ms)) {
        bench_fail(r, what);
        return -1;
    }
    return 0;
}

/* Opens the kitchen of lesson 2's million demo on its cook step, the replay playing; 0, or -1
   with a message (and the program ended). */
static int bench_open_kitchen(bench_run *r, const char *bin)
{
    if (bench_start(r, bin, NULL) != 0)
        return -1;
    if (!bench_wait_for(r, BENCH_FRAME_MARK, 10000)) {
        bench_fail(r, "no home screen within 10 s");
        return -1;
    }
    if (bench_step(r, "j\r", "n/p", 5000, "lesson 2 did not open in the reader") != 0)
        return -1;
    int found = bench_seen(r, BENCH_DEMO_PAGE);
    for (int i = 0; i < 40 && !found; i++) { /* n until the demo's page */
        bench_drain(r, 50, 2000);
        bench_forget(r);
        if (bench_keys(r, "n") != 0)
            break;
        found = bench_wait_for(r, BENCH_DEMO_PAGE, 500);
    }
    if (!found) {
        bench_fail(r, "no page of lesson 2 titled \"" BENCH_DEMO_PAGE "\" came up with n");
        return -1;
    }
    if (bench_step(r, "r", "1 prepare", 60000, "the million demo's kitchen did not open within 60 s") != 0 ||
        bench_step(r, "ll", "1 s on screen = ", 5000, "the kitchen's cook step did not show the replay") != 0)
        return -1;
    if (!bench_wait_for(r, "[playing]", 2000)) {
        bench_fail(r, "the kitchen's cook step did not play the replay");
        return -1;
    }
    return 0;
}

/* One window of the replay: restarts it (h l: the ship-in step and back, which starts the replay
   from the beginning), lets the step's first full redraw pass, then for BENCH_WINDOW_MS counts the
   frames that reach the terminal (bursts of output after at least BENCH_GAP_MS of quiet) and the
   CPU used (utime + stime; /proc counts in ticks of 10 ms, 0.5% of a core over 2 s). Sets *fps
   and *cpu_percent (of one core); *finished is 1 when the replay ended inside the window (Space
   then played it again). 0, or -1 when the program went away. */
static int bench_replay_window(bench_run *r, double *fps, double *cpu_percent, int *finished)
{
    if (bench_keys(r, "hl") != 0)
        return -1;
    double settle = bench_now_ms();
    while (bench_now_ms() - settle < BENCH_SETTLE_MS)
        if (bench_read(r, 10) < 0)
            return -1;
    bench_forget(r);
    *finished = 0;
    int frames = 0;
    double cpu0 = bench_cpu_seconds(r->pid), t0 = bench_now_ms(), last = t0, now = t0, first = 0, latest = 0;
    while ((now = bench_now_ms()) - t0 < BENCH_WINDOW_MS) {
        double left = BENCH_WINDOW_MS - (now - t0);
        ssize_t n = bench_read(r, left < 20 ? (int)left + 1 : 20);
        if (n < 0)
            return -1;
        if (n == 0)
            continue;
        now = bench_now_ms();
        if (now - last >= BENCH_GAP_MS || frames == 0) { /* a new frame begins */
            frames++;
            latest = now;
            if (frames == 1)
                first = now;
        }
        last = now;
        if (bench_seen(r, "Space replays")) { /* the replay ended: play it again */
            *finished = 1;
            bench_forget(r);
            if (bench_keys(r, " ") != 0)
                return -1;
        }
    }
    double cpu1 = bench_cpu_seconds(r->pid), seconds = (bench_now_ms() - t0) / 1e3;
    /* frames per second from the first frame's start to the last's, so that a window's edges do
       not round the figure to whole frames; a dropped frame (a longer gap) lowers it */
    *fps = frames > 1 ? (frames - 1) / ((latest - first) / 1e3) : frames / seconds;
    *cpu_percent = cpu0 < 0 || cpu1 < 0 ? -1 : (cpu1 - cpu0) / seconds * 100.0;
    return 0;
}

/* (7) Keypresses while a check runs: the exercise of lesson 3 (bounds-check) opened on a file whose
   kernel never ends, in a workspace and build cache under the state folder; then ? and x in turn,
   each ? timed to the help's last line. 0 with the times in keys, or -1 with a message. */
static int bench_check_keys(const char *bin, double *keys, int n, int *answered)
{
    char dir[600], file[700], workspace[700], cache[700];
    snprintf(dir, sizeof dir, "%s/ws/03-teams-and-cooks", bench_state_dir);
    snprintf(file, sizeof file, "%s/bounds-check.cu", dir);
    snprintf(workspace, sizeof workspace, "%s/ws", bench_state_dir);
    snprintf(cache, sizeof cache, "%s/cache", bench_state_dir);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    FILE *f = system(cmd) == 0 ? fopen(file, "w") : NULL;
    if (!f || fputs(bench_endless_kernel, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench_tui: could not write %s\n", file);
        return -1;
    }
    setenv("CUDACHEF_WORKSPACE", workspace, 1);
    setenv("CUDACHEF_CACHE_HOME", cache, 1);
    static bench_run r;
    int started = bench_start(&r, bin, NULL);
    unsetenv("CUDACHEF_WORKSPACE");
    unsetenv("CUDACHEF_CACHE_HOME");
    if (started != 0)
        return -1;
    if (!bench_wait_for(&r, BENCH_FRAME_MARK, 5000) || bench_keys(&r, "jjx") != 0 ||
        !bench_wait_for(&r, "Which exercise?", 5000) || bench_keys(&r, "1") != 0 ||
        !bench_wait_for(&r, "Checking your kernel...", 5000)) {
        bench_fail(&r, "the exercise of lesson 3 did not open");
        return -1;
    }
    bench_drain(&r, 300, 3000); /* the build, then the kernel looping */
    *answered = 0;
    for (int i = 0; i < n; i++) {
        bench_forget(&r);
        double t0 = bench_now_ms();
        if (bench_keys(&r, "?") != 0)
            return -1;
        if (bench_wait_for(&r, BENCH_HELP_END, 1000)) {
            keys[i] = bench_now_ms() - t0;
            (*answered)++;
        } else {
            keys[i] = 1000;
        }
        if (bench_keys(&r, "x") != 0)
            return -1;
        bench_drain(&r, 50, 500);
    }
    bench_forget(&r);
    bench_drain(&r, 300, 1000);
    int still = bench_seen(&r, "Checking your kernel...");
    bench_stop(&r);
    if (!still)
        fprintf(stderr, "bench_tui: the check had ended before the keypresses were all timed\n");
    return 0;
}

/* Removes one entry of the temporary state folder (for nftw, deepest first). */
static int bench_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    if (remove(path) != 0)
        fprintf(stderr, "bench_tui: could not remove %s: %s\n", path, strerror(errno));
    return 0;
}

static int bench_missed;       /* goals missed so far */
static char bench_lines[4096]; /* BENCH lines, printed after the table */

/* Prints one figure against its goal (goal <= 0: for information) as a row and a BENCH line; the
   goal is a most, or a least when at_least is 1. */
static void bench_report_goal(const char *name, const char *what, double value, const char *unit, double goal,
                              int at_least)
{
    char goal_text[32] = "-";
    const char *verdict = "";
    int met = at_least ? value >= goal : value <= goal;
    double ratio = at_least ? (value > 0 ? goal / value : 1e9) : value / goal;
    if (goal > 0) {
        snprintf(goal_text, sizeof goal_text, "%s %g %s", at_least ? ">=" : "<=", goal, unit);
        verdict = met ? "met" : "GOAL MISSED";
        bench_missed += !met;
    }
    printf("  %-48s %9.2f %-3s %-12s %s\n", what, value, unit, goal_text, verdict);
    size_t used = strlen(bench_lines);
    if (goal > 0)
        snprintf(bench_lines + used, sizeof bench_lines - used,
                 "BENCH name=%s ratio=%.3f goal=<=1 met=%s value=%.3f%s\n", name, ratio, met ? "yes" : "no",
                 value, unit);
    else
        snprintf(bench_lines + used, sizeof bench_lines - used,
                 "BENCH name=%s ratio=nan goal=none met=n/a value=%.3f%s\n", name, value, unit);
}

/* A figure whose goal is at most goal (goal <= 0: for information). */
static void bench_report(const char *name, const char *what, double value, const char *unit, double goal)
{
    bench_report_goal(name, what, value, unit, goal, 0);
}

/* A figure whose goal is at least goal. */
static void bench_report_least(const char *name, const char *what, double value, const char *unit,
                               double goal)
{
    bench_report_goal(name, what, value, unit, goal, 1);
}

/* What starting CUDA adds to a process's resident memory, from the program at path: MB, or -1. */
static double bench_cuda_start_mb(const char *path)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s'", path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    long before = -1, after = -1;
    int found = 0;
    int got = fscanf(p, "%ld %ld %d", &before, &after, &found);
    if (pclose(p) != 0 || got != 3 || before < 0 || after < before)
        return -1;
    return (after - before) / 1024.0;
}

/* Runs the measurements; 0, or 1 when the program could not be run or did not behave. */
static int bench_all(const char *bin, const char *probe)
{
    /* (1) starts: exec to the first frame, and to the complete home screen */
    double first[BENCH_STARTS], settled[BENCH_STARTS];
    int checking = 0;
    static bench_run r;
    if (bench_starts(bin, NULL, BENCH_STARTS, first, settled, 0, &checking, &r, 1) != 0)
        return 1;
    double first_worst = bench_worst(first, BENCH_STARTS), settled_worst = bench_worst(settled, BENCH_STARTS);
    double first_median = bench_median(first, BENCH_STARTS),
           settled_median = bench_median(settled, BENCH_STARTS);

    /* (2) keys on the last start's home screen: j then k, each answered before the next */
    double keys[BENCH_KEYS];
    int answered = 0;
    for (int i = 0; i < BENCH_KEYS; i++) {
        double t0 = bench_now_ms();
        if (write(r.fd, i % 2 ? "k" : "j", 1) != 1) {
            fprintf(stderr, "bench_tui: could not send a key to cudachef: %s\n", strerror(errno));
            return 1;
        }
        if (bench_read(&r, 1000) <= 0) {
            keys[i] = 1000;
        } else {
            keys[i] = bench_now_ms() - t0;
            answered++;
        }
        bench_drain(&r, 50, 1000);
    }
    double key_worst = bench_worst(keys, BENCH_KEYS), key_median = bench_median(keys, BENCH_KEYS);

    /* (3) idle: CPU used over 2 s with nothing to do, reading anything it writes meanwhile */
    bench_drain(&r, 100, 1000);
    double cpu0 = bench_cpu_seconds(r.pid), t0 = bench_now_ms();
    while (bench_now_ms() - t0 < BENCH_IDLE_SECONDS * 1000)
        if (bench_read(&r, 100) < 0)
            break;
    double cpu1 = bench_cpu_seconds(r.pid), idle_ms = bench_now_ms() - t0;
    double idle_percent = cpu0 < 0 || cpu1 < 0 ? -1 : (cpu1 - cpu0) / (idle_ms / 1000.0) * 100.0;

    /* (4) resident memory of the running home screen, and what starting CUDA adds to a process */
    double rss = bench_rss_mb(r.pid);
    bench_stop(&r);
    double cuda_mb = probe ? bench_cuda_start_mb(probe) : 0;
    if (cuda_mb < 0) {
        fprintf(stderr, "bench_tui: %s did not say what starting CUDA costs\n", probe);
        return 1;
    }

    /* (5) slow CUDA: the same starts with the probe sleeping first; the last waits for its answer */
    double slow[BENCH_STARTS], slow_settled[1];
    int slow_checking = 0;
    if (bench_starts(bin, BENCH_PROBE_DELAY, BENCH_STARTS - 1, slow, NULL, 0, &slow_checking, &r, 0) != 0 ||
        bench_starts(bin, BENCH_PROBE_DELAY, 1, slow + BENCH_STARTS - 1, slow_settled, 1, &slow_checking, &r,
                     0) != 0)
        return 1;
    double slow_worst = bench_worst(slow, BENCH_STARTS), slow_median = bench_median(slow, BENCH_STARTS);

    /* (6) the kitchen's replay: frames per second and CPU in windows, each restarting it */
    double fps[BENCH_WINDOWS], busy[BENCH_WINDOWS];
    int ended = 0;
    if (bench_open_kitchen(&r, bin) != 0)
        return 1;
    for (int i = 0; i < BENCH_WINDOWS; i++) {
        int finished = 0;
        if (bench_replay_window(&r, &fps[i], &busy[i], &finished) != 0) {
            bench_fail(&r, "cudachef went away during the kitchen's replay");
            return 1;
        }
        ended += finished;
    }
    bench_stop(&r);
    double fps_worst = fps[0];
    for (int i = 1; i < BENCH_WINDOWS; i++)
        fps_worst = fps[i] < fps_worst ? fps[i] : fps_worst;
    double fps_median = bench_median(fps, BENCH_WINDOWS), busy_median = bench_median(busy, BENCH_WINDOWS);
    double busy_worst = bench_worst(busy, BENCH_WINDOWS);

    /* (7) keypresses while a learner's kernel loops in its check */
    double check_keys[BENCH_CHECK_KEYS];
    int check_answered = 0;
    if (bench_check_keys(bin, check_keys, BENCH_CHECK_KEYS, &check_answered) != 0)
        return 1;
    double check_worst = bench_worst(check_keys, BENCH_CHECK_KEYS),
           check_median = bench_median(check_keys, BENCH_CHECK_KEYS);

    printf("  %d starts, %d keypresses (%d answered), %.1f s idle\n", BENCH_STARTS, BENCH_KEYS, answered,
           idle_ms / 1000.0);
    printf("  slow CUDA: %d starts with the GPU probe %s ms late (%d said \"%s\" in the first frame)\n",
           BENCH_STARTS, BENCH_PROBE_DELAY, slow_checking, BENCH_CHECKING);
    printf("  a check running: %d keypresses (%d answered) while the learner's kernel loops\n", BENCH_CHECK_KEYS,
           check_answered);
    printf("  kitchen: %d windows of %.1f s of lesson 2's million demo replaying (%d with the replay ending "
           "inside)\n\n",
           BENCH_WINDOWS, BENCH_WINDOW_MS / 1000.0, ended);
    printf("  %-48s %13s %-12s\n", "", "figure", "goal");
    bench_report("tui_first_frame_median", "start to first frame, median", first_median, "ms", 100);
    bench_report("tui_first_frame_worst", "start to first frame, worst", first_worst, "ms", 100);
    bench_report("tui_home_complete_median", "start to home screen complete, median", settled_median, "ms",
                 0);
    bench_report("tui_home_complete_worst", "start to home screen complete, worst", settled_worst, "ms", 0);
    bench_report("tui_slow_cuda_first_frame_median", "slow CUDA: first frame, median", slow_median, "ms",
                 100);
    bench_report("tui_slow_cuda_first_frame_worst", "slow CUDA: first frame, worst", slow_worst, "ms", 100);
    bench_report("tui_slow_cuda_home_complete", "slow CUDA: home screen complete", slow_settled[0], "ms", 0);
    bench_report("tui_key_answer_median", "keypress to the screen's answer, median", key_median, "ms", 33.3);
    bench_report("tui_key_answer_worst", "keypress to the screen's answer, worst", key_worst, "ms", 33.3);
    bench_report("tui_key_during_check_median", "keypress while a kernel loops in its check, median", check_median,
                 "ms", 33.3);
    bench_report("tui_key_during_check_worst", "keypress while a kernel loops in its check, worst", check_worst,
                 "ms", 33.3);
    bench_report("tui_idle_cpu", "CPU while idle on home screen, % of a core", idle_percent, "%", 1);
    bench_report("tui_resident_memory_all", "resident memory (VmRSS), all of it", rss, "MB", 0);
    bench_report("tui_cuda_start_memory", "of which starting CUDA (cuda_probe_rss)", cuda_mb, "MB", 0);
    bench_report("tui_resident_memory", "resident memory less CUDA's start", rss - cuda_mb, "MB", 50);
    bench_report_least("tui_replay_fps_median", "kitchen replay: frames per second, median", fps_median,
                       "fps", 30);
    bench_report("tui_replay_fps_worst", "kitchen replay: frames per second, slowest", fps_worst, "fps", 0);
    bench_report("tui_replay_cpu_median", "kitchen replay: CPU, % of a core, median", busy_median, "%", 10);
    bench_report("tui_replay_cpu_worst", "kitchen replay: CPU, % of a core, busiest", busy_worst, "%", 0);
    printf("\n%s", bench_lines);
    if (slow_checking < BENCH_STARTS) {
        printf("GOAL MISSED: %d of %d slow-CUDA first frames did not say \"%s\"\n",
               BENCH_STARTS - slow_checking, BENCH_STARTS, BENCH_CHECKING);
        bench_missed++;
    }
    if (bench_missed)
        printf("goal missed: %d of the interface's goals (reported, not failed)\n", bench_missed);
    else
        printf("goals met: first frame (also with a slow CUDA start), keypress, idle CPU, memory, and the "
               "kitchen's animation\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : "build/cudachef";
    const char *probe = argc > 2 ? argv[2] : NULL;
    if (access(bin, X_OK) != 0) {
        fprintf(stderr, "bench_tui: %s cannot be run: build cudachef first (make)\n", bin);
        return 1;
    }
    if (!mkdtemp(bench_state_dir)) {
        fprintf(stderr, "bench_tui: could not make a temporary folder for the progress file: %s\n",
                strerror(errno));
        return 1;
    }
    printf("The full-screen interface (%s in a 100 x 30 pseudo-terminal)\n", bin);
    int code = bench_all(bin, probe);
    if (nftw(bench_state_dir, bench_remove_entry, 8, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "bench_tui: could not remove %s: %s\n", bench_state_dir, strerror(errno));
    return code;
}
