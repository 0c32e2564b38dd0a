/*
 * test_jobs.c - long work off the caller's thread (src/base/job.c) and the programs it waits for
 * (src/grading/child.c): a job's data, code, words and end; a stop asked while it runs; a job let
 * go while it runs frees itself; a child stopped through its token ends with every process it
 * started, one that left its process group with setsid() included; a program that ends leaving a
 * process behind (holding its output, or escaped with setsid) is not waited for, and what it left
 * is ended; a time-out ends escapees too.
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
    int steps;          /* steps the work took */
    int stopped;        /* the work saw its stop */
    atomic_int notified;
    int *freed;         /* set to 1 when the data is freed */
} jobs_data;

/* A job's work: says each step, stops when asked, returns 3 when it ran to its end. */
static int jobs_work(job *j, void *data)
{
    jobs_data *d = data;
    for (d->steps = 0; d->steps < 50; d->steps++) {
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
    *d->freed = 1;
    free(d);
}

/* Starts jobs_work on new data; *freed is set once the data is freed. */
static job *jobs_start(int *freed, jobs_data **out)
{
    jobs_data *d = calloc(1, sizeof *d);
    assert_non_null(d);
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
    job *j = jobs_start(&freed, &d);
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
    for (int i = 0; i < 100 && atomic_load(&d->notified) < 51; i++)
        jobs_nap(10); /* the end's news comes just after the job is seen finished */
    assert_true(atomic_load(&d->notified) >= 51); /* each step, and the end */
    double ms = job_elapsed_ms(j);
    assert_true(ms >= 400);
    jobs_nap(50);
    assert_true(job_elapsed_ms(j) == ms); /* the clock stops at the end */
    assert_int_equal(job_free(j), 0);
    assert_int_equal(freed, 1);
}

/* A stop asked while it runs reaches the work between its steps. */
static void test_job_stopped(void **state)
{
    (void)state;
    int freed;
    jobs_data *d;
    job *j = jobs_start(&freed, &d);
    jobs_nap(60);
    assert_false(job_cancelled(j));
    job_cancel(j);
    assert_true(job_cancelled(j));
    assert_int_equal(job_wait(j), CHEF_EXIT_ENVIRONMENT);
    assert_int_equal(d->stopped, 1);
    assert_true(d->steps > 0 && d->steps < 50);
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
    job *j = jobs_start(&freed, &d);
    jobs_nap(30);
    assert_int_equal(job_free(j), 1);
    for (int i = 0; i < 200 && !freed; i++)
        jobs_nap(10);
    assert_int_equal(freed, 1);
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
    char pidfile[64];
    char script[512];
    child_spec spec;
    char *argv[4];
    child_outcome out;
    chef_cancel token;
} jobs_child;

/* Sets up a child that runs script (with %s for the pid file) under a time limit. */
static void jobs_child_make(jobs_child *c, const char *script, double timeout_s)
{
    memset(c, 0, sizeof *c);
    snprintf(c->pidfile, sizeof c->pidfile, "%s/cudachef-jobs-%d-XXXXXX", test_tmp_dir(), (int)getpid());
    int fd = mkstemp(c->pidfile);
    assert_true(fd >= 0);
    close(fd);
    snprintf(c->script, sizeof c->script, script, c->pidfile);
    c->argv[0] = "/bin/sh";
    c->argv[1] = "-c";
    c->argv[2] = c->script;
    c->spec.argv = c->argv;
    c->spec.timeout_s = timeout_s;
    c->spec.keep = 4096;
    cancel_init(&c->token);
}

/* Waits for the escapee to write its pid; the pid. */
static pid_t jobs_escapee(const jobs_child *c)
{
    pid_t pid = 0;
    for (int i = 0; i < 500 && !(pid = jobs_read_pid(c->pidfile)); i++)
        jobs_nap(10);
    assert_true(pid > 0);
    return pid;
}

/* The escapee is gone (given a moment to be reaped); the pid file removed. */
static void jobs_escapee_gone(jobs_child *c, pid_t pid)
{
    for (int i = 0; i < 100 && jobs_alive(pid); i++)
        jobs_nap(10);
    if (jobs_alive(pid)) {
        kill(pid, SIGKILL);
        fail_msg("process %d, which left its process group with setsid, outlived its run", (int)pid);
    }
    unlink(c->pidfile);
    child_outcome_free(&c->out);
}

/* The escape a learner's kernel could try: a process in a session of its own, sleeping on. */
#define JOBS_ESCAPE "setsid sh -c 'echo $$ > %s; exec sleep 60' </dev/null >/dev/null 2>&1 &"

/* The child's run, on a thread of its own, so that the test can stop it from outside. */
static void *jobs_child_main(void *arg)
{
    jobs_child *c = arg;
    chef_error err = {0};
    if (child_run(&c->spec, &c->out, &err) != 0)
        c->out.status = -1;
    return NULL;
}

/* A stop asked through the token ends the run at once, and every process it started: the one that
   left its process group with setsid() too. */
static void test_child_stopped_with_its_escapee(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c, JOBS_ESCAPE " sleep 60", 30);
    c.spec.cancel = &c.token;
    pthread_t runner;
    double start = chef_now_ms();
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pid_t escapee = jobs_escapee(&c);
    assert_true(jobs_alive(escapee));
    cancel_request(&c.token);
    pthread_join(runner, NULL);
    assert_true(chef_now_ms() - start < 10000); /* not the 30 s limit, nor the sleeps' 60 s */
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
    jobs_child_make(&c, JOBS_ESCAPE " sleep 60 & echo done; exit 7", 30);
    pthread_t runner;
    double start = chef_now_ms();
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pthread_join(runner, NULL);
    pid_t escapee = jobs_read_pid(c.pidfile);
    assert_true(chef_now_ms() - start < 10000);
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

/* At its time limit the program is killed with everything it started, escapees included. */
static void test_child_timeout_ends_escapee(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c, JOBS_ESCAPE " sleep 60", 0.5);
    pthread_t runner;
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pid_t escapee = jobs_escapee(&c);
    pthread_join(runner, NULL);
    assert_int_equal(c.out.timed_out, 1);
    jobs_escapee_gone(&c, escapee);
}

