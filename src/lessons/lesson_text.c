/*
 * lesson_text.c - reads a lesson's en.md and ko.md into pages and check questions, and checks the
 * two languages against each other.
 *
 * A line scanner (not md4c, so that every problem can name its line) splits the text at '# Title'
 * and '# ? Question', reads the choices of questions with their explanations and the
 * <!-- demo NAME --> and <!-- kernel NAME --> lines of pages, and leaves code fences alone. The
 * Korean text must have the English one's pages, questions, demos, kernels and right answers, and
 * every demo of lesson.ini must be placed on a page.
 */
#include "lessons/lesson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lessons/lesson_internal.h"

typedef struct md_scan {
    lesson_text *text;
    const lesson *lesson;
    lesson_set *set;
    const char *path;
    const char *kernels_dir;
    int bad;
    int check_demos;    /* lesson.ini loaded, so demo names can be checked */
    /* the body being collected for the current item */
    char *body;
    size_t body_len, body_cap;
    int in_choices;
} md_scan;

/* Appends a line (with its newline) to a growable buffer. */
static void md_append(char **buf, size_t *len, size_t *cap, const char *line, size_t n)
{
    if (*len + n + 2 > *cap) {
        size_t want = (*cap ? *cap * 2 : 256) + n + 2;
        char *grown = realloc(*buf, want);
        if (!grown) {
            fprintf(stderr, "cudachef: out of memory\n");
            exit(CHEF_EXIT_ENVIRONMENT);
        }
        *buf = grown;
        *cap = want;
    }
    memcpy(*buf + *len, line, n);
    *len += n;
    (*buf)[(*len)++] = '\n';
    (*buf)[*len] = '\0';
}

/* Trims trailing blank lines of a body and hands it to the current item. */
static void md_close_item(md_scan *sc)
{
    lesson_text *t = sc->text;
    if (t->nitems == 0) {
        free(sc->body);
    } else {
        lesson_item *it = &t->items[t->nitems - 1];
        if (it->kind == ITEM_QUESTION && it->nchoices > 0) {
            /* the body was already cut at the first choice */
            free(sc->body);
        } else {
            it->body = sc->body ? sc->body : lesson_strdup("");
        }
    }
    if (t->nitems > 0) {
        lesson_item *it = &t->items[t->nitems - 1];
        if (it->body) {
            size_t n = strlen(it->body);
            while (n > 0 && (it->body[n - 1] == '\n' || it->body[n - 1] == ' '))
                it->body[--n] = '\0';
        }
    }
    sc->body = NULL;
    sc->body_len = sc->body_cap = 0;
    sc->in_choices = 0;
}

