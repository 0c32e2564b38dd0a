/*
 * host_runtime.c - the CUDA runtime on the emulator, for a learner's host code (host_runtime.h;
 * the names it defines are those src/kit/emu_runtime.h gives cudaMalloc & co).
 *
 * Device memory is the emulator's (emu_malloc: guard pages on both sides), so the kernels the code
 * launches are checked as the kitchen's are. Every allocation is kept in a table: a copy is checked
 * against it (its kind must agree with where its pointers are, and it must stay inside the buffers
 * it names: else cudaErrorInvalidValue, and the problem is noted), and what is still held when the
 * code returns is counted (a leak) and freed. Errors behave as CUDA's do: each failing call returns
 * its error and leaves it as the last error (cudaGetLastError returns and clears it,
 * cudaPeekAtLastError only returns it); a launch that is refused is seen only there; a kernel that
 * faults leaves a sticky error that every later call returns. One call can be planned to fail
 * (host_runtime_begin), as a real GPU's would.
 *
 * Streams are queues, as on a GPU: a launch, a cudaMemcpyAsync or a cudaMemPrefetchAsync is only
 * queued on its stream, and the queue runs, in order, when something waits for it (a stream's or
 * the device's synchronisation, a blocking cudaMemcpy, an event recorded, and cudaFree and
 * cudaFreeHost, which synchronise the device). So host code that reads its results before waiting
 * reads what was there before, as it may on a GPU; what was never waited for is counted. The
 * default stream is CUDA's legacy one: its work waits for the other streams' work queued before it,
 * and theirs waits for its. An asynchronous copy from pageable memory runs at once, as CUDA stages
 * it, and is counted. Managed memory is the emulator's device memory (host-visible) with a place for
 * each page: a launch counts as page faults the pages of its managed buffers that a prefetch did not
 * put on the device (the emulator does not see which pages the cooks touch nor the head chef's own
 * touches: it counts every page from the pointer a launch is given to its buffer's end).
 *
 * Everything here runs in the learner's process: what it counts is that process's word (the
 * grader calls it advisory, docs/SECURITY.md).
 */
#include "engine/host_runtime.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/chef.h"
#include "base/fault.h"
#include "base/i18n.h"
#include "emu/emu.h"
#include "kit/emu_kernel.h"
#include "kit/emu_runtime.h"
#include "kit/planted.h"

#define HOST_MAX_BUFFERS 4096
#define HOST_CHECKED_COOKS (1u << 20) /* cooks a program's checked launch checks whole */
#define HOST_WATCH_COOKS (1u << 16) /* the watched launch keeps each cook's record up to this many cooks */
#define HOST_WATCH_ACCESSES 4096 /* and team 0's first memory instructions, as a recipe's run keeps them */
#define HOST_SLOW_MS 3000.0           /* a program's checked launch this long: it is GPU-sized */

/* A buffer the runtime knows: a device allocation, or one of the head chef's (host) buffers. */
typedef struct host_buffer {
    char *start;
    size_t bytes;
    int device;               /* 1: cudaMalloc's; 0: host_runtime_host_alloc's */
    int live;
    int number;               /* device: the how-many-th cudaMalloc of the run (1, 2, ...) */
    char label[32];           /* host: its name ("a", "c") */
    char from[32];            /* device: the label of the head chef's buffer last shipped into it */
    int pinned;               /* host: cudaMallocHost's (page-locked) */
    int managed;              /* device: cudaMallocManaged's, host-visible */
    unsigned char *pages;     /* managed: where each page is (HOST_PAGE_*) */
    size_t npages;
    void *mapping;            /* host: the mapping with its guards */
    size_t mapping_size;
} host_buffer;

/* An event: a mark in the queue, the time the kitchen reached it, and the work before it. */
struct emu_cuda_event {
    double ms;
    int recorded;
    int pending;              /* recorded while a launch was in flight: reached at the next sync */
    unsigned sync;            /* host_syncs when it was recorded */
    int synced;               /* cudaEventSynchronize waited for it */
    int launches, copies;     /* the run's launches and copies before it */
    unsigned long serial;     /* the how-many-th record of the run (events are reached in that order) */
};

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t host_api_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* A runtime call begins: it waits for another thread's to end (host_runtime.h, HOST_API). */
void host_api_enter(void)
{
    pthread_mutex_lock(&host_api_lock);
}

/* A runtime call ends (its HOST_API's cleanup). */
void host_api_leave(int *held)
{
    (void)held;
    pthread_mutex_unlock(&host_api_lock);
}
static host_buffer host_buffers[HOST_MAX_BUFFERS];
static int host_nbuffers;
static cudaError_t host_last, host_sticky;
static host_fault_op host_plan_op;
static int host_plan_call;
static host_runtime_stats host_stats;
static int host_events;
static int host_in_flight;    /* a launch or queued work went out since the head chef last waited */
static unsigned host_syncs;   /* the times the head chef waited for the whole kitchen */
static unsigned long host_event_serial;  /* records made */
static unsigned long host_event_waited;  /* the latest record cudaEventSynchronize waited for: every
                                            mark recorded before it is reached too */
static int host_program;      /* a whole program runs (host_runtime_program): its launches' own rules */
static host_event host_journal[HOST_JOURNAL_MAX];
static int host_njournal;
static long host_dropped[HOST_EVENT_KINDS];

#define HOST_MAX_STREAMS 64
#define HOST_PAGE 4096
enum { HOST_PAGE_NOWHERE = 0, HOST_PAGE_HOST, HOST_PAGE_DEVICE };

/* A stream: a queue's name; the queue itself is host_ops, in the order of the calls. */
struct emu_cuda_stream {
    int live, nonblocking, launches, copies;
};

/* Work queued on a stream. */
typedef enum host_op_kind { HOST_OP_LAUNCH, HOST_OP_COPY, HOST_OP_PREFETCH } host_op_kind;
typedef struct host_op {
    host_op_kind kind;
    struct emu_cuda_stream *stream; /* NULL: the default stream */
    int done;
    const emu_kernel *kernel;       /* a launch: its kernel, configuration and arguments' values */
    int plain;                      /* a launch: runs the plain build (a program's later launches) */
    counters *counted;              /* a program's checked launch: counted into this */
    emu_cuda_config config;
    char *values;
    void **args;
    const size_t *sizes;
    int nargs;
    int event;                      /* a copy: its event in the journey (-1 none), timed when it runs */
    void *dst;                      /* a copy; a prefetch: dst and bytes, to the device or not */
    const void *src;
    size_t bytes;
    int to_device;
} host_op;

static struct emu_cuda_stream host_streams[HOST_MAX_STREAMS];
static int host_nstreams;
static host_op *host_ops;
static int host_nops, host_cap_ops;
static void host_queue_reset(void);
static void host_queue_run_all(int implicit);
static void host_queue_run_blocking(void);

/* "alloc", "copy", "launch". */
const char *host_fault_name(host_fault_op op)
{
    static const char *const names[] = {"", "alloc", "copy", "launch"};
    return (unsigned)op <= HOST_FAULT_LAUNCH ? names[op] : "";
}

