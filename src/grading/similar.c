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

/* The names met so far, in order (an identifier's number is its place here + 1). */
typedef struct similar_names {
    const char **at;
    size_t *len;
    int count, cap;
} similar_names;

/* The number of the identifier s (len bytes), a new one when it is new; 0 when out of memory. */
static int similar_number(similar_names *n, const char *s, size_t len)
{
    for (int i = 0; i < n->count; i++)
        if (n->len[i] == len && memcmp(n->at[i], s, len) == 0)
            return i + 1;
    if (n->count == n->cap) {
        int cap = n->cap ? n->cap * 2 : 64;
        const char **at = realloc(n->at, (size_t)cap * sizeof *at);
        if (!at)
            return 0;
        n->at = at;
        size_t *l = realloc(n->len, (size_t)cap * sizeof *l);
        if (!l)
            return 0;
        n->len = l;
        n->cap = cap;
    }
    n->at[n->count] = s;
    n->len[n->count] = len;
    return ++n->count;
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
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    int ok = EVP_DigestFinal_ex(ctx, md, &mdlen) == 1;
    EVP_MD_CTX_free(ctx);
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", ok && i < mdlen ? md[i] : 0);
    return ok ? 0 : -1;
}
