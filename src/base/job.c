/*
 * job.c - long work on a thread of its own (job.h).
 *
 * The thread is made with every signal blocked, so a signal sent to the process always reaches the
 * thread that owns the terminal; the faults a thread raises itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE)
 * are unblocked again at its start, so that the emulator's handlers (and the interface's, which
 * give the terminal back) see them, in the job's thread and in the threads it makes. done is set with release order after the work's last write, and read with acquire
 * order, so an owner that sees it finished sees the data whole. A job freed while it runs is
 * marked orphaned under the lock; whichever of the two comes last, the work's end or job_free,
 * frees it.
 */
#include "base/job.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct job {
    pthread_t thread;
    job_spec spec;
    char what[200];
    chef_cancel token;
    pthread_mutex_t lock;      /* said, orphaned, and done for job_wait */
    pthread_cond_t ended;      /* signalled when the work returns */
    char said[300];
    int orphaned;              /* job_free was called while the work ran: the thread frees it */
    atomic_int done;           /* the work returned: code and data are final */
    int code;
    double start_ms, end_ms;
};

/* Frees the job and its data. */
static void job_destroy(job *j)
{
    if (j->spec.data_free)
        j->spec.data_free(j->spec.data);
    pthread_cond_destroy(&j->ended);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

static atomic_int job_alive; /* jobs whose work has not returned, let go ones included */

/* The job's thread: runs the work, marks it done, tells the owner (or frees an orphan). */
static void *job_main(void *arg)
{
    job *j = arg;
    sigset_t faults;
    sigemptyset(&faults);
    sigaddset(&faults, SIGSEGV);
    sigaddset(&faults, SIGBUS);
    sigaddset(&faults, SIGILL);
    sigaddset(&faults, SIGFPE);
    pthread_sigmask(SIG_UNBLOCK, &faults, NULL);
    int code = j->spec.work(j, j->spec.data);
    pthread_mutex_lock(&j->lock);
    j->code = code;
    j->end_ms = chef_now_ms();
    atomic_store_explicit(&j->done, 1, memory_order_release);
    pthread_cond_broadcast(&j->ended);
    int orphaned = j->orphaned;
    void (*notify)(void *) = j->spec.notify;
    void *ctx = j->spec.notify_ctx;
    pthread_mutex_unlock(&j->lock);
    if (orphaned)
        job_destroy(j);
    else if (notify)
        notify(ctx);
    atomic_fetch_sub(&job_alive, 1);
    return NULL;
}

/* Starts the work on a thread with every signal blocked. */
job *job_start(const job_spec *spec, chef_error *err)
{
    job *j = calloc(1, sizeof *j);
    if (!j) {
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "not enough memory to start %s", spec->what);
        return NULL;
    }
    j->spec = *spec;
    snprintf(j->what, sizeof j->what, "%s", spec->what ? spec->what : "");
    j->spec.what = j->what;
    cancel_init(&j->token);
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->ended, NULL);
    atomic_init(&j->done, 0);
    j->start_ms = chef_now_ms();
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved);
    atomic_fetch_add(&job_alive, 1);
    int rc = pthread_create(&j->thread, NULL, job_main, j);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0) {
        atomic_fetch_sub(&job_alive, 1);
        pthread_cond_destroy(&j->ended);
        pthread_mutex_destroy(&j->lock);
        free(j);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "no thread could be made for %s", spec->what);
        return NULL;
    }
    return j;
}

/* 1 while the work runs. */
int job_running(const job *j)
{
    return j && !atomic_load_explicit(&j->done, memory_order_acquire);
}

/* The work's exit code. */
int job_code(const job *j)
{
    return j->code;
}

/* The job's data. */
void *job_data(const job *j)
{
    return j->spec.data;
}

/* What runs. */
const char *job_what(const job *j)
{
    return j->what;
}

/* Milliseconds the job has run (or ran). */
double job_elapsed_ms(const job *j)
{
    return (job_running(j) ? chef_now_ms() : j->end_ms) - j->start_ms;
}

/* Asks the work to stop. */
void job_cancel(job *j)
{
    if (j)
        cancel_request(&j->token);
}

/* 1 once a stop was asked. */
int job_cancelled(const job *j)
{
    return j && cancel_requested(&j->token);
}

/* The work's stop token. */
chef_cancel *job_token(job *j)
{
    return &j->token;
}

/* Keeps what the work says and tells the owner. */
void job_say(job *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&j->lock);
    vsnprintf(j->said, sizeof j->said, fmt, ap);
    pthread_mutex_unlock(&j->lock);
    va_end(ap);
    if (j->spec.notify)
        j->spec.notify(j->spec.notify_ctx);
}

/* The last line the work said. */
void job_said(job *j, char *out, size_t size)
{
    pthread_mutex_lock(&j->lock);
    snprintf(out, size, "%s", j->said);
    pthread_mutex_unlock(&j->lock);
}

/* Waits for the work to return. */
int job_wait(job *j)
{
    pthread_mutex_lock(&j->lock);
    while (!atomic_load_explicit(&j->done, memory_order_acquire))
        pthread_cond_wait(&j->ended, &j->lock);
    pthread_mutex_unlock(&j->lock);
    return j->code;
}

/* Frees a finished job; asks a running one to stop and lets it go. */
int job_free(job *j)
{
    if (!j)
        return 0;
    pthread_mutex_lock(&j->lock);
    int running = !atomic_load_explicit(&j->done, memory_order_acquire);
    pthread_t thread = j->thread;
    if (running) {
        /* asked to stop and marked orphaned while the lock holds the job: once it is released the
           work may end and free it */
        cancel_request(&j->token);
        j->orphaned = 1;
    }
    pthread_mutex_unlock(&j->lock);
    if (running) {
        pthread_detach(thread);
        return 1;
    }
    pthread_join(j->thread, NULL);
    job_destroy(j);
    return 0;
}

/* How many jobs' work has not returned yet, let go ones included. */
int job_live(void)
{
    return atomic_load(&job_alive);
}
