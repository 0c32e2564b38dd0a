/*
 * fiber.h - user-level threads ("fibers") for the CPU emulator.
 *
 * The emulator runs every CUDA thread of a block as a plain function call on one OS thread.
 * A cook that reaches __syncthreads() must wait for its team, so it needs a stack of its own
 * that can be set aside and resumed: a fiber. Switching fibers is a handful of register moves
 * (x86-64 assembly in fiber_x86_64.S; ucontext elsewhere), about 100 times cheaper than an OS
 * thread switch.
 */
#ifndef CUDACHEF_FIBER_H
#define CUDACHEF_FIBER_H

#include <stddef.h>

#if defined(__x86_64__)
#define FIBER_ASM 1
#else
#include <ucontext.h>
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
} fiber;

/* Allocates a stack (with a guard page below it) and prepares the fiber to start at entry(arg). */
int fiber_create(fiber *f, size_t stack_size, void (*entry)(void *), void *arg);

/* Makes an existing fiber start afresh at its entry the next time it is switched to. */
void fiber_reset(fiber *f);

/* Releases a fiber's stack. */
void fiber_destroy(fiber *f);

/* Saves the running context in from and continues in to. */
void fiber_switch(fiber *from, fiber *to);

/* True when address lies in the guard page of the fiber's stack (a stack overflow). */
int fiber_guard_contains(const fiber *f, const void *address);

#endif
