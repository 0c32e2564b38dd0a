/*
 * screen_reader.c - the reader: a lesson's pages and check questions, one at a time.
 *
 * Each page is the Markdown of lesson_page_markdown (the same words `cudachef read` prints), laid
 * out by markdown_render for the text's width with MD_TARGET_SCREEN and drawn with the theme:
 * headings, inline code and the kernel lines that matter stand out, tables come as laid out.
 * A question is answered in place: a letter picks a choice, which is marked in the list, and the
 * verdict and that choice's explanation appear below it; after a wrong one, another letter tries
 * again. Answers are kept for the whole run, so a lesson opened again shows them. x opens the
 * lesson's exercise (screen_exercise.c), and the keys line says so when the lesson has one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "lessons/lesson_page.h"
#include "ui/ui.h"
#include "base/text.h"

/* The text of a lesson in the learner's language (English when it has none). */
static const lesson_text *reader_text_of(const ui_state *s, int lesson_index)
{
    return lesson_text_in(&s->lessons.lessons[lesson_index], i18n_current());
}

/* The text of the lesson being read. */
static const lesson_text *reader_text(const ui_state *s)
{
    return reader_text_of(s, s->reader.lesson);
}

/* Where the learner's answer to an item of the lesson being read is kept: r->answers holds every
   lesson's items one lesson after another, so answers last the whole run; NULL when none is kept. */
static int *reader_answer(const ui_state *s, int item)
{
    if (!s->reader.answers || item < 0 || item >= reader_text(s)->nitems)
        return NULL;
    int base = 0;
    for (int i = 0; i < s->reader.lesson; i++)
        base += reader_text_of(s, i)->nitems;
    return &s->reader.answers[base + item];
}

/* The choice picked for an item of the lesson being read, -1 when none. */
static int reader_chosen(const ui_state *s, int item)
{
    const int *a = reader_answer(s, item);
    return a ? *a : -1;
}

/* Frees the laid-out page and feedback. */
static void reader_forget(ui_reader *r)
{
    markdown_free(&r->doc);
    markdown_free(&r->feedback);
    memset(&r->doc, 0, sizeof r->doc);
    memset(&r->feedback, 0, sizeof r->feedback);
    r->width = 0;
}

/* Lays markdown out into doc for width columns; an empty document when it cannot be. */
static void reader_render(const lesson *l, const char *markdown, int width, md_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    if (markdown && markdown_render(markdown, strlen(markdown), width, MD_TARGET_SCREEN, l->marks, l->nmarks, doc) != 0) {
        markdown_free(doc);
        memset(doc, 0, sizeof *doc);
    }
}

/* Lays out one item of the lesson being read. */
int reader_layout_item(const ui_state *s, int item, int width, md_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    const lesson_text *t = reader_text(s);
    if (item < 0 || item >= t->nitems)
        return 0;
    const lesson *l = &s->lessons.lessons[s->reader.lesson];
    char *markdown = lesson_page_markdown(l, &t->items[item], 0, reader_chosen(s, item));
    reader_render(l, markdown, width, doc);
    free(markdown);
    return t->nitems;
}

/* Lays the current item (and a question's feedback) out for width columns, if not done yet. */
static void reader_layout(ui_state *s, int width)
{
    ui_reader *r = &s->reader;
    if (r->width == width)
        return;
    reader_forget(r);
    const lesson *l = &s->lessons.lessons[r->lesson];
    const lesson_item *it = &reader_text(s)->items[r->item];
    reader_layout_item(s, r->item, width, &r->doc);
    int choice = reader_chosen(s, r->item);
    if (it->kind == ITEM_QUESTION && choice >= 0 && choice < it->nchoices) {
        const lesson_choice *ch = &it->choices[choice];
        char *feedback = NULL;
        /* the explanation starts with its own verdict ("Right: ...", "No: ..."): only the mark */
        if (asprintf(&feedback, "**%s %c)** %s", ch->right ? "✓" : "✗", 'a' + choice,
                     ch->explanation ? ch->explanation : "") < 0)
            feedback = NULL;
        reader_render(l, feedback, width, &r->feedback);
        free(feedback);
    }
    r->width = width;
}

/* The number of lines the item takes: the page, then a blank line and the feedback. */
static int reader_total(const ui_reader *r)
{
    return r->doc.nlines + (r->feedback.nlines ? 1 + r->feedback.nlines : 0);
}

