/*
 * screen_kitchen_steps.c - the kitchen's steps as drawn: the pipeline of the five steps, and the
 * prepare, ship in, ship out and taste steps (the cook step is screen_kitchen_cook.c's).
 *
 * Every figure comes from the run shown (the screen's report). Prepare lists the pantry's bytes and
 * the inputs' first values; a ship step gives the shipment's bytes, time, GB/s and kind of host
 * memory, and draws the road between the pantries with the load on it where the animation's clock
 * (the screen's ship_s, moved on by screen_kitchen.c) has brought it; taste gives the verdict, the
 * first mismatches and the run's timings as a bar chart; the ship and taste steps end with the
 * journey's share spent on the road.
 */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "ui/kitchen_screen.h"
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

/* Draws the five steps across row y, the one in view highlighted. */
void kitchen_ui_draw_pipeline(ui_state *s, kitchen_screen *k, layout_rect body, int y)
{
    int x = body.x;
    k->pipe_y = y; /* where each step is, for a click (kitchen_screen_click) */
    for (int i = 0; i <= KITCHEN_STEPS; i++)
        k->pipe_x[i] = body.x + body.w;
    for (int i = 0; i < KITCHEN_STEPS && x < body.x + body.w; i++) {
        char cell[96];
        snprintf(cell, sizeof cell, " %d %s ", i + 1, kitchen_step_name(i));
        ui_role role = i == k->step ? UI_SELECTED : UI_DIM;
        k->pipe_x[i] = x;
        x += draw_span(s, y, x, body.x + body.w - x, cell, theme_attr(role, s->color));
        k->pipe_x[i + 1] = x;
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
static void kitchen_buffers(ui_state *s, const kitchen_screen *k, layout_rect body, int *y, int outputs)
{
    const kitchen_report *r = k->report;
    for (int i = 0; i < r->plan.nbuffers; i++) {
        if (r->plan.buffers[i].is_output != outputs)
            continue;
        char line[512];
        kitchen_samples(r, i, line, sizeof line);
        kitchen_ui_line(s, body, y, line, UI_CODE);
    }
}

/* The journey: the shipping share of the whole run, as a number and a bar. */
static void kitchen_journey(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_report *r = k->report;
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


/* The road between the pantries with the load on it, the bytes on each side and the scale. */
void kitchen_ui_draw_road(ui_state *s, const kitchen_screen *k, layout_rect body, int *y, const kitchen_copy *c, int out)
{
    char left[128], right[128], line[256], scale[64];
    int width = body.w < 72 ? body.w : 72;
    if (*y + 4 > body.y + body.h || width < 20) {
        *y += 4;
        return;
    }
    size_t arrived = replay_shipped(c->bytes, c->gb_per_s, k->ship_s);
    if (k->ship_s >= c->ms / 1e3)
        arrived = c->bytes; /* the whole time has passed: rounding never leaves a byte behind */
    snprintf(left, sizeof left, "%s", _("Head chef's pantry (RAM)"));
    snprintf(right, sizeof right, "%s", _("Kitchen's pantry (VRAM)"));
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
static void kitchen_shipment(ui_state *s, const kitchen_screen *k, layout_rect body, int *y, const kitchen_copy *c, int out)
{
    const kitchen_report *r = k->report;
    char line[256];
    snprintf(line, sizeof line, out ? _("From the kitchen's pantry (VRAM) back to the head chef's (RAM): %zu bytes")
                                    : _("From the head chef's pantry (RAM) to the kitchen's (VRAM): %zu bytes"),
             c->bytes);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    char took[32];
    chef_format_ms(c->ms, took, sizeof took);
    snprintf(line, sizeof line, _("%s, %.3g GB/s, %s host memory"), took, c->gb_per_s,
             r->params.pinned ? _("pinned") : _("pageable"));
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    (*y)++;
    kitchen_ui_draw_road(s, k, body, y, c, out);
    (*y)++;
    kitchen_buffers(s, k, body, y, out);
    (*y)++;
    kitchen_journey(s, k, body, y);
}

/* Step 5's chart: the run's timings as bars on one scale (the longest fills the bar), each with its
   milliseconds, then the share spent on the road. */
static void kitchen_timings(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_report *r = k->report;
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
    kitchen_journey(s, k, body, y);
}

/* Who made element e of the output: the cook the run's records say wrote it (as the first or last
   of its writes), else the cook the recipe's mapping gives it, said as such; "" when neither knows. */
static void kitchen_taste_who(const kitchen_report *r, size_t e, char *out, size_t size)
{
    const trace *t = &r->trace;
    for (size_t i = 0; i < t->nthreads; i++)
        if ((!t->has_output || t->threads[i].buffer == t->output_buffer) &&
            (t->threads[i].element == (int64_t)e || t->threads[i].last_element == (int64_t)e)) {
            snprintf(out, size, _(" (written by cook %u of team %u)"), t->threads[i].thread, t->threads[i].block);
            return;
        }
    uint64_t block, thread;
    if (kitchen_owner(r, e, &block, &thread))
        snprintf(out, size, _(" (cook %llu of team %llu makes it, by the recipe's mapping)"),
                 (unsigned long long)thread, (unsigned long long)block);
    else
        out[0] = '\0';
}

/* Step 5: passed or failed, the first mismatches, the reference's time and the journey. */
static void kitchen_taste(ui_state *s, const kitchen_screen *k, layout_rect body, int *y)
{
    const kitchen_report *r = k->report;
    const verify_result *v = &r->taste;
    char line[256];
    if (k->code > CHEF_EXIT_WRONG) {
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
    snprintf(line, sizeof line,
             r->reference_blas ? _("Largest error %g; the CPU's reference took %s (OpenBLAS, every core)")
                               : _("Largest error %g; the CPU's reference took %s (a plain loop on one core)"),
             v->max_abs_error, took);
    kitchen_ui_line(s, body, y, line, UI_TEXT);
    for (size_t i = 0; i < v->nmismatches; i++) {
        char who[160];
        kitchen_taste_who(r, v->mismatches[i].index, who, sizeof who);
        snprintf(line, sizeof line, _("  element %zu: expected %g, got %g%s"), v->mismatches[i].index,
                 v->mismatches[i].expected, v->mismatches[i].got, who);
        kitchen_ui_line(s, body, y, line, UI_WRONG);
    }
    (*y)++;
    kitchen_buffers(s, k, body, y, 1);
    (*y)++;
    kitchen_timings(s, k, body, y);
}

/* Draws the step in view. */
void kitchen_ui_draw_step(ui_state *s, const kitchen_screen *k, layout_rect body, int y)
{
    const kitchen_report *r = k->report;
    char line[512];
    switch (k->step) {
    case 0:
        snprintf(line, sizeof line, _("Recipe %s (kernel %s), n = %lld"), r->recipe ? r->recipe : "",
                 r->kernel ? r->kernel : "", (long long)r->plan.n);
        kitchen_ui_line(s, body, &y, line, UI_TEXT);
        char took[32];
        chef_format_ms(r->prepare_ms, took, sizeof took);
        snprintf(line, sizeof line, _("The head chef's pantry (RAM) holds %zu bytes, filled in %s"), r->host_bytes, took);
        kitchen_ui_line(s, body, &y, line, UI_TEXT);
        y++;
        kitchen_buffers(s, k, body, &y, 0);
        break;
    case 1:
        kitchen_shipment(s, k, body, &y, &r->ship_in, 0);
        break;
    case 2:
        kitchen_ui_draw_cook(s, k, body, &y);
        break;
    case 3:
        kitchen_shipment(s, k, body, &y, &r->ship_out, 1);
        break;
    default:
        kitchen_taste(s, k, body, &y);
        break;
    }
}
