/*
 * screen_kitchen.c - the kitchen: one real run of a lesson's demo, shown step by step.
 *
 * `r` on a page that places a demo of kind run comes here. The demo's recipe runs through
 * kitchen_run with the demo's parameters (lesson_demo_params, as `cudachef run` uses them), then
 * the five steps are drawn as a pipeline across the top; left and right move between them. Each
 * step shows that run's figures from the kitchen_report and nothing else: bytes, times and GB/s of
 * the shipments, the grid and its idle cooks, the stations with the teams the trace put on each,
 * the tasting with its first mismatches, and the journey's share spent on the road.
 * On the cook step the trace is replayed slowed down (replay.c says what is on each station at a
 * moment): the stations fill and empty with teams at the recorded times, the whole launch lasting
 * a few seconds on screen with the scale shown; Space pauses and resumes, `.` steps to the next
 * change. On the ship steps a load crosses the road between the pantries at a speed that follows
 * the measured GB/s (a shipment at KITCHEN_SHIP_GBPS takes KITCHEN_SHIP_S on screen, faster ones
 * less, within bounds), the scale and the bytes on each side shown. While something moves the screen asks the loop for a frame every KITCHEN_FRAME_MS
 * (ui_state.tick_ms); otherwise the loop sleeps. The learner changes the parameters here (+ - n,
 * [ ] threads per team, p pinned, b backend) and Enter cooks again with them; every figure shown is
 * from the run just made. Runs are synchronous (after drawing "cooking...").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chef.h"
#include "i18n.h"
#include "lesson_run.h"
#include "replay.h"
#include "ui.h"

#define KITCHEN_STEPS 5
#define KITCHEN_BOX_W 14 /* a station's box: columns */
#define KITCHEN_BOX_H 3  /* and rows */
#define KITCHEN_REPLAY_S 4.0 /* the launch's replay lasts this many seconds on screen */
#define KITCHEN_FRAME_MS 33  /* about 30 frames a second while something moves */
#define KITCHEN_SHIP_GBPS 20.0 /* a shipment at this speed crosses the road in KITCHEN_SHIP_S */
#define KITCHEN_SHIP_S 3.0
#define KITCHEN_SHIP_MIN_S 1.0 /* the crossing is kept between these, so it stays watchable */
#define KITCHEN_SHIP_MAX_S 10.0
#define CLASSROOM_SEED 2026 /* classroom mode: every run the class sees has the same data */

/* The steps' names, in the order they happen. */
static const char *kitchen_step_name(int step)
{
    switch (step) {
    case 0:
        return _("prepare");
    case 1:
        return _("ship in");
    case 2:
        return _("cook");
    case 3:
        return _("ship out");
    default:
        return _("taste");
    }
}

/* The demo's title in the learner's language. */
static const char *kitchen_title(const lesson_demo *d)
{
    const char *t = d->title[i18n_current()];
    if (!t)
        t = d->title[I18N_EN];
    return t ? t : d->name;
}

/* Milliseconds on the monotonic clock. */
static double kitchen_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Starts the step's animation from its beginning (the cook step's replay, the ship steps' load). */
static void kitchen_step_start(ui_kitchen *k)
{
    k->replay_ns = 0;
    k->ship_s = 0;
    k->zoom = 0;
    k->playing = k->report && k->report->started && k->step >= 1 && k->step <= 3;
    k->clock_ms = kitchen_now_ms();
}

/* The shipment of a ship step (1 in, 3 out). */
static const kitchen_copy *kitchen_copy_of(const ui_kitchen *k)
{
    return k->step == 3 ? &k->report->ship_out : &k->report->ship_in;
}

/* Seconds on screen a shipment's crossing lasts: inversely proportional to its GB/s, bounded. */
static double kitchen_ship_screen_s(const kitchen_copy *c)
{
    double screen_s = c->gb_per_s > 0 ? KITCHEN_SHIP_S * KITCHEN_SHIP_GBPS / c->gb_per_s : KITCHEN_SHIP_MAX_S;
    return screen_s < KITCHEN_SHIP_MIN_S ? KITCHEN_SHIP_MIN_S : screen_s > KITCHEN_SHIP_MAX_S ? KITCHEN_SHIP_MAX_S : screen_s;
}

