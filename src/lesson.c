/*
 * lesson.c - loads and checks lesson folders (docs/LESSONS.md is the format).
 *
 * lesson.ini is parsed with inih; en.md and ko.md are split into pages and check questions by a
 * line scanner (so every problem can name its line), and their Markdown is rendered elsewhere
 * (markdown.c, with md4c). Every problem is recorded as "FILE:LINE: message"; a lesson with a
 * problem is left out and the others still load.
 */
#include "lesson.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "recipes.h"

#define LESSON_INI_MAX_LINE 200 /* inih's line limit, in bytes */

/* Adds "file:line: message" to the set's problems. */
static void lesson_problem_add(lesson_set *set, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lesson_problem_add(lesson_set *set, const char *file, int line, const char *fmt, ...)
{
    lesson_problem *grown = realloc(set->problems, (size_t)(set->nproblems + 1) * sizeof *grown);
    if (!grown)
        return;
    set->problems = grown;
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    lesson_problem *p = &set->problems[set->nproblems++];
    p->file = strdup(file);
    p->line = line;
    p->message = strdup(message);
}

/* strdup that never returns NULL for a valid string (aborts the process when memory is gone). */
static char *lesson_strdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(CHEF_EXIT_ENVIRONMENT);
    }
    return d;
}

/* Appends an element to a growable array of pointers. */
static void lesson_push(char ***array, int *count, const char *value)
{
    char **grown = realloc(*array, (size_t)(*count + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(CHEF_EXIT_ENVIRONMENT);
    }
    *array = grown;
    (*array)[(*count)++] = lesson_strdup(value);
}

/* Reads a whole file into a NUL-terminated buffer (caller frees); NULL with errno on failure. */
char *lesson_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            if (cap > (64u << 20)) { /* a lesson file of more than 64 MiB is not a lesson file */
                free(buf);
                buf = NULL;
                errno = EFBIG;
                break;
            }
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    int saved = errno;
    fclose(f);
    errno = saved;
    if (buf) {
        buf[len] = '\0';
        if (size)
            *size = len;
    }
    return buf;
}

/* The line (from 1) of the first byte that is not valid UTF-8 or is a NUL, or 0 if all is well. */
static int lesson_bad_utf8_line(const char *s, size_t len)
{
    int line = 1;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n')
            line++;
        if (c == 0)
            return line;
        if (c < 0x80) {
            i++;
            continue;
        }
        int extra = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + (size_t)extra >= len + 0)
            return line;
        uint32_t cp = c & (0x3F >> extra);
        for (int k = 1; k <= extra; k++) {
            unsigned char d = (unsigned char)s[i + (size_t)k];
            if ((d & 0xC0) != 0x80)
                return line;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return line;
        i += (size_t)extra + 1;
    }
    return 0;
}

/* --- lesson.ini --- */

typedef struct ini_state {
    lesson *lesson;
    lesson_demo *demo;       /* the [demo NAME] being read, or NULL in [lesson] */
    int in_lesson;
    const char *path;
    const char *kernels_dir;
    int error_set;
    int error_line;          /* a better line than inih's, or 0 */
    const char *text;        /* the whole file, to find section lines */
    char error[512];
    char last_key[64];       /* for multi-line values: a repeated key continues the value */
} ini_state;

/* Records the first error of the ini file (inih reports its line). */
static int ini_fail(ini_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ini_fail(ini_state *st, const char *fmt, ...)
{
    if (!st->error_set) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->error, sizeof st->error, fmt, ap);
        va_end(ap);
        st->error_set = 1;
    }
    return 0;
}

/* A name is lower-case letters, digits and '-'. */
static int lesson_name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
            return 0;
    return 1;
}

/* Splits a space-separated value into words, calling add for each; -1 if there are none. */
static int ini_words(const char *value, void (*add)(void *ctx, const char *word), void *ctx)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", value);
    int count = 0;
    for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        add(ctx, w);
        count++;
    }
    return count > 0 ? 0 : -1;
}

