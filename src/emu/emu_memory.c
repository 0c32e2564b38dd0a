/*
 * emu_memory.c - the emulator's device memory (the device pantry).
 *
 * Each buffer gets its own mapping with an inaccessible guard zone before and after it, and its
 * last byte sits right against the guard zone after it: a cook that reads or writes past the end
 * faults at once, and the emulator can say which buffer and which element it was. A guard zone is
 * as large as the buffer (at least a page, at most EMU_GUARD_MAX): teams cook at the same time on
 * several workers, so the first stray access the emulator sees may be far past the end (c[i + 100000]
 * reached by a late team while an early one is still in bounds), and it must land in the guard too,
 * not in some other memory of the process. The guard zones cost address space only.
 */
#include "emu/emu_internal.h"

#include "base/i18n.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EMU_MAX_BUFFERS 4096 /* device buffers at once (a program may make one a lock: 1024 in CUDA by Example's hash table) */
#define EMU_GUARD_MAX ((size_t)64 << 20) /* a guard zone's size at most, each side */

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define EMU_VALGRIND 1
#endif
#endif

static pthread_mutex_t emu_memory_lock = PTHREAD_MUTEX_INITIALIZER;
static emu_buffer emu_buffers[EMU_MAX_BUFFERS];
static int emu_nbuffers;
static uintptr_t emu_span_lo = UINTPTR_MAX, emu_span_hi; /* every mapping ever made lies between them */
static _Thread_local const emu_buffer *emu_last_found;    /* a cook's accesses mostly hit the buffer of its last */

/* Largest power of two, at most 16, that divides bytes: the buffer start's alignment. */
static size_t emu_alignment(size_t bytes)
{
    size_t a = 16;
    while (a > 1 && bytes % a != 0)
        a /= 2;
    return a;
}

/* Device memory for the emulator: bytes between guard pages. label and elem_size name it in reports. */
void *emu_malloc(size_t bytes, const char *label, size_t elem_size)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    size_t p = (size_t)page;
    if (bytes == 0 || bytes > ((size_t)1 << 46))
        return NULL;
    size_t data_pages = (bytes + 15 + p - 1) / p;
    size_t guard = data_pages * p < EMU_GUARD_MAX ? data_pages * p : EMU_GUARD_MAX;
    size_t size = guard + data_pages * p + guard;
    /* the whole region inaccessible, then the data pages opened */
    char *m = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + guard, data_pages * p, PROT_READ | PROT_WRITE) != 0) {
        munmap(m, size);
        return NULL;
    }
#if EMU_VALGRIND
    /* A stray access into a guard zone is the emulator's to report (its fault handler names the
       cook): memcheck is asked not to report it as well. */
    VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(m, guard);
    VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(m + guard + data_pages * p, guard);
#endif
    char *end = m + guard + data_pages * p;
    char *start = end - bytes;
    start -= (uintptr_t)start % emu_alignment(bytes);
    pthread_mutex_lock(&emu_memory_lock);
    int slot = -1;
    for (int i = 0; i < emu_nbuffers; i++)
        if (!emu_buffers[i].mapping)
            slot = i;
    if (slot < 0 && emu_nbuffers < EMU_MAX_BUFFERS)
        slot = emu_nbuffers++;
    if (slot < 0) {
        pthread_mutex_unlock(&emu_memory_lock);
        munmap(m, size);
        return NULL;
    }
    emu_buffer *b = &emu_buffers[slot];
    b->start = start;
    b->bytes = bytes;
    b->elem_size = elem_size ? elem_size : 1;
    snprintf(b->label, sizeof b->label, "%s", label ? label : "buffer");
    b->mapping = m;
    b->mapping_size = size;
    b->guard = guard;
    if ((uintptr_t)m < emu_span_lo)
        emu_span_lo = (uintptr_t)m;
    if ((uintptr_t)m + size > emu_span_hi)
        emu_span_hi = (uintptr_t)m + size;
    pthread_mutex_unlock(&emu_memory_lock);
    return start;
}

/* Releases a buffer from emu_malloc with its guard pages. */
void emu_free(void *ptr)
{
    if (!ptr)
        return;
    pthread_mutex_lock(&emu_memory_lock);
    for (int i = 0; i < emu_nbuffers; i++) {
        emu_buffer *b = &emu_buffers[i];
        if (b->mapping && b->start == ptr) {
#if EMU_VALGRIND
            VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(b->mapping, b->guard);
            VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(b->mapping + b->mapping_size - b->guard, b->guard);
#endif
            munmap(b->mapping, b->mapping_size);
            free(b->seen);
            memset(b, 0, sizeof *b);
            break;
        }
    }
    pthread_mutex_unlock(&emu_memory_lock);
}