/* Starts a new page or question. */
static lesson_item *md_new_item(md_scan *sc, lesson_item_kind kind, const char *title, size_t title_len, int line)
{
    md_close_item(sc);
    lesson_text *t = sc->text;
    lesson_item *grown = realloc(t->items, (size_t)(t->nitems + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(CHEF_EXIT_ENVIRONMENT);
    }
    t->items = grown;
    lesson_item *it = &t->items[t->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->line = line;
    while (title_len > 0 && (title[title_len - 1] == ' ' || title[title_len - 1] == '\r' || title[title_len - 1] == '#'))
        title_len--;
    it->title = strndup(title, title_len);
    if (kind == ITEM_PAGE)
        t->npages++;
    else
        t->nquestions++;
    return it;
}

/* Reads "<!-- demo NAME -->" or "<!-- kernel NAME -->": 1 and the word and name, 0 if the line is
   not one. */
static int md_directive(const char *line, size_t n, char *word, size_t wsize, char *name, size_t nsize)
{
    char buf[512];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, line, n);
    buf[n] = '\0';
    char w[32], nm[256], end[8];
    if (sscanf(buf, " <!-- %31s %255s %7s", w, nm, end) != 3 || strcmp(end, "-->") != 0)
        return 0;
    if (strcmp(w, "demo") != 0 && strcmp(w, "kernel") != 0)
        return 0;
    snprintf(word, wsize, "%s", w);
    snprintf(name, nsize, "%s", nm);
    return 1;
}

/* Handles one line outside code fences. */
static void lesson_text_scan_line(md_scan *sc, const char *line, size_t n, int lineno, int in_fence)
{
    lesson_text *t = sc->text;
    lesson_item *it = t->nitems ? &t->items[t->nitems - 1] : NULL;
    if (!in_fence && n >= 2 && line[0] == '#' && line[1] == ' ') {
        const char *title = line + 2;
        size_t tl = n - 2;
        while (tl > 0 && *title == ' ')
            title++, tl--;
        if (tl > 0 && title[0] == '?') {
            title++, tl--;
            while (tl > 0 && *title == ' ')
                title++, tl--;
            if (tl == 0) {
                lesson_problem_add(sc->set, sc->path, lineno, "a question needs its text after '# ?'");
                sc->bad = 1;
            }
            md_new_item(sc, ITEM_QUESTION, title, tl, lineno);
        } else {
            if (tl == 0) {
                lesson_problem_add(sc->set, sc->path, lineno, "a page needs a title after '# '");
                sc->bad = 1;
            }
            md_new_item(sc, ITEM_PAGE, title, tl, lineno);
        }
        return;
    }
    int blank = 1;
    for (size_t i = 0; i < n; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            blank = 0;
    if (!it) {
        if (!blank) {
            lesson_problem_add(sc->set, sc->path, lineno, "text before the first page: start the file with '# Title'");
            sc->bad = 1;
        }
        return;
    }
    if (it->kind == ITEM_QUESTION && !in_fence) {
        int is_choice = n >= 6 && line[0] == '-' && line[1] == ' ' && line[2] == '[' &&
                        (line[3] == ' ' || line[3] == 'x' || line[3] == 'X') && line[4] == ']' && line[5] == ' ';
        if (is_choice) {
            if (!sc->in_choices) {
                it->body = sc->body ? sc->body : lesson_strdup("");
                size_t bl = strlen(it->body);
                while (bl > 0 && it->body[bl - 1] == '\n')
                    it->body[--bl] = '\0';
                sc->body = NULL;
                sc->body_len = sc->body_cap = 0;
                sc->in_choices = 1;
            }
            lesson_choice *grown = realloc(it->choices, (size_t)(it->nchoices + 1) * sizeof *grown);
            if (!grown)
                return;
            it->choices = grown;
            lesson_choice *c = &it->choices[it->nchoices++];
            const char *text = line + 6;
            size_t tl = n - 6;
            while (tl > 0 && (text[tl - 1] == ' ' || text[tl - 1] == '\r'))
                tl--;
            c->text = strndup(text, tl);
            c->right = line[3] != ' ';
            c->line = lineno;
            c->explanation = NULL;
            if (tl == 0) {
                lesson_problem_add(sc->set, sc->path, lineno, "a choice needs its text after '- [ ] '");
                sc->bad = 1;
            }
            return;
        }
        if (sc->in_choices) {
            lesson_choice *c = &it->choices[it->nchoices - 1];
            if (blank)
                return;
            if (n >= 2 && line[0] == ' ' && line[1] == ' ') {
                const char *text = line + 2;
                size_t tl = n - 2;
                while (tl > 0 && *text == ' ')
                    text++, tl--;
                while (tl > 0 && (text[tl - 1] == ' ' || text[tl - 1] == '\r'))
                    tl--;
                size_t old = c->explanation ? strlen(c->explanation) : 0;
                char *joined = realloc(c->explanation, old + tl + 2);
                if (!joined)
                    return;
                if (old)
                    joined[old++] = ' ';
                memcpy(joined + old, text, tl);
                joined[old + tl] = '\0';
                c->explanation = joined;
                return;
            }
            lesson_problem_add(sc->set, sc->path, lineno,
                               "after the choices, expected another '- [ ] choice' or an explanation indented by two "
                               "spaces (start a new page with '# ')");
            sc->bad = 1;
            return;
        }
    }
    if (!in_fence) {
        char word[32], name[256];
        if (md_directive(line, n, word, sizeof word, name, sizeof name)) {
            if (word[0] == 'd') {
                if (sc->check_demos && !lesson_demo_find(sc->lesson, name)) {
                    lesson_problem_add(sc->set, sc->path, lineno, "demo '%s' is not in lesson.ini", name);
                    sc->bad = 1;
                }
                lesson_push(&it->demos, &it->ndemos, name);
            } else {
                char why[300];
                if (lesson_kernel_ok(sc->kernels_dir, name, why, sizeof why) != 0) {
                    lesson_problem_add(sc->set, sc->path, lineno, "%s", why);
                    sc->bad = 1;
                }
                lesson_push(&it->kernels, &it->nkernels, name);
            }
        }
    }
    md_append(&sc->body, &sc->body_len, &sc->body_cap, line, n);
}

/* Checks each question once its text is read: choices, one right answer, explanations. */
static void md_check_questions(md_scan *sc)
{
    lesson_text *t = sc->text;
    for (int i = 0; i < t->nitems; i++) {
        lesson_item *it = &t->items[i];
        if (it->kind != ITEM_QUESTION)
            continue;
        if (it->nchoices < 2) {
            lesson_problem_add(sc->set, sc->path, it->line, "a question needs at least two choices ('- [x] right', '- [ ] wrong')");
            sc->bad = 1;
            continue;
        }
        int right = 0;
        for (int c = 0; c < it->nchoices; c++) {
            right += it->choices[c].right;
            if (!it->choices[c].explanation || !*it->choices[c].explanation) {
                lesson_problem_add(sc->set, sc->path, it->choices[c].line,
                                   "this choice has no explanation: add a line indented by two spaces saying why");
                sc->bad = 1;
            }
        }
        if (right != 1) {
            lesson_problem_add(sc->set, sc->path, it->line, "a question needs exactly one right choice '- [x]', not %d",
                               right);
            sc->bad = 1;
        }
    }
}

/* Reads one language's text; -1 after adding problems. */
int lesson_read_text(const char *folder, const char *kernels_dir, lesson *l, i18n_lang lang, int ini_ok,
                     lesson_set *set)
{
    lesson_text *t = &l->text[lang];
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.md", folder, i18n_code(lang));
    t->path = lesson_strdup(path);
    size_t len;
    char *text = lesson_read_text_file(path, "every lesson has en.md and ko.md", set, &len);
    if (!text)
        return -1;
    md_scan sc = {.text = t, .lesson = l, .set = set, .path = path, .kernels_dir = kernels_dir, .check_demos = ini_ok};
    int lineno = 0, in_fence = 0, fence_line = 0;
    char fence = 0;
    size_t fence_len = 0;
    const char *p = text;
    if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *next = p + n + (end != NULL); /* taken before the CRs go: a last line "\r" ends too */
        while (n > 0 && p[n - 1] == '\r') /* CRLF files read like LF ones */
            n--;
        lineno++;
        /* fenced code: ``` or ~~~ with up to three spaces before it */
        size_t indent = 0;
        while (indent < n && indent < 4 && p[indent] == ' ')
            indent++;
        int toggled = 0;
        if (indent < 4 && n - indent >= 3 && (p[indent] == '`' || p[indent] == '~')) {
            char ch = p[indent];
            size_t run = 0;
            while (indent + run < n && p[indent + run] == ch)
                run++;
            if (run >= 3) {
                if (!in_fence) {
                    in_fence = 1;
                    fence_line = lineno;
                    fence = ch;
                    fence_len = run;
                    toggled = 1;
                } else if (ch == fence && run >= fence_len) {
                    in_fence = 0;
                    toggled = 1;
                }
            }
        }
        lesson_text_scan_line(&sc, p, n, lineno, in_fence || toggled);
        p = next;
    }
    if (in_fence) {
        lesson_problem_add(set, path, fence_line, "this code block (```) is never closed");
        sc.bad = 1;
    }
    md_close_item(&sc);
    free(text);
    if (t->npages == 0) {
        lesson_problem_add(set, path, 0, "no pages: a page starts with a line '# Title'");
        sc.bad = 1;
    }
    md_check_questions(&sc);
    return sc.bad ? -1 : 0;
}

/* Joins names with spaces for messages. */
static void lesson_join(char **names, int n, char *out, size_t size)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", i ? " " : "", names[i]);
    }
    if (n == 0)
        snprintf(out, size, "none");
}

