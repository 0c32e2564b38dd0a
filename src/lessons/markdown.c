/*
 * markdown.c - lays lesson Markdown out as lines of styled text (see markdown.h).
 *
 * md4c calls back for every block, span and piece of text. Text is gathered into "runs" (text
 * with a style) until its block ends; then the runs are wrapped into lines under the prefixes of
 * the open containers (list bullets, quote bars). Tables are gathered whole, then aligned
 * (markdown_table.c). Code blocks are written line by line: marked lines flagged, `@mark` comments
 * left out, and on the screen a line too wide goes on in lines that start with MD_CODE_MORE.
 */
#include "lessons/markdown.h"

#include <locale.h>
#include <md4c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/text.h"
#include "lessons/markdown_internal.h"

/* Length in bytes of the UTF-8 character that starts at t, at most left. */
size_t md_char_len(const char *t, size_t left)
{
    unsigned char c = (unsigned char)t[0];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
    return len < left ? len : left;
}

/* Duplicates len bytes (never NULL: stops the process when memory is gone). */
static char *md_strndup(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (!d) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(5);
    }
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

/* Starts a new output line with a style. */
md_line *md_new_line(md_state *s, int style)
{
    md_doc *d = s->doc;
    md_line *grown = realloc(d->lines, (size_t)(d->nlines + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(5);
    }
    d->lines = grown;
    md_line *l = &d->lines[d->nlines++];
    l->spans = NULL;
    l->nspans = 0;
    l->style = style;
    return l;
}

/* Adds a span to a line. */
void md_add_span(md_line *l, const char *text, size_t len, int style)
{
    if (len == 0)
        return;
    if (l->nspans > 0 && l->spans[l->nspans - 1].style == style) {
        md_span *last = &l->spans[l->nspans - 1];
        size_t old = strlen(last->text);
        char *joined = realloc(last->text, old + len + 1);
        if (!joined)
            return;
        memcpy(joined + old, text, len);
        joined[old + len] = '\0';
        last->text = joined;
        return;
    }
    md_span *grown = realloc(l->spans, (size_t)(l->nspans + 1) * sizeof *grown);
    if (!grown)
        return;
    l->spans = grown;
    l->spans[l->nspans].text = md_strndup(text, len);
    l->spans[l->nspans].style = style;
    l->nspans++;
}

/* Adds an empty line, unless the document is empty or already ends with one. */
static void md_blank(md_state *s)
{
    md_doc *d = s->doc;
    if (d->nlines == 0 || d->lines[d->nlines - 1].nspans == 0)
        return;
    md_new_line(s, 0);
}

/* Writes the prefixes of the open containers at the start of a line; returns their width. */
int md_prefix(md_state *s, md_line *l)
{
    int width = 0;
    for (int i = 0; i < s->depth; i++) {
        md_container *c = &s->stack[i];
        const char *p = NULL;
        int style = MD_STYLE_RULE;
        if (c->type == MD_BLOCK_QUOTE) {
            p = "│ ";
            style |= MD_STYLE_QUOTE;
        } else if (c->type == MD_BLOCK_LI) {
            /* only the innermost item shows its bullet, and only on its first line */
            p = c->used ? c->rest : c->first;
            c->used = 1;
        }
        if (p) {
            md_add_span(l, p, strlen(p), style);
            width += text_width(p, strlen(p));
        }
    }
    return width;
}

/* Adds a run of inline text. */
static void md_add_run(md_state *s, const char *text, size_t len, int style)
{
    if (s->nruns == s->cap_runs) {
        int cap = s->cap_runs ? s->cap_runs * 2 : 16;
        md_run *grown = realloc(s->runs, (size_t)cap * sizeof *grown);
        if (!grown)
            return;
        s->runs = grown;
        s->cap_runs = cap;
    }
    s->runs[s->nruns].text = md_strndup(text, len);
    s->runs[s->nruns].style = style;
    s->runs[s->nruns].nobreak = 0;
    s->nruns++;
}

/* Appends text to a growable buffer (the code block or the code span open now). */
static void md_grow_append(char **buf, size_t *len, size_t *cap, const char *text, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t want = (*cap ? *cap * 2 : 256) + n;
        char *grown = realloc(*buf, want);
        if (!grown)
            return;
        *buf = grown;
        *cap = want;
    }
    memcpy(*buf + *len, text, n);
    *len += n;
    (*buf)[*len] = '\0';
}

