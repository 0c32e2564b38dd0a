/*
 * kitchen_ui.h - what the kitchen screen's files share (and the side-by-side, screen_versus.c, which
 * replays two runs the kitchen's way): the animation's scales and the drawing helpers of the steps.
 * screen_kitchen.c runs the screen (open, cook, keys, the animation's clock, the frame around the
 * steps); screen_kitchen_steps.c draws the pipeline and the prepare, ship and taste steps;
 * screen_kitchen_cook.c draws the cook step's replay; stations.c draws a run's stations with the
 * teams on each and the limit.
 */
#ifndef CUDACHEF_UI_KITCHEN_UI_H
#define CUDACHEF_UI_KITCHEN_UI_H

#include <stddef.h>

#include "ui/ui.h"

#define KITCHEN_STEPS 5
#define KITCHEN_REPLAY_S 4.0 /* the launch's replay lasts this many seconds on screen */
#define KITCHEN_SHIP_GBPS 20.0 /* a shipment at this speed crosses the road in KITCHEN_SHIP_S */
#define KITCHEN_SHIP_S 3.0
#define KITCHEN_SHIP_MIN_S 0.5 /* the crossing is kept between these, so it stays watchable */
#define KITCHEN_SHIP_MAX_S 30.0

#define KITCHEN_ROOMY_ROWS 34 /* classroom mode leaves blank rows only on a terminal this tall */

/* Writes text wrapped at spaces from row *y, indent columns in, and moves *y below it. */
void kitchen_ui_wrap(ui_state *s, layout_rect body, int *y, int indent, const char *text, ui_role role);

/* Writes one line of a step's text at *y and moves down (two rows in classroom mode). */
void kitchen_ui_line(ui_state *s, layout_rect body, int *y, const char *text, ui_role role);

/* A duration of the run in words: ns, us or ms. */
void kitchen_ui_duration(double ns, char *out, size_t size);

/* A bar of width columns at row y, column x, share (0..1) of it filled. */
void kitchen_ui_bar(ui_state *s, int y, int x, int width, double share);

/* What the animation is doing, in a few words: playing, paused or finished. */
const char *kitchen_ui_motion(int playing, int finished);

/* Seconds on screen a shipment's crossing lasts: inversely proportional to its GB/s, bounded. */
double kitchen_ui_ship_screen_s(const kitchen_copy *c);

/* Draws the five steps across row y, the one in view highlighted. */
void kitchen_ui_draw_pipeline(ui_state *s, layout_rect body, int y);

/* Draws the step in view from row y. */
void kitchen_ui_draw_step(ui_state *s, layout_rect body, int y);

/* Step 3: the grid, and the stations with the teams the trace put on each at the replay's moment
   (screen_kitchen_cook.c), drawn from row *y. */
void kitchen_ui_draw_cook(ui_state *s, layout_rect body, int *y);

/* A run's stations (stations.c): measured once per run (what each cooked, the most teams each held
   at once, the backend's limit), freed, and drawn from row *y: the limit with where it comes from,
   the legend of the bars, and the stations at moment t_ns of the run after a summary line (with
   the legend first when legend is 1). */
void stations_measure(ui_stations *st, const kitchen_report *r);
void stations_free(ui_stations *st);
void stations_draw_limit(ui_state *s, const ui_stations *st, const kitchen_report *r, layout_rect body, int *y);
void stations_draw_legend(ui_state *s, layout_rect body, int *y);
void stations_draw(ui_state *s, const ui_stations *st, const trace *t, uint64_t t_ns, layout_rect body, int *y,
                   int legend);

#endif
