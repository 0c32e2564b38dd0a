/*
 * timeline.h - the streams demo's timeline as pure maths, without curses: operations of several
 * streams on three lanes (ship in, cook, ship out), scheduled as a GPU would run them when the times
 * are modeled, measured for how long they overlapped, and drawn as rows of characters.
 *
 * An operation is one chunk's ship in, cook or ship out, in one stream. On a GPU the demo measures
 * each one's start and end with CUDA events (streams_gpu.c); on the emulator timeline_schedule
 * places them from their modeled lengths. Either way the same functions measure and draw them.
 */
#ifndef CUDACHEF_TIMELINE_H
#define CUDACHEF_TIMELINE_H

/* The three kinds of work, each with its engine on a GPU: the copy engine that ships in, the
   stations that cook (one kernel at a time, as the model has it), the copy engine that ships out. */
typedef enum timeline_lane { TIMELINE_IN, TIMELINE_COOK, TIMELINE_OUT, TIMELINE_LANES } timeline_lane;

typedef struct timeline_op {
    int stream;               /* which stream issued it, from 0 */
    int chunk;                /* which chunk of the work, from 0 */
    timeline_lane lane;
    double ms;                /* its length: what timeline_schedule places (a measured op: end - start) */
    int blocks_host;          /* the head chef waits until it ends before issuing anything more (a
                                 copy from pageable memory, as the model has it) */
    double start_ms, end_ms;  /* from the start of the run */
} timeline_op;

/* Places ops, given in the order the head chef issued them, as a GPU with one copy engine each way
   and one kernel at a time runs them: each starts once its engine is free, the operation before it
   in its stream has ended, and the head chef has issued it (after an operation that blocks the head
   chef, nothing issued later starts before it ends). Sets every start_ms and end_ms from ms;
   returns the end of the last one, and in *host_wait_ms (may be NULL) how long the head chef was
   held by blocking operations. */
double timeline_schedule(timeline_op *ops, int n, double *host_wait_ms);

/* The end of the latest operation (0 for none). */
double timeline_span_ms(const timeline_op *ops, int n);

/* The sum of the operations' lengths: the time they take one after another. */
double timeline_serial_ms(const timeline_op *ops, int n);

/* How long lane was busy: the length of the union of its operations. */
double timeline_busy_ms(const timeline_op *ops, int n, timeline_lane lane);

/* How long two or more lanes were busy at once (shipping while cooking, or shipping in while
   shipping out): the time overlap saved. Two operations of one lane (two streams' kernels) do not
   count: one engine works on one at a time. */
double timeline_overlap_ms(const timeline_op *ops, int n);

/* '>' ship in, '#' cook, '<' ship out. */
char timeline_glyph(timeline_lane lane);

/* Draws one row of a timeline into out (cells characters and a NUL): the operations of one stream
   (stream >= 0, lane ignored) or of one lane (stream < 0), with 0 .. span_ms spread over the cells.
   Each cell shows the glyph of the operation that covers most of it, a space where none does; an
   operation too short to win a cell still takes the cell of its middle, so none disappears. */
void timeline_row(const timeline_op *ops, int n, int stream, timeline_lane lane, double span_ms, int cells,
                  char *out);

#endif
