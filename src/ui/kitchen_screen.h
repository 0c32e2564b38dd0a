/*
 * kitchen_screen.h - the kitchen screen's own state, shared by its files only: screen_kitchen.c
 * (open, cook, keys, the animation's clock, the frame around the steps), screen_kitchen_steps.c
 * (the pipeline and the prepare, ship and taste steps), screen_kitchen_cook.c (the cook step's
 * replay), screen_team.c (the zoom into one team), screen_classroom.c (classroom mode) and
 * screen_program.c (a whole program's kitchen, which shows its shipments and its watched launch
 * with the kitchen's own drawing). No other screen includes it.
 */
#ifndef CUDACHEF_UI_KITCHEN_SCREEN_H
#define CUDACHEF_UI_KITCHEN_SCREEN_H

#include "ui/kitchen_draw.h"

/* The kitchen screen: one run of a demo and the step in view. */
typedef struct kitchen_screen {
    const lesson_demo *demo;  /* the demo that was run */
    job *cook;                /* the run shown, or cooking: its job owns the report */
    const kitchen_report *report; /* the finished run's report (a view of the job's); NULL while
                                     cooking or when none could be made */
    int code;                 /* kitchen_run's exit code */
    int taken;                /* the finished run was taken in (defaults, stations, progress) */
    int step;                 /* 0 prepare .. 4 taste */
    double replay_ns;         /* cook step: the moment of the launch on screen, in ns of the run */
    double ship_s;            /* ship steps: seconds of the run the load has travelled */
    int playing;              /* the replay or the load moves */
    double clock_ms;          /* when it last moved (monotonic clock) */
    kitchen_params params;    /* what the next run uses: the demo's, changed by the learner's keys */
    int changed;              /* params differ from the run shown (Enter cooks again) */
    uint32_t team;            /* cook step: the team under the cursor (linear index) */
    int zoom;                 /* cook step: 1 shows that team's cooks instead of the stations */
    uint32_t cook_at;         /* zoomed: the cook under the cursor (linear index in its team) */
    int have_first;           /* first is known (the demo's own run came back) */
    kitchen_params first;     /* the demo's own parameters, to say when the learner changed them */
    kitchen_params ran;       /* the parameters of the run shown (defaults filled in) */
    int typing;               /* the learner is typing n (and threads per team) after `e` */
    char typed[32];           /* what is typed so far */
    int pipe_y;               /* the row the five steps were last drawn on (-1: not drawn) */
    int pipe_x[6];            /* the column where each step starts there, and where the last ends */
    ui_stations stations;     /* the run's stations, their peaks and the limit (cook step) */
} kitchen_screen;

/* Cooks with k->params, replacing the run shown (a run still cooking is stopped and let go). */
void kitchen_cook_now(ui_state *s, kitchen_screen *k);

/* Shows step (clamped to the five) and starts its replay or shipment from the beginning. */
void kitchen_screen_go(kitchen_screen *k, int step);

/* Moves the animation of the step in view on by the time since the last frame (the cook step's
   replay, a ship step's load). */
void kitchen_screen_advance(kitchen_screen *k);
/* `.`: pauses and moves the replay to the next moment a team starts or finishes; on a ship step,
   moves the load a tenth of the way on. */
void kitchen_screen_once(kitchen_screen *k);
/* The cook step's team keys: up and down move the team cursor, z zooms in or out; zoomed, the
   arrows move the cook cursor and < > another team. 1 when the key was one of these. */
int kitchen_screen_team_key(kitchen_screen *k, int key);
/* A ship step's road between the pantries with the load of c on it (out: back to the head chef),
   the bytes on each side and the scale, from row *y. */
void kitchen_ui_draw_road(ui_state *s, const kitchen_screen *k, layout_rect body, int *y, const kitchen_copy *c, int out);
/* Draws the five steps across row y, the one in view highlighted. */
void kitchen_ui_draw_pipeline(ui_state *s, kitchen_screen *k, layout_rect body, int y);

/* Draws the step in view from row y. */
void kitchen_ui_draw_step(ui_state *s, const kitchen_screen *k, layout_rect body, int y);

/* Step 3: the grid, and the stations with the teams the trace put on each at the replay's moment
   (screen_kitchen_cook.c), drawn from row *y. */
void kitchen_ui_draw_cook(ui_state *s, const kitchen_screen *k, layout_rect body, int *y);

/* The cook step's zoom into the team under the cursor (screen_team.c), drawn from row *y. */
void team_zoom_draw(ui_state *s, const kitchen_screen *k, layout_rect body, int *y);

/* Classroom mode (screen_classroom.c): the step's caption, and keys (1 when the key was the
   classroom's). */
void classroom_draw_caption(ui_state *s, const kitchen_screen *k, layout_rect body, int *y);
int classroom_key(ui_state *s, kitchen_screen *k, int key);

#endif
