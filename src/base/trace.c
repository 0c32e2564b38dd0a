/*
 * trace.c - putting a launch's block records in order and summing them up.
 */
#include "base/trace.h"

#include <stdlib.h>
#include <string.h>

/* Orders block records by start time, then by block index. */
static int trace_cmp_start(const void *a, const void *b)
{
    const trace_block *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Orders the block records by start time and makes the times relative to the first start. */
void trace_normalize(trace *t)
{
    if (!t || !t->blocks || t->nblocks == 0)
        return;
    qsort(t->blocks, t->nblocks, sizeof *t->blocks, trace_cmp_start);
    uint64_t first = t->blocks[0].start_ns;
    for (size_t i = 0; i < t->nblocks; i++) {
        t->blocks[i].start_ns -= first;
        t->blocks[i].end_ns = t->blocks[i].end_ns >= first ? t->blocks[i].end_ns - first : 0;
    }
}

/* An event for the sweep that counts teams resident on a station at once. */
typedef struct trace_event {
    uint64_t time;
    uint32_t station;
    int delta;
} trace_event;

/* Orders events by time, ends before starts at the same instant. */
static int trace_cmp_event(const void *a, const void *b)
{
    const trace_event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->delta - y->delta;
}

/* Computes the summary figures of a (normalized) trace. */
trace_summary trace_summarize(const trace *t)
{
    trace_summary s;
    memset(&s, 0, sizeof s);
    if (!t || !t->blocks || t->nblocks == 0)
        return s;
    s.blocks = t->nblocks;
    uint32_t max_station = 0;
    uint32_t highest_started = 0;
    for (size_t i = 0; i < t->nblocks; i++) {
        const trace_block *r = &t->blocks[i];
        if (r->station > max_station)
            max_station = r->station;
        if (r->end_ns > s.span_ns)
            s.span_ns = r->end_ns;
        if (i > 0 && r->block < highest_started)
            s.blocks_out_of_order++;
        if (r->block > highest_started)
            highest_started = r->block;
    }
    unsigned *resident = calloc((size_t)max_station + 1, sizeof *resident);
    trace_event *ev = malloc(2 * t->nblocks * sizeof *ev);
    if (resident && ev) {
        for (size_t i = 0; i < t->nblocks; i++) {
            ev[2 * i] = (trace_event){t->blocks[i].start_ns, t->blocks[i].station, +1};
            ev[2 * i + 1] = (trace_event){t->blocks[i].end_ns, t->blocks[i].station, -1};
        }
        qsort(ev, 2 * t->nblocks, sizeof *ev, trace_cmp_event);
        for (size_t i = 0; i < 2 * t->nblocks; i++) {
            unsigned *r = &resident[ev[i].station];
            if (ev[i].delta > 0) {
                (*r)++;
                if (*r > s.max_resident)
                    s.max_resident = *r;
            } else if (*r > 0) {
                (*r)--;
            }
        }
        memset(resident, 0, ((size_t)max_station + 1) * sizeof *resident);
        for (size_t i = 0; i < t->nblocks; i++)
            if (!resident[t->blocks[i].station]++)
                s.stations_used++;
    }
    free(resident);
    free(ev);
    return s;
}

/* Makes room for n block records; returns -1 when out of memory. */
int trace_reserve_blocks(trace *t, size_t n)
{
    if (t->blocks && t->blocks_capacity >= n)
        return 0;
    trace_block *b = realloc(t->blocks, (n ? n : 1) * sizeof *b);
    if (!b)
        return -1;
    t->blocks = b;
    t->blocks_capacity = n;
    return 0;
}

/* Releases the record arrays. */
void trace_free(trace *t)
{
    if (!t)
        return;
    free(t->blocks);
    free(t->threads);
    free(t->accesses);
    memset(t, 0, sizeof *t);
}
