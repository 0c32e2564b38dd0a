/*
 * cancel.c - the stop token of long work (cancel.h): an atomic flag, and the process group a stop
 * kills at once.
 */
#include "base/cancel.h"

#include <signal.h>

/* A token nobody has asked to stop yet. */
void cancel_init(chef_cancel *c)
{
    atomic_init(&c->requested, 0);
    atomic_init(&c->group, 0);
}

/* Sets the flag, then ends the child's group if one is registered. */
void cancel_request(chef_cancel *c)
{
    if (!c)
        return;
    atomic_store(&c->requested, 1);
    int group = atomic_load(&c->group);
    if (group > 0)
        kill(-group, SIGKILL);
}

/* 1 once a stop was asked. */
int cancel_requested(const chef_cancel *c)
{
    return c && atomic_load_explicit(&c->requested, memory_order_relaxed);
}

/* Registers the child's group; 1 when the stop came first. */
int cancel_attach_group(chef_cancel *c, pid_t group)
{
    if (!c)
        return 0;
    atomic_store(&c->group, (int)group);
    return atomic_load(&c->requested); /* a stop asked before the store saw no group: say so */
}

/* Forgets the child's group (before it is reaped, so its number is never reused under a kill). */
void cancel_detach_group(chef_cancel *c)
{
    if (c)
        atomic_store(&c->group, 0);
}
