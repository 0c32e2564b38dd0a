/*
 * i18n.c - loads the JSON files of assets/i18n/LANG/ and looks strings up (see i18n.h).
 */
#include "i18n.h"

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
