/*
 * emu_check.c - the callbacks of the emulator's checked kernel build.
 *
 * The checked build compiles kernels with GCC's -fsanitize=thread, which turns every load and
 * store into a call to __tsan_readN / __tsan_writeN with the address. Those names belong to the
 * sanitizer run-time, so the checked build renames its calls to the emulator's own
 * emu_check_loadN / emu_check_storeN (kit/emu_table.c, when EMU_CHECKED is defined): there is no
 * sanitizer run-time behind these functions, and they never meet one. A store into a device buffer
 * records the element each cook wrote (for the kitchen view); an access in a buffer's guard zone
 * stops the launch with the cook's name and the element it reached for.
 *
 * A counted launch (emu_options.counters) also gathers each access into warp instructions: the
 * k-th time a cook runs one load or store (the site, the callback's return address) is its part
 * of that warp's k-th instruction there. Once every lane has passed them (at a barrier's release
 * or the team's end) the instructions become Nsight Compute's counts: requests and 32-byte sectors
 * for global memory, wavefronts and bank conflicts for shared memory (docs/EMULATOR.md).
 */
#include "emu/emu_internal.h"

#include "base/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef EMU_WITH_CAPSTONE
#include <capstone/capstone.h>
#endif

/* --- counting --- */

#define EMU_COUNT_SITES 4096               /* access sites one launch may count */
#define EMU_COUNT_SITE_SLOTS (2 * EMU_COUNT_SITES)
#define EMU_COUNT_MAX_RECORDS (1u << 18)   /* warp instructions one team may hold between barriers */
#define EMU_COUNT_BLOCK_SLOTS 8192         /* basic blocks whose arithmetic a worker remembers */
#define EMU_COUNT_ATOMIC_SLOTS 4096        /* global addresses whose atomics a worker counts */

enum { EMU_SPACE_GLOBAL, EMU_SPACE_SHARED };
enum { EMU_OP_LOAD, EMU_OP_STORE, EMU_OP_ATOMIC };

/* One warp instruction being gathered: which lanes ran it, and the address of each. */
typedef struct emu_count_record {
    uint64_t key;                 /* site << 37 | warp << 32 | k */
    uint32_t lanes;
    uint8_t space, op, size;
    uint64_t address[32];
} emu_count_record;

/* The floating-point arithmetic of one basic block of a kernel's machine code, per cook. */
typedef struct emu_block_math {
    uintptr_t pc;                 /* where the block starts (after its call to emu_check_block) */
    uint64_t launch;              /* the counted launch whose site number site is */
    uint32_t site;                /* its site number in that launch (UINT32_MAX: none left) */
    uint32_t fp32, fp32_special, fp64; /* operations: adds, subtracts, multiplies (an FMA is 2);
                                          divides and square roots; the same in double */
} emu_block_math;

/* A worker's counting state for one launch. */
typedef struct emu_count {
    int on;                       /* 0: this worker's teams are not counted (no memory) */
    emu_block_math *blocks;       /* open addressing by pc; kept from launch to launch */
#ifdef EMU_WITH_CAPSTONE
    csh cs;                       /* the disassembler, opened at the first block */
    int cs_state;                 /* 0 not opened, 1 open, -1 failed */
#endif
    uintptr_t site_pc[EMU_COUNT_SITE_SLOTS];
    uint32_t site_index[EMU_COUNT_SITE_SLOTS];
    uint32_t nsites;
    uint32_t *lane_k[EMU_COUNT_SITES]; /* per site: times each cook of the team ran it */
    uint8_t is_block[EMU_COUNT_SITES]; /* 1: the site is a basic block (divergence), 0 an access */
    uint64_t launch;              /* counted launches of this worker, for the blocks' site numbers */
    emu_count_record *rec;
    uint32_t nrec, caprec;
    uint32_t *slot;               /* hash of keys: record index + 1, 0 when empty */
    uint32_t nslot;
    int overflow;                 /* the team held too many records: it is not counted */
    uint32_t phase;               /* barriers the team has passed (the memory view's phases) */
    counters team, total;
    uint64_t atomic_address[EMU_COUNT_ATOMIC_SLOTS]; /* 0: empty */
    uint64_t atomic_count[EMU_COUNT_ATOMIC_SLOTS];
} emu_count;

