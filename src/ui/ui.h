/*
 * ui.h - what the files of the full-screen interface share: the state of the program, the theme's
 * roles and the drawing helpers. Each screen is one file with its draw and key functions:
 * screen_home.c (the lessons and the learner's progress), screen_reader.c (a lesson's pages and
 * questions; its search is reader_search.c), screen_help.c (the keys), screen_kitchen.c (one run
 * of a demo, step by step; its steps are drawn by screen_kitchen_steps.c and
 * screen_kitchen_cook.c, which share kitchen_ui.h; stations.c draws a run's stations),
 * screen_classroom.c (the kitchen stepped by a teacher), screen_team.c (one team's cooks),
 * screen_versus.c (the same work in teams of 32 and of 1024 cooks, side by side), screen_bench.c
 * (the matrix-multiply sweep as a log-log chart), screen_demo.c (a page's other demos),
 * screen_exercise.c (an exercise, checked on every save). tui.c runs the terminal, the loop and
 * the mouse, theme.c reads assets/themes/, art.c assets/art/, draw.c draws.
 */
#ifndef CUDACHEF_UI_UI_H
#define CUDACHEF_UI_UI_H

/* curses.h declares a deprecated debugging function trace(), which would clash with the core's
   type `trace` (trace.h, the record of where each team ran): rename curses's out of the way. */
#define trace curses_trace_deprecated
#include <curses.h>
#undef trace

#include <pthread.h>

#include "grading/exercise_check.h"
#include "engine/kitchen.h"
#include "base/layout.h"
#include "lessons/lesson.h"
#include "lessons/markdown.h"
#include "lessons/progress.h"
#include "demos/race.h"
#include "grading/watch.h"

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

typedef enum ui_screen {
    UI_SCREEN_HOME,
    UI_SCREEN_READER,
    UI_SCREEN_KITCHEN,
    UI_SCREEN_OUTPUT,
    UI_SCREEN_EXERCISE,
    UI_SCREEN_VERSUS,
    UI_SCREEN_BENCH
} ui_screen;

/* The report of a demo the kitchen does not draw (screen_demo.c): its text, in lines. */
typedef struct ui_output {
    const lesson_demo *demo;
    char *text;         /* the whole report; lines point into it */
    char **lines;
    int nlines, top;
} ui_output;

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

/* The kitchen screen: one run of a demo and the step in view. */
typedef struct ui_kitchen {
    const lesson_demo *demo;  /* the demo that was run */
    kitchen_report *report;   /* every figure of that run; NULL when none could be made */
    int code;                 /* kitchen_run's exit code */
    int step;                 /* 0 prepare .. 4 taste */
    double replay_ns;         /* cook step: the moment of the launch on screen, in ns of the run */
    double ship_s;            /* ship steps: seconds of the run the load has travelled */
    int playing;              /* the replay or the load moves */
    double clock_ms;          /* when it last moved (monotonic clock) */
    kitchen_params params;    /* what the next run uses: the demo's, changed by the learner's keys */
    int changed;              /* params differ from the run shown (Enter cooks again) */
    uint32_t team;            /* cook step: the team under the cursor (linear index) */
    int zoom;                 /* cook step: 1 shows that team's cooks instead of the stations */
    kitchen_params first;     /* the demo's own parameters, to say when the learner changed them */
    kitchen_params ran;       /* the parameters of the run shown (defaults filled in) */
    int typing;               /* the learner is typing n (and threads per team) after `e` */
    char typed[32];           /* what is typed so far */
    int pipe_y;               /* the row the five steps were last drawn on (-1: not drawn) */
    int pipe_x[6];            /* the column where each step starts there, and where the last ends */
    ui_stations stations;     /* the run's stations, their peaks and the limit (cook step) */
} ui_kitchen;

/* The side-by-side (screen_versus.c): the kitchen's recipe and n cooked again with teams of 32 and
   of 1024 cooks, each a traced run of its own, replayed together on one clock. */
