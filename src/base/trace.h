/*
 * trace.h - what a kernel launch leaves behind for the kitchen view to replay.
 *
 * Both backends fill the same records: for every team (block) the station (SM on a GPU, worker
 * on the emulator) that cooked it and when it started and finished, in nanoseconds from the
 * launch's first block. The emulator's checked launch can also record, per cook (thread), what it
 * did: the elements it wrote and read, the barriers it passed, and whether it reached outside a
 * buffer or was left waiting at a barrier; the taste marks the cooks whose elements are wrong.
 */
#ifndef CUDACHEF_TRACE_H
#define CUDACHEF_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct trace_block {
    uint32_t block;     /* linear block index: x + y*gridDim.x + z*gridDim.x*gridDim.y */
    uint32_t station;   /* SM id (GPU) or worker id (emulator) */
    uint64_t start_ns;  /* relative to the earliest start in the launch */
    uint64_t end_ns;
} trace_block;

typedef struct trace_thread {
    uint32_t block;     /* linear block index */
    uint32_t thread;    /* linear thread index within the block */
    int32_t buffer;     /* device buffer of the first element written, -1 if the cook wrote none */
    int64_t element;    /* index of that element in its buffer, -1 if none */
    int64_t last_element; /* the last element it wrote in that buffer (a grid-stride cook writes many) */
    uint32_t writes, reads; /* its stores and loads inside the device buffers */
    uint32_t shared_writes; /* its stores to the team's shared memory */
    int32_t read_buffer;  /* device buffer of its first read, -1 if it read none */
    int64_t first_read, last_read; /* the first and last elements it read there */
    uint32_t barriers;  /* the __syncthreads() it passed */
    uint8_t outside;    /* 1: it reached outside a buffer (the checked launch stopped there) */
    uint8_t stuck;      /* 1: it waited at a barrier its team never all reached (the launch stopped) */
    uint8_t wrong;      /* 1: an element it wrote tastes wrong (marked by the taste, kitchen.c) */
} trace_thread;

/* One warp instruction's memory access in the watched team (the kitchen's memory view): which
   lanes ran it and the address of each, with what the counters made of it. */
#define TRACE_WARP 32
enum { TRACE_GLOBAL = 0, TRACE_SHARED = 1 };
enum { TRACE_LOAD = 0, TRACE_STORE = 1, TRACE_ATOMIC = 2 };
typedef struct trace_access {
    uint16_t warp;       /* the warp of the watched team */
    uint16_t phase;      /* barriers the team had passed before it */
    uint8_t space;       /* TRACE_GLOBAL, TRACE_SHARED */
    uint8_t op;          /* TRACE_LOAD, TRACE_STORE, TRACE_ATOMIC */
    uint8_t size;        /* bytes per lane */
    uint32_t elem_size;  /* global: the bytes of one element of its buffer (a float4 access is 4 of them) */
    uint32_t lanes;      /* bit l: lane l ran it */
    uint64_t address[TRACE_WARP]; /* each lane's address (as the emulator's memory holds it) */
    uint64_t base;       /* global: the start of its buffer; shared: the lowest address of the warp */
    char label[32];      /* global: the buffer's name; shared: "" */
    uint32_t units;      /* global: 32-byte sectors; shared: wavefronts */
    uint32_t ideal;      /* the fewest units its lanes' bytes need */
    uint32_t lines;      /* global: distinct 128-byte lines */
} trace_access;

typedef struct trace {
    trace_block *blocks;
    size_t nblocks;        /* records filled */
    size_t blocks_capacity; /* records allocated (backends grow the array as needed) */
    trace_thread *threads; /* optional (emulator only); NULL when not recorded */
    size_t nthreads;
    size_t threads_capacity;
    int from_gpu;          /* 1: %smid/%globaltimer on a GPU; 0: emulator workers and CPU clock */
    int stopped;           /* 1: the launch stopped at a fault: no blocks to replay, but the cooks'
                              records (threads) hold what each did up to then */
    uint32_t stopped_team; /* then: the team (linear index) whose cook stopped it */
    trace_access *accesses; /* optional (emulator's counted launch): the watched team's memory
                               instructions, warp by warp in the order they ran; NULL: not kept */
    size_t naccesses, accesses_capacity;
    size_t accesses_left_out; /* instructions past the capacity, not kept */
    uint32_t watched_team;  /* the team whose accesses are kept (0 in the kitchen) */
    int has_output;         /* 1: output_buffer names the run's output among the cooks' buffers */
    int32_t output_buffer;  /* then: the buffer (trace_thread.buffer) of the output */
} trace;

/* Summary figures of a trace for reports. */
typedef struct trace_summary {
    size_t blocks;
    unsigned stations_used;
    unsigned max_resident;       /* most teams seen on one station at the same time */
    unsigned blocks_out_of_order;/* blocks that started before a block with a lower index */
    uint64_t span_ns;            /* first start to last end */
} trace_summary;

/* Orders the block records by start time and makes the times relative to the first start. */
void trace_normalize(trace *t);

/* Computes the summary figures of a (normalized) trace. */
trace_summary trace_summarize(const trace *t);

/* Makes room for n block records; returns -1 when out of memory. */
int trace_reserve_blocks(trace *t, size_t n);

/* Releases the record arrays. */
void trace_free(trace *t);

#endif
