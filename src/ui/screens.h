/*
 * screens.h - the table of the full-screen interface's screens. Each row names a screen whose
 * class, ui_screen_NAME, its file defines (screen_NAME.c, or the file the row's comment gives).
 * Adding a screen: write its file with its class and add its row here; nothing else changes (the
 * loop, the help and the tests find it through the table).
 */
#ifndef CUDACHEF_UI_SCREENS_H
#define CUDACHEF_UI_SCREENS_H

#include "ui/ui.h"

#define UI_SCREEN_TABLE(X)                                                                         \
    X(home)            /* the lessons and how far the learner got (screen_home.c) */               \
    X(reader)          /* a lesson's pages and questions (screen_reader.c, reader_search.c) */     \
    X(kitchen)         /* one run of a demo in five steps (screen_kitchen*.c, screen_team.c) */    \
    X(program)         /* a whole program's journey, its shipments and watched launch (screen_program.c) */ \
    X(floor)           /* the stations as boxes and every team of the grid (screen_floor.c) */     \
    X(memory)          /* one warp's memory instructions, address by address (screen_memory.c) */ \
    X(steps)           /* one team's cooks phase by phase between barriers (screen_steps.c) */    \
    X(versus)          /* teams of 32 and of 1024 cooks side by side (screen_versus.c) */          \
    X(bench)           /* the matrix-multiply sweep as a log-log chart (screen_bench.c) */         \
    X(report)          /* the report of a demo the kitchen does not draw (screen_demo.c) */        \
    X(demo_choice)     /* which of a page's demos to cook, over the reader (screen_demo.c) */      \
    X(exercise)        /* an exercise, checked on every save (screen_exercise.c) */                \
    X(exercise_choice) /* which of a lesson's exercises to open (screen_exercise.c) */             \
    X(glossary)        /* the kitchen's words beside CUDA's (screen_glossary.c) */                \
    X(help)            /* the keys of the screen below (screen_help.c) */

#define UI_SCREEN_DECLARE(name) extern const ui_screen_class ui_screen_##name;
UI_SCREEN_TABLE(UI_SCREEN_DECLARE)
#undef UI_SCREEN_DECLARE

/* Every screen, in the table's order, ending with NULL. */
extern const ui_screen_class *const ui_screens[];

#endif
