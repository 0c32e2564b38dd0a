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
#include "base/text.h"
#include "lessons/lesson_page.h"
#include "ui/reader.h"
#include "ui/screens.h"

/* The learner's answers, kept for the whole run so that a lesson opened again shows them: every
   lesson's items one lesson after another, each the choice picked (-1 none); NULL until the first
   lesson is opened. */
static int *reader_answers;

/* The text of a lesson in the learner's language (English when it has none). */
static const lesson_text *reader_text_of(const ui_state *s, int lesson_index)
{
    return lesson_text_in(&s->lessons.lessons[lesson_index], i18n_current());
}

/* The text of the lesson being read. */
static const lesson_text *reader_text(const ui_state *s, const reader_screen *r)
{
    return reader_text_of(s, r->lesson);
}

/* Where the learner's answer to an item of the lesson being read is kept; NULL when none is. */
static int *reader_answer(const ui_state *s, const reader_screen *r, int item)
{
    if (!reader_answers || item < 0 || item >= reader_text(s, r)->nitems)
        return NULL;
    int base = 0;
    for (int i = 0; i < r->lesson; i++)
        base += reader_text_of(s, i)->nitems;
    return &reader_answers[base + item];
}

/* The choice picked for an item of the lesson being read, -1 when none. */
static int reader_chosen(const ui_state *s, const reader_screen *r, int item)
{
    const int *a = reader_answer(s, r, item);
    return a ? *a : -1;
}

/* Frees the laid-out page and feedback. */
static void reader_forget(reader_screen *r)
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
int reader_layout_item(const ui_state *s, const reader_screen *r, int item, int width, md_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    const lesson_text *t = reader_text(s, r);
    if (item < 0 || item >= t->nitems)
        return 0;
    const lesson *l = &s->lessons.lessons[r->lesson];
    char *markdown = lesson_page_markdown(l, &t->items[item], 0, reader_chosen(s, r, item));
    reader_render(l, markdown, width, doc);
    free(markdown);
    return t->nitems;
}

/* Lays the current item (and a question's feedback) out for width columns, if not done yet. */
static void reader_layout(ui_state *s, reader_screen *r, int width)
{
    if (r->width == width)
        return;
    reader_forget(r);
    const lesson *l = &s->lessons.lessons[r->lesson];
    const lesson_item *it = &reader_text(s, r)->items[r->item];
    reader_layout_item(s, r, r->item, width, &r->doc);
    int choice = reader_chosen(s, r, r->item);
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
static int reader_total(const reader_screen *r)
{
    return r->doc.nlines + (r->feedback.nlines ? 1 + r->feedback.nlines : 0);
}

/* The first demo placed on the current page (of any kind: r cooks each), or NULL. */
static const lesson_demo *reader_page_demo(const ui_state *s, const reader_screen *r)
{
    const lesson *l = &s->lessons.lessons[r->lesson];
    const lesson_item *it = &reader_text(s, r)->items[r->item];
    for (int i = 0; i < it->ndemos; i++) {
        const lesson_demo *d = lesson_demo_find(l, it->demos[i]);
        if (d) /* any kind: r cooks a run, a comparison, a report alike */
            return d;
    }
    return NULL;
}

/* Shows lesson lesson_index where the learner left off, its questions answered as they were this
   run (the reader opening, or going on to the next lesson at the end of one). */
static void reader_switch(ui_state *s, reader_screen *r, int lesson_index)
{
    reader_forget(r);
    r->lesson = lesson_index;
    const lesson_text *t = reader_text(s, r);
    if (!reader_answers) { /* the first lesson opened: room for the answers of every lesson */
        size_t all = 0;
        for (int i = 0; i < s->lessons.count; i++)
            all += (size_t)reader_text_of(s, i)->nitems;
        reader_answers = malloc((all ? all : 1) * sizeof *reader_answers);
        for (size_t i = 0; reader_answers && i < all; i++)
            reader_answers[i] = -1;
    }
    const lesson *l = &s->lessons.lessons[lesson_index];
    int page = lesson_resume_page(l, &s->progress); /* where the learner left off */
    r->item = page >= 0 && page < t->nitems ? page : 0;
    r->top = 0;
    memset(&r->search, 0, sizeof r->search);
    r->search.item = r->search.line = -1;
    s->typing = 0;
    ui_progress_page(s, l, r->item, t->nitems);
}

/* Opens the reader on lesson *arg. */
static int reader_open(ui_state *s, void *self, const void *arg)
{
    int lesson_index = *(const int *)arg;
    if (lesson_index < 0 || lesson_index >= s->lessons.count || reader_text_of(s, lesson_index)->nitems == 0)
        return -1;
    reader_switch(s, self, lesson_index);
    return 0;
}

/* Frees the page laid out (the answers stay, for when the lesson is opened again). */
static void reader_close(ui_state *s, void *self)
{
    (void)s;
    reader_forget(self);
}

/* At the end of the program: the answers kept for every lesson. */
static void reader_finish(ui_state *s)
{
    (void)s;
    free(reader_answers);
    reader_answers = NULL;
}

/* Draws the current page or question. */
static void reader_draw(ui_state *s, void *self)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    reader_screen *r = self;
    reader_layout(s, r, lr.body.w);
    const lesson *l = &s->lessons.lessons[r->lesson];
    const lesson_text *t = reader_text(s, r);
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
            draw_md_line(s, lr.body.y + row, lr.body, &r->doc.lines[k], UI_TEXT);
            search_highlight(s, r, lr.body.y + row, lr.body, &r->doc.lines[k]);
        }
        else if (k > r->doc.nlines) {
            int right = it->choices[reader_chosen(s, r, r->item)].right;
            draw_md_line(s, lr.body.y + row, lr.body, &r->feedback.lines[k - r->doc.nlines - 1],
                             right ? UI_RIGHT : UI_WRONG);
        }
    }
    if (r->doc.nlines == 0)
        draw_text(s, lr.body.y, lr.body.x, lr.body.w, _("This page could not be laid out."), UI_WRONG);

    int chosen = reader_chosen(s, r, r->item);
    int exercises = ui_exercise_count(s, r->lesson) > 0; /* x opens them */
    const char *keys =
        it->kind == ITEM_QUESTION && chosen < 0
            ? _(" a b c... answer   n/p next/previous   ↑↓ scroll   q back   ? help")
        : it->kind == ITEM_QUESTION && chosen < it->nchoices && !it->choices[chosen].right
            ? _(" a b c... try another answer   n/p next/previous   ↑↓ scroll   q back   ? help")
        : reader_page_demo(s, r) && exercises
            ? _(" r cook the demo   x exercise   ↑↓ scroll   n/p page   q back   ? help")
        : reader_page_demo(s, r) ? _(" r cook the demo   Space/PgDn ↑↓ scroll   n/p page   q back   ? help")
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
    if (search_draw_footer(s, r, lr.footer))
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
static void reader_go(ui_state *s, reader_screen *r, int item)
{
    const lesson_text *t = reader_text(s, r);
    if (item < 0 || item >= t->nitems || item == r->item)
        return;
    reader_forget(r);
    r->item = item;
    r->top = 0;
    ui_progress_page(s, &s->lessons.lessons[r->lesson], item, t->nitems);
}

