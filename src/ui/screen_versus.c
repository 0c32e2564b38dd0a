/*
 * screen_versus.c - the side-by-side: the same work cut into many small teams or a few big ones.
 *
 * `v` in the kitchen cooks the kitchen's recipe and n twice more, with teams of 32 cooks and with
 * teams of 1024 (each a real, traced kitchen_run through the same kitchen the kitchen screen uses,
 * on the backend that cooked the run shown), then replays both traces side by side on one clock:
 * the longer launch lasts KITCHEN_REPLAY_S on screen, the scale is shown, and each side stops at
 * its own end. Each side gives its number of teams, the stations used, the most teams on one
 * station against the limit the backend gives (stations.c), the kernel's time, and its stations
 * filling and emptying. A caption says what to look for, with this machine's own limits. A recipe
 * whose team size is fixed (a shared-memory tile, a library call) cannot be cut both ways: the
 * kitchen says so on its key line and the screen does not open. Space pauses, `.` steps to the
 * next change on either side, q goes back to the kitchen as it was. The two runs are one job each
 * (kitchen_cook_start), cooked one after the other; the screen shows them once both are done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "engine/recipes.h"
#include "engine/replay.h"
#include "ui/kitchen_draw.h"
#include "ui/screens.h"

static const int versus_cooks[2] = {32, 1024}; /* the two team sizes, small first */

/* The side-by-side's own state: the kitchen's recipe and n cooked again with teams of 32 and of
   1024 cooks, each a traced run of its own (a job, which owns its report), replayed together. */
typedef struct versus_screen {
    kitchen_params ran;         /* the kitchen's run: its recipe and n */
    backend_kind backend;       /* the kitchen that cooked it, which cooks both sides */
    job *cooks[2];              /* [0] teams of 32 cooks, [1] of 1024 */
    int next;                   /* the side cooking now (2: both done) */
    int stopped;                /* Esc stopped the cooking: a side not cooked says so */
    const kitchen_report *reports[2]; /* views of the finished runs' reports */
    int codes[2];               /* kitchen_run's exit codes */
    ui_stations stations[2];    /* their stations, peaks and limits */
    double replay_ns;           /* the moment shown, in ns of the runs (each from its first team) */
    int playing;                /* the replay moves */
    double clock_ms;            /* when it last moved (chef_now_ms) */
} versus_screen;

/* 0 when the kitchen's recipe can cook with teams of cooks, else -1 with why in err: the recipe's
   own plan refuses it (its team size is fixed), or a library picks its own teams. */
static int versus_refused(const ui_versus_arg *k, int cooks, chef_error *err)
{
    const recipe *rc = recipe_find(k->ran.recipe);
    if (!rc || rc->library || k->report->trace.nblocks == 0) {
        snprintf(err->message, sizeof err->message, "%s", _("a library call picks its own teams"));
        return -1;
    }
    kitchen_params p = k->ran;
    p.threads_per_block = cooks;
    kitchen_plan plan;
    memset(&plan, 0, sizeof plan);
    return rc->plan(&p, &k->report->backend, &plan, err);
}

/* Frees the two runs (one still cooking is stopped and let go). */
static void versus_close(ui_state *s, void *self)
{
    (void)s;
    versus_screen *v = self;
    for (int i = 0; i < 2; i++) {
        job_free(v->cooks[i]);
        stations_free(&v->stations[i]);
    }
}

/* Starts the run of side i. */
static void versus_cook(ui_state *s, versus_screen *v, int i)
{
    kitchen_params p = v->ran;
    p.threads_per_block = versus_cooks[i];
    p.backend = v->backend; /* the kitchen that cooked the run shown */
    char what[200];
    snprintf(what, sizeof what, _("cooking with teams of %d cooks"), versus_cooks[i]);
    v->cooks[i] = kitchen_cook_start(s, what, &p);
    if (!v->cooks[i])
        v->codes[i] = CHEF_EXIT_ENVIRONMENT;
}

/* `v` in the kitchen (arg: its run): checks that the recipe takes both team sizes and starts
   cooking it both ways; otherwise says why on the key line and does not open. */
