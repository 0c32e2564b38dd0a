/*
 * markdown_table.c - lays out the tables of lesson Markdown (see markdown.h).
 *
 * md4c gives a table cell by cell; the cells are gathered row by row until the table ends, so that
 * every column can be as wide as its widest cell (by display width: Hangul takes two columns). A
 * table wider than the page shrinks its widest column until it fits, and what no longer fits in a
 * cell wraps inside its column. A rule separates the head from the body.
 */
#include "lessons/markdown_internal.h"
#include "base/text.h"

#define MD_TABLE_WORD 24 /* a word this long or shorter is never cut inside a table cell */

#include <stdlib.h>
#include <string.h>

/* Starts a row of the table being gathered (a row that memory cannot hold is left out). */
void md_table_row(md_state *s)
{
    if (s->nrows == s->cap_rows) {
        int cap = s->cap_rows ? s->cap_rows * 2 : 8;
        int *grown = realloc(s->row_starts, (size_t)cap * sizeof *grown);
        if (!grown)
            return;
        s->row_starts = grown;
        s->cap_rows = cap;
    }
    s->row_starts[s->nrows++] = s->ncells;
    if (s->in_head)
        s->head_rows++;
}

/* Joins the gathered runs into one cell's text. */
void md_end_cell(md_state *s)
{
    size_t len = 0;
    for (int r = 0; r < s->nruns; r++)
        len += strlen(s->runs[r].text);
    char *text = malloc(len + 1);
    if (!text)
        return;
    text[0] = '\0';
    for (int r = 0; r < s->nruns; r++) {
        strcat(text, s->runs[r].text);
        free(s->runs[r].text);
    }
    for (char *c = text; *c; c++)
        if (*c == '\n')
            *c = ' ';
    s->nruns = 0;
    if (s->ncells == s->cap_cells) {
        int cap = s->cap_cells ? s->cap_cells * 2 : 16;
        md_cell *grown = realloc(s->cells, (size_t)cap * sizeof *grown);
        if (!grown) {
            free(text);
            return;
        }
        s->cells = grown;
        s->cap_cells = cap;
    }
    s->cells[s->ncells++].text = text;
}

/* The byte length of the longest start of text (from a word boundary) that fits in width
   columns; a word longer than width is cut by characters. *next is where the next line starts. */
static size_t md_fit(const char *text, int width, const char **next)
{
    size_t best = 0, i = 0, n = strlen(text);
    int col = 0;
    while (i < n) {
        size_t cl = md_char_len(text + i, n - i); /* a character cut short by the end ends there */
        int w = text_width(text + i, cl);
        if (col + w > width)
            break;
        col += w;
        i += cl;
        if (i == n || text[i] == ' ')
            best = i;
    }
    if (i == n)
        best = n;
    else if (best == 0)
        best = i ? i : md_char_len(text, n); /* one long word: cut it */
    const char *p = text + best;
    while (*p == ' ')
        p++;
    *next = p;
    return best;
}

/* Lays out the gathered table: columns aligned by display width, a rule under the head, cells
   wrapped inside their column when the table is wider than the page. */
void md_table(md_state *s)
{
    int cols = 0;
    for (int r = 0; r < s->nrows; r++) {
        int end = r + 1 < s->nrows ? s->row_starts[r + 1] : s->ncells;
        if (end - s->row_starts[r] > cols)
            cols = end - s->row_starts[r];
    }
    int *w = calloc((size_t)(cols ? cols : 1) * 2, sizeof *w);
    if (!w)
        return;
    int *least = w + (cols ? cols : 1); /* the longest word of each column, up to MD_TABLE_WORD */
    for (int r = 0; r < s->nrows; r++) {
        int end = r + 1 < s->nrows ? s->row_starts[r + 1] : s->ncells;
        for (int c = s->row_starts[r]; c < end; c++) {
            int col = c - s->row_starts[r];
            const char *t = s->cells[c].text;
            int cw = text_width(t, strlen(t));
            if (cw > w[col])
                w[col] = cw;
            for (const char *word = t; *word;) {
                size_t len = strcspn(word, " ");
                int ww = text_width(word, len);
                if (ww > least[col])
                    least[col] = ww < MD_TABLE_WORD ? ww : MD_TABLE_WORD;
                word += len;
                word += strspn(word, " ");
            }
        }
    }
    /* shrink the widest column that can give until the table fits; a column keeps room for its
       longest word (so an identifier is not cut in two) and at least 8 columns */
    int prefix = 0;
    for (int i = 0; i < s->depth; i++)
        prefix += s->stack[i].type == MD_BLOCK_QUOTE ? 2 : (int)strlen(s->stack[i].rest);
    for (int keep_words = 1;;) {
        int total = prefix + 1;
        int widest = -1;
        for (int c = 0; c < cols; c++) {
            total += w[c] + (c ? 3 : 0);
            int floor = keep_words && least[c] > 8 ? least[c] : 8;
            if (w[c] > floor && (widest < 0 || w[c] > w[widest]))
                widest = c;
        }
        if (total <= s->width)
            break;
        if (widest < 0) {
            if (!keep_words)
                break;
            keep_words = 0; /* too narrow even so: words may be cut after all */
            continue;
        }
        w[widest]--;
    }
    for (int r = 0; r < s->nrows; r++) {
        int start = s->row_starts[r];
        int end = r + 1 < s->nrows ? s->row_starts[r + 1] : s->ncells;
        int head = r < s->head_rows;
        int ncell = end - start;
        const char **rest = malloc((size_t)(ncell > 0 ? ncell : 1) * sizeof *rest);
        if (!rest)
            break;
        for (int c = 0; c < ncell; c++)
            rest[c] = s->cells[start + c].text;
        for (int more = 1; more;) {
            more = 0;
            md_line *l = md_new_line(s, head ? MD_STYLE_TABLE_HEAD : 0);
            md_prefix(s, l);
            for (int c = 0; c < ncell; c++) {
                const char *next = rest[c];
                size_t len = *rest[c] ? md_fit(rest[c], w[c], &next) : 0;
                int pad = w[c] - text_width(rest[c], len);
                md_add_span(l, c == 0 ? " " : " │ ", c == 0 ? 1 : strlen(" │ "), MD_STYLE_RULE);
                md_add_span(l, rest[c], len, head ? MD_STYLE_TABLE_HEAD | MD_STYLE_STRONG : 0);
                for (int k = 0; k < pad && c + 1 < ncell; k++)
                    md_add_span(l, " ", 1, 0);
                rest[c] = next;
                if (*next)
                    more = 1;
            }
        }
        free(rest);
        if (head && r + 1 == s->head_rows) {
            md_line *rule = md_new_line(s, MD_STYLE_RULE);
            md_prefix(s, rule);
            for (int c = 0; c < cols; c++) {
                md_add_span(rule, c == 0 ? "─" : "─┼─", strlen(c == 0 ? "─" : "─┼─"), MD_STYLE_RULE);
                for (int k = 0; k < w[c]; k++)
                    md_add_span(rule, "─", strlen("─"), MD_STYLE_RULE);
            }
        }
    }
    free(w);
    for (int c = 0; c < s->ncells; c++)
        free(s->cells[c].text);
    s->ncells = 0;
    s->nrows = 0;
    s->head_rows = 0;
}