/* Starts a line that continues the block being wrapped: the containers' prefixes, then the
   hanging indent; returns the column where its text starts. */
static int md_wrap_line(md_state *s, md_line **l, int line_style)
{
    *l = md_new_line(s, line_style);
    int col = md_prefix(s, *l);
    static const char spaces[] = "                ";
    if (s->hang > 0 && s->hang < (int)sizeof spaces && col + s->hang <= s->width / 2) {
        md_add_span(*l, spaces, (size_t)s->hang, MD_STYLE_PLAIN);
        col += s->hang;
    }
    return col;
}

/* The hanging indent of a block whose text starts with a choice's label ("b) ", "✓ b) "): the
   label's width, so that wrapped lines continue under the text; 0 for any other block. */
static int md_hang(const md_state *s)
{
    char head[16];
    size_t n = 0;
    for (int r = 0; r < s->nruns && n + 1 < sizeof head; r++)
        for (const char *t = s->runs[r].text; *t && n + 1 < sizeof head; t++)
            head[n++] = *t;
    head[n] = '\0';
    const char *p = head;
    if (strncmp(p, "✓ ", strlen("✓ ")) == 0 || strncmp(p, "✗ ", strlen("✗ ")) == 0)
        p += strlen("✓ ");
    if (p[0] >= 'a' && p[0] <= 'z' && p[1] == ')' && p[2] == ' ')
        return text_width(head, (size_t)(p + 3 - head));
    return 0;
}

/* A piece of a word: part of one run (a word can span runs: "(" then `code`). */
typedef struct md_piece {
    const char *text;
    size_t len;
    int style;
} md_piece;

#define MD_MAX_PIECES 64

/* Adds a word's pieces to the line, cutting by characters what does not fit; returns the column. */
static int md_put_word(md_state *s, md_line **l, int col, int *start, const md_piece *pieces, int npieces, int line_style)
{
    for (int k = 0; k < npieces; k++) {
        const char *t = pieces[k].text;
        size_t i = 0, n = pieces[k].len;
        while (i < n) {
            size_t j = i;
            int w = 0;
            while (j < n) {
                size_t cl = md_char_len(t + j, n - j);
                int wch = text_width(t + j, cl);
                if (col + w + wch > s->width && col + w > *start)
                    break;
                w += wch;
                j += cl;
            }
            md_add_span(*l, t + i, j - i, pieces[k].style);
            col += w;
            i = j;
            if (i < n) /* the rest goes on the next line */
                col = *start = md_wrap_line(s, l, line_style);
        }
    }
    return col;
}

/* Wraps the gathered runs into lines under the containers' prefixes. Words are split at spaces
   only; a code span is one word with what touches it ("(`x`)"), so a command stays whole. */
