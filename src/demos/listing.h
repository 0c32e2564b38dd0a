/*
 * listing.h - a kernel's PTX or SASS as text: one function cut out of the compiler's listing, and
 * its instructions counted by kind (`cudachef inside`, lesson 18). Pure text work: the programs
 * that make the listings (nvcc -ptx, cuobjdump -sass) are run by cmd_inside.c.
 *
 *   PTX (nvcc -ptx):        .visible .entry _Z12matmul_tiledPKfS0_Pfi( ... ) { ... }
 *                               ld.global.f32  %f1, [%rd7];
 *   SASS (cuobjdump -sass): Function : _Z12matmul_tiledPKfS0_Pfi
 *                               (address 0090)  LDG.E R4, desc[UR4][R4.64] ;
 */
#ifndef CUDACHEF_LISTING_H
#define CUDACHEF_LISTING_H

#include <stddef.h>

typedef enum listing_kind { LISTING_PTX, LISTING_SASS } listing_kind;

/* The kinds of instruction counted, in this order. */
typedef enum listing_op {
    LISTING_GLOBAL_LOAD,   /* ld.global, LDG */
    LISTING_GLOBAL_STORE,  /* st.global, STG */
    LISTING_SHARED_LOAD,   /* ld.shared, LDS */
    LISTING_SHARED_STORE,  /* st.shared, STS */
    LISTING_LOCAL,         /* ld.local / st.local, LDL / STL: the stack, spills */
    LISTING_ASYNC_COPY,    /* cp.async.ca / .cg, LDGSTS: global to shared, on its own */
    LISTING_FMA,           /* fma.rn.f32, FFMA */
    LISTING_MMA,           /* mma.sync, wgmma, HMMA, HGMMA: the tensor cores */
    LISTING_BARRIER,       /* bar.sync / barrier.sync, BAR */
    LISTING_BRANCH,        /* bra, BRA */
    LISTING_OTHER,         /* every other instruction */
    LISTING_NOPS
} listing_op;

/* The kind's name for people ("global loads") and for programs ("global_load"). */
const char *listing_op_name(listing_op op);
const char *listing_op_key(listing_op op);

/* The kind of one line of a listing, or -1 when the line is not an instruction (a label, a
   directive, a comment, a brace, a blank). */
int listing_line_op(listing_kind kind, const char *line, size_t len);

/* Finds the function whose name contains function (a C name: its mangled name holds it) in text:
   *begin and *end are set to its first line and just past its last. 0, or -1 when it is not there. */
int listing_cut(listing_kind kind, const char *text, const char *function, const char **begin, const char **end);

/* Counts the instructions of text[0 .. len) by kind into counts[LISTING_NOPS]; returns their total. */
int listing_count(listing_kind kind, const char *text, size_t len, int *counts);

#endif
