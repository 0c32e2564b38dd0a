/*
 * trace.h - what a kernel launch leaves behind for the kitchen view to replay.
 *
 * Both backends fill the same records: for every team (block) the station (SM on a GPU, worker
 * on the emulator) that cooked it and when it started and finished, in nanoseconds from the
 * launch's first block. The emulator can also record, per cook (thread), the element it wrote.
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
} trace_thread;

typedef struct trace {
    trace_block *blocks;
    size_t nblocks;        /* records filled */
    size_t blocks_capacity; /* records allocated (backends grow the array as needed) */
    trace_thread *threads; /* optional (emulator only); NULL when not recorded */
    size_t nthreads;
    size_t threads_capacity;
    int from_gpu;          /* 1: %smid/%globaltimer on a GPU; 0: emulator workers and CPU clock */
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
