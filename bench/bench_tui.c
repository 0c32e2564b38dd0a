/*
 * bench_tui.c - how quick and light the full-screen interface is (issue 4's speed goals).
 *
 * Runs build/cudachef (or argv[1]) in a pseudo-terminal (forkpty, 100 x 30, TERM=xterm-256color)
 * as a learner would, and measures in this one run, each against its goal:
 *   - start to first frame: from just before exec to the home screen's last word ("quit", the
 *     footer) arriving on the terminal; several starts, median and worst (goal: within 100 ms);
 *   - when the home screen is complete: the time of the last output before 500 ms of quiet, which
 *     includes the background GPU probe's answer (for information);
 *   - a keypress to the screen's answer: j and k alternately on the home screen, from the write to
 *     the first bytes of the redraw; median and worst (goal: within one frame at 30 fps, 33 ms);
 *   - CPU while idle on the home screen for 2 s, from utime + stime in /proc/PID/stat (goal: near
 *     zero, taken as under 1% of a core);
 *   - resident memory, VmRSS in /proc/PID/status (goal: under 50 MB; on a GPU machine this includes
 *     what the CUDA driver maps, which the goal leaves out).
 * Each figure is printed as a row and as a BENCH line whose ratio is the figure over its goal
 * (met when <= 1), with the figure itself in value=. A missed goal is reported, not failed: the
 * exit code is 0 unless the program could not be run (1). docs/BENCHMARKS.md shows results.
 *
 * Build and run: make bench-tui (or make build/bench/bench_tui && build/bench/bench_tui [BIN]).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_STARTS 7          /* starts timed for the first frame */
#define BENCH_KEYS 30           /* keypresses timed */
#define BENCH_IDLE_SECONDS 2.0  /* idle time measured for CPU use */
#define BENCH_QUIET_MS 500      /* quiet that means "the screen is complete" */
#define BENCH_FRAME_MARK "quit" /* the home screen's last word (its footer) */

/* One running cudachef in a pseudo-terminal; tail keeps the last bytes to find the mark in. */
typedef struct bench_run {
    pid_t pid;
    int fd;
    char tail[64];
    size_t tail_len;
} bench_run;

/* Monotonic time in milliseconds. */
static double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Starts bin in a new pseudo-terminal; 0, or -1 with a message. */
static int bench_start(bench_run *r, const char *bin)
{
    memset(r, 0, sizeof *r);
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
        unsetenv("NO_COLOR");
        unsetenv("LINES");
        unsetenv("COLUMNS");
        unsetenv("LANGUAGE");
        execl(bin, "cudachef", (char *)NULL);
        _exit(127);
    }
    return 0;
}

/* Reads what is there within ms milliseconds; returns the bytes read (0 on timeout, -1 when the
   program closed the terminal). Sets *mark when the frame mark has been seen in the output. */
static ssize_t bench_read(bench_run *r, int ms, int *mark)
{
    struct pollfd p = {r->fd, POLLIN, 0};
    int got = poll(&p, 1, ms);
    if (got <= 0)
        return got < 0 && errno != EINTR ? -1 : 0;
    char buf[16384];
    ssize_t n = read(r->fd, buf, sizeof buf);
    if (n <= 0)
        return -1;
    if (mark) {
        /* keep the last bytes across reads so a mark split between two reads is still found */
        char look[sizeof r->tail + sizeof buf + 1];
        memcpy(look, r->tail, r->tail_len);
        memcpy(look + r->tail_len, buf, (size_t)n);
        size_t len = r->tail_len + (size_t)n;
        look[len] = '\0';
        if (memmem(look, len, BENCH_FRAME_MARK, strlen(BENCH_FRAME_MARK)))
            *mark = 1;
        size_t keep = len < sizeof r->tail ? len : sizeof r->tail;
        memcpy(r->tail, look + len - keep, keep);
        r->tail_len = keep;
    }
    return n;
}

/* Reads until quiet_ms pass without output (or limit_ms in all); returns the time of the last
   output, or start when there was none. */
static double bench_drain(bench_run *r, int quiet_ms, int limit_ms)
{
    double start = bench_now_ms(), last = start;
    while (bench_now_ms() - start < limit_ms) {
        ssize_t n = bench_read(r, quiet_ms, NULL);
        if (n <= 0)
            break;
        last = bench_now_ms();
    }
    return last;
}

/* Ends the program: q, then SIGTERM if it has not gone within a second. */
static void bench_stop(bench_run *r)
{
    ssize_t ignored = write(r->fd, "q", 1);
    (void)ignored;
    for (int i = 0; i < 100; i++) {
        bench_read(r, 10, NULL);
        if (waitpid(r->pid, NULL, WNOHANG) == r->pid) {
            close(r->fd);
            return;
        }
    }
    kill(r->pid, SIGTERM);
    waitpid(r->pid, NULL, 0);
    close(r->fd);
}

/* CPU time used by pid (user + system) in seconds, from /proc/PID/stat; -1 if unreadable. */
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

/* For qsort: ascending doubles. */
static int bench_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorts them). */
static double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_compare);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int bench_missed;        /* goals missed so far */
static char bench_lines[2048];  /* BENCH lines, printed after the table */

