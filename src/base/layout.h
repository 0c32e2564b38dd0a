/*
 * layout.h - where each screen's parts go, as pure arithmetic on the terminal's size.
 *
 * The TUI (src/ui/) asks these functions for rectangles and then draws into them; nothing here
 * knows curses, so the maths is unit-tested on its own (tests/test_layout.c). Text is measured in
 * display columns, never bytes: Hangul and other wide characters take two columns, and a crop
 * never cuts a character in half.
 */
#ifndef CUDACHEF_LAYOUT_H
#define CUDACHEF_LAYOUT_H

#include <stddef.h>

/* The smallest terminal every screen is designed for. */
#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24

/* The widest a page's text is laid out, so lines stay readable on a wide terminal. */
#define LAYOUT_TEXT_MAX 100

/* A rectangle of cells: column x, row y, w columns, h rows. */
typedef struct layout_rect {
    int x, y, w, h;
} layout_rect;

/* The home screen: a title bar, the list of lessons, the backend that will cook, the key line. */
typedef struct layout_home {
    layout_rect title, list, backend, footer;
} layout_home;

/* The reader: a title bar (lesson and page), the page's text, the key line. */
typedef struct layout_reader {
    layout_rect title, body, footer;
} layout_reader;

/* Where a picture of art_w x art_h (plus caption_h rows under it) goes inside the home screen's
   list frame, whose rows 0 .. used_rows-1 and columns 0 .. used_cols-1 (inside the frame) hold
   the lessons: below them when the rows allow, else to their right; 1 and *out (the picture
   and its captions), or 0 when it fits nowhere (a blank row or two columns keep them apart). */
int layout_home_art(const layout_home *h, int used_rows, int used_cols, int art_w, int art_h, int caption_h,
                    layout_rect *out);

/* 1 when a cols x rows terminal is smaller than LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS. */
int layout_too_small(int cols, int rows);

/* Splits a cols x rows terminal into the home screen's parts. */
void layout_home_split(int cols, int rows, layout_home *out);

/* Splits a cols x rows terminal into the reader's parts; the body is at most LAYOUT_TEXT_MAX wide. */
void layout_reader_split(int cols, int rows, layout_reader *out);

/* A w x h rectangle centred in outer, shrunk to fit inside it. */
layout_rect layout_center(layout_rect outer, int w, int h);

/* A grid of count boxes in an area of w x h cells: the box size (at least min_w x min_h, at most
   max_w x max_h) and the columns of boxes, chosen so that every box fits with the largest boxes
   that do; boxes sit side by side with no gap (their frames are the gaps). 1 and *cols, *box_w,
   *box_h, or 0 when even the smallest boxes do not fit (then *cols and the size are the smallest's,
   and *rows_shown how many rows of boxes fit). */
typedef struct layout_boxes {
    int cols, rows, box_w, box_h;
    int rows_shown; /* rows of boxes that fit (rows when all do) */
} layout_boxes;
int layout_box_grid(int count, int w, int h, int min_w, int min_h, int max_w, int max_h, layout_boxes *out);

/* The first line to show so that top stays within 0 .. total - visible. */
int layout_scroll_clamp(int top, int total, int visible);

/* The first row of a list so that the selected row is visible, moving as little as possible. */
int layout_list_top(int selected, int top, int count, int visible);

/* The number of bytes of text (len bytes of UTF-8) that fit in width columns without cutting a
   character; *used (if not NULL) gets the columns they take. */
size_t layout_crop(const char *text, size_t len, int width, int *used);

/* Writes text cropped and then padded with spaces to exactly width columns into out (size bytes,
   NUL-terminated); returns the bytes written. */
size_t layout_fit(const char *text, int width, char *out, size_t size);

/* Finds needle in text from byte from on, ignoring the case of ASCII letters: the byte offset of
   the match, or -1. An empty needle is never found. */
long layout_find(const char *text, size_t from, const char *needle);

#endif