/* Readies the worker's counting state for a counted launch. */
int emu_count_begin(emu_worker *w)
{
    if (!w->count && !(w->count = calloc(1, sizeof *w->count)))
        return -1;
    emu_count *c = w->count;
    memset(c->site_pc, 0, sizeof c->site_pc);
    memset(c->is_block, 0, sizeof c->is_block);
    c->nsites = 0;
    c->launch++;
    memset(&c->total, 0, sizeof c->total);
    memset(c->atomic_address, 0, sizeof c->atomic_address);
    c->on = 1;
    if (!c->blocks && !(c->blocks = calloc(EMU_COUNT_BLOCK_SLOTS, sizeof *c->blocks)))
        return c->on = 0, -1;
    if (!c->slot) {
        c->nslot = 1024;
        if (!(c->slot = calloc(c->nslot, sizeof *c->slot)))
            return c->on = 0, -1;
    }
    return 0;
}

/* Slot of key in the record hash (empty or holding it). */
static uint32_t emu_count_slot(const emu_count *c, uint64_t key)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (c->nslot - 1);
    while (c->slot[h] && c->rec[c->slot[h] - 1].key != key)
        h = (h + 1) & (c->nslot - 1);
    return h;
}

/* Empties the record hash, newest record first: each one's probe chain then still holds only
   older records, so it is found where it was put. */
static void emu_count_clear(emu_count *c)
{
    for (uint32_t i = c->nrec; i-- > 0;)
        c->slot[emu_count_slot(c, c->rec[i].key)] = 0;
    c->nrec = 0;
}

/* Clears the team's records and each cook's runs of every site. */
void emu_count_team_begin(emu_worker *w)
{
    emu_count *c = w->count;
    if (!c || !c->on)
        return;
    for (uint32_t s = 0; s < c->nsites; s++)
        memset(c->lane_k[s], 0, w->launch->nthreads * sizeof *c->lane_k[s]);
    emu_count_clear(c); /* what a team that overflowed or faulted left */
    c->nrec = 0;
    c->overflow = 0;
    c->phase = 0;
    memset(&c->team, 0, sizeof c->team);
}

/* The site number of the access at pc (a new one on first sight), or UINT32_MAX when full. */
static uint32_t emu_count_site(emu_count *c, uintptr_t pc, uint32_t nthreads)
{
    uint32_t h = (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 40) & (EMU_COUNT_SITE_SLOTS - 1);
    while (c->site_pc[h] && c->site_pc[h] != pc)
        h = (h + 1) & (EMU_COUNT_SITE_SLOTS - 1);
    if (c->site_pc[h])
        return c->site_index[h];
    if (c->nsites == EMU_COUNT_SITES)
        return UINT32_MAX;
    uint32_t s = c->nsites;
    if (!c->lane_k[s] && !(c->lane_k[s] = malloc(EMU_MAX_THREADS_PER_BLOCK * sizeof *c->lane_k[s])))
        return UINT32_MAX;
    memset(c->lane_k[s], 0, nthreads * sizeof *c->lane_k[s]);
    c->site_pc[h] = pc;
    c->site_index[h] = s;
    c->nsites++;
    return s;
}

/* Doubles the record hash. Returns -1 without memory. */
static int emu_count_grow_slots(emu_count *c)
{
    uint32_t *old = c->slot, n = c->nslot * 2;
    uint32_t *slot = calloc(n, sizeof *slot);
    if (!slot)
        return -1;
    c->slot = slot;
    c->nslot = n;
    for (uint32_t i = 0; i < c->nrec; i++)
        c->slot[emu_count_slot(c, c->rec[i].key)] = i + 1;
    free(old);
    return 0;
}

/* Adds the running cook's access to its warp's instruction. */
static void emu_count_access(emu_worker *w, uintptr_t pc, uintptr_t address, size_t size, int space, int op)
{
    emu_count *c = w->count;
    if (!c || !c->on || c->overflow)
        return;
    uint32_t nthreads = w->launch->nthreads, s = emu_count_site(c, pc, nthreads);
    if (s == UINT32_MAX) {
        c->overflow = 1;
        return;
    }
    uint32_t tid = emu_current_tid(w->launch);
    uint64_t key = (uint64_t)s << 37 | (uint64_t)(tid >> 5) << 32 | c->lane_k[s][tid]++;
    uint32_t h = emu_count_slot(c, key);
    emu_count_record *r;
    if (c->slot[h]) {
        r = &c->rec[c->slot[h] - 1];
    } else {
        if (c->nrec == EMU_COUNT_MAX_RECORDS) {
            c->overflow = 1;
            return;
        }
        if (c->nrec == c->caprec) {
            uint32_t cap = c->caprec ? c->caprec * 2 : 4096;
            emu_count_record *rec = realloc(c->rec, cap * sizeof *rec);
            if (!rec) {
                c->overflow = 1;
                return;
            }
            c->rec = rec;
            c->caprec = cap;
        }
        if (2 * (c->nrec + 1) > c->nslot) {
            if (emu_count_grow_slots(c) != 0) {
                c->overflow = 1;
                return;
            }
            h = emu_count_slot(c, key);
        }
        r = &c->rec[c->nrec];
        c->slot[h] = ++c->nrec;
        r->key = key;
        r->lanes = 0;
        r->space = (uint8_t)space;
        r->op = (uint8_t)op;
        r->size = (uint8_t)(size > 255 ? 255 : size);
    }
    r->lanes |= 1u << (tid & 31);
    r->address[tid & 31] = address;
}