/* Finds the buffer holding address, or whose guard zone holds it (*inside tells which). */
const emu_buffer *emu_memory_find(const void *address, int *inside, int *index)
{
    const char *a = address;
    /* Read without the lock: buffers are not allocated or freed while a kernel runs. The last one
       found first (its slot's mapping is read again: a slot freed and used again is still right),
       and an address outside every mapping's span at once (a cook's locals and shared memory). */
    const emu_buffer *last = emu_last_found;
    int found = -1;
    if (last && last->mapping && a >= last->mapping && a < last->mapping + last->mapping_size)
        found = (int)(last - emu_buffers);
    else if ((uintptr_t)a < emu_span_lo || (uintptr_t)a >= emu_span_hi)
        return NULL;
    for (int i = found >= 0 ? found : 0; i < emu_nbuffers; i++) {
        const emu_buffer *b = &emu_buffers[i];
        if (!b->mapping || a < b->mapping || a >= b->mapping + b->mapping_size)
            continue;
        if (inside)
            *inside = a >= b->start && a < b->start + b->bytes;
        if (index)
            *index = i;
        emu_last_found = b;
        return b;
    }
    return NULL;
}

/* The number of buffer b, one that emu_memory_find returned. */
int emu_memory_index_of(const emu_buffer *b)
{
    return (int)(b - emu_buffers);
}

/* The number of the buffer holding p, or -1. */
int emu_memory_index(const void *p)
{
    int index = -1;
    return emu_memory_find(p, NULL, &index) ? index : -1;
}

/* Clears (allocating where needed) every buffer's record of the sectors a counted launch touches.
   Runs before the launch's workers start. */
int emu_memory_seen_begin(void)
{
    int rc = 0;
    pthread_mutex_lock(&emu_memory_lock);
    for (int i = 0; i < emu_nbuffers; i++) {
        emu_buffer *b = &emu_buffers[i];
        if (!b->mapping)
            continue;
        size_t bits = (((uintptr_t)b->start + b->bytes - 1) >> 5) - ((uintptr_t)b->start >> 5) + 1;
        if (b->seen && b->seen_bits == bits) {
            memset(b->seen, 0, (bits + 63) / 64 * sizeof *b->seen);
            continue;
        }
        free(b->seen);
        b->seen_bits = bits;
        if (!(b->seen = calloc((bits + 63) / 64, sizeof *b->seen)))
            rc = -1;
    }
    pthread_mutex_unlock(&emu_memory_lock);
    return rc;
}

/* Notes the sectors of an access inside buffer b (any worker, at any time of the launch). */
void emu_memory_seen_mark(const emu_buffer *b, uintptr_t address, size_t size)
{
    if (!b->seen)
        return;
    uintptr_t base = (uintptr_t)b->start >> 5;
    for (uintptr_t s = address >> 5; s <= (address + size - 1) >> 5; s++) {
        size_t bit = s - base;
        uint64_t m = 1ull << (bit % 64), *word = &b->seen[bit / 64];
        if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & m))
            __atomic_fetch_or(word, m, __ATOMIC_RELAXED);
    }
}

/* Sectors the counted launch touched, over every buffer. Runs after its workers finished. */
uint64_t emu_memory_seen_end(uint64_t *sectors_in_buffers)
{
    uint64_t n = 0;
    *sectors_in_buffers = 0;
    pthread_mutex_lock(&emu_memory_lock);
    for (int i = 0; i < emu_nbuffers; i++)
        *sectors_in_buffers += emu_buffers[i].seen ? emu_buffers[i].seen_bits : 0;
    for (int i = 0; i < emu_nbuffers; i++)
        for (size_t w = 0; emu_buffers[i].seen && w < (emu_buffers[i].seen_bits + 63) / 64; w++)
            n += (uint64_t)__builtin_popcountll(emu_buffers[i].seen[w]);
    pthread_mutex_unlock(&emu_memory_lock);
    return n;
}

/* Writes "c[1000] (4 bytes past the end of c, 1000 floats)" style text for an address. */
void emu_memory_describe(const void *address, char *out, size_t size)
{
    int inside = 0;
    const emu_buffer *b = emu_memory_find(address, &inside, NULL);
    if (!b) {
        snprintf(out, size, _("address %p, outside every device buffer"), address);
        return;
    }
    const char *a = address;
    long long offset = (long long)(a - b->start);
    long long index = offset >= 0 ? offset / (long long)b->elem_size
                                  : -((-offset + (long long)b->elem_size - 1) / (long long)b->elem_size);
    long long count = (long long)(b->bytes / b->elem_size);
    if (inside)
        snprintf(out, size, _("%s[%lld], inside %s (%lld elements)"), b->label, index, b->label, count);
    else if (offset < 0)
        snprintf(out, size,
                 index == -1 ? _("%s[%lld], %lld element before the start of %s (%lld elements)")
                             : _("%s[%lld], %lld elements before the start of %s (%lld elements)"),
                 b->label, index, -index, b->label, count);
    else
        snprintf(out, size,
                 index - count + 1 == 1 ? _("%s[%lld], %lld element past the end of %s (valid: %s[0] to %s[%lld])")
                                        : _("%s[%lld], %lld elements past the end of %s (valid: %s[0] to %s[%lld])"),
                 b->label, index, index - count + 1, b->label, b->label, b->label, count - 1);
}
