/*
 * screen_kitchen_steps.c - the kitchen's steps as drawn: the pipeline of the five steps, and the
 * prepare, ship in, ship out and taste steps (the cook step is screen_kitchen_cook.c's).
 *
 * Every figure comes from the run shown (s->kitchen.report). Prepare lists the pantry's bytes and
 * the inputs' first values; a ship step gives the shipment's bytes, time, GB/s and kind of host
 * memory, and draws the road between the pantries with the load on it where the animation's clock
 * (s->kitchen.ship_s, moved on by screen_kitchen.c) has brought it; taste gives the verdict, the
 * first mismatches and the run's timings as a bar chart; the ship and taste steps end with the
 * journey's share spent on the road. Also here: the small helpers every step uses (kitchen_ui.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_ui.h"
#include "engine/replay.h"
#include "base/text.h"

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

/* Writes one line of a step's text at *y and moves down. */
void kitchen_ui_line(ui_state *s, layout_rect body, int *y, const char *text, ui_role role)
{
    if (*y < body.y + body.h)
        draw_text(s, *y, body.x, body.w, text, role);
    (*y)++;
    if (s->classroom && LINES >= KITCHEN_ROOMY_ROWS) /* on a projector: a blank row between lines */
        (*y)++;
}

/* Writes text wrapped at spaces from row *y, indent columns in, and moves *y below it. */
void kitchen_ui_wrap(ui_state *s, layout_rect body, int *y, int indent, const char *text, ui_role role)
{
    int width = body.w - 2 * indent;
    while (*text && *y < body.y + body.h) {
        /* the longest run of whole words that fits in width columns */
        size_t len = strlen(text), cut = len, last_space = 0;
        for (size_t i = 0; i <= len; i++) {
            if (text[i] == ' ' || text[i] == '\0') {
                if (text_width(text, i) > width)
                    break;
                last_space = i;
                cut = i;
            }
        }
        if (last_space == 0 && text_width(text, len) > width)
            cut = len; /* one word longer than the line: draw_text crops it */
        char line[1024];
        size_t n = cut < sizeof line - 1 ? cut : sizeof line - 1;
        memcpy(line, text, n);
        line[n] = '\0';
        draw_text(s, *y, body.x + indent, width, line, role);
        (*y)++;
        text += cut;
        while (*text == ' ')
            text++;
    }
}

/* A duration of the run in words: ns, us or ms. */
void kitchen_ui_duration(double ns, char *out, size_t size)
{
    if (ns < 1e3)
        snprintf(out, size, _("%.3g ns"), ns);
    else if (ns < 1e6)
        snprintf(out, size, _("%.3g us"), ns / 1e3);
    else
        snprintf(out, size, _("%.3g ms"), ns / 1e6);
}

/* A bar of width columns, share (0..1) of it filled. */
void kitchen_ui_bar(ui_state *s, int y, int x, int width, double share)
{
    int filled = (int)(share * width + 0.5);
    filled = filled < 0 ? 0 : filled > width ? width : filled;
    attr_t on = theme_attr(UI_MARK, s->color) | A_REVERSE, off = theme_attr(UI_DIM, s->color);
    for (int i = 0; i < width; i++)
        draw_span(s, y, x + i, 1, i < filled ? (s->ascii ? "#" : "█") : (s->ascii ? "." : "·"), i < filled ? on : off);
}

/* What the animation is doing, in a few words. */
const char *kitchen_ui_motion(int playing, int finished)
{
    return playing ? _("[playing]") : finished ? _("[finished: Space replays]") : _("[paused]");
}

/* Draws the five steps across row y, the one in view highlighted. */
void kitchen_ui_draw_pipeline(ui_state *s, layout_rect body, int y)
{
    int x = body.x;
    s->kitchen.pipe_y = y; /* where each step is, for a click (kitchen_screen_click) */
    for (int i = 0; i <= KITCHEN_STEPS; i++)
        s->kitchen.pipe_x[i] = body.x + body.w;
    for (int i = 0; i < KITCHEN_STEPS && x < body.x + body.w; i++) {
        char cell[96];
        snprintf(cell, sizeof cell, " %d %s ", i + 1, kitchen_step_name(i));
        ui_role role = i == s->kitchen.step ? UI_SELECTED : UI_DIM;
        s->kitchen.pipe_x[i] = x;
        x += draw_span(s, y, x, body.x + body.w - x, cell, theme_attr(role, s->color));
        s->kitchen.pipe_x[i + 1] = x;
        if (i + 1 < KITCHEN_STEPS)
            x += draw_span(s, y, x, body.x + body.w - x, " ▶ ", theme_attr(UI_TEXT, s->color));
    }
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
        kitchen_ui_line(s, body, y, line, UI_CODE);
    }
}

/* The journey: the shipping share of the whole run, as a number and a bar. */
static void kitchen_journey(ui_state *s, layout_rect body, int *y)
{
    const kitchen_report *r = s->kitchen.report;
    char line[256], road[32], all[32];
    chef_format_ms(r->shipping_ms, road, sizeof road);
    chef_format_ms(r->total_ms, all, sizeof all);
    snprintf(line, sizeof line, _("On the road: %.1f%% of the journey (shipping %s of %s)"),
             100.0 * r->shipping_share, road, all);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    if (*y < body.y + body.h)
        kitchen_ui_bar(s, *y, body.x + 2, body.w - 4 < 50 ? body.w - 4 : 50, r->shipping_share);
    (*y)++;
}

