/*
 * test_pace.h - how long a test may wait before it calls a wait a hang: the machine's pace,
 * measured once per test program, and the guards scaled by it. Shared by every test program that
 * waits for something (a screen, a child's end, a job's state, a file).
 *
 * No wall-clock limit decides whether a test passes: a test waits for the event itself, and the
 * guard only stops a real hang from blocking forever. A guard is generous (minutes where the event
 * takes a second on an idle machine) and grows on a slow or busy machine:
 *
 *   guard = base seconds x pace x CUDACHEF_TEST_TIME_SCALE x 6 under a memory tool
 *
 * The pace is measured at start-up: a fixed piece of CPU work (a chain of xorshift steps that takes
 * about TEST_PACE_IDLE_MS on an idle machine) is timed TEST_PACE_RUNS times, a moment apart, and
 * the wall time of all of them is divided by what they take on an idle machine, at least 1. A busy
 * machine gives the test a share of a core, a slow one or valgrind's memcheck runs the work slowly:
 * either makes the pace larger. CUDACHEF_TEST_TIME_SCALE multiplies it by hand (a tiny one makes
 * the guards fire, to see what they say); CUDACHEF_TEST_SANITIZER (make asan, make valgrind) by 6,
 * since a memory tool slows the programs a test runs more than the work measured here.
 *
 * When a guard fires the test fails with one line saying what it waited for, how long, and the
 * pace (test_guard_fail): "test_tui: waited 180 s (guard, pace 3.2x) for 'Step 2' to appear on
 * the screen after pressing l". test_guard_whole is the same for a whole program, for waits that
 * cannot carry a guard of their own (a thread joined, a blocking write). A length a test needs
 * long (a sleep standing for a hang, a time limit that must not come first) grows the same way,
 * but never shrinks (test_long_s).
 */
#ifndef CUDACHEF_TEST_PACE_H
#define CUDACHEF_TEST_PACE_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_PACE_STEPS 2000000 /* xorshift steps in one piece of work */
#define TEST_PACE_IDLE_MS 4.0   /* what one piece takes on an idle machine (a 2024 Xeon core) */
#define TEST_PACE_RUNS 5        /* pieces timed, 1 ms apart */
#define TEST_PACE_TOOL 6.0      /* the guards' factor under a memory tool */

