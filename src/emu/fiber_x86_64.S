/*
 * fiber_x86_64.S - the fiber context switch for x86-64 (System V ABI).
 *
 * fiber_switch_raw(from, to): push the callee-saved registers on the current stack, store the stack
 * pointer in from->sp, load to->sp and pop the registers saved there. A new fiber's stack is laid
 * out by fiber.c so that the pops land in fiber_trampoline with r12 = the fiber pointer.
 */
    .text
    .globl  fiber_switch_raw
    .type   fiber_switch_raw, @function
fiber_switch_raw:
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rsp, (%rdi)
    movq    (%rsi), %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    ret
    .size   fiber_switch_raw, .-fiber_switch_raw

    .globl  fiber_trampoline
    .type   fiber_trampoline, @function
fiber_trampoline:
    movq    %r12, %rdi
    call    fiber_start
    ud2
    .size   fiber_trampoline, .-fiber_trampoline

    .section .note.GNU-stack,"",@progbits
