/*
 * tui.h - the entry point of cudachef's full-screen interface (src/ui/), for main.c.
 *
 * This header does not include curses: only the files of src/ui/ do.
 */
#ifndef CUDACHEF_UI_TUI_H
#define CUDACHEF_UI_TUI_H

/* 1 when argument is an option of the full-screen interface (--no-color, --ascii). */
int tui_option(const char *argument);

#include "grading/program.h"

struct lesson_demo;

/* What `try --kitchen` of a whole program opens its kitchen on (screen_program.c): the spec it
   ran with (a re-run watching another launch uses it), its run, and the name shown. */
typedef struct ui_program_arg {
    const program_spec *spec;
    const program_result *res;
    const char *name;
} ui_program_arg;

/* How to start the interface. */
typedef struct tui_options {
    int argc;                               /* its own options: --no-color, --ascii, --classroom */
    char **argv;                            /* [LESSON] (argv[0] is the program) */
    const struct lesson_demo *kitchen_demo; /* NULL, or a demo whose kitchen opens at once; q then
                                               ends the program (`cudachef try --kitchen`) */
    const char *kitchen_kernel;             /* the kernel that demo cooks instead of its recipe's
                                               (registered by the caller: the learner's own) */
    const ui_program_arg *program;         /* NULL, or a whole program's run whose kitchen opens
                                               at once (`cudachef try PROGRAM.cu --kitchen`); q then
                                               ends the program */
} tui_options;

/* Runs the full-screen interface on the terminal (stdin and stdout must be terminals). Returns
   the exit code. */
int tui_main(const tui_options *o);

#endif
