/*
 * screen_demo.c - a page's live demos from the reader: `r` cooks the page's demo. A demo of kind
 * run opens the kitchen (screen_kitchen.c), a race the bench screen (screen_bench.c: its sweep in
 * the background, drawn as a chart); every other kind (compare, clock, trips, walk, info) runs as
 * `cudachef run N --demo NAME` would and its report is shown here, scrolled with the reader's keys,
 * q going back. A page with several demos first asks which one (digits, or ↑↓ and
 * Enter). Every figure shown comes from the run just made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demos/demo.h"
#include "base/i18n.h"
#include "lessons/lesson_run.h"
#include "ui/ui.h"

/* The demos placed on the reader's page, up to max, into out; returns how many. */
static int demo_on_page(const ui_state *s, const lesson_demo **out, int max)
{
    const lesson *l = &s->lessons.lessons[s->reader.lesson];
    const lesson_item *it = &lesson_text_in(l, i18n_current())->items[s->reader.item];
    int n = 0;
    for (int i = 0; i < it->ndemos && n < max; i++) {
        const lesson_demo *d = lesson_demo_find(l, it->demos[i]);
        if (d)
            out[n++] = d;
    }
    return n;
}

/* Frees the report shown. */
void demo_output_close(ui_state *s)
{
    free(s->output.text);
    free(s->output.lines);
    memset(&s->output, 0, sizeof s->output);
}

