/*
 * layout.c - screen regions and display-width cropping, as pure functions (see layout.h).
 *
 * Widths come from text_width (wcwidth in a UTF-8 locale), the same measure the page
 * layout uses, so what markdown.c wrapped to a width is drawn in exactly that width.
 */
#include <string.h>

#include "base/layout.h"
#include "base/text.h"

/* 1 when the terminal is below the minimum size. */
int layout_too_small(int cols, int rows)
{
    return cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS;
}

/* A rectangle, with negative sizes turned into empty ones. */
static layout_rect layout_rect_make(int x, int y, int w, int h)
{
    layout_rect r = {x, y, w < 0 ? 0 : w, h < 0 ? 0 : h};
    return r;
}

/* Home: title on row 0, the list from row 2, the backend two rows above the bottom, keys last. */
void layout_home_split(int cols, int rows, layout_home *out)
{
    out->title = layout_rect_make(0, 0, cols, 1);
    out->list = layout_rect_make(2, 2, cols - 4, rows - 6);
    out->backend = layout_rect_make(2, rows - 3, cols - 4, 1);
    out->footer = layout_rect_make(0, rows - 1, cols, 1);
}

/* The home screen's picture: under the lessons, or beside them, or nowhere. */
int layout_home_art(const layout_home *h, int used_rows, int used_cols, int art_w, int art_h, int caption_h,
                    layout_rect *out)
{
    int inner_w = h->list.w - 2, inner_h = h->list.h - 2, need_h = art_h + caption_h;
    if (art_w <= 0 || art_h <= 0)
        return 0;
    if (used_rows + 1 + need_h <= inner_h && art_w <= inner_w - 2) { /* below, centred */
        *out = layout_rect_make(h->list.x + 1 + (inner_w - art_w) / 2, h->list.y + 1 + used_rows + 1 +
                                (inner_h - used_rows - 1 - need_h) / 2, art_w, need_h);
        return 1;
    }
    if (used_cols + 4 + art_w <= inner_w && need_h <= inner_h) { /* beside, centred in the space left */
        int room = inner_w - used_cols;
        *out = layout_rect_make(h->list.x + 1 + used_cols + (room - art_w) / 2, h->list.y + 1 + (inner_h - need_h) / 2,
                                art_w, need_h);
        return 1;
    }
    return 0;
}

/* Reader: title on row 0, the text between, keys last; the text keeps a margin of two columns. */
void layout_reader_split(int cols, int rows, layout_reader *out)
{
    int width = cols - 4;
    if (width > LAYOUT_TEXT_MAX)
        width = LAYOUT_TEXT_MAX;
    out->title = layout_rect_make(0, 0, cols, 1);
    out->body = layout_rect_make(2, 2, width, rows - 4);
    out->footer = layout_rect_make(0, rows - 1, cols, 1);
}

/* A rectangle centred in another, no larger than it. */
layout_rect layout_center(layout_rect outer, int w, int h)
{
    if (w > outer.w)
        w = outer.w;
    if (h > outer.h)
        h = outer.h;
    return layout_rect_make(outer.x + (outer.w - w) / 2, outer.y + (outer.h - h) / 2, w, h);
}

/* The largest boxes with which a grid of count fits in w x h; the smallest, cut, when none does. */
int layout_box_grid(int count, int w, int h, int min_w, int min_h, int max_w, int max_h, layout_boxes *out)
{
    memset(out, 0, sizeof *out);
    if (count <= 0 || w < min_w || h < min_h || min_w <= 0 || min_h <= 0)
        return count <= 0;
    /* the tallest rows first (a box's height says more than its width), then the widest boxes */
    for (int bh = max_h; bh >= min_h; bh--)
        for (int bw = max_w; bw >= min_w; bw--) {
            int cols = w / bw, rows = cols > 0 ? (count + cols - 1) / cols : 0;
            if (cols > 0 && rows * bh <= h) {
                /* spread the boxes over the rows they need, so the last row is not a stub */
                cols = (count + rows - 1) / rows;
                *out = (layout_boxes){cols, rows, bw, bh, rows};
                return 1;
            }
        }
    int cols = w / min_w, rows = (count + cols - 1) / cols;
    *out = (layout_boxes){cols, rows, min_w, min_h, h / min_h};
    return 0;
}

/* Keeps a scroll position inside the text. */
int layout_scroll_clamp(int top, int total, int visible)
{
    int last = total - visible;
    if (top > last)
        top = last;
    return top < 0 ? 0 : top;
}

/* Scrolls a list just enough to show the selected row. */
int layout_list_top(int selected, int top, int count, int visible)
{
    if (visible <= 0)
        return 0;
    if (selected < top)
        top = selected;
    if (selected >= top + visible)
        top = selected - visible + 1;
    return layout_scroll_clamp(top, count, visible);
}

/* The length in bytes of the UTF-8 character starting at text (1 for a broken one). */
static size_t layout_char_len(const char *text, size_t len)
{
    unsigned char c = (unsigned char)text[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
    if (n > len)
        return 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

/* The longest prefix that fits in width columns. */
size_t layout_crop(const char *text, size_t len, int width, int *used)
{
    size_t i = 0;
    int columns = 0;
    while (i < len && text[i]) {
        size_t n = layout_char_len(text + i, len - i);
        int w = text_width(text + i, n);
        if (columns + w > width)
            break;
        columns += w;
        i += n;
    }
    if (used)
        *used = columns;
    return i;
}

/* Text cropped and padded to exactly width columns. */
size_t layout_fit(const char *text, int width, char *out, size_t size)
{
    if (size == 0)
        return 0;
    int used = 0;
    size_t n = layout_crop(text, strlen(text), width, &used);
    if (n > size - 1)
        n = layout_crop(text, size - 1, width, &used);
    memcpy(out, text, n);
    while (used < width && n + 1 < size) {
        out[n++] = ' ';
        used++;
    }
    out[n] = '\0';
    return n;
}

/* c with an ASCII capital made small; every other byte (UTF-8 included) as it is. */
static int layout_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* needle in text from byte from on, ASCII letters in either case. */
long layout_find(const char *text, size_t from, const char *needle)
{
    size_t n = strlen(needle), len = strlen(text);
    if (n == 0 || from > len)
        return -1;
    for (size_t i = from; i + n <= len; i++) {
        size_t k = 0;
        while (k < n && layout_lower((unsigned char)text[i + k]) == layout_lower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return (long)i;
    }
    return -1;
}