/* Moves the reader to item with line in view (a few lines below the top, for context). */
void reader_show(ui_state *s, reader_screen *r, int item, int line)
{
    reader_go(s, r, item);
    r->top = line > 2 ? line - 2 : 0;
}

/* `r`: the page's demo cooked, or the question which one (over the reader), or a word that there
   is none. */
static void reader_cook(ui_state *s, reader_screen *r)
{
    const lesson *l = &s->lessons.lessons[r->lesson];
    const lesson_item *it = &reader_text(s, r)->items[r->item];
    ui_demo_list list;
    list.n = 0;
    for (int i = 0; i < it->ndemos && list.n < UI_DEMO_LIST_MAX; i++) {
        const lesson_demo *d = lesson_demo_find(l, it->demos[i]);
        if (d)
            list.demos[list.n++] = d;
    }
    if (list.n == 0)
        snprintf(s->message, sizeof s->message, "%s",
                 _(" This page has no live demo: pages with one say \"Live demo\"."));
    else if (list.n == 1)
        ui_demo_cook(s, list.demos[0]);
    else
        ui_open(s, &ui_screen_demo_choice, &list);
}

/* Handles a key in the reader: a question's letters first, then scrolling and paging. */
static void reader_key(ui_state *s, void *self, int key)
{
    reader_screen *r = self;
    const lesson_item *it = &reader_text(s, r)->items[r->item];
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    int page = lr.body.h > 2 ? lr.body.h - 1 : 1;
    if (search_key(s, r, key))
        return;
    int *answer = reader_answer(s, r, r->item);
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
        if (r->item + 1 == reader_text(s, r)->nitems && r->lesson + 1 < s->lessons.count &&
            reader_text_of(s, r->lesson + 1)->nitems > 0) {
            reader_switch(s, r, r->lesson + 1); /* the lesson's end: on to the next lesson */
            return;
        }
        reader_go(s, r, r->item + 1);
        break;
    case 'p':
    case KEY_BTAB:
    case KEY_LEFT:
    case 'h':
        reader_go(s, r, r->item - 1);
        break;
    case 'r':
        reader_cook(s, r);
        return;
    case 'w': /* the glossary */
        ui_open(s, &ui_screen_glossary, NULL);
        break;
    case 'x':
        ui_exercise_ask(s, r->lesson);
        return;
    case 'q':
    case 27:
        ui_back(s); /* the answers stay, for when the lesson is opened again */
        return;
    default:
        break;
    }
    r->top = layout_scroll_clamp(r->top, reader_total(r), lr.body.h);
}

/* The reader's keys, for the help. */
static const char *const reader_help[] = {
    N_("↑↓ or j k       scroll"),
    N_("Space, PgDn     next screenful;  PgUp, b  previous"),
    N_("g G             top, bottom of the page"),
    N_("n, Tab, →       next page or question"),
    N_("p, Shift-Tab, ← previous page or question"),
    N_("a b c ...       answer a check question (again to change it)"),
    N_("/               search the lesson; then n N next, previous; Esc"),
    N_("r               cook the page's live demo"),
    N_("x               the lesson's exercise: a kernel to write"),
    N_("w               the glossary: the kitchen's words and CUDA's"),
    NULL,
};

const ui_screen_class ui_screen_reader = {
    .name = "reader",
    .size = sizeof(reader_screen),
    .open = reader_open,
    .draw = reader_draw,
    .key = reader_key,
    .close = reader_close,
    .finish = reader_finish,
    .help = reader_help,
    .flags = UI_SCREEN_WHEEL,
};
