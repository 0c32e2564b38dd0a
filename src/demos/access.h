/*
 * access.h - how the 32 cooks of a warp land in memory, from a real trace.
 *
 * A warp is 32 cooks of a team with neighbouring linear indices (threadIdx.x first); a GPU's
 * memory moves whole 128-byte segments. When the warp's 32 writes fall in 1 or 2 segments the
 * pantry serves them in one go (coalesced); when they fall in up to 32 segments it moves up to 32
 * segments for 128 useful bytes (scattered). access_trace runs a recipe on the CPU emulator with
 * its checked build, which records the element each cook wrote, and counts the segments: the
 * pattern comes from the kernel source itself, the same file nvcc compiles. Segments are counted
 * from the start of the output buffer, which a GPU aligns to at least 256 bytes.
 */
#ifndef CUDACHEF_ACCESS_H
#define CUDACHEF_ACCESS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/backend.h"
#include "base/chef.h"

#define ACCESS_WARP 32
#define ACCESS_SEGMENT_BYTES 128

typedef struct access_pattern {
    char recipe[64];
    int64_t n;
    int threads_per_block;
    chef_dim3 block;              /* the team's shape */
    char buffer[16];              /* the output buffer's name ("C") */
    int64_t width;                /* row length when the output is an n x n matrix, else 0 */
    int cooks;                    /* cooks in the first warp of team 0 (32, fewer in a smaller team) */
    int64_t element[ACCESS_WARP]; /* the output element each of them wrote, -1 if none */
    int64_t segment[ACCESS_WARP]; /* its 128-byte segment (element * 4 / 128), -1 if none */
    int segments;                 /* distinct segments the first warp's writes touch */
    int full_warps;               /* warps of 32 cooks in which every cook wrote an element */
    double mean_segments;         /* distinct segments per full warp, on average (0 if none) */
} access_pattern;

/* Runs recipe_name (n, threads per block; 0 for the recipe's default) once on the emulator, traced,
   and fills out. Returns 0, or an exit code with err (a run that broke, a grid too large to trace
   cook by cook). A run whose taste fails still gives its pattern. */
int access_trace(const char *recipe_name, int64_t n, int threads_per_block, access_pattern *out, chef_error *err);

/* The same with kernel (registered with the emulator) in place of the recipe's own. */
int access_trace_kernel(const char *recipe_name, const char *kernel, int64_t n, int threads_per_block,
                        access_pattern *out, chef_error *err);

/* Writes the pattern for people: one line per cook of the warp, a row of cells for the segments
   and the counts, in the learner's language. */
void access_text(FILE *out, const access_pattern *a);

/* The pattern for programs (caller owns the reference). */
json_t *access_json(const access_pattern *a);

#endif
