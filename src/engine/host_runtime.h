/*
 * host_runtime.h - the CUDA runtime a learner's host code calls on the emulator (host_runtime.c
 * defines the emu_cuda_* functions src/kit/emu_runtime.h declares), and its control by whoever
 * runs that code: a fault planned for one call, and what the code did (allocations still held,
 * copies in the wrong direction or past a buffer, a kernel that faulted).
 */
#ifndef CUDACHEF_HOST_RUNTIME_H
#define CUDACHEF_HOST_RUNTIME_H

#include <stddef.h>

/* The runtime calls a fault can be planned for. */
typedef enum host_fault_op { HOST_FAULT_NONE = 0, HOST_FAULT_ALLOC, HOST_FAULT_COPY, HOST_FAULT_LAUNCH } host_fault_op;

/* One elapsed time the events gave (cudaEventElapsedTime), and what the span between them held. */
typedef struct host_timing {
    float ms;                 /* the milliseconds returned, bit for bit */
    int launches, copies;     /* launches and copies recorded between the two events */
    int warm;                 /* a launch went out before the first event (a warm-up) */
} host_timing;

#define HOST_MAX_TIMINGS 8

/* What the code did between host_runtime_begin and host_runtime_end. */
typedef struct host_runtime_stats {
    int calls[4];             /* calls of cudaMalloc, cudaMemcpy, launches (indexed by host_fault_op) */
    int injected;             /* the planned fault happened */
    int leaked;               /* device allocations still held at the end (freed by host_runtime_end) */
    size_t leaked_bytes;
    int wrong_copies;         /* copies whose kind disagreed with where their pointers are */
    int out_of_bounds;        /* copies past a buffer, and kernel accesses outside the pantry */
    int kernel_faulted;       /* a launch faulted (out of bounds, a crash, a barrier) */
    int cause;                /* chef_cause of the first fault */
    /* timing and shipping (lessons 7 and 8; docs/EMULATOR.md, "Host code"): */
    int launches;             /* launches that went out */
    int copies;               /* copies made */
    size_t bytes_in, bytes_out; /* bytes copied into the kitchen, and back to the head chef */
    int not_ready;            /* cudaEventElapsedTime refused: an event the kitchen had not reached */
    int ntimings;             /* elapsed times given (the first HOST_MAX_TIMINGS kept) */
    host_timing timings[HOST_MAX_TIMINGS];
    char message[600];        /* the first problem, for people ("" when none) */
} host_runtime_stats;

/* Starts a run of host code: forgets the last error and the counts, and plans the call-th call
   of op to fail (HOST_FAULT_NONE: none; CUDACHEF_FAULT's alloc, copy and launch apply then). */
void host_runtime_begin(host_fault_op op, int call);

/* Ends the run: fills *st, and frees every device allocation and event the code left. */
void host_runtime_end(host_runtime_stats *st);

/* Host memory for the code's inputs and outputs (the head chef's pantry), between guard pages, and
   known to the runtime by label, so that a copy past its end is refused and named. NULL when out
   of memory. */
void *host_runtime_host_alloc(size_t bytes, const char *label);

/* Releases a buffer from host_runtime_host_alloc. */
void host_runtime_host_free(void *ptr);

/* "alloc", "copy", "launch" ("" for none). */
const char *host_fault_name(host_fault_op op);

#endif
