/*
 * replay.c - the trace replayed at a slower pace, as pure functions (see replay.h). The kitchen
 * screen asks "what is on each station now?" every frame; a trace has at most a few thousand
 * teams, so one pass over the records per question is cheap and needs no index.
 */
#include "engine/replay.h"

#include <stdlib.h>
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

/* Orders times ascending (qsort). */
static int replay_cmp_time(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The most teams on each station at once. The starts and the ends of each station's teams are
   gathered and sorted; walking the starts in order, the teams on the station just after a start
   are the starts so far less the ends at or before it, and the most is reached at some start. */
int replay_peaks(const trace *t, unsigned nstations, unsigned *peak)
{
    if (nstations == 0)
        return 0;
    memset(peak, 0, nstations * sizeof *peak);
    size_t n = t ? t->nblocks : 0;
    if (n == 0)
        return 0;
    size_t *from = calloc((size_t)nstations + 1, sizeof *from); /* station s: slots from[s] .. from[s+1]-1 */
    uint64_t *starts = malloc(n * sizeof *starts), *ends = malloc(n * sizeof *ends);
    if (!from || !starts || !ends) {
        free(from);
        free(starts);
        free(ends);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (t->blocks[i].station < nstations)
            from[t->blocks[i].station + 1]++;
    for (unsigned s = 0; s < nstations; s++)
        from[s + 1] += from[s];
    for (size_t i = 0; i < n; i++) { /* from[s] moves on as station s's slots fill, then is put back */
        const trace_block *b = &t->blocks[i];
        if (b->station >= nstations)
            continue;
        size_t slot = from[b->station]++;
        starts[slot] = b->start_ns;
        ends[slot] = b->end_ns;
    }
    for (unsigned s = nstations; s > 0; s--)
        from[s] = from[s - 1];
    from[0] = 0;
    for (unsigned s = 0; s < nstations; s++) {
        size_t first = from[s], count = from[s + 1] - first, gone = 0;
        qsort(starts + first, count, sizeof *starts, replay_cmp_time);
        qsort(ends + first, count, sizeof *ends, replay_cmp_time);
        for (size_t i = 0; i < count; i++) {
            while (gone < count && ends[first + gone] <= starts[first + i])
                gone++;
            if (i + 1 > gone && i + 1 - gone > peak[s])
                peak[s] = (unsigned)(i + 1 - gone);
        }
    }
    free(from);
    free(starts);
    free(ends);
    return 0;
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

/* A modeled launch as a trace: waves of teams over the stations. */
int replay_waves(unsigned stations, int per_station, double cook_ns, uint64_t teams, trace *t)
{
    trace_free(t);
    uint64_t per = per_station > 0 ? (uint64_t)per_station : 1;
    if (teams == 0 || stations == 0 || teams > UINT32_MAX || trace_reserve_blocks(t, (size_t)teams) != 0)
        return -1;
    uint64_t wave_size = stations * per, waves = (teams + wave_size - 1) / wave_size;
    uint64_t wave_ns = cook_ns > (double)waves ? (uint64_t)(cook_ns / (double)waves) : 1;
    for (uint64_t b = 0; b < teams; b++) {
        uint64_t wave = b / wave_size;
        t->blocks[b] = (trace_block){(uint32_t)b, (uint32_t)(b % stations), wave * wave_ns, (wave + 1) * wave_ns};
    }
    t->nblocks = (size_t)teams;
    t->from_gpu = 0;
    return 0;
}
