/*
 * replay.c - the trace replayed at a slower pace, as pure functions (see replay.h). The kitchen
 * screen asks "what is on each station now?" every frame; a trace has at most a few thousand
 * teams, so one pass over the records per question is cheap and needs no index.
 */
#include "replay.h"

#include <string.h>

/* The last end in the trace. */
uint64_t replay_span_ns(const trace *t)
{
    uint64_t span = 0;
    for (size_t i = 0; t && i < t->nblocks; i++)
        if (t->blocks[i].end_ns > span)
            span = t->blocks[i].end_ns;
    return span;
}

/* The teams on each station at t_ns. */
size_t replay_at(const trace *t, uint64_t t_ns, unsigned nstations, unsigned *busy, unsigned *done,
                 uint32_t *current)
{
    if (busy)
        memset(busy, 0, nstations * sizeof *busy);
    if (done)
        memset(done, 0, nstations * sizeof *done);
    for (unsigned s = 0; current && s < nstations; s++)
        current[s] = REPLAY_NONE;
    size_t cooking = 0;
    for (size_t i = 0; t && i < t->nblocks; i++) {
        const trace_block *b = &t->blocks[i];
        int at_work = b->start_ns <= t_ns && t_ns < b->end_ns;
        cooking += at_work;
        if (b->station >= nstations)
            continue;
        if (at_work && busy)
            busy[b->station]++;
        if (b->end_ns <= t_ns && done)
            done[b->station]++;
        /* trace_normalize orders the records by start: the last busy one started last */
        if (at_work && current)
            current[b->station] = b->block;
    }
    return cooking;
}

/* The next start or end after t_ns. */
uint64_t replay_next_event(const trace *t, uint64_t t_ns)
{
    uint64_t next = UINT64_MAX;
    for (size_t i = 0; t && i < t->nblocks; i++) {
        const trace_block *b = &t->blocks[i];
        if (b->start_ns > t_ns && b->start_ns < next)
            next = b->start_ns;
        if (b->end_ns > t_ns && b->end_ns < next)
            next = b->end_ns;
    }
    return next == UINT64_MAX ? replay_span_ns(t) : next;
}

/* ns of the run per second on screen. */
double replay_ns_per_screen_second(uint64_t span_ns, double screen_s)
{
    if (span_ns == 0 || screen_s <= 0)
        return 1;
    return (double)span_ns / screen_s;
}

/* The bytes of a shipment that have arrived after run_s seconds. */
size_t replay_shipped(size_t bytes, double gb_per_s, double run_s)
{
    if (gb_per_s <= 0 || run_s <= 0)
        return 0;
    double moved = gb_per_s * 1e9 * run_s;
    return moved >= (double)bytes ? bytes : (size_t)moved;
}