static int versus_open(ui_state *s, void *self, const void *arg)
{
    versus_screen *v = self;
    const ui_versus_arg *k = arg;
    for (int i = 0; i < 2; i++) {
        chef_error why = {0};
        if (versus_refused(k, versus_cooks[i], &why) != 0) {
            snprintf(s->message, sizeof s->message,
                     _(" %s cannot cook with teams of %d cooks (%s): try a recipe that takes any team size, like vector-add."),
                     k->ran.recipe, versus_cooks[i], why.message);
            return -1;
        }
    }
    v->ran = k->ran;
    v->backend = k->report->backend.kind;
    v->next = 0;
    versus_cook(s, v, 0);
    return 0;
}

/* After a wake-up: a side that finished is taken in and the next one cooks; once both are done
   the replay starts. 1 when the screen must be drawn again. */
static int versus_wake(ui_state *s, void *self, int readable)
{
    (void)readable;
    versus_screen *v = self;
    if (v->next >= 2 || (v->cooks[v->next] && job_running(v->cooks[v->next])))
        return 0;
    int i = v->next;
    int stopped = 0;
    if (v->cooks[i]) {
        const kitchen_cook_run *run = job_data(v->cooks[i]);
        v->reports[i] = &run->report;
        v->codes[i] = run->code;
        stations_measure(&v->stations[i], v->reports[i]);
        stopped = job_cancelled(v->cooks[i]);
    }
    v->next = i + 1;
    if (stopped) { /* Esc: the other side is not cooked either */
        v->next = 2;
        v->stopped = 1;
        v->codes[1] = CHEF_EXIT_ENVIRONMENT;
    } else if (v->next < 2) {
        versus_cook(s, v, v->next);
    } else {
        v->playing = 1;
        v->clock_ms = chef_now_ms();
    }
    return 1;
}

/* The side cooking now. */
static job *versus_running(const void *self)
{
    const versus_screen *v = self;
    return v->next < 2 ? v->cooks[v->next] : NULL;
}

/* The longer of the two launches, in ns of the runs. */
static uint64_t versus_span(const versus_screen *v)
{
    uint64_t span = 0;
    for (int i = 0; i < 2; i++)
        if (v->reports[i] && replay_span_ns(&v->reports[i]->trace) > span)
            span = replay_span_ns(&v->reports[i]->trace);
    return span;
}

/* Moves the replay on by the time since the last frame. */
static void versus_advance(versus_screen *v)
{
    double now = chef_now_ms();
    uint64_t span = versus_span(v);
    if (v->playing) {
        v->replay_ns += (now - v->clock_ms) / 1e3 * replay_ns_per_screen_second(span, KITCHEN_REPLAY_S);
        if (v->replay_ns >= (double)span) {
            v->replay_ns = (double)span;
            v->playing = 0;
        }
    }
    v->clock_ms = now;
}

/* Frames while the replay moves. */
static int versus_tick(const void *self)
{
    return ((const versus_screen *)self)->playing ? KITCHEN_FRAME_MS : 0;
}

/* The caption: what to look for, with the limits this machine gave for the two team sizes. */
static void versus_draw_caption(ui_state *s, const versus_screen *v, layout_rect body, int *y)
{
    char line[700];
    kitchen_ui_wrap(s, body, y, 0,
                    _("What to look for: the same work cut two ways, many small teams against a few big ones. A team "
                      "of 1024 cooks takes a big share of a station's cooks, so few fit on one at once; teams of 32 "
                      "pack in until the station's limit on teams."),
                    UI_TEXT);
    const kitchen_report *r = v->reports[0] ? v->reports[0] : v->reports[1];
    if (!r || !r->started)
        return;
    if (r->backend.kind == BACKEND_GPU && v->stations[0].limit > 0 && v->stations[1].limit > 0)
        snprintf(line, sizeof line,
                 _("On this GPU an SM holds %d cooks: at most %d teams of %d and %d of %d at once (occupancy calculator)."),
                 v->stations[0].cooks_limit, v->stations[0].limit, versus_cooks[0], v->stations[1].limit,
                 versus_cooks[1]);
    else if (r->backend.kind == BACKEND_GPU)
        snprintf(line, sizeof line, "%s", _("On this GPU the limits could not be read: compare the teams and the times."));
    else
        snprintf(line, sizeof line, "%s",
                 _("On the CPU emulator a worker cooks one team at a time, whatever its size: compare the teams and "
                   "the times here; a GPU's SM holds several teams at once."));
    kitchen_ui_wrap(s, body, y, 0, line, UI_DIM);
}

