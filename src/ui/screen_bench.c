/*
 * screen_bench.c - the bench screen: the matrix-multiply sweep of the fair race, run on this machine
 * now, drawn as a log-log chart with the crossovers and a table.
 *
 * `b` on the home screen sweeps every rung of the recipe ladder (recipe_ladder) against the CPU
 * loop and CPU BLAS over the sizes of lesson 7's race demo (32 to 4096 on a GPU, 32 to 128 on the
 * emulator); `r` on that demo's page sweeps the demo's own contenders. The sweep is race_run
 * (race.h), the same one `cudachef bench` and the lesson run, as a job (ui/jobs.c), so the
 * interface stays responsive: the job owns its parameters and result, tells the loop where it is
 * through the race's progress callback (a copy under the sweep's mutex, then a byte on the loop's
 * self-pipe), and the screen reads the result once the job has finished. While it runs the screen
 * shows the size and the contender being measured and how many measurements of the sweep have
 * begun. q asks it to stop after the measurement under way and goes back once it has.
 *
 * The result is drawn with chart.h's layout (the same as the text report's chart): time against n,
 * both on log scales, one letter and colour per contender, with its legend; then the crossovers
 * (the size from which the fastest recipe beats CPU BLAS, race.h) and a table of every measurement,
 * scrolled with the arrows. s switches between cooking time only and time with the shipments.
 * Every figure comes from this sweep; the emulator is named when it cooked.
 *
 * CUDACHEF_BENCH_DELAY_MS makes every measurement start that much later, as on a slower machine:
 * the tests use it to see the progress and to stop a sweep midway.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/chart.h"
#include "base/i18n.h"
#include "base/text.h"
#include "demos/race.h"
#include "engine/recipes.h"
#include "lessons/lesson_run.h"
#include "ui/screens.h"

#define BENCH_LABEL_W 9  /* the chart's y labels ("12.3 ms") */
#define BENCH_NAME_W 18  /* the table's contender names */

/* A sweep, the bench's job's data. The screen fills the parameters before the job starts; the job
   writes progress, measured, total and who under the lock, and result, code and err before it
   ends; the screen reads those only once the job has finished. */
typedef struct bench_sweep {
    demo_params params[2];           /* [0] when a GPU cooks, [1] on the emulator */
    char recipes[DEMO_MAX_RECIPES][64]; /* the contenders' names, the job's own copy */
    pthread_mutex_t lock;
    char progress[200];              /* the race's last word (lock) */
    int measured, total;             /* measurements begun, and in the sweep (lock) */
    char who[300];                   /* the GPU's name; "" for the emulator (lock) */
    int who_known;                   /* who was set (lock) */
    const chef_cancel *cancel;       /* the job's token */
    race_result *result;
    int code;
    chef_error err;
} bench_sweep;

/* Sweeps whose job has not ended yet (a stopped one finishes its measurement first): a new sweep
   waits for them, so that two never race each other for the CPU. */
static atomic_int bench_sweeps_running;

/* The bench screen's own state. */
typedef struct bench_screen {
    const lesson_demo *demo;    /* the lesson's race demo it runs; NULL: the recipe ladder (home) */
    job *sweep;                 /* the sweep (its job owns the result) */
    int stopping;               /* q was pressed while it ran: back once it stops */
    int taken;                  /* the finished sweep was seen (and its demo recorded) */
    int shipping;               /* the chart and the crossover line show times with shipping */
    int top;                    /* the table's first line shown */
} bench_screen;

/* The finished sweep, or NULL while it runs. */
static const bench_sweep *bench_done(const bench_screen *b)
{
    return b->sweep && !job_running(b->sweep) ? job_data(b->sweep) : NULL;
}

/* The colour roles the contenders take in turn (their letters tell them apart without colour). */
static const ui_role bench_roles[] = {UI_DIM, UI_TEXT, UI_MARK, UI_LINK, UI_RIGHT, UI_HEADING, UI_CODE, UI_QUOTE};

