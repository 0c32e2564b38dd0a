/*
 * fuzz_i18n.c - a file of translations (i18n.c, with jansson): assets/i18n/ko/NAME.json as loaded
 * at start when the learner's language is Korean, then every one of its strings looked up.
 *
 * Input: the JSON file. What is checked beyond memory: the program passes a translation to printf
 * in place of its English format with the English format's arguments, so a translation that i18n_get
 * hands out must have exactly the English conversions, in order; one that does not (from an edited
 * or broken file) would read arguments that are not there.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/i18n.h"

/* Skips digits followed by '$' (a positional argument) at p. */
static const char *fuzz_skip_position(const char *p)
{
    const char *q = p;
    while (*q >= '0' && *q <= '9')
        q++;
    return q > p && *q == '$' ? q + 1 : p;
}

/* The arguments a printf format reads, in glibc's grammar (%[N$][flags][width][.precision]
   [length]conversion): for each conversion its '*'s, its length modifier and its letter, '!' for a
   '%' at the very end ("%-8s %.*f" gives "s|*f|"). Positions are left out. */
static void fuzz_conversions(const char *fmt, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = strchr(fmt, '%'); p && n + 16 < size; p = *p ? strchr(p + 1, '%') : NULL) {
        if (*++p == '%')
            continue;
        p = fuzz_skip_position(p);
        while (*p && strchr("-+ #0'I", *p))
            p++;
        for (int part = 0; part < 2 && (part == 0 || *p == '.'); part++) {
            p += part;
            if (*p == '*')
                out[n++] = '*', p = fuzz_skip_position(p + 1);
            while (*p >= '0' && *p <= '9')
                p++;
        }
        while (*p && strchr("hlLqjzZt", *p) && n + 3 < size)
            out[n++] = *p++;
        out[n++] = *p ? *p : '!';
        out[n++] = '|';
    }
    out[n] = '\0';
}

/* Aborts when the translation of english has other conversions than english. */
static void fuzz_check(const char *english)
{
    const char *t = i18n_get(english);
    if (t == english)
        return;
    char a[512], b[512];
    fuzz_conversions(english, a, sizeof a);
    fuzz_conversions(t, b, sizeof b);
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "i18n_get(\"%s\") gave \"%s\": conversions '%s' became '%s'\n", english, t, a, b);
        abort();
    }
}

FUZZ_TARGET(i18n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/assets/i18n/ko/fuzz.json", fuzz_dir());
    fuzz_write(path, data, size);
    i18n_init(I18N_KO, fuzz_dir());
    json_t *doc = json_loadb((const char *)data, size, 0, NULL);
    const char *key;
    json_t *value;
    json_object_foreach(doc, key, value) fuzz_check(key);
    json_decref(doc);
    fuzz_check("%s: %d of %d cooks");
    fuzz_check("cook (thread) %s of team (block) %s");
    i18n_init(I18N_EN, NULL); /* frees the table */
    return 0;
}
