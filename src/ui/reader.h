/*
 * reader.h - the reader's own state, shared by its two files only: screen_reader.c (a lesson's
 * pages and questions) and reader_search.c (its search). No other screen includes it.
 */
#ifndef CUDACHEF_UI_READER_H
#define CUDACHEF_UI_READER_H

#include "ui/ui.h"

/* The reader's search: a word typed after `/`, found on the lesson's pages. */
typedef struct reader_search {
    int typing;          /* the prompt is open and keys add to text */
    int active;          /* text is highlighted and n / N move between its matches */
    char text[128];      /* what is searched for (UTF-8) */
    int item, line;      /* the match in view: page or question, and its line; -1 none */
    int index, found;    /* that match's number (1-based) and the lines that match in the lesson */
} reader_search;

/* The reader's place in one lesson. */
typedef struct reader_screen {
    int lesson;         /* index in the lesson set */
    int item;           /* page or question shown */
    int top;            /* first line shown */
    md_doc doc;         /* the item laid out */
    md_doc feedback;    /* a question's explanation of the choice picked */
    int width;          /* the width doc was laid out for; 0 when it must be laid out again */
    reader_search search;
} reader_screen;

/* Lays out item of the lesson being read for width columns into doc (freed with markdown_free);
   returns the item count of the lesson, or 0 when there is no such item. */
int reader_layout_item(const ui_state *s, const reader_screen *r, int item, int width, md_doc *doc);

/* Moves the reader to item with line in view. */
void reader_show(ui_state *s, reader_screen *r, int item, int line);

/* The reader's search: keys (1 when the key was the search's), the footer while it speaks (1 when
   drawn), and the matches of a drawn line highlighted. */
int search_key(ui_state *s, reader_screen *r, int key);
int search_draw_footer(ui_state *s, const reader_screen *r, layout_rect footer);
void search_highlight(const ui_state *s, const reader_screen *r, int y, layout_rect body, const md_line *line);

#endif
