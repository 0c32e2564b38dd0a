/*
 * tui.h - the entry point of cudachef's full-screen interface (src/ui/), for main.c.
 *
 * This header does not include curses: only the files of src/ui/ do.
 */
#ifndef CUDACHEF_UI_TUI_H
#define CUDACHEF_UI_TUI_H

/* 1 when argument is an option of the full-screen interface (--no-color, --ascii). */
int tui_option(const char *argument);

struct lesson_demo;

/* How to start the interface. */
typedef struct tui_options {
    int argc;                               /* its own options: --no-color, --ascii, --classroom */
    char **argv;                            /* [LESSON] (argv[0] is the program) */
    const struct lesson_demo *kitchen_demo; /* NULL, or a demo whose kitchen opens at once; q then
                                               ends the program (`cudachef try --kitchen`) */
    const char *kitchen_kernel;             /* the kernel that demo cooks instead of its recipe's
                                               (registered by the caller: the learner's own) */
} tui_options;

/* Runs the full-screen interface on the terminal (stdin and stdout must be terminals). Returns
   the exit code. */
int tui_main(const tui_options *o);

#endif
