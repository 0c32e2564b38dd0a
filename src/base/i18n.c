/*
 * i18n.c - loads the JSON files of assets/i18n/LANG/ and looks strings up (see i18n.h).
 */
#include "base/i18n.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static i18n_lang i18n_lang_now = I18N_EN;
static json_t *i18n_table; /* English -> translation, merged from every file */

/* "en" or "ko". */
const char *i18n_code(i18n_lang lang)
{
    return lang == I18N_KO ? "ko" : "en";
}

/* Parses "en" or "ko"; -1 for anything else. */
int i18n_parse(const char *text, i18n_lang *out)
{
    if (strcmp(text, "en") == 0)
        *out = I18N_EN;
    else if (strcmp(text, "ko") == 0)
        *out = I18N_KO;
    else
        return -1;
    return 0;
}

/* The language the environment asks for. */
i18n_lang i18n_from_environment(void)
{
    const char *names[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return strncmp(v, "ko", 2) == 0 ? I18N_KO : I18N_EN;
    }
    return I18N_EN;
}

/* Compares names for qsort, so that files merge in a fixed order. */
static int i18n_name_compare(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Skips a positional argument's "N$" at *p, appending it to the signature. */
static void i18n_position(const char **p, char *out, size_t *n, size_t size)
{
    const char *q = *p;
    while (*q >= '0' && *q <= '9')
        q++;
    if (q > *p && *q == '$')
        for (q++; *p < q && *n + 1 < size; (*p)++)
            out[(*n)++] = **p;
}

/* What a printf format takes from its arguments, in order: for each conversion its positions, its
   stars (a width or precision read from the arguments), its length modifiers and its letter, so
   "%-8s %.*f" gives "s *f". 0, or -1 when it does not fit in out. */
static int i18n_signature(const char *fmt, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%')
            continue;
        if (*++p == '%')
            continue;
        if (n + 16 >= size)
            return -1;
        if (n)
            out[n++] = ' ';
        i18n_position(&p, out, &n, size);
        while (*p && strchr("-+ #0'I", *p))
            p++;
        for (int part = 0; part < 2; part++) { /* the width, then the precision */
            if (part == 1 && *p != '.')
                break;
            if (part == 1)
                p++;
            if (*p == '*') {
                out[n++] = *p++;
                i18n_position(&p, out, &n, size);
            }
            while (*p >= '0' && *p <= '9')
                p++;
        }
        while (*p && strchr("hlLqjzZt", *p) && n + 2 < size)
            out[n++] = *p++;
        out[n++] = *p ? *p : '!';
        if (!*p)
            break;
    }
    out[n] = '\0';
    return 0;
}

/* Drops the translations that would not take their English's printf arguments: a translation is
   used as a format (printf(_("..."), ...)), and one that asks for other arguments than the English
   gives would read or write memory it must not. The English is shown instead. */
static void i18n_keep_safe_formats(json_t *table)
{
    const char *english;
    json_t *value;
    void *tmp;
    json_object_foreach_safe(table, tmp, english, value) {
        char want[512], got[512];
        const char *text = json_string_value(value);
        if (!text || i18n_signature(english, want, sizeof want) != 0 ||
            i18n_signature(text, got, sizeof got) != 0 || strcmp(want, got) != 0)
            json_object_del(table, english);
    }
}

/* Chooses the language and loads its strings. */
int i18n_init(i18n_lang lang, const char *data_dir)
{
    i18n_lang_now = lang;
    json_decref(i18n_table);
    i18n_table = NULL;
    if (lang == I18N_EN || !data_dir)
        return 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/assets/i18n/%s", data_dir, i18n_code(lang));
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char *names[256];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && count < 256) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0 && (names[count] = strdup(e->d_name)))
            count++;
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], i18n_name_compare);
    i18n_table = json_object();
    for (int i = 0; i < count; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        json_t *file = json_load_file(path, 0, NULL);
        if (json_is_object(file))
            json_object_update(i18n_table, file);
        json_decref(file);
        free(names[i]);
    }
    i18n_keep_safe_formats(i18n_table);
    return 0;
}

/* The language in use. */
i18n_lang i18n_current(void)
{
    return i18n_lang_now;
}

/* The translation of english, or english itself. */
const char *i18n_get(const char *english)
{
    if (!i18n_table)
        return english;
    const char *t = json_string_value(json_object_get(i18n_table, english));
    return t && *t ? t : english;
}
