/*
 * emu_internal.h - state shared by the emulator's scheduler (emu.c), device memory (emu_memory.c)
 * and access checks (emu_check.c). Not for use outside src/emu/.
 */
#ifndef CUDACHEF_EMU_INTERNAL_H
#define CUDACHEF_EMU_INTERNAL_H

#include <stdatomic.h>

#include "emu/emu.h"
#include "kit/emu_kernel.h"
#include "emu/fiber.h"

/* One device buffer from emu_malloc. */
typedef struct emu_buffer {
    char *start;        /* first byte the kernel may use */
    size_t bytes;
    size_t elem_size;
    char label[32];
    char *mapping;      /* guard zone + data pages + guard zone */
    size_t mapping_size;
    size_t guard;       /* each guard zone's size */
    uint64_t *seen;     /* a counted launch: one bit per 32-byte sector it touched */
    size_t seen_bits;
} emu_buffer;

/* Finds the buffer holding address, or whose guard zone holds it (*inside tells which). */
const emu_buffer *emu_memory_find(const void *address, int *inside, int *index);
/* The number of buffer b, one that emu_memory_find returned. */
int emu_memory_index_of(const emu_buffer *b);

/* A counted launch's record of the distinct sectors it touches: begin clears every buffer's
   (0, or -1 without memory), mark notes an access, end returns how many sectors were touched (and how many all
   the buffers have). */
int emu_memory_seen_begin(void);
void emu_memory_seen_mark(const emu_buffer *b, uintptr_t address, size_t size);
uint64_t emu_memory_seen_end(uint64_t *sectors_in_buffers);

/* Writes "c[1000] (4 bytes past the end of c, 1000 floats)" style text for an address. */
void emu_memory_describe(const void *address, char *out, size_t size);

/* A cook waiting at a barrier, or ready to resume. */
typedef struct emu_waiter {
    fiber *f;
    uint32_t tid;
    int line;
    uint3 idx;
} emu_waiter;

/* A warp collective (__shfl_sync & co) waiting for the lanes of its mask: a rendezvous. */
typedef struct emu_rendezvous {
    int kind;                    /* EMU_WARP_* of emu_kernel.h */
    int line;                    /* the call's line in the kernel */
    uint32_t warp;               /* warp index in the team */
    uint32_t mask;               /* lanes that take part (those that exist) */
    uint32_t arrived;            /* lanes waiting at it now */
    int width;                   /* shuffles: the segment width */
} emu_rendezvous;

/* What one cook brought to a collective, and what it gets back. */
typedef struct emu_lane {
    uint64_t value, result;
    int operand;
    int rendezvous;              /* index in emu_worker.rdv while it waits, else -1 */
    emu_waiter wait;             /* its fiber while it waits */
} emu_lane;

struct emu_launch_state;

/* A __shared__ array of the team being cooked, registered when a cook first reached it. */
typedef struct emu_shared_array {
    char *start;
    size_t bytes;
    const char *name;
} emu_shared_array;
#define EMU_MAX_SHARED_ARRAYS 32

/* One worker thread (a station) and the block it is cooking. */
typedef struct emu_worker {
    int id;
    fiber sched;                 /* the worker's own context */
    fiber **all;                 /* every fiber this worker made */
    int nall, capall;
    fiber **free;                /* fibers parked and ready to run more cooks */
    int nfree;
    fiber *current;              /* fiber running now */
    /* the block being cooked (the cursor over its cooks is the thread-local emu_cur) */
    uint32_t block_linear;
    uint32_t nwaiting;           /* cooks waiting at a barrier (in waiters) */
    emu_waiter *waiters;
    emu_waiter *ready;           /* cooks ready to resume, a ring of EMU_MAX_THREADS_PER_BLOCK */
    uint32_t ready_head, ready_count;
    emu_rendezvous *rdv;         /* open warp collectives (at most one per waiting cook) */
    uint32_t nrdv;
    emu_lane *lanes;             /* per cook of the team: its part in a collective */
    emu_shared_array shared[EMU_MAX_SHARED_ARRAYS]; /* the team's __shared__ arrays seen so far */
    int nshared;
    uint32_t *order;             /* shuffled thread order */
    uint64_t rng;
    int faulted;
    struct emu_launch_state *launch;
    void *altstack;
    struct emu_count *count;     /* a counted launch's per-warp records (emu_check.c), or NULL */
    emu_entry entry;             /* the build cooking the team now (a sampled launch mixes them) */
} emu_worker;

typedef struct emu_launch_state {
    const emu_kernel *kernel;
    emu_entry entry;
    void **args;
    emu_dim3 grid, block;
    uint32_t nblocks, nthreads;
    _Atomic uint32_t next_block;
    int nworkers;                /* workers taking part (at most) */
    int wake_pending;            /* > 1: worker 0 wakes that many workers in all once its first
                                    teams show the launch is long enough to share (0: woken) */
    atomic_int abort;
    const emu_options *options;
    uint64_t t0;                 /* launch start, CLOCK_MONOTONIC ns */
    emu_fault fault;             /* the first fault, guarded by fault_lock */
    atomic_flag fault_lock;
    int checked;
    size_t dynamic_shared;       /* bytes of extern __shared__ per team */
    int counting;                /* 1: checked and options->counters set: count every warp access */
    uint32_t count_every;        /* counting: 1, or the stride of the teams counted */
    int counted_only;            /* counting: the teams between the counted ones are not cooked */
} emu_launch_state;

extern _Thread_local emu_worker *emu_self;

/* Records the first fault of a launch and switches the faulting cook away for good. */
void emu_fault_raise(emu_worker *w, emu_status status, const char *message);

/* Linear index of the cook whose threadIdx is set. */
uint32_t emu_current_tid(const emu_launch_state *L);

/* The record of cook tid of the worker's team in the launch's trace, or NULL where none is kept. */
trace_thread *emu_trace_cook(const emu_worker *w, uint32_t tid);

/* Splits a linear index into x, y, z for dimensions dims. */
emu_dim3 emu_unlinear(uint32_t linear, emu_dim3 dims);

/* Counting (emu_check.c, docs/EMULATOR.md): a worker's records for a counted launch. begin
   readies them (0, or -1 without memory: the launch is then not counted), team_begin clears a
   team's, flush turns the finished warp instructions into counts (at a barrier's release every
   lane has passed them), team_end adds an exact team to the worker's total (ok 0: dropped),
   collect adds the worker's total into the launch's. */
int emu_count_begin(emu_worker *w);
void emu_count_team_begin(emu_worker *w);
void emu_count_barrier(emu_worker *w);
void emu_count_flush(emu_worker *w);
void emu_count_team_end(emu_worker *w, int ok);
void emu_count_collect(emu_worker *w, counters *out);
/* The most atomics that the cooks of a counted launch made on one global address, over workers. */
uint64_t emu_count_atomics_one_address(emu_worker *const *workers, int n);

#endif
