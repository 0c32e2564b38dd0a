/*
 * emu.c - the emulator's kitchen: workers (stations), teams (blocks) and cooks (threads).
 *
 * emu_launch hands blocks to workers through one atomic counter, so a free station takes the
 * next team, as an SM does. A worker cooks its block by running the block's threads one after
 * another as plain calls on a "runner" fiber. A thread that reaches __syncthreads() keeps that
 * fiber (its stack) and the worker starts a fresh runner for the remaining threads; when every
 * thread has arrived, the waiting fibers are resumed one by one. So a kernel without barriers
 * costs one fiber switch per block, and one with barriers two switches per thread per barrier.
 */
#include "emu/emu_internal.h"
#include "kit/emu_kernel.h"

#include "base/i18n.h"
#include "kit/planted.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if FIBER_ASAN
#include <sanitizer/lsan_interface.h>
#endif

_Thread_local uint3 emu_thread_idx;
_Thread_local uint3 emu_block_idx;
_Thread_local uint3 emu_block_dim;
_Thread_local uint3 emu_grid_dim;
_Thread_local emu_worker *emu_self;
_Thread_local emu_cursor emu_cur;
_Thread_local unsigned long long emu_team_serial;
_Thread_local unsigned char emu_dynamic_shared_area[EMU_MAX_DYNAMIC_SHARED] __attribute__((aligned(16)));

#define EMU_MAX_WORKERS 256
#ifndef EMU_STACK_SIZE
#define EMU_STACK_SIZE (64 * 1024)
#endif
#define EMU_ALTSTACK_SIZE (64 * 1024)

/* The pool of worker threads, kept between launches. Worker 0 is the thread calling emu_launch. */
static struct {
    pthread_mutex_t launch_lock; /* one launch at a time */
    pthread_mutex_t mu;
    pthread_cond_t start, done;
    emu_worker *workers[EMU_MAX_WORKERS];
    int nthreads;               /* pool threads started (workers 1..nthreads) */
    uint64_t generation;
    int active;                 /* workers taking part in the current launch */
    int finished;
    emu_launch_state *launch;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
          PTHREAD_COND_INITIALIZER, {0}, 0, 0, 0, 0, NULL};

static void emu_format_dim(char *out, size_t size, emu_dim3 v, emu_dim3 dims);
static void emu_fault_record(emu_worker *w, emu_status status, uint32_t tid, const char *message);

/* Monotonic clock in nanoseconds. */
static uint64_t emu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A launch predicted to have less than this left (ns) after worker 0's first teams is not shared. */
#define EMU_WAKE_NS 100000.0

/* Number of workers a launch with workers = 0 uses: one per online core, read once (glibc reads
   a file of /sys for it, some microseconds: as long as a small launch itself). */
int emu_default_workers(void)
{
    static atomic_int known;
    int cached = atomic_load_explicit(&known, memory_order_relaxed);
    if (cached > 0)
        return cached;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > EMU_MAX_WORKERS)
        n = EMU_MAX_WORKERS;
    atomic_store_explicit(&known, (int)n, memory_order_relaxed);
    return (int)n;
}

/* Splits a linear index into x, y, z for dimensions dims. */
emu_dim3 emu_unlinear(uint32_t linear, emu_dim3 dims)
{
    emu_dim3 d;
    d.x = linear % dims.x;
    d.y = (linear / dims.x) % dims.y;
    d.z = linear / (dims.x * dims.y);
    return d;
}

/* A small, fast, seeded generator (splitmix64) for shuffled thread orders. */
static uint64_t emu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Records the first fault of a launch and switches the faulting cook away for good. */
void emu_fault_raise(emu_worker *w, emu_status status, const char *message)
{
    emu_launch_state *L = w->launch;
    while (atomic_flag_test_and_set(&L->fault_lock))
        ;
    if (L->fault.status == EMU_OK) {
        L->fault.status = status;
        L->fault.block = emu_unlinear(w->block_linear, L->grid);
        L->fault.thread = emu_unlinear(emu_current_tid(L), L->block);
        snprintf(L->fault.message, sizeof L->fault.message, "%s", message);
    }
    atomic_flag_clear(&L->fault_lock);
    atomic_store(&L->abort, 1);
    w->faulted = 1;
    fiber_leave(w->current, &w->sched); /* never resumed: the fiber is reset after the block */
    abort();
}

int emu_cook_assert(const char *message)
{
    emu_worker *w = emu_self;
    if (!w || !w->launch || !w->current)
        return 0;
    emu_fault_raise(w, EMU_FAULT_ASSERT, message);
    return 1;
}

/* 1 when a cook runs on this thread (a kernel's code is running), else 0 (host code). */
int emu_on_cook(void)
{
    emu_worker *w = emu_self;
    return w && w->launch && w->current;
}

/* Linear index of the cook whose threadIdx is set. */
uint32_t emu_current_tid(const emu_launch_state *L)
{
    return emu_thread_idx.x + L->block.x * (emu_thread_idx.y + L->block.y * emu_thread_idx.z);
}

/* The record of cook tid of the worker's team in the launch's trace, or NULL where none is kept
   (only a checked launch records every cook). */
trace_thread *emu_trace_cook(const emu_worker *w, uint32_t tid)
{
    trace *t = w->launch && w->launch->options ? w->launch->options->trace : NULL;
    if (!t || !t->threads)
        return NULL;
    uint64_t slot = (uint64_t)w->block_linear * w->launch->nthreads + tid;
    return slot < t->nthreads ? &t->threads[slot] : NULL;
}

