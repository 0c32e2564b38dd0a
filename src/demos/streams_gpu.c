/*
 * streams_gpu.c - the GPU half of the streams demo: one run of a version, chunk k's shipments
 * (cudaMemcpyAsync) and launches (cudaLaunchKernel) issued in stream k, every operation timed by
 * CUDA events recorded in its stream.
 *
 * The backend (backend_gpu.c) waits for every copy and launch it makes, so this half calls the
 * runtime itself, on the backend's buffers and the same kernel table (kit/gpu_table.cu).
 *
 * The streams come from cudaStreamCreate: blocking streams, which the legacy default stream (stream
 * 0) waits for and which wait for it. The run's first and last events are recorded in stream 0, so
 * the first comes before every operation of the streams and the last after all of them: the
 * default stream's rule that lesson 19 teaches, used on purpose.
 *
 * An event's time is when its stream reached it. The event before a chunk's ship in is reached as
 * soon as the stream is free, even when the copy engine is still busy with another stream's chunk:
 * a bar of the timeline may include that wait (the report says so).
 */
#include <cuda_runtime_api.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "demos/streams.h"
#include "kit/gpu_table.h"

/* Events per chunk: before its ship in, after it, after its cooking, after its ship out. */
#define STREAMS_MARKS 4

/* Checks a CUDA call of streams_gpu_issue: on failure fills err with the call and the CUDA error
   (exit code `code`) and goes to the cleanup. */
#define STREAMS_CUDA(call, code)                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            chef_fail(err, code, NULL, "%s failed: %s (%s, %s:%d)", #call, cudaGetErrorString(e_), \
                      cudaGetErrorName(e_), __FILE__, __LINE__);                                   \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

/* What one run creates, so that every exit destroys exactly what exists. */
typedef struct streams_gpu_state {
    cudaStream_t stream[STREAMS_MAX_STREAMS];
    int nstreams;
    cudaEvent_t start, stop;
    int have_start, have_stop;
    cudaEvent_t marks[STREAMS_MAX_STREAMS][STREAMS_MARKS];
    int nmarks;                       /* events of marks made, counted row by row */
} streams_gpu_state;

/* Destroys the run's streams and events. */
static void streams_gpu_release(streams_gpu_state *st)
{
    for (int i = 0; i < st->nmarks; i++)
        cudaEventDestroy(st->marks[i / STREAMS_MARKS][i % STREAMS_MARKS]);
    if (st->have_stop)
        cudaEventDestroy(st->stop);
    if (st->have_start)
        cudaEventDestroy(st->start);
    for (int i = 0; i < st->nstreams; i++)
        cudaStreamDestroy(st->stream[i]);
}

/* Issues chunk k in stream s: ship x and b in, the chain of launches, ship x out, an event between
   each. Returns 0, or -1 with err. */
static int streams_gpu_chunk(const streams_job *job, const void *fn, int k, cudaStream_t s, cudaEvent_t *marks,
                             chef_error *err)
{
    int64_t first, count;
    streams_chunk(job->n, job->chunks, k, &first, &count);
    size_t bytes = (size_t)count * sizeof(float);
    int m = (int)count, tpb = job->threads_per_block;
    dim3 grid = {(unsigned)((count + tpb - 1) / tpb), 1, 1}, block = {(unsigned)tpb, 1, 1};
    STREAMS_CUDA(cudaEventRecord(marks[0], s), CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaMemcpyAsync(job->dx[0] + first, job->hx + first, bytes, cudaMemcpyHostToDevice, s),
                 CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaMemcpyAsync(job->db + first, job->hb + first, bytes, cudaMemcpyHostToDevice, s),
                 CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaEventRecord(marks[1], s), CHEF_EXIT_ENVIRONMENT);
    for (int j = 0; j < job->steps; j++) { /* x[j+1] = x[j] + b, the two buffers taking turns */
        const float *in = job->dx[j % 2] + first, *b = job->db + first;
        float *out = job->dx[(j + 1) % 2] + first;
        void *args[4] = {&in, &b, &out, &m};
        STREAMS_CUDA(cudaLaunchKernel(fn, grid, block, args, 0, s), CHEF_EXIT_CRASH);
    }
    STREAMS_CUDA(cudaEventRecord(marks[2], s), CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaMemcpyAsync(job->hx + first, job->dx[job->steps % 2] + first, bytes, cudaMemcpyDeviceToHost, s),
                 CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaEventRecord(marks[3], s), CHEF_EXIT_ENVIRONMENT);
    return 0;
fail:
    return -1;
}

