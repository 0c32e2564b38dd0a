/*
 * markdown.h - lesson Markdown laid out as lines of styled text for a given width.
 *
 * md4c parses (CommonMark plus tables); this module wraps paragraphs by display width (Hangul
 * takes two columns), indents lists and quotes (and the lines of a choice "b) ..." under its text),
 * aligns tables and keeps code blocks as written, less their `@mark` comments, with the lesson's
 * marked lines flagged. On the screen a line of code wider than the page goes on in lines that keep
 * its indentation and start with "↪ "; plain text keeps it whole. The result is plain data:
 * `cudachef read` prints it and the TUI draws it with colours, so neither needs to know Markdown.
 * markdown.c does the layout and markdown_table.c the tables.
 */
#ifndef CUDACHEF_MARKDOWN_H
#define CUDACHEF_MARKDOWN_H

#include <stddef.h>

enum md_style {
    MD_STYLE_PLAIN = 0,
    MD_STYLE_STRONG = 1 << 0,
    MD_STYLE_EMPH = 1 << 1,
    MD_STYLE_CODE = 1 << 2,     /* inline code or a code block's text */
    MD_STYLE_HEADING = 1 << 3,
    MD_STYLE_LINK = 1 << 4,
    MD_STYLE_MARK = 1 << 5,     /* a line of code the lesson marks as one that matters */
    MD_STYLE_QUOTE = 1 << 6,
    MD_STYLE_TABLE_HEAD = 1 << 7,
    MD_STYLE_RULE = 1 << 8      /* decoration: bullets, table borders, heading underlines */
};

typedef struct md_span {
    char *text;                 /* UTF-8 */
    int style;                  /* md_style bits */
} md_span;

typedef struct md_line {
    md_span *spans;
    int nspans;
    int style;                  /* the line's own style bits (a marked code line, a heading) */
} md_line;

typedef struct md_doc {
    md_line *lines;
    int nlines;
} md_doc;

/* How the laid-out text will be shown. */
enum md_target {
    MD_TARGET_SCREEN = 0, /* styles are drawn (colours, bold): inline code needs no backticks */
    MD_TARGET_PLAIN = 1   /* plain text: inline code keeps its backticks, and they take room */
};

/* Lays markdown out in lines of at most width columns for a target (plain text: code lines may be
   wider). Lines of code whose `@mark NAME` is in marks get MD_STYLE_MARK, every piece of them; no
   `@mark` comment is shown. Returns 0, or -1 if md4c could not parse. */
int markdown_render(const char *markdown, size_t size, int width, int target, char *const *marks, int nmarks,
                    md_doc *out);

/* Whether a line of code (len bytes) carries `@mark NAME` for one of marks[0 .. nmarks). */
int markdown_line_marked(const char *line, size_t len, char *const *marks, int nmarks);

/* Frees a laid-out document. */
void markdown_free(md_doc *doc);

/* Writes a document laid out for MD_TARGET_PLAIN as text (code indented, marked lines ">>"). */
void markdown_print(const md_doc *doc, void *file);

#endif
