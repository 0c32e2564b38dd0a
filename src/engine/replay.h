/*
 * replay.h - a launch's trace replayed slowly: which teams are on which station at a moment of
 * the run, the next moment something changes, and how far a shipment has gone. Pure functions of
 * the trace and a time (no clock, no curses), so the kitchen screen draws what they say and the
 * unit tests check it.
 */
#ifndef CUDACHEF_REPLAY_H
#define CUDACHEF_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "base/trace.h"

/* No team on a station (replay_at's current). */
#define REPLAY_NONE UINT32_MAX

/* The last end in the trace: how long the launch took, in ns of the run (0 when empty). */
uint64_t replay_span_ns(const trace *t);

/* The stations at time t_ns of the run: for each station s < nstations, busy[s] the teams cooking
   there (start <= t_ns < end), done[s] the teams finished (end <= t_ns) and current[s] the block
   of the busy team that comes last in the records (the
   latest started, as trace_normalize orders them) (REPLAY_NONE when idle). Any array may be
   NULL. Stations past nstations are ignored. Returns the teams cooking anywhere. */
size_t replay_at(const trace *t, uint64_t t_ns, unsigned nstations, unsigned *busy, unsigned *done,
                 uint32_t *current);

/* The most teams each station s < nstations held at once over the whole run, into peak[s] (a
   team is on its station from its start up to, not including, its end, as in replay_at; records
   in any order). Stations past nstations are ignored. Returns 0, or -1 when out of memory (peak
   then all 0). */
int replay_peaks(const trace *t, unsigned nstations, unsigned *peak);

/* The first moment after t_ns when a team starts or finishes; the span when none is left. */
uint64_t replay_next_event(const trace *t, uint64_t t_ns);

/* A GPU's scheduler as a model draws it, into t (for the floor plan to replay a modeled launch):
   teams in index order over stations stations, per_station at a time on each (round-robin, as a
   GPU hands out a wave), each team lasting one wave's share of cook_ns: so many waves, the last
   one's tail as the count gives. A picture of a model, never a measurement (from_gpu is 0). 0, or
   -1 when out of memory or there is nothing to place (t is then empty). */
int replay_waves(unsigned stations, int per_station, double cook_ns, uint64_t teams, trace *t);

/* How many ns of the run one second on screen stands for, so that span_ns lasts screen_s
   seconds on screen (1 when the span is 0). */
double replay_ns_per_screen_second(uint64_t span_ns, double screen_s);

/* The bytes of a shipment of bytes at gb_per_s that have arrived run_s seconds of the run after
   it left (all of them once it has had the time; none when the speed is not positive). */
size_t replay_shipped(size_t bytes, double gb_per_s, double run_s);

#endif
