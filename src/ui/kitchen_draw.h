/*
 * kitchen_draw.h - what the screens that replay a run share (the kitchen, screen_kitchen*.c, and
 * the side-by-side, screen_versus.c): the animation's scales, the drawing helpers of the steps
 * (kitchen_draw.c) and a run's stations (stations.c). None of it holds a screen's state.
 */
#ifndef CUDACHEF_UI_KITCHEN_DRAW_H
#define CUDACHEF_UI_KITCHEN_DRAW_H

#include <stddef.h>

#include "engine/kitchen.h"
#include "ui/ui.h"

#define KITCHEN_STEPS 5
#define KITCHEN_REPLAY_S 4.0 /* the launch's replay lasts this many seconds on screen */
#define KITCHEN_SHIP_GBPS 20.0 /* a shipment at this speed crosses the road in KITCHEN_SHIP_S */
#define KITCHEN_SHIP_S 3.0
#define KITCHEN_SHIP_MIN_S 0.5 /* the crossing is kept between these, so it stays watchable */
#define KITCHEN_SHIP_MAX_S 8.0 /* a tiny shipment crawls (latency, not bandwidth): at most this long */
#define KITCHEN_FRAME_MS 30  /* 33 frames a second while something moves (30 is the goal) */

#define KITCHEN_ROOMY_ROWS 34 /* classroom mode leaves blank rows only on a terminal this tall */

/* Writes text wrapped at spaces from row *y, indent columns in, and moves *y below it. */
void kitchen_ui_wrap(ui_state *s, layout_rect body, int *y, int indent, const char *text, ui_role role);

/* Writes one line of a step's text at *y, wrapped at spaces where it is too wide, and moves down
   (a blank row more in classroom mode). */
void kitchen_ui_line(ui_state *s, layout_rect body, int *y, const char *text, ui_role role);

/* What the counted launch moved, per warp (the emulator's checked build), wrapped from row *y;
   nothing when the run was not counted. */
void kitchen_ui_draw_counters(ui_state *s, const kitchen_report *r, layout_rect body, int *y);

/* A duration of the run in words: ns, us or ms. */
void kitchen_ui_duration(double ns, char *out, size_t size);

/* A bar of width columns at row y, column x, share (0..1) of it filled. */
void kitchen_ui_bar(ui_state *s, int y, int x, int width, double share);

/* What the animation is doing, in a few words: playing, paused or finished. */
const char *kitchen_ui_motion(int playing, int finished);

/* Seconds on screen a shipment's crossing lasts: inversely proportional to its GB/s, bounded. */
double kitchen_ui_ship_screen_s(const kitchen_copy *c);

/* A run's stations as the cook step and the side-by-side draw them (stations.c): how many there
   are, what each cooked, the most teams each held at once, and the most one station can hold (the
   backend's occupancy limit, backend.h). Measured once per run (stations_measure). */
typedef struct ui_stations {
    unsigned count;      /* stations: the backend's SMs or workers (more if the trace names more) */
    unsigned used;       /* stations that cooked at least one team */
    unsigned *teams;     /* per station: the teams it cooked in the run; NULL when there is no trace */
    unsigned *peaks;     /* per station: the most teams on it at once in the run (replay_peaks) */
    unsigned peak;       /* the most teams on any one station at once */
    int limit;           /* teams one station can hold at once; 0 when not known */
    int cooks_limit;     /* cooks one station can hold; 0 when not known */
    char why[520];       /* why the limit is not known ("" when it is) */
} ui_stations;

/* A run's stations: measured once per run (what each cooked, the most teams each held at once,
   the backend's limit), freed, and drawn from row *y: the limit with where it comes from, the
   legend of the bars, and the stations at moment t_ns of the run after a summary line (with the
   legend first when legend is 1). */
void stations_measure(ui_stations *st, const kitchen_report *r);
void stations_free(ui_stations *st);
void stations_draw_limit(ui_state *s, const ui_stations *st, const kitchen_report *r, layout_rect body, int *y);
void stations_draw_legend(ui_state *s, layout_rect body, int *y);
void stations_draw(ui_state *s, const ui_stations *st, const trace *t, uint64_t t_ns, layout_rect body, int *y,
                   int legend);

/* The job that cooks one run for a screen (the kitchen's, and each side of the side-by-side): its
   parameters in, its report out, stopped at once through the job's token. */
typedef struct kitchen_cook_run {
    kitchen_params params;
    kitchen_report report;
    int code;            /* kitchen_run's exit code */
} kitchen_cook_run;

/* Starts a run of params as a job (what: what the key line says runs); NULL when it could not. */
job *kitchen_cook_start(ui_state *s, const char *what, const kitchen_params *params);

#endif