static void md_flush(md_state *s, int line_style)
{
    if (s->nruns == 0)
        return;
    s->hang = line_style ? 0 : md_hang(s);
    md_line *l = md_new_line(s, line_style);
    int col = md_prefix(s, l), start = col;
    md_piece word[MD_MAX_PIECES];
    int npieces = 0, width = 0, space_before = 0, space_style = 0;
    for (int r = 0; r <= s->nruns; r++) {
        const char *t = r < s->nruns ? s->runs[r].text : "";
        int style = r < s->nruns ? s->runs[r].style | line_style : 0;
        int nobreak = r < s->nruns && s->runs[r].nobreak;
        size_t n = strlen(t), i = 0;
        for (;;) {
            /* the end of a word: a space, a hard break, the end of the text, or a full buffer */
            int at_end = r == s->nruns && i >= n;
            int breaks = i < n && !nobreak && (t[i] == ' ' || t[i] == '\n');
            if ((breaks || at_end || npieces == MD_MAX_PIECES) && npieces > 0) {
                int gap = space_before && col > start;
                if (col + gap + width > s->width && col > start) {
                    col = start = md_wrap_line(s, &l, line_style);
                    gap = 0;
                }
                if (gap) {
                    md_add_span(l, " ", 1, space_style);
                    col++;
                }
                col = md_put_word(s, &l, col, &start, word, npieces, line_style);
                npieces = 0;
                width = 0;
                space_before = 0;
            }
            if (i >= n)
                break;
            if (breaks) {
                if (t[i] == '\n') {
                    col = start = md_wrap_line(s, &l, line_style);
                    space_before = 0;
                } else {
                    space_before = 1;
                    space_style = style & ~MD_STYLE_LINK; /* the space belongs to the run it is in */
                }
                i++;
                continue;
            }
            size_t j = i;
            while (j < n && (nobreak || (t[j] != ' ' && t[j] != '\n')))
                j++;
            word[npieces++] = (md_piece){t + i, j - i, style};
            width += text_width(t + i, j - i);
            i = j;
        }
    }
    for (int r = 0; r < s->nruns; r++)
        free(s->runs[r].text);
    s->nruns = 0;
    s->hang = 0;
}

/* Whether a line of code carries `@mark NAME` for one of the marks (see markdown.h). */
int markdown_line_marked(const char *line, size_t len, char *const *marks, int nmarks)
{
    for (int m = 0; m < nmarks; m++) {
        size_t nl = strlen(marks[m]);
        for (size_t i = 0; i + 6 + nl <= len; i++)
            if (memcmp(line + i, "@mark ", 6) == 0 && memcmp(line + i + 6, marks[m], nl) == 0) {
                char after = i + 6 + nl < len ? line[i + 6 + nl] : ' ';
                if (after == ' ' || after == ':' || after == '*')
                    return 1;
            }
    }
    return 0;
}

/* Whether a line of code carries `@mark NAME` for one of the lesson's marks. */
static int md_code_marked(const md_state *s, const char *line, size_t len)
{
    return markdown_line_marked(line, len, s->marks, s->nmarks);
}

/* Where the marker comment starting at line[i] ends (a block comment or a // comment that opens
   with `@mark NAME`), with the note after "NAME:" in [*note, *note_end); 0 when none starts there. */
static size_t md_marker_at(const char *line, size_t len, size_t i, size_t *note, size_t *note_end)
{
    if (i + 2 > len || line[i] != '/' || (line[i + 1] != '*' && line[i + 1] != '/'))
        return 0;
    int block = line[i + 1] == '*';
    size_t j = i + 2;
    while (j < len && line[j] == ' ')
        j++;
    if (j + 6 > len || memcmp(line + j, "@mark", 5) != 0 || line[j + 5] != ' ')
        return 0;
    size_t end = len, close = len;
    if (block) {
        for (close = j; close + 1 < len && !(line[close] == '*' && line[close + 1] == '/'); close++)
            ;
        if (close + 1 >= len)
            return 0; /* not closed on this line: left as it is */
        end = close + 2;
    }
    size_t k = j + 6;
    while (k < close && line[k] == ' ')
        k++;
    while (k < close && line[k] != ' ' && line[k] != ':')
        k++;
    *note = *note_end = close;
    if (k < close && line[k] == ':') {
        for (*note = k + 1; *note < close && line[*note] == ' '; (*note)++)
            ;
        while (*note_end > *note && line[*note_end - 1] == ' ')
            (*note_end)--;
    }
    return end;
}

/* Copies a line of code without its `@mark NAME` comments and the spaces before them into out
   (len + 1 bytes at least): they are for the lessons, not the learner. A note after "NAME:" stays,
   as a comment of its own (`@mark tree: halves` becomes `halves` in the same kind of comment).
   Returns out's length. */