/* The attributes of a span from its Markdown style, over a base role. */
static attr_t reader_attr(const ui_state *s, int style, ui_role base)
{
    ui_role role = base;
    if (style & MD_STYLE_MARK)
        role = UI_MARK;
    else if (style & MD_STYLE_HEADING)
        role = UI_HEADING;
    else if (style & MD_STYLE_CODE)
        role = UI_CODE;
    else if (style & MD_STYLE_LINK)
        role = UI_LINK;
    else if (style & MD_STYLE_TABLE_HEAD)
        role = UI_TABLE_HEAD;
    else if (style & MD_STYLE_RULE)
        role = UI_RULE;
    else if (style & MD_STYLE_QUOTE)
        role = UI_QUOTE;
    attr_t attr = theme_attr(role, s->color);
    if (style & MD_STYLE_STRONG)
        attr |= A_BOLD;
    if (style & MD_STYLE_EMPH)
        attr |= A_UNDERLINE;
    return attr;
}

/* Draws one laid-out line; a marked line is highlighted across the whole width. */
void reader_draw_line(const ui_state *s, int y, layout_rect body, const md_line *line, ui_role base)
{
    if (line->style & MD_STYLE_MARK)
        draw_text(s, y, body.x, body.w, "", UI_MARK);
    int x = body.x;
    for (int i = 0; i < line->nspans && x < body.x + body.w; i++)
        x += draw_span(s, y, x, body.x + body.w - x, line->spans[i].text,
                       reader_attr(s, line->spans[i].style | line->style, base));
}

/* The first demo of kind run placed on the current page, or NULL. */
static const lesson_demo *reader_run_demo(const ui_state *s)
{
    const lesson *l = &s->lessons.lessons[s->reader.lesson];
    const lesson_item *it = &reader_text(s)->items[s->reader.item];
    for (int i = 0; i < it->ndemos; i++) {
        const lesson_demo *d = lesson_demo_find(l, it->demos[i]);
        if (d && d->kind == DEMO_RUN)
            return d;
    }
    return NULL;
}

/* Opens a lesson where the learner left off, its questions answered as they were this run. */
void reader_open(ui_state *s, int lesson_index)
{
    ui_reader *r = &s->reader;
    reader_forget(r);
    r->lesson = lesson_index;
    const lesson_text *t = reader_text(s);
    if (t->nitems == 0)
        return;
    if (!r->answers) { /* the first lesson opened: room for the answers of every lesson */
        size_t all = 0;
        for (int i = 0; i < s->lessons.count; i++)
            all += (size_t)reader_text_of(s, i)->nitems;
        r->answers = malloc(all * sizeof *r->answers);
        for (size_t i = 0; r->answers && i < all; i++)
            r->answers[i] = -1;
    }
    const lesson *l = &s->lessons.lessons[lesson_index];
    int page = progress_page_of(&s->progress, l->slug); /* where the learner left off */
    r->item = page >= 0 && page < t->nitems ? page : 0;
    r->top = 0;
    memset(&r->search, 0, sizeof r->search);
    r->search.item = r->search.line = -1;
    s->screen = UI_SCREEN_READER;
    ui_progress_page(s, l, r->item, t->nitems);
}

/* Frees the reader's lesson and the answers kept for every lesson (when the program ends). */
void reader_close(ui_state *s)
{
    reader_forget(&s->reader);
    free(s->reader.answers);
    s->reader.answers = NULL;
}