/* Seconds on the monotonic clock. */
static inline double test_now_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        fprintf(stderr, "test: the monotonic clock cannot be read: %s\n", strerror(errno));
        exit(1);
    }
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps ms milliseconds (all of them, through signals). */
static inline void test_nap_ms(double ms)
{
    struct timespec t = {(time_t)(ms / 1000), (long)((ms - 1000.0 * (double)(time_t)(ms / 1000)) * 1e6)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* One piece of the fixed work; the seconds it took. */
static inline double test_pace_work(void)
{
    double t0 = test_now_s();
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < TEST_PACE_STEPS; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    volatile uint64_t sink = x; /* the chain must be computed */
    (void)sink;
    return test_now_s() - t0;
}

/* The measured pace and its parts, made once per program (test_pace_get). */
typedef struct test_pace_figures {
    double measured; /* the work's wall time over its idle time, at least 1 */
    double work_ms;  /* the wall time of all the pieces */
    double scale;    /* CUDACHEF_TEST_TIME_SCALE, 1 without it */
    double tool;     /* TEST_PACE_TOOL under a memory tool, else 1 */
    const char *tool_name;
} test_pace_figures;

/* The pace of this program, measured on the first call. */
static inline const test_pace_figures *test_pace_get(void)
{
    static test_pace_figures f;
    static int made;
    if (made)
        return &f;
    made = 1;
    f.work_ms = 0;
    for (int i = 0; i < TEST_PACE_RUNS; i++) {
        if (i)
            test_nap_ms(1);
        f.work_ms += 1e3 * test_pace_work();
    }
    f.measured = f.work_ms / (TEST_PACE_RUNS * TEST_PACE_IDLE_MS);
    if (!(f.measured >= 1))
        f.measured = 1;
    f.scale = 1;
    const char *scale = getenv("CUDACHEF_TEST_TIME_SCALE");
    if (scale && *scale) {
        char *end = NULL;
        double v = strtod(scale, &end);
        if (end && *end == '\0' && v > 0 && v < 1e6)
            f.scale = v;
        else
            fprintf(stderr, "test: CUDACHEF_TEST_TIME_SCALE='%s' is not a positive number; 1 is used\n", scale);
    }
    f.tool_name = getenv("CUDACHEF_TEST_SANITIZER");
    f.tool = f.tool_name && *f.tool_name ? TEST_PACE_TOOL : 1;
    return &f;
}

/* The pace (at least 1), as measured. */
static inline double test_pace(void)
{
    return test_pace_get()->measured;
}

/* What every guard is multiplied by: the pace, the scale asked for, the memory tool's factor. */
static inline double test_time_scale(void)
{
    const test_pace_figures *f = test_pace_get();
    return f->measured * f->scale * f->tool;
}

/* A guard of base_s seconds on an idle machine, scaled for this one. */
static inline double test_guard_s(double base_s)
{
    return base_s * test_time_scale();
}

/* A length a test needs long (a sleep that stands for a hang, a time limit that must not come
   first, a delay by which a screen is seen): base_s seconds on an idle machine, longer on a slower
   one, never shorter (a time scale below 1 shrinks the guards only). */
static inline double test_long_s(double base_s)
{
    double scale = test_time_scale();
    return base_s * (scale > 1 ? scale : 1);
}

/* The words in brackets after "waited N s": "guard, pace 3.2x" and the scale and tool when set. */
static inline void test_guard_words(char *out, size_t size)
{
    const test_pace_figures *f = test_pace_get();
    int n = snprintf(out, size, "guard, pace %.1fx", f->measured);
    if (n > 0 && (size_t)n < size && f->scale != 1)
        n += snprintf(out + n, size - (size_t)n, ", time scale %g", f->scale);
    if (n > 0 && (size_t)n < size && f->tool != 1)
        snprintf(out + n, size - (size_t)n, ", %gx under %s", f->tool, f->tool_name);
}

/* The name this program was started by (for the guards' lines; glibc's, from <errno.h>). */
static inline const char *test_program_name(void)
{
    return program_invocation_short_name && *program_invocation_short_name ? program_invocation_short_name : "test";
}

/* Prints one line with the pace this program measured (once, at its start). */
static inline void test_pace_report(void)
{
    const test_pace_figures *f = test_pace_get();
    printf("%s: pace %.1fx (%d pieces of work of %.0f ms idle took %.1f ms); guards x%.3g\n", test_program_name(),
           f->measured, TEST_PACE_RUNS, TEST_PACE_IDLE_MS, f->work_ms, test_time_scale());
    fflush(stdout);
}

/* The line of a guard that fired, into out: what the test waited for (what, printf-style), for how
   long, and why it gave up ("test_jobs: waited 90 s (guard, pace 1.0x) for the child's pid file"). */
static inline void test_guard_vline(char *out, size_t size, double waited_s, const char *fmt, va_list ap)
{
    char what[1024], words[160];
    vsnprintf(what, sizeof what, fmt, ap);
    test_guard_words(words, sizeof words);
    snprintf(out, size, "%s: waited %.0f s (%s) for %s", test_program_name(), waited_s, words, what);
}

/* The same, with the words of what as arguments. */
static inline void test_guard_line(char *out, size_t size, double waited_s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline void test_guard_line(char *out, size_t size, double waited_s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    test_guard_vline(out, size, waited_s, fmt, ap);
    va_end(ap);
}

/* Fails the test with the one line of a guard that fired (test_guard_line). */
static inline void test_guard_fail(double waited_s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void test_guard_fail(double waited_s, const char *fmt, ...)
{
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    test_guard_vline(line, sizeof line, waited_s, fmt, ap);
    va_end(ap);
    fail_msg("%s", line);
}

/* A wait's guard: when it started and how long it may last. */
typedef struct test_guard {
    double start, limit_s;
} test_guard;

/* Starts a guard of base_s seconds on an idle machine. */
static inline test_guard test_guard_start(double base_s)
{
    test_guard g = {test_now_s(), test_guard_s(base_s)};
    return g;
}

/* 1 once the guard has run out. */
static inline int test_guard_over(const test_guard *g)
{
    return test_now_s() - g->start > g->limit_s;
}

/* Seconds since the guard started. */
static inline double test_guard_waited(const test_guard *g)
{
    return test_now_s() - g->start;
}

/* The whole program's guard: what it waits for now (test_guard_note) and the line its alarm
   writes, made before the alarm can fire (only write() is safe in a signal's handler). */
typedef struct test_guard_program {
    char line[256];      /* "test_X: ran past its whole-program guard of N s (...)" */
    char awaiting[1024]; /* "; it was waiting for ...", or empty */
} test_guard_program;

/* This program's whole-program guard. */
static inline test_guard_program *test_guard_whole_state(void)
{
    static test_guard_program g;
    return &g;
}

/* Says what the program waits for now, for the whole-program guard's line. */
static inline void test_guard_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void test_guard_note(const char *fmt, ...)
{
    test_guard_program *g = test_guard_whole_state();
    char what[sizeof g->awaiting - 32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    g->awaiting[0] = '\0'; /* never half a line if the alarm comes now */
    snprintf(g->awaiting + 1, sizeof g->awaiting - 1, " while it waited for %s", what);
    g->awaiting[0] = ';';
}

/* The whole-program guard's handler: one line, then the program ends with status 1 (a program
   killed without a word would leave nothing in the log to say why). */
static inline void test_guard_whole_fired(int sig)
{
    (void)sig;
    test_guard_program *g = test_guard_whole_state();
    ssize_t w = write(STDERR_FILENO, g->line, strlen(g->line));
    if (g->awaiting[0])
        w = write(STDERR_FILENO, g->awaiting, strnlen(g->awaiting, sizeof g->awaiting));
    w = write(STDERR_FILENO, "\n", 1);
    (void)w;
    _exit(1);
}

/* Starts the whole-program guard: base_s seconds on an idle machine, scaled for this one; past it
   the program stops with one line saying what it was waiting for. */
static inline void test_guard_whole(double base_s)
{
    test_guard_program *g = test_guard_whole_state();
    char words[160];
    double limit = test_guard_s(base_s);
    unsigned seconds = limit < 1 ? 1 : limit > 1e9 ? 1000000000u : (unsigned)limit;
    test_guard_words(words, sizeof words);
    snprintf(g->line, sizeof g->line, "!! %s: ran %u s, past its whole-program %s", test_program_name(), seconds,
             words);
    if (signal(SIGALRM, test_guard_whole_fired) == SIG_ERR) {
        fprintf(stderr, "%s: cannot set the whole-program guard: %s\n", test_program_name(), strerror(errno));
        exit(1);
    }
    alarm(seconds);
}

#endif
