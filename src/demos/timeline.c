/*
 * timeline.c - the streams demo's timeline as pure maths: scheduling modeled operations on a GPU's
 * three engines, measuring busy and overlapping time, and drawing rows of characters (timeline.h).
 *
 * Times are sums and maxima of a few dozen operations, so every function walks the whole list; the
 * overlap is measured over the elementary intervals between the operations' ends.
 */
#include "demos/timeline.h"

#include <stdlib.h>

/* Places ops in issue order on their engines (see timeline.h). */
double timeline_schedule(timeline_op *ops, int n, double *host_wait_ms)
{
    double engine_free[TIMELINE_LANES] = {0, 0, 0};
    double host_free = 0, waited = 0, last = 0;
    /* the streams an operation may name: the end of each one's latest operation */
    int streams = 0;
    for (int i = 0; i < n; i++)
        streams = ops[i].stream + 1 > streams ? ops[i].stream + 1 : streams;
    double *stream_free = calloc(streams > 0 ? (size_t)streams : 1, sizeof *stream_free);
    for (int i = 0; i < n; i++) {
        timeline_op *op = &ops[i];
        double start = engine_free[op->lane];
        if (stream_free && op->stream >= 0 && stream_free[op->stream] > start)
            start = stream_free[op->stream];
        if (host_free > start)
            start = host_free;
        op->start_ms = start;
        op->end_ms = start + (op->ms > 0 ? op->ms : 0);
        engine_free[op->lane] = op->end_ms;
        if (stream_free && op->stream >= 0)
            stream_free[op->stream] = op->end_ms;
        if (op->blocks_host) { /* the head chef waits here until it is done */
            waited += op->end_ms - host_free;
            host_free = op->end_ms;
        }
        if (op->end_ms > last)
            last = op->end_ms;
    }
    free(stream_free);
    if (host_wait_ms)
        *host_wait_ms = waited;
    return last;
}

/* The end of the latest operation. */
double timeline_span_ms(const timeline_op *ops, int n)
{
    double last = 0;
    for (int i = 0; i < n; i++)
        if (ops[i].end_ms > last)
            last = ops[i].end_ms;
    return last;
}

/* The operations' lengths, added up. */
double timeline_serial_ms(const timeline_op *ops, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += ops[i].end_ms > ops[i].start_ms ? ops[i].end_ms - ops[i].start_ms : 0;
    return sum;
}

/* Orders doubles, for qsort. */
static int timeline_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The operations' starts and ends, sorted, into a new array of 2n (NULL when out of memory). */
static double *timeline_edges(const timeline_op *ops, int n)
{
    double *t = malloc((size_t)(2 * n > 0 ? 2 * n : 1) * sizeof *t);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        t[2 * i] = ops[i].start_ms;
        t[2 * i + 1] = ops[i].end_ms;
    }
    qsort(t, (size_t)(2 * n), sizeof *t, timeline_cmp);
    return t;
}

/* Which lanes are busy at time t: bit l for lane l. */
static unsigned timeline_busy_at(const timeline_op *ops, int n, double t)
{
    unsigned busy = 0;
    for (int i = 0; i < n; i++)
        if (ops[i].start_ms <= t && t < ops[i].end_ms)
            busy |= 1u << ops[i].lane;
    return busy;
}

/* The time over which the lanes busy match: any of want's bits (at_least 1) or two of them or more
   (at_least 2). */
static double timeline_measure(const timeline_op *ops, int n, unsigned want, int at_least)
{
    double *t = timeline_edges(ops, n);
    if (!t)
        return 0;
    double sum = 0;
    for (int k = 0; k + 1 < 2 * n; k++) {
        if (t[k + 1] <= t[k])
            continue;
        unsigned busy = timeline_busy_at(ops, n, 0.5 * (t[k] + t[k + 1])) & want;
        int lanes = (busy & 1u) + (busy >> 1 & 1u) + (busy >> 2 & 1u);
        if (lanes >= at_least)
            sum += t[k + 1] - t[k];
    }
    free(t);
    return sum;
}

/* How long one lane was busy. */
double timeline_busy_ms(const timeline_op *ops, int n, timeline_lane lane)
{
    return timeline_measure(ops, n, 1u << lane, 1);
}

/* How long two lanes or more were busy at once. */
double timeline_overlap_ms(const timeline_op *ops, int n)
{
    return timeline_measure(ops, n, 7u, 2);
}

/* A lane's character in the drawing. */
char timeline_glyph(timeline_lane lane)
{
    return lane == TIMELINE_IN ? '>' : lane == TIMELINE_COOK ? '#' : '<';
}

/* Whether op belongs to the row: its stream, or its lane when the row is a lane's. */
static int timeline_in_row(const timeline_op *op, int stream, timeline_lane lane)
{
    return stream >= 0 ? op->stream == stream : op->lane == lane;
}

/* Draws one row (see timeline.h). */
void timeline_row(const timeline_op *ops, int n, int stream, timeline_lane lane, double span_ms, int cells,
                  char *out)
{
    if (cells < 1) {
        out[0] = '\0';
        return;
    }
    double w = span_ms > 0 ? span_ms / cells : 1;
    for (int c = 0; c < cells; c++) {
        double lo = c * w, hi = lo + w, most = 0;
        out[c] = ' ';
        for (int i = 0; i < n; i++) {
            if (!timeline_in_row(&ops[i], stream, lane))
                continue;
            double a = ops[i].start_ms > lo ? ops[i].start_ms : lo, b = ops[i].end_ms < hi ? ops[i].end_ms : hi;
            if (b - a > most) {
                most = b - a;
                out[c] = timeline_glyph(ops[i].lane);
            }
        }
    }
    /* an operation shorter than the cells around it: its glyph in the cell of its middle */
    for (int i = 0; i < n; i++) {
        if (!timeline_in_row(&ops[i], stream, lane) || ops[i].end_ms <= ops[i].start_ms)
            continue;
        int first = (int)(ops[i].start_ms / w), last = (int)(ops[i].end_ms / w);
        int shown = 0;
        for (int c = first < 0 ? 0 : first; c <= last && c < cells && !shown; c++)
            shown = out[c] == timeline_glyph(ops[i].lane);
        if (!shown) {
            int mid = (int)(0.5 * (ops[i].start_ms + ops[i].end_ms) / w);
            out[mid < 0 ? 0 : mid >= cells ? cells - 1 : mid] = timeline_glyph(ops[i].lane);
        }
    }
    out[cells] = '\0';
}