static size_t md_code_unmark(const char *line, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        size_t note, note_end, end = md_marker_at(line, len, i, &note, &note_end);
        if (!end) {
            out[n++] = line[i++];
            continue;
        }
        if (note < note_end) { /* the note's comment is shorter than the marker comment it replaces */
            int block = line[i + 1] == '*';
            memcpy(out + n, block ? "/* " : "// ", 3);
            n += 3;
            memcpy(out + n, line + note, note_end - note);
            n += note_end - note;
            if (block) {
                memcpy(out + n, " */", 3);
                n += 3;
            }
        } else {
            while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == '\t'))
                n--;
        }
        i = end;
    }
    out[n] = '\0';
    return n;
}

#define MD_CODE_MORE "↪ " /* starts the screen lines that continue a line of code too wide */

/* How much of a line of code fits in cols columns: up to a space or just after punctuation when
   that leaves the piece at least half full, else as many characters as fit (one at least). Returns
   the piece's length in bytes; *next is where the rest starts (the spaces at a break skipped). */
static size_t md_code_cut(const char *t, size_t n, int cols, size_t *next)
{
    size_t j = 0;
    int w = 0;
    while (j < n) {
        size_t cl = md_char_len(t + j, n - j);
        int wc = text_width(t + j, cl);
        if (w + wc > cols)
            break;
        w += wc;
        j += cl;
    }
    if (j >= n) {
        *next = n;
        return n;
    }
    if (j == 0) { /* not even one character fits: it goes alone */
        *next = md_char_len(t, n);
        return *next;
    }
    for (size_t b = j; b > 0 && text_width(t, b) * 2 >= cols; b--) {
        if (t[b] == ' ') {
            size_t end = b, rest = b;
            while (end > 0 && t[end - 1] == ' ')
                end--;
            while (rest < n && t[rest] == ' ')
                rest++;
            int opens_comment = end >= 2 && t[end - 2] == '/' && (t[end - 1] == '/' || t[end - 1] == '*');
            if (end > 0 && !opens_comment) {
                *next = rest;
                return end;
            }
        }
        if (strchr(",;([{", t[b - 1])) {
            *next = b;
            return b;
        }
    }
    *next = j;
    return j;
}

/* Writes one line of code under the containers' prefixes, flagged ">>" when marked. On the screen
   a line wider than the page goes on in lines that keep its indentation and start with
   MD_CODE_MORE; plain text keeps it whole, as the file has it (the terminal wraps it). */
static void md_code_line(md_state *s, const char *t, size_t n, int marked)
{
    int mark = marked ? MD_STYLE_MARK : 0;
    md_line *l = md_new_line(s, MD_STYLE_CODE | mark);
    int col = md_prefix(s, l) + 4;
    md_add_span(l, marked ? ">>  " : "    ", 4, MD_STYLE_RULE | mark);
    if (s->target != MD_TARGET_SCREEN) {
        md_add_span(l, t, n, MD_STYLE_CODE | mark);
        return;
    }
    size_t lead = 0;
    while (lead < n && t[lead] == ' ')
        lead++;
    int more = text_width(MD_CODE_MORE, strlen(MD_CODE_MORE));
    for (size_t i = 0;;) {
        size_t next, len = md_code_cut(t + i, n - i, s->width - col, &next);
        md_add_span(l, t + i, len, MD_STYLE_CODE | mark);
        i += next;
        if (i >= n)
            break;
        l = md_new_line(s, MD_STYLE_CODE | mark);
        col = md_prefix(s, l) + 4;
        md_add_span(l, "    ", 4, MD_STYLE_RULE | mark);
        int indent = (int)lead < (s->width - col) / 2 ? (int)lead : (s->width - col) / 2;
        if (indent > 0) {
            md_add_span(l, t, (size_t)indent, MD_STYLE_CODE | mark); /* t starts with lead spaces */
            col += indent;
        }
        md_add_span(l, MD_CODE_MORE, strlen(MD_CODE_MORE), MD_STYLE_RULE | mark);
        col += more;
    }
}