/* Puts a waiting cook on the ready ring: it resumes when the running cook waits or finishes. */
static inline void emu_ready_push(emu_worker *w, const emu_waiter *r)
{
    w->ready[(w->ready_head + w->ready_count++) % EMU_MAX_THREADS_PER_BLOCK] = *r;
}

/* Continues with the next ready cook; else, while cooks have not started, with a runner from the
   free list (the scheduler's next choice, made here to save a switch to it and back); else
   returns to the worker's scheduler (which also makes a runner when none is free). */
static inline void emu_switch_next(emu_worker *w, fiber *from)
{
    if (w->ready_count > 0) {
        emu_waiter *r = &w->ready[w->ready_head];
        w->ready_head = (w->ready_head + 1) % EMU_MAX_THREADS_PER_BLOCK;
        w->ready_count--;
        w->current = r->f;
        emu_thread_idx = r->idx;
        if (w->ready_count > 0)
            fiber_prefetch(w->ready[w->ready_head].f); /* the cook after this one */
        fiber_switch(from, r->f);
        return;
    }
    if (emu_cur.next < emu_cur.nthreads && !w->faulted && w->nfree > 0) {
        fiber *f = w->free[--w->nfree];
        w->current = f;
        fiber_switch(from, f);
        return;
    }
    fiber_switch(from, &w->sched);
}

/* Sets the running cook aside (its fiber keeps its stack) in *wt and runs whoever is next. */
static void emu_park(emu_worker *w, emu_waiter *wt, uint32_t tid, int line)
{
    wt->f = w->current;
    wt->tid = tid;
    if (!emu_cur.order && emu_cur.next <= tid)
        emu_cur.next = tid + 1; /* cooks start in order: the next runner goes on from here (a cook
                                   resumed earlier and waiting again leaves the cursor where it is) */
    emu_cur.barriers++;         /* the runner's row ends with this cook when it resumes */
    wt->idx = emu_thread_idx;
    wt->line = line;
    emu_switch_next(w, w->current);
    /* resumed: threadIdx was restored by emu_switch_next */
}

/* The body of every runner fiber: cook the block's not-yet-started threads one after another. */
static void emu_runner_main(void *arg)
{
    emu_worker *w = arg;
    for (;;) {
        w->entry(w->launch->args); /* returns when every cook has started */
        w->free[w->nfree++] = w->current;
        emu_switch_next(w, w->current);
    }
}

/* __syncthreads(): the cook waits (its fiber is set aside) until its whole team has arrived. */
void emu_syncthreads(int line)
{
    emu_worker *w = emu_self;
    emu_waiter *wt = &w->waiters[w->nwaiting++];
    uint32_t tid = emu_current_tid(w->launch);
    trace_thread *rec = emu_trace_cook(w, tid);
    if (rec)
        rec->barriers++;
    emu_park(w, wt, tid, line);
}

/* The CUDA name of a warp collective, for messages. */
static const char *emu_warp_name(int kind)
{
    switch (kind) {
    case EMU_WARP_SYNC: return "__syncwarp";
    case EMU_WARP_SHFL_IDX: return "__shfl_sync";
    case EMU_WARP_SHFL_UP: return "__shfl_up_sync";
    case EMU_WARP_SHFL_DOWN: return "__shfl_down_sync";
    case EMU_WARP_SHFL_XOR: return "__shfl_xor_sync";
    case EMU_WARP_BALLOT: return "__ballot_sync";
    case EMU_WARP_ANY: return "__any_sync";
    case EMU_WARP_ALL: return "__all_sync";
    case EMU_WARP_WMMA_LOAD: return "wmma::load_matrix_sync";
    case EMU_WARP_WMMA_MMA: return "wmma::mma_sync";
    case EMU_WARP_WMMA_STORE: return "wmma::store_matrix_sync";
    default: return "__activemask";
    }
}