/* Sorts v[0..n) (a few dozen values) and returns how many differ. */
static uint32_t emu_count_distinct(uint64_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        uint32_t j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    uint32_t d = n > 0;
    for (uint32_t i = 1; i < n; i++)
        d += v[i] != v[i - 1];
    return d;
}

/* Units of unit bytes (32: sectors, 4: bank words) the lanes of mask touch, each once, into v
   (room for 512); returns how many, or UINT32_MAX when they do not fit. */
static uint32_t emu_count_units(const emu_count_record *r, uint32_t mask, unsigned shift, uint64_t *v)
{
    uint32_t n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = r->address[__builtin_ctz(m)];
        for (uint64_t u = a >> shift; u <= (a + r->size - 1) >> shift; u++) {
            if (n == 512)
                return UINT32_MAX;
            v[n++] = u;
        }
    }
    return n;
}

/* Wavefronts of a shared-memory instruction, with the fewest its width needs in *ideal: lanes go
   in phases (all 32 for accesses of 4 bytes or less, 16 for 8 bytes, 8 for 16), and a phase takes
   as many passes as the most distinct words one of the 32 four-byte banks holds (lanes reading the
   same word share it: a broadcast). */
static uint32_t emu_count_wavefronts(const emu_count_record *r, uint32_t *ideal)
{
    unsigned width = r->size <= 4 ? 32 : r->size <= 8 ? 16 : 8;
    uint32_t phase_mask = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1, total = 0;
    uint64_t words[512];
    *ideal = 0;
    for (unsigned p = 0; p < 32; p += width) {
        uint32_t m = r->lanes & (phase_mask << p);
        if (!m)
            continue;
        uint32_t n = emu_count_units(r, m, 2, words);
        if (n == UINT32_MAX)
            n = 512;
        uint32_t distinct = emu_count_distinct(words, n), per_bank[32] = {0}, most = 0;
        for (uint32_t i = 0; i < n; i++)
            if (i == 0 || words[i] != words[i - 1])
                per_bank[words[i] & 31]++;
        for (int b = 0; b < 32; b++)
            most = per_bank[b] > most ? per_bank[b] : most;
        total += most;
        *ideal += (distinct + 31) / 32;
    }
    return total;
}

/* The slot of address in the worker's atomic table (holding it or empty), or -1 when full. */
static int emu_count_atomic_slot(const emu_count *c, uint64_t address)
{
    uint32_t h = (uint32_t)((address * 0x9E3779B97F4A7C15ull) >> 40) & (EMU_COUNT_ATOMIC_SLOTS - 1);
    for (int probe = 0; probe < 64; probe++, h = (h + 1) & (EMU_COUNT_ATOMIC_SLOTS - 1))
        if (c->atomic_address[h] == address || c->atomic_address[h] == 0)
            return (int)h;
    return -1; /* 64 slots of other addresses: this one's atomics go uncounted (a histogram's many
                  addresses; the most-used one was seen early) */
}

/* Counts one cook's atomic on a global address (the counted team's, at a flush). */
static void emu_count_atomic_at(emu_count *c, uint64_t address)
{
    int h = emu_count_atomic_slot(c, address);
    if (h < 0)
        return;
    if (c->atomic_address[h] == 0) { /* a new address: its count starts here */
        c->atomic_address[h] = address;
        c->atomic_count[h] = 0;
    }
    c->atomic_count[h]++;
}