/* The role of contender c's mark. */
static ui_role bench_role(int c)
{
    return bench_roles[c % (int)(sizeof bench_roles / sizeof bench_roles[0])];
}

/* CUDACHEF_BENCH_DELAY_MS: waits that long before a measurement (in short naps, so a stop asked
   meanwhile is seen at once). */
static void bench_delay(const bench_sweep *w)
{
    const char *text = getenv("CUDACHEF_BENCH_DELAY_MS");
    long ms = text ? strtol(text, NULL, 10) : 0;
    for (long waited = 0; ms > 0 && ms <= 60000 && waited < ms && !cancel_requested(w->cancel); waited += 10) {
        struct timespec t = {0, 10 * 1000000L};
        while (nanosleep(&t, &t) != 0 && errno == EINTR) {
        }
    }
}

/* The race's progress callback, on the sweep's thread: keeps where it is and wakes the loop. */
static void bench_sweep_progress(void *ctx, const char *text)
{
    bench_sweep *w = ctx;
    pthread_mutex_lock(&w->lock);
    snprintf(w->progress, sizeof w->progress, "%s", text);
    w->measured++;
    pthread_mutex_unlock(&w->lock);
    tui_wake_loop();
    bench_delay(w);
}

/* The sweep's job: finds who cooks (the sizes depend on it), runs the race. */
static int bench_work(job *j, void *data)
{
    bench_sweep *w = data;
    w->cancel = job_token(j);
    backend_info info;
    int emulated = backend_gpu_probe(&info) != 0;
    demo_params *p = &w->params[emulated];
    p->cancel = job_token(j);
    p->progress_ctx = w;
    pthread_mutex_lock(&w->lock);
    snprintf(w->who, sizeof w->who, "%s", emulated ? "" : info.name);
    w->who_known = 1;
    w->total = p->nsizes * (2 + p->nrecipes);
    pthread_mutex_unlock(&w->lock);
    tui_wake_loop();
    w->code = race_run(p, &w->result, &w->err);
    atomic_fetch_sub(&bench_sweeps_running, 1);
    return w->code;
}

/* Frees a sweep (the job's data). */
static void bench_sweep_free(void *data)
{
    bench_sweep *w = data;
    if (!w)
        return;
    race_free(w->result);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

/* The parameters of the sweep, for a GPU and for the emulator: the demo's own (its contenders and
   sizes), or the recipe ladder over the sizes of the first race demo of the lessons. */
static void bench_sweep_params(const ui_state *s, const lesson_demo *demo, bench_sweep *w)
{
    const lesson_demo *sizes = demo;
    for (int i = 0; i < s->lessons.count && !sizes; i++)
        for (int d = 0; d < s->lessons.lessons[i].ndemos && !sizes; d++)
            if (s->lessons.lessons[i].demos[d].kind == DEMO_RACE)
                sizes = &s->lessons.lessons[i].demos[d];
    demo_overrides none;
    memset(&none, 0, sizeof none);
    const char *const *ladder = recipe_ladder();
    for (int emulated = 0; emulated < 2; emulated++) {
        demo_params *p = &w->params[emulated];
        if (sizes) {
            lesson_demo_params(sizes, &none, emulated, p, NULL);
        } else { /* no race demo: the race's own default sizes */
            memset(p, 0, sizeof *p);
            kitchen_params_default(&p->run);
        }
        if (!demo) {
            p->nrecipes = 0;
            for (int i = 0; i < DEMO_MAX_RECIPES && ladder[i]; i++)
                p->recipes[p->nrecipes++] = ladder[i];
        }
        for (int i = 0; i < p->nrecipes; i++) { /* the job's own copies: lessons may go first */
            snprintf(w->recipes[i], sizeof w->recipes[i], "%s", p->recipes[i]);
            p->recipes[i] = w->recipes[i];
        }
        p->run.recipe = NULL;
        p->run.backend = BACKEND_AUTO;
        p->progress = bench_sweep_progress;
    }
}

/* Starts the sweep (arg: a lesson's race demo, NULL the ladder) as a job and shows the screen. */
static int bench_open(ui_state *s, void *self, const void *arg)
{
    bench_screen *b = self;
    if (atomic_load(&bench_sweeps_running) > 0) {
        snprintf(s->message, sizeof s->message, "%s", _(" The last sweep is still stopping: try again in a moment."));
        return -1;
    }
    b->demo = arg;
    bench_sweep *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(s->message, sizeof s->message, "%s", _(" The sweep could not start: no thread could be made."));
        return -1;
    }
    pthread_mutex_init(&w->lock, NULL);
    bench_sweep_params(s, b->demo, w);
    atomic_fetch_add(&bench_sweeps_running, 1);
    b->sweep = ui_job_start(s, _("sweeping matrix sides"), bench_work, w, bench_sweep_free);
    if (!b->sweep) {
        atomic_fetch_sub(&bench_sweeps_running, 1);
        snprintf(s->message, sizeof s->message, "%s", _(" The sweep could not start: no thread could be made."));
        return -1;
    }
    return 0;
}