/* Writes a code block: its lines indented, marked lines flagged, marker comments left out. */
static void md_code_block(md_state *s)
{
    const char *p = s->code ? s->code : "";
    size_t n = s->code_len;
    while (n > 0 && p[n - 1] == '\n')
        n--;
    char *line = malloc(n + 1);
    if (!line) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(5);
    }
    size_t i = 0;
    while (i <= n && n > 0) {
        size_t j = i;
        while (j < n && p[j] != '\n')
            j++;
        int marked = md_code_marked(s, p + i, j - i);
        size_t len = md_code_unmark(p + i, j - i, line);
        md_code_line(s, line, len, marked);
        i = j + 1;
    }
    free(line);
    free(s->code);
    s->code = NULL;
    s->code_len = s->code_cap = 0;
}

/* md4c: a block starts. */
static int md_enter_block(MD_BLOCKTYPE type, void *detail, void *userdata)
{
    md_state *s = userdata;
    if (!s->in_table)
        md_flush(s, 0);
    switch (type) {
    case MD_BLOCK_QUOTE:
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
    case MD_BLOCK_LI:
        if (s->depth >= MD_MAX_DEPTH) {
            s->too_deep++; /* laid out at the deepest level followed; its leave is counted off */
            return 0;
        }
        md_container *c = &s->stack[s->depth];
        memset(c, 0, sizeof *c);
        c->type = type;
        if (type == MD_BLOCK_OL) {
            c->number = (int)((MD_BLOCK_OL_DETAIL *)detail)->start;
            c->tight = ((MD_BLOCK_OL_DETAIL *)detail)->is_tight;
        } else if (type == MD_BLOCK_UL) {
            c->tight = ((MD_BLOCK_UL_DETAIL *)detail)->is_tight;
        } else if (type == MD_BLOCK_LI) {
            md_container *list = s->depth > 0 ? &s->stack[s->depth - 1] : NULL;
            MD_BLOCK_LI_DETAIL *li = detail;
            if (list && list->type == MD_BLOCK_OL)
                snprintf(c->first, sizeof c->first, "%d. ", list->number++);
            else if (li && li->is_task)
                snprintf(c->first, sizeof c->first, "%s ", li->task_mark == ' ' ? "[ ]" : "[x]");
            else
                snprintf(c->first, sizeof c->first, "• ");
            int w = text_width(c->first, strlen(c->first));
            memset(c->rest, ' ', (size_t)w);
            c->rest[w] = '\0';
        }
        s->depth++;
        break;
    case MD_BLOCK_H:
        s->heading = (int)((MD_BLOCK_H_DETAIL *)detail)->level;
        break;
    case MD_BLOCK_CODE:
        s->in_code = 1;
        break;
    case MD_BLOCK_TABLE:
        s->in_table = 1;
        break;
    case MD_BLOCK_THEAD:
        s->in_head = 1;
        break;
    case MD_BLOCK_TR:
        md_table_row(s);
        break;
    default:
        break;
    }
    return 0;
}

