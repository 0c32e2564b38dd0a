/*
 * text.h - how wide UTF-8 text is on a terminal. Every layer measures text this way (the
 * Markdown layout, the demos' wrapped reports, the charts, the screens), so that Hangul, which
 * takes two columns a character, lines up as English does.
 */
#ifndef CUDACHEF_BASE_TEXT_H
#define CUDACHEF_BASE_TEXT_H

#include <stddef.h>

/* The display width of len bytes of UTF-8 text in terminal columns (wide characters count two;
   a byte that is not UTF-8, or a character with no width of its own, counts one). */
int text_width(const char *text, size_t len);

#endif
