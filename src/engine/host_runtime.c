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

#define HOST_MAX_BUFFERS 256

/* A buffer the runtime knows: a device allocation, or one of the head chef's (host) buffers. */
typedef struct host_buffer {
    char *start;
    size_t bytes;
    int device;               /* 1: cudaMalloc's; 0: host_runtime_host_alloc's */
    int live;
    int number;               /* device: the how-many-th cudaMalloc of the run (1, 2, ...) */
    char label[32];           /* host: its name ("a", "c") */
    char from[32];            /* device: the label of the head chef's buffer last shipped into it */
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
};

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_buffer host_buffers[HOST_MAX_BUFFERS];
static int host_nbuffers;
static cudaError_t host_last, host_sticky;
static host_fault_op host_plan_op;
static int host_plan_call;
static host_runtime_stats host_stats;
static int host_events;
static int host_in_flight;    /* a launch went out since the head chef last waited */
static unsigned host_syncs;   /* the times the head chef waited for the whole kitchen */

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
    for (int i = 0; i < host_nbuffers; i++) /* forget freed device buffers of earlier runs */
        if (host_buffers[i].device && !host_buffers[i].live)
            memset(&host_buffers[i], 0, sizeof host_buffers[i]);
    pthread_mutex_unlock(&host_lock);
}

/* Ends the run: what it did, and what it left freed. */
void host_runtime_end(host_runtime_stats *st)
{
    pthread_mutex_lock(&host_lock);
    for (int i = 0; i < host_nbuffers; i++) {
        host_buffer *b = &host_buffers[i];
        if (b->device && b->live) {
            host_stats.leaked++;
            host_stats.leaked_bytes += b->bytes;
            emu_free(b->start);
        }
        if (b->device)
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

/* cudaMalloc: device memory between guard pages, unless this call is planned to fail. */
cudaError_t emu_cuda_malloc(void **ptr, size_t bytes)
{
    if (!ptr)
        return host_result(cudaErrorInvalidValue);
    *ptr = NULL;
    if (host_sticky)
        return host_result(host_sticky);
    if (host_fails(HOST_FAULT_ALLOC))
        return host_result(cudaErrorMemoryAllocation);
    if (bytes == 0)
        return cudaSuccess; /* as CUDA: a null pointer, no error */
    pthread_mutex_lock(&host_lock);
    int i = host_slot();
    void *p = i >= 0 ? emu_malloc(bytes, "cudaMalloc", sizeof(float)) : NULL;
    if (p) {
        host_buffer *b = &host_buffers[i];
        memset(b, 0, sizeof *b);
        b->start = p;
        b->bytes = bytes;
        b->device = b->live = 1;
        b->number = host_stats.calls[HOST_FAULT_ALLOC];
        memset(p, 0xFF, bytes); /* poison: NaN until written */
    }
    pthread_mutex_unlock(&host_lock);
    *ptr = p;
    return host_result(p ? cudaSuccess : cudaErrorMemoryAllocation);
}

/* cudaFree: a device pointer from cudaMalloc (NULL is nothing to do). */
cudaError_t emu_cuda_free(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    pthread_mutex_lock(&host_lock);
    host_buffer *b = host_find(ptr);
    int ok = b && b->device && b->live && b->start == (char *)ptr;
    if (ok) {
        emu_free(ptr);
        b->live = 0;
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

/* Counts a copy made and its bytes by the way they went; a cudaMemcpy waits for the launches
   before it, as the legacy default stream's does. */
static void host_count_copy(int to_device, int from_device, size_t bytes)
{
    host_stats.copies++;
    if (to_device && !from_device)
        host_stats.bytes_in += bytes;
    else if (from_device && !to_device)
        host_stats.bytes_out += bytes;
    host_wait_all();
}

/* cudaMemcpy: checked against where its pointers are, then a memcpy. */
cudaError_t emu_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if (host_sticky)
        return host_result(host_sticky);
    if (host_fails(HOST_FAULT_COPY))
        return host_result(cudaErrorLaunchFailure);
    if ((unsigned)kind > cudaMemcpyDefault)
        return host_result(cudaErrorInvalidMemcpyDirection);
    if (bytes == 0)
        return cudaSuccess;
    if (!dst || !src) {
        host_note(CHEF_CAUSE_NONE, "%s", _("cudaMemcpy was given a null pointer (an allocation that failed?)"));
        return host_result(cudaErrorInvalidValue);
    }
    pthread_mutex_lock(&host_lock);
    host_buffer *d = host_find(dst), *s = host_find(src);
    int d_dev = d && d->device, s_dev = s && s->device;
    int want_d = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int want_s = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
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
    if (e != cudaSuccess)
        return host_result(e);
    memmove(dst, src, bytes);
    host_count_copy(d_dev, s_dev, bytes);
    return cudaSuccess;
}

/* cudaMemset: bytes of value into device memory. */
cudaError_t emu_cuda_memset(void *ptr, int value, size_t bytes)
{
    if (host_sticky)
        return host_result(host_sticky);
    if (bytes == 0)
        return cudaSuccess;
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
    cudaError_t e = host_last;
    host_last = host_sticky;
    return e;
}

/* cudaPeekAtLastError: the last error, kept. */
cudaError_t emu_cuda_peek_at_last_error(void)
{
    return host_last;
}

/* cudaDeviceSynchronize: the emulator's launches are done when they return; a kernel's fault is
   reported here (and by every later call). */
cudaError_t emu_cuda_device_synchronize(void)
{
    host_wait_all();
    return host_sticky ? host_result(host_sticky) : cudaSuccess;
}

/* The error's name, as cudaGetErrorName gives it. */
const char *emu_cuda_error_name(cudaError_t error)
{
    switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    default: return "cudaErrorUnknown";
    }
}

/* The error's sentence, as cudaGetErrorString gives it. */
const char *emu_cuda_error_string(cudaError_t error)
{
    switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    default: return "unknown error";
    }
}

/* cudaEventCreate: an event is a mark, recorded later. */
cudaError_t emu_cuda_event_create(cudaEvent_t *event)
{
    if (!event)
        return host_result(cudaErrorInvalidValue);
    *event = calloc(1, sizeof **event);
    if (!*event)
        return host_result(cudaErrorMemoryAllocation);
    host_events++;
    return cudaSuccess;
}

/* cudaEventRecord: the emulator's launches are done when they return, so the time is now; but as
   on a GPU the mark counts as reached only once the head chef has waited for it (cudaEventSynchronize,
   cudaDeviceSynchronize, a cudaMemcpy) when a launch was still in flight before it. */
cudaError_t emu_cuda_event_record(cudaEvent_t event)
{
    if (!event)
        return host_result(cudaErrorInvalidResourceHandle);
    if (host_sticky)
        return host_result(host_sticky);
    event->ms = chef_now_ms();
    event->recorded = 1;
    event->pending = host_in_flight;
    event->sync = host_syncs;
    event->synced = 0;
    event->launches = host_stats.launches;
    event->copies = host_stats.copies;
    return cudaSuccess;
}

/* 1 when the kitchen has reached a recorded event, as far as the head chef can know. */
static int host_event_reached(const struct emu_cuda_event *e)
{
    return !e->pending || e->synced || host_syncs != e->sync;
}

/* cudaEventSynchronize: waits until the kitchen reaches the event (its launches are done). */
cudaError_t emu_cuda_event_synchronize(cudaEvent_t event)
{
    if (!event)
        return host_result(cudaErrorInvalidResourceHandle);
    if (host_sticky)
        return host_result(host_sticky);
    event->synced = 1;
    return cudaSuccess;
}

/* cudaEventElapsedTime: milliseconds between two recorded events, cudaErrorNotReady while the
   kitchen has not reached either; each time given is kept with what its span held. */
cudaError_t emu_cuda_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
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
    if (!event)
        return host_result(cudaErrorInvalidResourceHandle);
    free(event);
    host_events--;
    return cudaSuccess;
}

