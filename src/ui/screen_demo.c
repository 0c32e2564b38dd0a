/*
 * screen_demo.c - a page's live demos from the reader: `r` cooks the page's demo. A demo of kind
 * run opens the kitchen (screen_kitchen.c), a race the bench screen (screen_bench.c: its sweep,
 * drawn as a chart); every other kind (compare, clock, trips, walk, info) runs as `cudachef run N
 * --demo NAME` would, as a job, and its report is shown on the report screen here, scrolled with
 * the reader's keys, q going back. A page with several demos first asks which one, over the
 * reader (the demo_choice screen: digits, or ↑↓ and Enter). Every figure shown comes from the run
 * just made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "demos/demo.h"
#include "lessons/lesson_run.h"
#include "ui/screens.h"

/* A demo's run as the report screen's job makes it: the report in text, wrapped for cols. */
typedef struct report_run {
    const lesson *lesson;
    const lesson_demo *demo;
    int cols;
    char *text;     /* the whole report (open_memstream's); NULL when it could not be made */
    size_t size;
    int code;       /* lesson_run_demo_why's exit code */
} report_run;

/* The report screen's own state: the demo, its run (a job, which owns the report) and the report's
   lines, cut in place in the job's text once it has finished. */
/* One row of the report as drawn: a piece of one of its lines. */
typedef struct report_row {
    const char *text;
    size_t len;
    int indent;  /* columns before it (a wrapped line's rows after its first) */
    int heading; /* the line is a heading ("=> ...") */
} report_row;

typedef struct report_screen {
    const lesson_demo *demo;
    job *run;
    char **lines;
    int nlines, top;
    int rows;       /* the rows the lines took when last drawn (wrapped to the width) */
    int taken;      /* the finished run's report was cut into lines (and the demo recorded) */
} report_screen;

/* Frees a run's report (the job's data). */
static void report_run_free(void *data)
{
    report_run *r = data;
    if (r)
        free(r->text);
    free(r);
}

/* The job: runs the demo as `cudachef run` would, into a text report; the error, if it has one
   that the report does not already say (trips, clock and walk do), ends it where it can be read. */
static int report_work(job *j, void *data)
{
    report_run *r = data;
    FILE *out = open_memstream(&r->text, &r->size);
    if (!out)
        return r->code = CHEF_EXIT_ENVIRONMENT;
    demo_overrides none;
    memset(&none, 0, sizeof none);
    none.p.cancel = job_token(j); /* Esc stops the demo between its runs and its kitchen's steps */
    demo_sink sink = {out, NULL};
    chef_error why;
    memset(&why, 0, sizeof why);
    r->code = lesson_run_demo_why(r->lesson, r->demo, &none, &sink, &why);
    if (r->code > CHEF_EXIT_WRONG && why.message[0] && fflush(out) == 0 && !(r->text && strstr(r->text, why.message))) {
        char text[1024];
        snprintf(text, sizeof text, "%s %s", _("The demo could not finish:"), why.message);
        demo_wrap(out, text, 0, 2, r->cols > 20 ? r->cols - 1 : 20);
        if (why.hint[0]) {
            snprintf(text, sizeof text, _("  hint: %s\n"), why.hint);
            text[strcspn(text, "\n")] = '\0';
            demo_wrap(out, text, 0, 4, r->cols > 20 ? r->cols - 1 : 20);
        }
    }
    if (fclose(out) != 0) {
        free(r->text);
        r->text = NULL;
    }
    return r->code;
}

/* Starts the demo's run (again), forgetting the report shown. */
static void report_start(ui_state *s, report_screen *rs)
{
    job_free(rs->run);
    free(rs->lines);
    rs->run = NULL;
    rs->lines = NULL;
    rs->nlines = rs->top = rs->taken = 0;
    report_run *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to show the demo's report."));
        return;
    }
    r->lesson = lesson_of_demo(&s->lessons, rs->demo);
    r->demo = rs->demo;
    r->cols = COLS;
    char what[300];
    snprintf(what, sizeof what, _("cooking %s"), rs->demo->name);
    rs->run = ui_job_start(s, what, report_work, r, report_run_free);
}