/* md4c: a block ends. */
static int md_leave_block(MD_BLOCKTYPE type, void *detail, void *userdata)
{
    (void)detail;
    md_state *s = userdata;
    switch (type) {
    case MD_BLOCK_H: {
        int level = s->heading;
        int first = s->doc->nlines;
        md_flush(s, MD_STYLE_HEADING | MD_STYLE_STRONG);
        s->heading = 0;
        if (level <= 2 && s->doc->nlines > first) {
            /* underline the heading as wide as its widest line */
            int w = 0;
            for (int k = first; k < s->doc->nlines; k++) {
                int lw = 0;
                for (int i = 0; i < s->doc->lines[k].nspans; i++)
                    lw += text_width(s->doc->lines[k].spans[i].text, strlen(s->doc->lines[k].spans[i].text));
                if (lw > w)
                    w = lw;
            }
            md_line *rule = md_new_line(s, MD_STYLE_RULE | MD_STYLE_HEADING);
            md_prefix(s, rule);
            for (int i = 0; i < w && i < s->width; i++)
                md_add_span(rule, level == 1 ? "=" : "-", 1, MD_STYLE_RULE | MD_STYLE_HEADING);
        }
        md_blank(s);
        break;
    }
    case MD_BLOCK_P:
        md_flush(s, 0);
        if (s->depth == 0 || s->stack[s->depth - 1].type != MD_BLOCK_LI)
            md_blank(s);
        break;
    case MD_BLOCK_CODE:
        md_code_block(s);
        s->in_code = 0;
        md_blank(s);
        break;
    case MD_BLOCK_HR: {
        md_line *l = md_new_line(s, MD_STYLE_RULE);
        md_prefix(s, l);
        for (int i = 0; i < s->width && i < 40; i++)
            md_add_span(l, "─", strlen("─"), MD_STYLE_RULE);
        md_blank(s);
        break;
    }
    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
        md_end_cell(s);
        break;
    case MD_BLOCK_THEAD:
        s->in_head = 0;
        break;
    case MD_BLOCK_TABLE:
        s->in_table = 0;
        md_table(s);
        md_blank(s);
        break;
    case MD_BLOCK_LI:
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
    case MD_BLOCK_QUOTE:
        md_flush(s, 0);
        if (s->too_deep > 0) { /* one that was never pushed */
            s->too_deep--;
            break;
        }
        s->depth--;
        if (type == MD_BLOCK_LI)
            break;
        if (s->depth == 0)
            md_blank(s);
        break;
    default:
        md_flush(s, 0);
        break;
    }
    return 0;
}

/* md4c: a span starts. */
static int md_enter_span(MD_SPANTYPE type, void *detail, void *userdata)
{
    md_state *s = userdata;
    if (type == MD_SPAN_EM)
        s->style |= MD_STYLE_EMPH;
    else if (type == MD_SPAN_STRONG)
        s->style |= MD_STYLE_STRONG;
    else if (type == MD_SPAN_CODE) {
        s->style |= MD_STYLE_CODE;
        s->in_span = 1;
        s->span_len = 0;
        if (s->target == MD_TARGET_PLAIN)
            md_grow_append(&s->span, &s->span_len, &s->span_cap, "`", 1);
    } else if (type == MD_SPAN_A) {
        MD_SPAN_A_DETAIL *a = detail;
        s->style |= MD_STYLE_LINK;
        size_t n = a->href.size < sizeof s->href - 1 ? a->href.size : sizeof s->href - 1;
        if (n) /* an empty destination, [x](), comes with no text at all */
            memcpy(s->href, a->href.text, n);
        s->href[n] = '\0';
    }
    return 0;
}

/* md4c: a span ends. */
static int md_leave_span(MD_SPANTYPE type, void *detail, void *userdata)
{
    (void)detail;
    md_state *s = userdata;
    if (type == MD_SPAN_EM)
        s->style &= ~MD_STYLE_EMPH;
    else if (type == MD_SPAN_STRONG)
        s->style &= ~MD_STYLE_STRONG;
    else if (type == MD_SPAN_CODE) {
        if (s->target == MD_TARGET_PLAIN)
            md_grow_append(&s->span, &s->span_len, &s->span_cap, "`", 1);
        s->in_span = 0;
        if (s->span_len) {
            md_add_run(s, s->span, s->span_len, s->style | (s->heading ? MD_STYLE_HEADING | MD_STYLE_STRONG : 0));
            s->runs[s->nruns - 1].nobreak = 1;
        }
        s->style &= ~MD_STYLE_CODE;
    } else if (type == MD_SPAN_A) {
        s->style &= ~MD_STYLE_LINK;
        /* the address follows the link's words, unless the words are the address */
        if (s->href[0] && !(s->nruns > 0 && strcmp(s->runs[s->nruns - 1].text, s->href) == 0)) {
            char buf[600];
            snprintf(buf, sizeof buf, " (%s)", s->href);
            md_add_run(s, buf, strlen(buf), s->style);
        }
        s->href[0] = '\0';
    }
    return 0;
}