typedef struct ui_versus {
    kitchen_report *reports[2]; /* [0] teams of 32 cooks, [1] of 1024; NULL when not cooked */
    int codes[2];               /* kitchen_run's exit codes */
    ui_stations stations[2];    /* their stations, peaks and limits */
    double replay_ns;           /* the moment shown, in ns of the runs (each from its first team) */
    int playing;                /* the replay moves */
    double clock_ms;            /* when it last moved (chef_now_ms) */
} ui_versus;

/* The bench screen (screen_bench.c): the matrix-multiply sweep of the fair race (race.h) run in a
   background thread while the screen shows how far it has come, then its log-log chart, the
   crossovers and a table. */
typedef struct ui_bench {
    const lesson_demo *demo;    /* the lesson's race demo it runs; NULL: the recipe ladder (home) */
    ui_screen back;             /* the screen q goes back to */
    int running;                /* the sweep's thread has not finished */
    int stopping;               /* q was pressed while it ran: back once it stops */
    char progress[200];         /* where the sweep is, as the race says it ("size 64 (2 of 3): ...") */
    int measured, total;        /* measurements begun so far, and in the whole sweep (0: not known) */
    char who[300];              /* who cooks the recipes */
    race_result *result;        /* once finished: the sweep (NULL when nothing ran) */
    int code;                   /* race_run's exit code */
    chef_error error;           /* why it stopped, when code > 1 */
    int shipping;               /* the chart and the crossover line show times with shipping */
    int top;                    /* the table's first line shown */
} ui_bench;

/* The reader's search (reader_search.c): a word typed after `/`, found on the lesson's pages. */
typedef struct ui_search {
    int typing;          /* the prompt is open and keys add to text */
    int active;          /* text is highlighted and n / N move between its matches */
    char text[128];      /* what is searched for (UTF-8) */
    int item, line;      /* the match in view: page or question, and its line; -1 none */
    int index, found;    /* that match's number (1-based) and the lines that match in the lesson */
} ui_search;

/* The reader's place in one lesson. */
typedef struct ui_reader {
    int lesson;         /* index in the lesson set */
    int item;           /* page or question shown */
    int top;            /* first line shown */
    int *answers;       /* per item of every lesson, in order: the choice picked this run, -1 none */
    md_doc doc;         /* the item laid out */
    md_doc feedback;    /* a question's explanation of the choice picked */
    int width;          /* the width doc was laid out for; 0 when it must be laid out again */
    ui_search search;
} ui_reader;

/* The exercise screen (screen_exercise.c): one exercise of a lesson, the learner's file watched
   and checked again on every save, the hints shown so far and, once earned, the solution. */
typedef struct ui_exercise {
    exercise_set set;          /* every exercise, read the first time one is asked for */
    int loaded;                /* 1 set was read, -1 it could not be, 0 not yet tried */
    const exercise *ex;        /* the exercise open; NULL when none is */
    int lesson;                /* its lesson's index in the lesson set */
    ui_screen back;            /* the screen q goes back to */
    char path[4400];           /* the learner's file: WORKSPACE/LESSON-ID/NAME.cu */
    watch *watch;              /* that file watched (NULL: it could not be; r still checks) */
    double due_ms;             /* a save was seen: check at this moment (chef_now_ms); 0 none */
    int checking;              /* a check is running: the status line says so */
    int checked;               /* result holds the last check */
    exercise_result result;
    char error[900];           /* why the last check could not be made; "" when it could */
    int passed;                /* passed in this session (or recorded in the progress file) */
    char *hints[EXERCISE_MAX_HINTS];
    int nhints, shown;         /* the hints there are, and how many are shown */
    int spoil;                 /* s was pressed before passing: a second s shows the solution */
    char *solution;            /* the reference solution once shown; NULL while hidden */
    md_doc body;               /* everything under the status line, laid out */
    ui_role *roles;            /* the base role of each line of body */
    int width;                 /* the width body was laid out for; 0: lay it out again */
    int top;                   /* the first line of body shown */
    int jump;                  /* once laid out, bring a part into view: 0 none, 1 the last hint,
                                  2 the solution, 3 the check's result (only when out of view) */
    int part[4];               /* the line of body where each of those parts starts */
    int choosing, choice;      /* asking which of a lesson's exercises to open, over the screen */
    int choose_lesson;         /* that lesson's index */
} ui_exercise;

