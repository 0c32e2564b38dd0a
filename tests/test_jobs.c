/*
 * test_jobs.c - long work off the caller's thread (src/base/job.c) and the programs it waits for
 * (src/grading/child.c): a job's data, code, words and end; a stop asked while it runs; a job let
 * go while it runs frees itself; a child stopped through its token ends with every process it
 * started, one that left its process group with setsid() included; a program that ends leaving a
 * process behind (holding its output, or escaped with setsid) is not waited for, and what it left
 * is ended; a time-out ends escapees too.
 *
 * Each test waits for the event it is about (a step said, a pid written, a process gone, a run
 * ended), never for a time: only a guard, scaled by the machine's pace (test_pace.h), ends a wait
 * that hangs. A run that must not wait for something long (a sleep that stands for a hang, a time
 * limit that must not be reached) is told from one that did by a ratio of four against that long
 * thing, whose length grows with the pace too (jobs_long_s).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/job.h"
#include "engine/kitchen.h"
#include "grading/child.h"
#include "test_pace.h"
#include "test_tree.h"

/* Sleeps ms milliseconds. */
static void jobs_nap(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* What the test jobs share with the test. */
typedef struct jobs_data {
    int limit;          /* steps the work takes when nothing stops it */
    int steps;          /* steps the work took */
    int stopped;        /* the work saw its stop */
    atomic_int notified;
    int *freed;         /* set to 1 when the data is freed */
} jobs_data;

/* A job's work: says each step, stops when asked, returns 3 when it ran to its end. */
static int jobs_work(job *j, void *data)
{
    jobs_data *d = data;
    for (d->steps = 0; d->steps < d->limit; d->steps++) {
        if (job_cancelled(j)) {
            d->stopped = 1;
            return CHEF_EXIT_ENVIRONMENT;
        }
        job_say(j, "step %d", d->steps);
        jobs_nap(10);
    }
    return 3;
}

/* The owner's side of the news. */
static void jobs_notify(void *ctx)
{
    atomic_fetch_add(&((jobs_data *)ctx)->notified, 1);
}

/* Frees the test's data, saying so. */
static void jobs_free_data(void *data)
{
    jobs_data *d = data;
    __atomic_store_n(d->freed, 1, __ATOMIC_SEQ_CST);
    free(d);
}

/* Starts jobs_work on new data, limit steps of 10 ms; *freed is set once the data is freed. */
static job *jobs_start(int *freed, jobs_data **out, int limit)
{
    jobs_data *d = calloc(1, sizeof *d);
    assert_non_null(d);
    d->limit = limit;
    d->freed = freed;
    *freed = 0;
    job_spec spec = {"counting", jobs_work, d, jobs_free_data, jobs_notify, d};
    chef_error err = {0};
    job *j = job_start(&spec, &err);
    assert_non_null(j);
    *out = d;
    return j;
}

/* A job runs on its own thread to its end: its code, its data, its words and the owner told. */
static void test_job_runs_to_its_end(void **state)
{
    (void)state;
    int freed;
    jobs_data *d;
    job *j = jobs_start(&freed, &d, 50);
    assert_true(job_running(j));
    assert_string_equal(job_what(j), "counting");
    assert_int_equal(job_wait(j), 3);
    assert_false(job_running(j));
    assert_int_equal(job_code(j), 3);
    assert_ptr_equal(job_data(j), d);
    assert_int_equal(d->steps, 50);
    char said[64];
    job_said(j, said, sizeof said);
    assert_string_equal(said, "step 49");
    /* the end's news comes just after the job is seen finished */
    test_guard guard = test_guard_start(60);
    while (atomic_load(&d->notified) < 51 && !test_guard_over(&guard))
        jobs_nap(10);
    if (atomic_load(&d->notified) < 51) /* each step, and the end */
        test_guard_fail(test_guard_waited(&guard), "the job's news of its end (%d of 51 came)",
                        atomic_load(&d->notified));
    double ms = job_elapsed_ms(j);
    assert_true(ms >= 400); /* 50 naps of 10 ms at least */
    jobs_nap(50);
    assert_true(job_elapsed_ms(j) == ms); /* the clock stops at the end */
    assert_int_equal(job_free(j), 0);
    assert_int_equal(freed, 1);
}

/* Waits until the job has said its first step (it runs); fails after the guard. */
static void jobs_wait_first_step(jobs_data *d)
{
    test_guard guard = test_guard_start(60);
    while (atomic_load(&d->notified) < 1 && !test_guard_over(&guard))
        jobs_nap(1);
    if (atomic_load(&d->notified) < 1)
        test_guard_fail(test_guard_waited(&guard), "the job's first step");
}

/* A stop asked while it runs (it has said a step, and has a thousand seconds of them left)
   reaches the work between its steps. */
static void test_job_stopped(void **state)
{
    (void)state;
    int freed;
    jobs_data *d;
    job *j = jobs_start(&freed, &d, 100000);
    jobs_wait_first_step(d);
    assert_false(job_cancelled(j));
    job_cancel(j);
    assert_true(job_cancelled(j));
    assert_int_equal(job_wait(j), CHEF_EXIT_ENVIRONMENT);
    assert_int_equal(d->stopped, 1);
    assert_true(d->steps > 0 && d->steps < d->limit);
    job_free(j);
    assert_int_equal(freed, 1);
}

/* A job freed while it runs is stopped and let go; it frees itself (and its data) once its work
   returns. */
static void test_job_let_go(void **state)
{
    (void)state;
    int freed;
    jobs_data *d;
    job *j = jobs_start(&freed, &d, 100000);
    jobs_wait_first_step(d);
    assert_int_equal(job_free(j), 1);
    test_guard guard = test_guard_start(60);
    while (!__atomic_load_n(&freed, __ATOMIC_SEQ_CST) && !test_guard_over(&guard))
        jobs_nap(10);
    if (!__atomic_load_n(&freed, __ATOMIC_SEQ_CST))
        test_guard_fail(test_guard_waited(&guard), "the job let go to free itself");
}

/* 1 when a process of that pid is alive (a zombie counts as gone). */
static int jobs_alive(pid_t pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close_paren = strrchr(stat, ')');
    return close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X';
}

/* The pid a shell wrote to path (0 when none yet). */
static pid_t jobs_read_pid(const char *path)
{
    FILE *f = fopen(path, "r");
    long pid = 0;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1)
            pid = 0;
        fclose(f);
    }
    return (pid_t)pid;
}