/* kernel<<<grid, block, shared>>>(args), as the source pass rewrote it: refused as CUDA refuses a
   bad configuration (seen by cudaGetLastError only), else cooked on the emulator with the checked
   build; a fault while cooking leaves a sticky error. */
cudaError_t emu_cuda_launch(const char *name, emu_cuda_config c, void **args)
{
    if (host_sticky)
        return host_result(host_sticky);
    if (host_fails(HOST_FAULT_LAUNCH))
        return host_result(cudaErrorLaunchOutOfResources);
    unsigned long long threads = (unsigned long long)c.block[0] * c.block[1] * c.block[2];
    if (c.grid[0] == 0 || c.grid[1] == 0 || c.grid[2] == 0 || threads == 0 || threads > EMU_MAX_THREADS_PER_BLOCK ||
        c.block[2] > 64 || c.grid[1] > 65535 || c.grid[2] > 65535 || c.shared > EMU_MAX_DYNAMIC_SHARED)
        return host_result(cudaErrorInvalidConfiguration);
    const emu_kernel *k = emu_kernel_find(name);
    if (!k)
        return host_result(cudaErrorInvalidDevicePointer);
    emu_options eo = {0};
    eo.workers = 2;
    eo.checked = k->checked != NULL;
    eo.dynamic_shared = c.shared;
    emu_dim3 g = {c.grid[0], c.grid[1], c.grid[2]}, b = {c.block[0], c.block[1], c.block[2]};
    emu_fault fault;
    memset(&fault, 0, sizeof fault);
    emu_status s = emu_launch(k, g, b, args, &eo, &fault);
    host_stats.launches++;
    host_in_flight = 1;
    if (s == EMU_OK)
        return cudaSuccess;
    if (s == EMU_FAULT_CONFIG)
        return host_result(cudaErrorInvalidConfiguration);
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
    host_sticky = s == EMU_FAULT_OUT_OF_BOUNDS ? cudaErrorIllegalAddress : cudaErrorLaunchFailure;
    return cudaSuccess; /* as on a GPU: the launch went out; the fault shows at the next synchronisation */
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

/* A library's kernel went outside the pantry: as emu_cuda_launch's fault. */
void host_runtime_library_fault(const char *message)
{
    host_stats.kernel_faulted = 1;
    host_stats.out_of_bounds++;
    host_note(CHEF_CAUSE_OUT_OF_BOUNDS, "%s", message);
    host_sticky = cudaErrorIllegalAddress;
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