/* Opens the report screen on demo arg and starts its run. */
static int report_open(ui_state *s, void *self, const void *arg)
{
    report_screen *rs = self;
    rs->demo = arg;
    report_start(s, rs);
    return rs->run ? 0 : -1;
}

/* Frees the report and its run (a run still going is stopped and let go). */
static void report_close(ui_state *s, void *self)
{
    (void)s;
    report_screen *rs = self;
    job_free(rs->run);
    free(rs->lines);
}

/* Once the run has finished: its report cut into lines, and the demo recorded as run when it ran
   to its end. 1 when the screen must be drawn again. */
static int report_wake(ui_state *s, void *self, int readable)
{
    (void)readable;
    report_screen *rs = self;
    if (!rs->run || job_running(rs->run) || rs->taken)
        return 0;
    rs->taken = 1;
    report_run *r = job_data(rs->run);
    if (!r->text) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to show the demo's report."));
        return 1;
    }
    int cap = 0;
    for (char *p = r->text; *p;) {
        if (rs->nlines == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(rs->lines, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            rs->lines = grown;
        }
        rs->lines[rs->nlines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    if (!s->classroom && r->code <= CHEF_EXIT_WRONG && r->lesson) /* a demo that ran to the end counts as run */
        ui_progress_mark(s, "demo", r->lesson, rs->demo->name);
    return 1;
}

/* The job the report screen waits for. */
static job *report_running(const void *self)
{
    return ((const report_screen *)self)->run;
}

/* Draws a demo's report, or the run while it cooks. */
static void report_draw(ui_state *s, void *self)
{
    report_screen *rs = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    char line[512];
    snprintf(line, sizeof line, _(" Demo: %s"), lesson_demo_title(rs->demo, i18n_current()));
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    if (job_running(rs->run)) {
        ui_job_draw_body(s, rs->run, lr.body);
        ui_job_draw(s, rs->run, lr.footer);
        return;
    }
    /* each line wrapped at spaces to the terminal's width (never cut mid-word), the rows after
       its first indented as it is, two more */
    int rows = 0, cap = 0;
    report_row *row = NULL;
    for (int i = 0; i < rs->nlines; i++) {
        const char *text = rs->lines[i];
        int indent = (int)strspn(text, " ");
        for (const char *p = text; *p || p == text;) {
            int width = COLS - (p == text ? 0 : indent + 2), used = 0;
            size_t len = strlen(p), cut = layout_crop(p, len, width > 8 ? width : 8, &used);
            if (cut < len) { /* back to the last space that fits */
                size_t space = cut;
                while (space > 0 && p[space] != ' ')
                    space--;
                if (space > (p == text ? (size_t)indent : 0))
                    cut = space;
            }
            if (rows == cap) {
                cap = cap ? 2 * cap : 128;
                report_row *grown = realloc(row, (size_t)cap * sizeof *grown);
                if (!grown)
                    break;
                row = grown;
            }
            row[rows++] = (report_row){p, cut, p == text ? 0 : indent + 2, strncmp(text, "=> ", 3) == 0};
            p += cut;
            while (*p == ' ')
                p++;
            if (!*p)
                break;
        }
    }
    rs->top = layout_scroll_clamp(rs->top, rows, lr.body.h);
    for (int r = 0; r < lr.body.h && rs->top + r < rows; r++) {
        const report_row *w = &row[rs->top + r];
        char text[2048];
        snprintf(text, sizeof text, "%.*s", (int)w->len, w->text);
        draw_text(s, lr.body.y + r, w->indent, COLS - w->indent, text, w->heading ? UI_HEADING : UI_TEXT);
    }
    rs->rows = rows;
    free(row);
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              rs->demo->kind == DEMO_COMPARE ? _(" ↑↓ Space scroll   r run it again   a memory of each recipe   q back   ? help")
                                             : _(" ↑↓ Space scroll   r run it again   q back   ? help"),
              UI_TITLE);
}

/* Keys of a demo's report: scrolling, r to run it again, q back to the reader; while it cooks, Esc
   stops it. */
static void report_key(ui_state *s, void *self, int key)
{
    report_screen *rs = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    if (job_running(rs->run)) {
        if (key == 27)
            job_cancel(rs->run);
        else if (key == 'q')
            ui_back(s);
        return;
    }
    int page = lr.body.h > 2 ? lr.body.h - 1 : 1;
    if (draw_scroll_key(key, &rs->top, page)) {
        rs->top = layout_scroll_clamp(rs->top, rs->rows > rs->nlines ? rs->rows : rs->nlines, lr.body.h);
        return;
    }
    switch (key) {
    case 'r':
        report_start(s, rs);
        return;
    case 'a': /* a comparison's recipes in the memory view (lesson 5's mappings, lesson 6's tiles) */
        if (rs->demo->kind == DEMO_COMPARE) {
            demo_overrides none;
            memset(&none, 0, sizeof none);
            demo_params dp;
            lesson_demo_params(rs->demo, &none, 1, &dp, NULL); /* the emulator's size: it counts */
            ui_memory_arg m = {.params = dp.run};
            for (int i = 0; i < dp.nrecipes && m.nrecipes < UI_MEMORY_RECIPES; i++)
                m.recipes[m.nrecipes++] = dp.recipes[i];
            ui_open(s, &ui_screen_memory, &m);
        } else {
            snprintf(s->message, sizeof s->message, "%s", _(" The memory view opens on a comparison's recipes."));
        }
        return;
    case 'q':
    case 27:
        ui_back(s);
        return;
    default:
        break;
    }
    rs->top = layout_scroll_clamp(rs->top, rs->rows > rs->nlines ? rs->rows : rs->nlines, lr.body.h);
}

/* The report screen's keys, for the help. */
static const char *const report_help[] = {
    N_("↑↓ Space PgDn   scroll the report"),
    N_("r               run the demo again"),
    N_("a               a comparison: each recipe's warps in the memory view"),
    NULL,
};

const ui_screen_class ui_screen_report = {
    .name = "report",
    .size = sizeof(report_screen),
    .open = report_open,
    .draw = report_draw,
    .key = report_key,
    .close = report_close,
    .wake = report_wake,
    .running = report_running,
    .help = report_help,
    .flags = UI_SCREEN_WHEEL,
};

/* Cooks demo d: the kitchen for a run, the bench for a race, the report screen for the others. */
void ui_demo_cook(ui_state *s, const lesson_demo *d)
{
    if (d->kind == DEMO_RUN)
        ui_open(s, &ui_screen_kitchen, d);
    else if (d->kind == DEMO_RACE)
        ui_open(s, &ui_screen_bench, d);
    else
        ui_open(s, &ui_screen_report, d);
}

/* The question "which demo?": the page's demos and the one under the cursor. */
typedef struct demo_choice_screen {
    ui_demo_list list;
    int choice;
} demo_choice_screen;

/* Opens the question on the demos of arg (a ui_demo_list). */
static int demo_choice_open(ui_state *s, void *self, const void *arg)
{
    (void)s;
    demo_choice_screen *c = self;
    c->list = *(const ui_demo_list *)arg;
    return 0;
}

/* Draws the question "which demo?" over the reader. */
static void demo_choice_draw(ui_state *s, void *self)
{
    demo_choice_screen *c = self;
    char text[UI_DEMO_LIST_MAX][512];
    const char *lines[UI_DEMO_LIST_MAX];
    for (int i = 0; i < c->list.n; i++) {
        snprintf(text[i], sizeof text[i], " %d  %s", i + 1, lesson_demo_title(c->list.demos[i], i18n_current()));
        lines[i] = text[i];
    }
    draw_choice(s, 70, _("Which demo? (a digit, or ↑↓ and Enter; Esc cancels)"), lines, c->list.n, c->choice);
}

/* Keys of the question "which demo?": the demo chosen is cooked, the question closed. */
static void demo_choice_key(ui_state *s, void *self, int key)
{
    demo_choice_screen *c = self;
    int chosen = draw_choice_key(key, c->list.n, &c->choice);
    if (chosen == -2) {
        ui_back(s);
    } else if (chosen >= 0) {
        const lesson_demo *d = c->list.demos[chosen];
        ui_back(s);
        ui_demo_cook(s, d);
    }
}

const ui_screen_class ui_screen_demo_choice = {
    .name = "demo_choice",
    .size = sizeof(demo_choice_screen),
    .open = demo_choice_open,
    .draw = demo_choice_draw,
    .key = demo_choice_key,
    .flags = UI_SCREEN_OVERLAY,
};