/* What a child test runs: a shell line, and the file its escapee writes its pid to. */
typedef struct jobs_child {
    char pidfile[320];
    char go[330];       /* the pid file's name and ".go": made when the script may go on */
    char script[1024];
    child_spec spec;
    char *argv[4];
    child_outcome out;
    chef_cancel token;
} jobs_child;

/* The length of what stands for a hang (the sleeps), and of the time limits a run must not reach,
   in seconds: ten minutes on an idle machine, more on a slower one. */
static double jobs_long_s(void)
{
    return test_long_s(600);
}

/* Sets up a child that runs script under a time limit; in script, %1$s is the pid file and
   %2$.0f the seconds of jobs_long_s. */
static void jobs_child_make(jobs_child *c, const char *script, double timeout_s)
{
    memset(c, 0, sizeof *c);
    snprintf(c->pidfile, sizeof c->pidfile, "%s/cudachef-jobs-%d-XXXXXX", test_tmp_dir(), (int)getpid());
    int fd = mkstemp(c->pidfile);
    assert_true(fd >= 0);
    close(fd);
    snprintf(c->go, sizeof c->go, "%s.go", c->pidfile);
    int n = snprintf(c->script, sizeof c->script, script, c->pidfile, jobs_long_s());
    assert_true(n > 0 && (size_t)n < sizeof c->script);
    c->argv[0] = "/bin/sh";
    c->argv[1] = "-c";
    c->argv[2] = c->script;
    c->spec.argv = c->argv;
    c->spec.timeout_s = timeout_s;
    c->spec.keep = 4096;
    cancel_init(&c->token);
}