typedef struct word_list {
    char ***array;
    int *count;
} word_list;

/* Adds a word to a word_list. */
static void ini_add_word(void *ctx, const char *word)
{
    word_list *w = ctx;
    lesson_push(w->array, w->count, word);
}

typedef struct size_list {
    int64_t *sizes;
    int *count;
    int bad;
} size_list;

/* Adds a matrix size to a size_list. */
static void ini_add_size(void *ctx, const char *word)
{
    size_list *s = ctx;
    int64_t v;
    chef_error err;
    if (*s->count >= DEMO_MAX_SIZES || cli_parse_int64("sizes", word, 1, 46340, &v, &err) != 0) {
        s->bad = 1;
        return;
    }
    s->sizes[(*s->count)++] = v;
}

/* Sets a title/summary-like text for one language, joining continuation lines with a space. */
static void ini_set_text(char **slot, const char *value, int continues)
{
    if (continues && *slot) {
        size_t len = strlen(*slot) + strlen(value) + 2;
        char *joined = malloc(len);
        if (!joined)
            return;
        snprintf(joined, len, "%s %s", *slot, value);
        free(*slot);
        *slot = joined;
        return;
    }
    free(*slot);
    *slot = lesson_strdup(value);
}

/* Parses a "title.en" style key into its base and language; the language is -1 without a suffix. */
static int ini_lang_key(const char *name, const char *base)
{
    size_t len = strlen(base);
    if (strncmp(name, base, len) != 0 || name[len] != '.')
        return -1;
    i18n_lang lang;
    if (i18n_parse(name + len + 1, &lang) != 0)
        return -2;
    return (int)lang;
}

/* Parses a whole number for a demo key. */
static int ini_number(ini_state *st, const char *name, const char *value, int64_t min, int64_t max, int64_t *out)
{
    chef_error err;
    if (cli_parse_int64(name, value, min, max, out, &err) != 0)
        return ini_fail(st, "%s = %s: expected a whole number from %lld to %lld", name, value, (long long)min,
                        (long long)max);
    return 1;
}

/* Parses an expect value. */
static int ini_expect(const char *value, demo_expect *out)
{
    static const char *names[] = {"pass", "wrong", "out-of-bounds", "any"};
    for (int i = 0; i < 4; i++)
        if (strcmp(value, names[i]) == 0) {
            *out = (demo_expect)i;
            return 0;
        }
    return -1;
}

/* Handles a key of [lesson]. */
static int ini_lesson_key(ini_state *st, const char *name, const char *value, int continues)
{
    lesson *l = st->lesson;
    int title = ini_lang_key(name, "title"), summary = ini_lang_key(name, "summary");
    if (title == -2 || summary == -2)
        return ini_fail(st, "'%s': the language must be en or ko", name);
    if (title >= 0)
        ini_set_text(&l->title[title], value, continues);
    else if (summary >= 0)
        ini_set_text(&l->summary[summary], value, continues);
    else if (strcmp(name, "kernels") == 0) {
        word_list w = {&l->kernels, &l->nkernels};
        ini_words(value, ini_add_word, &w);
        for (int i = 0; i < l->nkernels; i++) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s.cu", st->kernels_dir, l->kernels[i]);
            if (access(path, R_OK) != 0)
                return ini_fail(st, "kernel '%s' not found: there is no kernels/%s.cu", l->kernels[i], l->kernels[i]);
        }
    } else if (strcmp(name, "marks") == 0) {
        word_list w = {&l->marks, &l->nmarks};
        ini_words(value, ini_add_word, &w);
    } else
        return ini_fail(st, "unknown key '%s' in [lesson] (keys: title.en, title.ko, summary.en, summary.ko, "
                            "kernels, marks)", name);
    return 1;
}

