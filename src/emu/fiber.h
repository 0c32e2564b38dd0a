/*
 * fiber.h - user-level threads ("fibers") for the CPU emulator.
 *
 * The emulator runs every CUDA thread of a block as a plain function call on one OS thread.
 * A cook that reaches __syncthreads() must wait for its team, so it needs a stack of its own
 * that can be set aside and resumed: a fiber. Switching fibers is a handful of register moves
 * (x86-64 assembly in fiber_x86_64.S; ucontext elsewhere), about 100 times cheaper than an OS
 * thread switch.
 *
 * Tools that watch memory must be told about stacks that the program switches by hand: under
 * AddressSanitizer every switch is announced (fiber.c, only in such a build), and valgrind is told
 * where each fiber's stack lies (when its header is installed; a no-op outside valgrind).
 * docs/SANITIZERS.md says more.
 */
#ifndef CUDACHEF_FIBER_H
#define CUDACHEF_FIBER_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#define FIBER_ASM 1
#else
#include <ucontext.h>
#endif

/* FIBER_ASAN: built with AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__, clang with
   __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif

typedef struct fiber {
#if FIBER_ASM
    void *sp;            /* saved stack pointer while switched out */
#else
    ucontext_t uc;
#endif
    void *mapping;       /* mmap'd region: guard page + stack (NULL for a thread's own context) */
    size_t mapping_size;
    void (*entry)(void *);
    void *arg;
    /* The stack as sanitizers see it: a fiber's own from its mapping; a thread's own context's
       learnt each time it is switched away from (AddressSanitizer reports it then). */
    const void *stack_bottom;
    size_t stack_size;
    void *fake_stack;    /* AddressSanitizer's fake stack of the fiber while it is switched out */
    unsigned valgrind_id;
} fiber;

/* Asks the processor for the top of a switched-out fiber's stack (its saved registers and the
   frames it resumes in), a switch or two before it runs: after a barrier every cook of a team
   resumes in turn, each from a stack last touched a whole team ago, and the switch otherwise waits
   on those loads (measured: 10% of the tiled matmul's time on one worker, docs/EMULATOR.md). */
static inline void fiber_prefetch(const fiber *f)
{
#if FIBER_ASM
    const char *sp = f->sp;
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
#else
    (void)f;
#endif
}

/* Allocates a stack (with a guard page below it) and prepares the fiber to start at entry(arg). */
int fiber_create(fiber *f, size_t stack_size, void (*entry)(void *), void *arg);

/* Makes an existing fiber start afresh at its entry the next time it is switched to. */
void fiber_reset(fiber *f);

/* Releases a fiber's stack. */
void fiber_destroy(fiber *f);

/* The switch itself: saves the running context in from and continues in to (fiber_x86_64.S, or
   ucontext in fiber.c). Call fiber_switch, which also tells a sanitizer. */
void fiber_switch_raw(fiber *from, fiber *to);

#if FIBER_ASAN
/* Saves the running context in from and continues in to (announced to AddressSanitizer). */
void fiber_switch(fiber *from, fiber *to);

/* Switches from a fiber that will not be resumed (it is reset before it runs again). */
void fiber_leave(fiber *from, fiber *to);
#else
/* Saves the running context in from and continues in to. */
static inline void fiber_switch(fiber *from, fiber *to)
{
    fiber_switch_raw(from, to);
}

/* Switches from a fiber that will not be resumed (it is reset before it runs again). */
static inline void fiber_leave(fiber *from, fiber *to)
{
    fiber_switch_raw(from, to);
}
#endif

/* How far below a stack a fault still counts as its overflow (a frame that stepped over the guard). */
#define FIBER_OVERFLOW_REACH ((uintptr_t)64 << 20)

/* True when address lies in the guard page of the fiber's stack, or not far below it (a stack
   overflow). */
int fiber_guard_contains(const fiber *f, const void *address);

#endif