/* The lanes of warp that exist in a team of nthreads cooks, as a mask. */
static uint32_t emu_warp_exists(uint32_t warp, uint32_t nthreads)
{
    uint32_t n = nthreads - warp * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Writes lanes as "3", "0-15" or "0-3, 8, 10-12" (at most size bytes). */
static void emu_format_lanes(char *out, size_t size, uint32_t lanes)
{
    size_t used = 0;
    out[0] = 0;
    for (int l = 0; l < 32 && used + 12 < size; l++) {
        if (!(lanes >> l & 1))
            continue;
        int e = l;
        while (e + 1 < 32 && (lanes >> (e + 1) & 1))
            e++;
        used += (size_t)snprintf(out + used, size - used, e > l ? "%s%d-%d" : "%s%d", used ? ", " : "", l, e);
        l = e;
    }
}

/* Computes every lane's result of a complete rendezvous (from the values of this moment). */
static void emu_rendezvous_finish(emu_worker *w, const emu_rendezvous *r)
{
    emu_lane *lanes = w->lanes + r->warp * 32;
    uint32_t votes = 0;
    for (int l = 0; l < 32; l++)
        if ((r->arrived >> l & 1) && lanes[l].value)
            votes |= 1u << l;
    for (int l = 0; l < 32; l++) {
        if (!(r->arrived >> l & 1))
            continue;
        emu_lane *me = &lanes[l];
        int width = r->width, base = l & ~(width - 1), src = -1;
        switch (r->kind) {
        case EMU_WARP_SHFL_IDX: src = base + (me->operand & (width - 1)); break;
        case EMU_WARP_SHFL_UP: src = (l & (width - 1)) >= me->operand ? l - me->operand : l; break;
        case EMU_WARP_SHFL_DOWN: src = (l & (width - 1)) + me->operand < width ? l + me->operand : l; break;
        case EMU_WARP_SHFL_XOR:
            src = l ^ me->operand;
            if (src < 0 || src > 31 || (src & ~(width - 1)) != base)
                src = l;
            break;
        default: break;
        }
        if (r->kind == EMU_WARP_BALLOT)
            me->result = votes;
        else if (r->kind == EMU_WARP_ANY)
            me->result = votes != 0;
        else if (r->kind == EMU_WARP_ALL)
            me->result = votes == r->arrived;
        else if (r->kind == EMU_WARP_ACTIVE)
            me->result = r->arrived;
        else if (src >= 0)
            me->result = (r->arrived >> src & 1) ? lanes[src].value : me->value; /* an absent source: own value */
        else
            me->result = 0;
    }
}

/* Ends rendezvous i: results computed, its waiting lanes ready (except skip, the lane that completed it). */
static void emu_rendezvous_close(emu_worker *w, uint32_t i, int skip)
{
    emu_rendezvous r = w->rdv[i];
    w->rdv[i] = w->rdv[--w->nrdv];
    if (i < w->nrdv) { /* the last record moved to slot i: its lanes follow it */
        const emu_rendezvous *moved = &w->rdv[i];
        for (int l = 0; l < 32; l++)
            if (moved->arrived >> l & 1)
                w->lanes[moved->warp * 32 + l].rendezvous = (int)i;
    }
    emu_rendezvous_finish(w, &r);
    for (int l = 0; l < 32; l++) {
        if (!(r.arrived >> l & 1))
            continue;
        emu_lane *lane = &w->lanes[r.warp * 32 + l];
        lane->rendezvous = -1;
        if (l != skip)
            emu_ready_push(w, &lane->wait);
    }
}

/* Stops the launch for a collective used wrongly by the running cook. */
static void emu_warp_misuse(emu_worker *w, int kind, int line, uint32_t warp, uint32_t lane, const char *why)
{
    char b[48], msg[400];
    emu_format_dim(b, sizeof b, emu_unlinear(w->block_linear, w->launch->grid), w->launch->grid);
    snprintf(msg, sizeof msg, _("team (block) %s, warp %u: lane %u calls %s on line %d %s"), b, warp, lane,
             emu_warp_name(kind), line, why);
    emu_fault_raise(w, EMU_FAULT_WARP, msg);
}

/* A rule of a warp collective broken by the running lane at line (the WMMA calls, emu_wmma.h). */
void emu_warp_fault(int kind, int line, int why)
{
    static const char *const words[] = {
        [EMU_WHY_PARTIAL_WARP] = N_("in a warp of fewer than 32 cooks: the tensor cores need the whole warp"),
        [EMU_WHY_UNALIGNED] = N_("with a pointer that is not 32-byte aligned (CUDA asks for 256 bits)"),
        [EMU_WHY_LDM_16BIT] = N_("with ldm not a multiple of 8 (16 bytes of 16-bit elements)"),
        [EMU_WHY_LDM_FLOAT] = N_("with ldm not a multiple of 4 (16 bytes of floats)"),
        [EMU_WHY_STORE_AB] = N_("with a matrix_a or matrix_b fragment: only an accumulator is stored"),
        [EMU_WHY_SHAPES] = N_("with fragments that do not make one m x n x k multiply")};
    emu_worker *w = emu_self;
    uint32_t tid = emu_current_tid(w->launch);
    int known = why >= 0 && why < (int)(sizeof words / sizeof words[0]);
    emu_warp_misuse(w, kind, line, tid / 32, tid % 32, known ? _(words[why]) : "?");
}

/* A warp collective: waits until every lane of mask has arrived at the same call, then returns this
   lane's result (see docs/EMULATOR.md). */
uint64_t emu_warp_op(int kind, unsigned mask, uint64_t value, int operand, int width, int line)
{
    emu_worker *w = emu_self;
    uint32_t tid = emu_current_tid(w->launch), warp = tid / 32, lane = tid % 32;
    if (kind == EMU_WARP_ACTIVE) {
        mask = 0;
    } else {
        if (!(mask >> lane & 1))
            emu_warp_misuse(w, kind, line, warp, lane, _("with a mask that leaves its own lane out"));
        if (width < 1 || width > 32 || (width & (width - 1)))
            emu_warp_misuse(w, kind, line, warp, lane, _("with a width that is not 1, 2, 4, 8, 16 or 32"));
        mask &= emu_warp_exists(warp, emu_cur.nthreads);
    }
    uint32_t i = 0;
    for (; i < w->nrdv; i++) {
        emu_rendezvous *r = &w->rdv[i];
        if (r->warp == warp && r->kind == kind && r->line == line && r->mask == mask && r->width == width &&
            !(r->arrived >> lane & 1))
            break;
    }
    if (i == w->nrdv)
        w->rdv[w->nrdv++] = (emu_rendezvous){kind, line, warp, mask, 0, width};
    emu_lane *me = &w->lanes[tid];
    me->value = value;
    me->operand = operand;
    w->rdv[i].arrived |= 1u << lane;
    if (kind != EMU_WARP_ACTIVE && w->rdv[i].arrived == mask) {
        emu_rendezvous_close(w, i, (int)lane);
        return me->result;
    }
    me->rendezvous = (int)i;
    emu_park(w, &me->wait, tid, line);
    return w->lanes[tid].result;
}

/* Gives the worker a parked fiber, creating one if none is free. */
static fiber *emu_fiber_get(emu_worker *w)
{
    if (w->nfree > 0)
        return w->free[--w->nfree];
    if (w->nall == w->capall) {
        int cap = w->capall ? w->capall * 2 : 8;
        fiber **all = realloc(w->all, (size_t)cap * sizeof *all);
        if (!all)
            return NULL;
        w->all = all; /* keep each array as soon as it has grown: realloc may have moved it */
        fiber **fr = realloc(w->free, (size_t)cap * sizeof *fr);
        if (!fr)
            return NULL;
        w->free = fr;
        w->capall = cap;
    }
    fiber *f = malloc(sizeof *f);
    if (!f || fiber_create(f, EMU_STACK_SIZE, emu_runner_main, w) != 0) {
        free(f);
        return NULL;
    }
    w->all[w->nall++] = f;
    return f;
}

/* Formats thread or block coordinates as "(x,y,z)" with only the dimensions in use. */
static void emu_format_dim(char *out, size_t size, emu_dim3 v, emu_dim3 dims)
{
    if (dims.z > 1)
        snprintf(out, size, "(%u,%u,%u)", v.x, v.y, v.z);
    else if (dims.y > 1)
        snprintf(out, size, "(%u,%u)", v.x, v.y);
    else
        snprintf(out, size, "%u", v.x);
}

/* Records a fault found by the scheduler itself (not inside a cook). */
static void emu_fault_record(emu_worker *w, emu_status status, uint32_t tid, const char *message)
{
    emu_launch_state *L = w->launch;
    while (atomic_flag_test_and_set(&L->fault_lock))
        ;
    if (L->fault.status == EMU_OK) {
        L->fault.status = status;
        L->fault.block = emu_unlinear(w->block_linear, L->grid);
        L->fault.thread = emu_unlinear(tid, L->block);
        snprintf(L->fault.message, sizeof L->fault.message, "%s", message);
    }
    atomic_flag_clear(&L->fault_lock);
    atomic_store(&L->abort, 1);
    w->faulted = 1;
}

/* The lowest linear thread index not among the waiters (a cook that finished early). */
static uint32_t emu_first_missing(emu_worker *w)
{
    static _Thread_local unsigned char seen[EMU_MAX_THREADS_PER_BLOCK];
    memset(seen, 0, emu_cur.nthreads);
    for (uint32_t i = 0; i < w->nwaiting; i++)
        seen[w->waiters[i].tid] = 1;
    for (uint32_t t = 0; t < emu_cur.nthreads; t++)
        if (!seen[t])
            return t;
    return 0;
}

/* Checks that every cook of the block waits at one and the same barrier; records a fault if not. */
static int emu_barrier_check(emu_worker *w)
{
    emu_launch_state *L = w->launch;
    char b[48], t1[48], t2[48], msg[400];
    emu_format_dim(b, sizeof b, emu_unlinear(w->block_linear, L->grid), L->grid);
    emu_waiter *first = &w->waiters[0];
    emu_format_dim(t1, sizeof t1, emu_unlinear(first->tid, L->block), L->block);
    if (w->nwaiting < emu_cur.nthreads) {
        uint32_t finished = emu_first_missing(w);
        emu_format_dim(t2, sizeof t2, emu_unlinear(finished, L->block), L->block);
        snprintf(msg, sizeof msg,
                 _("team (block) %s: cook (thread) %s waits at __syncthreads() on line %d, but cook %s "
                   "finished without reaching it (%u of %u cooks arrived); every cook of a team must "
                   "reach the same barrier"),
                 b, t1, first->line, t2, w->nwaiting, emu_cur.nthreads);
        emu_fault_record(w, EMU_FAULT_BARRIER, finished, msg);
        for (uint32_t i = 0; i < w->nwaiting; i++) { /* the cooks left waiting there */
            trace_thread *rec = emu_trace_cook(w, w->waiters[i].tid);
            if (rec)
                rec->stuck = 1;
        }
        return -1;
    }
    for (uint32_t i = 1; i < w->nwaiting; i++) {
        if (w->waiters[i].line != first->line) {
            emu_format_dim(t2, sizeof t2, emu_unlinear(w->waiters[i].tid, L->block), L->block);
            snprintf(msg, sizeof msg,
                     _("team (block) %s: cook (thread) %s waits at __syncthreads() on line %d while cook "
                       "%s waits at the one on line %d; every cook of a team must reach the same barrier"),
                     b, t1, first->line, t2, w->waiters[i].line);
            emu_fault_record(w, EMU_FAULT_BARRIER, w->waiters[i].tid, msg);
            return -1;
        }
    }
    return 0;
}

/* After a fault the block's fibers hold abandoned cooks: park every fiber afresh. */
static void emu_worker_reset_fibers(emu_worker *w)
{
    w->nfree = 0;
    for (int i = 0; i < w->nall; i++) {
        fiber_reset(w->all[i]);
        w->free[w->nfree++] = w->all[i];
    }
}

/* Prepares the order in which the block's threads start (identity or a seeded shuffle). */
static void emu_block_order(emu_worker *w)
{
    emu_launch_state *L = w->launch;
    emu_cur.order = NULL;
    if (!L->options || !L->options->shuffle_seed || !w->order)
        return;
    for (uint32_t i = 0; i < emu_cur.nthreads; i++)
        w->order[i] = i;
    w->rng = L->options->shuffle_seed ^ ((uint64_t)w->block_linear * 0x9E3779B97F4A7C15ull);
    for (uint32_t i = emu_cur.nthreads; i > 1; i--) {
        uint32_t j = (uint32_t)(emu_rand(&w->rng) % i);
        uint32_t tmp = w->order[i - 1];
        w->order[i - 1] = w->order[j];
        w->order[j] = tmp;
    }
    emu_cur.order = w->order;
}

/* Releases the barrier: every waiting cook becomes ready (in a seeded random order if asked). */
static void emu_barrier_release(emu_worker *w)
{
    emu_launch_state *L = w->launch;
    uint32_t n = w->nwaiting;
    if (L->options && L->options->shuffle_seed) {
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = (uint32_t)(emu_rand(&w->rng) % i);
            emu_waiter t = w->waiters[i - 1];
            w->waiters[i - 1] = w->waiters[j];
            w->waiters[j] = t;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        emu_ready_push(w, &w->waiters[i]);
    w->nwaiting = 0;
    if (L->counting && w->entry == L->entry)
        emu_count_barrier(w);
}

/* When nothing else of the team can move, every __activemask() call gets the lanes waiting at it.
   Returns how many calls were settled. */
static int emu_settle_active(emu_worker *w)
{
    int settled = 0;
    for (uint32_t i = 0; i < w->nrdv;) {
        if (w->rdv[i].kind == EMU_WARP_ACTIVE) {
            emu_rendezvous_close(w, i, -1);
            settled++;
        } else {
            i++;
        }
    }
    return settled;
}

/* What cook tid is doing while a team is stuck, as a phrase for messages. */
static void emu_lane_doing(emu_worker *w, uint32_t tid, char *out, size_t size)
{
    emu_lane *lane = &w->lanes[tid];
    if (lane->rendezvous >= 0) {
        const emu_rendezvous *r = &w->rdv[lane->rendezvous];
        snprintf(out, size, _("it waits at %s on line %d"), emu_warp_name(r->kind), r->line);
        return;
    }
    for (uint32_t i = 0; i < w->nwaiting; i++) {
        if (w->waiters[i].tid == tid) {
            snprintf(out, size, _("it waits at __syncthreads() on line %d"), w->waiters[i].line);
            return;
        }
    }
    snprintf(out, size, "%s", _("it finished without reaching it"));
}

/* A team in which a warp collective waits for lanes that never come: names the team, the warp,
   the lanes that wait and those that do not take part. */
static void emu_warp_stuck(emu_worker *w)
{
    emu_launch_state *L = w->launch;
    const emu_rendezvous *r = &w->rdv[0];
    uint32_t missing = r->mask & ~r->arrived;
    uint32_t first = (uint32_t)__builtin_ctz(missing);
    char b[48], waiting[160], absent[160], doing[120], msg[512];
    emu_format_dim(b, sizeof b, emu_unlinear(w->block_linear, L->grid), L->grid);
    emu_format_lanes(waiting, sizeof waiting, r->arrived);
    emu_format_lanes(absent, sizeof absent, missing);
    emu_lane_doing(w, r->warp * 32 + first, doing, sizeof doing);
    snprintf(msg, sizeof msg,
             _("team (block) %s, warp %u: lanes %s wait at %s on line %d with mask 0x%08x, but lanes %s of "
               "that mask do not take part (lane %u: %s); every lane named in a mask must reach the same call"),
             b, r->warp, waiting, emu_warp_name(r->kind), r->line, r->mask, absent, first, doing);
    emu_fault_record(w, EMU_FAULT_WARP, r->warp * 32 + first, msg);
}

/* A __shared__ array reached for the first time in this team: poisoned (0xFF bytes: a float of
   NaN, an int of -1) and registered for the checks and the counters. */
void emu_shared_fresh(void *array, size_t bytes, const char *name)
{
    memset(array, 0xFF, bytes);
    emu_worker *w = emu_self;
    if (w && w->nshared < EMU_MAX_SHARED_ARRAYS)
        w->shared[w->nshared++] = (emu_shared_array){array, bytes, name};
}

/* The checked build's way into a __shared__ array (emu_kernel.h): fresh for each new team. */
void *emu_shared_enter(void *array, size_t bytes, unsigned long long *serial, const char *name)
{
    if (*serial != emu_team_serial) {
        *serial = emu_team_serial;
        emu_shared_fresh(array, bytes, name);
    }
    return array;
}

/* Cooks one block: all its threads, through every barrier. Returns -1 on a fault. */
static int emu_block_run(emu_worker *w, uint32_t block_linear)
{
    emu_launch_state *L = w->launch;
    if (L->counted_only && block_linear % L->count_every != 0)
        return 0; /* only counts are wanted, and this team is not counted */
    w->block_linear = block_linear;
    emu_dim3 b = emu_unlinear(block_linear, L->grid);
    emu_block_idx.x = b.x;
    emu_block_idx.y = b.y;
    emu_block_idx.z = b.z;
    emu_cur = (emu_cursor){0};
    emu_cur.nthreads = L->nthreads;
    w->nwaiting = 0;
    emu_team_serial++; /* every __shared__ array is poisoned when the team first reaches it */
    w->nshared = 0;
    if (L->dynamic_shared)
        memset(emu_dynamic_shared_area, 0xFF, L->dynamic_shared);
    w->ready_head = w->ready_count = 0;
    w->nrdv = 0; /* every lane's rendezvous is -1 here: closing one resets its lanes, a fault all */
    emu_block_order(w);
    /* a sampled count: the teams between the counted ones cook in the plain build */
    int counted = L->counting && block_linear % L->count_every == 0;
    w->entry = L->counting && !counted ? L->kernel->fast : L->entry;
    if (counted)
        emu_count_team_begin(w);

    /* The scheduler (docs/EMULATOR.md): ready cooks first, then cooks not yet started, then the
       barrier, then __activemask calls; a team that cannot move is stuck. */
    while (!w->faulted) {
        if (w->ready_count > 0) {
            emu_switch_next(w, &w->sched);
        } else if (emu_cur.next < emu_cur.nthreads) {
            fiber *f = emu_fiber_get(w);
            if (!f) {
                emu_fault_record(w, EMU_FAULT_SYSTEM, 0, _("the emulator could not allocate a cook's stack"));
                return -1;
            }
            w->current = f;
            fiber_switch(&w->sched, f);
        } else if (w->nrdv > 0) {
            if (emu_settle_active(w) == 0) {
                emu_warp_stuck(w);
                break;
            }
        } else if (w->nwaiting > 0) {
            if (emu_barrier_check(w) != 0)
                break;
            emu_barrier_release(w);
        } else {
            break;
        }
    }
    if (L->counting)
        emu_count_team_end(w, counted && !w->faulted);
    if (w->faulted) {
        for (uint32_t i = 0; i < EMU_MAX_THREADS_PER_BLOCK; i++)
            w->lanes[i].rendezvous = -1;
        emu_worker_reset_fibers(w);
        return -1;
    }
    return 0;
}

/* Address of a fault inside a cook: SIGSEGV/SIGBUS turned into a report naming the cook. */
static void emu_signal_handler(int sig, siginfo_t *info, void *context)
{
    (void)context;
    emu_worker *w = emu_self;
    if (!w || !w->launch || !w->current) {
        signal(sig, SIG_DFL);
        return; /* not a cook's fault: the default action runs when the instruction repeats */
    }
    char where[200], msg[400];
    /* an address just past a device buffer first: the pantry's own words; then a stack overflow
       (the guard page, or a frame that stepped over it further down) */
    int inside = 0;
    if (emu_memory_find(info->si_addr, &inside, NULL) && !inside) {
        emu_memory_describe(info->si_addr, where, sizeof where);
        snprintf(msg, sizeof msg, _("reached outside the pantry: %s"), where);
        emu_fault_raise(w, EMU_FAULT_OUT_OF_BOUNDS, msg);
    }
    int overflow = 0;
    for (int i = 0; i < w->nall; i++)
        if (fiber_guard_contains(w->all[i], info->si_addr))
            overflow = 1;
    if (overflow) {
        snprintf(msg, sizeof msg, "%s",
                 _("a cook ran out of stack (deep recursion or a large local array in the kernel)"));
        emu_fault_raise(w, EMU_FAULT_CRASH, msg);
    }
    snprintf(msg, sizeof msg,
             sig == SIGBUS ? _("touched address %p, which is not in any device buffer (bus error)")
                           : _("touched address %p, which is not in any device buffer (segmentation fault)"),
             info->si_addr);
    emu_fault_raise(w, EMU_FAULT_CRASH, msg);
}

#if FIBER_ASAN
/* At exit, in a build with AddressSanitizer: a cook that ends the process (a kernel that calls
   exit()) leaves its thread on the cook's stack, the only one LeakSanitizer would then scan; the
   thread's own stack, where the launch was made, still holds what the program uses. */
static void emu_exit_in_cook(void)
{
    emu_worker *w = emu_self;
    if (w && w->current && w->sched.stack_bottom)
        __lsan_register_root_region(w->sched.stack_bottom, w->sched.stack_size);
}

/* Registers emu_exit_in_cook once. */
static void emu_exit_hook(void)
{
    atexit(emu_exit_in_cook);
}
#endif

/* Installs the SIGSEGV/SIGBUS handler; done at every launch, since a program (or a test framework)
   may have put its own handler in place since the last one. */
static void emu_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = emu_signal_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* Creates a worker's state (the block scratch arrays and its signal stack). */
static emu_worker *emu_worker_new(int id)
{
    emu_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->id = id;
    w->waiters = malloc(EMU_MAX_THREADS_PER_BLOCK * sizeof *w->waiters);
    w->ready = malloc(EMU_MAX_THREADS_PER_BLOCK * sizeof *w->ready);
    w->rdv = malloc(EMU_MAX_THREADS_PER_BLOCK * sizeof *w->rdv);
    w->lanes = calloc(EMU_MAX_THREADS_PER_BLOCK, sizeof *w->lanes);
    w->altstack = malloc(EMU_ALTSTACK_SIZE);
    w->order = malloc(EMU_MAX_THREADS_PER_BLOCK * sizeof *w->order);
    for (uint32_t i = 0; w->lanes && i < EMU_MAX_THREADS_PER_BLOCK; i++)
        w->lanes[i].rendezvous = -1;
    if (!w->waiters || !w->ready || !w->rdv || !w->lanes || !w->altstack || !w->order) {
        free(w->order);
        free(w->waiters);
        free(w->ready);
        free(w->rdv);
        free(w->lanes);
        free(w->altstack);
        free(w);
        return NULL;
    }
    return w;
}

/* Worker 0, while the others still sleep: wakes them once the teams it cooked so far (timed since
   the launch began) predict more than EMU_WAKE_NS left, the most a launch saves by sharing its work
   being what is left; a short launch never pays for waking them (tens of microseconds). */
static void emu_pool_wake_if_worth(emu_launch_state *L, uint32_t done)
{
    uint64_t elapsed = emu_now_ns() - L->t0;
    double left = (double)elapsed / done * (L->nblocks - done);
    if (done < L->nblocks && left < EMU_WAKE_NS)
        return;
    L->wake_pending = 0;
    if (done >= L->nblocks)
        return; /* it is over: nobody to wake */
    pthread_mutex_lock(&pool.mu);
    pool.active = L->nworkers;
    pool.finished = 0;
    pool.generation++;
    pthread_cond_broadcast(&pool.start);
    pthread_mutex_unlock(&pool.mu);
}

/* Takes blocks until none is left (or the launch aborts), recording each block's trace. */
static void emu_worker_cook(emu_worker *w, emu_launch_state *L)
{
    stack_t ss = {.ss_sp = w->altstack, .ss_size = EMU_ALTSTACK_SIZE, .ss_flags = 0}, old;
    sigaltstack(&ss, &old);
    w->launch = L;
    w->faulted = 0;
    emu_self = w;
    emu_block_dim.x = L->block.x;
    emu_block_dim.y = L->block.y;
    emu_block_dim.z = L->block.z;
    emu_grid_dim.x = L->grid.x;
    emu_grid_dim.y = L->grid.y;
    emu_grid_dim.z = L->grid.z;
    if (L->counting)
        (void)emu_count_begin(w); /* without memory, this worker's teams are left out of the counts */
    trace *t = L->options ? L->options->trace : NULL;
    /* Take teams a few at a time: one shared counter bumped for every small team would bounce its
       cache line between the cores more often than the teams take to cook. */
    uint32_t chunk = L->nblocks / (uint32_t)(L->nworkers * 64);
    chunk = chunk < 1 ? 1 : chunk > 16 ? 16 : chunk;
    while (!atomic_load_explicit(&L->abort, memory_order_relaxed)) {
        uint32_t first = atomic_fetch_add(&L->next_block, chunk);
        if (first >= L->nblocks)
            break;
        uint32_t last = first + chunk < L->nblocks ? first + chunk : L->nblocks;
        for (uint32_t b = first; b < last && !w->faulted; b++) {
            if (L->options && cancel_requested(L->options->cancel)) { /* stopped between teams */
                emu_fault_record(w, EMU_CANCELLED, 0, _("the launch was stopped before every team had cooked"));
                break;
            }
            uint64_t start = t ? emu_now_ns() : 0;
            if (emu_block_run(w, b) != 0)
                break;
            if (t && t->blocks) {
                trace_block *r = &t->blocks[b];
                r->block = b;
                r->station = (uint32_t)w->id;
                r->start_ns = start - L->t0;
                r->end_ns = emu_now_ns() - L->t0;
            }
            if (w->id == 0 && L->wake_pending)
                emu_pool_wake_if_worth(L, b + 1);
        }
        if (w->faulted)
            break;
    }
    w->current = NULL;
    emu_self = NULL;
    w->launch = NULL;
    if (old.ss_flags & SS_DISABLE) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    } else {
        sigaltstack(&old, NULL);
    }
}

/* A pool thread: waits for a launch, cooks, reports done. */
static void *emu_pool_main(void *arg)
{
    emu_worker *w = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (pool.generation == seen)
            pthread_cond_wait(&pool.start, &pool.mu);
        seen = pool.generation;
        if (w->id >= pool.active)
            continue;
        emu_launch_state *L = pool.launch;
        pthread_mutex_unlock(&pool.mu);
        emu_worker_cook(w, L);
        pthread_mutex_lock(&pool.mu);
        if (++pool.finished == pool.active - 1)
            pthread_cond_signal(&pool.done);
    }
    return NULL;
}

