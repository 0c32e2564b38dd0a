/*
 * screen_floor.c - the kitchen's floor plan: every station as a box, the run's teams arriving,
 * cooking and leaving in the recorded order, and an overview of all the grid's teams.
 *
 * Opened with f on the kitchen's cook step (the kitchen's report is the argument, and the kitchen
 * stays below, so the report outlives this screen). The stations fill the whole terminal
 * (layout_box_grid picks the largest boxes with which all of them fit): an SM on a GPU, a worker of
 * the CPU emulator. On the emulator, m shows instead the GPU the model stands for (replay_waves:
 * the modeled kernel time spread over its stations in waves), labelled "modeled"
 * on every row it touches, so a learner without a GPU sees 132 stations fill; it is a picture of
 * the model, never a measurement. Under the floor, one cell per team (or per so many teams, when
 * there are more teams than cells) says which are waiting, cooking and done; the cursor (arrows)
 * picks one team, whose station is lit on the floor, for the room to follow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "engine/replay.h"
#include "ui/kitchen_draw.h"
#include "ui/screens.h"

#define FLOOR_BOX_MIN_W 6 /* a box: "┌131─┐" over "│3/8 │" */
#define FLOOR_BOX_MIN_H 3
#define FLOOR_BOX_MAX_W 16
#define FLOOR_BOX_MAX_H 5
#define FLOOR_OVERVIEW_MIN 3 /* rows of team cells kept under the floor */

/* One view of the floor: the traced run, or the model's picture of it. */
typedef struct floor_view {
    const trace *t;
    unsigned stations;
    int limit;             /* teams one station holds at once; 0 not known */
    uint32_t *record;      /* per team (block index): its record in t->blocks; UINT32_MAX none */
} floor_view;

/* The floor plan's state. */
typedef struct floor_screen {
    const kitchen_report *report;
    ui_stations stations;  /* the traced run's stations and their limit (stations.c) */
    trace modeled;         /* replay_waves's picture of the model (emulator runs with counts) */
    int have_model;
    int show_model;        /* 1: the modeled GPU is on the floor */
    floor_view views[2];   /* 0 the run's trace, 1 the model's */
    double replay_ns;
    int playing;
    double clock_ms;
    uint32_t team;         /* the team under the cursor */
    int top;               /* the first row of boxes shown, when not all fit */
    int overview_cols;     /* the overview's cells per row, as last drawn (↑↓ move by one row) */
} floor_screen;

/* The index from team to record of a trace (teams past the grid's are left out). */
static uint32_t *floor_index(const trace *t, uint64_t teams)
{
    uint32_t *rec = teams > 0 && teams < UINT32_MAX ? malloc((size_t)teams * sizeof *rec) : NULL;
    if (!rec)
        return NULL;
    for (uint64_t i = 0; i < teams; i++)
        rec[i] = UINT32_MAX;
    for (size_t i = 0; i < t->nblocks; i++)
        if (t->blocks[i].block < teams)
            rec[t->blocks[i].block] = (uint32_t)i;
    return rec;
}

/* Opens the floor of the kitchen's finished run (arg: its kitchen_report). */
static int floor_open(ui_state *s, void *self, const void *arg)
{
    floor_screen *f = self;
    f->report = arg;
    const kitchen_report *r = f->report;
    if (!r || r->trace.nblocks == 0) {
        snprintf(s->message, sizeof s->message, "%s", _(" This run left no trace of its teams to put on the floor."));
        return -1;
    }
    stations_measure(&f->stations, r);
    f->views[0] = (floor_view){&r->trace, f->stations.count, f->stations.limit, floor_index(&r->trace, r->teams)};
    if (!r->trace.from_gpu && r->modeled && replay_waves((unsigned)r->model_device.stations, r->model.teams_per_station,
                                                         (r->model.ms - r->model.launch_ms) * 1e6, r->teams, &f->modeled) == 0) {
        f->have_model = 1;
        f->views[1] = (floor_view){&f->modeled, (unsigned)r->model_device.stations, r->model.teams_per_station,
                                   floor_index(&f->modeled, r->teams)};
    }
    if (!f->views[0].record || (f->have_model && !f->views[1].record)) {
        snprintf(s->message, sizeof s->message, "%s", _(" Out of memory for the floor plan."));
        return -1; /* floor_close, which ui_open calls after a failed open, frees what was made */
    }
    f->playing = 1;
    f->clock_ms = chef_now_ms();
    return 0;
}