/* Prints one figure against its goal (goal <= 0: for information) as a row and a BENCH line. */
static void bench_report(const char *name, const char *what, double value, const char *unit, double goal)
{
    char goal_text[32] = "-";
    const char *verdict = "";
    if (goal > 0) {
        snprintf(goal_text, sizeof goal_text, "<= %g %s", goal, unit);
        verdict = value <= goal ? "met" : "GOAL MISSED";
        if (value > goal)
            bench_missed++;
    }
    printf("  %-44s %9.2f %-3s %-12s %s\n", what, value, unit, goal_text, verdict);
    size_t used = strlen(bench_lines);
    if (goal > 0)
        snprintf(bench_lines + used, sizeof bench_lines - used, "BENCH name=%s ratio=%.3f goal=<=1 met=%s value=%.3f%s\n",
                 name, value / goal, value <= goal ? "yes" : "no", value, unit);
    else
        snprintf(bench_lines + used, sizeof bench_lines - used, "BENCH name=%s ratio=nan goal=none met=n/a value=%.3f%s\n",
                 name, value, unit);
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : "build/cudachef";
    if (access(bin, X_OK) != 0) {
        fprintf(stderr, "bench_tui: %s cannot be run: build cudachef first (make)\n", bin);
        return 1;
    }
    printf("The full-screen interface (%s in a 100 x 30 pseudo-terminal)\n", bin);

    /* (1) starts: exec to the first frame, and to the complete home screen */
    double first[BENCH_STARTS], settled[BENCH_STARTS];
    bench_run r;
    for (int i = 0; i < BENCH_STARTS; i++) {
        double t0 = bench_now_ms();
        if (bench_start(&r, bin) != 0)
            return 1;
        int mark = 0;
        while (!mark && bench_now_ms() - t0 < 10000)
            if (bench_read(&r, 100, &mark) < 0)
                break;
        if (!mark) {
            kill(r.pid, SIGTERM);
            int status = 0;
            waitpid(r.pid, &status, 0);
            fprintf(stderr, "bench_tui: no home screen within 10 s (no \"%s\" on the terminal; %s %d)\n",
                    BENCH_FRAME_MARK, WIFEXITED(status) ? "exit code" : "signal",
                    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
            return 1;
        }
        first[i] = bench_now_ms() - t0;
        settled[i] = bench_drain(&r, BENCH_QUIET_MS, 15000) - t0;
        if (settled[i] < first[i])
            settled[i] = first[i];
        if (i + 1 < BENCH_STARTS)
            bench_stop(&r);
    }
    double first_worst = 0, settled_worst = 0;
    for (int i = 0; i < BENCH_STARTS; i++) {
        first_worst = first[i] > first_worst ? first[i] : first_worst;
        settled_worst = settled[i] > settled_worst ? settled[i] : settled_worst;
    }
    double first_median = bench_median(first, BENCH_STARTS), settled_median = bench_median(settled, BENCH_STARTS);

    /* (2) keys on the last start's home screen: j then k, each answered before the next */
    double keys[BENCH_KEYS];
    int answered = 0;
    for (int i = 0; i < BENCH_KEYS; i++) {
        double t0 = bench_now_ms();
        if (write(r.fd, i % 2 ? "k" : "j", 1) != 1)
            break;
        if (bench_read(&r, 1000, NULL) <= 0) {
            keys[i] = 1000;
        } else {
            keys[i] = bench_now_ms() - t0;
            answered++;
        }
        bench_drain(&r, 50, 1000);
    }
    double key_worst = 0;
    for (int i = 0; i < BENCH_KEYS; i++)
        key_worst = keys[i] > key_worst ? keys[i] : key_worst;
    double key_median = bench_median(keys, BENCH_KEYS);

    /* (3) idle: CPU used over 2 s with nothing to do, reading anything it writes meanwhile */
    bench_drain(&r, 100, 1000);
    double cpu0 = bench_cpu_seconds(r.pid), t0 = bench_now_ms();
    while (bench_now_ms() - t0 < BENCH_IDLE_SECONDS * 1000)
        if (bench_read(&r, 100, NULL) < 0)
            break;
    double cpu1 = bench_cpu_seconds(r.pid), idle_ms = bench_now_ms() - t0;
    double idle_percent = cpu0 < 0 || cpu1 < 0 ? -1 : (cpu1 - cpu0) / (idle_ms / 1000.0) * 100.0;

    /* (4) resident memory of the running home screen */
    double rss = bench_rss_mb(r.pid);
    bench_stop(&r);

    printf("  %d starts, %d keypresses (%d answered), %.1f s idle\n\n", BENCH_STARTS, BENCH_KEYS, answered,
           idle_ms / 1000.0);
    printf("  %-44s %13s %-12s\n", "", "figure", "goal");
    bench_report("tui_first_frame_median", "start to first frame, median", first_median, "ms", 100);
    bench_report("tui_first_frame_worst", "start to first frame, worst", first_worst, "ms", 100);
    bench_report("tui_home_complete_median", "start to home screen complete, median", settled_median,
                 "ms", 0);
    bench_report("tui_home_complete_worst", "start to home screen complete, worst", settled_worst, "ms", 0);
    bench_report("tui_key_answer_median", "keypress to the screen's answer, median", key_median, "ms", 33.3);
    bench_report("tui_key_answer_worst", "keypress to the screen's answer, worst", key_worst, "ms", 33.3);
    bench_report("tui_idle_cpu", "CPU while idle on home screen, % of a core", idle_percent, "%", 1);
    bench_report("tui_resident_memory", "resident memory (VmRSS)", rss, "MB", 50);
    printf("\n%s", bench_lines);
    if (bench_missed)
        printf("goal missed: %d of the interface's goals (reported, not failed)\n", bench_missed);
    else
        printf("goals met: first frame, keypress, idle CPU and memory\n");
    return 0;
}