/* A picture from assets/art/ (art.c). */
#define UI_ART_ROWS 16
#define UI_ART_COLS 80
typedef struct ui_art {
    char lines[UI_ART_ROWS][UI_ART_COLS * 4 + 1]; /* UTF-8 */
    int rows, cols;                                /* cols: the widest line's display width */
} ui_art;

/* Everything the interface knows. */
typedef struct ui_state {
    lesson_set lessons;
    int color;          /* 1 colour theme, 0 monochrome */
    int ascii;          /* 1 ASCII instead of box drawing */
    char backend[900];  /* who will cook, as shown on the home screen */
    int gpu;            /* 1 when a GPU will cook, 0 the CPU emulator */
    ui_screen screen;
    int help;           /* the help overlay is shown */
    int quit;
    int classroom;      /* --classroom: the teacher steps the kitchen (screen_classroom.c) */
    const char *kernel; /* `try --kitchen`: the learner's kernel cooked in the kitchen; q ends the program */
    int tick_ms;        /* a screen that moves asks the loop to draw again after this many ms;
                           0: nothing moves, the loop sleeps until a key or a signal */
    int home_selected, home_top;
    ui_art home_art;         /* the home screen's picture (assets/art/home.txt); rows 0: none */
    progress progress;       /* what the learner has done (progress.h), as last read or written */
    char progress_note[600]; /* why progress cannot be kept, shown on the home screen; "" when fine */
    ui_reader reader;
    ui_kitchen kitchen;
    ui_versus versus;
    ui_bench bench;
    ui_output output;
    ui_exercise exercise;
    int choosing, choice;    /* the reader asks which of the page's demos to cook (screen_demo.c) */
    char message[300];       /* a one-line answer to the last key, shown on the key line until the next */
} ui_state;

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

/* The home screen. */
void home_draw(ui_state *s);
void home_key(ui_state *s, int key);
void home_click(ui_state *s, int y, int x);

/* The reader: open a lesson, draw, keys, and free what it holds. */
void reader_open(ui_state *s, int lesson_index);
void reader_draw(ui_state *s);
void reader_key(ui_state *s, int key);
void reader_close(ui_state *s);

/* Lays out item of the lesson being read for width columns into doc (freed with markdown_free);
   returns the item count of the lesson, or 0 when there is no such item. */
int reader_layout_item(const ui_state *s, int item, int width, md_doc *doc);

/* Draws one laid-out Markdown line at row y in body over a base role (a marked line highlighted
   across the whole width); the exercise screen draws its text with it too. */
void reader_draw_line(const ui_state *s, int y, layout_rect body, const md_line *line, ui_role base);

/* Moves the reader to item with line in view. */
void reader_show(ui_state *s, int item, int line);

/* The reader's search: keys (1 when the key was the search's), the footer while it speaks (1 when
   drawn), and the matches of a drawn line highlighted. */
int search_key(ui_state *s, int key);
int search_draw_footer(ui_state *s, layout_rect footer);
void search_highlight(const ui_state *s, int y, layout_rect body, const md_line *line);

/* Records the learner's progress (progress.h) and reads it back into s->progress; a failure is
   kept in s->progress_note for the home screen, never fatal. kind "page" takes the page number. */
void ui_progress_page(ui_state *s, const lesson *l, int page, int count);
void ui_progress_mark(ui_state *s, const char *kind, const lesson *l, const char *name);

/* The kitchen: run a demo of kind run (drawing "cooking..." first), draw, keys (which also change
   the run's parameters and cook again), and free the run. */
void kitchen_screen_open(ui_state *s, const lesson_demo *demo);
void kitchen_screen_draw(ui_state *s);
void kitchen_screen_key(ui_state *s, int key);
void kitchen_screen_close(ui_state *s);

/* The side-by-side of 32- and 1024-cook teams (screen_versus.c): `v` in the kitchen cooks the
   kitchen's recipe and n both ways and opens it (or, for a recipe whose team size is fixed, says so
   on the key line and stays); draw, keys (q back to the kitchen), and free the two runs. */