/* Makes sure workers 0..n-1 exist; returns how many are available. */
static int emu_pool_grow(int n)
{
    if (!pool.workers[0]) {
        pool.workers[0] = emu_worker_new(0);
        if (!pool.workers[0])
            return 0;
    }
    while (pool.nthreads + 1 < n) {
        int id = pool.nthreads + 1;
        emu_worker *w = emu_worker_new(id);
        if (!w)
            break;
        pthread_t th;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&th, &attr, emu_pool_main, w);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            free(w);
            break;
        }
        pool.workers[id] = w;
        pool.nthreads++;
    }
    return pool.nthreads + 1 < n ? pool.nthreads + 1 : n;
}

/* Validates a launch configuration like the CUDA runtime does. */
static int emu_config_check(emu_dim3 grid, emu_dim3 block, const emu_options *options, emu_fault *fault)
{
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    const char *why = NULL;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
        why = "every grid and block dimension must be at least 1";
    else if (threads > EMU_MAX_THREADS_PER_BLOCK)
        why = "a block may hold at most 1024 threads";
    else if (block.z > 64)
        why = "blockDim.z may be at most 64";
    else if (grid.y > 65535 || grid.z > 65535)
        why = "gridDim.y and gridDim.z may be at most 65535";
    else if (options && options->dynamic_shared > EMU_MAX_DYNAMIC_SHARED)
        why = "a team may have at most 227 KiB (232448 bytes) of dynamic shared memory";
    else if ((uint64_t)grid.x * grid.y * grid.z > 0xFFFFFFFFull)
        why = "the emulator counts blocks in 32 bits: use fewer than 2^32 blocks";
    if (!why)
        return 0;
    fault->status = EMU_FAULT_CONFIG;
    snprintf(fault->message, sizeof fault->message, "invalid launch configuration: %s", why);
    return -1;
}