/* Decodes the few entities lessons use; others stay as written. */
static const char *md_entity(const char *text, size_t size)
{
    static const struct {
        const char *name, *utf8;
    } table[] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&nbsp;", " "}, {"&times;", "×"}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].name) == size && memcmp(text, table[i].name, size) == 0)
            return table[i].utf8;
    return NULL;
}

/* md4c: text. */
static int md_text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *userdata)
{
    md_state *s = userdata;
    if (type == MD_TEXT_HTML)
        return 0; /* <!-- demo --> lines are handled by the lesson reader */
    if (s->in_code) {
        md_grow_append(&s->code, &s->code_len, &s->code_cap, text, size);
        return 0;
    }
    if (s->in_span) {
        md_grow_append(&s->span, &s->span_len, &s->span_cap, type == MD_TEXT_SOFTBR ? " " : text,
                       type == MD_TEXT_SOFTBR ? 1 : size);
        return 0;
    }
    int style = s->style | (s->heading ? MD_STYLE_HEADING | MD_STYLE_STRONG : 0);
    switch (type) {
    case MD_TEXT_BR:
        md_add_run(s, "\n", 1, style);
        break;
    case MD_TEXT_SOFTBR:
        md_add_run(s, " ", 1, style);
        break;
    case MD_TEXT_ENTITY: {
        const char *e = md_entity(text, size);
        md_add_run(s, e ? e : text, e ? strlen(e) : size, style);
        break;
    }
    case MD_TEXT_NULLCHAR:
        break;
    default:
        md_add_run(s, text, size, style);
        break;
    }
    return 0;
}

/* Lays markdown out in lines of at most width columns. */
int markdown_render(const char *markdown, size_t size, int width, int target, char *const *marks, int nmarks,
                    md_doc *out)
{
    memset(out, 0, sizeof *out);
    md_state s;
    memset(&s, 0, sizeof s);
    s.doc = out;
    s.width = width < 20 ? 20 : width;
    s.marks = marks;
    s.nmarks = nmarks;
    s.target = target;
    MD_PARSER parser;
    memset(&parser, 0, sizeof parser);
    parser.abi_version = 0;
    parser.flags = MD_DIALECT_GITHUB;
    parser.enter_block = md_enter_block;
    parser.leave_block = md_leave_block;
    parser.enter_span = md_enter_span;
    parser.leave_span = md_leave_span;
    parser.text = md_text;
    int rc = md_parse(markdown, (MD_SIZE)size, &parser, &s);
    md_flush(&s, 0);
    for (int r = 0; r < s.nruns; r++)
        free(s.runs[r].text);
    free(s.runs);
    free(s.code);
    free(s.span);
    for (int c = 0; c < s.ncells; c++)
        free(s.cells[c].text);
    free(s.cells);
    free(s.row_starts);
    /* no blank lines at the end */
    while (out->nlines > 0 && out->lines[out->nlines - 1].nspans == 0)
        out->nlines--;
    return rc == 0 ? 0 : -1;
}

/* Frees a laid-out document. */
void markdown_free(md_doc *doc)
{
    /* lines past nlines were trimmed blanks with no spans */
    for (int i = 0; i < doc->nlines; i++) {
        for (int k = 0; k < doc->lines[i].nspans; k++)
            free(doc->lines[i].spans[k].text);
        free(doc->lines[i].spans);
    }
    free(doc->lines);
    memset(doc, 0, sizeof *doc);
}

/* Writes a document as plain text. */
void markdown_print(const md_doc *doc, void *file)
{
    FILE *out = file;
    for (int i = 0; i < doc->nlines; i++) {
        const md_line *l = &doc->lines[i];
        for (int k = 0; k < l->nspans; k++)
            fputs(l->spans[k].text, out);
        fputc('\n', out);
    }
}