/* Frees the indexes, the stations and the model's picture. */
static void floor_close(ui_state *s, void *self)
{
    (void)s;
    floor_screen *f = self;
    free(f->views[0].record);
    free(f->views[1].record);
    stations_free(&f->stations);
    trace_free(&f->modeled);
}

/* The view on the floor. */
static const floor_view *floor_shown(const floor_screen *f)
{
    return &f->views[f->show_model && f->have_model];
}

/* Moves the replay on by the time since the last frame. */
static void floor_advance(floor_screen *f)
{
    double now = chef_now_ms(), screen_s = (now - f->clock_ms) / 1e3;
    f->clock_ms = now;
    if (!f->playing)
        return;
    uint64_t span = replay_span_ns(floor_shown(f)->t);
    f->replay_ns += screen_s * replay_ns_per_screen_second(span, KITCHEN_REPLAY_S);
    if (f->replay_ns >= (double)span) {
        f->replay_ns = (double)span;
        f->playing = 0;
    }
}

/* Frames while the replay moves. */
static int floor_tick(const void *self)
{
    return ((const floor_screen *)self)->playing ? KITCHEN_FRAME_MS : 0;
}

/* A team's state at t_ns: 0 waiting, 1 cooking, 2 done. */
static int floor_team_state(const floor_view *v, uint32_t team, uint64_t t_ns)
{
    uint32_t i = v->record[team];
    if (i == UINT32_MAX || t_ns < v->t->blocks[i].start_ns)
        return 0;
    return t_ns < v->t->blocks[i].end_ns ? 1 : 2;
}

/* The heading rows: who cooked (or who is modeled), the clock, the waves and the counts. */
static void floor_draw_head(ui_state *s, const floor_screen *f, const floor_view *v, layout_rect body, int *y,
                            const unsigned *busy, const unsigned *done)
{
    const kitchen_report *r = f->report;
    char line[1024], scale[64], now[64], total[64];
    int modeled = v == &f->views[1];
    if (modeled)
        snprintf(line, sizeof line,
                 _("MODELED %s: %u stations (SMs), %d teams each at once. The model placed the teams from the "
                   "emulator's counts: not a measurement.  m: the emulator's own run"),
                 r->model_device.name, v->stations, v->limit);
    else if (r->trace.from_gpu)
        snprintf(line, sizeof line, _("GPU %s: %u stations (SMs), as traced (%%smid, %%globaltimer)"), r->backend.name,
                 v->stations);
    else
        snprintf(line, sizeof line, _("CPU emulator: %u stations (workers), as traced (worker, CPU clock)%s"),
                 v->stations, f->have_model ? _("  m: the modeled GPU") : "");
    kitchen_ui_wrap(s, body, y, 0, line, modeled ? UI_MARK : UI_HEADING);
    uint64_t span = replay_span_ns(v->t);
    kitchen_ui_duration(replay_ns_per_screen_second(span, KITCHEN_REPLAY_S), scale, sizeof scale);
    kitchen_ui_duration(f->replay_ns, now, sizeof now);
    kitchen_ui_duration((double)span, total, sizeof total);
    unsigned cooking = 0, finished = 0;
    for (unsigned i = 0; i < v->stations; i++)
        cooking += busy[i], finished += done[i];
    unsigned long long teams = (unsigned long long)r->teams, started = cooking + finished;
    unsigned long long wave = v->limit > 0 ? (unsigned long long)v->stations * (unsigned long long)v->limit : 0;
    char waves[256] = "";
    if (wave > 0) {
        unsigned long long nwaves = (teams + wave - 1) / wave, last = teams - (nwaves - 1) * wave;
        unsigned long long in = started == 0 ? 1 : (started - 1) / wave + 1;
        snprintf(waves, sizeof waves, _("  wave %llu of %llu (%llu teams a wave; the last has %llu)"),
                 in < nwaves ? in : nwaves, nwaves, wave, last);
    }
    snprintf(line, sizeof line, _("%s%s of %s, 1 s on screen = %s.  Teams waiting %llu, cooking %u, done %u%s"),
             modeled ? _("modeled ") : "", now, total, scale, teams - started, cooking, finished, waves);
    kitchen_ui_wrap(s, body, y, 0, line, UI_TEXT);
    if (*y < body.y + body.h) {
        int bar = body.w - 4 < 40 ? body.w - 4 : 40;
        kitchen_ui_bar(s, *y, body.x + 2, bar, span ? f->replay_ns / (double)span : 1);
        draw_text(s, *y, body.x + 4 + bar, body.w - 4 - bar,
                  kitchen_ui_motion(f->playing, f->replay_ns >= (double)span), UI_DIM);
    }
    (*y)++;
}