/* Notes the first problem of the run for people. */
static void host_note(int cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void host_note(int cause, const char *fmt, ...)
{
    if (host_stats.message[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(host_stats.message, sizeof host_stats.message, fmt, ap);
    va_end(ap);
    host_stats.cause = cause;
}

/* A call's result: the error becomes the last error; a sticky one outlives everything. */
/* try --kitchen: the watched launch (the --check-launch one, else the program's first checked
   launch) keeps its trace (where each team cooked, each cook's record, team 0's memory
   instructions) for the kitchen's views. host_watch is the counts of the site whose checked launch
   it is; host_watch_event its event in the journey. */
static int host_watch_wanted, host_watch_event = -1;
static const counters *host_watch;
static trace host_watched;

void host_runtime_watch(int on)
{
    host_watch_wanted = on;
}

const trace *host_runtime_watched(int *event)
{
    *event = host_watch_event;
    return host_watch_event >= 0 ? &host_watched : NULL;
}

/* The name a new device buffer goes by in the emulator's messages and the memory view: a program's
   is its number in the journey ("buffer #2", allocations counted from 1), an exercise's the call
   that made it. */
static const char *host_label(const char *call)
{
    static char label[32];
    if (!host_program)
        return call;
    snprintf(label, sizeof label, "buffer #%ld", (long)host_stats.calls[HOST_FAULT_ALLOC]);
    return label;
}

/* A new event of a program's journey (NULL past HOST_JOURNAL_MAX: counted only), or NULL when no
   program runs (a host exercise keeps no journey). */
static host_event *host_journey(host_event_kind kind, int what)
{
    if (!host_program)
        return NULL;
    if (host_njournal == HOST_JOURNAL_MAX) {
        host_dropped[kind]++;
        return NULL;
    }
    host_event *e = &host_journal[host_njournal++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->what = what;
    return e;
}

const host_event *host_runtime_journal(int *n, long dropped[HOST_EVENT_KINDS])
{
    *n = host_njournal;
    memcpy(dropped, host_dropped, sizeof host_dropped);
    return host_journal;
}

static cudaError_t host_result(cudaError_t e)
{
    if (e != cudaSuccess)
        host_last = e;
    return e;
}

/* Counts a call of op; 1 when it must fail (the plan's, or CUDACHEF_FAULT's when none is planned). */
static int host_fails(host_fault_op op)
{
    int n = ++host_stats.calls[op];
    if (host_plan_op != HOST_FAULT_NONE) {
        if (op == host_plan_op && n == host_plan_call) {
            host_stats.injected = 1;
            return 1;
        }
        return 0;
    }
    static const fault_op hook[] = {FAULT_OPS, FAULT_ALLOC, FAULT_COPY, FAULT_LAUNCH};
    if (fault_enabled() && fault_setup(NULL) == 0 && fault_hit(hook[op], NULL)) {
        host_stats.injected = 1;
        return 1;
    }
    return 0;
}

/* The buffer holding p (live ones first), or NULL. */
static host_buffer *host_find(const void *p)
{
    const char *a = p;
    host_buffer *dead = NULL;
    for (int i = 0; i < host_nbuffers; i++) {
        host_buffer *b = &host_buffers[i];
        if (a >= b->start && a < b->start + (b->bytes ? b->bytes : 1)) {
            if (b->live)
                return b;
            dead = b;
        }
    }
    if (dead && dead->device) { /* a freed device buffer's pages are unmapped: mapped again, they are
                                   the head chef's now (a malloc that reused the addresses) */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        unsigned char in_core;
        if (mincore((void *)((uintptr_t)a / page * page), 1, &in_core) == 0)
            return NULL;
    }
    return dead;
}

/* A free slot of the table, or -1. */
static int host_slot(void)
{
    for (int i = 0; i < host_nbuffers; i++)
        if (!host_buffers[i].live && !host_buffers[i].device)
            return i;
    if (host_nbuffers < HOST_MAX_BUFFERS)
        return host_nbuffers++;
    for (int i = 0; i < host_nbuffers; i++) /* reuse the record of a freed device buffer */
        if (!host_buffers[i].live)
            return i;
    return -1;
}

/* Starts a run of host code. */
void host_runtime_begin(host_fault_op op, int call)
{
    pthread_mutex_lock(&host_lock);
    memset(&host_stats, 0, sizeof host_stats);
    host_last = host_sticky = cudaSuccess;
    host_in_flight = 0;
    host_syncs = 0;
    host_plan_op = op;
    host_plan_call = call;
    host_queue_reset();
    memset(host_streams, 0, sizeof host_streams);
    host_nstreams = 0;
    for (int i = 0; i < host_nbuffers; i++) /* forget freed device buffers of earlier runs */
        if (host_buffers[i].device && !host_buffers[i].live)
            memset(&host_buffers[i], 0, sizeof host_buffers[i]);
    pthread_mutex_unlock(&host_lock);
}

/* Ends the run: what it did, and what it left freed. */
void host_runtime_end(host_runtime_stats *st)
{
    for (int i = 0; i < host_nops; i++) /* queued, and never waited for: never run */
        host_stats.unwaited += !host_ops[i].done;
    host_queue_reset();
    for (int i = 0; i < host_nstreams; i++)
        host_stats.launch_streams += host_streams[i].launches > 0,
            host_stats.copy_streams += host_streams[i].copies > 0;
    pthread_mutex_lock(&host_lock);
    for (int i = 0; i < host_nbuffers; i++) {
        host_buffer *b = &host_buffers[i];
        if ((b->device || b->pinned) && b->live) {
            host_stats.leaked++;
            host_stats.leaked_bytes += b->bytes;
            if (b->device)
                emu_free(b->start);
            else
                munmap(b->mapping, b->mapping_size);
        }
        free(b->pages);
        b->pages = NULL;
        if (b->device || b->pinned)
            memset(b, 0, sizeof *b);
    }
    host_stats.handles_left = host_cublas_end();
    *st = host_stats;
    host_plan_op = HOST_FAULT_NONE;
    pthread_mutex_unlock(&host_lock);
}

/* Host memory between guard pages, known to the runtime by label. */
void *host_runtime_host_alloc(size_t bytes, const char *label)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), data = (bytes + page - 1) / page * page;
    if (data == 0)
        data = page;
    char *m = mmap(NULL, data + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + page, data, PROT_READ | PROT_WRITE) != 0) {
        munmap(m, data + 2 * page);
        return NULL;
    }
    char *start = m + page + data - bytes; /* its end against the guard after it */
    start -= (uintptr_t)start % 16;
    pthread_mutex_lock(&host_lock);
    int i = host_slot();
    if (i < 0) {
        pthread_mutex_unlock(&host_lock);
        munmap(m, data + 2 * page);
        return NULL;
    }
    host_buffer *b = &host_buffers[i];
    memset(b, 0, sizeof *b);
    b->start = start;
    b->bytes = bytes;
    b->live = 1;
    b->mapping = m;
    b->mapping_size = data + 2 * page;
    snprintf(b->label, sizeof b->label, "%s", label ? label : "?");
    pthread_mutex_unlock(&host_lock);
    return start;
}

/* Releases a buffer from host_runtime_host_alloc. */
void host_runtime_host_free(void *ptr)
{
    pthread_mutex_lock(&host_lock);
    host_buffer *b = ptr ? host_find(ptr) : NULL;
    if (b && !b->device && b->live && b->start == ptr) {
        munmap(b->mapping, b->mapping_size);
        memset(b, 0, sizeof *b);
    }
    pthread_mutex_unlock(&host_lock);
}

/* What every allocation checks first (a pointer to fill, no sticky error, no planned fault): 1
   with *e when the call ends there. */
static int host_alloc_refused(void **ptr, cudaError_t *e)
{
    *e = !ptr ? cudaErrorInvalidValue : host_sticky ? host_sticky : cudaSuccess;
    if (ptr)
        *ptr = NULL;
    if (*e == cudaSuccess && host_fails(HOST_FAULT_ALLOC))
        *e = cudaErrorMemoryAllocation;
    return *e != cudaSuccess;
}

/* cudaMalloc: device memory between guard pages, unless this call is planned to fail. */
cudaError_t emu_cuda_malloc(void **ptr, size_t bytes)
{
    HOST_API;
    cudaError_t refused;
    PLANTED_FAULTS("host");
    if (host_alloc_refused(ptr, &refused))
        return host_result(refused);
    if (bytes == 0)
        return cudaSuccess; /* as CUDA: a null pointer, no error */
    pthread_mutex_lock(&host_lock);
    int i = host_slot();
    void *p = i >= 0 ? emu_malloc(bytes, host_label("cudaMalloc"), sizeof(float)) : NULL;
    if (p) {
        host_buffer *b = &host_buffers[i];
        memset(b, 0, sizeof *b);
        b->start = p;
        b->bytes = bytes;
        b->device = b->live = 1;
        b->number = host_stats.calls[HOST_FAULT_ALLOC];
        memset(p, 0xFF, bytes); /* poison: NaN until written */
        host_event *ev = host_journey(HOST_EVENT_ALLOC, 0);
        if (ev) {
            ev->bytes = bytes;
            ev->number = b->number;
        }
    }
    pthread_mutex_unlock(&host_lock);
    *ptr = p;
    return host_result(p ? cudaSuccess : cudaErrorMemoryAllocation);
}

/* cudaFree: a device pointer from cudaMalloc (NULL is nothing to do). */
cudaError_t emu_cuda_free(void *ptr)
{
    HOST_API;
    if (!ptr)
        return cudaSuccess;
    host_queue_run_all(1); /* cudaFree waits for the device */
    pthread_mutex_lock(&host_lock);
    host_buffer *b = host_find(ptr);
    int ok = b && b->device && b->live && b->start == (char *)ptr;
    if (ok) {
        host_event *ev = host_journey(HOST_EVENT_FREE, b->managed ? 2 : 0);
        if (ev) {
            ev->bytes = b->bytes;
            ev->number = b->number;
        }
        emu_free(ptr);
        b->live = 0;
        free(b->pages);
        b->pages = NULL;
    }
    pthread_mutex_unlock(&host_lock);
    if (!ok) {
        host_note(CHEF_CAUSE_NONE, "%s", _("cudaFree was given a pointer that cudaMalloc did not give, or one already freed"));
        return host_result(cudaErrorInvalidValue);
    }
    return host_sticky ? host_result(host_sticky) : cudaSuccess;
}

/* Says where a copy's pointer lies, for a message: "device buffer 2", "the head chef's c". */
static void host_where(const host_buffer *b, char *out, size_t size)
{
    if (!b)
        snprintf(out, size, "%s", _("host memory"));
    else if (b->device)
        snprintf(out, size, _("the kitchen's buffer from cudaMalloc number %d (%zu bytes)"), b->number, b->bytes);
    else
        snprintf(out, size, _("the head chef's buffer %s (%zu bytes)"), b->label, b->bytes);
}

/* Checks that [p, p + bytes) lies inside the buffer holding p (when the runtime knows it): 0, or
   -1 with the problem noted. */
static int host_inside(const host_buffer *b, const void *p, size_t bytes, const char *what)
{
    if (!b)
        return 0;
    if (!b->live) {
        host_note(CHEF_CAUSE_OUT_OF_BOUNDS, _("cudaMemcpy's %s is a device buffer already freed"), what);
        host_stats.out_of_bounds++;
        return -1;
    }
    size_t at = (size_t)((const char *)p - b->start);
    if (bytes > b->bytes - at) {
        char where[160];
        host_where(b, where, sizeof where);
        host_note(CHEF_CAUSE_OUT_OF_BOUNDS, _("cudaMemcpy of %zu bytes runs %zu bytes past the end of its %s, %s"), bytes,
                  bytes - (b->bytes - at), what, where);
        host_stats.out_of_bounds++;
        return -1;
    }
    return 0;
}

/* The kind's name as CUDA spells it. */
static const char *host_kind_name(cudaMemcpyKind kind)
{
    static const char *const names[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost",
                                        "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault"};
    return (unsigned)kind <= cudaMemcpyDefault ? names[kind] : "?";
}

/* The head chef waits for the whole kitchen: every event recorded so far is reached. */
static void host_wait_all(void)
{
    host_in_flight = 0;
    host_syncs++;
}

/* Counts a copy the head chef asked for and its bytes by the way they went, when it is made (a
   queued one too, as launches are counted when they go out). */
static void host_count_copy(int to_device, int from_device, size_t bytes, int pinned)
{
    host_event *ev = host_journey(HOST_EVENT_COPY, to_device && from_device ? 3 : to_device ? 1 : from_device ? 2 : 0);
    if (ev) {
        ev->bytes = bytes;
        ev->pinned = pinned;
    }
    host_stats.copies++;
    if (to_device && !from_device)
        host_stats.bytes_in += bytes;
    else if (from_device && !to_device)
        host_stats.bytes_out += bytes;
}

/* A copy's checks (cudaMemcpy's and cudaMemcpyAsync's): cudaSuccess, or the error with the problem
   noted; *pinned says whether its host side is page-locked (or managed, or none), *to_dev and
   *from_dev whether it goes into and out of the kitchen. */
static cudaError_t host_copy_check(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int *pinned,
                                   int *to_dev, int *from_dev)
{
    *pinned = 1;
    *to_dev = *from_dev = 0;
    if (host_sticky)
        return host_sticky;
    if (host_fails(HOST_FAULT_COPY))
        return cudaErrorLaunchFailure;
    if ((unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (bytes == 0)
        return cudaSuccess;
    if (!dst || !src) {
        host_note(CHEF_CAUSE_NONE, "%s", _("cudaMemcpy was given a null pointer (an allocation that failed?)"));
        return cudaErrorInvalidValue;
    }
    pthread_mutex_lock(&host_lock);
    host_buffer *d = host_find(dst), *s = host_find(src);
    int want_d = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int want_s = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    /* managed memory is either side's; the host side of a copy is page-locked or pageable */
    int d_dev = d && d->device && (!d->managed || want_d), s_dev = s && s->device && (!s->managed || want_s);
    const host_buffer *host_side = kind == cudaMemcpyHostToDevice ? s : kind == cudaMemcpyDeviceToHost ? d
                                   : kind == cudaMemcpyDefault ? (d_dev ? s : d) : NULL;
    int on_host = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost || (kind == cudaMemcpyDefault && d_dev != s_dev);
    *pinned = !on_host || (host_side && (host_side->pinned || host_side->managed));
    *to_dev = d_dev;
    *from_dev = s_dev;
    cudaError_t e = cudaSuccess;
    if (kind != cudaMemcpyDefault && (d_dev != want_d || s_dev != want_s)) {
        char dw[160], sw[160];
        host_where(d, dw, sizeof dw);
        host_where(s, sw, sizeof sw);
        host_note(CHEF_CAUSE_NONE, _("cudaMemcpy with %s copies into %s from %s: the kind says the other way"),
                  host_kind_name(kind), dw, sw);
        host_stats.wrong_copies++;
        e = cudaErrorInvalidValue;
    } else if (host_inside(d, dst, bytes, _("destination")) != 0 || host_inside(s, src, bytes, _("source")) != 0) {
        e = cudaErrorInvalidValue;
    } else if (d_dev) { /* where the food in it came from, for a library's record */
        snprintf(d->from, sizeof d->from, "%s", s ? (s_dev ? s->from : s->label) : "");
    }
    pthread_mutex_unlock(&host_lock);
    return e;
}

/* cudaMemcpy: checked against where its pointers are; it waits for the work queued before it (the
   default stream's rule), then copies. */
cudaError_t emu_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    HOST_API;
    int pinned, to_dev, from_dev;
    cudaError_t e = host_copy_check(dst, src, bytes, kind, &pinned, &to_dev, &from_dev);
    if (e != cudaSuccess || bytes == 0)
        return host_result(e);
    host_queue_run_blocking();
    host_wait_all();
    if (host_sticky)
        return host_result(host_sticky);
    double t0 = chef_now_ms();
    memmove(dst, src, bytes);
    host_count_copy(to_dev, from_dev, bytes, pinned);
    if (host_njournal > 0 && host_journal[host_njournal - 1].kind == HOST_EVENT_COPY)
        host_journal[host_njournal - 1].ms = chef_now_ms() - t0;
    return cudaSuccess;
}

/* cudaMemset: bytes of value into device memory. */
cudaError_t emu_cuda_memset(void *ptr, int value, size_t bytes)
{
    HOST_API;
    if (host_sticky)
        return host_result(host_sticky);
    if (bytes == 0)
        return cudaSuccess;
    host_queue_run_blocking();
    pthread_mutex_lock(&host_lock);
    host_buffer *b = ptr ? host_find(ptr) : NULL;
    int ok = b && b->device && host_inside(b, ptr, bytes, _("destination")) == 0;
    pthread_mutex_unlock(&host_lock);
    if (!ok)
        return host_result(cudaErrorInvalidValue);
    memset(ptr, value, bytes);
    return cudaSuccess;
}

/* cudaGetLastError: the last error, cleared (a sticky one stays). */
cudaError_t emu_cuda_get_last_error(void)
{
    HOST_API;
    cudaError_t e = host_last;
    host_last = host_sticky;
    return e;
}

/* cudaPeekAtLastError: the last error, kept. */
cudaError_t emu_cuda_peek_at_last_error(void)
{
    HOST_API;
    return host_last;
}

/* cudaDeviceSynchronize: runs every stream's queue; a kernel's fault is reported here (and by every
   later call). */
cudaError_t emu_cuda_device_synchronize(void)
{
    HOST_API;
    host_journey(HOST_EVENT_SYNC, 0);
    host_queue_run_all(0);
    host_wait_all();
    return host_sticky ? host_result(host_sticky) : cudaSuccess;
}

/* The error's name, as cudaGetErrorName gives it. */
const char *emu_cuda_error_name(cudaError_t error)
{
    HOST_API;
    switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    default: return "cudaErrorUnknown";
    }
}

/* The error's sentence, as cudaGetErrorString gives it. */
const char *emu_cuda_error_string(cudaError_t error)
{
    HOST_API;
    switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}

/* cudaEventCreate: an event is a mark, recorded later. */
cudaError_t emu_cuda_event_create(cudaEvent_t *event)
{
    HOST_API;
    if (!event)
        return host_result(cudaErrorInvalidValue);
    *event = calloc(1, sizeof **event);
    if (!*event)
        return host_result(cudaErrorMemoryAllocation);
    host_events++;
    return cudaSuccess;
}

/* cudaEventRecord: the work queued before it runs first, so the time is now; but as on a GPU the
   mark counts as reached only once the head chef has waited for it (cudaEventSynchronize,
   cudaDeviceSynchronize, the default stream's cudaStreamSynchronize, a cudaMemcpy) when work was
   still in flight before it (a launch or a queued copy or prefetch since the last wait). */
cudaError_t emu_cuda_event_record(cudaEvent_t event)
{
    HOST_API;
    if (!event)
        return host_result(cudaErrorInvalidResourceHandle);
    host_queue_run_all(0);
    if (host_sticky)
        return host_result(host_sticky);
    event->ms = chef_now_ms();
    event->recorded = 1;
    event->pending = host_in_flight;
    event->sync = host_syncs;
    event->synced = 0;
    event->launches = host_stats.launches;
    event->copies = host_stats.copies;
    event->serial = ++host_event_serial;
    return cudaSuccess;
}

/* 1 when the kitchen has reached a recorded event, as far as the head chef can know. */
static int host_event_reached(const struct emu_cuda_event *e)
{
    return !e->pending || e->synced || host_syncs != e->sync || e->serial <= host_event_waited;
}

/* cudaEventSynchronize: waits until the kitchen reaches the event (its launches are done). */
cudaError_t emu_cuda_event_synchronize(cudaEvent_t event)
{
    HOST_API;
    host_journey(HOST_EVENT_SYNC, 2);
    if (!event)
        return host_result(cudaErrorInvalidResourceHandle);
    if (host_sticky)
        return host_result(host_sticky);
    event->synced = 1;
    if (event->serial > host_event_waited)
        host_event_waited = event->serial;
    return cudaSuccess;
}

/* cudaEventElapsedTime: milliseconds between two recorded events, cudaErrorNotReady while the
   kitchen has not reached either; each time given is kept with what its span held. */
cudaError_t emu_cuda_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    HOST_API;
    if (!ms || !start || !stop || !start->recorded || !stop->recorded)
        return host_result(!ms ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    if (!host_event_reached(start) || !host_event_reached(stop)) {
        host_stats.not_ready++;
        return host_result(cudaErrorNotReady);
    }
    *ms = (float)(stop->ms - start->ms);
    if (host_stats.ntimings < HOST_MAX_TIMINGS) {
        host_timing *t = &host_stats.timings[host_stats.ntimings++];
        t->ms = *ms;
        t->launches = stop->launches - start->launches;
        t->copies = stop->copies - start->copies;
        t->warm = start->launches > 0;
    }
    return cudaSuccess;
}

/* cudaEventDestroy. */
cudaError_t emu_cuda_event_destroy(cudaEvent_t event)
{
    HOST_API;
    if (!event)
        return host_result(cudaErrorInvalidResourceHandle);
    free(event);
    host_events--;
    return cudaSuccess;
}

/* A launch's checks when it is made: refused as CUDA refuses a bad configuration (seen by
   cudaGetLastError only); cudaSuccess with *kernel found. */
static cudaError_t host_launch_config(emu_cuda_config c)
{
    if (host_sticky)
        return host_sticky;
    if (host_fails(HOST_FAULT_LAUNCH))
        return cudaErrorLaunchOutOfResources;
    unsigned long long threads = (unsigned long long)c.block[0] * c.block[1] * c.block[2];
    if (c.grid[0] == 0 || c.grid[1] == 0 || c.grid[2] == 0 || threads == 0 || threads > EMU_MAX_THREADS_PER_BLOCK ||
        c.block[2] > 64 || c.grid[1] > 65535 || c.grid[2] > 65535 || c.shared > EMU_MAX_DYNAMIC_SHARED)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

/* The same, and the kernel of the build's list called name. */
static cudaError_t host_launch_check(const char *name, emu_cuda_config c, const emu_kernel **kernel)
{
    cudaError_t e = host_launch_config(c);
    if (e != cudaSuccess)
        return e;
    *kernel = emu_kernel_find(name);
    return *kernel ? cudaSuccess : cudaErrorInvalidDevicePointer;
}

/* Makes the head chef's own (pageable) buffers unreachable while the kitchen cooks (prot
   PROT_NONE), or reachable again: a kernel given a host pointer faults, as on a GPU without
   unified addressing of pageable memory. Returns how many buffers it changed. */
static int host_hide_pageable(int prot)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int n = 0;
    pthread_mutex_lock(&host_lock);
    for (int i = 0; i < host_nbuffers; i++) {
        host_buffer *b = &host_buffers[i];
        if (b->live && !b->device && !b->pinned && b->mapping &&
            mprotect((char *)b->mapping + page, b->mapping_size - 2 * page, prot) == 0)
            n++;
    }
    pthread_mutex_unlock(&host_lock);
    return n;
}

/* Cooks a launch on the emulator with the checked build (the plain one when plain is set); a fault
   while cooking leaves a sticky error, seen at the next synchronisation. */
static void host_launch_run(const emu_kernel *k, emu_cuda_config c, void **args, int plain, counters *counted)
{
    if (host_sticky)
        return; /* the device is lost: nothing more runs */
    emu_options eo = {0};
    eo.workers = host_program ? 0 : 2;
    eo.checked = !plain && k->checked != NULL;
    eo.dynamic_shared = c.shared;
    emu_dim3 g = {c.grid[0], c.grid[1], c.grid[2]}, b = {c.block[0], c.block[1], c.block[2]};
    if (counted && eo.checked) {
        /* a program's checked launch: counted, and past HOST_CHECKED_COOKS cooks only evenly spaced
           teams are checked and counted (the others run the plain build), so that a GPU-sized grid
           costs about as much as one of that many cooks */
        uint64_t teams = (uint64_t)g.x * g.y * g.z, cooks = teams * b.x * b.y * b.z;
        uint64_t every = (cooks + HOST_CHECKED_COOKS - 1) / HOST_CHECKED_COOKS;
        eo.counters = counted;
        eo.count_every = (uint32_t)(every > teams ? teams : every < 1 ? 1 : every);
    }
    int watched = counted && counted == host_watch && host_watch_event < 0 && eo.checked;
    if (watched) { /* the kitchen's launch: its teams, its cooks (when few enough) and team 0's accesses */
        uint64_t cooks = (uint64_t)g.x * g.y * g.z * b.x * b.y * b.z;
        if (cooks <= HOST_WATCH_COOKS && (host_watched.threads = calloc((size_t)cooks, sizeof *host_watched.threads)))
            host_watched.threads_capacity = (size_t)cooks;
        if ((host_watched.accesses = calloc(HOST_WATCH_ACCESSES, sizeof *host_watched.accesses)))
            host_watched.accesses_capacity = HOST_WATCH_ACCESSES;
        eo.trace = &host_watched;
    }
    emu_fault fault;
    memset(&fault, 0, sizeof fault);
    /* an exercise's host buffers are hidden while the kitchen cooks; a whole program's own memory is
       not the runtime's to hide (its checked launch names an access outside the device buffers) */
    int hidden = host_program ? 0 : host_hide_pageable(PROT_NONE);
    host_event *ev = host_journey(HOST_EVENT_LAUNCH, 0);
    if (watched)
        host_watch_event = ev ? (int)(ev - host_journal) : HOST_JOURNAL_MAX;
    double t0 = chef_now_ms();
    emu_status s = emu_launch(k, g, b, args, &eo, &fault);
    double took = chef_now_ms() - t0;
    if (host_program && eo.checked && took > HOST_SLOW_MS) { /* a GPU-sized program: said once, as it goes */
        static int said;
        if (!said++)
            fprintf(stderr,
                    _("cudachef: note: %s's first launch took %.1f s on the CPU emulator (the checked one; later launches "
                      "run faster, but a program sized for a GPU may take minutes here: --timeout stops it)\n"),
                    k->name, took / 1000);
    }
    if (ev) {
        ev->ms = took;
        ev->kernel = k->name;
        memcpy(ev->grid, c.grid, sizeof ev->grid);
        memcpy(ev->block, c.block, sizeof ev->block);
        ev->shared = c.shared;
        ev->checked = eo.checked;
        ev->faulted = s != EMU_OK;
        ev->counted = eo.counters && eo.counters->valid ? eo.counters : NULL;
    }
    if (hidden)
        host_hide_pageable(PROT_READ | PROT_WRITE);
    if (watched)
        trace_normalize(&host_watched);
    if (s == EMU_OK)
        return;
    if (s == EMU_FAULT_CRASH && hidden) /* most likely a host pointer given to the kernel */
        snprintf(fault.message + strlen(fault.message), sizeof fault.message - strlen(fault.message), "%s",
                 _(" (a kernel reaches device memory only: the head chef's own buffers are not, give it the "
                   "pointers cudaMalloc gave)"));
    if (s == EMU_FAULT_CONFIG) {
        host_last = cudaErrorInvalidConfiguration;
        return;
    }
    if (s == EMU_FAULT_ASSERT) { /* the program's own check, failed: as CUDA says it, and no rule broken */
        host_note(CHEF_CAUSE_NONE, "%s", fault.message);
        host_sticky = cudaErrorAssert;
        return;
    }
    host_stats.kernel_faulted = 1;
    if (s == EMU_FAULT_OUT_OF_BOUNDS)
        host_stats.out_of_bounds++;
    int cause = s == EMU_FAULT_OUT_OF_BOUNDS ? CHEF_CAUSE_OUT_OF_BOUNDS
                : s == EMU_FAULT_BARRIER     ? CHEF_CAUSE_BARRIER
                : s == EMU_FAULT_WARP        ? CHEF_CAUSE_WARP
                                             : CHEF_CAUSE_NONE;
    if (s == EMU_FAULT_OUT_OF_BOUNDS || s == EMU_FAULT_CRASH)
        host_note(cause, _("cook (thread) %u of team (block) %u %s"),
                  fault.thread.x + fault.thread.y * b.x + fault.thread.z * b.x * b.y,
                  fault.block.x + fault.block.y * g.x + fault.block.z * g.x * g.y, fault.message);
    else
        host_note(cause, "%s", fault.message);
    host_sticky = s == EMU_FAULT_OUT_OF_BOUNDS ? cudaErrorIllegalAddress
                  : s == EMU_FAULT_ASSERT      ? cudaErrorAssert
                                               : cudaErrorLaunchFailure;
}

/* kernel<<<grid, block, shared>>>(args) run at once, after the work queued before it (a caller
   that cannot say its arguments' sizes). */
cudaError_t emu_cuda_launch(const char *name, emu_cuda_config c, void **args)
{
    HOST_API;
    const emu_kernel *k = NULL;
    cudaError_t e = host_launch_check(name, c, &k);
    if (e != cudaSuccess)
        return host_result(e);
    host_stats.launches++; /* counted when it goes out, as a queued one is */
    host_in_flight = 1;
    host_queue_run_all(0);
    host_launch_run(k, c, args, 0, NULL);
    return cudaSuccess; /* as on a GPU: the launch went out; a fault shows at the next synchronisation */
}

/* ---- Streams: each a queue, run when something waits for it ---- */

/* 1 when stream is the default one (0) or one cudaStreamCreate made and not destroyed. */
static int host_stream_valid(cudaStream_t stream)
{
    if (!stream)
        return 1;
    uintptr_t at = (uintptr_t)stream, first = (uintptr_t)host_streams;
    return at >= first && at < first + sizeof host_streams && (at - first) % sizeof host_streams[0] == 0 &&
           stream->live;
}

/* Forgets every queued operation (run or not). */
static void host_queue_reset(void)
{
    for (int i = 0; i < host_nops; i++)
        free(host_ops[i].values);
    free(host_ops);
    host_ops = NULL;
    host_nops = host_cap_ops = 0;
}

/* Queues op; 0, or -1 when out of memory. */
static int host_queue_add(const host_op *op)
{
    if (host_nops == host_cap_ops) {
        int cap = host_cap_ops ? 2 * host_cap_ops : 64;
        host_op *more = realloc(host_ops, (size_t)cap * sizeof *more);
        if (!more)
            return -1;
        host_ops = more;
        host_cap_ops = cap;
    }
    host_ops[host_nops++] = *op;
    host_in_flight = 1; /* an event recorded after it is reached once the head chef waits */
    return 0;
}

/* Managed pages [from, to) of b go to the device for a launch: those not there are page faults. */
static void host_pages_to_device(host_buffer *b, size_t from, size_t to)
{
    for (size_t p = from; p < to && p < b->npages; p++) {
        if (b->pages[p] != HOST_PAGE_DEVICE) {
            host_stats.page_faults++;
            host_stats.page_faults_host += b->pages[p] == HOST_PAGE_HOST;
        }
        b->pages[p] = HOST_PAGE_DEVICE;
    }
}

/* A launch's pointer arguments: into managed memory (its pages move to the device, faulting where a
   prefetch did not bring them) or into other memory the runtime knows. */
static void host_launch_pages(const host_op *op)
{
    pthread_mutex_lock(&host_lock);
    for (int i = 0; i < op->nargs; i++) {
        if (op->sizes[i] != sizeof(void *))
            continue;
        char *p;
        memcpy(&p, op->args[i], sizeof p);
        host_buffer *b = host_find(p);
        if (!b || !b->live)
            continue;
        if (!b->managed) {
            host_stats.unmanaged_args++;
            continue;
        }
        host_stats.managed_args++;
        host_pages_to_device(b, (size_t)(p - b->start) / HOST_PAGE, b->npages);
    }
    pthread_mutex_unlock(&host_lock);
}

/* Runs one queued operation. */
static void host_op_run(host_op *op)
{
    op->done = 1;
    if (op->kind == HOST_OP_LAUNCH) {
        host_launch_pages(op);
        host_launch_run(op->kernel, op->config, op->args, op->plain, op->counted);
    } else if (op->kind == HOST_OP_COPY) {
        double t0 = chef_now_ms();
        if (!host_sticky)
            memmove(op->dst, op->src, op->bytes);
        if (op->event >= 0 && op->event < host_njournal)
            host_journal[op->event].ms = chef_now_ms() - t0;
    } else {
        pthread_mutex_lock(&host_lock);
        host_buffer *b = host_find(op->dst);
        if (b && b->live && b->managed && op->bytes > 0) {
            size_t at = (size_t)((char *)op->dst - b->start);
            for (size_t p = at / HOST_PAGE; p <= (at + op->bytes - 1) / HOST_PAGE && p < b->npages; p++)
                b->pages[p] = op->to_device ? HOST_PAGE_DEVICE : HOST_PAGE_HOST;
        }
        pthread_mutex_unlock(&host_lock);
    }
    free(op->values);
    op->values = NULL;
}

/* 1 when the queued operation j must be done before the operation t starts: the same stream, or
   the legacy default stream's rule (it waits for the blocking streams, and they wait for it). */
static int host_op_needed(int j, int t, int last_default)
{
    struct emu_cuda_stream *js = host_ops[j].stream, *ts = host_ops[t].stream;
    if (js == ts)
        return 1;
    if (!ts)
        return !js->nonblocking;
    if (ts->nonblocking)
        return 0;
    return j <= last_default && (!js || !js->nonblocking);
}

/* Runs what the operation t waits for, and t. */
static void host_queue_run_until(int t)
{
    int last_default = -1;
    for (int j = 0; j < t; j++)
        if (!host_ops[j].stream)
            last_default = j;
    for (int j = 0; j <= t; j++)
        if (!host_ops[j].done && host_op_needed(j, t, last_default))
            host_op_run(&host_ops[j]);
}

/* Runs every queue; implicit: a call that synchronises the device without being asked to wait
   (cudaFree, cudaFreeHost), whose work is counted as never waited for. */
static void host_queue_run_all(int implicit)
{
    for (int j = 0; j < host_nops; j++)
        if (!host_ops[j].done) {
            host_stats.unwaited += implicit;
            host_op_run(&host_ops[j]);
        }
}

/* Runs what a blocking call on the default stream waits for (cudaMemcpy, cudaMemset): every
   queue but the non-blocking streams'. */
static void host_queue_run_blocking(void)
{
    for (int j = 0; j < host_nops; j++)
        if (!host_ops[j].done && (!host_ops[j].stream || !host_ops[j].stream->nonblocking))
            host_op_run(&host_ops[j]);
}

/* Runs stream's queue and what it waits for; the index of its last operation, or -1. */
static int host_stream_run(cudaStream_t stream)
{
    int last = -1;
    for (int j = 0; j < host_nops; j++)
        if (host_ops[j].stream == stream)
            last = j;
    if (last >= 0)
        host_queue_run_until(last);
    return last;
}

/* Queues a launch whose configuration and kernel were checked: the nargs arguments' values
   (sizes[i] bytes each) are kept until it runs. */
static cudaError_t host_launch_queue(const emu_kernel *k, emu_cuda_config c, void **args, const size_t *sizes, int nargs,
                                     int plain, counters *counted)
{
    if (!host_stream_valid(c.stream))
        return host_result(cudaErrorInvalidResourceHandle);
    size_t total = 0;
    for (int i = 0; i < nargs; i++)
        total += (sizes[i] + 15) / 16 * 16;
    /* one block: the argument pointers, their sizes, then each value 16-byte aligned */
    host_op op = {.kind = HOST_OP_LAUNCH, .stream = c.stream, .kernel = k, .plain = plain, .counted = counted,
                  .config = c, .nargs = nargs};
    size_t head = (size_t)nargs * (sizeof(void *) + sizeof(size_t));
    op.values = malloc(head + 16 + total);
    if (!op.values)
        return host_result(cudaErrorMemoryAllocation);
    op.args = (void **)op.values;
    size_t *kept = (size_t *)(op.values + (size_t)nargs * sizeof(void *));
    char *at = op.values + head;
    at += (uintptr_t)at % 16 ? 16 - (uintptr_t)at % 16 : 0;
    for (int i = 0; i < nargs; i++) {
        memcpy(at, args[i], sizes[i]);
        op.args[i] = at;
        kept[i] = sizes[i];
        at += (sizes[i] + 15) / 16 * 16;
    }
    op.sizes = kept;
    if (host_queue_add(&op) != 0) {
        free(op.values);
        return host_result(cudaErrorMemoryAllocation);
    }
    host_stats.launches++; /* counted when it goes out, run or not */
    if (c.stream)
        c.stream->launches++;
    else
        host_stats.default_launches++;
    return cudaSuccess;
}

/* kernel<<<grid, block, shared, stream>>>(args), as the source pass rewrote it: checked now, the
   arguments' values kept, and queued on its stream. */
cudaError_t emu_cuda_launch_queued(const char *name, emu_cuda_config c, void **args, const size_t *sizes, int nargs)
{
    HOST_API;
    const emu_kernel *k = NULL;
    cudaError_t e = host_launch_check(name, c, &k);
    if (e != cudaSuccess)
        return host_result(e);
    return host_launch_queue(k, c, args, sizes, nargs, 0, NULL);
}

/* ---- Whole programs (src/kit/cxx/cudachef.h): launch sites, and the calls only programs make ---- */

#define HOST_MAX_SITES 512

/* A launch site of the program: its kernel as the emulator runs it (the plain build's entry and
   the checked build's twin), and how many launches it made. */
typedef struct host_site {
    const emu_site *site;
    emu_kernel kernel;
    long launches;
    char name[128];
    counters counted;         /* the first launch's counts */
} host_site;

static host_site host_sites[HOST_MAX_SITES];
static int host_nsites;
static const emu_site *(*host_twin)(const emu_site *plain);
static char host_check_kernel[128]; /* --check-launch KERNEL:K: this kernel's K-th launch is the checked one */
static long host_check_at, host_check_seen;

void host_runtime_check_launch(const char *kernel, long k)
{
    snprintf(host_check_kernel, sizeof host_check_kernel, "%s", kernel);
    host_check_at = k;
    host_check_seen = 0;
}

void host_runtime_program(const emu_site *(*twin)(const emu_site *plain))
{
    host_program = 1;
    host_twin = twin;
}

/* The site's record, made at its first launch (NULL when the table is full). */
static host_site *host_site_of(const emu_site *site, const char *kernel)
{
    for (int i = 0; i < host_nsites; i++)
        if (host_sites[i].site == site)
            return &host_sites[i];
    if (host_nsites == HOST_MAX_SITES)
        return NULL;
    host_site *h = &host_sites[host_nsites++];
    h->site = site;
    snprintf(h->name, sizeof h->name, "%s", kernel ? kernel : "kernel");
    const emu_site *twin = host_twin ? host_twin(site) : NULL;
    h->kernel.name = h->name;
    h->kernel.fast = site->entry;
    h->kernel.checked = twin ? twin->entry : NULL;
    return h;
}

/* A program's launch: queued on its stream with its closure (the kernel and its arguments' values);
   the first at each site runs the checked build, later ones the plain build. */
cudaError_t emu_cuda_launch_site(const emu_site *site, const char *kernel, const char *file, int line,
                                 emu_cuda_config c, const void *call, size_t size)
{
    HOST_API;
    (void)file;
    (void)line;
    cudaError_t e = host_launch_config(c);
    if (e != cudaSuccess)
        return host_result(e);
    host_site *h = host_site_of(site, kernel);
    if (!h)
        return host_result(cudaErrorLaunchOutOfResources);
    void *args[] = {(void *)call};
    int checked = h->launches == 0;
    if (host_check_kernel[0] && strcmp(h->name, host_check_kernel) == 0) /* the one asked for instead */
        checked = ++host_check_seen == host_check_at;
    if (checked && host_watch_wanted && !host_watch && (!host_check_kernel[0] || strcmp(h->name, host_check_kernel) == 0))
        host_watch = &h->counted; /* the launch the kitchen watches */
    e = host_launch_queue(&h->kernel, c, args, &size, 1, !checked, checked ? &h->counted : NULL);
    if (e == cudaSuccess)
        h->launches++;
    return e;
}

/* cudaGetDeviceProperties: the emulator as a device (its stations are the workers). */
cudaError_t emu_cuda_device_properties(cudaDeviceProp *prop, size_t size)
{
    HOST_API;
    if (!prop || size != sizeof *prop)
        return host_result(cudaErrorInvalidValue);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "cudachef CPU emulator");
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    prop->totalGlobalMem = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)1 << 32;
    prop->sharedMemPerBlock = 48 * 1024;
    prop->sharedMemPerBlockOptin = EMU_MAX_DYNAMIC_SHARED;
    prop->sharedMemPerMultiprocessor = 228 * 1024;
    prop->regsPerBlock = prop->regsPerMultiprocessor = 65536;
    prop->warpSize = 32;
    prop->memPitch = (size_t)1 << 31;
    prop->maxThreadsPerBlock = EMU_MAX_THREADS_PER_BLOCK;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->totalConstMem = 64 * 1024;
    prop->major = 9;
    prop->minor = 0;
    prop->textureAlignment = 512;
    prop->multiProcessorCount = emu_default_workers();
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->maxBlocksPerMultiProcessor = 32;
    prop->memoryBusWidth = 64;
    prop->concurrentKernels = prop->canMapHostMemory = prop->unifiedAddressing = 1;
    prop->managedMemory = prop->concurrentManagedAccess = prop->cooperativeLaunch = 1;
    prop->asyncEngineCount = 1;
    prop->globalL1CacheSupported = prop->localL1CacheSupported = 1;
    prop->clockRate = 1000000; /* kHz: the 1 GHz clock() counts at (the cook's nanoseconds) */
    prop->deviceOverlap = 1;   /* copies and launches may overlap, as asyncEngineCount says */
    prop->singleToDoublePrecisionPerfRatio = 2;
    return cudaSuccess;
}

