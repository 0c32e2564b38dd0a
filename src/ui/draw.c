/*
 * draw.c - the drawing helpers every screen uses: text cropped by display columns (layout_crop),
 * frames, and box-drawing characters turned into ASCII for --ascii and non-UTF-8 terminals.
 */
#include <string.h>

#include "ui.h"

/* Box-drawing and symbol characters the layout uses, with their ASCII stand-ins. */
static const char *const draw_ascii_map[][2] = {
    {"│", "|"}, {"─", "-"}, {"┼", "+"}, {"┌", "+"}, {"┐", "+"}, {"└", "+"}, {"┘", "+"},
    {"•", "*"}, {"▶", ">"}, {"↑", "^"}, {"↓", "v"}, {"✓", "+"}, {"✗", "x"}, {"·", "-"}};

/* Copies text into out with the characters of draw_ascii_map replaced (out has size bytes). */
static const char *draw_to_ascii(const char *text, char *out, size_t size)
{
    size_t n = 0;
    while (*text && n + 1 < size) {
        const char *ascii = NULL;
        size_t len = 1;
        for (size_t i = 0; i < sizeof draw_ascii_map / sizeof draw_ascii_map[0]; i++) {
            size_t l = strlen(draw_ascii_map[i][0]);
            if (strncmp(text, draw_ascii_map[i][0], l) == 0) {
                ascii = draw_ascii_map[i][1];
                len = l;
                break;
            }
        }
        out[n++] = ascii ? ascii[0] : *text;
        text += len;
    }
    out[n] = '\0';
    return out;
}

/* Writes a span cropped to width columns; returns the columns it took. */
int draw_span(const ui_state *s, int y, int x, int width, const char *text, attr_t attr)
{
    char ascii[1024];
    if (width <= 0)
        return 0;
    if (s->ascii)
        text = draw_to_ascii(text, ascii, sizeof ascii);
    int used = 0;
    size_t n = layout_crop(text, strlen(text), width, &used);
    attrset(attr);
    mvaddnstr(y, x, text, (int)n);
    attrset(A_NORMAL);
    return used;
}

/* Writes text padded to exactly width columns. */
void draw_text(const ui_state *s, int y, int x, int width, const char *text, ui_role role)
{
    attr_t attr = theme_attr(role, s->color);
    int used = draw_span(s, y, x, width, text, attr);
    attrset(attr);
    for (int i = used; i < width; i++)
        mvaddch(y, x + i, ' ');
    attrset(A_NORMAL);
}

/* Fills a rectangle with spaces. */
void draw_clear(const ui_state *s, layout_rect r, ui_role role)
{
    for (int y = r.y; y < r.y + r.h; y++)
        draw_text(s, y, r.x, r.w, "", role);
}

/* Draws a frame on the edge of a rectangle. */
void draw_box(const ui_state *s, layout_rect r, ui_role role)
{
    if (r.w < 2 || r.h < 2)
        return;
    attr_t attr = theme_attr(role, s->color);
    const char *h = s->ascii ? "-" : "─", *v = s->ascii ? "|" : "│";
    const char *corners[4] = {"┌", "┐", "└", "┘"};
    for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
        draw_span(s, r.y, x, 1, h, attr);
        draw_span(s, r.y + r.h - 1, x, 1, h, attr);
    }
    for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
        draw_span(s, y, r.x, 1, v, attr);
        draw_span(s, y, r.x + r.w - 1, 1, v, attr);
    }
    draw_span(s, r.y, r.x, 1, corners[0], attr);
    draw_span(s, r.y, r.x + r.w - 1, 1, corners[1], attr);
    draw_span(s, r.y + r.h - 1, r.x, 1, corners[2], attr);
    draw_span(s, r.y + r.h - 1, r.x + r.w - 1, 1, corners[3], attr);
}
