/*
 * emu_check_names.h - the checked build's calls sent to the emulator's checks: included by every
 * file the kit compiles for the emulator (emu_table.c for kernels, cxx/cudachef.h for whole
 * programs), it does nothing unless EMU_CHECKED.
 */
#ifndef CUDACHEF_EMU_CHECK_NAMES_H
#define CUDACHEF_EMU_CHECK_NAMES_H

#ifdef EMU_CHECKED
/* The checked build (-fsanitize=thread -DEMU_CHECKED, see the Makefile) calls __tsan_read4 & co
   for every load and store, and __sanitizer_cov_trace_pc at every basic block. Those are the
   sanitizer run-time's names, so the assembler sends each call to the emulator's own check of the
   same access instead (emu_check.c): the kernels never reach a sanitizer run-time, and a program
   built with a sanitizer keeps its own. (ThreadSanitizer's instrumentation is used because it
   keeps every access; AddressSanitizer's leaves out a store to an address the same block has just
   read. The fuzzing build, with clang, still uses kernel-address: its names are renamed too.) */
#define EMU_TSAN(kind, n, to) ".set __tsan_" #kind #n ", emu_check_" #to #n "\n"
#define EMU_TSAN_SIZES(kind, to) EMU_TSAN(kind, 1, to) EMU_TSAN(kind, 2, to) EMU_TSAN(kind, 4, to) \
    EMU_TSAN(kind, 8, to) EMU_TSAN(kind, 16, to)
#define EMU_ASAN(kind, n) ".set __asan_" #kind #n "_noabort, emu_check_" #kind #n "\n"
__asm__(EMU_TSAN_SIZES(read, load) EMU_TSAN_SIZES(write, store) EMU_TSAN(unaligned_read, 2, load)
        EMU_TSAN(unaligned_read, 4, load) EMU_TSAN(unaligned_read, 8, load) EMU_TSAN(unaligned_read, 16, load)
        EMU_TSAN(unaligned_write, 2, store) EMU_TSAN(unaligned_write, 4, store) EMU_TSAN(unaligned_write, 8, store)
        EMU_TSAN(unaligned_write, 16, store)
        ".set __tsan_read_range, emu_check_loadN\n"
        ".set __tsan_write_range, emu_check_storeN\n"
        ".set __tsan_func_entry, emu_check_function\n"
        ".set __tsan_func_exit, emu_check_no_return\n"
        ".set __tsan_init, emu_check_no_return\n"
        EMU_ASAN(load, 1) EMU_ASAN(load, 2) EMU_ASAN(load, 4) EMU_ASAN(load, 8) EMU_ASAN(load, 16) EMU_ASAN(load, N)
        EMU_ASAN(store, 1) EMU_ASAN(store, 2) EMU_ASAN(store, 4) EMU_ASAN(store, 8) EMU_ASAN(store, 16)
        EMU_ASAN(store, N)
        ".set __asan_handle_no_return, emu_check_no_return\n"
        ".set __sanitizer_cov_trace_pc, emu_check_block\n");
#undef EMU_TSAN
#undef EMU_TSAN_SIZES
#undef EMU_ASAN
#endif

#endif