/* Draws the current page or question. */
void reader_draw(ui_state *s)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    ui_reader *r = &s->reader;
    reader_layout(s, lr.body.w);
    const lesson *l = &s->lessons.lessons[r->lesson];
    const lesson_text *t = reader_text(s);
    const lesson_item *it = &t->items[r->item];
    i18n_lang lang = i18n_current();
    char line[512], where[64];
    snprintf(line, sizeof line, _(" Lesson %d: %s"), l->number, lesson_title(l, lang));
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    snprintf(where, sizeof where, " %d/%d ", r->item + 1, t->nitems);
    int wide = (int)strlen(where);
    if (wide < lr.title.w)
        draw_span(s, lr.title.y, lr.title.x + lr.title.w - wide, wide, where, theme_attr(UI_TITLE, s->color));

    int total = reader_total(r);
    r->top = layout_scroll_clamp(r->top, total, lr.body.h);
    for (int row = 0; row < lr.body.h && r->top + row < total; row++) {
        int k = r->top + row;
        if (k < r->doc.nlines) {
            reader_draw_line(s, lr.body.y + row, lr.body, &r->doc.lines[k], UI_TEXT);
            search_highlight(s, lr.body.y + row, lr.body, &r->doc.lines[k]);
        }
        else if (k > r->doc.nlines) {
            int right = it->choices[reader_chosen(s, r->item)].right;
            reader_draw_line(s, lr.body.y + row, lr.body, &r->feedback.lines[k - r->doc.nlines - 1],
                             right ? UI_RIGHT : UI_WRONG);
        }
    }
    if (r->doc.nlines == 0)
        draw_text(s, lr.body.y, lr.body.x, lr.body.w, _("This page could not be laid out."), UI_WRONG);

    int chosen = reader_chosen(s, r->item);
    int exercises = exercise_screen_count(s, r->lesson) > 0; /* x opens them */
    const char *keys =
        it->kind == ITEM_QUESTION && chosen < 0
            ? _(" a b c... answer   n/p next/previous   ↑↓ scroll   q back   ? help")
        : it->kind == ITEM_QUESTION && chosen < it->nchoices && !it->choices[chosen].right
            ? _(" a b c... try another answer   n/p next/previous   ↑↓ scroll   q back   ? help")
        : reader_run_demo(s) && exercises
            ? _(" r cook the demo   x exercise   ↑↓ scroll   n/p page   q back   ? help")
        : reader_run_demo(s) ? _(" r cook the demo   Space/PgDn ↑↓ scroll   n/p page   q back   ? help")
        : exercises          ? _(" x exercise   Space/PgDn ↑↓ scroll   n/p next/previous page   q back   ? help")
                             : _(" Space/PgDn ↑↓ scroll   n/p next/previous page   q back   ? help");
    /* the lesson's end, once its last question is answered: say what comes next */
    char end[300];
    int last = r->item + 1 == t->nitems && (it->kind != ITEM_QUESTION || chosen >= 0);
    if (last && r->lesson + 1 < s->lessons.count)
        snprintf(end, sizeof end,
                 exercises ? _(" End of lesson %d: x its exercise   n lesson %d   q the lessons   ? help")
                           : _(" End of lesson %d: n lesson %d   q the lessons   ? help"),
                 l->number, s->lessons.lessons[r->lesson + 1].number);
    else if (last)
        snprintf(end, sizeof end,
                 exercises ? _(" End of the last lesson: x its exercise   q the lessons   ? help")
                           : _(" End of the last lesson: q the lessons   ? help"));
    if (last)
        keys = end;
    if (search_draw_footer(s, lr.footer))
        return;
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w, keys, UI_TITLE);
    if (r->top + lr.body.h < total) {
        const char *more = _(" ↓ more ");
        int w = text_width(more, strlen(more));
        if (w < lr.footer.w)
            draw_span(s, lr.footer.y, lr.footer.x + lr.footer.w - w, w, more, theme_attr(UI_TITLE, s->color));
    }
}

/* Moves to another page or question. */
static void reader_go(ui_state *s, int item)
{
    const lesson_text *t = reader_text(s);
    if (item < 0 || item >= t->nitems || item == s->reader.item)
        return;
    reader_forget(&s->reader);
    s->reader.item = item;
    s->reader.top = 0;
    ui_progress_page(s, &s->lessons.lessons[s->reader.lesson], item, t->nitems);
}

/* Moves the reader to item with line in view (a few lines below the top, for context). */
void reader_show(ui_state *s, int item, int line)
{
    reader_go(s, item);
    s->reader.top = line > 2 ? line - 2 : 0;
}

/* Handles a key in the reader: a question's letters first, then scrolling and paging. */
void reader_key(ui_state *s, int key)
{
    ui_reader *r = &s->reader;
    const lesson_item *it = &reader_text(s)->items[r->item];
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    int page = lr.body.h > 2 ? lr.body.h - 1 : 1;
    if (search_key(s, key))
        return;
    int *answer = reader_answer(s, r->item);
    if (it->kind == ITEM_QUESTION && answer && key >= 'a' && key < 'a' + it->nchoices) {
        *answer = key - 'a';
        r->width = 0;
        r->top = 1 << 20; /* the feedback is at the end: scroll to it (clamped when drawn) */
        return;
    }
    if (draw_scroll_key(key, &r->top, page)) {
        r->top = layout_scroll_clamp(r->top, reader_total(r), lr.body.h);
        return;
    }
    switch (key) {
    case 'n':
    case '\t':
    case KEY_RIGHT:
    case 'l':
        if (r->item + 1 == reader_text(s)->nitems && r->lesson + 1 < s->lessons.count) {
            reader_open(s, r->lesson + 1); /* the lesson's end: on to the next lesson */
            return;
        }
        reader_go(s, r->item + 1);
        break;
    case 'p':
    case KEY_BTAB:
    case KEY_LEFT:
    case 'h':
        reader_go(s, r->item - 1);
        break;
    case 'r':
        demo_page_key(s);
        return;
    case 'x':
        exercise_screen_ask(s, r->lesson);
        return;
    case 'q':
    case 27:
        reader_forget(r); /* the answers stay, for when the lesson is opened again */
        s->screen = UI_SCREEN_HOME;
        break;
    default:
        break;
    }
    r->top = layout_scroll_clamp(r->top, reader_total(r), lr.body.h);
}
