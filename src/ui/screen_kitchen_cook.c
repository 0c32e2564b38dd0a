/*
 * screen_kitchen_cook.c - the kitchen's cook step: the grid, and the launch replayed on its stations.
 *
 * The trace of the run says on which station (an SM on a GPU, a worker of the CPU emulator) each
 * team cooked, and when. At the replay's moment (s->kitchen.replay_ns, moved on by screen_kitchen.c
 * so that the whole launch lasts KITCHEN_REPLAY_S on screen) replay_at says which teams are cooking
 * where; each station that cooked is a box, lit with its latest team while busy, else with how many
 * of its teams are done. A progress bar and the scale (1 s on screen = so much of the run) sit
 * above the boxes. With z the boxes give way to the team under the cursor (screen_team.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "i18n.h"
#include "kitchen_ui.h"
#include "replay.h"

#define KITCHEN_BOX_W 14 /* a station's box: columns */
#define KITCHEN_BOX_H 3  /* and rows */

/* Step 3: the grid, and the stations with the teams the trace put on each. */
void kitchen_ui_draw_cook(ui_state *s, layout_rect body, int *y)
{
    const kitchen_report *r = s->kitchen.report;
    const trace *t = &r->trace;
    char line[512];
    snprintf(line, sizeof line, _("Grid %u x %u x %u, teams of %u x %u x %u cooks; teams: %llu, cooks: %llu"),
             r->plan.grid.x, r->plan.grid.y, r->plan.grid.z, r->plan.block.x, r->plan.block.y, r->plan.block.z,
             (unsigned long long)r->teams, (unsigned long long)r->cooks);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    char took[32];
    chef_format_ms(r->cook_ms, took, sizeof took);
    snprintf(line, sizeof line, _("Idle cooks of the last team: %llu.  Cooking took %s (median of %d)"),
             (unsigned long long)r->idle_cooks_last_team, took, r->repeat);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    unsigned nstations = t->from_gpu ? (unsigned)r->backend.sm_count : (unsigned)r->backend.workers;
    for (size_t i = 0; i < t->nblocks; i++)
        if (t->blocks[i].station >= nstations)
            nstations = t->blocks[i].station + 1;
    if (t->from_gpu)
        snprintf(line, sizeof line, _("GPU %s: %u stations (SMs); %u cooked"), r->backend.name, nstations,
                 r->trace_summary.stations_used);
    else
        snprintf(line, sizeof line, _("CPU emulator: %u stations (workers); %u cooked. Times are CPU times."),
                 nstations, r->trace_summary.stations_used);
    kitchen_ui_line(s, body, y, line, UI_HEADING);
    if (nstations == 0 || t->nblocks == 0) {
        kitchen_ui_line(s, body, y, _("No trace was recorded for this run."), UI_DIM);
        return;
    }
    unsigned *teams = calloc(3 * (size_t)nstations, sizeof *teams);
    uint32_t *current = calloc(nstations, sizeof *current);
    if (!teams || !current) {
        free(teams);
        free(current);
        return;
    }
    unsigned *busy = teams + nstations, *done = teams + 2 * (size_t)nstations;
    for (size_t i = 0; i < t->nblocks; i++)
        teams[t->blocks[i].station]++;
    /* the replay's clock: the scale, the moment shown and whether it moves */
    const ui_kitchen *k = &s->kitchen;
    uint64_t span = replay_span_ns(t);
    char scale[64], now[64], total[64];
    kitchen_ui_duration(replay_ns_per_screen_second(span, KITCHEN_REPLAY_S), scale, sizeof scale);
    kitchen_ui_duration(k->replay_ns, now, sizeof now);
    kitchen_ui_duration((double)span, total, sizeof total);
    size_t cooking = replay_at(t, (uint64_t)k->replay_ns, nstations, busy, done, current);
    snprintf(line, sizeof line,
             t->from_gpu ? _("Replay of the traced launch: 1 s on screen = %s.  %s of %s; teams cooking: %zu")
                         : _("Replay of the checked launch (slower than the timed ones): 1 s on screen = %s.  %s of "
                             "%s; teams cooking: %zu"),
             scale, now, total, cooking);
    kitchen_ui_wrap(s, body, y, 0, line, UI_TEXT);
    if (*y < body.y + body.h) { /* the launch's progress, and whether the replay moves */
        int bar = body.w - 4 < 40 ? body.w - 4 : 40;
        kitchen_ui_bar(s, *y, body.x + 2, bar, span ? k->replay_ns / (double)span : 1);
        draw_text(s, *y, body.x + 4 + bar, body.w - 4 - bar, kitchen_ui_motion(k->playing, k->replay_ns >= (double)span),
                  UI_DIM);
    }
    (*y)++;
    if (k->zoom) {
        team_zoom_draw(s, body, y);
        free(teams);
        free(current);
        return;
    }
    snprintf(line, sizeof line, _("Team %u under the cursor (↑↓ choose; z zooms into its cooks)"), k->team);
    draw_text(s, *y, body.x, body.w, line, UI_DIM);
    (*y)++;
    /* the stations that cooked, as boxes, as many as fit; a busy one is lit with its latest team */
    int per_row = body.w / KITCHEN_BOX_W, rows = (body.y + body.h - *y - 1) / KITCHEN_BOX_H;
    int shown = 0, fit = per_row * (rows > 0 ? rows : 0);
    unsigned used = 0;
    for (unsigned st = 0; st < nstations; st++) {
        if (!teams[st])
            continue;
        used++;
        if (shown >= fit)
            continue;
        layout_rect box = {body.x + (shown % per_row) * KITCHEN_BOX_W, *y + (shown / per_row) * KITCHEN_BOX_H,
                           KITCHEN_BOX_W - 1, KITCHEN_BOX_H};
        draw_box(s, box, busy[st] ? UI_MARK : UI_BORDER);
        snprintf(line, sizeof line, t->from_gpu ? _("SM %u") : _("worker %u"), st);
        draw_span(s, box.y, box.x + 1, box.w - 2, line, theme_attr(UI_HEADING, s->color));
        if (busy[st] > 1) /* the latest team, and how many more cook beside it */
            snprintf(line, sizeof line, _("team %u +%u"), current[st], busy[st] - 1);
        else if (busy[st] == 1)
            snprintf(line, sizeof line, _("team %u"), current[st]);
        else
            snprintf(line, sizeof line, _("done %u/%u"), done[st], teams[st]);
        draw_text(s, box.y + 1, box.x + 1, box.w - 2, line, busy[st] ? UI_SELECTED : UI_DIM);
        shown++;
    }
    *y += ((shown + per_row - 1) / (per_row ? per_row : 1)) * KITCHEN_BOX_H;
    if ((unsigned)shown < used) {
        snprintf(line, sizeof line, _("... and %u more stations that cooked"), used - (unsigned)shown);
        kitchen_ui_line(s, body, y, line, UI_DIM);
    }
    free(teams);
    free(current);
}
