/*
 * emu_table.c - compiles the kernels of a .def list as C for the emulator.
 *
 * Built once plainly and once as the "checked" build (compiled with per-access callbacks, see
 * emu_check.c); KERNEL_DEF names the list (kernels/kernels.def, or the tests' own) and EMU_TABLE
 * the table of entries this build exports. Each entry unpacks cudaLaunchKernel-style arguments and
 * runs one block's not-yet-started threads one after another (see EMU_COOK_ALL in emu_kernel.h).
 */
#include "emu_table.h"
#include "kernel_glue.h"

#ifdef EMU_CHECKED
/* The checked build (-fsanitize=kernel-address -DEMU_CHECKED) calls __asan_load4_noabort & co for
   every access. Those are the sanitizer run-time's names, so the assembler sends each call to the
   emulator's own check of the same access instead (emu_check.c): the kernels never reach a
   sanitizer run-time, and a program built with -fsanitize=address keeps its own. */
#define EMU_CHECK_RENAME(kind, n) ".set __asan_" #kind #n "_noabort, emu_check_" #kind #n "\n"
__asm__(EMU_CHECK_RENAME(load, 1) EMU_CHECK_RENAME(load, 2) EMU_CHECK_RENAME(load, 4) EMU_CHECK_RENAME(load, 8)
        EMU_CHECK_RENAME(load, 16) EMU_CHECK_RENAME(load, N) EMU_CHECK_RENAME(store, 1) EMU_CHECK_RENAME(store, 2)
        EMU_CHECK_RENAME(store, 4) EMU_CHECK_RENAME(store, 8) EMU_CHECK_RENAME(store, 16) EMU_CHECK_RENAME(store, N)
        ".set __asan_handle_no_return, emu_check_no_return\n");
#undef EMU_CHECK_RENAME
#endif
#include "kernel.h"

#ifndef KERNEL_DEF
#define KERNEL_DEF "kernels.def"
#endif
#ifndef EMU_TABLE
#define EMU_TABLE emu_kernels_fast
#endif
/* A learner's exercise is built the same way into a module of its own (exercise_build.c), its
   names prefixed so they never meet the program's kernels of the same name. */
#ifndef EMU_ROW_PREFIX
#define EMU_ROW_PREFIX ""
#endif

#define KERNEL_SOURCES
#define KERNEL(name, n, types)                                                                     \
    static void emu_entry_##name(void **args)                                                      \
    {                                                                                              \
        CHEF_DECLARE(n, types)                                                                     \
        EMU_COOK_ALL(name(CHEF_NAMES(n)));                                                         \
    }
#include KERNEL_DEF
#undef KERNEL
#undef KERNEL_SOURCES

extern const emu_kernel_row EMU_TABLE[];
#define KERNEL(name, n, types) {EMU_ROW_PREFIX #name, emu_entry_##name},
__attribute__((visibility("default"))) const emu_kernel_row EMU_TABLE[] = {
#include KERNEL_DEF
    {0, 0}};
#undef KERNEL