/* One side from row y in column col: its team size, figures, and its stations at the moment shown. */
static void versus_draw_side(ui_state *s, const versus_screen *v, int i, layout_rect col, int y)
{
    const kitchen_report *r = v->reports[i];
    char line[600], took[32];
    snprintf(line, sizeof line, _("Teams of %d cooks"), versus_cooks[i]);
    kitchen_ui_line(s, col, &y, line, UI_HEADING);
    if (!r || !r->started || v->codes[i] > CHEF_EXIT_WRONG) {
        snprintf(line, sizeof line, _("The kitchen stopped: %s"),
                 r ? r->error.message : v->stopped ? _("it was stopped (Esc) before this side cooked") : _("out of memory"));
        kitchen_ui_wrap(s, col, &y, 0, line, UI_WRONG);
        return;
    }
    if (r->teams == 1)
        snprintf(line, sizeof line, _("1 team, %llu cooks (%llu idle)"), (unsigned long long)r->cooks,
                 (unsigned long long)r->idle_cooks);
    else
        snprintf(line, sizeof line, _("%llu teams, %llu cooks (%llu idle)"), (unsigned long long)r->teams,
                 (unsigned long long)r->cooks, (unsigned long long)r->idle_cooks);
    kitchen_ui_wrap(s, col, &y, 0, line, UI_TEXT);
    chef_format_ms(r->cook_ms, took, sizeof took);
    snprintf(line, sizeof line, _("Cooking took %s (median of %d)"), took, r->repeat);
    kitchen_ui_wrap(s, col, &y, 0, line, UI_TEXT);
    if (!r->taste.passed)
        kitchen_ui_wrap(s, col, &y, 0, _("✗ The taste failed: this run's results are wrong."), UI_WRONG);
    uint64_t span = replay_span_ns(&r->trace);
    char total[64];
    kitchen_ui_duration((double)span, total, sizeof total);
    size_t cooking = replay_at(&r->trace, (uint64_t)v->replay_ns, 0, NULL, NULL, NULL);
    snprintf(line, sizeof line, _("Replayed launch: %s; teams cooking now: %zu"), total, cooking);
    kitchen_ui_wrap(s, col, &y, 0, line, UI_TEXT);
    stations_draw(s, &v->stations[i], &r->trace, (uint64_t)v->replay_ns, col, &y, 0);
}