/* One station's box at (y, x), w x h: its number on the frame, its teams now against the limit,
   its latest team, and how many it has finished. */
static void floor_draw_box(ui_state *s, const floor_view *v, unsigned station, int y, int x, int w, int h,
                           unsigned busy, unsigned done, uint32_t current, int lit)
{
    ui_role frame = lit ? UI_SELECTED : busy ? UI_HEADING : UI_DIM;
    draw_box(s, (layout_rect){x, y, w, h}, frame);
    char text[64];
    if (v->t->from_gpu && w >= 9)
        snprintf(text, sizeof text, "SM%u", station);
    else
        snprintf(text, sizeof text, "%u", station);
    draw_text(s, y, x + 1, (int)strlen(text) < w - 2 ? (int)strlen(text) : w - 2, text, frame);
    int iw = w - 2, row = y + 1;
    if (iw <= 0 || h < 3)
        return;
    if (v->limit > 0 && v->limit <= iw) {
        char cells[FLOOR_BOX_MAX_W * 4 + 1] = "";
        for (int i = 0; i < v->limit; i++)
            strcat(cells, (unsigned)i < busy ? (s->ascii ? "#" : "■") : (s->ascii ? "." : "□"));
        draw_text(s, row, x + 1, iw, cells, busy ? UI_MARK : UI_DIM);
    } else {
        if (v->limit > 0)
            snprintf(text, sizeof text, "%u/%d", busy, v->limit);
        else
            snprintf(text, sizeof text, "%u", busy);
        draw_text(s, row, x + 1, iw, text, busy ? UI_MARK : UI_DIM);
    }
    if (h >= 4) {
        if (current != REPLAY_NONE)
            snprintf(text, sizeof text, "t%u", current);
        else
            snprintf(text, sizeof text, done ? "%u%s" : " ", done, s->ascii ? "ok" : "✓");
        draw_text(s, row + 1, x + 1, iw, text, current != REPLAY_NONE ? UI_CODE : UI_RIGHT);
    }
    if (h >= 5 && current != REPLAY_NONE) {
        snprintf(text, sizeof text, "%u%s", done, s->ascii ? "ok" : "✓");
        draw_text(s, row + 2, x + 1, iw, text, UI_RIGHT);
    }
}

/* The overview: one cell per team (or per so many), waiting, cooking or done, in rows under the
   floor; the cursor's team highlighted. */