/* The most atomics on one address, summed over the workers' tables. */
uint64_t emu_count_atomics_one_address(emu_worker *const *workers, int n)
{
    uint64_t most = 0;
    for (int i = 0; i < n; i++) {
        const emu_count *c = workers[i]->count;
        for (int k = 0; c && k < EMU_COUNT_ATOMIC_SLOTS; k++) {
            uint64_t a = c->atomic_address[k], total = 0;
            if (!a)
                continue;
            for (int j = 0; j < n; j++) {
                const emu_count *o = workers[j]->count;
                int h = o ? emu_count_atomic_slot(o, a) : -1;
                if (h >= 0 && o->atomic_address[h] == a)
                    total += o->atomic_count[h];
            }
            most = total > most ? total : most;
        }
    }
    return most;
}

/* The warp runs of every basic block since the team began or met at a barrier: a warp runs a block
   as often as its busiest lane did, and each run that some of its lanes missed is divergent (the
   lanes that ran it fewer times sat out its last runs, as a GPU's warp re-converges). */
static void emu_count_blocks(emu_count *c, uint32_t nthreads)
{
    uint64_t *v = c->team.value;
    for (uint32_t s = 0; s < c->nsites; s++) {
        if (!c->is_block[s])
            continue;
        const uint32_t *k = c->lane_k[s];
        for (uint32_t first = 0; first < nthreads; first += 32) {
            uint32_t last = first + 32 < nthreads ? first + 32 : nthreads, most = 0, least = UINT32_MAX;
            for (uint32_t t = first; t < last; t++) {
                most = k[t] > most ? k[t] : most;
                least = k[t] < least ? k[t] : least;
            }
            v[COUNTER_WARP_BLOCKS] += most;
            v[COUNTER_WARP_BLOCKS_DIVERGENT] += most - least;
        }
    }
}

/* Keeps the gathered warp instructions of the watched team in the launch's trace, warp by warp in
   the order they ran, with the units the counts make of each (the kitchen's memory view). */
static void emu_count_watch(emu_worker *w, const emu_count *c, trace *t)
{
    uint64_t units[512];
    for (uint32_t warp = 0; warp * 32 < w->launch->nthreads; warp++)
        for (uint32_t i = 0; i < c->nrec; i++) {
            const emu_count_record *r = &c->rec[i];
            if (((uint32_t)(r->key >> 32) & 31) != warp || !r->lanes)
                continue;
            if (t->naccesses == t->accesses_capacity) {
                t->accesses_left_out++;
                continue;
            }
            trace_access *a = &t->accesses[t->naccesses++];
            memset(a, 0, sizeof *a);
            a->warp = (uint16_t)warp;
            a->phase = (uint16_t)(c->phase < UINT16_MAX ? c->phase : UINT16_MAX);
            a->space = r->space == EMU_SPACE_GLOBAL ? TRACE_GLOBAL : TRACE_SHARED;
            a->op = r->op == EMU_OP_LOAD ? TRACE_LOAD : r->op == EMU_OP_STORE ? TRACE_STORE : TRACE_ATOMIC;
            a->size = r->size;
            a->lanes = r->lanes;
            memcpy(a->address, r->address, sizeof a->address);
            a->base = UINT64_MAX;
            uint64_t bytes = 0;
            for (uint32_t m = r->lanes; m; m &= m - 1) {
                uint64_t addr = r->address[__builtin_ctz(m)];
                a->base = addr < a->base ? addr : a->base;
                bytes += r->size;
            }
            if (a->space == TRACE_GLOBAL) {
                const emu_buffer *b = emu_memory_find((const void *)(uintptr_t)a->base, NULL, NULL);
                if (b) {
                    a->base = (uint64_t)(uintptr_t)b->start;
                    a->elem_size = (uint32_t)b->elem_size;
                    snprintf(a->label, sizeof a->label, "%s", b->label);
                }
                uint32_t n = emu_count_units(r, r->lanes, 5, units);
                a->units = n == UINT32_MAX ? 512 : emu_count_distinct(units, n);
                /* lines from the buffer's start, as cudaMalloc aligns it (256 bytes): the
                   emulator's buffers end at a guard page, so their starts are aligned to 32 only */
                n = 0;
                for (uint32_t m = r->lanes; m; m &= m - 1) {
                    uint64_t off = r->address[__builtin_ctz(m)] - a->base;
                    units[n++] = off >> 7;
                    if ((off + r->size - 1) >> 7 != off >> 7)
                        units[n++] = (off + r->size - 1) >> 7;
                }
                a->lines = emu_count_distinct(units, n);
                a->ideal = (uint32_t)((bytes + 31) / 32);
            } else if (a->op != TRACE_ATOMIC) {
                a->units = emu_count_wavefronts(r, &a->ideal);
            }
        }
}