/* Waits for the escapee (or the script itself) to write its pid; the pid. */
static pid_t jobs_escapee(const jobs_child *c)
{
    pid_t pid = 0;
    test_guard guard = test_guard_start(120);
    while (!(pid = jobs_read_pid(c->pidfile)) && !test_guard_over(&guard))
        jobs_nap(10);
    if (!pid)
        test_guard_fail(test_guard_waited(&guard), "the child's process to write its pid to %s", c->pidfile);
    return pid;
}

/* The escapee is gone (given the moment a killed process takes to end, which a busy machine
   makes longer); the pid file removed. */
static void jobs_escapee_gone(jobs_child *c, pid_t pid)
{
    test_guard guard = test_guard_start(60);
    while (jobs_alive(pid) && !test_guard_over(&guard))
        jobs_nap(10);
    if (jobs_alive(pid)) {
        kill(pid, SIGKILL);
        test_guard_fail(test_guard_waited(&guard),
                        "process %d, which left its process group, to end with its run (it outlived it)", (int)pid);
    }
    unlink(c->pidfile);
    unlink(c->go);
    child_outcome_free(&c->out);
}

/* The escape a learner's kernel could try: a process in a session of its own, sleeping on. */
#define JOBS_ESCAPE "setsid sh -c 'echo $$ > %1$s; exec sleep %2$.0f' </dev/null >/dev/null 2>&1 &"

/* The child's run, on a thread of its own, so that the test can stop it from outside. */
static void *jobs_child_main(void *arg)
{
    jobs_child *c = arg;
    chef_error err = {0};
    if (child_run(&c->spec, &c->out, &err) != 0)
        c->out.status = -1;
    return NULL;
}

/* Fails unless the run ended well before the long things it must not wait for (the sleeps, its
   time limit): a quarter of their length, itself grown with the machine's pace. */
static void jobs_ended_early(const jobs_child *c, const char *what)
{
    if (c->out.ms > 1e3 * jobs_long_s() / 4)
        fail_msg("%s ended after %.1f s, with sleeps and a limit of %.0f s: it waited for them", what, c->out.ms / 1e3,
                 jobs_long_s());
}

/* A stop asked through the token ends the run at once, and every process it started: the one that
   left its process group with setsid() too. */
static void test_child_stopped_with_its_escapee(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c, JOBS_ESCAPE " sleep %2$.0f", jobs_long_s());
    c.spec.cancel = &c.token;
    pthread_t runner;
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pid_t escapee = jobs_escapee(&c);
    assert_true(jobs_alive(escapee));
    cancel_request(&c.token);
    pthread_join(runner, NULL);
    jobs_ended_early(&c, "the stopped run"); /* not at its limit, nor at the sleeps' end */
    assert_int_equal(c.out.cancelled, 1);
    assert_int_equal(c.out.timed_out, 0);
    assert_int_equal(c.out.exited, 0);
    jobs_escapee_gone(&c, escapee);
}

/* A program that ends leaving a process behind is not waited for (a background sleep holding its
   output, and an escapee): its end is its own exit status, and what it left is ended. */
static void test_child_left_behind(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c, JOBS_ESCAPE " sleep %2$.0f & echo done; exit 7", jobs_long_s());
    pthread_t runner;
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pthread_join(runner, NULL);
    pid_t escapee = jobs_read_pid(c.pidfile);
    jobs_ended_early(&c, "the run that left processes behind");
    assert_int_equal(c.out.timed_out, 0);
    assert_int_equal(c.out.exited, 1);
    assert_int_equal(c.out.status, 7);
    assert_non_null(strstr(c.out.output, "done"));
    assert_int_equal(c.out.left_behind, 2); /* the escapee and the background sleep, each once */
    if (escapee > 0) /* the escapee may not have written its pid before it was ended */
        jobs_escapee_gone(&c, escapee);
    else
        child_outcome_free(&c.out);
}