/* Moves the animation on by the time since the last frame and says whether to ask for another. */
static void kitchen_advance(ui_state *s)
{
    ui_kitchen *k = &s->kitchen;
    double now = kitchen_now_ms(), screen_s = (now - k->clock_ms) / 1e3;
    k->clock_ms = now;
    if (k->playing && k->step == 2) {
        uint64_t span = replay_span_ns(&k->report->trace);
        k->replay_ns += screen_s * replay_ns_per_screen_second(span, KITCHEN_REPLAY_S);
        if (k->replay_ns >= (double)span) {
            k->replay_ns = (double)span;
            k->playing = 0;
        }
    } else if (k->playing && (k->step == 1 || k->step == 3)) {
        const kitchen_copy *c = kitchen_copy_of(k);
        double run_s = c->ms / 1e3;
        k->ship_s += screen_s * run_s / kitchen_ship_screen_s(c);
        if (k->ship_s >= run_s) {
            k->ship_s = run_s;
            k->playing = 0;
        }
    } else {
        k->playing = 0;
    }
    s->tick_ms = k->playing ? KITCHEN_FRAME_MS : 0;
}

/* A duration of the run in words: ns, us or ms. */
static void kitchen_duration(double ns, char *out, size_t size)
{
    if (ns < 1e3)
        snprintf(out, size, _("%.3g ns"), ns);
    else if (ns < 1e6)
        snprintf(out, size, _("%.3g us"), ns / 1e3);
    else
        snprintf(out, size, _("%.3g ms"), ns / 1e6);
}

/* Cooks with k->params, replacing the run shown; draws "cooking..." first, as it may take a moment. */
static void kitchen_cook_now(ui_state *s)
{
    ui_kitchen *k = &s->kitchen;
    if (k->report) {
        kitchen_report_free(k->report);
        free(k->report);
    }
    erase();
    draw_text(s, 0, 0, COLS, kitchen_title(k->demo), UI_TITLE);
    draw_text(s, LINES / 2, 2, COLS - 4, _("cooking..."), UI_HEADING);
    refresh();
    k->changed = 0;
    k->team = 0;
    k->report = calloc(1, sizeof *k->report);
    if (!k->report) {
        k->code = CHEF_EXIT_ENVIRONMENT;
        return;
    }
    k->code = kitchen_run(&k->params, k->report);
    /* the recipe's defaults, now known, become the values the keys change */
    if (k->report->started) {
        if (k->params.n == 0)
            k->params.n = k->report->plan.n;
        if (k->params.threads_per_block == 0)
            k->params.threads_per_block =
                (int)(k->report->plan.block.x * k->report->plan.block.y * k->report->plan.block.z);
    }
    kitchen_step_start(k);
}

/* Runs the demo with its own parameters and keeps its report. */
void kitchen_screen_open(ui_state *s, const lesson_demo *demo)
{
    kitchen_screen_close(s);
    ui_kitchen *k = &s->kitchen;
    k->demo = demo;
    k->step = 0;
    s->screen = UI_SCREEN_KITCHEN;
    demo_overrides none;
    memset(&none, 0, sizeof none);
    demo_params dp;
    lesson_demo_params(demo, &none, !s->gpu, &dp, NULL, 0);
    k->params = dp.run;
    k->params.recipe = demo->recipe;
    if (s->classroom && !k->params.seed_given) {
        k->params.seed = CLASSROOM_SEED;
        k->params.seed_given = 1;
    }
    kitchen_cook_now(s);
}

/* Frees the run. */
void kitchen_screen_close(ui_state *s)
{
    ui_kitchen *k = &s->kitchen;
    if (k->report) {
        kitchen_report_free(k->report);
        free(k->report);
    }
    memset(k, 0, sizeof *k);
    s->tick_ms = 0;
}

/* Shows step (clamped to the five) and starts its replay or shipment from the beginning. */
void kitchen_screen_go(ui_state *s, int step)
{
    ui_kitchen *k = &s->kitchen;
    k->step = step < 0 ? 0 : step >= KITCHEN_STEPS ? KITCHEN_STEPS - 1 : step;
    kitchen_step_start(k);
}

