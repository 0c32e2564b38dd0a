/*
 * fiber.c - stacks for the emulator's fibers, and the portable parts of switching.
 *
 * Each stack is an mmap'd region whose lowest page is PROT_NONE, so a cook that recurses too
 * deeply faults at once instead of overwriting another cook's stack. On x86-64 the switch itself
 * is fiber_x86_64.S; elsewhere this file falls back to ucontext (slower, same behaviour).
 *
 * Under AddressSanitizer every switch is announced (__sanitizer_start_switch_fiber before,
 * __sanitizer_finish_switch_fiber after), so that it knows which stack is in use, keeps a fake
 * stack per fiber and does not take the other stacks' frames for overflows; a stack whose frames
 * were abandoned (a cook stopped by a fault) is unpoisoned before it is used again. Under valgrind
 * each stack is registered, so that a switch is not taken for a huge stack frame.
 */
#include "emu/fiber.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define FIBER_VALGRIND 1
#endif
#endif

#if FIBER_ASAN
/* The fiber being switched away from, for the side that arrives (per worker thread). */
static _Thread_local fiber *fiber_switching_from;

/* Completes a switch on the side that arrives: AddressSanitizer reports the stack left, which is
   how a thread's own context learns where its stack lies. */
static void fiber_arrived(void *fake_stack)
{
    const void *bottom = NULL;
    size_t size = 0;
    __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
    fiber *from = fiber_switching_from;
    if (from && !from->mapping) {
        from->stack_bottom = bottom;
        from->stack_size = size;
    }
}

/* Saves the running context in from and continues in to (announced to AddressSanitizer). */
void fiber_switch(fiber *from, fiber *to)
{
    fiber_switching_from = from;
    __sanitizer_start_switch_fiber(&from->fake_stack, to->stack_bottom, to->stack_size);
    fiber_switch_raw(from, to);
    fiber_arrived(from->fake_stack); /* back in from, switched to by another fiber */
}

/* Switches from a fiber that will not be resumed: its fake stack is dropped. */
void fiber_leave(fiber *from, fiber *to)
{
    fiber_switching_from = from;
    __sanitizer_start_switch_fiber(NULL, to->stack_bottom, to->stack_size);
    fiber_switch_raw(from, to);
    __builtin_unreachable(); /* the fiber is reset before it runs again */
}
#endif

/* Runs the fiber's entry; entry functions never return (they switch away for good). */
void fiber_start(fiber *f);
/* Runs the fiber's entry; entry functions never return (they switch away for good). */
void fiber_start(fiber *f)
{
#if FIBER_ASAN
    fiber_arrived(NULL); /* a fresh stack has no fake stack yet */
#endif
    f->entry(f->arg);
}

#if FIBER_ASM
void fiber_trampoline(void);

/* Lays out a fresh stack so that fiber_switch "returns" into fiber_trampoline. */
static void fiber_prepare(fiber *f)
{
    char *top = (char *)f->mapping + f->mapping_size;
    uintptr_t sp = ((uintptr_t)top) & ~(uintptr_t)15;
    uint64_t *s = (uint64_t *)sp;
    /* After the 6 pops and the ret, rsp is back at top (16-aligned), so the call in the
       trampoline enters fiber_start with the alignment the ABI requires. */
    *--s = (uint64_t)(uintptr_t)fiber_trampoline; /* return address */
    *--s = 0;                              /* rbp */
    *--s = 0;                              /* rbx */
    *--s = (uint64_t)(uintptr_t)f;         /* r12: the fiber, argument of fiber_start */
    *--s = 0;                              /* r13 */
    *--s = 0;                              /* r14 */
    *--s = 0;                              /* r15 */
    f->sp = s;
}
#else
/* Adapts fiber_start to makecontext's int arguments. */
static void fiber_uc_start(unsigned hi, unsigned lo)
{
    fiber_start((fiber *)(((uintptr_t)hi << 32) | (uintptr_t)lo));
}

/* Prepares the ucontext of a fresh fiber. */
static void fiber_prepare(fiber *f)
{
    long page = sysconf(_SC_PAGESIZE);
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = (char *)f->mapping + page;
    f->uc.uc_stack.ss_size = f->mapping_size - (size_t)page;
    f->uc.uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(&f->uc, (void (*)(void))fiber_uc_start, 2, (unsigned)(p >> 32), (unsigned)p);
}

/* Saves the running context in from and continues in to (ucontext version). */
void fiber_switch_raw(fiber *from, fiber *to)
{
    swapcontext(&from->uc, &to->uc);
}
#endif

/* Marks a stack's memory as holding no frames (AddressSanitizer keeps the redzones of frames
   that never returned); nothing to do in other builds. */
static void fiber_stack_forget(fiber *f)
{
#if FIBER_ASAN
    __asan_unpoison_memory_region(f->stack_bottom, f->stack_size);
#else
    (void)f;
#endif
}

/* Allocates a stack (with a guard page below it) and prepares the fiber to start at entry(arg). */
int fiber_create(fiber *f, size_t stack_size, void (*entry)(void *), void *arg)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    size_t size = ((stack_size + (size_t)page - 1) / (size_t)page + 1) * (size_t)page;
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mprotect(m, (size_t)page, PROT_NONE) != 0) {
        munmap(m, size);
        return -1;
    }
    memset(f, 0, sizeof *f);
    f->mapping = m;
    f->mapping_size = size;
    f->entry = entry;
    f->arg = arg;
    f->stack_bottom = (char *)m + page;
    f->stack_size = size - (size_t)page;
#if FIBER_VALGRIND
    f->valgrind_id = VALGRIND_STACK_REGISTER((char *)m + page, (char *)m + size);
#endif
    fiber_stack_forget(f);
    fiber_prepare(f);
    return 0;
}

/* Makes an existing fiber start afresh at its entry the next time it is switched to. */
void fiber_reset(fiber *f)
{
    if (!f->mapping)
        return;
    fiber_stack_forget(f);
    f->fake_stack = NULL;
    fiber_prepare(f);
}

/* Releases a fiber's stack. */
void fiber_destroy(fiber *f)
{
    if (f->mapping) {
#if FIBER_VALGRIND
        VALGRIND_STACK_DEREGISTER(f->valgrind_id);
#endif
        fiber_stack_forget(f);
        munmap(f->mapping, f->mapping_size);
    }
    f->mapping = NULL;
}

/* True when address lies in the guard page of the fiber's stack, or below it by less than
   FIBER_OVERFLOW_REACH (a stack overflow: a frame larger than the guard page, a 1 MiB local array,
   steps over it and faults further down). */
int fiber_guard_contains(const fiber *f, const void *address)
{
    long page = sysconf(_SC_PAGESIZE);
    const char *a = address;
    const char *m = f->mapping;
    if (!m)
        return 0;
    uintptr_t low = (uintptr_t)m > FIBER_OVERFLOW_REACH ? (uintptr_t)m - FIBER_OVERFLOW_REACH : 0;
    return (uintptr_t)a >= low && a < m + page;
}
