/*
 * lesson_page.c - one page or check question of a lesson as Markdown (see lesson_page.h).
 *
 * Directives on a page's own lines are expanded here: <!-- demo NAME --> becomes the demo's title
 * and the command that runs it, <!-- kernel NAME --> the kernel's source in a code block (its
 * `@mark` lines are flagged later by markdown_render). A kernel file longer than a page
 * (LESSON_LISTING_LINES) is shown around the lines the lesson marks: each marked line with a few
 * lines either side, and every line that opens a function, the other runs folded into one
 * "... N lines ..." line, so that the page fits a terminal; the header names the whole file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "lessons/lesson_page.h"
#include "lessons/markdown.h"

typedef struct read_buffer {
    char *text;
    size_t len, cap;
} read_buffer;

/* Appends text to a buffer. */
static void read_append(read_buffer *b, const char *text, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 1024) + n;
        char *grown = realloc(b->text, cap);
        if (!grown) {
            fprintf(stderr, "cudachef: out of memory\n");
            exit(CHEF_EXIT_ENVIRONMENT);
        }
        b->text = grown;
        b->cap = cap;
    }
    memcpy(b->text + b->len, text, n);
    b->len += n;
    b->text[b->len] = '\0';
}

/* Appends formatted text to a buffer. */
static void read_appendf(read_buffer *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void read_appendf(read_buffer *b, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        read_append(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Whether a kernel line opens a function (its signature): kept in a folded listing. */
static int read_line_opens_function(const char *line, size_t n)
{
    return n > 0 && line[0] != ' ' && line[0] != '#' && line[0] != '/' && line[0] != '*' && line[0] != '}' &&
           memchr(line, '(', n) != NULL;
}

/* The kernel's source into out, whole when it fits a page, else folded around the marked lines
   (see the top of this file). */
static void read_listing(const lesson *l, const char *src, read_buffer *out)
{
    size_t nlines = 0;
    for (const char *c = src; *c; c++)
        nlines += *c == '\n';
    if (src[0] && src[strlen(src) - 1] != '\n')
        nlines++;
    if (nlines <= LESSON_LISTING_LINES || l->nmarks == 0 || nlines > 100000) {
        read_append(out, src, strlen(src));
        return;
    }
    const char **start = malloc(nlines * sizeof *start);
    size_t *len = malloc(nlines * sizeof *len);
    unsigned char *keep = calloc(nlines, 1);
    if (!start || !len || !keep) {
        free(start), free(len), free(keep);
        read_append(out, src, strlen(src));
        return;
    }
    size_t i = 0;
    for (const char *c = src; *c && i < nlines; i++) {
        const char *e = strchr(c, '\n');
        start[i] = c;
        len[i] = e ? (size_t)(e - c) : strlen(c);
        c = e ? e + 1 : c + len[i];
    }
    size_t marked = 0;
    for (i = 0; i < nlines; i++) {
        if (read_line_opens_function(start[i], len[i]))
            keep[i] = 1;
        if (markdown_line_marked(start[i], len[i], l->marks, l->nmarks)) {
            marked++;
            for (size_t k = i >= LESSON_LISTING_AROUND ? i - LESSON_LISTING_AROUND : 0;
                 k < nlines && k <= i + LESSON_LISTING_AROUND; k++)
                keep[k] = 1;
        }
    }
    if (marked == 0) { /* none of this lesson's marks here: the whole file */
        read_append(out, src, strlen(src));
    } else {
        for (i = 0; i < nlines;) {
            if (keep[i]) {
                read_append(out, start[i], len[i]);
                read_append(out, "\n", 1);
                i++;
                continue;
            }
            size_t run = 0;
            while (i + run < nlines && !keep[i + run])
                run++;
            if (run == 1) {
                read_append(out, start[i], len[i]);
                read_append(out, "\n", 1);
            } else {
                char folded[96];
                snprintf(folded, sizeof folded, _("%zu lines not shown"), run);
                read_appendf(out, "    /* ... %s ... */\n", folded);
            }
            i += run;
        }
    }
    free(start);
    free(len);
    free(keep);
}

/* Replaces a page's <!-- demo --> and <!-- kernel --> lines with what they show. */
static void read_expand(const lesson *l, const char *body, read_buffer *out)
{
    i18n_lang lang = i18n_current();
    const char *p = body;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char word[16] = "", name[256] = "", close[8] = "";
        char line[512];
        int directive = 0;
        if (n < sizeof line) {
            memcpy(line, p, n);
            line[n] = '\0';
            directive = sscanf(line, " <!-- %15s %255s %7s", word, name, close) == 3 && strcmp(close, "-->") == 0;
        }
        const lesson_demo *d = directive && strcmp(word, "demo") == 0 ? lesson_demo_find(l, name) : NULL;
        if (d) {
            read_appendf(out, "\n> **%s** %s  \n> `cudachef run %d --demo %s`\n\n", _("Live demo:"), d->title[lang],
                         l->number, d->name);
        } else if (directive && strcmp(word, "kernel") == 0) {
            char path[4400], why[300];
            snprintf(path, sizeof path, "%s/%s.cu", lesson_kernels_dir(), name);
            /* a directive in a code fence is not checked when the lesson loads: check it here */
            int ok = lesson_kernel_ok(lesson_kernels_dir(), name, why, sizeof why) == 0;
            char *src = ok ? lesson_read_file(path, NULL) : NULL;
            read_appendf(out, "\n%s `kernels/%s.cu`%s\n\n```cuda\n", _("Kernel"), name,
                         l->nmarks ? _(" (the lines that matter are marked >>)") : "");
            if (src) {
                read_listing(l, src, out);
                free(src);
            } else {
                read_appendf(out, "(%s)\n", _("the kernel file could not be read"));
            }
            read_append(out, "```\n\n", 5);
        } else {
            read_append(out, p, n);
            read_append(out, "\n", 1);
        }
        p = end ? end + 1 : p + n;
    }
}

/* The Markdown of one page or question (caller frees). */
char *lesson_page_markdown(const lesson *l, const lesson_item *it, int flags, int chosen)
{
    read_buffer b = {0};
    int answers = (flags & LESSON_PAGE_ANSWERS) != 0;
    if (it->kind == ITEM_PAGE) {
        read_appendf(&b, "## %s\n\n", it->title);
        read_expand(l, it->body ? it->body : "", &b);
    } else {
        read_appendf(&b, "## %s %s\n\n", _("Check:"), it->title);
        if (it->body && *it->body)
            read_appendf(&b, "%s\n\n", it->body);
        for (int c = 0; c < it->nchoices; c++) {
            const lesson_choice *ch = &it->choices[c];
            const char *right = answers && ch->right ? _("  **(right)**") : "";
            if (c == chosen)
                read_appendf(&b, "**%c) %s**%s  %s", 'a' + c, ch->text, right,
                             ch->right ? _("✓ your answer") : _("✗ your answer"));
            else
                read_appendf(&b, "%c) %s%s", 'a' + c, ch->text, right);
            /* the explanation goes on under the choice's text, after a hard line break */
            if (answers && ch->explanation && *ch->explanation)
                read_appendf(&b, "  \n*%s*", ch->explanation);
            read_append(&b, "\n\n", 2);
        }
        if (flags & LESSON_PAGE_HINT)
            read_appendf(&b, "*%s*\n", _("`--answers` shows the right choice and why each choice is right or wrong."));
    }
    if (!b.text)
        read_append(&b, "", 0);
    return b.text;
}

/* The Markdown of a lesson's heading and summary (caller frees). */
char *lesson_header_markdown(const lesson *l)
{
    i18n_lang lang = i18n_current();
    read_buffer b = {0};
    read_appendf(&b, _("# Lesson %d: %s\n\n"), l->number, l->title[lang]);
    if (l->summary[lang])
        read_appendf(&b, "%s\n", l->summary[lang]);
    return b.text;
}
