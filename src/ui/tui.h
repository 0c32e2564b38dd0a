/*
 * tui.h - the entry point of cudachef's full-screen interface (src/ui/), for main.c.
 *
 * This header does not include curses: only the files of src/ui/ do.
 */
#ifndef CUDACHEF_UI_TUI_H
#define CUDACHEF_UI_TUI_H

/* 1 when argument is an option of the full-screen interface (--no-color, --ascii). */
int tui_option(const char *argument);

/* Runs the full-screen interface on the terminal (stdin and stdout must be terminals); argv holds
   only its options. Returns the exit code. */
int tui_main(int argc, char **argv);

struct lesson_demo;

/* Makes the next tui_main open the kitchen of demo straight away, cooking kernel (registered by
   the caller: a learner's own, for `cudachef try --kitchen`) instead of the recipe's; q then ends
   the program. */
void tui_open_kitchen(const struct lesson_demo *demo, const char *kernel);

#endif