/* A program that leaves its process group for its keeper's (so that the time limit's kill of its
   group misses it) is ended at the limit all the same: the keeper ends everything below it. */
static void test_child_timeout_ends_a_group_leaver(void **state)
{
    (void)state;
    static jobs_child c;
    jobs_child_make(&c,
                    "exec python3 -c 'import os, time; os.setpgid(0, os.getpgid(os.getppid())); "
                    "open(\"%s\", \"w\").write(str(os.getpid())); time.sleep(60)'",
                    0.5);
    pthread_t runner;
    double start = chef_now_ms();
    assert_int_equal(pthread_create(&runner, NULL, jobs_child_main, &c), 0);
    pid_t leaver = jobs_escapee(&c);
    pthread_join(runner, NULL);
    assert_true(chef_now_ms() - start < 8000); /* not the keeper's 10 s of patience */
    assert_int_equal(c.out.timed_out, 1);
    jobs_escapee_gone(&c, leaver);
}

/* Two runs at once, on two threads: the second's keeper, forked while the first's pipes are open
   in this process, must not hold them, so the first ends when its own program does. */
static void test_child_runs_side_by_side(void **state)
{
    (void)state;
    static jobs_child quick, slow;
    jobs_child_make(&quick, "sleep 0.5; echo quick %s", 10);
    jobs_child_make(&slow, "sleep 4; echo slow %s", 10);
    pthread_t a, b;
    double start = chef_now_ms();
    assert_int_equal(pthread_create(&a, NULL, jobs_child_main, &quick), 0);
    jobs_nap(100);
    assert_int_equal(pthread_create(&b, NULL, jobs_child_main, &slow), 0);
    pthread_join(a, NULL);
    double quick_ms = chef_now_ms() - start;
    pthread_join(b, NULL);
    assert_int_equal(quick.out.exited, 1);
    assert_int_equal(slow.out.exited, 1);
    if (quick_ms > 3000)
        fail_msg("the quick run took %.0f ms: it waited for the slow one's keeper", quick_ms);
    unlink(quick.pidfile);
    unlink(slow.pidfile);
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
    jobs_child_make(&c, "echo hello %s; exit 0", 10);
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