/* Draws the five steps across row y, the one in view highlighted. */
static void kitchen_draw_pipeline(ui_state *s, layout_rect body, int y)
{
    int x = body.x;
    for (int i = 0; i < KITCHEN_STEPS && x < body.x + body.w; i++) {
        char cell[96];
        snprintf(cell, sizeof cell, " %d %s ", i + 1, kitchen_step_name(i));
        ui_role role = i == s->kitchen.step ? UI_SELECTED : UI_DIM;
        x += draw_span(s, y, x, body.x + body.w - x, cell, theme_attr(role, s->color));
        if (i + 1 < KITCHEN_STEPS)
            x += draw_span(s, y, x, body.x + body.w - x, " ▶ ", theme_attr(UI_TEXT, s->color));
    }
}

/* Writes one line of a step's text at *y and moves down. */
static void kitchen_line(ui_state *s, layout_rect body, int *y, const char *text, ui_role role)
{
    if (*y < body.y + body.h)
        draw_text(s, *y, body.x, body.w, text, role);
    (*y)++;
    if (s->classroom) /* on a projector: a blank row between lines */
        (*y)++;
}

/* The first values of buffer i, as "NAME: v v v ..." ("..." when there are more). */
static void kitchen_samples(const kitchen_report *r, int i, char *out, size_t size)
{
    size_t n = snprintf(out, size, "  %s:", r->plan.buffers[i].name);
    for (size_t j = 0; j < r->sample_counts[i] && n < size; j++)
        n += snprintf(out + n, size - n, " %g", r->samples[i][j]);
    if (r->plan.buffers[i].count > r->sample_counts[i] && n < size)
        snprintf(out + n, size - n, " ... %g", r->sample_last[i]);
}

/* The buffers that are inputs (is_output 0) or outputs (1), with their first values. */
static void kitchen_buffers(ui_state *s, layout_rect body, int *y, int outputs)
{
    const kitchen_report *r = s->kitchen.report;
    for (int i = 0; i < r->plan.nbuffers; i++) {
        if (r->plan.buffers[i].is_output != outputs)
            continue;
        char line[512];
        kitchen_samples(r, i, line, sizeof line);
        kitchen_line(s, body, y, line, UI_CODE);
    }
}

/* A bar of width columns, share (0..1) of it filled. */
static void kitchen_bar(ui_state *s, int y, int x, int width, double share)
{
    int filled = (int)(share * width + 0.5);
    filled = filled < 0 ? 0 : filled > width ? width : filled;
    attr_t on = theme_attr(UI_MARK, s->color) | A_REVERSE, off = theme_attr(UI_DIM, s->color);
    for (int i = 0; i < width; i++)
        draw_span(s, y, x + i, 1, i < filled ? (s->ascii ? "#" : "█") : (s->ascii ? "." : "·"), i < filled ? on : off);
}

/* The journey: the shipping share of the whole run, as a number and a bar. */
static void kitchen_journey(ui_state *s, layout_rect body, int *y)
{
    const kitchen_report *r = s->kitchen.report;
    char line[256];
    snprintf(line, sizeof line, _("On the road: %.1f%% of the journey (shipping %.3f ms of %.3f ms)"),
             100.0 * r->shipping_share, r->shipping_ms, r->total_ms);
    kitchen_line(s, body, y, line, UI_TEXT);
    if (*y < body.y + body.h)
        kitchen_bar(s, *y, body.x + 2, body.w - 4 < 50 ? body.w - 4 : 50, r->shipping_share);
    (*y)++;
}

/* What the animation is doing, in a few words. */
static const char *kitchen_motion(int playing, int finished)
{
    return playing ? _("[playing]") : finished ? _("[finished: Space replays]") : _("[paused]");
}