/* Turns every gathered warp instruction into counts: every lane has passed them. */
void emu_count_flush(emu_worker *w)
{
    emu_count *c = w->count;
    if (!c || !c->on || c->overflow)
        return;
    uint32_t nthreads = w->launch->nthreads;
    uint64_t *v = c->team.value, units[512];
    trace *t = w->launch->options ? w->launch->options->trace : NULL;
    if (t && t->accesses && w->block_linear == t->watched_team)
        emu_count_watch(w, c, t);
    emu_count_blocks(c, nthreads);
    for (uint32_t i = 0; i < c->nrec; i++) {
        const emu_count_record *r = &c->rec[i];
        uint32_t warp = (uint32_t)(r->key >> 32) & 31, left = nthreads - warp * 32;
        uint32_t lanes_in_warp = left < 32 ? left : 32;
        v[COUNTER_MEMORY_INSTRUCTIONS]++;
        if ((uint32_t)__builtin_popcount(r->lanes) < lanes_in_warp)
            v[COUNTER_DIVERGENT]++;
        if (r->space == EMU_SPACE_GLOBAL) {
            if (r->op == EMU_OP_ATOMIC) {
                v[COUNTER_GLOBAL_ATOMICS]++;
                for (uint32_t m = r->lanes; m; m &= m - 1)
                    emu_count_atomic_at(c, r->address[__builtin_ctz(m)]);
                continue;
            }
            uint32_t n = emu_count_units(r, r->lanes, 5, units);
            uint32_t sectors = n == UINT32_MAX ? 512 : emu_count_distinct(units, n);
            v[r->op == EMU_OP_LOAD ? COUNTER_GLOBAL_LD_REQUESTS : COUNTER_GLOBAL_ST_REQUESTS]++;
            v[r->op == EMU_OP_LOAD ? COUNTER_GLOBAL_LD_SECTORS : COUNTER_GLOBAL_ST_SECTORS] += sectors;
        } else if (r->op == EMU_OP_ATOMIC) {
            v[COUNTER_SHARED_ATOMICS]++;
        } else {
            uint32_t ideal, wavefronts = emu_count_wavefronts(r, &ideal);
            int ld = r->op == EMU_OP_LOAD;
            v[ld ? COUNTER_SHARED_LD_INSTRUCTIONS : COUNTER_SHARED_ST_INSTRUCTIONS]++;
            v[ld ? COUNTER_SHARED_LD_WAVEFRONTS : COUNTER_SHARED_ST_WAVEFRONTS] += wavefronts;
            v[ld ? COUNTER_SHARED_LD_CONFLICTS : COUNTER_SHARED_ST_CONFLICTS] += wavefronts - ideal;
        }
    }
    emu_count_clear(c);
}

/* A barrier is released: each of the team's warps ran it, and every earlier access is done. */
void emu_count_barrier(emu_worker *w)
{
    emu_count *c = w->count;
    if (!c || !c->on)
        return;
    c->team.value[COUNTER_BARRIERS] += (w->launch->nthreads + 31) / 32;
    emu_count_flush(w);
    c->phase++;
    /* the warp meets again here: each lane's runs of a site count afresh, so lanes that ran it
       unequally before the barrier share their instructions after it */
    for (uint32_t s = 0; s < c->nsites; s++)
        memset(c->lane_k[s], 0, w->launch->nthreads * sizeof *c->lane_k[s]);
}

/* The team has finished: an exact one is added to the worker's total. */
void emu_count_team_end(emu_worker *w, int ok)
{
    emu_count *c = w->count;
    if (!c)
        return;
    c->total.teams++;
    if (!ok && c->on && !c->overflow) { /* a team that stopped: what it did, for the step-through */
        trace *t = w->launch->options ? w->launch->options->trace : NULL;
        if (t && t->accesses && w->block_linear == t->watched_team)
            emu_count_watch(w, c, t);
    }
    if (!ok || !c->on)
        return;
    c->total.teams_checked++; /* its sectors and atomics were seen, even if it overflows */
    emu_count_flush(w);
    if (c->overflow)
        return;
    c->team.teams_counted = 1;
    c->team.shared_bytes_per_team = w->launch->dynamic_shared;
    for (int i = 0; i < w->nshared; i++)
        c->team.shared_bytes_per_team += w->shared[i].bytes;
    counters_add(&c->total, &c->team);
}

/* Adds the worker's counts of this launch into out. */
void emu_count_collect(emu_worker *w, counters *out)
{
    if (w->count)
        counters_add(out, &w->count->total);
}

