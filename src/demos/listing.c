/*
 * listing.c - cutting one function out of a PTX or SASS listing and counting its instructions
 * by kind (see listing.h).
 */
#include "demos/listing.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"

/* Each kind: its names, and the opcodes that are it in PTX and in SASS (prefixes up to a '.'). */
static const struct {
    const char *name, *key;
    const char *ptx[3], *sass[3];
} listing_ops[LISTING_NOPS] = {
    [LISTING_GLOBAL_LOAD] = {N_("global loads"), "global_load", {"ld.global", "ldg.global"}, {"LDG"}},
    [LISTING_GLOBAL_STORE] = {N_("global stores"), "global_store", {"st.global"}, {"STG"}},
    [LISTING_SHARED_LOAD] = {N_("shared loads"), "shared_load", {"ld.shared"}, {"LDS", "LDSM"}},
    [LISTING_SHARED_STORE] = {N_("shared stores"), "shared_store", {"st.shared"}, {"STS"}},
    [LISTING_LOCAL] = {N_("local loads and stores"), "local", {"ld.local", "st.local"}, {"LDL", "STL"}},
    [LISTING_ASYNC_COPY] = {N_("asynchronous copies to shared"), "async_copy", {"cp.async.ca", "cp.async.cg"}, {"LDGSTS"}},
    [LISTING_FMA] = {N_("fused multiply-adds"), "fma", {"fma.rn.f32"}, {"FFMA"}},
    [LISTING_MMA] = {N_("tensor-core multiplies"), "mma", {"mma.sync", "wgmma.mma_async", "wmma.mma"}, {"HMMA", "HGMMA"}},
    [LISTING_BARRIER] = {N_("barriers"), "barrier", {"bar.sync", "barrier.sync"}, {"BAR"}},
    [LISTING_BRANCH] = {N_("branches"), "branch", {"bra"}, {"BRA"}},
    [LISTING_OTHER] = {N_("other instructions"), "other", {0}, {0}},
};

/* The kind's name for people. */
const char *listing_op_name(listing_op op)
{
    return (unsigned)op < LISTING_NOPS ? listing_ops[op].name : "?";
}

/* The kind's name for programs. */
const char *listing_op_key(listing_op op)
{
    return (unsigned)op < LISTING_NOPS ? listing_ops[op].key : "?";
}

/* Whether the opcode op (len bytes) is prefix, whole or followed by '.' (ld.global.f32). */
static int listing_is(const char *op, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(op, prefix, n) == 0 && (len == n || op[n] == '.');
}

/* The kind of one line. */
int listing_line_op(listing_kind kind, const char *line, size_t len)
{
    const char *p = line, *end = line + len;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (kind == LISTING_SASS) { /* an instruction starts with its address: / *0090* / */
        if (end - p < 2 || p[0] != '/' || p[1] != '*' || !memmem(p, (size_t)(end - p), "*/", 2))
            return -1;
        p = (const char *)memmem(p, (size_t)(end - p), "*/", 2) + 2;
        while (p < end && isspace((unsigned char)*p))
            p++;
    }
    if (p < end && *p == '@') { /* a predicate: @P0, @!P1, @%p1 */
        while (p < end && !isspace((unsigned char)*p))
            p++;
        while (p < end && isspace((unsigned char)*p))
            p++;
    }
    const char *op = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '.' || *p == '_'))
        p++;
    size_t n = (size_t)(p - op);
    if (n == 0 || !isalpha((unsigned char)op[0]))
        return -1; /* a directive (.reg), a label ($L__BB0_2:), a brace, a comment */
    if (p < end && *p == ':')
        return -1; /* a label */
    if (kind == LISTING_PTX && !(p < end && (isspace((unsigned char)*p) || *p == ';')))
        return -1;
    if (kind == LISTING_SASS && !isupper((unsigned char)op[0]))
        return -1;
    for (int k = 0; k < LISTING_OTHER; k++)
        for (int i = 0; i < 3; i++) {
            const char *name = kind == LISTING_PTX ? listing_ops[k].ptx[i] : listing_ops[k].sass[i];
            if (name && listing_is(op, n, name))
                return k;
        }
    return LISTING_OTHER;
}

/* The line after the one at p (or end). */
static const char *listing_next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : p + strlen(p);
}

/* Whether line [p, q) names function: mangled as C++ names it, its length before it
   (_Z12matmul_tiledPKfS0_Pfi), so that matmul_tiled never finds matmul_tiled_no_fill_barrier. */
static int listing_names(const char *p, const char *q, const char *function)
{
    char mangled[160];
    int n = snprintf(mangled, sizeof mangled, "%zu%s", strlen(function), function);
    if (n <= 0 || (size_t)n >= sizeof mangled)
        return 0;
    const char *at = p;
    while (at + n <= q && (at = memmem(at, (size_t)(q - at), mangled, (size_t)n)) != NULL) {
        if (at == p || !isdigit((unsigned char)at[-1]))
            return 1;
        at++;
    }
    return 0;
}

/* Cuts one function out of a listing. */
int listing_cut(listing_kind kind, const char *text, const char *function, const char **begin, const char **end)
{
    *begin = *end = NULL;
    for (const char *p = text; *p; p = listing_next_line(p)) {
        const char *q = listing_next_line(p);
        int head = kind == LISTING_PTX ? memmem(p, (size_t)(q - p), ".entry", 6) != NULL
                                       : memmem(p, (size_t)(q - p), "Function :", 10) != NULL;
        if (!head || !listing_names(p, q, function))
            continue;
        *begin = p;
        const char *r = q;
        if (kind == LISTING_PTX) { /* up to the brace that closes the body, alone at column 0 */
            for (; *r; r = listing_next_line(r))
                if (r[0] == '}') {
                    r = listing_next_line(r);
                    break;
                }
        } else { /* up to the next function, or the end of its section */
            for (; *r; r = listing_next_line(r)) {
                const char *s = listing_next_line(r);
                if (memmem(r, (size_t)(s - r), "Function :", 10) || memmem(r, (size_t)(s - r), "......", 6))
                    break;
            }
        }
        *end = r;
        return 0;
    }
    return -1;
}

/* Counts the instructions of a listing by kind. */
int listing_count(listing_kind kind, const char *text, size_t len, int *counts)
{
    memset(counts, 0, sizeof(int) * LISTING_NOPS);
    int total = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *q = nl ? nl : end;
        int op = listing_line_op(kind, p, (size_t)(q - p));
        if (op >= 0) {
            counts[op]++;
            total++;
        }
        p = nl ? nl + 1 : end;
    }
    return total;
}
