/*
 * emu_check.c - the callbacks of the emulator's checked kernel build.
 *
 * The checked build compiles kernels with GCC's -fsanitize=kernel-address and a call threshold of
 * 0, which turns every load and store into a call to __asan_loadN_noabort / __asan_storeN_noabort
 * with the address. Those names belong to the sanitizer run-time, which a program built with
 * -fsanitize=address links in, so the checked build renames its calls to the emulator's own
 * emu_check_loadN / emu_check_storeN (kit/emu_table.c, when EMU_CHECKED is defined): there is no
 * sanitizer run-time behind these functions, and they never meet one. A store into a device buffer
 * records the element each cook wrote (for the kitchen view); an access in a buffer's guard zone
 * stops the launch with the cook's name and the element it reached for.
 */
#include "emu/emu_internal.h"

#include "base/i18n.h"

#include <stdio.h>

/* Checks one access of size bytes at address by the running cook. */
static void emu_check_access(uintptr_t address, size_t size, int is_store)
{
    emu_worker *w = emu_self;
    if (!w || !w->launch || !w->current)
        return;
    int inside = 0, index = -1;
    const emu_buffer *b = emu_memory_find((const void *)address, &inside, &index);
    if (!b) {
        uintptr_t dyn = (uintptr_t)emu_dynamic_shared_area;
        if (address >= dyn && address < dyn + EMU_MAX_DYNAMIC_SHARED &&
            address + size > dyn + w->launch->dynamic_shared) {
            char msg[400];
            snprintf(msg, sizeof msg,
                     is_store ? _("wrote past the team's dynamic shared memory (extern __shared__): byte %zu of a "
                                  "launch that gave each team %zu bytes")
                              : _("read past the team's dynamic shared memory (extern __shared__): byte %zu of a "
                                  "launch that gave each team %zu bytes"),
                     (size_t)(address - dyn), w->launch->dynamic_shared);
            emu_fault_raise(w, EMU_FAULT_OUT_OF_BOUNDS, msg);
        }
        return; /* a local variable, shared memory or a constant */
    }
    if (inside && address + size <= (uintptr_t)(b->start + b->bytes)) {
        if (is_store) {
            trace *t = w->launch->options ? w->launch->options->trace : NULL;
            if (t && t->threads) {
                uint64_t slot = (uint64_t)w->block_linear * w->launch->nthreads + emu_current_tid(w->launch);
                if (slot < t->nthreads && t->threads[slot].buffer < 0) {
                    t->threads[slot].buffer = index;
                    t->threads[slot].element = (int64_t)((address - (uintptr_t)b->start) / b->elem_size);
                }
            }
        }
        return;
    }
    if (inside)
        address = (uintptr_t)(b->start + b->bytes); /* a wide access that runs past the end */
    char where[200], msg[400];
    emu_memory_describe((const void *)address, where, sizeof where);
    snprintf(msg, sizeof msg, is_store ? _("wrote outside the pantry: %s") : _("read outside the pantry: %s"), where);
    emu_fault_raise(w, EMU_FAULT_OUT_OF_BOUNDS, msg);
}

#define EMU_CHECK_SIZED(n)                                                                         \
    void emu_check_load##n(uintptr_t address);                                                     \
    void emu_check_store##n(uintptr_t address);                                                    \
    void emu_check_load##n(uintptr_t address) { emu_check_access(address, n, 0); }                 \
    void emu_check_store##n(uintptr_t address) { emu_check_access(address, n, 1); }

EMU_CHECK_SIZED(1)
EMU_CHECK_SIZED(2)
EMU_CHECK_SIZED(4)
EMU_CHECK_SIZED(8)
EMU_CHECK_SIZED(16)

void emu_check_loadN(uintptr_t address, size_t size);
void emu_check_storeN(uintptr_t address, size_t size);
/* Checks a load of size bytes (wide or odd-sized accesses). */
void emu_check_loadN(uintptr_t address, size_t size)
{
    emu_check_access(address, size, 0);
}
/* Checks a store of size bytes (wide or odd-sized accesses). */
void emu_check_storeN(uintptr_t address, size_t size)
{
    emu_check_access(address, size, 1);
}

/* Called by checked code before a function that does not return; nothing to do here. */
void emu_check_no_return(void);
/* Called by checked code before a function that does not return; nothing to do here. */
void emu_check_no_return(void)
{
}