/* The road between the pantries with the load on it, the bytes on each side and the scale. */
static void kitchen_road(ui_state *s, layout_rect body, int *y, const kitchen_copy *c, int out)
{
    const ui_kitchen *k = &s->kitchen;
    char left[128], right[128], line[256], scale[64];
    int width = body.w < 72 ? body.w : 72;
    if (*y + 4 > body.y + body.h || width < 20) {
        *y += 4;
        return;
    }
    size_t arrived = replay_shipped(c->bytes, c->gb_per_s, k->ship_s);
    if (k->ship_s >= c->ms / 1e3)
        arrived = c->bytes; /* the whole time has passed: rounding never leaves a byte behind */
    snprintf(left, sizeof left, "%s", _("Pantry (RAM)"));
    snprintf(right, sizeof right, "%s", _("Kitchen (VRAM)"));
    draw_text(s, *y, body.x, width / 2, left, UI_HEADING);
    int rw = markdown_text_width(right, strlen(right));
    draw_text(s, *y, body.x + width - rw, rw, right, UI_HEADING);
    (*y)++;
    /* the road: the load (3 cells) moves from the source's end to the destination's */
    int road = width - 3;
    double share = c->bytes ? (double)arrived / (double)c->bytes : 1;
    int at = (int)(share * road + 0.5);
    if (out)
        at = road - at;
    attr_t plain = theme_attr(UI_DIM, s->color), load = theme_attr(UI_MARK, s->color) | A_BOLD;
    draw_span(s, *y, body.x, 1, out ? "◀" : " ", plain);
    for (int i = 0; i < road; i++)
        draw_span(s, *y, body.x + 1 + i, 1, "─", plain);
    draw_span(s, *y, body.x + 1 + road, 1, out ? " " : "▶", plain);
    draw_span(s, *y, body.x + 1 + (at > road - 3 ? road - 3 : at), 3, s->ascii ? "###" : "▣▣▣", load);
    (*y)++;
    snprintf(left, sizeof left, out ? _("%zu bytes arrived") : _("%zu bytes left to ship"),
             out ? arrived : c->bytes - arrived);
    snprintf(right, sizeof right, out ? _("%zu bytes left to ship") : _("%zu bytes arrived"),
             out ? c->bytes - arrived : arrived);
    draw_text(s, *y, body.x, width / 2, left, UI_TEXT);
    rw = markdown_text_width(right, strlen(right));
    draw_text(s, *y, body.x + width - rw, rw, right, UI_TEXT);
    (*y)++;
    double screen_s = kitchen_ship_screen_s(c);
    kitchen_duration(c->ms * 1e6 / screen_s, scale, sizeof scale);
    snprintf(line, sizeof line, _("1 s on screen = %s of the run (%.0f GB/s cross in %.0f s)  %s"), scale,
             KITCHEN_SHIP_GBPS, KITCHEN_SHIP_S, kitchen_motion(k->playing, arrived >= c->bytes));
    kitchen_line(s, body, y, line, UI_DIM);
}

/* Step 2 or 4: one shipment's bytes, time, speed and kind of host memory. */
static void kitchen_shipment(ui_state *s, layout_rect body, int *y, const kitchen_copy *c, int out)
{
    const kitchen_report *r = s->kitchen.report;
    char line[256];
    snprintf(line, sizeof line, out ? _("From the kitchen (VRAM) back to the pantry (RAM): %zu bytes")
                                    : _("From the pantry (RAM) to the kitchen (VRAM): %zu bytes"),
             c->bytes);
    kitchen_line(s, body, y, line, UI_TEXT);
    snprintf(line, sizeof line, _("%.3f ms, %.2f GB/s, %s host memory"), c->ms, c->gb_per_s,
             r->params.pinned ? _("pinned") : _("pageable"));
    kitchen_line(s, body, y, line, UI_TEXT);
    (*y)++;
    kitchen_road(s, body, y, c, out);
    (*y)++;
    kitchen_buffers(s, body, y, out);
    (*y)++;
    kitchen_journey(s, body, y);
}

