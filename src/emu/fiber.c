/*
 * fiber.c - stacks for the emulator's fibers, and the portable parts of switching.
 *
 * Each stack is an mmap'd region whose lowest page is PROT_NONE, so a cook that recurses too
 * deeply faults at once instead of overwriting another cook's stack. On x86-64 the switch itself
 * is fiber_x86_64.S; elsewhere this file falls back to ucontext (slower, same behaviour).
 */
#include "fiber.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Runs the fiber's entry; entry functions never return (they switch away for good). */
void fiber_start(fiber *f);
/* Runs the fiber's entry; entry functions never return (they switch away for good). */
void fiber_start(fiber *f)
{
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
void fiber_switch(fiber *from, fiber *to)
{
    swapcontext(&from->uc, &to->uc);
}
#endif

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
    fiber_prepare(f);
    return 0;
}

/* Makes an existing fiber start afresh at its entry the next time it is switched to. */
void fiber_reset(fiber *f)
{
    if (f->mapping)
        fiber_prepare(f);
}

/* Releases a fiber's stack. */
void fiber_destroy(fiber *f)
{
    if (f->mapping)
        munmap(f->mapping, f->mapping_size);
    f->mapping = NULL;
}

/* True when address lies in the guard page of the fiber's stack (a stack overflow). */
int fiber_guard_contains(const fiber *f, const void *address)
{
    long page = sysconf(_SC_PAGESIZE);
    const char *a = address, *m = f->mapping;
    return m && a >= m && a < m + page;
}
