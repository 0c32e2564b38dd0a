/*
 * emu.h - the CPU emulator: runs kernels from kernels/ on the CPU with GPU semantics.
 *
 * A launch spreads blocks (teams) over worker threads (stations); each worker runs one block at
 * a time, its threads (cooks) as fibers that are switched only at __syncthreads(). Device buffers
 * come from emu_malloc, fenced by guard pages. The "checked" build of the kernels (compiled with
 * per-access callbacks, see emu_check.c) names the cook and element of any access outside a
 * buffer and records which element each cook wrote.
 */
#ifndef CUDACHEF_EMU_H
#define CUDACHEF_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "base/cancel.h"
#include "base/counters.h"
#include "base/trace.h"
#include "kit/emu_table.h"

typedef struct emu_dim3 {
    unsigned x, y, z;
} emu_dim3;

typedef struct emu_kernel {
    const char *name;
    emu_entry fast;    /* plain build */
    emu_entry checked; /* build with per-access callbacks; NULL if unavailable */
} emu_kernel;

typedef enum emu_status {
    EMU_OK = 0,
    EMU_FAULT_OUT_OF_BOUNDS,  /* an access outside a device buffer */
    EMU_FAULT_BARRIER,        /* a barrier not reached by every thread of its block */
    EMU_FAULT_CRASH,          /* any other fault (stack overflow, bad pointer) */
    EMU_FAULT_CONFIG,         /* an invalid launch configuration */
    EMU_FAULT_SYSTEM,         /* the emulator itself could not get memory or threads */
    EMU_CANCELLED,            /* the launch was asked to stop (options.cancel): teams left uncooked */
    EMU_FAULT_WARP,           /* a warp collective (__shfl_sync & co) used wrongly or waiting for lanes that never come */
    EMU_FAULT_ASSERT          /* a cook's assert() failed (a whole program's kernel; emu_cook_assert) */
} emu_status;

typedef struct emu_fault {
    emu_status status;
    emu_dim3 block, thread;   /* who faulted, where it applies */
    char message[512];        /* one sentence for people */
} emu_fault;

typedef struct emu_options {
    int workers;              /* 0: one per CPU core */
    int checked;              /* 1: use the checked build (exact out-of-bounds reports, element trace) */
    uint64_t shuffle_seed;    /* nonzero: run a block's threads in a seeded random order between barriers */
    trace *trace;             /* optional: filled with one record per block (and per thread if threads set) */
    const chef_cancel *cancel; /* optional: once it asks to stop, no worker starts another team */
    size_t dynamic_shared;    /* bytes of dynamic shared memory per team (extern __shared__), at most
                                 EMU_MAX_DYNAMIC_SHARED */
    counters *counters;       /* optional: a checked launch counts each warp's accesses into it
                                 (docs/EMULATOR.md, "Counters"); valid stays 0 otherwise */
    uint32_t count_every;     /* with counters, > 1: only every count_every-th team runs the checked
                                 build and is counted (the others the plain build), and the totals
                                 are scaled; 0 or 1: every team */
    int counted_only;         /* with counters and count_every: the other teams are not cooked at all
                                 (counts beside another backend's run, whose results are the ones
                                 tasted); the outputs are then incomplete */
} emu_options;

/* Runs kernel over grid x block. Returns EMU_OK or fills fault with what went wrong. */
emu_status emu_launch(const emu_kernel *kernel, emu_dim3 grid, emu_dim3 block, void **args,
                      const emu_options *options, emu_fault *fault);

/* 1 when a cook runs on the calling thread (a kernel's code), 0 in host code. */
int emu_on_cook(void);

/* Looks a kernel up by name in the kernels compiled into the program; NULL if unknown. */
const emu_kernel *emu_kernel_find(const char *name);

/* Device memory for the emulator: bytes between guard pages. label and elem_size name it in reports. */
void *emu_malloc(size_t bytes, const char *label, size_t elem_size);
void emu_free(void *p);

/* The emulator's number for the device buffer holding p (the buffer of trace_thread's records), or
   -1 when p is in none. */
int emu_memory_index(const void *p);

/* A cook's assert() failed: the launch stops there, as a GPU's kernel traps, with message. 0 (and
   nothing done) when no cook runs on the calling thread: the host's own assert. */
int emu_cook_assert(const char *message);

/* Number of workers a launch with workers = 0 uses. */
int emu_default_workers(void);

/* Largest threads per block the emulator accepts (as on current GPUs). */
#define EMU_MAX_THREADS_PER_BLOCK 1024

/* Largest dynamic shared memory per team (227 KiB, as an H100 or H200 allows a block with opt-in). */
#define EMU_MAX_DYNAMIC_SHARED (227 * 1024)

/* The worker's dynamic shared area: where every extern __shared__ array starts (emu_kernel.h). */
extern _Thread_local unsigned char emu_dynamic_shared_area[EMU_MAX_DYNAMIC_SHARED] __asm__("emu_dynamic_shared");

#endif
