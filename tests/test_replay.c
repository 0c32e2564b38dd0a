/*
 * test_replay.c - the trace replay without a terminal: which teams are on which station at a
 * moment, the next moment something changes, the scale, and a shipment's progress.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/replay.h"

/* Three teams on two stations: 0 on station 0 from 0 to 10, 1 on station 1 from 2 to 6,
   2 on station 0 from 5 to 12 (overlapping team 0). */
static trace_block replay_blocks[] = {{0, 0, 0, 10}, {1, 1, 2, 6}, {2, 0, 5, 12}};
static const trace replay_trace = {.blocks = replay_blocks, .nblocks = 3, .blocks_capacity = 3};

/* The span is the last end. */
static void test_span(void **state)
{
    (void)state;
    assert_int_equal(replay_span_ns(&replay_trace), 12);
    trace empty = {0};
    assert_int_equal(replay_span_ns(&empty), 0);
}

/* Teams fill and empty the stations at their recorded times. */
static void test_at(void **state)
{
    (void)state;
    unsigned busy[2], done[2];
    uint32_t current[2];
    assert_int_equal(replay_at(&replay_trace, 0, 2, busy, done, current), 1);
    assert_int_equal(busy[0], 1);
    assert_int_equal(busy[1], 0);
    assert_int_equal(current[0], 0);
    assert_int_equal(current[1], REPLAY_NONE);
    assert_int_equal(replay_at(&replay_trace, 5, 2, busy, done, current), 3);
    assert_int_equal(busy[0], 2);
    assert_int_equal(busy[1], 1);
    assert_int_equal(current[0], 2); /* the latest started */
    assert_int_equal(current[1], 1);
    assert_int_equal(replay_at(&replay_trace, 6, 2, busy, done, current), 2);
    assert_int_equal(busy[1], 0);
    assert_int_equal(done[1], 1);
    assert_int_equal(replay_at(&replay_trace, 10, 2, busy, done, current), 1);
    assert_int_equal(done[0], 1);
    assert_int_equal(current[0], 2);
    assert_int_equal(replay_at(&replay_trace, 12, 2, busy, done, current), 0);
    assert_int_equal(done[0], 2);
    assert_int_equal(done[1], 1);
    assert_int_equal(current[0], REPLAY_NONE);
    /* stations past nstations are counted as cooking but not written; NULL arrays are allowed */
    assert_int_equal(replay_at(&replay_trace, 3, 1, busy, NULL, NULL), 2);
    assert_int_equal(busy[0], 1);
}

/* The most teams on each station at once: station 0 holds teams 0 and 2 together from 5 to 10,
   station 1 only team 1; a team ending when another starts never shares the station with it; the
   records may come in any order and stations past nstations are left out. */
static void test_peaks(void **state)
{
    (void)state;
    unsigned peak[3] = {9, 9, 9};
    assert_int_equal(replay_peaks(&replay_trace, 3, peak), 0);
    assert_int_equal(peak[0], 2);
    assert_int_equal(peak[1], 1);
    assert_int_equal(peak[2], 0); /* nothing cooked there */
    /* the peak is what replay_at sees at its busiest moment */
    unsigned busy[2];
    replay_at(&replay_trace, 5, 2, busy, NULL, NULL);
    assert_int_equal(busy[0], peak[0]);
    /* back to back on station 0 (0-5, 5-9), then three at once on station 1 (out of order, with
       a team of no length, which is never on the station) and one on station 2, ignored */
    trace_block blocks[] = {{0, 0, 0, 5}, {1, 0, 5, 9}, {2, 1, 7, 20}, {3, 1, 3, 8},
                            {4, 1, 6, 6}, {5, 1, 6, 30}, {6, 2, 0, 100}, {7, 1, 20, 21}};
    trace t = {.blocks = blocks, .nblocks = 8, .blocks_capacity = 8};
    assert_int_equal(replay_peaks(&t, 2, peak), 0);
    assert_int_equal(peak[0], 1);
    assert_int_equal(peak[1], 3); /* 3-8, 6-30 and 7-20 from 7 to 8; 20-21 only meets 6-30 */
    trace empty = {0};
    assert_int_equal(replay_peaks(&empty, 2, peak), 0);
    assert_int_equal(peak[0], 0);
    assert_int_equal(peak[1], 0);
}

/* `.` steps from one change to the next, then stays at the end. */
static void test_next_event(void **state)
{
    (void)state;
    uint64_t expect[] = {2, 5, 6, 10, 12, 12};
    uint64_t t = 0;
    for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
        t = replay_next_event(&replay_trace, t);
        assert_int_equal(t, expect[i]);
    }
}

/* The scale makes the span last the seconds asked; a shipment arrives at its speed. */
static void test_scale_and_shipping(void **state)
{
    (void)state;
    assert_true(replay_ns_per_screen_second(12000, 4) == 3000);
    assert_true(replay_ns_per_screen_second(0, 4) == 1);
    assert_int_equal(replay_shipped(1000, 1, 0), 0);
    assert_int_equal(replay_shipped(1000, 1, 250e-9), 250); /* 1 GB/s moves 1 byte per ns */
    assert_int_equal(replay_shipped(1000, 1, 1), 1000);
    assert_int_equal(replay_shipped(1000, 0, 1), 0);
}

/* A modeled launch's picture: 2000 teams on 132 stations, 8 at a time, are 2 waves (1056, then
   944), round-robin over the stations, each team one wave long, the span the cooking time given;
   no teams or no stations is no picture. */
static void test_waves(void **state)
{
    (void)state;
    trace t = {0};
    assert_int_equal(replay_waves(132, 8, 8000, 2000, &t), 0);
    assert_int_equal(t.nblocks, 2000);
    assert_int_equal(t.from_gpu, 0);
    assert_int_equal(t.blocks[0].station, 0);
    assert_int_equal(t.blocks[133].station, 1);
    assert_int_equal(t.blocks[1055].start_ns, 0);
    assert_int_equal(t.blocks[1056].start_ns, 4000);
    assert_int_equal(replay_span_ns(&t), 8000);
    unsigned peak[132];
    assert_int_equal(replay_peaks(&t, 132, peak), 0);
    for (int s = 0; s < 132; s++)
        assert_int_equal(peak[s], 8);
    assert_int_equal(replay_at(&t, 4000, 0, NULL, NULL, NULL), 944);
    assert_int_equal(replay_waves(132, 8, 8000, 0, &t), -1);
    assert_int_equal(t.nblocks, 0);
    assert_int_equal(replay_waves(0, 8, 8000, 10, &t), -1);
    trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_span),
        cmocka_unit_test(test_at),
        cmocka_unit_test(test_peaks),
        cmocka_unit_test(test_next_event),
        cmocka_unit_test(test_scale_and_shipping),
        cmocka_unit_test(test_waves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