static void floor_draw_overview(ui_state *s, floor_screen *f, const floor_view *v, layout_rect area, uint64_t t_ns)
{
    const kitchen_report *r = f->report;
    uint64_t teams = r->teams;
    if (area.h < 2 || area.w < 10 || teams == 0)
        return;
    int head = area.h >= 3 ? 2 : 1; /* the legend, then the cursor's team when there is room */
    uint64_t cells = (uint64_t)area.w * (uint64_t)(area.h - head), per = (teams + cells - 1) / cells;
    uint64_t used = (teams + per - 1) / per;
    int cols = used < (uint64_t)area.w ? (int)used : area.w;
    f->overview_cols = per == 1 ? cols : 0;
    char line[512], where[200] = "";
    uint32_t i = v->record[f->team];
    if (i != UINT32_MAX) {
        char a[64], b[64];
        kitchen_ui_duration((double)v->t->blocks[i].start_ns, a, sizeof a);
        kitchen_ui_duration((double)v->t->blocks[i].end_ns, b, sizeof b);
        snprintf(where, sizeof where, _("Cursor: team %u on station %u, %s to %s"), f->team, v->t->blocks[i].station,
                 a, b);
    }
    if (per == 1)
        snprintf(line, sizeof line, _("All %llu teams, one cell each: %s waiting  %s cooking  %s done"),
                 (unsigned long long)teams, s->ascii ? "." : "·", s->ascii ? "#" : "■", s->ascii ? "o" : "□");
    else
        snprintf(line, sizeof line, _("All %llu teams, %llu to a cell: %s waiting  %s cooking  %s done  %s some done"),
                 (unsigned long long)teams, (unsigned long long)per, s->ascii ? "." : "·", s->ascii ? "#" : "■",
                 s->ascii ? "o" : "□", s->ascii ? ":" : "▪");
    draw_text(s, area.y, area.x, area.w, line, UI_TEXT);
    if (head == 2)
        draw_text(s, area.y + 1, area.x, area.w, where, UI_SELECTED);
    for (uint64_t c = 0; c < used; c++) {
        int y = area.y + head + (int)(c / (uint64_t)cols), x = area.x + (int)(c % (uint64_t)cols);
        if (y >= area.y + area.h)
            break;
        unsigned counts[3] = {0, 0, 0};
        uint64_t first = c * per, last = first + per < teams ? first + per : teams;
        for (uint64_t team = first; team < last; team++)
            counts[floor_team_state(v, (uint32_t)team, t_ns)]++;
        const char *glyph;
        ui_role role;
        if (counts[1])
            glyph = s->ascii ? "#" : "■", role = UI_MARK;
        else if (counts[2] && counts[0])
            glyph = s->ascii ? ":" : "▪", role = UI_TEXT;
        else if (counts[2])
            glyph = s->ascii ? "o" : "□", role = UI_RIGHT;
        else
            glyph = s->ascii ? "." : "·", role = UI_DIM;
        if (f->team >= first && f->team < last)
            role = UI_SELECTED;
        draw_text(s, y, x, 1, glyph, role);
    }
}

/* Draws the floor plan: the heading, the stations' boxes, the overview, the keys. */
static void floor_draw(ui_state *s, void *self)
{
    floor_screen *f = self;
    floor_advance(f);
    const floor_view *v = floor_shown(f);
    const kitchen_report *r = f->report;
    layout_rect title = {0, 0, COLS, 1}, footer = {0, LINES - 1, COLS, 1};
    layout_rect body = {1, 1, COLS - 2, LINES - 2};
    char line[512];
    snprintf(line, sizeof line, _(" Floor plan: %s, %llu teams of %llu cooks"), r->kernel,
             (unsigned long long)r->teams, (unsigned long long)r->cooks_per_team);
    draw_text(s, title.y, title.x, title.w, line, UI_TITLE);
    draw_text(s, footer.y, footer.x, footer.w,
              f->have_model ? _(" Space pause   r replay   . step   ←→↑↓ a team   m measured/modeled   q back   ? help")
                            : _(" Space pause   r replay   . step   ←→↑↓ a team   q back   ? help"),
              UI_TITLE);
    unsigned n = v->stations;
    unsigned *busy = calloc(n ? n : 1, sizeof *busy), *done = calloc(n ? n : 1, sizeof *done);
    uint32_t *current = calloc(n ? n : 1, sizeof *current);
    if (!busy || !done || !current) {
        free(busy), free(done), free(current);
        draw_text(s, body.y, body.x, body.w, _("Out of memory for the floor plan."), UI_WRONG);
        return;
    }
    uint64_t t_ns = (uint64_t)f->replay_ns;
    replay_at(v->t, t_ns, n, busy, done, current);
    int y = body.y;
    floor_draw_head(s, f, v, body, &y, busy, done);
    /* the overview keeps a few rows (more for a large grid), the floor takes the rest */
    int rest = body.y + body.h - y, over = FLOOR_OVERVIEW_MIN + (r->teams > (uint64_t)body.w * 2 ? 2 : 0);
    int floor_h = rest - over - 1;
    layout_boxes g;
    int all = layout_box_grid((int)n, body.w, floor_h, FLOOR_BOX_MIN_W, FLOOR_BOX_MIN_H, FLOOR_BOX_MAX_W,
                              FLOOR_BOX_MAX_H, &g);
    if (!all && g.rows_shown > 0 && f->top > g.rows - g.rows_shown)
        f->top = g.rows - g.rows_shown;
    if (all)
        f->top = 0;
    uint32_t lit = v->record[f->team] != UINT32_MAX ? v->t->blocks[v->record[f->team]].station : UINT32_MAX;
    int shown = all ? g.rows : g.rows_shown;
    for (int row = 0; row < shown; row++)
        for (int col = 0; col < g.cols; col++) {
            unsigned st = (unsigned)((row + f->top) * g.cols + col);
            if (st >= n)
                break;
            floor_draw_box(s, v, st, y + row * g.box_h, body.x + col * g.box_w, g.box_w, g.box_h, busy[st], done[st],
                           current[st], st == lit && floor_team_state(v, f->team, t_ns) == 1);
        }
    y += shown * g.box_h;
    if (!all && g.cols > 0) {
        snprintf(line, sizeof line, _("Stations %d to %u of %u (PgUp PgDn scroll; a larger terminal shows them all)"),
                 f->top * g.cols, (unsigned)((f->top + shown) * g.cols) < n ? (unsigned)((f->top + shown) * g.cols) - 1 : n - 1, n);
        draw_text(s, y, body.x, body.w, line, UI_DIM);
    }
    y++;
    floor_draw_overview(s, f, v, (layout_rect){body.x, y, body.w, body.y + body.h - y}, t_ns);
    free(busy), free(done), free(current);
}

