/*
 * markdown_internal.h - what the Markdown layout's two files share: markdown.c (md4c's callbacks,
 * paragraphs, lists, quotes, code blocks) and markdown_table.c (tables). The state of one layout
 * and the calls that add lines and spans to the document. The rest of the program uses markdown.h.
 */
#ifndef CUDACHEF_MARKDOWN_INTERNAL_H
#define CUDACHEF_MARKDOWN_INTERNAL_H

#include <md4c.h>
#include <stddef.h>

#include "lessons/markdown.h"

#define MD_MAX_DEPTH 32 /* containers (lists, items, quotes) open at once, at most */

/* Inline text with its style, gathered until its block ends and then wrapped. */
typedef struct md_run {
    char *text;
    int style;
    int nobreak;        /* an inline code span: kept on one line (a command stays whole) */
} md_run;

/* An open list, list item or quote: what it writes at the start of each of its lines. */
typedef struct md_container {
    MD_BLOCKTYPE type;
    char first[32];     /* prefix of the container's first line ("• ", "3. ") */
    char rest[32];      /* prefix of the lines after it */
    int used;           /* the first line has been written */
    int number;         /* next number of an ordered list */
    int tight;
} md_container;

/* A table cell's text, its runs joined. */
typedef struct md_cell {
    char *text;
} md_cell;

/* One layout: the document being written and what md4c has opened so far. */
typedef struct md_state {
    md_doc *doc;
    int width;
    char *const *marks;
    int nmarks;
    int target;         /* enum md_target */
    md_container stack[MD_MAX_DEPTH];
    int too_deep;       /* containers opened past MD_MAX_DEPTH and not pushed */
    int depth;
    md_run *runs;
    int nruns, cap_runs;
    int style;          /* style of the spans open now */
    int hang;           /* the lines of the block being wrapped after its first start this many
                           columns further in (under the text of a choice "b) ...") */
    int heading;        /* level of the heading open now, 0 if none */
    char *code;         /* text of the code block open now */
    size_t code_len, code_cap;
    int in_code;
    char href[512];
    char *span;         /* the text of the inline code span open now */
    size_t span_len, span_cap;
    int in_span;
    /* the table being gathered */
    int in_table, in_head;
    md_cell *cells;
    int ncells, cap_cells;
    int *row_starts, nrows, cap_rows;
    int head_rows;
    int failed;
} md_state;

/* Length in bytes of the UTF-8 character that starts at t, of the left bytes there (at least 1,
   at most left: a sequence cut short by the end of the text ends there) (markdown.c). */
size_t md_char_len(const char *t, size_t left);

/* Starts a new output line with a style (markdown.c). */
md_line *md_new_line(md_state *s, int style);

/* Adds a span to a line (markdown.c). */
void md_add_span(md_line *l, const char *text, size_t len, int style);

/* Writes the prefixes of the open containers at the start of a line; returns their width (markdown.c). */
int md_prefix(md_state *s, md_line *l);

/* Starts a row of the table being gathered (markdown_table.c). */
void md_table_row(md_state *s);

/* Joins the gathered runs into one cell's text (markdown_table.c). */
void md_end_cell(md_state *s);

/* Lays out the gathered table and forgets its cells (markdown_table.c). */
void md_table(md_state *s);

#endif