/* Runs c (made by jobs_child_make with a time limit) until its limit comes after its process has
   written its pid: the limit starts at limit_s and doubles each time it came first (the process's
   start, a shell's or python's, has no time of its own on a busy machine). The pid. */
static pid_t jobs_run_past_ready(jobs_child *c, double limit_s)
{
    test_guard guard = test_guard_start(300);
    for (;;) {
        c->spec.timeout_s = limit_s;
        chef_error err = {0};
        assert_int_equal(child_run(&c->spec, &c->out, &err), 0);
        pid_t pid = jobs_read_pid(c->pidfile);
        if (pid > 0)
            return pid;
        child_outcome_free(&c->out);
        if (test_guard_over(&guard))
            test_guard_fail(test_guard_waited(&guard),
                            "the child's process to write its pid before its time limit (the last limit %g s)", limit_s);
        print_message("the limit of %g s came before the child's process was ready: again with %g s\n", limit_s,
                      2 * limit_s);
        limit_s *= 2;
    }
}

/* At its time limit the program is killed with everything it started, escapees included. */
static void test_child_timeout_ends_escapee(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c, JOBS_ESCAPE " sleep %2$.0f", 0.5);
    pid_t escapee = jobs_run_past_ready(&c, 0.5);
    assert_int_equal(c.out.timed_out, 1);
    jobs_escapee_gone(&c, escapee);
}

/* A program that leaves its process group for its keeper's (so that the time limit's kill of its
   group misses it) is ended at the limit all the same: the keeper ends everything below it, at
   once, not when the caller gives up on it 10 s after the limit (child_reap_keeper, which would
   end it too, by killing the keeper's group). */
static void test_child_timeout_ends_a_group_leaver(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c,
                    "exec python3 -c 'import os, time; os.setpgid(0, os.getpgid(os.getppid())); "
                    "open(\"%1$s\", \"w\").write(str(os.getpid())); time.sleep(%2$.0f)'",
                    0.5);
    pid_t leaver = jobs_run_past_ready(&c, 0.5);
    assert_int_equal(c.out.timed_out, 1);
    /* the keeper's end is milliseconds after the limit; giving up on it takes 10 s */
    double after_s = c.out.ms / 1e3 - c.spec.timeout_s;
    if (after_s >= 10)
        fail_msg("the run ended %.1f s after its limit: the keeper left the group leaver to the 10 s give-up", after_s);
    jobs_escapee_gone(&c, leaver);
}

/* Waits for the run on runner (started by the test) to end, for the guard at most; fails with
   the guard's line, saying what, when it has not. */
static void jobs_join(pthread_t runner, const char *what)
{
    test_guard guard = test_guard_start(120);
    double left = guard.limit_s;
    struct timespec until;
    assert_int_equal(clock_gettime(CLOCK_REALTIME, &until), 0);
    until.tv_sec += (time_t)left;
    int rc = pthread_timedjoin_np(runner, NULL, &until);
    if (rc == ETIMEDOUT)
        test_guard_fail(test_guard_waited(&guard), "%s", what);
    assert_int_equal(rc, 0);
}

/* Two runs at once, on two threads: the second's keeper, forked while the first's pipes are open
   in this process, must not hold them, so the first ends when its own program does. Each program
   says it runs (its pid) and then waits for its go file: the second starts while the first runs,
   the first is let go and must end while the second still runs. */