void versus_screen_open(ui_state *s);
void versus_screen_draw(ui_state *s);
void versus_screen_key(ui_state *s, int key);
void versus_screen_close(ui_state *s);

/* The bench screen (screen_bench.c): `b` on the home screen sweeps the recipe ladder (demo NULL),
   `r` on lesson 7's race page that demo's own sweep; either runs in a background thread, the
   screen showing its progress, then its chart, crossovers and table. Draw; keys (q stops a sweep
   after the measurement under way and goes back; s toggles shipping; the arrows scroll the table);
   the loop's side: after every wake-up, what the thread said (1 when the screen must be drawn
   again); and at the end of the program, the thread let go (1 when it still runs: the process must
   then end with _exit, as for the GPU probe). */
void bench_screen_open(ui_state *s, const lesson_demo *demo);
void bench_screen_draw(ui_state *s);
void bench_screen_key(ui_state *s, int key);
int bench_screen_wake(ui_state *s);
int bench_screen_stop(ui_state *s);

/* Wakes the loop from another thread (a byte on the self-pipe the signals use). */
void tui_wake_loop(void);

/* Starts run(NULL) in a thread of its own with every signal blocked there (they belong to the
   loop): the GPU probe's and the bench's sweep. 1 when it started. */
int tui_thread_start(pthread_t *thread, void *(*run)(void *));

/* A click on the kitchen at row y, column x: on a step of the pipeline, shows that step. */
void kitchen_screen_click(ui_state *s, int y, int x);

/* Shows step (clamped to the five) and starts its replay or shipment from the beginning. */
void kitchen_screen_go(ui_state *s, int step);

/* The cook step's zoom into the team under the cursor (screen_team.c), drawn from row *y. */
void team_zoom_draw(ui_state *s, layout_rect body, int *y);

/* Classroom mode: open a lesson's first run demo (0, or -1 when it has none), draw the step's
   caption, and keys (1 when the key was the classroom's). */
int classroom_open(ui_state *s, int lesson_index);
void classroom_draw_caption(ui_state *s, layout_rect body, int *y);
int classroom_key(ui_state *s, int key);

/* A page's demos (screen_demo.c): `r` in the reader, the question which one, and the report of a
   demo the kitchen does not draw. */
void demo_page_key(ui_state *s);
void demo_choose_draw(ui_state *s);
void demo_choose_key(ui_state *s, int key);
void demo_output_draw(ui_state *s);
void demo_output_key(ui_state *s, int key);
void demo_output_close(ui_state *s);

/* The exercise screen (screen_exercise.c). `x` on the home screen or in the reader asks for the
   lesson's exercises: it opens the only one, asks which when there are several (the question is
   drawn over the screen and takes the keys while s->exercise.choosing), or says there is none.
   Opening makes the learner's file from the starting one if it is missing (never over it),
   watches it and checks it; draw, keys, and q back to where it was opened from. */
void exercise_screen_ask(ui_state *s, int lesson_index);
int exercise_screen_count(ui_state *s, int lesson_index); /* 0 also when they cannot be read */
void exercise_choose_draw(ui_state *s);
void exercise_choose_key(ui_state *s, int key);
void exercise_screen_draw(ui_state *s);
void exercise_screen_key(ui_state *s, int key);

/* The loop's side of the watch: the descriptor to poll (-1 when none: no exercise open, or the
   watch polls), and what to do after every wake-up (readable: that descriptor was); the latter
   notices saves, checks once they have settled, sets s->tick_ms for polling and debouncing, and
   returns 1 when the screen must be drawn again. */
int exercise_screen_fd(const ui_state *s);
int exercise_screen_wake(ui_state *s, int readable);

/* Closes the exercise open (its watch, result, hints and solution); _free also forgets every
   exercise, at the end of the program. */
void exercise_screen_close(ui_state *s);
void exercise_screen_free(ui_state *s);

/* The help overlay, drawn over the current screen; any key closes it. */
void help_draw(ui_state *s);
void help_key(ui_state *s, int key);

#endif