/* Handles a key of [demo NAME]. */
static int ini_demo_key(ini_state *st, const char *name, const char *value, int continues)
{
    lesson_demo *d = st->demo;
    int lang;
    if ((lang = ini_lang_key(name, "title")) >= 0) {
        ini_set_text(&d->title[lang], value, continues);
        return 1;
    }
    if (lang == -2)
        return ini_fail(st, "'%s': the language must be en or ko", name);
    if (strcmp(name, "kind") == 0) {
        for (int k = DEMO_RUN; k <= DEMO_WALK; k++)
            if (strcmp(value, lesson_demo_kind_name((demo_kind)k)) == 0) {
                d->kind = (demo_kind)k;
                return 1;
            }
        return ini_fail(st, "kind = %s: use run, compare, info, clock, race, trips or walk", value);
    }
    if (strcmp(name, "recipe") == 0) {
        if (!recipe_find(value))
            return ini_fail(st, "recipe = %s: no such recipe (`cudachef list` shows them)", value);
        free(d->recipe);
        d->recipe = lesson_strdup(value);
        return 1;
    }
    if (strcmp(name, "recipes") == 0) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", value);
        for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
            if (!recipe_find(w))
                return ini_fail(st, "recipes: no recipe called '%s' (`cudachef list` shows them)", w);
            if (d->nrecipes >= DEMO_MAX_RECIPES)
                return ini_fail(st, "recipes: at most %d", DEMO_MAX_RECIPES);
            d->recipes[d->nrecipes++] = lesson_strdup(w);
        }
        return 1;
    }
    if (strcmp(name, "n") == 0)
        return ini_number(st, name, value, 1, 2147483647, &d->n);
    if (strcmp(name, "emu.n") == 0)
        return ini_number(st, name, value, 1, 2147483647, &d->emu_n);
    if (strcmp(name, "threads-per-block") == 0)
        return ini_number(st, name, value, 1, 1024, &d->threads_per_block);
    if (strcmp(name, "blocks") == 0)
        return ini_number(st, name, value, 1, 2147483647, &d->blocks);
    if (strcmp(name, "seed") == 0)
        return ini_number(st, name, value, 0, INT64_MAX, &d->seed);
    if (strcmp(name, "repeat") == 0)
        return ini_number(st, name, value, 1, KITCHEN_MAX_REPEAT, &d->repeat);
    if (strcmp(name, "emu.repeat") == 0)
        return ini_number(st, name, value, 1, KITCHEN_MAX_REPEAT, &d->emu_repeat);
    if (strcmp(name, "steps") == 0)
        return ini_number(st, name, value, 1, 1000, &d->steps);
    if (strcmp(name, "emu.steps") == 0)
        return ini_number(st, name, value, 1, 1000, &d->emu_steps);
    if (strcmp(name, "pinned") == 0 || strcmp(name, "access") == 0) {
        int64_t v;
        if (!ini_number(st, name, value, 0, 1, &v))
            return 0;
        *(name[0] == 'p' ? &d->pinned : &d->access) = (int)v;
        return 1;
    }
    if (strcmp(name, "sizes") == 0 || strcmp(name, "emu.sizes") == 0) {
        int emu = name[0] == 'e';
        size_list s = {emu ? d->emu_sizes : d->sizes, emu ? &d->emu_nsizes : &d->nsizes, 0};
        *s.count = 0;
        if (ini_words(value, ini_add_size, &s) != 0 || s.bad)
            return ini_fail(st, "%s = %s: expected up to %d matrix sides from 1 to 46340", name, value, DEMO_MAX_SIZES);
        return 1;
    }
    if (strcmp(name, "expect") == 0 || strcmp(name, "gpu.expect") == 0) {
        demo_expect e;
        if (ini_expect(value, &e) != 0)
            return ini_fail(st, "%s = %s: use pass, wrong, out-of-bounds or any", name, value);
        if (name[0] == 'g') {
            d->gpu_expect = e;
            d->gpu_expect_given = 1;
        } else
            d->expect = e;
        return 1;
    }
    return ini_fail(st, "unknown key '%s' in [demo %s] (docs/LESSONS.md lists the keys)", name, d->name);
}

