/*
 * text.h - how wide UTF-8 text is on a terminal. Every layer measures text this way (the
 * Markdown layout, the demos' wrapped reports, the charts, the screens), so that Hangul, which
 * takes two columns a character, lines up as English does; and whether bytes are UTF-8.
 */
#ifndef CUDACHEF_BASE_TEXT_H
#define CUDACHEF_BASE_TEXT_H

#include <stddef.h>

/* The display width of len bytes of UTF-8 text in terminal columns (wide characters count two;
   a byte that is not UTF-8, or a character with no width of its own, counts one). */
int text_width(const char *text, size_t len);

/* The length in bytes of the UTF-8 character at s (1 to 4), or 0 where the bytes there are not
   UTF-8 (a stray or cut-short byte, an overlong form, a surrogate, past U+10FFFF). */
int text_utf8_length(const char *s);

/* 1 when the character of n bytes at s (text_utf8_length's) is a control character: C0 (tab and
   newline included), DEL or C1. */
int text_is_control(const char *s, int n);

/* A copy of text that is valid UTF-8 (malloc'd; NULL when out of memory): each byte that starts no
   UTF-8 character becomes U+FFFD. For what other programs wrote (a compiler quoting a learner's
   bytes) on its way into a format that must be UTF-8 (JSON, XML). */
char *text_utf8_valid(const char *text);

#endif
