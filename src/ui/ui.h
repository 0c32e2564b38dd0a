/*
 * ui.h - what the files of the full-screen interface share: the state every screen sees, the
 * theme's roles, the drawing helpers, and the screen interface.
 *
 * A screen is one file (or a few, with a private header) that defines a ui_screen_class: its own
 * state, kept private to it and handed back as self, and its open, draw, key and close functions
 * with its help text. ui/screens.h lists every screen in one table; screens open each other with
 * ui_open and go back with ui_back, and never see each other's state. tui.c runs the terminal and
 * the loop and calls the screen on top of the stack; long work (a kitchen run, an exercise check,
 * a sweep) goes through a job (base/job.h, ui_job_start) so the screen keeps drawing meanwhile.
 * theme.c reads assets/themes/, art.c assets/art/, draw.c draws.
 */
#ifndef CUDACHEF_UI_UI_H
#define CUDACHEF_UI_UI_H

/* curses.h declares a deprecated debugging function trace(), which would clash with the core's
   type `trace` (trace.h, the record of where each team ran): rename curses's out of the way. */
#define trace curses_trace_deprecated
#include <curses.h>
#undef trace

#include "base/job.h"
#include "base/layout.h"
#include "engine/kitchen.h"
#include "grading/exercise.h"
#include "lessons/lesson.h"
#include "lessons/markdown.h"
#include "lessons/progress.h"

/* What a piece of the screen is; the theme says how each looks. */
typedef enum ui_role {
    UI_TEXT,
    UI_TITLE,
    UI_HEADING,
    UI_CODE,
    UI_MARK,
    UI_LINK,
    UI_QUOTE,
    UI_TABLE_HEAD,
    UI_RULE,
    UI_SELECTED,
    UI_RIGHT,
    UI_WRONG,
    UI_DIM,
    UI_BORDER,
    UI_ROLES
} ui_role;

typedef struct ui_state ui_state;

/* A screen (see screens.h for the table of them). Only draw and key are required. */
typedef struct ui_screen_class {
    const char *name;  /* "home", "reader", ...: how tests and docs/HACKING.md name it */
    size_t size;       /* bytes of the screen's own state, allocated and zeroed by ui_open */
    /* Fills self from arg (what the opener hands over, per screen); 0 opened, or -1 to stay where
       it was (having said why in s->message). */
    int (*open)(ui_state *s, void *self, const void *arg);
    void (*draw)(ui_state *s, void *self);
    void (*key)(ui_state *s, void *self, int key);
    void (*close)(ui_state *s, void *self);               /* frees what open made */
    void (*click)(ui_state *s, void *self, int y, int x); /* a mouse click */
    /* After every wake-up of the loop (a key, a signal, a job's news, a descriptor): readable says
       whether the screen's own descriptor was; returns 1 when it must be drawn again. */
    int (*wake)(ui_state *s, void *self, int readable);
    int (*fd)(const void *self);                  /* a descriptor the loop watches; -1 none */
    int (*tick)(const void *self);                /* ms until its next frame (0: nothing moves) */
    job *(*running)(const void *self);            /* the job it waits for, or NULL */
    void (*finish)(ui_state *s);                  /* at the end: frees what it keeps between openings */
    const char *const *help;                      /* its keys, "KEYS   what they do" (N_), NULL-ended */
    const char *const *help_classroom;            /* its keys in classroom mode, when they differ */
    int flags;
} ui_screen_class;

/* flags: drawn over the screen below it (a question, the help); the wheel scrolls as arrow keys */
#define UI_SCREEN_OVERLAY 1
#define UI_SCREEN_WHEEL 2

/* One open screen: its class and its state. */
typedef struct ui_layer {
    const ui_screen_class *cls;
    void *self;
} ui_layer;

#define UI_STACK_MAX 12