static void test_child_runs_side_by_side(void **state)
{
    (void)state;
    static jobs_child quick, slow;
    /* (the wait ends with its pid file too: a program left behind never outlives the test) */
    static const char wait_for_go[] = "echo $$ > %1$s; while [ ! -e %1$s.go ] && [ -e %1$s ]; do sleep 0.01; done; echo ";
    char script[256];
    snprintf(script, sizeof script, "%squick", wait_for_go);
    jobs_child_make(&quick, script, jobs_long_s());
    snprintf(script, sizeof script, "%sslow", wait_for_go);
    jobs_child_make(&slow, script, jobs_long_s());
    pthread_t a, b;
    assert_int_equal(pthread_create(&a, NULL, jobs_child_main, &quick), 0);
    jobs_escapee(&quick); /* the first runs, its pipes open */
    assert_int_equal(pthread_create(&b, NULL, jobs_child_main, &slow), 0);
    jobs_escapee(&slow); /* the second's keeper forked, and its program runs */
    FILE *go = fopen(quick.go, "w");
    assert_non_null(go);
    fclose(go);
    jobs_join(a, "the quick run to end while the slow one still ran (it waited for the slow one's keeper)");
    go = fopen(slow.go, "w");
    assert_non_null(go);
    fclose(go);
    jobs_join(b, "the slow run to end once let go");
    assert_int_equal(quick.out.exited, 1);
    assert_int_equal(slow.out.exited, 1);
    assert_non_null(strstr(quick.out.output, "quick"));
    assert_non_null(strstr(slow.out.output, "slow"));
    unlink(quick.pidfile);
    unlink(quick.go);
    unlink(slow.pidfile);
    unlink(slow.go);
    child_outcome_free(&quick.out);
    child_outcome_free(&slow.out);
}

/* The faults a cook raises reach the emulator's handler on a job's thread too (it was made with
   every signal blocked): a read far past the end of a buffer is reported as the cook's, exit 4,
   instead of ending the process. */
static int jobs_unguarded_work(job *j, void *data)
{
    kitchen_params *p = data;
    p->cancel = job_token(j);
    kitchen_report r;
    int code = kitchen_run(p, &r);
    kitchen_report_free(&r);
    return code;
}

/* The same in a job. */
static void test_job_faults_reach_the_emulator(void **state)
{
    (void)state;
    kitchen_params p;
    kitchen_params_default(&p);
    p.recipe = "vector-add-unguarded";
    p.n = 16777000; /* past 2^20 cooks: the plain build, whose guard zone faults */
    p.backend = BACKEND_EMU;
    p.repeat = 1;
    job_spec spec = {"unguarded", jobs_unguarded_work, &p, NULL, NULL, NULL};
    chef_error err = {0};
    job *j = job_start(&spec, &err);
    assert_non_null(j);
    assert_int_equal(job_wait(j), CHEF_EXIT_CRASH);
    job_free(j);
}

/* A plain program runs as before: its output, its exit status, nothing left behind. */
static void test_child_plain(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c, "echo hello %1$s; exit 0", jobs_long_s());
    pthread_t runner;
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pthread_join(runner, NULL);
    assert_int_equal(c.out.exited, 1);
    assert_int_equal(c.out.status, 0);
    assert_int_equal(c.out.left_behind, 0);
    assert_non_null(strstr(c.out.output, "hello "));
    unlink(c.pidfile);
    child_outcome_free(&c.out);
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_runs_to_its_end),
        cmocka_unit_test(test_job_stopped),
        cmocka_unit_test(test_job_let_go),
        cmocka_unit_test(test_child_plain),
        cmocka_unit_test(test_child_stopped_with_its_escapee),
        cmocka_unit_test(test_child_left_behind),
        cmocka_unit_test(test_child_timeout_ends_escapee),
        cmocka_unit_test(test_child_timeout_ends_a_group_leaver),
        cmocka_unit_test(test_child_runs_side_by_side),
        cmocka_unit_test(test_job_faults_reach_the_emulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
