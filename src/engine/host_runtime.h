/*
 * host_runtime.h - the CUDA runtime a learner's host code calls on the emulator (host_runtime.c
 * defines the emu_cuda_* functions src/kit/emu_runtime.h declares), and its control by whoever
 * runs that code: a fault planned for one call, and what the code did (allocations still held,
 * copies in the wrong direction or past a buffer, a kernel that faulted).
 */
#ifndef CUDACHEF_HOST_RUNTIME_H
#define CUDACHEF_HOST_RUNTIME_H

#include <stddef.h>

#include "base/counters.h"
#include "base/trace.h"

/* The runtime serves one host thread at a time: each of its calls (emu_cuda_*, emu_cublas_*) is
   made whole before another thread's begins, as a program with several host threads (a stream
   callback's, a worker's) needs. Recursive: a call made by a stream's host function, inside the call
   that ran it, goes on. HOST_API opens a call; the lock is let go when the function returns. */
void host_api_enter(void);
void host_api_leave(int *held);
#define HOST_API int host_api_held __attribute__((cleanup(host_api_leave), unused)) = (host_api_enter(), 1)

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
    /* streams, pinned and managed memory (each stream's queue runs when something waits for it) */
    int launch_streams;       /* streams made by cudaStreamCreate that carried a launch */
    int copy_streams;         /* streams made by cudaStreamCreate that carried a queued copy */
    int default_launches;     /* launches on the default stream */
    int pageable_copies;      /* cudaMemcpyAsync whose host side is not pinned (so they ran at once) */
    int unwaited;             /* queued operations nothing waited for: run by a cudaFree, or never */
    int unmanaged_args;       /* launch arguments pointing into memory that is not managed */
    int managed_args;         /* launch arguments pointing into managed memory */
    long page_faults;         /* managed pages a launch's buffers had away from the device */
    long page_faults_host;    /* ... of them, pages a prefetch had sent to the head chef */
    int cause;                /* chef_cause of the first fault */
    /* timing and shipping (lessons 7 and 8; docs/EMULATOR.md, "Host code"): */
    int launches;             /* launches that went out */
    int copies;               /* copies made */
    size_t bytes_in, bytes_out; /* bytes copied into the kitchen, and back to the head chef */
    int not_ready;            /* cudaEventElapsedTime refused: an event the kitchen had not reached */
    int ntimings;             /* elapsed times given (the first HOST_MAX_TIMINGS kept) */
    host_timing timings[HOST_MAX_TIMINGS];
    /* cuBLAS (lesson 9; host_cublas.c): */
    int library_calls;        /* cublasSgemm calls that cooked */
    int library_refused;      /* ... refused with a status (CUBLAS_STATUS_INVALID_VALUE, ...) */
    int library_status;       /* the first refusal's status */
    int handles_left;         /* cuBLAS handles never destroyed (host_runtime_end frees them) */
    char first_operand[32];   /* the head chef's buffer the first call's first matrix was shipped from */
    int first_transposed;     /* ... that call transposed a matrix */
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

/* --- for a library the code calls on the emulator (host_cublas.c) --- */

/* 1 when [p, p + bytes) lies inside one live cudaMalloc buffer; *from then names the head chef's
   buffer last shipped into it ("" when none). */
int host_runtime_device_span(const void *p, size_t bytes, const char **from);

/* A library's kernel touched memory outside the pantry: noted, and the sticky
   cudaErrorIllegalAddress a kernel's fault leaves. */
void host_runtime_library_fault(const char *message);

/* A library's kernel goes out on the default stream (the work queued before it runs first). */
void host_runtime_library_launch(void);

/* 1 while a sticky error stands (a library's work fails then). */
int host_runtime_broken(void);

/* The run's record, which a library adds its counts to. */
host_runtime_stats *host_runtime_record(void);

/* The cuBLAS handles still held, freed (host_cublas.c; host_runtime_end calls it). */
int host_cublas_end(void);

/* A cuBLAS status's name by cuBLAS's numbers ("CUBLAS_STATUS_INVALID_VALUE"), or NULL when it has
   none (host_cublas.c; the GPU's library calls use it too). */
const char *host_cublas_status_name(int status);

/* The journey of a whole program, in the order of its calls: what the five steps of its run were
   (docs/EMULATOR.md, "Whole programs"). The first HOST_JOURNAL_MAX events are kept; the others are
   counted by kind. */
typedef enum host_event_kind {
    HOST_EVENT_ALLOC,   /* what: 0 cudaMalloc, 1 pinned (cudaMallocHost), 2 managed */
    HOST_EVENT_FREE,    /* what: as its allocation's */
    HOST_EVENT_COPY,    /* what: 1 into the kitchen, 2 back to the head chef, 3 within the kitchen, 0 neither */
    HOST_EVENT_LAUNCH,
    HOST_EVENT_SYNC,    /* what: 0 the device, 1 a stream, 2 an event */
    HOST_EVENT_KINDS
} host_event_kind;

typedef struct host_event {
    host_event_kind kind;
    int what;
    int number;                 /* ALLOC, FREE: the buffer's number (its allocation's order, from 1) */
    int pinned;                 /* COPY: the head chef's side is page-locked (or managed) */
    size_t bytes;               /* ALLOC, COPY */
    double ms;                  /* COPY, LAUNCH: how long it took on this machine's CPU */
    const char *kernel;         /* LAUNCH: its name as the program wrote it */
    unsigned grid[3], block[3];
    size_t shared;              /* LAUNCH: dynamic shared memory */
    int checked;                /* LAUNCH: it ran the checked build (its counts in counted) */
    int faulted;                /* LAUNCH: it broke a rule */
    const counters *counted;    /* LAUNCH, checked: the counts (the site's, kept for the run) */
} host_event;

#define HOST_JOURNAL_MAX 2000

/* The journey so far: *n events kept, and in dropped[kind] those past HOST_JOURNAL_MAX. */
const host_event *host_runtime_journal(int *n, long dropped[HOST_EVENT_KINDS]);

/* A whole program runs (src/grading/program_runner.c): its launches come through
   emu_cuda_launch_site, each site's first launch runs the checked build that twin finds for the
   plain build's site record (NULL when there is none), and launches use every worker. */
struct emu_site;
void host_runtime_program(const struct emu_site *(*twin)(const struct emu_site *plain));

/* A whole program's launches of kernel (as the program names it): the k-th (from 1) is the checked
   one instead of the first at each site (try --check-launch KERNEL:K). */
void host_runtime_check_launch(const char *kernel, long k);

/* try --kitchen: on, the watched launch (the --check-launch one, else the program's first checked
   launch) keeps its trace: where each team cooked, each cook's record (up to 65536 cooks) and team
   0's first memory instructions. */
void host_runtime_watch(int on);

/* That trace once the launch has run (NULL before, or when none was watched), and its event's
   index in the journey (HOST_JOURNAL_MAX when the journey was full). */
const trace *host_runtime_watched(int *event);

/* A cook's assert() failed in a program's kernel: the launch stops as a GPU's does (the emulator's
   emu_cook_assert); 0 when no cook runs on this thread (the host's own assert). */
int host_runtime_cook_assert(const char *message);

/* "alloc", "copy", "launch" ("" for none). */
const char *host_fault_name(host_fault_op op);

#endif