emu_status emu_launch(const emu_kernel *kernel, emu_dim3 grid, emu_dim3 block, void **args,
                      const emu_options *options, emu_fault *fault)
{
    emu_fault scratch;
    PLANTED_FAULTS("emu");
    if (!fault)
        fault = &scratch;
    memset(fault, 0, sizeof *fault);
    if (emu_config_check(grid, block, options, fault) != 0)
        return fault->status;
    int checked = options && options->checked && kernel->checked;

    emu_launch_state L;
    memset(&L, 0, sizeof L);
    L.kernel = kernel;
    L.entry = checked ? kernel->checked : kernel->fast;
    L.checked = checked;
    L.args = args;
    L.grid = grid;
    L.block = block;
    L.nblocks = grid.x * grid.y * grid.z;
    L.nthreads = block.x * block.y * block.z;
    L.options = options;
    L.dynamic_shared = options ? options->dynamic_shared : 0;
    counters *counts = options ? options->counters : NULL;
    if (counts)
        memset(counts, 0, sizeof *counts);
    L.counting = checked && counts;
    L.count_every = options && options->count_every > 1 ? options->count_every : 1;
    L.counted_only = L.counting && options->counted_only;
    atomic_init(&L.next_block, 0);
    atomic_init(&L.abort, 0);
    atomic_flag_clear(&L.fault_lock);

    trace *t = options ? options->trace : NULL;
    if (t) {
        t->from_gpu = 0;
        t->nblocks = 0;
        t->nthreads = 0;
        t->naccesses = t->accesses_left_out = 0;
        if (trace_reserve_blocks(t, L.nblocks) != 0) {
            fault->status = EMU_FAULT_SYSTEM;
            snprintf(fault->message, sizeof fault->message, "not enough memory for the block trace");
            return fault->status;
        }
        if (t->threads && checked) {
            uint64_t total = (uint64_t)L.nblocks * L.nthreads;
            size_t n = total < t->threads_capacity ? (size_t)total : t->threads_capacity;
            for (size_t i = 0; i < n; i++) {
                t->threads[i] = (trace_thread){.block = (uint32_t)(i / L.nthreads),
                                               .thread = (uint32_t)(i % L.nthreads),
                                               .buffer = -1,
                                               .element = -1,
                                               .last_element = -1,
                                               .read_buffer = -1,
                                               .first_read = -1,
                                               .last_read = -1};
            }
            t->nthreads = n;
        }
    }

    emu_signals_install();
#if FIBER_ASAN
    static pthread_once_t exit_hook = PTHREAD_ONCE_INIT;
    pthread_once(&exit_hook, emu_exit_hook);
#endif
    pthread_mutex_lock(&pool.launch_lock);
    int seen = L.counting && emu_memory_seen_begin() == 0; /* after the lock: no other launch is marking */
    int want = options && options->workers > 0 ? options->workers : emu_default_workers();
    if (want > EMU_MAX_WORKERS)
        want = EMU_MAX_WORKERS;
    if ((uint32_t)want > L.nblocks)
        want = (int)L.nblocks;
    pthread_mutex_lock(&pool.mu);
    int active = emu_pool_grow(want);
    if (active < 1) {
        pthread_mutex_unlock(&pool.mu);
        pthread_mutex_unlock(&pool.launch_lock);
        fault->status = EMU_FAULT_SYSTEM;
        snprintf(fault->message, sizeof fault->message, "the emulator could not start its workers");
        return fault->status;
    }
    L.t0 = emu_now_ns();
    L.nworkers = active;
    pool.launch = &L;
    pool.finished = 0;
    /* workers chosen by the machine (not asked for): worker 0 starts alone and wakes the others
       only for a launch long enough to share (emu_pool_wake_if_worth) */
    L.wake_pending = active > 1 && !(options && options->workers > 0) ? active : 0;
    pool.active = L.wake_pending ? 1 : active;
    if (!L.wake_pending) {
        pool.generation++;
        pthread_cond_broadcast(&pool.start);
    }
    pthread_mutex_unlock(&pool.mu);

    emu_worker_cook(pool.workers[0], &L);

    pthread_mutex_lock(&pool.mu);
    while (pool.finished < pool.active - 1)
        pthread_cond_wait(&pool.done, &pool.mu);
    pool.launch = NULL;
    int ran = pool.active; /* the workers that took part: those not woken counted nothing */
    if (L.counting && L.fault.status == EMU_OK) {
        for (int i = 0; i < ran; i++)
            emu_count_collect(pool.workers[i], counts);
        counts->teams = L.nblocks;
        counts->value[COUNTER_ATOMICS_ONE_ADDRESS] = emu_count_atomics_one_address(pool.workers, ran);
        counts->valid = counts->teams_counted > 0;
        if (seen)
            counts->value[COUNTER_GLOBAL_SECTORS_DISTINCT] = emu_memory_seen_end(&counts->sectors_in_buffers);
    }
    pthread_mutex_unlock(&pool.mu);
    pthread_mutex_unlock(&pool.launch_lock);

    if (t && L.fault.status != EMU_OK) { /* a launch that stopped leaves no trace to replay, but
                                             what each cook did up to then, for the warps view */
        t->nblocks = 0;
        t->stopped = 1;
        t->stopped_team = L.fault.block.x + L.grid.x * (L.fault.block.y + L.grid.y * L.fault.block.z);
    } else if (t) {
        t->nblocks = L.nblocks;
        t->stopped = 0;
    }
    *fault = L.fault;
    return fault->status;
}