/* Runs a demo of a kind the kitchen does not draw and shows its report. */
static void demo_output_open(ui_state *s, const lesson_demo *d)
{
    demo_output_close(s);
    erase();
    draw_text(s, 0, 0, COLS, lesson_demo_title(d, i18n_current()), UI_TITLE);
    draw_text(s, LINES / 2, 2, COLS - 4, _("cooking..."), UI_HEADING);
    refresh();
    size_t size = 0;
    FILE *out = open_memstream(&s->output.text, &size);
    if (!out) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to show the demo's report."));
        return;
    }
    demo_overrides none;
    memset(&none, 0, sizeof none);
    demo_sink sink = {out, NULL};
    const lesson *l = &s->lessons.lessons[s->reader.lesson];
    chef_error why;
    memset(&why, 0, sizeof why);
    int rc = lesson_run_demo_why(l, d, &none, &sink, &why);
    /* the error ends the report, where it can be read, unless the demo's report already says it
       (trips, clock and walk do) */
    if (rc > CHEF_EXIT_WRONG && why.message[0] && fflush(out) == 0 &&
        !(s->output.text && strstr(s->output.text, why.message))) {
        char text[1024];
        snprintf(text, sizeof text, "%s %s", _("The demo could not finish:"), why.message);
        demo_wrap(out, text, 0, 2, COLS > 20 ? COLS - 1 : 20);
        if (why.hint[0]) {
            snprintf(text, sizeof text, _("  hint: %s\n"), why.hint);
            text[strcspn(text, "\n")] = '\0';
            demo_wrap(out, text, 0, 4, COLS > 20 ? COLS - 1 : 20);
        }
    }
    if (fclose(out) != 0 || !s->output.text) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to show the demo's report."));
        return;
    }
    /* split into lines in place */
    int cap = 0;
    for (char *p = s->output.text; p && *p;) {
        if (s->output.nlines == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(s->output.lines, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            s->output.lines = grown;
        }
        s->output.lines[s->output.nlines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    s->output.demo = d;
    s->output.top = 0;
    s->screen = UI_SCREEN_OUTPUT;
    if (!s->classroom && rc <= CHEF_EXIT_WRONG) { /* a demo that ran to the end counts as run */
        const lesson *owner = lesson_of_demo(&s->lessons, d);
        if (owner)
            ui_progress_mark(s, "demo", owner, d->name);
    }
}

/* Cooks demo d: the kitchen for a run, the report screen for the others. */
static void demo_cook(ui_state *s, const lesson_demo *d)
{
    s->choosing = 0;
    if (d->kind == DEMO_RUN)
        kitchen_screen_open(s, d);
    else if (d->kind == DEMO_RACE)
        bench_screen_open(s, d);
    else
        demo_output_open(s, d);
}

/* `r` in the reader: the page's demo, or the question which one, or a word that there is none. */
void demo_page_key(ui_state *s)
{
    const lesson_demo *d[9];
    int n = demo_on_page(s, d, 9);
    if (n == 0)
        snprintf(s->message, sizeof s->message, "%s",
                 _(" This page has no live demo: pages with one say \"Live demo\"."));
    else if (n == 1)
        demo_cook(s, d[0]);
    else {
        s->choosing = 1;
        s->choice = 0;
    }
}

/* Draws the question "which demo?" over the reader. */
void demo_choose_draw(ui_state *s)
{
    const lesson_demo *d[9];
    int n = demo_on_page(s, d, 9);
    layout_rect screen = {0, 0, COLS, LINES};
    layout_rect box = layout_center(screen, 70, n + 6);
    draw_clear(s, box, UI_TEXT);
    draw_box(s, box, UI_BORDER);
    draw_text(s, box.y + 1, box.x + 2, box.w - 4, _("Which demo? (a digit, or ↑↓ and Enter; Esc cancels)"),
              UI_HEADING);
    for (int i = 0; i < n; i++) {
        char line[512];
        snprintf(line, sizeof line, " %d  %s", i + 1, lesson_demo_title(d[i], i18n_current()));
        draw_text(s, box.y + 3 + i, box.x + 2, box.w - 4, line, i == s->choice ? UI_SELECTED : UI_TEXT);
    }
}

/* Keys of the question "which demo?". */
void demo_choose_key(ui_state *s, int key)
{
    const lesson_demo *d[9];
    int n = demo_on_page(s, d, 9);
    if (key >= '1' && key < '1' + n)
        demo_cook(s, d[key - '1']);
    else if ((key == KEY_DOWN || key == 'j') && s->choice + 1 < n)
        s->choice++;
    else if ((key == KEY_UP || key == 'k') && s->choice > 0)
        s->choice--;
    else if (key == '\n' || key == '\r' || key == KEY_ENTER)
        demo_cook(s, d[s->choice < n ? s->choice : 0]);
    else if (key == 27 || key == 'q')
        s->choosing = 0;
}

/* Draws a demo's report. */
void demo_output_draw(ui_state *s)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    ui_output *o = &s->output;
    char line[512];
    snprintf(line, sizeof line, _(" Demo: %s"), o->demo ? lesson_demo_title(o->demo, i18n_current()) : "");
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    o->top = layout_scroll_clamp(o->top, o->nlines, lr.body.h);
    for (int row = 0; row < lr.body.h && o->top + row < o->nlines; row++) {
        const char *text = o->lines[o->top + row];
        ui_role role = strncmp(text, "=> ", 3) == 0 ? UI_HEADING : UI_TEXT;
        draw_text(s, lr.body.y + row, 0, COLS, text, role);
    }
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              _(" ↑↓ Space scroll   r run it again   q back   ? help"), UI_TITLE);
}

/* Keys of a demo's report: scrolling, r to run it again, q back to the reader. */
void demo_output_key(ui_state *s, int key)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    ui_output *o = &s->output;
    int page = lr.body.h > 2 ? lr.body.h - 1 : 1;
    if (draw_scroll_key(key, &o->top, page)) {
        o->top = layout_scroll_clamp(o->top, o->nlines, lr.body.h);
        return;
    }
    switch (key) {
    case 'r':
        if (o->demo)
            demo_output_open(s, o->demo);
        break;
    case 'q':
    case 27:
        demo_output_close(s);
        s->screen = UI_SCREEN_READER;
        break;
    default:
        break;
    }
    o->top = layout_scroll_clamp(o->top, o->nlines, lr.body.h);
}