/* Seconds on screen a shipment's crossing lasts: inversely proportional to its GB/s, bounded. */
double kitchen_ui_ship_screen_s(const kitchen_copy *c)
{
    double screen_s = c->gb_per_s > 0 ? KITCHEN_SHIP_S * KITCHEN_SHIP_GBPS / c->gb_per_s : KITCHEN_SHIP_MAX_S;
    return screen_s < KITCHEN_SHIP_MIN_S ? KITCHEN_SHIP_MIN_S : screen_s > KITCHEN_SHIP_MAX_S ? KITCHEN_SHIP_MAX_S : screen_s;
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
    int rw = text_width(right, strlen(right));
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
    char done[32], rest[32];
    chef_format_bytes((double)arrived, done, sizeof done);
    chef_format_bytes((double)(c->bytes - arrived), rest, sizeof rest);
    snprintf(left, sizeof left, out ? _("%s arrived") : _("%s left to ship"), out ? done : rest);
    snprintf(right, sizeof right, out ? _("%s left to ship") : _("%s arrived"), out ? rest : done);
    draw_text(s, *y, body.x, width / 2, left, UI_TEXT);
    rw = text_width(right, strlen(right));
    draw_text(s, *y, body.x + width - rw, rw, right, UI_TEXT);
    (*y)++;
    double screen_s = kitchen_ui_ship_screen_s(c);
    kitchen_ui_duration(c->ms * 1e6 / screen_s, scale, sizeof scale);
    snprintf(line, sizeof line, _("1 s on screen = %s of the run (%.0f GB/s cross in %.0f s)  %s"), scale,
             KITCHEN_SHIP_GBPS, KITCHEN_SHIP_S, kitchen_ui_motion(k->playing, arrived >= c->bytes));
    kitchen_ui_line(s, body, y, line, UI_DIM);
}

/* Step 2 or 4: one shipment's bytes, time, speed and kind of host memory. */
static void kitchen_shipment(ui_state *s, layout_rect body, int *y, const kitchen_copy *c, int out)
{
    const kitchen_report *r = s->kitchen.report;
    char line[256];
    snprintf(line, sizeof line, out ? _("From the kitchen (VRAM) back to the pantry (RAM): %zu bytes")
                                    : _("From the pantry (RAM) to the kitchen (VRAM): %zu bytes"),
             c->bytes);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    char took[32];
    chef_format_ms(c->ms, took, sizeof took);
    snprintf(line, sizeof line, _("%s, %.3g GB/s, %s host memory"), took, c->gb_per_s,
             r->params.pinned ? _("pinned") : _("pageable"));
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    (*y)++;
    kitchen_road(s, body, y, c, out);
    (*y)++;
    kitchen_buffers(s, body, y, out);
    (*y)++;
    kitchen_journey(s, body, y);
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
    kitchen_ui_line(s, body, y, _("Timings of this run (the longest fills the bar):"), UI_HEADING);
    int label = 16, bar = body.w - label - 16 < 40 ? body.w - label - 16 : 40;
    for (int i = 0; i < 4 && bar > 4; i++) {
        if (*y < body.y + body.h) {
            char value[64];
            draw_text(s, *y, body.x + 2, label - 2, names[i], UI_TEXT);
            kitchen_ui_bar(s, *y, body.x + label, bar, longest > 0 ? ms[i] / longest : 0);
            chef_format_ms(ms[i], value, sizeof value);
            draw_text(s, *y, body.x + label + bar + 1, body.w - label - bar - 1, value, UI_TEXT);
        }
        (*y)++;
        if (s->classroom && LINES >= KITCHEN_ROOMY_ROWS)
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
    if (s->kitchen.code > CHEF_EXIT_WRONG) {
        kitchen_ui_wrap(s, body, y, 0, _("Nothing to taste: the kitchen stopped before the results came back."),
                        UI_WRONG);
        return;
    }
    snprintf(line, sizeof line, v->passed ? _("✓ Passed: %zu of %zu elements match the CPU's reference")
                                          : _("✗ Failed: %zu of %zu elements match the CPU's reference"),
             v->correct, v->checked);
    kitchen_ui_line(s, body, y, line, v->passed ? UI_RIGHT : UI_WRONG);
    char took[32];
    chef_format_ms(r->reference_ms, took, sizeof took);
    snprintf(line, sizeof line, _("Largest error %g; the reference took %s"), v->max_abs_error, took);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    for (size_t i = 0; i < v->nmismatches; i++) {
        snprintf(line, sizeof line, _("  element %zu: expected %g, got %g"), v->mismatches[i].index,
                 v->mismatches[i].expected, v->mismatches[i].got);
        kitchen_ui_line(s, body, y, line, UI_WRONG);
    }
    (*y)++;
    kitchen_buffers(s, body, y, 1);
    (*y)++;
    kitchen_timings(s, body, y);
}

/* Draws the step in view. */
void kitchen_ui_draw_step(ui_state *s, layout_rect body, int y)
{
    const kitchen_report *r = s->kitchen.report;
    char line[512];
    switch (s->kitchen.step) {
    case 0:
        snprintf(line, sizeof line, _("Recipe %s (kernel %s), n = %lld"), r->recipe ? r->recipe : "",
                 r->kernel ? r->kernel : "", (long long)r->plan.n);
        kitchen_ui_line(s, body, &y, line, UI_TEXT);
        char took[32];
        chef_format_ms(r->prepare_ms, took, sizeof took);
        snprintf(line, sizeof line, _("The pantry (RAM) holds %zu bytes, filled in %s"), r->host_bytes, took);
        kitchen_ui_line(s, body, &y, line, UI_TEXT);
        y++;
        kitchen_buffers(s, body, &y, 0);
        break;
    case 1:
        kitchen_shipment(s, body, &y, &r->ship_in, 0);
        break;
    case 2:
        kitchen_ui_draw_cook(s, body, &y);
        break;
    case 3:
        kitchen_shipment(s, body, &y, &r->ship_out, 1);
        break;
    default:
        kitchen_taste(s, body, &y);
        break;
    }
}