/* A picture from assets/art/ (art.c). */
#define UI_ART_ROWS 16
#define UI_ART_COLS 80
typedef struct ui_art {
    char lines[UI_ART_ROWS][UI_ART_COLS * 4 + 1]; /* UTF-8 */
    int rows, cols;                                /* cols: the widest line's display width */
} ui_art;

/* What every screen sees. */
struct ui_state {
    lesson_set lessons;
    int color;          /* 1 colour theme, 0 monochrome */
    int ascii;          /* 1 ASCII instead of box drawing */
    char backend[900];  /* who will cook, as shown on the home screen ("" while the probe runs) */
    int gpu;            /* 1 when a GPU will cook, 0 the CPU emulator */
    int quit;
    int classroom;      /* --classroom: the teacher steps the kitchen (screen_classroom.c) */
    const char *kernel; /* `try --kitchen`: the learner's kernel cooked in the kitchen; q ends the program */
    int typing;         /* a prompt of the screen shown takes every key, ? included */
    progress progress;       /* what the learner has done (progress.h), as last read or written */
    char progress_note[600]; /* why progress cannot be kept, shown on the home screen; "" when fine */
    exercise_set exercises;  /* every exercise, read the first time one is asked for (screen_exercise.c) */
    int exercises_loaded;    /* 1 read, -1 could not be, 0 not yet tried */
    char message[300];       /* a one-line answer to the last key, shown on the key line until the next */
    ui_layer stack[UI_STACK_MAX]; /* the screens open, the one shown last */
    int depth;
};

/* --- screens (screens.c) --- */

/* Opens a screen of class cls on top of the one shown, handing it arg; 0, or -1 when it did not
   open (it said why in s->message, or the stack is full). */
int ui_open(ui_state *s, const ui_screen_class *cls, const void *arg);

/* Closes the screen shown; the one below it is shown again. */
void ui_back(ui_state *s);

/* Closes screens until one of class cls is shown (none left but the bottom one if there is none). */
void ui_back_to(ui_state *s, const ui_screen_class *cls);

/* The screen shown (NULL when none), and the one below it. */
const ui_layer *ui_top(const ui_state *s);
const ui_layer *ui_below(const ui_state *s);

/* 1 when the screen shown is of class cls. */
int ui_showing(const ui_state *s, const ui_screen_class *cls);

/* At the end of the program: closes every screen (a job still running is stopped and let go). */
void ui_close_all(ui_state *s);

/* Closes the screen whose state is self, wherever it is in the stack, with every screen above it
   (a screen whose job ended under the help). */
void ui_close(ui_state *s, const void *self);

/* --- long work (jobs.c) --- */

/* Starts work as a job whose news wakes the loop; what is said on the key line while it runs.
   NULL (with s->message saying why) when it could not start; data is then freed with data_free. */
job *ui_job_start(ui_state *s, const char *what, job_work work, void *data, void (*data_free)(void *));

/* The key line while a job runs: what runs, for how long, its last word and how to stop it. */
void ui_job_draw(const ui_state *s, job *j, layout_rect footer);

/* The rows a screen shows while its job runs: "cooking...", the time, and how to stop it. */
void ui_job_draw_body(const ui_state *s, job *j, layout_rect body);

/* --- drawing (draw.c, theme.c, art.c) --- */

/* Reads assets/themes/NAME.ini into the roles; 0, or -1 with a message in err. */
int theme_load(const char *name, char *err, size_t size);

/* Makes the colour pairs of the loaded theme (after start_color; only when colour is used);
   defaults is 1 when use_default_colors worked. */
void theme_start_colors(int defaults);

/* The curses attributes of a role (colour pair included when color is 1). */
attr_t theme_attr(ui_role role, int color);

/* Writes text at row y, column x, cropped and padded to width columns, in a role. */
void draw_text(const ui_state *s, int y, int x, int width, const char *text, ui_role role);

/* Writes text at row y, column x, cropped to width columns, in attributes attr; returns the
   columns used. Box-drawing characters become ASCII in ASCII mode. */
