/*
 * text_out.h - a growing text the kit's source passes write into (emu_prep.c for a kernel's C,
 * prog_prep.c for a program's preprocessed C++): appends bytes and formatted text, and remembers
 * that memory ran out rather than failing at each call.
 */
#ifndef CUDACHEF_KIT_TEXT_OUT_H
#define CUDACHEF_KIT_TEXT_OUT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text being written: NUL-ended once anything is in it. */
typedef struct text_out {
    char *p;
    size_t n, cap;
    int failed;
} text_out;

/* Appends len bytes of s. */
static inline void text_put(text_out *o, const char *s, size_t len)
{
    if (o->failed)
        return;
    if (o->n + len + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->n + len + 1)
            cap *= 2;
        char *p = realloc(o->p, cap);
        if (!p) {
            o->failed = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->n, s, len);
    o->n += len;
    o->p[o->n] = 0;
}

/* Appends formatted text, of any length. */
static inline void text_printf(text_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void text_printf(text_out *o, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->failed = 1;
    } else if ((size_t)n < sizeof buf) {
        text_put(o, buf, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (!big) {
            o->failed = 1;
            return;
        }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        text_put(o, big, (size_t)n);
        free(big);
    }
}

#endif