/* Frees the sweep; one still running is asked to stop after the measurement under way and let go. */
static void bench_close(ui_state *s, void *self)
{
    (void)s;
    job_free(((bench_screen *)self)->sweep);
}

/* After a wake-up: once the sweep has finished, the demo recorded (or, when it was asked to stop,
   back to the screen it was opened from); 1 when the screen must be drawn again. */
static int bench_wake(ui_state *s, void *self, int readable)
{
    (void)readable;
    bench_screen *b = self;
    if (job_running(b->sweep))
        return 1; /* its progress */
    const bench_sweep *w = bench_done(b);
    if (!w || b->taken)
        return 0;
    b->taken = 1;
    if (b->stopping) {
        ui_close(s, self); /* with the help over it, if it is open */
        return 1;
    }
    if (b->demo && w->result && w->result->complete && !s->classroom) { /* a demo run to its end counts */
        const lesson *l = lesson_of_demo(&s->lessons, b->demo);
        if (l)
            ui_progress_mark(s, "demo", l, b->demo->name);
    }
    return 1;
}

/* The sweep the screen waits for. */
static job *bench_running(const void *self)
{
    return ((const bench_screen *)self)->sweep;
}

/* A matrix side as an axis label. */
static void bench_format_side(double v, char *out, size_t size)
{
    snprintf(out, size, "%.0f", v);
}

/* A contender's name as the learner reads it. */
static const char *bench_name(const race_contender *c)
{
    return c->kind == RACE_CPU_LOOP ? _("CPU loop") : c->kind == RACE_CPU_BLAS ? _("CPU BLAS") : c->name;
}

/* The chart in area: each contender's times (cooking, or with shipping) against n on log-log axes,
   framed, its marks coloured by contender; returns the rows used. */
static int bench_draw_chart(ui_state *s, const bench_screen *b, const race_result *r, layout_rect area)
{
    int width = area.w - BENCH_LABEL_W - 3, height = area.h - 2;
    if (width < 8 || height < 3)
        return 0;
    size_t cells = (size_t)r->nsizes * (size_t)r->ncontenders;
    chart_point *points = calloc(cells ? cells : 1, sizeof *points);
    chart_series series[RACE_MAX_CONTENDERS];
    char marks[RACE_MAX_CONTENDERS][2];
    if (!points)
        return 0;
    for (int c = 0; c < r->ncontenders; c++) {
        chart_point *mine = points + (size_t)c * (size_t)r->nsizes;
        int n = 0;
        for (int i = 0; i < r->nsizes; i++) {
            const race_entry *e = race_entry_at(r, i, c);
            if (e->ran)
                mine[n++] = (chart_point){(double)e->size, b->shipping ? e->total_ms : e->cook_ms};
        }
        snprintf(marks[c], sizeof marks[c], "%c", r->contenders[c].letter);
        series[c] = (chart_series){marks[c], mine, n};
    }
    chart ch;
    int rows = 0;
    if (chart_plot(&ch, width, height, series, r->ncontenders, bench_format_side, chef_format_ms) == 0 && ch.plotted) {
        char line[CHART_MAX_WIDTH * CHART_MARK_SIZE + 64];
        for (int i = 0; i < chart_frame_lines(&ch) && i < area.h; i++, rows++) {
            chart_frame_line(&ch, i, BENCH_LABEL_W, line, sizeof line);
            draw_text(s, area.y + i, area.x, area.w, line, UI_TEXT);
        }
        for (int row = 0; row < ch.height; row++) /* the marks again, each in its contender's colour */
            for (int col = 0; col < ch.width; col++) {
                int cell = chart_cell(&ch, row, col);
                if (cell != CHART_EMPTY)
                    draw_span(s, area.y + row, area.x + BENCH_LABEL_W + 2 + col, 1, chart_cell_mark(&ch, row, col),
                              theme_attr(cell == CHART_MANY ? UI_TEXT : bench_role(cell), s->color) | A_BOLD);
            }
    }
    chart_free(&ch);
    free(points);
    return rows;
}