#ifdef EMU_WITH_CAPSTONE
/* The number of operations of one x86-64 instruction into m: scalar (ss, sd) and packed (ps, pd:
   4 or 8 floats, 2 or 4 doubles) adds, subtracts, multiplies, fused multiply-adds (2 each),
   divides and square roots. Everything else (moves, compares, integer work) adds nothing. */
static void emu_block_math_add(emu_block_math *m, const char *mnemonic, const char *operands)
{
    const char *op = mnemonic[0] == 'v' ? mnemonic + 1 : mnemonic;
    size_t len = strlen(op);
    if (len < 4)
        return;
    const char *kind = op + len - 2;
    int wide = strstr(operands, "ymm") != NULL, lanes;
    int is32 = strcmp(kind, "ss") == 0 || strcmp(kind, "ps") == 0;
    if (strcmp(kind, "ss") == 0 || strcmp(kind, "sd") == 0)
        lanes = 1;
    else if (strcmp(kind, "ps") == 0)
        lanes = wide ? 8 : 4;
    else if (strcmp(kind, "pd") == 0)
        lanes = wide ? 4 : 2;
    else
        return;
    int ops = 0, special = 0;
    if (strncmp(op, "add", 3) == 0 || strncmp(op, "sub", 3) == 0 || strncmp(op, "mul", 3) == 0)
        ops = 1;
    else if (strncmp(op, "fmadd", 5) == 0 || strncmp(op, "fmsub", 5) == 0 || strncmp(op, "fnmadd", 6) == 0 ||
             strncmp(op, "fnmsub", 6) == 0)
        ops = 2;
    else if (strncmp(op, "div", 3) == 0 || strncmp(op, "sqrt", 4) == 0)
        special = 1;
    if (is32) {
        m->fp32 += (uint32_t)(ops * lanes);
        m->fp32_special += (uint32_t)(special * lanes);
    } else {
        m->fp64 += (uint32_t)((ops + special) * lanes);
    }
}

/* Reads the block that starts at pc, up to its jump, its return or the next block's call to the
   same function that called here (calls to the access checks and conditional branches to cold
   code in between are skipped). */
static void emu_block_math_read(emu_count *c, uintptr_t pc, emu_block_math *m)
{
    if (c->cs_state == 0) {
        c->cs_state = cs_open(CS_ARCH_X86, CS_MODE_64, &c->cs) == CS_ERR_OK ? 1 : -1;
        if (c->cs_state == 1)
            cs_option(c->cs, CS_OPT_DETAIL, CS_OPT_OFF);
    }
    if (c->cs_state != 1)
        return;
    const uint8_t *call = (const uint8_t *)pc - 5; /* call rel32, the block's first instruction */
    if (call[0] != 0xE8)
        return;
    int32_t rel;
    memcpy(&rel, call + 1, sizeof rel);
    uint64_t self = (uint64_t)pc + (uint64_t)(int64_t)rel;
    cs_insn *insn = cs_malloc(c->cs);
    if (!insn)
        return;
    const uint8_t *code = (const uint8_t *)pc;
    size_t left = 4096;
    uint64_t address = pc;
    for (int n = 0; n < 1024 && cs_disasm_iter(c->cs, &code, &left, &address, insn); n++) {
        const char *mn = insn->mnemonic;
        if (strcmp(mn, "jmp") == 0 || strncmp(mn, "ret", 3) == 0 || strcmp(mn, "ud2") == 0)
            break;
        if (mn[0] == 'j') /* a conditional branch: its fall-through, if a block of its own, starts
                             with the call that ends this reading; a sanitizer's check (UBSan in
                             make asan) adds branches to cold code within one block */
            continue;
        if (strcmp(mn, "call") == 0 && insn->size == 5 && insn->bytes[0] == 0xE8) {
            memcpy(&rel, insn->bytes + 1, sizeof rel);
            if (insn->address + 5 + (uint64_t)(int64_t)rel == self)
                break;
            continue;
        }
        emu_block_math_add(m, mn, insn->op_str);
    }
    cs_free(insn, 1);
}
#endif