int draw_span(const ui_state *s, int y, int x, int width, const char *text, attr_t attr);

/* Draws one laid-out Markdown line at row y in body over a base role (a marked line highlighted
   across the whole width): the reader's pages, the exercise's text. */
void draw_md_line(const ui_state *s, int y, layout_rect body, const md_line *line, ui_role base);

/* Reads assets/art/NAME.txt; 0, or -1 when there is none (art left empty). */
int art_load(const char *name, ui_art *art);

/* Draws art from (y, x) in a role, cropped to r. */
void art_draw(const ui_state *s, const ui_art *art, int y, int x, layout_rect r, ui_role role);

/* The scrolling keys of a text screen applied to *top (page rows a screenful); 1 when key was one. */
int draw_scroll_key(int key, int *top, int page);

/* Draws a frame around r. */
void draw_box(const ui_state *s, layout_rect r, ui_role role);

/* Fills r with spaces in a role. */
void draw_clear(const ui_state *s, layout_rect r, ui_role role);

/* A question over the screen ("Which demo?"): a centred frame width columns wide with the heading
   and n numbered lines, the one at choice highlighted. */
void draw_choice(const ui_state *s, int width, const char *heading, const char *const *lines, int n, int choice);

/* The keys of such a question: a digit or Enter chooses (the index chosen), ↑↓ j k move *choice
   (-1), Esc or q cancels (-2); anything else is ignored (-1). */
int draw_choice_key(int key, int n, int *choice);

/* --- what several screens share --- */

/* Records the learner's progress (progress.h) and reads it back into s->progress; a failure is
   kept in s->progress_note for the home screen, never fatal. kind "page" takes the page number. */
void ui_progress_page(ui_state *s, const lesson *l, int page, int count);
void ui_progress_mark(ui_state *s, const char *kind, const lesson *l, const char *name);

/* Wakes the loop from another thread (a byte on the self-pipe the signals use). */
void tui_wake_loop(void);

/* Cooks a lesson's demo (screen_demo.c): the kitchen for a run, the bench for a race, the report
   screen for the others. */
void ui_demo_cook(ui_state *s, const lesson_demo *d);

/* The demos a page places, which the question "which demo?" offers (ui_screen_demo_choice's arg). */
#define UI_DEMO_LIST_MAX 9
typedef struct ui_demo_list {
    const lesson_demo *demos[UI_DEMO_LIST_MAX];
    int n;
} ui_demo_list;

/* The exercises (screen_exercise.c): how many a lesson has (0 also when they cannot be read), and
   `x`: the lesson's exercise opened, or the question which one, or a word that there is none. */
int ui_exercise_count(ui_state *s, int lesson_index);

/* How many of a lesson's exercises the progress file records as passed. */
int ui_exercise_passed(ui_state *s, int lesson_index);
void ui_exercise_ask(ui_state *s, int lesson_index);

/* What the kitchen hands the side-by-side (ui_screen_versus's arg): the parameters of the run shown
   and its report, whose backend cooks both sides. */
typedef struct ui_versus_arg {
    kitchen_params ran;
    const kitchen_report *report;
} ui_versus_arg;

/* What the memory view is handed (ui_screen_memory's arg, screen_memory.c): a run whose emulator
   count kept team 0's addresses (report; NULL or none kept: it counts params on the emulator
   itself), and the recipes of a comparison, Tab going through them (nrecipes 0: params' own). */
#define UI_MEMORY_RECIPES 4
typedef struct ui_memory_arg {
    const kitchen_report *report;
    kitchen_params params;
    const char *recipes[UI_MEMORY_RECIPES];
    int nrecipes;
} ui_memory_arg;

/* Classroom mode (screen_classroom.c): opens the kitchen of a lesson's first demo of kind run (ask:
   the question which, when it has several); 0, or -1 when it has none. */
int classroom_open(ui_state *s, int lesson_index, int ask);

#endif
