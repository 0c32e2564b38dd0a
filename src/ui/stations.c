/*
 * stations.c - a run's stations as the kitchen's cook step and the side-by-side (screen_versus.c)
 * draw them: for each station that cooked (an SM on a GPU, a worker of the CPU emulator) the teams
 * on it at the replay's moment, the most it held at once in the run, and the most it could hold,
 * as a bar and figures, "SM 17  ■■■▣▣□□□  3/8 most 5  team 812", then a summary line.
 *
 * Every figure comes from the run: where and when each team cooked from its trace (%smid and
 * %globaltimer on a GPU, the worker and the CPU clock on the emulator), the most at once from
 * replay_peaks, and the limit from the backend that cooked it (backend.h's occupancy: the CUDA
 * occupancy calculator on a GPU, one team per worker on the emulator), asked once per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_draw.h"
#include "engine/replay.h"
#include "base/text.h"

#define STATIONS_BAR_MAX 8 /* a station's bar: at most this many cells (scaled past it) */
#define STATIONS_GAP 2     /* columns between two stations on a row */

/* Asks the backend that cooked the run how many of its teams one station holds at once. */
static void stations_limit(ui_stations *st, const kitchen_report *r)
{
    chef_error err = {0};
    backend *be = backend_open(r->backend.kind, &err);
    int teams = 0, cooks = 0;
    if (be && !be->occupancy)
        snprintf(err.message, sizeof err.message, "%s", _("this backend cannot say"));
    else if (be && be->occupancy(be, r->kernel, r->plan.block, &teams, &cooks, &err) == 0) {
        st->limit = teams;
        st->cooks_limit = cooks;
    }
    backend_close(be);
    if (st->limit <= 0)
        snprintf(st->why, sizeof st->why, "%s", err.message[0] ? err.message : _("the backend gave none"));
}

/* Measures the run's stations: their number, what each cooked, the most each held at once, and
   the limit (asked of the backend only when there is a trace to compare it with). */
void stations_measure(ui_stations *st, const kitchen_report *r)
{
    stations_free(st);
    const trace *t = &r->trace;
    st->count = t->from_gpu ? (unsigned)r->backend.sm_count : (unsigned)r->backend.workers;
    for (size_t i = 0; i < t->nblocks; i++)
        if (t->blocks[i].station >= st->count)
            st->count = t->blocks[i].station + 1;
    if (st->count == 0 || t->nblocks == 0)
        return;
    st->teams = calloc(st->count, sizeof *st->teams);
    st->peaks = calloc(st->count, sizeof *st->peaks);
    if (!st->teams || !st->peaks || replay_peaks(t, st->count, st->peaks) != 0) {
        stations_free(st);
        return;
    }
    for (size_t i = 0; i < t->nblocks; i++)
        st->used += st->teams[t->blocks[i].station]++ == 0;
    for (unsigned i = 0; i < st->count; i++)
        st->peak = st->peaks[i] > st->peak ? st->peaks[i] : st->peak;
    stations_limit(st, r);
}

/* Forgets a run's stations. */
void stations_free(ui_stations *st)
{
    free(st->teams);
    free(st->peaks);
    memset(st, 0, sizeof *st);
}

/* The limit and where it comes from, wrapped from row *y. */
void stations_draw_limit(ui_state *s, const ui_stations *st, const kitchen_report *r, layout_rect body, int *y)
{
    char line[600];
    unsigned cooks = r->plan.block.x * r->plan.block.y * r->plan.block.z;
    if (st->limit <= 0)
        snprintf(line, sizeof line, _("Limit: not known (%s)"), st->why);
    else if (r->trace.from_gpu)
        snprintf(line, sizeof line, _("Limit: %d teams of %u cooks per SM (occupancy calculator; %d cooks per SM)"),
                 st->limit, cooks, st->cooks_limit);
    else
        snprintf(line, sizeof line, _("Limit: %d team per worker (an emulator worker cooks one team at a time)"),
                 st->limit);
    kitchen_ui_wrap(s, body, y, 0, line, UI_TEXT);
}

/* The three glyphs of a station's bar: a team on it now, room the run filled at its most, room
   left up to the limit. */