/* cudaDeviceGetAttribute, by the runtime's numbers (src/kit/cxx/cudachef_runtime.h). */
cudaError_t emu_cuda_device_attribute(int *value, int attr)
{
    HOST_API;
    cudaDeviceProp p;
    if (!value)
        return host_result(cudaErrorInvalidValue);
    emu_cuda_device_properties(&p, sizeof p);
    switch (attr) {
    case 1: *value = p.maxThreadsPerBlock; break;
    case 2: case 3: *value = p.maxThreadsDim[attr - 2]; break;
    case 4: *value = p.maxThreadsDim[2]; break;
    case 5: case 6: case 7: *value = p.maxGridSize[attr - 5]; break;
    case 8: *value = (int)p.sharedMemPerBlock; break;
    case 9: *value = (int)p.totalConstMem; break;
    case 10: *value = p.warpSize; break;
    case 12: *value = p.regsPerBlock; break;
    case 13: case 36: *value = 1000000; break; /* kHz: the emulator has no clock of its own */
    case 16: *value = p.multiProcessorCount; break;
    case 20: *value = 0; break;
    case 31: case 41: case 83: case 89: case 95: *value = 1; break;
    case 37: *value = p.memoryBusWidth; break;
    case 38: *value = p.l2CacheSize; break;
    case 39: *value = p.maxThreadsPerMultiProcessor; break;
    case 75: *value = p.major; break;
    case 76: *value = p.minor; break;
    case 81: *value = (int)p.sharedMemPerMultiprocessor; break;
    case 97: *value = (int)p.sharedMemPerBlockOptin; break;
    case 106: *value = p.maxBlocksPerMultiProcessor; break;
    case 115: *value = 1; break; /* memory pools (cudaMallocAsync): the emulator's are cudaMalloc's */
    default: *value = 0; break; /* what the emulator has none of (textures, surfaces, ...) */
    }
    return cudaSuccess;
}