/* The legend: each contender's mark in its colour and its name, as many to a row as fit in area's
   width, drawn when draw is 1; returns the rows it takes. */
static int bench_legend(ui_state *s, const race_result *r, layout_rect area, int draw)
{
    int x = 0, row = 0;
    for (int c = 0; c < r->ncontenders; c++) {
        const char *name = bench_name(&r->contenders[c]);
        int w = 4 + text_width(name, strlen(name));
        if (x > 0 && x + w > area.w) {
            x = 0;
            row++;
        }
        if (draw && row < area.h) {
            char mark[2] = {r->contenders[c].letter, '\0'};
            draw_span(s, area.y + row, area.x + x, 1, mark, theme_attr(bench_role(c), s->color) | A_BOLD);
            draw_text(s, area.y + row, area.x + x + 2, area.w - x - 2 < w - 2 ? area.w - x - 2 : w - 2, name, UI_TEXT);
        }
        x += w;
    }
    return row + 1;
}

/* Appends text to out right-aligned in width display columns (Hangul takes two). */
static void bench_cell(char *out, size_t size, const char *text, int width)
{
    size_t n = strlen(out);
    int pad = width - text_width(text, strlen(text));
    snprintf(out + n, n < size ? size - n : 0, "%*s%s", pad > 0 ? pad : 0, "", text);
}

/* The crossover line of one kind (cooking only, or with shipping) as text. */
static void bench_crossover_text(const race_result *r, int shipping, char *out, size_t size)
{
    int64_t at = shipping ? r->crossover_total : r->crossover_cook;
    int by = shipping ? r->crossover_total_by : r->crossover_cook_by;
    const char *kind = shipping ? _("with shipping") : _("cooking only");
    if (at > 0 && by >= 0)
        snprintf(out, size, _("Crossover, %s: from n = %lld the fastest recipe (%s) beats CPU BLAS"), kind, (long long)at,
                 bench_name(&r->contenders[by]));
    else
        snprintf(out, size, _("Crossover, %s: not reached in this sweep"), kind);
}

/* One line of the table: line 0 its heading, then a line per size and contender, smallest size
   first ("  64  N matmul-naive  ...  ok"). Returns 0 past the end. */