/* Draws the side-by-side: title, caption, the shared clock and legend, then the two sides. */
static void versus_draw(ui_state *s, void *self)
{
    versus_screen *v = self;
    char line[600];
    if (v->next < 2) { /* still cooking one side */
        snprintf(line, sizeof line, _(" Side by side: %s, n = %lld"), v->ran.recipe, (long long)v->ran.n);
        draw_text(s, 0, 0, COLS, line, UI_TITLE);
        layout_rect body = {1, 1, COLS - 2, LINES - 2}, footer = {0, LINES - 1, COLS, 1};
        job *j = versus_running(v);
        if (j) {
            ui_job_draw_body(s, j, body);
            ui_job_draw(s, j, footer);
        }
        return;
    }
    versus_advance(v);
    const kitchen_report *r = v->reports[0] ? v->reports[0] : v->reports[1];
    const char *who = r && r->backend.kind == BACKEND_GPU ? r->backend.name : _("CPU emulator");
    snprintf(line, sizeof line, _(" Side by side: %s, n = %lld, cooked by %s"), v->ran.recipe, (long long)v->ran.n,
             who);
    draw_text(s, 0, 0, COLS, line, UI_TITLE);
    draw_text(s, LINES - 1, 0, COLS, _(" Space pause or replay   . step   q back to the kitchen   ? help"), UI_TITLE);
    layout_rect body = {1, 1, COLS - 2, LINES - 2};
    int y = body.y;
    versus_draw_caption(s, v, body, &y);
    /* the one clock both replays follow */
    uint64_t span = versus_span(v);
    char scale[64], now[64], total[64];
    kitchen_ui_duration(replay_ns_per_screen_second(span, KITCHEN_REPLAY_S), scale, sizeof scale);
    kitchen_ui_duration(v->replay_ns, now, sizeof now);
    kitchen_ui_duration((double)span, total, sizeof total);
    snprintf(line, sizeof line,
             r && !r->trace.from_gpu ? _("One clock for both checked launches (slower than the timed ones): 1 s on screen = %s.  %s of %s")
                                     : _("One clock for both traced launches: 1 s on screen = %s.  %s of %s"),
             scale, now, total);
    kitchen_ui_wrap(s, body, &y, 0, line, UI_TEXT);
    if (y < body.y + body.h) {
        int bar = body.w - 4 < 40 ? body.w - 4 : 40;
        kitchen_ui_bar(s, y, body.x + 2, bar, span ? v->replay_ns / (double)span : 1);
        draw_text(s, y, body.x + 4 + bar, body.w - 4 - bar, kitchen_ui_motion(v->playing, v->replay_ns >= (double)span),
                  UI_DIM);
    }
    y++;
    stations_draw_legend(s, body, &y);
    y++;
    /* two columns with a rule between them */
    int half = (body.w - 3) / 2;
    layout_rect left = {body.x, y, half, body.y + body.h - y}, right = {body.x + half + 3, y, body.w - half - 3, left.h};
    for (int row = y; row < body.y + body.h; row++)
        draw_span(s, row, body.x + half + 1, 1, "│", theme_attr(UI_BORDER, s->color));
    versus_draw_side(s, v, 0, left, y);
    versus_draw_side(s, v, 1, right, y);
}

/* The first moment after the one shown when a team starts or finishes on either side. */
static double versus_next_event(const versus_screen *v)
{
    uint64_t at = (uint64_t)v->replay_ns, next = versus_span(v);
    for (int i = 0; i < 2; i++) {
        if (!v->reports[i])
            continue;
        uint64_t n = replay_next_event(&v->reports[i]->trace, at);
        if (n > at && n < next)
            next = n;
    }
    return (double)next;
}

/* Keys: Space pauses, resumes or replays from the start; `.` pauses and steps to the next change;
   q or Esc goes back to the kitchen. */
static void versus_key(ui_state *s, void *self, int key)
{
    versus_screen *v = self;
    if (v->next < 2) { /* while a side cooks: Esc stops it, q goes back */
        if (key == 27 && versus_running(v))
            job_cancel(versus_running(v));
        else if (key == 'q')
            ui_back(s);
        return;
    }
    switch (key) {
    case ' ':
        if (v->playing) {
            v->playing = 0;
        } else {
            if (v->replay_ns >= (double)versus_span(v))
                v->replay_ns = 0;
            v->playing = 1;
            v->clock_ms = chef_now_ms();
        }
        break;
    case '.':
        v->playing = 0;
        v->replay_ns = versus_next_event(v);
        break;
    case 'q':
    case 27:
        ui_back(s);
        return;
    default:
        break;
    }
}

/* The side-by-side's keys, for the help. */
static const char *const versus_help[] = {
    N_("Space           pause or play both replays (at the end: again)"),
    N_(".               move them on to the next change"),
    N_("q               back to the kitchen"),
    NULL,
};

const ui_screen_class ui_screen_versus = {
    .name = "versus",
    .size = sizeof(versus_screen),
    .open = versus_open,
    .draw = versus_draw,
    .key = versus_key,
    .close = versus_close,
    .wake = versus_wake,
    .tick = versus_tick,
    .running = versus_running,
    .help = versus_help,
};
