/*
 * fault.h - a test hook that makes the backend fail on purpose, the way the real API fails.
 *
 * CUDACHEF_FAULT=WHAT:N[,WHAT:N...] makes the Nth call (counted from 1 in each process) of one
 * backend operation fail: open (the GPU unusable, or the emulator unable to start), alloc (device
 * memory exhausted), host (host or pinned memory exhausted), copy (a shipment fails), launch (the
 * launch is refused) or sync (the kernel fails while running). backend.c stands the hook in front
 * of every backend's operations, so the GPU and the emulator fail alike and every caller (the
 * kitchen, the demos, bench, grade's child) meets the failure where it would meet a real one.
 *
 * CUDACHEF_FAULT_LOG=FILE appends one line per process at exit: the backends, device buffers and
 * host buffers still held (all 0 when everything was released), the faults injected and the calls
 * of each operation. The tests read it to prove a failure leaks nothing, and to aim at a call. Neither variable is set in normal use; both are
 * described in docs/RELIABILITY.md.
 */
#ifndef CUDACHEF_FAULT_H
#define CUDACHEF_FAULT_H

#include "base/chef.h"

/* The backend operations a fault can hit. */
typedef enum fault_op { FAULT_OPEN, FAULT_ALLOC, FAULT_HOST, FAULT_COPY, FAULT_LAUNCH, FAULT_SYNC, FAULT_OPS } fault_op;

/* What a process holds from its backends, counted while the hook is on. */
typedef enum fault_held { FAULT_HELD_BACKENDS, FAULT_HELD_DEVICE, FAULT_HELD_HOST, FAULT_HELD_KINDS } fault_held;

/* 1 when CUDACHEF_FAULT or CUDACHEF_FAULT_LOG is set: the backend then goes through the hook. */
int fault_enabled(void);

/* Reads CUDACHEF_FAULT (once; later calls answer at once): 0, or -1 with err (exit 2) naming
   what is wrong with it. */
int fault_setup(chef_error *err);

/* Counts a call of op; 1 when this call must fail (its number in *call), else 0. */
int fault_hit(fault_op op, int *call);

/* The operation's name as CUDACHEF_FAULT spells it: "alloc", "copy", ... */
const char *fault_name(fault_op op);

/* Adds delta to what the process holds of kind (for CUDACHEF_FAULT_LOG). */
void fault_hold(fault_held kind, int delta);

#endif