/* Makes the coming error point at the line of a section's header rather than at its first key. */
static void ini_point_at_section(ini_state *st, const char *section)
{
    if (st->error_set)
        return;
    char header[300];
    snprintf(header, sizeof header, "[%s]", section);
    const char *at = strstr(st->text, header);
    if (!at)
        return;
    int line = 1;
    for (const char *q = st->text; q < at; q++)
        line += *q == '\n';
    st->error_line = line;
}

/* inih's callback: one key of one section. */
static int lesson_ini_key(void *user, const char *section, const char *name, const char *value)
{
    ini_state *st = user;
    if (st->error_set)
        return 1; /* only the first problem of a file is reported */
    lesson *l = st->lesson;
    if (!name) /* a new section: inih calls with name NULL only with INI_CALL_HANDLER_ON_NEW_SECTION */
        return 1;
    int continues = strcmp(st->last_key, name) == 0;
    char where[128];
    snprintf(where, sizeof where, "%s", section);
    if (strcmp(section, "lesson") == 0) {
        if (!st->in_lesson && st->demo)
            st->demo = NULL;
        st->in_lesson = 1;
    } else if (strncmp(section, "demo ", 5) == 0) {
        const char *dname = section + 5;
        while (*dname == ' ')
            dname++;
        if (!st->demo || strcmp(st->demo->name, dname) != 0) {
            if (!lesson_name_ok(dname))
                return ini_point_at_section(st, section), ini_fail(st, "[demo %s]: a demo name is lower-case letters, digits and '-'", dname);
            for (int i = 0; i < l->ndemos; i++)
                if (strcmp(l->demos[i].name, dname) == 0)
                    return ini_point_at_section(st, section), ini_fail(st, "[demo %s] appears twice", dname);
            lesson_demo *grown = realloc(l->demos, (size_t)(l->ndemos + 1) * sizeof *grown);
            if (!grown)
                return ini_fail(st, "out of memory");
            l->demos = grown;
            st->demo = &l->demos[l->ndemos++];
            memset(st->demo, 0, sizeof *st->demo);
            st->demo->name = lesson_strdup(dname);
            st->demo->seed = -1;
            st->demo->kind = DEMO_RUN;
            st->last_key[0] = '\0';
            continues = 0;
        }
        st->in_lesson = 0;
    } else {
        ini_point_at_section(st, section);
        return ini_fail(st, "unknown section [%s] (use [lesson] and [demo NAME])", section);
    }
    snprintf(st->last_key, sizeof st->last_key, "%s", name);
    return st->in_lesson ? ini_lesson_key(st, name, value, continues) : ini_demo_key(st, name, value, continues);
}

/* The line of the first line longer than inih's limit, or 0. */
static int lesson_long_line(const char *text)
{
    int line = 1;
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == '\n' || *p == '\0') {
            if (p - start >= LESSON_INI_MAX_LINE - 1)
                return line;
            if (!*p)
                return 0;
            line++;
            start = p + 1;
        }
    }
}

/* The line where a [demo NAME] section starts, found by scanning the text. */
static int lesson_section_line(const char *text, const char *name)
{
    int line = 1;
    size_t nlen = strlen(name);
    for (const char *p = text; *p; p++) {
        if (p == text || p[-1] == '\n') {
            const char *q = p;
            while (*q == ' ' || *q == '\t')
                q++;
            if (strncmp(q, "[demo", 5) == 0) {
                q += 5;
                while (*q == ' ')
                    q++;
                if (strncmp(q, name, nlen) == 0 && q[nlen] == ']')
                    return line;
            }
        }
        if (*p == '\n')
            line++;
    }
    return 0;
}