static int bench_table_line(const race_result *r, int line, char *out, size_t size, ui_role *role)
{
    char name[256];
    *role = UI_TEXT;
    if (line == 0) { /* the headings over the columns, by display width */
        layout_fit(_("contender"), BENCH_NAME_W + 2, name, sizeof name);
        snprintf(out, size, "  %5s  %s", "n", name);
        bench_cell(out, size, _("cook"), 11);
        bench_cell(out, size, "GFLOP/s", 10);
        bench_cell(out, size, _("with shipping"), 15);
        bench_cell(out, size, "", 2);
        bench_cell(out, size, _("taste"), 0);
        *role = UI_TABLE_HEAD;
        return 1;
    }
    int i = (line - 1) / r->ncontenders, c = (line - 1) % r->ncontenders;
    if (i >= r->nsizes)
        return 0;
    const race_entry *e = race_entry_at(r, i, c);
    const race_contender *who = &r->contenders[c];
    layout_fit(bench_name(who), BENCH_NAME_W, name, sizeof name);
    size_t n = (size_t)snprintf(out, size, "  %5lld  %c %s  ", (long long)e->size, who->letter, name);
    size_t left = n < size ? size - n : 0;
    if (e->ran) {
        char cook[32], total[32], gflops[32];
        chef_format_ms(e->cook_ms, cook, sizeof cook);
        chef_format_ms(e->total_ms, total, sizeof total);
        race_format_gflops(e->gflops, gflops, sizeof gflops); /* as the text report prints it */
        int shipped = who->kind == RACE_KERNEL || who->kind == RACE_LIBRARY; /* the CPU's have no shipping */
        snprintf(out + n, left, "%9s  %8s  %13s  %s", cook, gflops, shipped ? total : "-",
                 e->passed ? _("ok") : _("WRONG"));
        *role = e->passed ? UI_TEXT : UI_WRONG;
        return 1;
    }
    *role = UI_DIM;
    char predicted[32];
    chef_format_ms(e->predicted_ms, predicted, sizeof predicted);
    if (e->skipped && e->predicted_ms > 0 && e->predicted_from > 0) /* the CPU loop, as the text report says it */
        snprintf(out + n, left, _("skipped: about %s predicted from n = %lld"), predicted, (long long)e->predicted_from);
    else if (e->skipped && e->predicted_ms > 0)
        snprintf(out + n, left, _("skipped: about %s at a plain loop's pace"), predicted);
    else
        snprintf(out + n, left, "%s", e->skipped ? _("skipped") : _("not measured"));
    return 1;
}

/* The sweep while it runs: who cooks, where it is, how far, and how to stop it. */
static void bench_draw_running(ui_state *s, const bench_screen *b, layout_rect body)
{
    bench_sweep *w = job_data(b->sweep);
    char line[400], who[300], said[200];
    pthread_mutex_lock(&w->lock);
    int measured = w->measured, total = w->total;
    snprintf(who, sizeof who, "%s", !w->who_known ? "" : w->who[0] ? w->who : _("the CPU emulator"));
    snprintf(said, sizeof said, "%s", w->progress);
    pthread_mutex_unlock(&w->lock);
    int y = body.y + 1;
    snprintf(line, sizeof line, _("Sweeping matrix sides; the recipes cook on %s."), who[0] ? who : _("checking for a GPU..."));
    draw_text(s, y++, body.x, body.w, line, UI_TEXT);
    if (total > 0)
        snprintf(line, sizeof line, _("Measurement %d of %d: %s"), measured, total, said);
    else
        snprintf(line, sizeof line, _("Measurement %d: %s"), measured, said);
    draw_text(s, ++y, body.x, body.w, line, UI_HEADING);
    y++;
    if (total > 0) {
        int bar = body.w - 4 < 50 ? body.w - 4 : 50, filled = (int)((double)measured / total * bar + 0.5);
        for (int i = 0; i < bar; i++)
            draw_span(s, y, body.x + 2 + i, 1, i < filled ? (s->ascii ? "#" : "█") : (s->ascii ? "." : "·"),
                      theme_attr(i < filled ? UI_MARK : UI_DIM, s->color));
    }
    y += 2;
    draw_text(s, y++, body.x, body.w,
              _("Each time is a median of runs after a warm-up, and every result is tasted: large sizes take a while."),
              UI_DIM);
    draw_text(s, ++y, body.x, body.w,
              b->stopping ? _("Stopping after the measurement under way...") : _("q stops the sweep after the measurement under way."),
              b->stopping ? UI_MARK : UI_DIM);
}

