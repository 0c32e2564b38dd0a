/*
 * emu_prep.h - the source pass a kernel goes through before the C compiler builds it for the
 * emulator: every __shared__ array is registered with the emulator and poisoned at each team's
 * start, and extern __shared__ arrays are placed in the launch's dynamic shared memory
 * (docs/EMULATOR.md, "Shared memory, local memory and poison"). nvcc never sees its output.
 */
#ifndef CUDACHEF_EMU_PREP_H
#define CUDACHEF_EMU_PREP_H

#include <stddef.h>

/* Rewrites the kernel source text src (len bytes) into a newly allocated, NUL-terminated *out
   that starts with a #line naming shown_as, so the compiler's messages and __LINE__ name the
   original file and lines. Returns 0, or -1 with a one-line reason in why (out of memory, or a
   __shared__ declaration without its ';'). */
int emu_prep_source(const char *src, size_t len, const char *shown_as, char **out, char *why, size_t why_size);

/* Reads path_in, rewrites it as emu_prep_source does and writes path_out. Returns 0, or -1 with a
   reason in why. */
int emu_prep_file(const char *path_in, const char *shown_as, const char *path_out, char *why, size_t why_size);

#endif
