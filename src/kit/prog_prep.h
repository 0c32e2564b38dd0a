/*
 * prog_prep.h - the source pass a whole CUDA C++ program goes through before the C++ compiler builds
 * it for the emulator (docs/EMULATOR.md, "Whole programs"). It reads the program's preprocessed
 * text (after the preprocessor, so macros and #if have been applied and cannot hide a launch) and
 * rewrites what C++ cannot say: every launch `kernel<<<grid, block, shared, stream>>>(args)`, every
 * __shared__ declaration (poisoned and registered per team, as the C kit's pass does), and CUDA's
 * storage words (__device__, __constant__, __managed__), which mean plain memory on the emulator.
 * It keeps every line where it was, so the compiler's messages name the learner's file and line.
 * One pass over the text, linear in its size.
 */
#ifndef CUDACHEF_PROG_PREP_H
#define CUDACHEF_PROG_PREP_H

#include <stddef.h>

/* What the pass found: the launches it rewrote, and the first construct the emulator cannot run
   (unsupported: its name, file and line; "" when none). */
typedef struct prog_prep_info {
    int launches;
    char unsupported[64];
    char unsupported_file[256];
    int unsupported_line;
} prog_prep_info;

/* Rewrites the preprocessed text src (len bytes) of translation unit number tu into a newly
   allocated, NUL-terminated *out. Returns 0, or -1 with a one-line reason in why (a launch without
   its >>> or its arguments, a __shared__ declaration without its ';', out of memory). */
int prog_prep_source(const char *src, size_t len, int tu, char **out, prog_prep_info *info, char *why, size_t why_size);

#endif