/* Draws the bench screen: the progress while the sweep runs, else its chart, crossovers and table. */
static void bench_draw(ui_state *s, void *self)
{
    bench_screen *b = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    char line[1200];
    int running = job_running(b->sweep);
    const bench_sweep *w = bench_done(b);
    const race_result *r = w ? w->result : NULL;
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, _(" Bench: matrix multiply, the CPU against the kitchen"), UI_TITLE);
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              running ? _(" q stop   ? help") : _(" s cooking only / with shipping   ↑↓ PgUp PgDn table   q back   ? help"),
              UI_TITLE);
    if (running || !w) {
        bench_draw_running(s, b, lr.body);
        return;
    }
    int y = lr.body.y;
    if (!r) {
        snprintf(line, sizeof line, _("The sweep stopped: %s"), w->err.message);
        draw_text(s, y++, lr.body.x, lr.body.w, line, UI_WRONG);
        if (w->err.hint[0])
            draw_text(s, y, lr.body.x, lr.body.w, w->err.hint, UI_TEXT);
        return;
    }
    draw_text(s, y++, lr.body.x, lr.body.w,
              b->shipping ? _("Time with shipping against n, log-log (lower is faster; * several)")
                          : _("Cooking time against n, log-log (lower is faster; * several)"),
              UI_HEADING);
    /* the chart takes what the rest leaves, the table at least five lines */
    int legend_h = bench_legend(s, r, lr.body, 0), chart_h = lr.body.h - 9 - legend_h;
    chart_h = chart_h < 8 ? 8 : chart_h > 26 ? 26 : chart_h;
    y += bench_draw_chart(s, b, r, (layout_rect){lr.body.x, y, lr.body.w, chart_h});
    y += bench_legend(s, r, (layout_rect){lr.body.x, y, lr.body.w, legend_h}, 1);
    for (int shipping = 0; shipping < 2; shipping++) { /* the one the chart shows stands out */
        bench_crossover_text(r, shipping, line, sizeof line);
        draw_text(s, y++, lr.body.x, lr.body.w, line, shipping == b->shipping ? UI_MARK : UI_DIM);
    }
    if (r->emulated)
        draw_text(s, y++, lr.body.x, lr.body.w,
                  _("The CPU emulator cooked: the CPU races itself (the library is OpenBLAS)."),
                  UI_DIM);
    if (!r->complete) {
        snprintf(line, sizeof line, _("The sweep stopped early: %s"), w->err.message);
        draw_text(s, y++, lr.body.x, lr.body.w, line, UI_WRONG);
    }
    /* the table, scrolled */
    int rows = lr.body.y + lr.body.h - y, total = 1 + r->nsizes * r->ncontenders;
    b->top = layout_scroll_clamp(b->top, total, rows > 1 ? rows : 1);
    for (int i = 0; i < rows; i++) {
        ui_role role;
        if (!bench_table_line(r, b->top + i, line, sizeof line, &role))
            break;
        draw_text(s, y + i, lr.body.x, lr.body.w, line, role);
    }
}

/* Keys: while the sweep runs, q (or Esc) asks it to stop and goes back once it has; afterwards s
   toggles shipping, the arrows and the page keys scroll the table, q goes back. */
static void bench_key(ui_state *s, void *self, int key)
{
    bench_screen *b = self;
    if (job_running(b->sweep)) {
        if (key == 'q' || key == 27) {
            b->stopping = 1;
            job_cancel(b->sweep);
        }
        return;
    }
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    if (draw_scroll_key(key, &b->top, lr.body.h / 2 > 1 ? lr.body.h / 2 : 1))
        return;
    if (key == 's')
        b->shipping = !b->shipping;
    else if (key == 'q' || key == 27)
        ui_back(s);
}

/* The bench screen's keys, for the help. */
static const char *const bench_help[] = {
    N_("s               the chart and crossover: cooking only, or with shipping"),
    N_("↑↓ PgUp PgDn    scroll the table;  g G  its top, bottom"),
    N_("q               while it runs: stop after the measurement under way"),
    NULL,
};

const ui_screen_class ui_screen_bench = {
    .name = "bench",
    .size = sizeof(bench_screen),
    .open = bench_open,
    .draw = bench_draw,
    .key = bench_key,
    .close = bench_close,
    .wake = bench_wake,
    .running = bench_running,
    .help = bench_help,
    .flags = UI_SCREEN_WHEEL,
};
