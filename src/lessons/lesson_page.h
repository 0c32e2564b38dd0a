/*
 * lesson_page.h - one page or check question of a lesson as Markdown, ready for markdown_render.
 *
 * `cudachef read` prints these and the TUI's reader draws them, so both show the same words: a
 * page's title as a heading with its <!-- demo --> and <!-- kernel --> lines expanded (the demo's
 * title and command, the kernel's source), a question's prompt with its lettered choices (each
 * paragraph starts "b) ", which markdown_render hangs its wrapped lines under).
 */
#ifndef CUDACHEF_LESSON_PAGE_H
#define CUDACHEF_LESSON_PAGE_H

#include "lessons/lesson.h"

/* A kernel listing longer than this many lines is folded around the lesson's marked lines, each
   shown with LESSON_LISTING_AROUND lines either side. */
#define LESSON_LISTING_LINES 40
#define LESSON_LISTING_AROUND 2

enum lesson_page_flags {
    LESSON_PAGE_ANSWERS = 1 << 0, /* questions: mark the right choice and explain every choice */
    LESSON_PAGE_HINT = 1 << 1     /* questions: end with the hint that --answers shows them */
};

/* The Markdown of one page or question (caller frees); a question shows the choice the learner
   picked (chosen, -1 none) in bold with its verdict. Exits with CHEF_EXIT_ENVIRONMENT when memory
   runs out. */
char *lesson_page_markdown(const lesson *l, const lesson_item *it, int flags, int chosen);

/* The Markdown of a lesson's heading: "# Lesson N: title" and its summary (caller frees). */
char *lesson_header_markdown(const lesson *l);

#endif