/* Step 3: the grid, and the stations with the teams the trace put on each. */
static void kitchen_cook(ui_state *s, layout_rect body, int *y)
{
    const kitchen_report *r = s->kitchen.report;
    const trace *t = &r->trace;
    char line[512];
    snprintf(line, sizeof line, _("Grid %u x %u x %u teams of %u x %u x %u cooks: %llu teams, %llu cooks"),
             r->plan.grid.x, r->plan.grid.y, r->plan.grid.z, r->plan.block.x, r->plan.block.y, r->plan.block.z,
             (unsigned long long)r->teams, (unsigned long long)r->cooks);
    kitchen_line(s, body, y, line, UI_TEXT);
    snprintf(line, sizeof line, _("Idle cooks of the last team: %llu.  Cooking took %.3f ms (median of %d)"),
             (unsigned long long)r->idle_cooks_last_team, r->cook_ms, r->repeat);
    kitchen_line(s, body, y, line, UI_TEXT);
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
    kitchen_line(s, body, y, line, UI_HEADING);
    if (nstations == 0 || t->nblocks == 0) {
        kitchen_line(s, body, y, _("No trace was recorded for this run."), UI_DIM);
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
    kitchen_duration(replay_ns_per_screen_second(span, KITCHEN_REPLAY_S), scale, sizeof scale);
    kitchen_duration(k->replay_ns, now, sizeof now);
    kitchen_duration((double)span, total, sizeof total);
    size_t cooking = replay_at(t, (uint64_t)k->replay_ns, nstations, busy, done, current);
    snprintf(line, sizeof line, _("1 s on screen = %s of the run.  %s of %s, %zu teams cooking"), scale, now, total,
             cooking);
    kitchen_line(s, body, y, line, UI_TEXT);
    if (*y < body.y + body.h) { /* the launch's progress, and whether the replay moves */
        int bar = body.w - 4 < 40 ? body.w - 4 : 40;
        kitchen_bar(s, *y, body.x + 2, bar, span ? k->replay_ns / (double)span : 1);
        draw_text(s, *y, body.x + 4 + bar, body.w - 4 - bar, kitchen_motion(k->playing, k->replay_ns >= (double)span),
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
        kitchen_line(s, body, y, line, UI_DIM);
    }
    free(teams);
    free(current);
}

/* Step 5's chart: the run's timings as bars on one scale (the longest fills the bar), each with its
   milliseconds, then the share spent on the road. */
static void kitchen_timings(ui_state *s, layout_rect body, int *y)
{
    const kitchen_report *r = s->kitchen.report;
    const char *names[4] = {kitchen_step_name(1), kitchen_step_name(2), kitchen_step_name(3), _("CPU reference")};
    double ms[4] = {r->ship_in.ms, r->cook_ms, r->ship_out.ms, r->reference_ms}, longest = 0;
    for (int i = 0; i < 4; i++)
        longest = ms[i] > longest ? ms[i] : longest;
    kitchen_line(s, body, y, _("Timings of this run (the longest fills the bar):"), UI_HEADING);
    int label = 16, bar = body.w - label - 16 < 40 ? body.w - label - 16 : 40;
    for (int i = 0; i < 4 && bar > 4; i++) {
        if (*y < body.y + body.h) {
            char value[64];
            draw_text(s, *y, body.x + 2, label - 2, names[i], UI_TEXT);
            kitchen_bar(s, *y, body.x + label, bar, longest > 0 ? ms[i] / longest : 0);
            snprintf(value, sizeof value, _("%.3f ms"), ms[i]);
            draw_text(s, *y, body.x + label + bar + 1, body.w - label - bar - 1, value, UI_TEXT);
        }
        (*y)++;
        if (s->classroom)
            (*y)++;
    }
    kitchen_journey(s, body, y);
}

/* Step 5: passed or failed, the first mismatches, the reference's time and the journey. */
static void kitchen_taste(ui_state *s, layout_rect body, int *y)
{
    const kitchen_report *r = s->kitchen.report;
    const verify_result *v = &r->taste;
    char line[256];
    snprintf(line, sizeof line, v->passed ? _("✓ Passed: %zu of %zu elements match the CPU's reference")
                                          : _("✗ Failed: %zu of %zu elements match the CPU's reference"),
             v->correct, v->checked);
    kitchen_line(s, body, y, line, v->passed ? UI_RIGHT : UI_WRONG);
    snprintf(line, sizeof line, _("Largest error %g; the reference took %.3f ms"), v->max_abs_error, r->reference_ms);
    kitchen_line(s, body, y, line, UI_TEXT);
    for (size_t i = 0; i < v->nmismatches; i++) {
        snprintf(line, sizeof line, _("  element %zu: expected %g, got %g"), v->mismatches[i].index,
                 v->mismatches[i].expected, v->mismatches[i].got);
        kitchen_line(s, body, y, line, UI_WRONG);
    }
    (*y)++;
    kitchen_buffers(s, body, y, 1);
    (*y)++;
    kitchen_timings(s, body, y);
}

/* Draws the step in view. */
static void kitchen_draw_step(ui_state *s, layout_rect body, int y)
{
    const kitchen_report *r = s->kitchen.report;
    char line[512];
    switch (s->kitchen.step) {
    case 0:
        snprintf(line, sizeof line, _("Recipe %s (kernel %s), n = %lld"), r->recipe ? r->recipe : "",
                 r->kernel ? r->kernel : "", (long long)r->plan.n);
        kitchen_line(s, body, &y, line, UI_TEXT);
        snprintf(line, sizeof line, _("The pantry (RAM) holds %zu bytes, filled in %.3f ms"), r->host_bytes,
                 r->prepare_ms);
        kitchen_line(s, body, &y, line, UI_TEXT);
        y++;
        kitchen_buffers(s, body, &y, 0);
        break;
    case 1:
        kitchen_shipment(s, body, &y, &r->ship_in, 0);
        break;
    case 2:
        kitchen_cook(s, body, &y);
        break;
    case 3:
        kitchen_shipment(s, body, &y, &r->ship_out, 1);
        break;
    default:
        kitchen_taste(s, body, &y);
        break;
    }
}

/* The parameters of the next run, and the keys that change them. */
static void kitchen_draw_params(ui_state *s, layout_rect body, int *y)
{
    const kitchen_params *p = &s->kitchen.params;
    const char *who = p->backend == BACKEND_GPU ? _("gpu") : p->backend == BACKEND_EMU ? _("emulator") : _("auto");
    char line[512];
    snprintf(line, sizeof line, _("n = %lld   threads per team = %d   %s   backend: %s%s"), (long long)p->n,
             p->threads_per_block, p->pinned ? _("pinned") : _("pageable"), who,
             s->kitchen.changed ? _("   (changed: Enter cooks again)") : "");
    kitchen_line(s, body, y, line, s->kitchen.changed ? UI_MARK : UI_TEXT);
    kitchen_line(s, body, y, _("+ - n   [ ] threads per team   p pinned   b backend   Enter cook again"), UI_DIM);
}

/* Draws the kitchen screen. */
void kitchen_screen_draw(ui_state *s)
{
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    ui_kitchen *k = &s->kitchen;
    char line[1024];
    const kitchen_report *r = k->report;
    kitchen_advance(s);
    if (s->classroom)
        snprintf(line, sizeof line, _(" Classroom: %s   (seed %llu: the same data every run)"), kitchen_title(k->demo),
                 (unsigned long long)k->params.seed);
    else
        snprintf(line, sizeof line, _(" Kitchen: %s"), kitchen_title(k->demo));
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              s->classroom ? _(" Space Enter → next   ← back   r replay the step   . step it   q home   ? help")
                           : _(" ←→ h l step   Space pause   . step the replay   q back   ? help"),
              UI_TITLE);
    int y = lr.body.y;
    if (!r || !r->started) {
        kitchen_draw_params(s, lr.body, &y);
        snprintf(line, sizeof line, _("The kitchen stopped: %s"), r ? r->error.message : _("out of memory"));
        kitchen_line(s, lr.body, &y, line, UI_WRONG);
        if (r && r->error.hint[0])
            kitchen_line(s, lr.body, &y, r->error.hint, UI_TEXT);
        return;
    }
    if (s->classroom) { /* fewer numbers at once: the steps, then the caption */
        kitchen_draw_pipeline(s, lr.body, y);
        y += 2;
        classroom_draw_caption(s, lr.body, &y);
        y++;
    } else {
        snprintf(line, sizeof line, _("Who cooked: %s"), r->backend.name);
        kitchen_line(s, lr.body, &y, line, UI_DIM);
        kitchen_draw_params(s, lr.body, &y);
        kitchen_draw_pipeline(s, lr.body, y);
        y += 2;
    }
    if (k->code > CHEF_EXIT_WRONG) {
        snprintf(line, sizeof line, _("The kitchen stopped: %s"), r->error.message);
        kitchen_line(s, lr.body, &y, line, UI_WRONG);
    }
    kitchen_draw_step(s, lr.body, y);
}

/* Space: pauses or resumes what moves; at the end, plays it again from the start. */
static void kitchen_toggle(ui_kitchen *k)
{
    if (!k->report || !k->report->started || k->step < 1 || k->step > 3)
        return;
    if (k->playing) {
        k->playing = 0;
        return;
    }
    if (k->step == 2 && k->replay_ns >= (double)replay_span_ns(&k->report->trace))
        k->replay_ns = 0;
    if (k->step != 2 && k->ship_s >= kitchen_copy_of(k)->ms / 1e3)
        k->ship_s = 0;
    k->playing = 1;
    k->clock_ms = kitchen_now_ms();
}

/* `.`: pauses and moves the replay to the next moment a team starts or finishes; on a ship step,
   moves the load a tenth of the way on. */
static void kitchen_step_once(ui_kitchen *k)
{
    if (!k->report || !k->report->started || k->step < 1 || k->step > 3)
        return;
    k->playing = 0;
    if (k->step != 2) {
        double run_s = kitchen_copy_of(k)->ms / 1e3;
        k->ship_s = k->ship_s + run_s / 10 >= run_s * 0.999 ? run_s : k->ship_s + run_s / 10;
        return;
    }
    k->replay_ns = (double)replay_next_event(&k->report->trace, (uint64_t)k->replay_ns);
}

/* The cook step's team keys: up and down (k, j) move the team cursor, and while zoomed left and
   right (h, l) too; z zooms in or out (pausing the replay). Returns 1 when the key was one of these. */
static int kitchen_team_key(ui_state *s, int key)
{
    ui_kitchen *k = &s->kitchen;
    uint32_t last = k->report->teams > 0 ? (uint32_t)(k->report->teams - 1) : 0;
    int zoomed_arrow = k->zoom && (key == KEY_LEFT || key == 'h' || key == KEY_RIGHT || key == 'l');
    if (key == KEY_UP || key == 'k' || (zoomed_arrow && (key == KEY_LEFT || key == 'h'))) {
        k->team = k->team > 0 ? k->team - 1 : 0;
        return 1;
    }
    if (key == KEY_DOWN || key == 'j' || zoomed_arrow) {
        k->team = k->team < last ? k->team + 1 : last;
        return 1;
    }
    if (key == 'z' || (k->zoom && key == 27)) {
        k->zoom = !k->zoom;
        k->playing = 0;
        s->tick_ms = 0;
        return 1;
    }
    return 0;
}

/* Keys: left and right move between the steps; Space and `.` drive the replay; + - [ ] p b change
   the parameters and Enter cooks again with them; q or Esc goes back to the reader. */
void kitchen_screen_key(ui_state *s, int key)
{
    ui_kitchen *k = &s->kitchen;
    if (k->step == 2 && k->report && k->report->started && kitchen_team_key(s, key))
        return;
    if (s->classroom && classroom_key(s, key))
        return;
    switch (key) {
    case KEY_LEFT:
    case 'h':
        if (k->step > 0) {
            k->step--;
            kitchen_step_start(k);
        }
        break;
    case KEY_RIGHT:
    case 'l':
    case '\t':
        if (k->step + 1 < KITCHEN_STEPS) {
            k->step++;
            kitchen_step_start(k);
        }
        break;
    case ' ':
        kitchen_toggle(k);
        break;
    case '+':
    case '=':
        if (k->params.n < ((int64_t)1 << 30)) {
            k->params.n = k->params.n > 0 ? k->params.n * 2 : 1;
            k->changed = 1;
        }
        break;
    case '-':
        if (k->params.n > 1) {
            k->params.n /= 2;
            k->changed = 1;
        }
        break;
    case '[':
        if (k->params.threads_per_block > 1) {
            k->params.threads_per_block /= 2;
            k->changed = 1;
        }
        break;
    case ']':
        if (k->params.threads_per_block < 1024) {
            k->params.threads_per_block = k->params.threads_per_block > 0 ? k->params.threads_per_block * 2 : 1;
            k->changed = 1;
        }
        break;
    case 'p':
        k->params.pinned = !k->params.pinned;
        k->changed = 1;
        break;
    case 'b':
        k->params.backend = k->params.backend == BACKEND_AUTO ? BACKEND_GPU
                          : k->params.backend == BACKEND_GPU  ? BACKEND_EMU
                                                              : BACKEND_AUTO;
        k->changed = 1;
        break;
    case '\r':
    case '\n':
    case KEY_ENTER:
        kitchen_cook_now(s);
        break;
    case '.':
        kitchen_step_once(k);
        break;
    case 'q':
    case 27:
        kitchen_screen_close(s);
        s->screen = UI_SCREEN_READER;
        break;
    default:
        break;
    }
}
