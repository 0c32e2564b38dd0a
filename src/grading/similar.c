/*
 * similar.c - the fingerprint grade --class compares submissions by (similar.h): the file's C
 * tokens without comments, whitespace or line breaks, every identifier that is not a keyword or
 * one of CUDA's own names renamed by its first appearance (the first becomes v1, the next v2, ...),
 * so that renaming variables, reformatting and rewording comments leave it as it was. Preprocessor
 * lines count as tokens too (an #if 0 decoy changes it).
 */
#include "grading/similar.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names that keep their spelling: C's keywords, CUDA's qualifiers and built-ins. */
static const char *const similar_kept[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "__global__", "__device__", "__host__", "__shared__", "__restrict__", "__syncthreads", "__syncwarp",
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "x", "y", "z", "float2", "float4", "atomicAdd",
    "include", "define", "ifdef", "ifndef", "endif", "pragma", "unroll", "size_t"};

/* 1 when the name keeps its spelling. */
static int similar_is_kept(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof similar_kept / sizeof *similar_kept; i++)
        if (strlen(similar_kept[i]) == len && memcmp(similar_kept[i], s, len) == 0)
            return 1;
    return 0;
}

/* The names met so far: an open-addressing table of (name, number), so that a file of millions of
   distinct names (16 MiB of them) is numbered in linear time, never in the square of it. */
typedef struct similar_names {
    const char **at;  /* NULL: a free slot */
    size_t *len;
    int *number;
    size_t cap;       /* a power of two, at least twice count */
    int count;
} similar_names;

/* FNV-1a of len bytes: where a name's slot search starts. */
static size_t similar_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return (size_t)h;
}

/* Doubles the table (rehashing every name): 0, or -1 when out of memory. */
static int similar_grow(similar_names *n)
{
    size_t cap = n->cap ? n->cap * 2 : 256;
    const char **at = calloc(cap, sizeof *at);
    size_t *len = calloc(cap, sizeof *len);
    int *number = calloc(cap, sizeof *number);
    if (!at || !len || !number) {
        free(at);
        free(len);
        free(number);
        return -1;
    }
    for (size_t i = 0; i < n->cap; i++) {
        if (!n->at[i])
            continue;
        size_t k = similar_hash(n->at[i], n->len[i]) & (cap - 1);
        while (at[k])
            k = (k + 1) & (cap - 1);
        at[k] = n->at[i];
        len[k] = n->len[i];
        number[k] = n->number[i];
    }
    free(n->at);
    free(n->len);
    free(n->number);
    n->at = at;
    n->len = len;
    n->number = number;
    n->cap = cap;
    return 0;
}

/* The number of the identifier s (len bytes): its order of first appearance, a new one when it is
   new; 0 when out of memory. */
static int similar_number(similar_names *n, const char *s, size_t len)
{
    if ((size_t)(n->count + 1) * 2 > n->cap && similar_grow(n) != 0)
        return 0;
    size_t k = similar_hash(s, len) & (n->cap - 1);
    for (; n->at[k]; k = (k + 1) & (n->cap - 1))
        if (n->len[k] == len && memcmp(n->at[k], s, len) == 0)
            return n->number[k];
    n->at[k] = s;
    n->len[k] = len;
    n->number[k] = ++n->count;
    return n->count;
}

/* The fingerprint of C or CUDA source text. */
int similar_fingerprint(const char *text, char hex[65])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return -1;
    }
    similar_names names = {0};
    const char *p = text;
    while (*p) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            const char *start = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            size_t len = (size_t)(p - start);
            char token[32];
            if (similar_is_kept(start, len)) {
                EVP_DigestUpdate(ctx, start, len);
            } else {
                snprintf(token, sizeof token, "v%d", similar_number(&names, start, len));
                EVP_DigestUpdate(ctx, token, strlen(token));
            }
            EVP_DigestUpdate(ctx, " ", 1);
        } else if (*p == '"' || *p == '\'') { /* a literal, whole, as written */
            char quote = *p;
            const char *start = p++;
            while (*p && *p != quote && *p != '\n')
                p += p[0] == '\\' && p[1] ? 2 : 1;
            if (*p == quote)
                p++;
            EVP_DigestUpdate(ctx, start, (size_t)(p - start));
            EVP_DigestUpdate(ctx, " ", 1);
        } else { /* a number or a punctuator: a character at a time */
            EVP_DigestUpdate(ctx, p, 1);
            p++;
        }
    }
    free(names.at);
    free(names.len);
    free(names.number);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    int ok = EVP_DigestFinal_ex(ctx, md, &mdlen) == 1;
    EVP_MD_CTX_free(ctx);
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", ok && i < mdlen ? md[i] : 0);
    return ok ? 0 : -1;
}
