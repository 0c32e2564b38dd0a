/*
 * lesson_ini.c - reads a lesson's lesson.ini with inih: the [lesson] keys and the [demo NAME]
 * sections (docs/LESSONS.md lists the keys).
 *
 * inih calls back once per key; the first problem of the file is kept, with the best line for it
 * (a section's header rather than its first key). What no single key can check is checked once the
 * file is read: the required titles, marks that must be in the lesson's kernels, and each demo
 * having what its kind needs.
 */
#include "lessons/lesson.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lessons/lesson_internal.h"
#include "engine/recipes.h"
#include "base/parse.h"

#define LESSON_INI_MAX_LINE 200 /* inih's line limit, in bytes */

typedef struct ini_state {
    lesson *lesson;
    lesson_demo *demo;       /* the [demo NAME] being read, or NULL in [lesson] */
    int in_lesson;
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
    if (*s->count >= DEMO_MAX_SIZES || parse_int64("sizes", word, 1, 46340, &v, &err) != 0) {
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
    if (parse_int64(name, value, min, max, out, &err) != 0)
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
            char why[300];
            if (lesson_kernel_ok(st->kernels_dir, l->kernels[i], why, sizeof why) != 0)
                return ini_fail(st, "%s", why);
        }
    } else if (strcmp(name, "marks") == 0) {
        word_list w = {&l->marks, &l->nmarks};
        ini_words(value, ini_add_word, &w);
        for (int i = 0; i < l->nmarks; i++)
            if (!lesson_name_ok(l->marks[i]) || strlen(l->marks[i]) > 64)
                return ini_fail(st, "mark '%.64s': a mark name is up to 64 lower-case letters, digits and '-'",
                                l->marks[i]);
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
        for (int k = DEMO_RUN; k <= DEMO_MANAGED; k++)
            if (strcmp(value, lesson_demo_kind_name((demo_kind)k)) == 0) {
                d->kind = (demo_kind)k;
                return 1;
            }
        return ini_fail(st, "kind = %s: use run, compare, info, clock, race, trips, walk, card, roofline, streams or managed",
                        value);
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
    if (strcmp(name, "streams") == 0)
        return ini_number(st, name, value, 2, 16, &d->streams);
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
        if (!continues) /* a continued value adds to what the line before gave */
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
        else if ((d->kind == DEMO_CARD || d->kind == DEMO_ROOFLINE) && d->nrecipes < 1)
            need = "the recipes it shows (recipes = A B)";
        if (!need && d->emu_n && !d->n)
            need = "n as well as emu.n (the size the emulator's smaller one stands for)";
        if (!need && d->kind == DEMO_CLOCK && recipe_find(d->recipe)->library)
            need = "a recipe of ours (a library call is not a kernel launch the clock can time)";
        if (!need && d->kind == DEMO_MANAGED && d->recipe && (recipe_find(d->recipe)->library ||
                                                          recipe_find(d->recipe)->zero_output))
            need = "a recipe of ours that writes its whole output once per launch (vector-add)";
        if (need) {
            lesson_problem_add(set, path, d->line, "[demo %s] of kind %s needs %s", d->name,
                               lesson_demo_kind_name(d->kind), need);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* Reads lesson.ini into l; -1 after adding the problems to set. */
int lesson_read_ini(const char *folder, const char *kernels_dir, lesson *l, lesson_set *set)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/lesson.ini", folder);
    size_t len;
    char *text = lesson_read_text_file(path, NULL, set, &len);
    if (!text)
        return -1;
    int long_line = lesson_long_line(text);
    if (long_line) {
        lesson_problem_add(set, path, long_line,
                           "line longer than %d bytes: continue the value on the next line, indented",
                           LESSON_INI_MAX_LINE - 2);
        free(text);
        return -1;
    }
    ini_state st = {.lesson = l, .kernels_dir = kernels_dir, .text = text};
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
