/*
 * cancel.h - asking long work to stop, from another thread: a flag the work reads between its
 * steps (a kitchen run between shipments and launches, the emulator between teams, a sweep between
 * measurements), and the process group of a child the work is waiting for, which the asker ends at
 * once (grading/child.c registers it). Work that cannot be stopped midway (a GPU kernel already
 * launched) finishes first and stops after it.
 */
#ifndef CUDACHEF_BASE_CANCEL_H
#define CUDACHEF_BASE_CANCEL_H

#include <stdatomic.h>
#include <sys/types.h>

typedef struct chef_cancel {
    atomic_int requested; /* 1 once someone asked the work to stop */
    atomic_int group;     /* the process group of the child the work waits for; 0 none */
} chef_cancel;

/* A token nobody has asked to stop yet. */
void cancel_init(chef_cancel *c);

/* Asks the work to stop (any thread): sets the flag and kills the registered process group. */
void cancel_request(chef_cancel *c);

/* 1 when the work was asked to stop; 0 also for a NULL token (work nobody can stop). */
int cancel_requested(const chef_cancel *c);

/* The work waits for a child in process group group from now on: a stop asked from here on kills
   it. Returns 1 when a stop was asked already (the caller kills the group itself). */
int cancel_attach_group(chef_cancel *c, pid_t group);

/* The child's group is gone (reaped): nothing to kill any more. */
void cancel_detach_group(chef_cancel *c);

#endif
