/*
 * transfers.h - the shipments, measured: how fast bytes travel between the head chef's pantry (host
 * RAM) and the kitchen's (device memory), each way, and inside the kitchen, from 4 KiB to 1 GiB.
 *
 * At each size (4 KiB, 16 KiB, 64 KiB, ... powers of 4 up to the top) five copies race side by side:
 *
 *   ship in, pageable    host to device from ordinary host memory (the driver first copies it into
 *                        a page-locked staging buffer of its own)
 *   ship in, pinned      host to device from page-locked (pinned) memory: the copy engine reads it
 *                        directly
 *   ship out, pageable   device to host, into ordinary memory
 *   ship out, pinned     device to host, into pinned memory
 *   device to device     one device buffer into another: the device memory's own speed (HBM on an
 *                        H200), the yardstick, counted as the bytes read plus the bytes written
 *
 * Each copy runs once to warm up; then the five take turns in rounds (the order rotates each
 * round), as many rounds as fit TRANSFERS_BUDGET_MS at that size (at most the repeat asked, at least
 * one), and each figure is the median of its rounds: ms and GB/s (10^9 bytes per second). Afterwards
 * every path is tasted: a pattern shipped in one way and back out another must come back intact.
 * Before each size the memory it needs (two host buffers, two device buffers) is checked against
 * what is free: the sweep stops below the first size that does not fit, and says so. On the
 * emulator every copy is a memcpy on this CPU (pinned memory is ordinary memory there) and the
 * sweep stops at TRANSFERS_EMU_TOP.
 * The module has the shape of demo.h: transfers_run, transfers_text, transfers_json, transfers_free.
 */
#ifndef CUDACHEF_TRANSFERS_H
#define CUDACHEF_TRANSFERS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "demos/demo.h"

#define TRANSFERS_MIN_BYTES ((size_t)4 << 10)
#define TRANSFERS_GPU_TOP ((size_t)1 << 30)  /* 1 GiB */
#define TRANSFERS_EMU_TOP ((size_t)64 << 20) /* 64 MiB: memcpy needs no more to show its speed */
#define TRANSFERS_MAX_SIZES 16
#define TRANSFERS_BUDGET_MS 1000.0           /* the timed rounds of one size stay near this */
#define TRANSFERS_MAX_REPEAT 100

typedef enum transfers_kind {
    TRANSFERS_IN_PAGEABLE,
    TRANSFERS_IN_PINNED,
    TRANSFERS_OUT_PAGEABLE,
    TRANSFERS_OUT_PINNED,
    TRANSFERS_ON_DEVICE,
    TRANSFERS_KINDS
} transfers_kind;

/* One kind of copy at one size. */
typedef struct transfers_entry {
    int ran;
    double ms;          /* median of the timed copies */
    double gbps;        /* bytes moved / time; device to device moves 2 x the size (read + written) */
    int repeat;         /* timed copies behind the median */
} transfers_entry;

/* One size: its five copies and the taste. */
typedef struct transfers_size {
    size_t bytes;
    transfers_entry copies[TRANSFERS_KINDS];
    int tasted, passed; /* every path brought the bytes back intact */
} transfers_size;

typedef struct transfers_result {
    backend_info backend;
    int emulated;
    size_t top_bytes;                     /* the largest size the sweep was to reach */
    int nplanned;                         /* sizes the sweep was to measure */
    int nsizes;                           /* sizes measured */
    transfers_size sizes[TRANSFERS_MAX_SIZES];
    size_t stopped_at;                    /* 0, or the first size left out: it did not fit */
    chef_error stop;                      /* why (its message), when stopped_at is set */
    int passed;                           /* every size measured tasted right */
    int complete;                         /* no error stopped the sweep (a size that does not fit
                                             is no error) */
} transfers_result;

/* Runs the sweep on p->run.backend: p->sizes (bytes, smallest first) when p->nsizes > 0, else
   4 KiB by powers of 4 up to TRANSFERS_GPU_TOP (TRANSFERS_EMU_TOP on the emulator); at most
   p->run.repeat timed rounds (capped at TRANSFERS_MAX_REPEAT). Returns the exit code (0 every taste
   passed, 1 one failed, others: err); *out is set whenever something was measured. */
int transfers_run(const demo_params *p, transfers_result **out, chef_error *err);

/* For people, in the learner's language: a table of GB/s, a log-log chart of GB/s against bytes,
   and the ratios of the largest size (pinned against pageable, the device's copy against both). */
void transfers_text(FILE *out, const transfers_result *r);

/* For programs: {"kind": "transfers", "backend", "emulated", "top_bytes", "sizes": [{"bytes",
   "copies": [{direction, memory, ms, gbps, bytes_moved, repeat}], "passed"}], "stopped",
   "complete", "passed"}. */
json_t *transfers_json(const transfers_result *r);

/* Releases a result. */
void transfers_free(transfers_result *r);

/* The sizes of the default sweep: 4 KiB times powers of 4 up to top. Returns how many (at most max). */
int transfers_default_sizes(size_t top, size_t *sizes, int max);

/* "host-to-device", "device-to-host" or "device-to-device". */
const char *transfers_direction_name(transfers_kind kind);

/* The host memory of a copy: "pageable", "pinned", or "device" for the device's own copy. */
const char *transfers_memory_name(transfers_kind kind);

/* Bytes a copy of size bytes moves: the size, or twice it for the device's copy (read + written). */
double transfers_bytes_moved(transfers_kind kind, size_t bytes);

/* A size for people, short: "4 KiB", "16 KiB", "1 GiB" ("1.5 MiB" when not a whole unit). */
void transfers_format_size(double bytes, char *out, size_t size);

#endif
