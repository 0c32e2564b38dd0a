/*
 * screen_glossary.c - the glossary: every word of the kitchen beside its CUDA term.
 *
 * `w` on the home screen or in the reader opens it. The words are course data a teacher edits
 * like a lesson page: glossary.LANG.md beside the lesson folders (lessons/glossary.en.md and
 * lessons/glossary.ko.md), a Markdown table laid out by markdown_render for the terminal's width
 * (at most LAYOUT_TEXT_MAX) in the learner's language, English where that language has none.
 * The arrows and PgUp/PgDn scroll; a missing or broken file is said on the screen, never fatal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/screens.h"

/* The glossary's state: the file read and laid out, and the first line shown. */
typedef struct glossary_screen {
    md_doc doc;
    int width;     /* the width it was laid out for (laid out again when the terminal changes) */
    int top;
    char path[4200];
    char why[600]; /* why there is nothing to show ("" when the file was read) */
} glossary_screen;

/* Reads the glossary of the learner's language (else English) and lays it out width columns wide. */
static void glossary_layout(ui_state *s, glossary_screen *g, int width)
{
    markdown_free(&g->doc);
    g->why[0] = '\0';
    g->width = width;
    char *text = NULL;
    size_t size = 0;
    for (int i = 0; i < 2 && !text; i++) {
        i18n_lang lang = i == 0 ? i18n_current() : I18N_EN;
        snprintf(g->path, sizeof g->path, "%s/glossary.%s.md", s->lessons.root, i18n_code(lang));
        text = lesson_read_file(g->path, &size);
    }
    char problem[300];
    int line = text ? lesson_text_problem(text, size, problem, sizeof problem) : 0;
    if (!text)
        snprintf(g->why, sizeof g->why, _("The glossary cannot be read: %s (%s)."), g->path, strerror(errno));
    else if (line > 0)
        snprintf(g->why, sizeof g->why, _("The glossary is broken at line %d of %s: %s"), line, g->path, problem);
    else if (markdown_render(text, size, width, MD_TARGET_SCREEN, NULL, 0, &g->doc) != 0)
        snprintf(g->why, sizeof g->why, _("The glossary could not be laid out: %s"), g->path);
    free(text);
}

/* Opens the glossary (arg unused). */
static int glossary_open(ui_state *s, void *self, const void *arg)
{
    (void)arg;
    glossary_screen *g = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    glossary_layout(s, g, lr.body.w);
    return 0;
}

/* Frees the laid-out text. */
static void glossary_close(ui_state *s, void *self)
{
    (void)s;
    markdown_free(&((glossary_screen *)self)->doc);
}

/* Draws the title, the glossary from its top line, and the keys. */
static void glossary_draw(ui_state *s, void *self)
{
    glossary_screen *g = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    if (lr.body.w != g->width)
        glossary_layout(s, g, lr.body.w);
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, _(" Glossary: the kitchen's words and CUDA's"), UI_TITLE);
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w, _(" ↑↓ PgUp PgDn scroll   q back   ? help"), UI_TITLE);
    if (g->why[0]) {
        int y = lr.body.y;
        draw_text(s, y, lr.body.x, lr.body.w, g->why, UI_WRONG);
        return;
    }
    g->top = layout_scroll_clamp(g->top, g->doc.nlines, lr.body.h);
    for (int i = 0; i < lr.body.h && g->top + i < g->doc.nlines; i++)
        draw_md_line(s, lr.body.y + i, lr.body, &g->doc.lines[g->top + i], UI_TEXT);
}

/* The scrolling keys; q and Esc go back. */
static void glossary_key(ui_state *s, void *self, int key)
{
    glossary_screen *g = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    if (draw_scroll_key(key, &g->top, lr.body.h))
        return;
    if (key == 'q' || key == 27)
        ui_back(s);
}

/* The glossary's keys, for the help. */
static const char *const glossary_help[] = {
    N_("↑↓ PgUp PgDn    scroll (Home End: the top and the end)"),
    N_("q Esc           back"),
    NULL,
};

const ui_screen_class ui_screen_glossary = {
    .name = "glossary",
    .size = sizeof(glossary_screen),
    .open = glossary_open,
    .draw = glossary_draw,
    .key = glossary_key,
    .close = glossary_close,
    .help = glossary_help,
    .flags = UI_SCREEN_WHEEL,
};
