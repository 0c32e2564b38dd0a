/*
 * reader_search.c - the reader's search, as in less and vim: `/` opens a prompt on the key line,
 * Enter finds the word on this or a later page or question of the lesson (wrapping round), n and
 * N move to the next and previous line that has it, Esc puts the search away. Matches are counted
 * by lines, and the key line says so ("line 2 of 7 with it"). The line moved to shows its matches
 * in reverse video, every other match on the screen is underlined. Letters match in either case;
 * Hangul and other text as typed.
 */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"
#include "ui/reader.h"

/* The text of a laid-out line, its spans joined, into out. */
static void search_line_text(const md_line *line, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < line->nspans && used + 1 < size; i++) {
        int n = snprintf(out + used, size - used, "%s", line->spans[i].text);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used >= size)
        out[size - 1] = '\0';
}

/* 1 when the laid-out line holds what is searched for. */
static int search_line_has(const md_line *line, const char *text)
{
    char buf[2048];
    search_line_text(line, buf, sizeof buf);
    return layout_find(buf, 0, text) >= 0;
}

/* The width the reader lays pages out for now. */
static int search_width(void)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    return lr.body.w;
}

/* Finds the next (dir 1) or previous (-1) matching line after (item, line), wrapping round the
   lesson; moves the reader there and counts the matches. 0, or -1 when the lesson has none. */
static int search_move(ui_state *s, reader_screen *r, int item, int line, int dir)
{
    reader_search *q = &r->search;
    int width = search_width();
    md_doc doc;
    int count = reader_layout_item(s, r, 0, width, &doc);
    markdown_free(&doc);
    /* every matching line of the lesson, in order, as (item, line) pairs */
    int found = 0, best = -1, best_item = -1, best_line = -1, first_item = -1, first_line = -1, last_item = -1,
        last_line = -1, k = 0;
    for (int i = 0; i < count; i++) {
        reader_layout_item(s, r, i, width, &doc);
        for (int l = 0; l < doc.nlines; l++) {
            if (!search_line_has(&doc.lines[l], q->text))
                continue;
            found++;
            if (first_item < 0)
                first_item = i, first_line = l, k = found;
            int after = i > item || (i == item && l > line);
            int before = i < item || (i == item && l < line);
            if (dir > 0 && after && best < 0)
                best = found, best_item = i, best_line = l;
            if (dir < 0 && before)
                best = found, best_item = i, best_line = l;
            last_item = i, last_line = l;
        }
        markdown_free(&doc);
    }
    q->found = found;
    if (found == 0) {
        q->index = 0;
        return -1;
    }
    if (best < 0) { /* wrap round */
        if (dir > 0)
            best = k, best_item = first_item, best_line = first_line;
        else
            best = found, best_item = last_item, best_line = last_line;
    }
    q->index = best;
    q->item = best_item;
    q->line = best_line;
    reader_show(s, r, best_item, best_line);
    return 0;
}

/* Removes the last character (all the bytes of a UTF-8 one) from text. */
static void search_backspace(char *text)
{
    size_t n = strlen(text);
    while (n > 0 && ((unsigned char)text[n - 1] & 0xC0) == 0x80)
        n--;
    if (n > 0)
        n--;
    text[n] = '\0';
}

/* Keys of the search: while typing, the prompt's; while active, n N and Esc; `/` opens it. */
int search_key(ui_state *s, reader_screen *r, int key)
{
    reader_search *q = &r->search;
    if (q->typing) {
        if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            q->typing = s->typing = 0;
            q->active = q->text[0] != '\0';
            /* start with the first match at or after the top line in view */
            if (q->active)
                search_move(s, r, r->item, r->top - 1, 1);
        } else if (key == 27) {
            q->typing = s->typing = 0;
        } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
            search_backspace(q->text);
        } else if (key >= ' ' && key <= 0xFF && key != 127) {
            size_t n = strlen(q->text);
            if (n + 1 < sizeof q->text) {
                q->text[n] = (char)key;
                q->text[n + 1] = '\0';
            }
        }
        return 1;
    }
    if (key == '/') {
        q->typing = s->typing = 1;
        q->active = 0;
        q->text[0] = '\0';
        return 1;
    }
    if (!q->active)
        return 0;
    switch (key) {
    case 'n':
        search_move(s, r, q->item >= 0 ? q->item : r->item, q->item >= 0 ? q->line : r->top, 1);
        return 1;
    case 'N':
        search_move(s, r, q->item >= 0 ? q->item : r->item, q->item >= 0 ? q->line : r->top, -1);
        return 1;
    case 27:
        q->active = 0;
        q->item = q->line = -1;
        return 1;
    default:
        return 0;
    }
}

/* The key line while the search speaks: the prompt, or where the match in view is. */
int search_draw_footer(ui_state *s, const reader_screen *r, layout_rect footer)
{
    const reader_search *q = &r->search;
    char line[512];
    if (q->typing) {
        snprintf(line, sizeof line, "/%s", q->text);
        draw_text(s, footer.y, footer.x, footer.w, line, UI_TITLE);
        int used = text_width(line, strlen(line));
        if (used < footer.w) { /* the cursor, drawn as a block so it shows without a real one */
            draw_span(s, footer.y, footer.x + used, 1, " ", theme_attr(UI_SELECTED, s->color) | A_REVERSE);
        }
        return 1;
    }
    if (!q->active)
        return 0;
    if (q->found == 0)
        snprintf(line, sizeof line, _(" '%s' is not in this lesson   / search again   Esc close"), q->text);
    else
        snprintf(line, sizeof line, _(" '%s': line %d of %d with it   n/N next/previous   / new search   Esc close"),
                 q->text, q->index, q->found);
    draw_text(s, footer.y, footer.x, footer.w, line, q->found ? UI_TITLE : UI_WRONG);
    return 1;
}

/* Draws the matches of what is searched for on a line drawn at row y, over the line: in reverse
   video and bold on the line moved to, underlined and bold on any other, each over the look the
   line gave it (code stays code, a marked line stays marked). */
void search_highlight(const ui_state *s, const reader_screen *r, int y, layout_rect body, const md_line *line)
{
    const reader_search *q = &r->search;
    if (!q->active || !q->text[0])
        return;
    int current = q->item == r->item && q->line >= 0 && q->line < r->doc.nlines && line == &r->doc.lines[q->line];
    char buf[2048];
    search_line_text(line, buf, sizeof buf);
    size_t n = strlen(q->text);
    for (long at = layout_find(buf, 0, q->text); at >= 0; at = layout_find(buf, (size_t)at + n, q->text)) {
        int x = body.x + text_width(buf, (size_t)at);
        if (x >= body.x + body.w)
            break;
        char match[256];
        snprintf(match, sizeof match, "%.*s", (int)(n < sizeof match ? n : sizeof match - 1), buf + at);
        attr_t under = (attr_t)(mvinch(y, x) & A_ATTRIBUTES);
        /* reverse is flipped, not added, so that it shows on a line already in reverse (a mark) */
        attr_t attr = current ? (under ^ A_REVERSE) | A_BOLD : under | A_UNDERLINE | A_BOLD;
        draw_span(s, y, x, body.x + body.w - x, match, attr);
    }
}