static void stations_glyphs(const ui_state *s, const char **now, const char **most, const char **free_room)
{
    *now = s->ascii ? "#" : "■";
    *most = s->ascii ? "+" : "▣";
    *free_room = s->ascii ? "." : "□";
}

/* Draws a station's bar of width cells at (y, x): busy teams now, the most at once, up to full
   (the limit, or the most on any station when the limit is not known); past width cells each
   stands for full / width teams, and any team at all fills at least one. */
static void stations_bar(ui_state *s, int y, int x, int width, unsigned busy, unsigned most, unsigned full)
{
    const char *now_glyph, *most_glyph, *free_glyph;
    stations_glyphs(s, &now_glyph, &most_glyph, &free_glyph);
    unsigned cells_now = full ? (unsigned)(((unsigned long long)busy * (unsigned)width + full - 1) / full) : 0;
    unsigned cells_most = full ? (unsigned)(((unsigned long long)most * (unsigned)width + full - 1) / full) : 0;
    for (int i = 0; i < width; i++) {
        int on = (unsigned)i < cells_now, seen = (unsigned)i < cells_most;
        draw_span(s, y, x + i, 1, on ? now_glyph : seen ? most_glyph : free_glyph,
                  theme_attr(on ? UI_MARK : seen ? UI_TEXT : UI_DIM, s->color));
    }
}

/* The text of station st's cell: its name, its figures ("3/8 most 5") and its latest team (or,
   when idle, how many of its teams are done). */
static void stations_cell_text(const ui_stations *st, int from_gpu, unsigned station, unsigned busy, unsigned done,
                               uint32_t current, char *name, char *figures, char *team, size_t size, int compact)
{
    snprintf(name, size, from_gpu ? _("SM %u") : _("worker %u"), station);
    if (compact) { /* a cell narrower than the full one: the figures that matter, whole */
        if (st->limit > 0)
            snprintf(figures, size, "%u/%d", busy, st->limit);
        else
            snprintf(figures, size, "%u", busy);
        if (busy > 0)
            snprintf(team, size, _("team %u"), current);
        else if (done == st->teams[station])
            snprintf(team, size, _("all %u done"), done);
        else
            snprintf(team, size, _("%u of %u done"), done, st->teams[station]);
        return;
    }
    if (st->limit > 0)
        snprintf(figures, size, _("%u/%d most %u"), busy, st->limit, st->peaks[station]);
    else
        snprintf(figures, size, _("%u most %u"), busy, st->peaks[station]);
    if (busy > 0)
        snprintf(team, size, _("team %u"), current);
    else
        snprintf(team, size, _("done %u/%u"), done, st->teams[station]);
}

/* The legend of the stations' bars, wrapped from row *y. */
void stations_draw_legend(ui_state *s, layout_rect body, int *y)
{
    const char *now_glyph, *most_glyph, *free_glyph;
    char line[512];
    stations_glyphs(s, &now_glyph, &most_glyph, &free_glyph);
    snprintf(line, sizeof line, _("%s teams on it now  %s the most at once in this run  %s room up to the limit"),
             now_glyph, most_glyph, free_glyph);
    kitchen_ui_wrap(s, body, y, 0, line, UI_DIM);
}

/* The widest of a text's display widths so far. */
static int stations_widest(int widest, const char *text)
{
    int w = text_width(text, strlen(text));
    return w > widest ? w : widest;
}

/* Draws the stations that cooked at moment t_ns of trace t from row *y: the summary (stations
   used, the most teams on one station now and in the run, the limit), a legend (when asked), then a cell per
   station, as many to a row as fit in body's width and as many rows as fit (the last one saying
   how many more there are when not all do); moves *y below them. */