/* Checks what the ini's keys cannot check one at a time: required keys, marks, demo shapes. */
static int lesson_ini_finish(lesson *l, const char *path, const char *text, const char *kernels_dir, lesson_set *set)
{
    int bad = 0;
    for (int lang = 0; lang < I18N_LANGS; lang++)
        if (!l->title[lang] || !*l->title[lang]) {
            lesson_problem_add(set, path, 0, "[lesson] needs title.%s", i18n_code((i18n_lang)lang));
            bad = 1;
        }
    for (int m = 0; m < l->nmarks; m++) {
        int found = 0;
        char needle[200];
        snprintf(needle, sizeof needle, "@mark %s", l->marks[m]);
        for (int k = 0; k < l->nkernels && !found; k++) {
            char kpath[4400];
            snprintf(kpath, sizeof kpath, "%s/%s.cu", kernels_dir, l->kernels[k]);
            char *src = lesson_read_file(kpath, NULL);
            if (src) {
                for (const char *p = strstr(src, needle); p && !found; p = strstr(p + 1, needle)) {
                    char after = p[strlen(needle)];
                    found = after == '\0' || after == ' ' || after == ':' || after == '*' || after == '\n';
                }
                free(src);
            }
        }
        if (!found) {
            lesson_problem_add(set, path, 0, "mark '%s' is not in the lesson's kernels (add `@mark %s` to a line of one of them)",
                               l->marks[m], l->marks[m]);
            bad = 1;
        }
    }
    for (int i = 0; i < l->ndemos; i++) {
        lesson_demo *d = &l->demos[i];
        d->line = lesson_section_line(text, d->name);
        for (int lang = 0; lang < I18N_LANGS; lang++)
            if (!d->title[lang] || !*d->title[lang]) {
                lesson_problem_add(set, path, d->line, "[demo %s] needs title.%s", d->name, i18n_code((i18n_lang)lang));
                bad = 1;
            }
        const char *need = NULL;
        if ((d->kind == DEMO_RUN || d->kind == DEMO_CLOCK) && !d->recipe)
            need = "a recipe (recipe = NAME)";
        else if (d->kind == DEMO_COMPARE && d->nrecipes < 2)
            need = "two or more recipes (recipes = A B)";
        else if (d->kind == DEMO_RACE && d->nrecipes < 1)
            need = "the GPU recipes it races (recipes = A B)";
        if (need) {
            lesson_problem_add(set, path, d->line, "[demo %s] of kind %s needs %s", d->name,
                               lesson_demo_kind_name(d->kind), need);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* Reads lesson.ini into l; -1 after adding the problems to set. */
static int lesson_read_ini(const char *folder, const char *kernels_dir, lesson *l, lesson_set *set)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/lesson.ini", folder);
    size_t len;
    char *text = lesson_read_file(path, &len);
    if (!text) {
        lesson_problem_add(set, path, 0, "cannot read: %s", strerror(errno));
        return -1;
    }
    int bad_line = lesson_bad_utf8_line(text, len);
    int long_line = bad_line ? 0 : lesson_long_line(text);
    if (bad_line || long_line) {
        if (bad_line)
            lesson_problem_add(set, path, bad_line, "not valid UTF-8 text: save the file as UTF-8");
        else
            lesson_problem_add(set, path, long_line,
                               "line longer than %d bytes: continue the value on the next line, indented",
                               LESSON_INI_MAX_LINE - 2);
        free(text);
        return -1;
    }
    ini_state st = {.lesson = l, .path = path, .kernels_dir = kernels_dir, .text = text};
    int line = ini_parse_string(text, lesson_ini_key, &st);
    if (line != 0) {
        if (line < 0)
            lesson_problem_add(set, path, 0, "cannot parse: out of memory");
        else if (st.error_set)
            lesson_problem_add(set, path, st.error_line ? st.error_line : line, "%s", st.error);
        else
            lesson_problem_add(set, path, line, "not an INI line: expected [section], key = value or ; comment");
        free(text);
        return -1;
    }
    int rc = lesson_ini_finish(l, path, text, kernels_dir, set);
    free(text);
    return rc;
}

/* --- en.md and ko.md --- */

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
static void md_line(md_scan *sc, const char *line, size_t n, int lineno, int in_fence)
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
                char path[4400];
                snprintf(path, sizeof path, "%s/%s.cu", sc->kernels_dir, name);
                if (access(path, R_OK) != 0) {
                    lesson_problem_add(sc->set, sc->path, lineno, "kernel '%s' not found: there is no kernels/%s.cu",
                                       name, name);
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
static int lesson_read_text(const char *folder, const char *kernels_dir, lesson *l, i18n_lang lang, int ini_ok,
                            lesson_set *set)
{
    lesson_text *t = &l->text[lang];
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.md", folder, i18n_code(lang));
    t->path = lesson_strdup(path);
    size_t len;
    char *text = lesson_read_file(path, &len);
    if (!text) {
        lesson_problem_add(set, path, 0, "cannot read: %s (every lesson has en.md and ko.md)", strerror(errno));
        return -1;
    }
    int bad_line = lesson_bad_utf8_line(text, len);
    if (bad_line) {
        lesson_problem_add(set, path, bad_line, "not valid UTF-8 text: save the file as UTF-8");
        free(text);
        return -1;
    }
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
        md_line(&sc, p, n, lineno, in_fence || toggled);
        p = end ? end + 1 : p + n;
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
static int lesson_compare_texts(const lesson *l, lesson_set *set)
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
            lesson_join(a->demos, a->ndemos, x, sizeof x);
            lesson_join(b->demos, b->ndemos, y, sizeof y);
            if (strcmp(x, y) != 0) {
                lesson_problem_add(set, t->path, b->line, "this page places demos (%s) but %s:%d places (%s)", y,
                                   en->path, a->line, x);
                bad = 1;
            }
            lesson_join(a->kernels, a->nkernels, x, sizeof x);
            lesson_join(b->kernels, b->nkernels, y, sizeof y);
            if (strcmp(x, y) != 0) {
                lesson_problem_add(set, t->path, b->line, "this page shows kernels (%s) but %s:%d shows (%s)", y,
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

/* Reads "NN-slug" into number and slug; -1 if the name is not one. */
static int lesson_parse_folder(const char *name, int *number, const char **slug)
{
    if (!isdigit((unsigned char)name[0]) || !isdigit((unsigned char)name[1]) || name[2] != '-' || !name[3])
        return -1;
    if (!lesson_name_ok(name + 3))
        return -1;
    *number = (name[0] - '0') * 10 + (name[1] - '0');
    *slug = name + 3;
    return 0;
}

/* Loads one lesson folder; 0, or -1 with the problems added to set. */
int lesson_load(const char *folder, const char *kernels_dir, lesson *out, lesson_set *set)
{
    memset(out, 0, sizeof *out);
    out->dir = lesson_strdup(folder);
    const char *base = strrchr(folder, '/');
    base = base ? base + 1 : folder;
    const char *slug;
    if (lesson_parse_folder(base, &out->number, &slug) != 0) {
        lesson_problem_add(set, folder, 0, "a lesson folder is named NN-slug (two digits, '-', lower-case words)");
        return -1;
    }
    out->id = lesson_strdup(base);
    out->slug = lesson_strdup(slug);
    int bad = lesson_read_ini(folder, kernels_dir, out, set) != 0;
    for (int lang = 0; lang < I18N_LANGS; lang++)
        bad |= lesson_read_text(folder, kernels_dir, out, (i18n_lang)lang, !bad, set) != 0;
    if (!bad)
        bad = lesson_compare_texts(out, set) != 0;
    return bad ? -1 : 0;
}

/* Orders folder names. */
static int lesson_name_compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads every lesson folder of lessons_dir. */
int lesson_load_all(const char *lessons_dir, const char *kernels_dir, lesson_set *set, chef_error *err)
{
    memset(set, 0, sizeof *set);
    set->root = lesson_strdup(lessons_dir);
    DIR *d = opendir(lessons_dir);
    if (!d)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                         getenv("CUDACHEF_LESSONS") ? "CUDACHEF_LESSONS names this folder: point it at a folder of lessons, or unset it"
                                                    : "set CUDACHEF_LESSONS to the lessons folder",
                         "cannot read the lessons folder %s: %s", lessons_dir, strerror(errno));
    char **names = NULL;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", lessons_dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue; /* README.md and other files are not lessons */
        lesson_push(&names, &count, e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], lesson_name_compare);
    for (int i = 0; i < count; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", lessons_dir, names[i]);
        lesson l;
        int rc = lesson_load(path, kernels_dir, &l, set);
        for (int k = 0; rc == 0 && k < set->count; k++)
            if (set->lessons[k].number == l.number) {
                lesson_problem_add(set, path, 0, "lesson number %02d is taken by %s: renumber one of them", l.number,
                                   set->lessons[k].id);
                rc = -1;
            }
        if (rc != 0) {
            lesson_free(&l);
        } else {
            lesson *grown = realloc(set->lessons, (size_t)(set->count + 1) * sizeof *grown);
            if (!grown) {
                lesson_free(&l);
                continue;
            }
            set->lessons = grown;
            set->lessons[set->count++] = l;
        }
        free(names[i]);
    }
    free(names);
    return 0;
}

/* Frees one language's text. */
static void lesson_text_free(lesson_text *t)
{
    for (int i = 0; i < t->nitems; i++) {
        lesson_item *it = &t->items[i];
        free(it->title);
        free(it->body);
        for (int k = 0; k < it->ndemos; k++)
            free(it->demos[k]);
        free(it->demos);
        for (int k = 0; k < it->nkernels; k++)
            free(it->kernels[k]);
        free(it->kernels);
        for (int c = 0; c < it->nchoices; c++) {
            free(it->choices[c].text);
            free(it->choices[c].explanation);
        }
        free(it->choices);
    }
    free(t->items);
    free(t->path);
}

/* Frees one lesson. */
void lesson_free(lesson *l)
{
    free(l->dir);
    free(l->id);
    free(l->slug);
    for (int lang = 0; lang < I18N_LANGS; lang++) {
        free(l->title[lang]);
        free(l->summary[lang]);
        lesson_text_free(&l->text[lang]);
    }
    for (int i = 0; i < l->nkernels; i++)
        free(l->kernels[i]);
    free(l->kernels);
    for (int i = 0; i < l->nmarks; i++)
        free(l->marks[i]);
    free(l->marks);
    for (int i = 0; i < l->ndemos; i++) {
        lesson_demo *d = &l->demos[i];
        free(d->name);
        for (int lang = 0; lang < I18N_LANGS; lang++)
            free(d->title[lang]);
        free(d->recipe);
        for (int k = 0; k < d->nrecipes; k++)
            free(d->recipes[k]);
    }
    free(l->demos);
    memset(l, 0, sizeof *l);
}

/* Frees a set. */
void lesson_set_free(lesson_set *set)
{
    for (int i = 0; i < set->count; i++)
        lesson_free(&set->lessons[i]);
    free(set->lessons);
    for (int i = 0; i < set->nproblems; i++) {
        free(set->problems[i].file);
        free(set->problems[i].message);
    }
    free(set->problems);
    free(set->root);
    memset(set, 0, sizeof *set);
}

/* The lesson that name means. */
const lesson *lesson_find(const lesson_set *set, const char *name)
{
    char *end;
    long number = strtol(name, &end, 10);
    int numeric = *name && *end == '\0' && isdigit((unsigned char)*name);
    for (int i = 0; i < set->count; i++) {
        const lesson *l = &set->lessons[i];
        if ((numeric && l->number == number) || strcmp(l->id, name) == 0 || strcmp(l->slug, name) == 0)
            return l;
    }
    return NULL;
}

/* The demo called name in a lesson, or NULL. */
const lesson_demo *lesson_demo_find(const lesson *l, const char *name)
{
    for (int i = 0; i < l->ndemos; i++)
        if (strcmp(l->demos[i].name, name) == 0)
            return &l->demos[i];
    return NULL;
}

/* "run", "compare", ... */
const char *lesson_demo_kind_name(demo_kind kind)
{
    static const char *names[] = {"run", "compare", "info", "clock", "race", "trips", "walk"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

/* "pass", "wrong", "out-of-bounds", "any". */
const char *lesson_expect_name(demo_expect expect)
{
    static const char *names[] = {"pass", "wrong", "out-of-bounds", "any"};
    return (unsigned)expect < 4 ? names[expect] : "?";
}

/* The lessons folder. */
const char *lesson_default_dir(void)
{
    static char dir[4200];
    const char *env = getenv("CUDACHEF_LESSONS");
    if (env && *env)
        return env;
    snprintf(dir, sizeof dir, "%s/lessons", chef_data_dir());
    return dir;
}

/* The kernels folder. */
const char *lesson_kernels_dir(void)
{
    static char dir[4200];
    const char *env = getenv("CUDACHEF_KERNELS");
    if (env && *env)
        return env;
    snprintf(dir, sizeof dir, "%s/kernels", chef_data_dir());
    return dir;
}

/* A path as people read it: relative to the current folder when it is inside it. */
const char *lesson_display_path(const char *path)
{
    static char cwd[4096];
    if (!cwd[0] && !getcwd(cwd, sizeof cwd))
        return path;
    size_t len = strlen(cwd);
    if (strncmp(path, cwd, len) == 0 && path[len] == '/')
        return path + len + 1;
    return path;
}

/* The first problem of the lesson folder that name means (for a lesson that did not load). */
const lesson_problem *lesson_problem_for(const lesson_set *set, const char *name)
{
    size_t root = strlen(set->root);
    for (int i = 0; i < set->nproblems; i++) {
        const char *file = set->problems[i].file;
        if (strncmp(file, set->root, root) != 0 || file[root] != '/')
            continue;
        char folder[256];
        snprintf(folder, sizeof folder, "%s", file + root + 1);
        char *slash = strchr(folder, '/');
        if (slash)
            *slash = '\0';
        int number;
        const char *slug;
        if (strcmp(folder, name) == 0)
            return &set->problems[i];
        if (lesson_parse_folder(folder, &number, &slug) != 0)
            continue;
        char *end;
        long want = strtol(name, &end, 10);
        if ((*name && *end == '\0' && want == number) || strcmp(slug, name) == 0)
            return &set->problems[i];
    }
    return NULL;
}

/* When the lesson name means did not load, prints its first problem as "cudachef COMMAND: FILE:LINE:
   message" with a hint and returns -1; returns 0 when no such lesson folder has a problem. */
int lesson_report_broken(const lesson_set *set, const char *name, const char *command)
{
    const lesson_problem *pr = lesson_problem_for(set, name);
    if (!pr)
        return 0;
    if (pr->line > 0)
        fprintf(stderr, "cudachef %s: %s:%d: %s\n", command, lesson_display_path(pr->file), pr->line, pr->message);
    else
        fprintf(stderr, "cudachef %s: %s: %s\n", command, lesson_display_path(pr->file), pr->message);
    fprintf(stderr, "%s\n", _("  hint: fix the lesson file (`cudachef list --check` checks them all)"));
    return -1;
}
