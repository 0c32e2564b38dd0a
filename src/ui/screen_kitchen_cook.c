/*
 * screen_kitchen_cook.c - the kitchen's cook step: the grid, and the launch replayed on its stations.
 *
 * The trace of the run says on which station (an SM on a GPU, a worker of the CPU emulator) each
 * team cooked, and when. At the replay's moment (the screen's replay_ns, moved on by screen_kitchen.c
 * so that the whole launch lasts KITCHEN_REPLAY_S on screen) replay_at says which teams are cooking
 * where; stations.c draws each station that cooked with the teams on it now, the most it held at
 * once and the limit the backend gives, lit with its latest team while busy, else with how many of
 * its teams are done. Where the figures come from is said above them (%smid and %globaltimer on a
 * GPU; the emulator's workers and the CPU clock), and a progress bar and the scale (1 s on screen =
 * so much of the run). With z the stations give way to the team under the cursor (screen_team.c).
 */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "demos/race.h"
#include "engine/report.h"
#include "ui/kitchen_screen.h"
#include "engine/replay.h"

/* Step 3: the grid, and the stations with the teams the trace put on each. */
void kitchen_ui_draw_cook(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_report *r = k->report;
    const trace *t = &r->trace;
    char line[512];
    if (k->zoom) { /* the team's cooks take the whole step, so a team of 1024 fits at 80 x 24 */
        team_zoom_draw(s, k, body, y);
        return;
    }
    snprintf(line, sizeof line, _("Grid %u x %u x %u, teams of %u x %u x %u cooks; teams: %llu, cooks: %llu"),
             r->plan.grid.x, r->plan.grid.y, r->plan.grid.z, r->plan.block.x, r->plan.block.y, r->plan.block.z,
             (unsigned long long)r->teams, (unsigned long long)r->cooks);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    char took[32];
    chef_format_ms(r->cook_ms, took, sizeof took);
    if (r->one_launch && r->idle_known) /* a program's launch: idle is what the cooks' records say */
        snprintf(line, sizeof line, _("Idle cooks (nothing read or written): %llu, %llu of them in the last team.  This launch took %s"),
                 (unsigned long long)r->idle_cooks, (unsigned long long)r->idle_cooks_last_team, took);
    else if (r->one_launch)
        snprintf(line, sizeof line, _("This launch took %s (too many cooks to keep each one's record)"), took);
    else
        snprintf(line, sizeof line, _("Idle cooks of the last team: %llu.  Cooking took %s (median of %d)"),
                 (unsigned long long)r->idle_cooks_last_team, took, r->repeat);
    double flops = 0, gflops = report_gflops(r, &flops);
    if (gflops > 0) { /* lesson 4 asks learners to look for it */
        char rate[32], more[160];
        race_format_gflops(gflops, rate, sizeof rate);
        snprintf(more, sizeof more, _(": %s GFLOP/s (2 n^3 = %.3g operations)"), rate, flops);
        strncat(line, more, sizeof line - strlen(line) - 1);
    }
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    kitchen_ui_draw_counters(s, r, body, y);
    const ui_stations *st = &k->stations;
    if (t->from_gpu)
        snprintf(line, sizeof line, _("GPU %s: %u stations (SMs), %u cooked (traced: %%smid, %%globaltimer)"),
                 r->backend.name, st->count, st->used);
    else
        snprintf(line, sizeof line, _("CPU emulator: %u stations (workers), %u cooked (traced: worker, CPU clock)"),
                 st->count, st->used);
    kitchen_ui_wrap(s, body, y, 0, line, UI_HEADING);
    if (st->count == 0 || t->nblocks == 0) {
        if (t->stopped && t->threads) {
            snprintf(line, sizeof line,
                     _("The launch stopped at a fault in team %u, so there is no replay; z shows what each of its "
                       "cooks did up to then."), t->stopped_team);
            kitchen_ui_wrap(s, body, y, 0, line, UI_WRONG);
        } else {
            kitchen_ui_line(s, body, y, _("No trace was recorded for this run."), UI_DIM);
        }
        return;
    }
    stations_draw_limit(s, st, r, body, y);
    /* the replay's clock: the scale, the moment shown and whether it moves */
    uint64_t span = replay_span_ns(t);
    char scale[64], now[64], total[64];
    kitchen_ui_duration(replay_ns_per_screen_second(span, KITCHEN_REPLAY_S), scale, sizeof scale);
    kitchen_ui_duration(k->replay_ns, now, sizeof now);
    kitchen_ui_duration((double)span, total, sizeof total);
    size_t cooking = replay_at(t, (uint64_t)k->replay_ns, 0, NULL, NULL, NULL);
    snprintf(line, sizeof line,
             t->from_gpu ? _("Replay of the traced launch: 1 s on screen = %s.  %s of %s; teams cooking: %zu")
                         : _("Replay of the checked launch (slower than the timed ones): 1 s on screen = %s.  %s of "
                             "%s; teams cooking: %zu"),
             scale, now, total, cooking);
    kitchen_ui_wrap(s, body, y, 0, line, UI_TEXT);
    if (t->from_gpu && r->traced_ms * 1e6 > (double)span) { /* what the replay does not show */
        char gap[64], event[64];
        kitchen_ui_duration(r->traced_ms * 1e6 - (double)span, gap, sizeof gap);
        kitchen_ui_duration(r->traced_ms * 1e6, event, sizeof event);
        snprintf(line, sizeof line,
                 _("The replay spans %s, from the first team's start to the last team's end; the events timed "
                   "%s around the same launch. The %s between is the launch's own cost: starting the grid, "
                   "handing out teams, and the end."),
                 total, event, gap);
        kitchen_ui_wrap(s, body, y, 0, line, UI_DIM);
    }
    if (*y < body.y + body.h) { /* the launch's progress, and whether the replay moves */
        int bar = body.w - 4 < 40 ? body.w - 4 : 40;
        kitchen_ui_bar(s, *y, body.x + 2, bar, span ? k->replay_ns / (double)span : 1);
        draw_text(s, *y, body.x + 4 + bar, body.w - 4 - bar, kitchen_ui_motion(k->playing, k->replay_ns >= (double)span),
                  UI_DIM);
    }
    (*y)++;
    snprintf(line, sizeof line, _("Team %u under the cursor (↑↓ choose; z zooms into its cooks)"), k->team);
    draw_text(s, *y, body.x, body.w, line, UI_DIM);
    (*y)++;
    stations_draw(s, st, t, (uint64_t)k->replay_ns, body, y, 1);
}