/* Checks that the Korean text has the English one's pages, questions and demos. */
int lesson_compare_texts(const lesson *l, lesson_set *set)
{
    const lesson_text *en = &l->text[I18N_EN];
    int bad = 0;
    for (int lang = 1; lang < I18N_LANGS; lang++) {
        const lesson_text *t = &l->text[lang];
        int n = en->nitems < t->nitems ? en->nitems : t->nitems;
        for (int i = 0; i < n && !bad; i++) {
            const lesson_item *a = &en->items[i], *b = &t->items[i];
            char x[512], y[512];
            if (a->kind != b->kind) {
                lesson_problem_add(set, t->path, b->line, "item %d is a %s here but a %s in %s:%d", i + 1,
                                   b->kind == ITEM_PAGE ? "page" : "question", a->kind == ITEM_PAGE ? "page" : "question",
                                   en->path, a->line);
                bad = 1;
                break;
            }
            /* the same demo lines, then the same kernel lines, on the same page */
            for (int what = 0; what < 2; what++) {
                lesson_join(what ? a->kernels : a->demos, what ? a->nkernels : a->ndemos, x, sizeof x);
                lesson_join(what ? b->kernels : b->demos, what ? b->nkernels : b->ndemos, y, sizeof y);
                if (strcmp(x, y) == 0)
                    continue;
                if (what)
                    lesson_problem_add(set, t->path, b->line, "this page shows kernels (%s) but %s:%d shows (%s)", y,
                                       en->path, a->line, x);
                else
                    lesson_problem_add(set, t->path, b->line, "this page places demos (%s) but %s:%d places (%s)", y,
                                       en->path, a->line, x);
                bad = 1;
            }
            if (a->kind == ITEM_QUESTION) {
                if (a->nchoices != b->nchoices) {
                    lesson_problem_add(set, t->path, b->line, "this question has %d choices but %s:%d has %d",
                                       b->nchoices, en->path, a->line, a->nchoices);
                    bad = 1;
                } else {
                    for (int c = 0; c < a->nchoices; c++)
                        if (a->choices[c].right != b->choices[c].right) {
                            lesson_problem_add(set, t->path, b->choices[c].line,
                                               "choice %d is %s here but %s in %s:%d", c + 1,
                                               b->choices[c].right ? "right" : "wrong",
                                               a->choices[c].right ? "right" : "wrong", en->path, a->choices[c].line);
                            bad = 1;
                            break;
                        }
                }
            }
        }
        if (!bad && en->nitems != t->nitems) {
            lesson_problem_add(set, t->path, 0, "%d pages and %d questions, but %s has %d pages and %d questions",
                               t->npages, t->nquestions, en->path, en->npages, en->nquestions);
            bad = 1;
        }
    }
    /* every demo of lesson.ini is placed on a page */
    for (int d = 0; d < l->ndemos && !bad; d++) {
        int placed = 0;
        for (int i = 0; i < en->nitems && !placed; i++)
            for (int k = 0; k < en->items[i].ndemos; k++)
                placed |= strcmp(en->items[i].demos[k], l->demos[d].name) == 0;
        if (!placed) {
            char ini[4200];
            snprintf(ini, sizeof ini, "%s/lesson.ini", l->dir);
            lesson_problem_add(set, ini, l->demos[d].line, "demo '%s' is not placed on any page: add <!-- demo %s --> to en.md and ko.md",
                               l->demos[d].name, l->demos[d].name);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}
