/*
 * kitchen_draw.c - the drawing helpers of the kitchen's screens (kitchen_draw.h): a step's lines,
 * wrapped or one at a time (two rows apart on a projector), durations in words, a bar, the words
 * of an animation's state, and how long a shipment crosses the road on screen.
 */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "base/text.h"
#include "ui/kitchen_draw.h"

/* Writes one line of a step's text at *y and moves down. */
void kitchen_ui_line(ui_state *s, layout_rect body, int *y, const char *text, ui_role role)
{
    if (*text) /* wrapped at spaces where it is wider than the body: never cut mid-word */
        kitchen_ui_wrap(s, body, y, 0, text, role);
    else
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

/* Seconds on screen a shipment's crossing lasts: inversely proportional to its GB/s, bounded. */
double kitchen_ui_ship_screen_s(const kitchen_copy *c)
{
    double screen_s = c->gb_per_s > 0 ? KITCHEN_SHIP_S * KITCHEN_SHIP_GBPS / c->gb_per_s : KITCHEN_SHIP_MAX_S;
    return screen_s < KITCHEN_SHIP_MIN_S ? KITCHEN_SHIP_MIN_S : screen_s > KITCHEN_SHIP_MAX_S ? KITCHEN_SHIP_MAX_S : screen_s;
}

/* What the counted launch moved, per warp (the emulator's checked build; docs/EMULATOR.md). */
void kitchen_ui_draw_counters(ui_state *s, const kitchen_report *r, layout_rect body, int *y)
{
    const counters *c = &r->counters;
    if (!c->valid)
        return;
    char line[512];
    snprintf(line, sizeof line,
             _("Counted per warp: global loads %.0f requests = %.0f sectors of 32 bytes, stores %.0f = %.0f; "
               "shared wavefronts %.0f (bank conflicts %.0f); divergent %.0f of %.0f%s"),
             counters_scaled(c, COUNTER_GLOBAL_LD_REQUESTS), counters_scaled(c, COUNTER_GLOBAL_LD_SECTORS),
             counters_scaled(c, COUNTER_GLOBAL_ST_REQUESTS), counters_scaled(c, COUNTER_GLOBAL_ST_SECTORS),
             counters_scaled(c, COUNTER_SHARED_LD_WAVEFRONTS) + counters_scaled(c, COUNTER_SHARED_ST_WAVEFRONTS),
             counters_scaled(c, COUNTER_SHARED_LD_CONFLICTS) + counters_scaled(c, COUNTER_SHARED_ST_CONFLICTS),
             counters_scaled(c, COUNTER_DIVERGENT), counters_scaled(c, COUNTER_MEMORY_INSTRUCTIONS),
             c->teams_counted < c->teams ? _(" (scaled from the teams counted)") : "");
    kitchen_ui_wrap(s, body, y, 0, line, UI_TEXT);
}
