/*
 * job.h - long work on a thread of its own: a kitchen run, an exercise check, a sweep, the probe
 * for a GPU. The full-screen interface starts every long action as a job, so its screen keeps
 * drawing and answering keys meanwhile; the grader can run several at once the same way.
 *
 * A job owns its data (a run's report, a check's result) until it is freed: its owner reads the
 * data, as a view, once the job has finished. The work runs with every signal blocked (they belong
 * to the thread that started it), says how far it is with job_say, and reads its stop token
 * (cancel.h) between steps: job_cancel asks it to stop and kills at once the child process it is
 * waiting for. The owner hears of progress and of the end through the notify callback, called on
 * the job's thread (a byte on a pipe: keep it that small).
 */
#ifndef CUDACHEF_BASE_JOB_H
#define CUDACHEF_BASE_JOB_H

#include <stddef.h>

#include "base/cancel.h"
#include "base/chef.h"

typedef struct job job;

/* The work: runs on the job's thread with the job's data; returns an exit code (chef.h). */
typedef int (*job_work)(job *j, void *data);

/* What to start. */
typedef struct job_spec {
    const char *what;              /* what runs, for people ("cooking vector-add"); copied */
    job_work work;
    void *data;                    /* the job's from now on; freed with data_free by job_free */
    void (*data_free)(void *data); /* NULL: data is not freed */
    void (*notify)(void *ctx);     /* NULL, or called on the job's thread after job_say and at the end */
    void *notify_ctx;
} job_spec;

/* Starts the work on a new thread: the job, or NULL with err when no thread could be made (the
   data is then still the caller's). */
job *job_start(const job_spec *spec, chef_error *err);

/* 1 while the work has not returned. */
int job_running(const job *j);

/* The work's exit code, once it has returned. */
int job_code(const job *j);

/* The job's data: the owner may read it once the job has finished; it lives as long as the job. */
void *job_data(const job *j);

/* What runs, as given to job_start. */
const char *job_what(const job *j);

/* Milliseconds since the job started, until now or until it finished. */
double job_elapsed_ms(const job *j);

/* Asks the work to stop: its token's flag is set and its child process group killed. */
void job_cancel(job *j);

/* 1 once job_cancel was called. */
int job_cancelled(const job *j);

/* The work's stop token, to hand down (kitchen_params.cancel, child_spec.cancel). */
chef_cancel *job_token(job *j);

/* From the work: how far it is, in a line for people (a printf format); the owner is notified. */
void job_say(job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The last line the work said, into out ("" before any). */
void job_said(job *j, char *out, size_t size);

/* Waits for the work to return; its exit code. */
int job_wait(job *j);

/* How many jobs' work has not returned yet in this process, those let go included (a program that
   still has one must end with _exit, see job_free). */
int job_live(void);

/* Frees a finished job and its data. A job still running is asked to stop and let go: it frees
   itself when its work returns. Returns 1 in that case (at the end of a program, which must then
   end with _exit, whose clean-up the work would otherwise race), 0 when it had finished. NULL is
   fine. */
int job_free(job *j);

#endif