void stations_draw(ui_state *s, const ui_stations *st, const trace *t, uint64_t t_ns, layout_rect body, int *y,
                   int legend)
{
    char line[512];
    if (!st->teams || st->used == 0) {
        kitchen_ui_line(s, body, y, _("No trace was recorded for this run."), UI_DIM);
        return;
    }
    unsigned *busy = calloc(2 * (size_t)st->count, sizeof *busy);
    uint32_t *current = calloc(st->count, sizeof *current);
    if (!busy || !current) {
        free(busy);
        free(current);
        return;
    }
    unsigned *done = busy + st->count, most_now = 0;
    replay_at(t, t_ns, st->count, busy, done, current);
    for (unsigned i = 0; i < st->count; i++)
        most_now = busy[i] > most_now ? busy[i] : most_now;
    if (st->limit > 0)
        snprintf(line, sizeof line, _("Stations used: %u of %u; most teams on one: %u now, %u in this run; limit %d"),
                 st->used, st->count, most_now, st->peak, st->limit);
    else
        snprintf(line, sizeof line, _("Stations used: %u of %u; most teams on one: %u now, %u in this run"), st->used,
                 st->count, most_now, st->peak);
    kitchen_ui_wrap(s, body, y, 0, line, UI_TEXT);
    if (legend)
        stations_draw_legend(s, body, y);
    /* the columns of a cell: the widest name, bar, figures and team of the stations that cooked */
    unsigned full = st->limit > 0 ? (unsigned)st->limit : st->peak;
    int bar = full < STATIONS_BAR_MAX ? (int)(full ? full : 1) : STATIONS_BAR_MAX;
    int name_w = 0, figures_w = 0, team_w = 0, compact = 0;
    char name[64], figures[64], team[64];
    for (int pass = 0; pass < 2; pass++) { /* the full cell; a compact one where it would be cut */
        name_w = figures_w = team_w = 0;
        for (unsigned i = 0; i < st->count; i++) {
            if (!st->teams[i])
                continue;
            stations_cell_text(st, t->from_gpu, i, busy[i], done[i], current[i], name, figures, team, sizeof name,
                               compact);
            name_w = stations_widest(name_w, name);
            figures_w = stations_widest(figures_w, figures);
            team_w = stations_widest(team_w, team);
        }
        if (name_w + 1 + bar + 1 + figures_w + 1 + team_w <= body.w || compact)
            break;
        compact = 1;
    }
    /* each station's latest team goes first when it would leave room for only one cell a row */
    int cell = name_w + 1 + bar + 1 + figures_w + 1 + team_w, narrow = cell - 1 - team_w;
    int per_row = (body.w + STATIONS_GAP) / (cell + STATIONS_GAP);
    if (per_row < 2 && st->used > 1 && (body.w + STATIONS_GAP) / (narrow + STATIONS_GAP) >= 2) {
        cell = narrow;
        team_w = 0;
        per_row = (body.w + STATIONS_GAP) / (cell + STATIONS_GAP);
    }
    per_row = per_row > 0 ? per_row : 1;
    int rows = body.y + body.h - *y, fit = per_row * (rows > 0 ? rows : 0), shown = 0;
    if ((unsigned)fit < st->used) /* the last row says how many more */
        fit = rows > 1 ? per_row * (rows - 1) : 0;
    for (unsigned i = 0; i < st->count && shown < fit; i++) {
        if (!st->teams[i])
            continue;
        int cy = *y + shown / per_row, cx = body.x + (shown % per_row) * (cell + STATIONS_GAP);
        int w = body.x + body.w - cx; /* a single column narrower than a cell is cropped */
        stations_cell_text(st, t->from_gpu, i, busy[i], done[i], current[i], name, figures, team, sizeof name,
                           compact);
        draw_text(s, cy, cx, w < name_w ? w : name_w, name, UI_HEADING);
        if (w > name_w + 1 + bar)
            stations_bar(s, cy, cx + name_w + 1, bar, busy[i], st->peaks[i], full);
        int fx = name_w + 1 + bar + 1;
        if (w > fx)
            draw_text(s, cy, cx + fx, w - fx < figures_w ? w - fx : figures_w, figures, UI_TEXT);
        if (team_w > 0 && w > fx + figures_w + 1)
            draw_text(s, cy, cx + fx + figures_w + 1, w - fx - figures_w - 1, team, busy[i] ? UI_SELECTED : UI_DIM);
        shown++;
    }
    *y += (shown + per_row - 1) / per_row;
    if ((unsigned)shown < st->used) {
        snprintf(line, sizeof line, _("... and %u more stations that cooked"), st->used - (unsigned)shown);
        kitchen_ui_line(s, body, y, line, UI_DIM);
    }
    free(busy);
    free(current);
}
