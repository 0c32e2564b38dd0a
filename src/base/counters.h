/*
 * counters.h - what a launch did to memory, counted per warp and named as Nsight Compute names it.
 *
 * The emulator's checked build fills these for every launch it runs (emu_check.c); `run`, `try`,
 * the JSON report and the kitchen show them. How each one is counted, and where a GPU can differ,
 * is in docs/EMULATOR.md ("Counters"). Values are totals over the teams counted; a launch whose
 * teams were not all counted scales them (counters_scaled) and says so.
 */
#ifndef CUDACHEF_COUNTERS_H
#define CUDACHEF_COUNTERS_H

#include <stdint.h>

typedef enum counter_id {
    COUNTER_GLOBAL_LD_REQUESTS,   /* warp load instructions on global memory */
    COUNTER_GLOBAL_LD_SECTORS,    /* distinct 32-byte sectors each of them reached, summed */
    COUNTER_GLOBAL_ST_REQUESTS,
    COUNTER_GLOBAL_ST_SECTORS,
    COUNTER_GLOBAL_ATOMICS,       /* warp atomic instructions on global memory */
    COUNTER_SHARED_LD_INSTRUCTIONS,
    COUNTER_SHARED_LD_WAVEFRONTS, /* passes of the 32 banks the loads took */
    COUNTER_SHARED_LD_CONFLICTS,  /* wavefronts beyond the fewest the access width needs */
    COUNTER_SHARED_ST_INSTRUCTIONS,
    COUNTER_SHARED_ST_WAVEFRONTS,
    COUNTER_SHARED_ST_CONFLICTS,
    COUNTER_SHARED_ATOMICS,
    COUNTER_BARRIERS,             /* warps at __syncthreads(), summed over its calls */
    COUNTER_MEMORY_INSTRUCTIONS,  /* every warp memory instruction counted above */
    COUNTER_DIVERGENT,            /* of those, run with only part of the warp's cooks */
    COUNTER_WARP_BLOCKS,          /* warp runs of the kernel's basic blocks (each branch target reached) */
    COUNTER_WARP_BLOCKS_DIVERGENT, /* of those, run by only part of the warp: its cooks took a branch apart */
    COUNTER_GLOBAL_SECTORS_DISTINCT, /* 32-byte sectors of device memory the launch touched, each once */
    COUNTER_FP32_OPS,             /* float adds, subtracts and multiplies of every cook (an FMA is 2) */
    COUNTER_FP32_SPECIAL,         /* float divides and square roots */
    COUNTER_FP64_OPS,             /* double arithmetic of every kind */
    COUNTER_ATOMICS_ONE_ADDRESS,  /* the most atomics of cooks on one global address: they queue */
    COUNTER_COUNT
} counter_id;

typedef struct counters {
    int valid;                /* 1: the launch was counted (the emulator's checked build) */
    uint64_t teams;           /* teams in the launch */
    uint64_t teams_counted;   /* teams whose every access was counted */
    uint64_t teams_checked;   /* teams that ran the checked build (counted, or overflowed): the
                                 distinct sectors and atomics per address come from these */
    uint64_t value[COUNTER_COUNT];
    uint64_t shared_bytes_per_team; /* the most shared memory (static and dynamic) a team used */
    uint64_t sectors_in_buffers;    /* every device buffer's sectors: what the distinct count can reach */
} counters;

typedef struct counter_info {
    const char *metric;       /* the name in JSON: Nsight Compute's, or cudachef__... where it has none */
    const char *label;        /* a few words for people (N_: translated where shown) */
} counter_info;

extern const counter_info counter_table[COUNTER_COUNT];

/* The value of counter id over the whole launch: counted teams' total, scaled up to every team
   when some were not counted. */
double counters_scaled(const counters *c, counter_id id);

/* Adds b's values and teams into a. */
void counters_add(counters *a, const counters *b);

#endif
