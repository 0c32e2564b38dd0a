/*
 * planted.h - memory faults planted on purpose, to prove that the memory tools' runs still cover
 * each layer (docs/SANITIZERS.md, "Planted faults").
 *
 * make asan and make valgrind build with CHEF_PLANTED_FAULTS; every other build compiles
 * PLANTED_FAULTS(...) to nothing. In those builds CUDACHEF_PLANTED_FAULT=LAYER:KIND makes the
 * place of that layer (emu: every launch; kit: the source pass; grading: reading the checking
 * child's results; host: cudaMalloc of the emulator's runtime) commit one fault of that kind each
 * time it runs: leak (16 bytes never freed), overflow (a write one byte past a 16-byte block) or
 * use-after-free (a read of a freed block). scripts/sanitize-planted.sh sets each in turn and
 * requires the tool's reduced run to report it. The fault is written out here, in a macro, so that
 * it is compiled into the layer's own file, with that file's instrumentation.
 */
#ifndef CUDACHEF_PLANTED_H
#define CUDACHEF_PLANTED_H

#ifdef CHEF_PLANTED_FAULTS
#include <stdlib.h>
#include <string.h>

/* The kinds of fault, as CUDACHEF_PLANTED_FAULT spells them after the layer and a colon. */
enum { PLANTED_NONE, PLANTED_LEAK, PLANTED_OVERFLOW, PLANTED_USE_AFTER_FREE };

/* The kind of fault CUDACHEF_PLANTED_FAULT plants in layer, or PLANTED_NONE. */
static inline int planted_fault_kind(const char *layer)
{
    const char *v = getenv("CUDACHEF_PLANTED_FAULT");
    size_t n = strlen(layer);
    if (!v || strncmp(v, layer, n) != 0 || v[n] != ':')
        return PLANTED_NONE;
    v += n + 1;
    return strcmp(v, "leak") == 0             ? PLANTED_LEAK
           : strcmp(v, "overflow") == 0       ? PLANTED_OVERFLOW
           : strcmp(v, "use-after-free") == 0 ? PLANTED_USE_AFTER_FREE
                                              : PLANTED_NONE;
}

/* Commits the fault planted in layer, if any (the pointer is volatile: the compiler keeps it). */
#define PLANTED_FAULTS(layer)                                                                        \
    do {                                                                                             \
        int planted_kind_ = planted_fault_kind(layer);                                              \
        if (planted_kind_ != PLANTED_NONE) {                                                         \
            char *volatile planted_block_ = malloc(16);                                              \
            if (planted_block_ && planted_kind_ == PLANTED_OVERFLOW) {                               \
                planted_block_[16] = 1;                                                              \
                free(planted_block_);                                                                \
            } else if (planted_block_ && planted_kind_ == PLANTED_USE_AFTER_FREE) {                  \
                free(planted_block_);                                                                \
                if (planted_block_[3] == 42)                                                         \
                    planted_block_ = NULL;                                                           \
            }                                                                                        \
            planted_block_ = NULL; /* a leak: the only pointer to it is gone */                      \
        }                                                                                            \
    } while (0)
#else
#define PLANTED_FAULTS(layer) ((void)0)
#endif

#endif