/* The floor's keys: the replay, the cursor, the model, scrolling. */
static void floor_key(ui_state *s, void *self, int key)
{
    floor_screen *f = self;
    const floor_view *v = floor_shown(f);
    uint32_t last = f->report->teams > 0 ? (uint32_t)(f->report->teams - 1) : 0;
    int row = f->overview_cols > 0 ? f->overview_cols : 1;
    switch (key) {
    case ' ':
        if (!f->playing && f->replay_ns >= (double)replay_span_ns(v->t))
            f->replay_ns = 0;
        f->playing = !f->playing;
        f->clock_ms = chef_now_ms();
        break;
    case 'r':
        f->replay_ns = 0;
        f->playing = 1;
        f->clock_ms = chef_now_ms();
        break;
    case '.':
        f->playing = 0;
        f->replay_ns = (double)replay_next_event(v->t, (uint64_t)f->replay_ns);
        break;
    case 'm':
        if (!f->have_model) {
            snprintf(s->message, sizeof s->message, "%s",
                     f->report->trace.from_gpu ? _(" This run was traced on a GPU: there is nothing to model.")
                                               : _(" This run was not counted, so there is no model of it."));
            break;
        }
        f->show_model = !f->show_model;
        f->replay_ns = 0;
        f->playing = 1;
        f->top = 0;
        f->clock_ms = chef_now_ms();
        break;
    case KEY_LEFT:
    case 'h':
        f->team = f->team > 0 ? f->team - 1 : 0;
        break;
    case KEY_RIGHT:
    case 'l':
        f->team = f->team < last ? f->team + 1 : last;
        break;
    case KEY_UP:
    case 'k':
        f->team = f->team >= (uint32_t)row ? f->team - (uint32_t)row : 0;
        break;
    case KEY_DOWN:
    case 'j':
        f->team = f->team + (uint32_t)row <= last ? f->team + (uint32_t)row : last;
        break;
    case KEY_HOME:
        f->team = 0;
        break;
    case KEY_END:
        f->team = last;
        break;
    case KEY_NPAGE:
        f->top++;
        break;
    case KEY_PPAGE:
        f->top = f->top > 0 ? f->top - 1 : 0;
        break;
    case 'q':
    case 27:
        ui_back(s);
        break;
    default:
        break;
    }
}

/* The floor plan's keys, for the help. */
static const char *const floor_help[] = {
    N_("Space           pause or play the replay (again from the start once it ended)"),
    N_("r               replay from the start;  .  move it on to the next change"),
    N_("←→ ↑↓           choose a team: its station is lit while it cooks"),
    N_("m               emulator: the modeled GPU's stations, or the run's own workers"),
    N_("PgUp PgDn       more stations, when not all fit"),
    N_("q Esc           back to the kitchen"),
    NULL,
};

const ui_screen_class ui_screen_floor = {
    .name = "floor",
    .size = sizeof(floor_screen),
    .open = floor_open,
    .draw = floor_draw,
    .key = floor_key,
    .close = floor_close,
    .tick = floor_tick,
    .help = floor_help,
};