/* The time of event e after the run's first event, in ms. 0, or -1 with err. */
static int streams_gpu_since(cudaEvent_t start, cudaEvent_t e, double *ms, chef_error *err)
{
    float t = 0;
    STREAMS_CUDA(cudaEventElapsedTime(&t, start, e), CHEF_EXIT_ENVIRONMENT);
    *ms = t;
    return 0;
fail:
    return -1;
}

/* Reads every operation's start and end, and the run's total, from the events. 0, or -1. */
static int streams_gpu_read(const streams_job *job, streams_gpu_state *st, timeline_op *ops, double *total_ms,
                            chef_error *err)
{
    for (int k = 0; k < job->chunks; k++) {
        double at[STREAMS_MARKS];
        for (int i = 0; i < STREAMS_MARKS; i++)
            if (streams_gpu_since(st->start, st->marks[k][i], &at[i], err) != 0)
                return -1;
        for (int lane = 0; lane < TIMELINE_LANES; lane++) {
            timeline_op *op = &ops[3 * k + lane];
            op->stream = k;
            op->chunk = k;
            op->lane = (timeline_lane)lane;
            op->blocks_host = 0;
            /* an event is never before the run's first one, but keep a bar from running backwards */
            op->start_ms = at[lane] > 0 ? at[lane] : 0;
            op->end_ms = at[lane + 1] > op->start_ms ? at[lane + 1] : op->start_ms;
            op->ms = op->end_ms - op->start_ms;
        }
    }
    return streams_gpu_since(st->start, st->stop, total_ms, err);
}

/* One run of the job in job->chunks streams (see streams.h). */
int streams_gpu_run(const streams_job *job, timeline_op *ops, double *total_ms, double *host_ms, chef_error *err)
{
    const struct gpu_kernel_row *row = gpu_kernel_find(STREAMS_KERNEL);
    const void *fn = row ? row->plain : NULL;
    if (!fn)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, _("kernel %s is not compiled into this program"), STREAMS_KERNEL);
    if (job->chunks < 1 || job->chunks > STREAMS_MAX_STREAMS)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "streams_gpu_run: %d chunks", job->chunks);
    streams_gpu_state st = {0};
    for (; st.nstreams < job->chunks; st.nstreams++)
        STREAMS_CUDA(cudaStreamCreate(&st.stream[st.nstreams]), CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaEventCreate(&st.start), CHEF_EXIT_ENVIRONMENT);
    st.have_start = 1;
    STREAMS_CUDA(cudaEventCreate(&st.stop), CHEF_EXIT_ENVIRONMENT);
    st.have_stop = 1;
    for (; st.nmarks < job->chunks * STREAMS_MARKS; st.nmarks++)
        STREAMS_CUDA(cudaEventCreate(&st.marks[st.nmarks / STREAMS_MARKS][st.nmarks % STREAMS_MARKS]),
                     CHEF_EXIT_ENVIRONMENT);
    /* an empty queue first, so that the run is timed alone */
    STREAMS_CUDA(cudaDeviceSynchronize(), CHEF_EXIT_CRASH);
    STREAMS_CUDA(cudaEventRecord(st.start, 0), CHEF_EXIT_ENVIRONMENT);
    double t0 = chef_now_ms();
    for (int k = 0; k < job->chunks; k++)
        if (streams_gpu_chunk(job, fn, k, st.stream[k], st.marks[k], err) != 0)
            goto fail;
    *host_ms = chef_now_ms() - t0; /* the head chef is free again: with pinned memory, long before the GPU */
    STREAMS_CUDA(cudaEventRecord(st.stop, 0), CHEF_EXIT_ENVIRONMENT);
    STREAMS_CUDA(cudaEventSynchronize(st.stop), CHEF_EXIT_CRASH);
    STREAMS_CUDA(cudaDeviceSynchronize(), CHEF_EXIT_CRASH);
    STREAMS_CUDA(cudaGetLastError(), CHEF_EXIT_CRASH);
    if (streams_gpu_read(job, &st, ops, total_ms, err) != 0)
        goto fail;
    streams_gpu_release(&st);
    return 0;
fail:
    /* no copy may still be reading or writing the caller's host buffers when it frees them */
    cudaDeviceSynchronize();
    cudaGetLastError();
    streams_gpu_release(&st);
    return -1;
}