/* The arithmetic of the block at pc, read once per worker. */
static emu_block_math *emu_block_math_of(emu_count *c, uintptr_t pc)
{
    static emu_block_math none; /* never written: its pc stays 0 */
    uint32_t h = (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 40) & (EMU_COUNT_BLOCK_SLOTS - 1);
    for (uint32_t probe = 0; probe < EMU_COUNT_BLOCK_SLOTS; probe++, h = (h + 1) & (EMU_COUNT_BLOCK_SLOTS - 1)) {
        emu_block_math *m = &c->blocks[h];
        if (m->pc == pc)
            return m;
        if (m->pc == 0) {
            memset(m, 0, sizeof *m);
#ifdef EMU_WITH_CAPSTONE
            emu_block_math_read(c, pc, m);
#endif
            m->pc = pc;
            return m;
        }
    }
    return &none; /* more blocks than slots: the rest count no arithmetic */
}

void emu_check_block(void);
/* Called at the start of every basic block of the checked build (-fsanitize-coverage=trace-pc):
   in a counted launch, adds the block's arithmetic to the running cook's team. */
void emu_check_block(void)
{
    emu_worker *w = emu_self;
    if (!w || !w->launch || !w->launch->counting || !w->count || !w->count->on)
        return;
    emu_count *c = w->count;
    emu_block_math *m = emu_block_math_of(c, (uintptr_t)__builtin_return_address(0));
    uint64_t *v = c->team.value;
    v[COUNTER_FP32_OPS] += m->fp32;
    v[COUNTER_FP32_SPECIAL] += m->fp32_special;
    v[COUNTER_FP64_OPS] += m->fp64;
    if (!m->pc)
        return; /* more blocks than slots */
    if (m->launch != c->launch) { /* first run of the block in this launch: its site */
        m->launch = c->launch;
        m->site = emu_count_site(c, m->pc, w->launch->nthreads);
        if (m->site != UINT32_MAX)
            c->is_block[m->site] = 1;
    }
    if (m->site != UINT32_MAX)
        c->lane_k[m->site][emu_current_tid(w->launch)]++;
}

/* The __shared__ array (static or extern) holding address, if any. */
static int emu_check_is_shared(const emu_worker *w, uintptr_t address)
{
    uintptr_t dyn = (uintptr_t)emu_dynamic_shared_area;
    if (address >= dyn && address < dyn + w->launch->dynamic_shared)
        return 1;
    for (int i = 0; i < w->nshared; i++)
        if (address >= (uintptr_t)w->shared[i].start && address < (uintptr_t)w->shared[i].start + w->shared[i].bytes)
            return 1;
    return 0;
}

/* --- checks --- */

/* Stops the running cook for an access past the team's dynamic shared memory, at byte offset of
   it. Out of line, as the next one: their messages' room is no part of every access's frame (under
   AddressSanitizer each such frame was a 2 KiB fake stack, a third of make asan's cooking). */
__attribute__((noinline, cold)) static void emu_check_fault_dynamic(emu_worker *w, size_t offset, int is_store)
{
    char msg[400];
    snprintf(msg, sizeof msg,
             is_store ? _("wrote past the team's dynamic shared memory (extern __shared__): byte %zu of a "
                          "launch that gave each team %zu bytes")
                      : _("read past the team's dynamic shared memory (extern __shared__): byte %zu of a "
                          "launch that gave each team %zu bytes"),
             offset, w->launch->dynamic_shared);
    trace_thread *rec = emu_trace_cook(w, emu_current_tid(w->launch));
    if (rec)
        rec->outside = 1;
    emu_fault_raise(w, EMU_FAULT_OUT_OF_BOUNDS, msg);
}

/* Stops the running cook for an access at address, outside every buffer of the pantry. */
__attribute__((noinline, cold)) static void emu_check_fault_outside(emu_worker *w, uintptr_t address, int is_store)
{
    trace_thread *rec = emu_trace_cook(w, emu_current_tid(w->launch));
    if (rec)
        rec->outside = 1;
    char where[200], msg[400];
    emu_memory_describe((const void *)address, where, sizeof where);
    snprintf(msg, sizeof msg, is_store ? _("wrote outside the pantry: %s") : _("read outside the pantry: %s"), where);
    emu_fault_raise(w, EMU_FAULT_OUT_OF_BOUNDS, msg);
}

/* Checks (and in a counted launch counts) one access of size bytes at address by the running
   cook, made at pc; op is EMU_OP_LOAD, _STORE or _ATOMIC. */