/* --- atomics: blocks run on several worker threads, so these are real atomic operations --- */

/* atomicAdd on int: returns the old value. */
int emu_atomic_add_int(int *address, int value)
{
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

/* atomicAdd on unsigned int: returns the old value. */
unsigned int emu_atomic_add_uint(unsigned int *address, unsigned int value)
{
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

/* atomicAdd on unsigned long long: returns the old value. */
unsigned long long emu_atomic_add_ull(unsigned long long *address, unsigned long long value)
{
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

/* atomicAdd on float, as a compare-and-swap loop: returns the old value. */
float emu_atomic_add_float(float *address, float value)
{
    float old, next;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    do {
        next = old + value;
    } while (!__atomic_compare_exchange(address, &old, &next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}

/* atomicAdd on double, as a compare-and-swap loop: returns the old value. */
double emu_atomic_add_double(double *address, double value)
{
    double old, next;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    do {
        next = old + value;
    } while (!__atomic_compare_exchange(address, &old, &next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}

/* atomicMax on int: returns the old value. */
int emu_atomic_max_int(int *address, int value)
{
    int old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (old < value &&
           !__atomic_compare_exchange_n(address, &old, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return old;
}

/* atomicCAS on int: stores value if *address == compare; returns the old value. */
int emu_atomic_cas_int(int *address, int compare, int value)
{
    __atomic_compare_exchange_n(address, &compare, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}