/* cudaMemsetAsync: after its stream's work (the emulator runs it then, as a pageable copy). */
cudaError_t emu_cuda_memset_async(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    HOST_API;
    if (!host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    host_stream_run(stream);
    if (host_sticky)
        return host_result(host_sticky);
    pthread_mutex_lock(&host_lock);
    host_buffer *b = host_find(ptr);
    int inside = b && b->live && b->device && host_inside(b, ptr, bytes, "cudaMemsetAsync") == 0;
    pthread_mutex_unlock(&host_lock);
    if (!inside)
        return host_result(cudaErrorInvalidValue);
    memset(ptr, value, bytes);
    return cudaSuccess;
}

/* cudaMemGetInfo: this machine's memory, as the emulator's device memory is. */
cudaError_t emu_cuda_mem_get_info(size_t *free_bytes, size_t *total)
{
    HOST_API;
    long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (free_bytes)
        *free_bytes = avail > 0 && page > 0 ? (size_t)avail * (size_t)page : 0;
    if (total)
        *total = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
    return cudaSuccess;
}

/* cudaEventQuery: cudaSuccess once the kitchen has reached the event. */
cudaError_t emu_cuda_event_query(cudaEvent_t event)
{
    HOST_API;
    if (!event || !event->recorded)
        return host_result(cudaErrorInvalidResourceHandle);
    if (host_sticky)
        return host_result(host_sticky);
    if (host_event_reached(event))
        return cudaSuccess;
    /* the kitchen works while the head chef asks: the event is reached by the next question */
    host_queue_run_all(0);
    event->synced = 1;
    return cudaErrorNotReady;
}

/* cudaEventRecord(event, stream): the emulator records after all queued work, which keeps the
   order CUDA promises for the stream named. */
cudaError_t emu_cuda_event_record_on(cudaEvent_t event, cudaStream_t stream)
{
    HOST_API;
    if (!host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    return emu_cuda_event_record(event);
}

/* cudaStreamWaitEvent: the stream's later work waits for the event; the emulator runs what was
   queued before it now, which keeps that order. */
cudaError_t emu_cuda_stream_wait_event(cudaStream_t stream, cudaEvent_t event)
{
    HOST_API;
    if (!host_stream_valid(stream) || !event)
        return host_result(cudaErrorInvalidResourceHandle);
    host_queue_run_all(0);
    return host_sticky ? host_result(host_sticky) : cudaSuccess;
}

/* cudaMemcpyToSymbol and FromSymbol: a copy after the work queued before it (the symbol is the
   program's own memory on the emulator). */
cudaError_t emu_cuda_memcpy_symbol(void *dst, const void *src, size_t bytes)
{
    HOST_API;
    host_queue_run_all(0);
    host_wait_all();
    if (host_sticky)
        return host_result(host_sticky);
    if (!dst || !src)
        return host_result(cudaErrorInvalidValue);
    memmove(dst, src, bytes);
    host_stats.copies++;
    return cudaSuccess;
}

/* cudaHostGetDevicePointer: pinned memory is reachable from the kitchen at the same address. */
cudaError_t emu_cuda_host_device_pointer(void **device, void *host)
{
    HOST_API;
    pthread_mutex_lock(&host_lock);
    host_buffer *b = host_find(host);
    int pinned = b && b->live && b->pinned;
    pthread_mutex_unlock(&host_lock);
    if (!device || !pinned)
        return host_result(cudaErrorInvalidValue);
    *device = host;
    return cudaSuccess;
}

/* A call the emulator refuses with error (what says why, for the run's notes). */
cudaError_t emu_cuda_note_refused(const char *what, cudaError_t error)
{
    HOST_API;
    host_note(CHEF_CAUSE_NONE, "%s", what);
    return host_result(error);
}

/* cudaStreamCreate, cudaStreamCreateWithFlags. */
cudaError_t emu_cuda_stream_create(cudaStream_t *stream, unsigned flags)
{
    HOST_API;
    if (!stream || flags > cudaStreamNonBlocking)
        return host_result(cudaErrorInvalidValue);
    if (host_nstreams == HOST_MAX_STREAMS)
        return host_result(cudaErrorMemoryAllocation);
    *stream = &host_streams[host_nstreams++];
    (*stream)->live = 1;
    (*stream)->nonblocking = flags == cudaStreamNonBlocking;
    return cudaSuccess;
}

/* cudaStreamDestroy: returns at once; the work queued on the stream still runs when waited for. */
cudaError_t emu_cuda_stream_destroy(cudaStream_t stream)
{
    HOST_API;
    if (!stream || !host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    stream->live = 0;
    return cudaSuccess;
}

/* cudaStreamSynchronize: the stream's queue runs (and what it waits for). */
cudaError_t emu_cuda_stream_synchronize(cudaStream_t stream)
{
    HOST_API;
    host_journey(HOST_EVENT_SYNC, 1);
    if (!host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    host_stream_run(stream);
    if (!stream) /* the legacy default stream waits for every blocking stream's work */
        host_wait_all();
    return host_sticky ? host_result(host_sticky) : cudaSuccess;
}

/* cudaStreamQuery: cudaErrorNotReady while the stream holds work nothing waited for (not an error:
   the last error stays). */
cudaError_t emu_cuda_stream_query(cudaStream_t stream)
{
    HOST_API;
    if (!host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    if (host_sticky)
        return host_result(host_sticky);
    for (int j = 0; j < host_nops; j++)
        if (host_ops[j].stream == stream && !host_ops[j].done) {
            /* a whole program that polls (while (cudaStreamQuery(s) == cudaErrorNotReady) ...) would
               wait for ever for work nothing waits for: its kitchen works while it asks, and is done
               by the next question */
            if (host_program)
                host_stream_run(stream);
            return cudaErrorNotReady;
        }
    return cudaSuccess;
}

/* cudaMemcpyAsync: checked now; queued on its stream when its host side is pinned, else (pageable
   memory, which CUDA stages through its own pinned buffer) run at once after the stream's work. */
cudaError_t emu_cuda_memcpy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream)
{
    HOST_API;
    if (!host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    int pinned, to_dev, from_dev;
    cudaError_t e = host_copy_check(dst, src, bytes, kind, &pinned, &to_dev, &from_dev);
    if (e != cudaSuccess || bytes == 0)
        return host_result(e);
    if (!pinned) {
        host_stats.pageable_copies++;
        host_stream_run(stream);
        if (host_sticky)
            return host_result(host_sticky);
        double t0 = chef_now_ms();
        memmove(dst, src, bytes);
        host_count_copy(to_dev, from_dev, bytes, pinned);
        if (host_njournal > 0 && host_journal[host_njournal - 1].kind == HOST_EVENT_COPY)
            host_journal[host_njournal - 1].ms = chef_now_ms() - t0;
        return cudaSuccess;
    }
    int before = host_njournal;
    host_count_copy(to_dev, from_dev, bytes, pinned); /* counted when asked for, run or not */
    host_op op = {.kind = HOST_OP_COPY, .stream = stream, .dst = dst, .src = src, .bytes = bytes,
                  .event = host_njournal > before ? host_njournal - 1 : -1};
    if (host_queue_add(&op) != 0)
        return host_result(cudaErrorMemoryAllocation);
    if (stream)
        stream->copies++;
    return cudaSuccess;
}

/* cudaMallocHost, cudaHostAlloc: page-locked memory of the head chef's (between guard pages). */
cudaError_t emu_cuda_malloc_host(void **ptr, size_t bytes)
{
    HOST_API;
    cudaError_t refused;
    if (host_alloc_refused(ptr, &refused))
        return host_result(refused);
    if (bytes == 0)
        return cudaSuccess;
    void *p = host_runtime_host_alloc(bytes, "cudaMallocHost");
    if (!p)
        return host_result(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&host_lock);
    host_buffer *b = host_find(p);
    b->pinned = 1;
    b->number = host_stats.calls[HOST_FAULT_ALLOC]; /* numbered with the kitchen's, as the journey lists them */
    host_event *ev = host_journey(HOST_EVENT_ALLOC, 1);
    if (ev) {
        ev->bytes = bytes;
        ev->number = b->number;
    }
    pthread_mutex_unlock(&host_lock);
    *ptr = p;
    return cudaSuccess;
}

/* cudaFreeHost: waits for the device, then frees what cudaMallocHost gave. */
cudaError_t emu_cuda_free_host(void *ptr)
{
    HOST_API;
    if (!ptr)
        return cudaSuccess;
    host_queue_run_all(1);
    pthread_mutex_lock(&host_lock);
    host_buffer *b = host_find(ptr);
    int ok = b && b->pinned && b->live && b->start == (char *)ptr;
    host_event *ev = ok ? host_journey(HOST_EVENT_FREE, 1) : NULL;
    if (ev) {
        ev->bytes = b->bytes;
        ev->number = b->number;
    }
    pthread_mutex_unlock(&host_lock);
    if (!ok) {
        host_note(CHEF_CAUSE_NONE, "%s", _("cudaFreeHost was given a pointer that cudaMallocHost did not give, or one already freed"));
        return host_result(cudaErrorInvalidValue);
    }
    host_runtime_host_free(ptr);
    return host_sticky ? host_result(host_sticky) : cudaSuccess;
}

/* cudaMallocManaged: the emulator's device memory, which the head chef can touch too; its pages are
   nowhere until touched or prefetched. */
cudaError_t emu_cuda_malloc_managed(void **ptr, size_t bytes)
{
    HOST_API;
    cudaError_t refused;
    if (host_alloc_refused(ptr, &refused))
        return host_result(refused);
    if (bytes == 0)
        return host_result(cudaErrorInvalidValue); /* as CUDA */
    size_t npages = (bytes + HOST_PAGE - 1) / HOST_PAGE;
    unsigned char *pages = calloc(npages, 1);
    pthread_mutex_lock(&host_lock);
    int i = pages ? host_slot() : -1;
    void *p = i >= 0 ? emu_malloc(bytes, host_label("cudaMallocManaged"), sizeof(float)) : NULL;
    if (p) {
        host_buffer *b = &host_buffers[i];
        memset(b, 0, sizeof *b);
        b->start = p;
        b->bytes = bytes;
        b->device = b->live = b->managed = 1;
        b->number = host_stats.calls[HOST_FAULT_ALLOC];
        b->pages = pages;
        b->npages = npages;
        memset(p, 0xFF, bytes); /* poison: NaN until written */
        host_event *ev = host_journey(HOST_EVENT_ALLOC, 2);
        if (ev) {
            ev->bytes = bytes;
            ev->number = b->number;
        }
    } else {
        free(pages);
    }
    pthread_mutex_unlock(&host_lock);
    *ptr = p;
    return host_result(p ? cudaSuccess : cudaErrorMemoryAllocation);
}

/* cudaMemPrefetchAsync (CUDA 13's form: a cudaMemLocation and flags): queued on its stream; when it
   runs, the range's pages are on the device (type Device, id 0) or the head chef's (type Host). */
cudaError_t emu_cuda_mem_prefetch_async(const void *ptr, size_t bytes, struct cudaMemLocation location, unsigned flags,
                                        cudaStream_t stream)
{
    HOST_API;
    if (host_sticky)
        return host_result(host_sticky);
    if (!host_stream_valid(stream))
        return host_result(cudaErrorInvalidResourceHandle);
    if (location.type == cudaMemLocationTypeDevice && location.id != 0)
        return host_result(cudaErrorInvalidDevice);
    if ((location.type != cudaMemLocationTypeDevice && location.type != cudaMemLocationTypeHost) || flags != 0)
        return host_result(cudaErrorInvalidValue);
    pthread_mutex_lock(&host_lock);
    host_buffer *b = ptr ? host_find(ptr) : NULL;
    int ok = b && b->live && b->managed && bytes <= b->bytes - (size_t)((const char *)ptr - b->start);
    pthread_mutex_unlock(&host_lock);
    if (!ok) {
        host_note(CHEF_CAUSE_NONE, "%s", _("cudaMemPrefetchAsync was given a range that is not inside memory from cudaMallocManaged"));
        return host_result(cudaErrorInvalidValue);
    }
    host_op op = {.kind = HOST_OP_PREFETCH, .stream = stream, .dst = (void *)ptr, .bytes = bytes,
                  .to_device = location.type == cudaMemLocationTypeDevice};
    return host_result(host_queue_add(&op) == 0 ? cudaSuccess : cudaErrorMemoryAllocation);
}

/* cudaGetDevice: the emulator is device 0. */
cudaError_t emu_cuda_get_device(int *device)
{
    HOST_API;
    if (!device)
        return host_result(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* --- for a library the code calls (host_runtime.h) --- */

/* 1 when [p, p + bytes) lies inside one live cudaMalloc buffer. */
int host_runtime_device_span(const void *p, size_t bytes, const char **from)
{
    pthread_mutex_lock(&host_lock);
    const host_buffer *b = p ? host_find(p) : NULL;
    int in = b && b->device && b->live && bytes <= b->bytes - (size_t)((const char *)p - b->start);
    *from = in ? b->from : "";
    pthread_mutex_unlock(&host_lock);
    return in;
}

int host_runtime_cook_assert(const char *message)
{
    return emu_cook_assert(message);
}

/* A library's kernel went outside the pantry: as emu_cuda_launch's fault. */
void host_runtime_library_fault(const char *message)
{
    host_stats.kernel_faulted = 1;
    host_stats.out_of_bounds++;
    host_note(CHEF_CAUSE_OUT_OF_BOUNDS, "%s", message);
    host_sticky = cudaErrorIllegalAddress;
}

/* A library's kernel goes out on the default stream: the work queued before it runs first, and an
   event recorded after it is reached once the head chef waits. */
void host_runtime_library_launch(void)
{
    host_queue_run_all(0);
    host_in_flight = 1;
}

/* 1 while a sticky error stands. */
int host_runtime_broken(void)
{
    return host_sticky != cudaSuccess;
}

/* The run's record. */
host_runtime_stats *host_runtime_record(void)
{
    return &host_stats;
}