static void emu_check_access(uintptr_t pc, uintptr_t address, size_t size, int op)
{
    int is_store = op != EMU_OP_LOAD;
    emu_worker *w = emu_self;
    if (!w || !w->launch || !w->current)
        return;
    /* no local's address is taken, so that the check keeps no frame in memory (under
       AddressSanitizer each would be a fake stack) */
    const emu_buffer *b = emu_memory_find((const void *)address, NULL, NULL);
    if (!b) {
        uintptr_t dyn = (uintptr_t)emu_dynamic_shared_area;
        size_t room = address - dyn < w->launch->dynamic_shared ? w->launch->dynamic_shared - (address - dyn) : 0;
        if (address >= dyn && address < dyn + EMU_MAX_DYNAMIC_SHARED && size > room)
            emu_check_fault_dynamic(w, address - dyn, is_store);
        int shared = w->launch->counting && emu_check_is_shared(w, address);
        if (shared)
            emu_count_access(w, pc, address, size, EMU_SPACE_SHARED, op);
        trace_thread *rec = is_store ? emu_trace_cook(w, emu_current_tid(w->launch)) : NULL;
        if (rec && (shared || (!w->launch->counting && emu_check_is_shared(w, address))))
            rec->shared_writes++; /* a cook that writes only the locker (a reduction's partial sums) cooked too */
        return; /* a local variable, shared memory or a constant */
    }
    /* compared as offsets, so that no size (a hostile one called by hand) wraps past the end */
    uintptr_t offset = address - (uintptr_t)b->start;
    int inside = address >= (uintptr_t)b->start && offset < b->bytes;
    if (inside && size <= b->bytes && offset <= b->bytes - size) {
        if (w->launch->counting) {
            emu_count_access(w, pc, address, size, EMU_SPACE_GLOBAL, op);
            emu_memory_seen_mark(b, address, size);
        }
        trace_thread *rec = emu_trace_cook(w, emu_current_tid(w->launch));
        if (rec) { /* what this cook did, for the kitchen's warps of cooks */
            int64_t element = (int64_t)(offset / b->elem_size);
            int index = emu_memory_index_of(b);
            if (is_store) {
                if (rec->buffer < 0)
                    rec->buffer = index, rec->element = element;
                if (rec->buffer == index)
                    rec->last_element = element;
                rec->writes++;
            } else {
                if (rec->read_buffer < 0)
                    rec->read_buffer = index, rec->first_read = element;
                if (rec->read_buffer == index)
                    rec->last_read = element;
                rec->reads++;
            }
        }
        return;
    }
    if (inside)
        address = (uintptr_t)(b->start + b->bytes); /* a wide access that runs past the end */
    emu_check_fault_outside(w, address, is_store);
}

#define EMU_CHECK_SIZED(n)                                                                         \
    void emu_check_load##n(uintptr_t address);                                                     \
    void emu_check_store##n(uintptr_t address);                                                    \
    void emu_check_load##n(uintptr_t address)                                                      \
    {                                                                                              \
        emu_check_access((uintptr_t)__builtin_return_address(0), address, n, EMU_OP_LOAD);         \
    }                                                                                              \
    void emu_check_store##n(uintptr_t address)                                                     \
    {                                                                                              \
        emu_check_access((uintptr_t)__builtin_return_address(0), address, n, EMU_OP_STORE);        \
    }

EMU_CHECK_SIZED(1)
EMU_CHECK_SIZED(2)
EMU_CHECK_SIZED(4)
EMU_CHECK_SIZED(8)
EMU_CHECK_SIZED(16)

void emu_check_loadN(uintptr_t address, size_t size);
void emu_check_storeN(uintptr_t address, size_t size);
/* Checks a load of size bytes (wide or odd-sized accesses). */
void emu_check_loadN(uintptr_t address, size_t size)
{
    emu_check_access((uintptr_t)__builtin_return_address(0), address, size, EMU_OP_LOAD);
}
/* Checks a store of size bytes (wide or odd-sized accesses). */
void emu_check_storeN(uintptr_t address, size_t size)
{
    emu_check_access((uintptr_t)__builtin_return_address(0), address, size, EMU_OP_STORE);
}

/* Checks and counts an atomic operation of size bytes at address (emu_kernel.h's atomics call it
   in the checked build): it must be inside a buffer or shared memory, as a store must. */
void emu_check_atomic(void *address, size_t size);
void emu_check_atomic(void *address, size_t size)
{
    emu_check_access((uintptr_t)__builtin_return_address(0), (uintptr_t)address, size, EMU_OP_ATOMIC);
}

/* Called by checked code at a function's exit, before one that does not return, and at start-up
   (the sanitizers' hooks): nothing to do here. */
void emu_check_no_return(void);
void emu_check_no_return(void)
{
}

/* Called by checked code at a function's entry, with the caller's address: nothing to do here. */
void emu_check_function(void *caller);
void emu_check_function(void *caller)
{
    (void)caller;
}
