/*
 * exercise.c - reads the exercises from exercises/LESSON-ID/NAME/ (docs/EXERCISES.md): each
 * folder's exercise.ini (inih) says which recipe the learner's kernel is cooked with and how it is
 * checked; start.cu, solution.cu, task.LANG.md and hints.LANG.md are read when needed.
 */
#include "grading/exercise.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/host_runtime.h"
#include "grading/exercise_check.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"

/* What the ini callback fills, and the first problem it met. */
typedef struct exercise_ini {
    exercise *ex;
    char error[300];
} exercise_ini;

/* Records the first problem of the ini file; returns 0 so that inih reports the line. */
static int exercise_ini_fail(exercise_ini *st, const char *what, const char *value)
{
    if (!st->error[0])
        snprintf(st->error, sizeof st->error, "%s '%s'", what, value);
    return 0;
}

/* Reads a whole number between lo and hi; 0, or -1. */
static int exercise_int(const char *value, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* 1 when s is a C identifier of at most 64 characters. */
static int exercise_identifier_ok(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_') || strlen(s) > 64)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

/* 1 when s is a file name of letters, digits, '-' and '_' (1 to 64 of them). */
static int exercise_slug_ok(const char *s)
{
    size_t len = strlen(s);
    if (len == 0 || len > 64)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

/* One key of a [wrong NAME] section: the wrong version NAME (wrong/NAME.cu) and its diagnosis. */
static int exercise_ini_wrong(exercise_ini *st, const char *name, const char *key, const char *value)
{
    exercise *ex = st->ex;
    if (!exercise_slug_ok(name))
        return exercise_ini_fail(st, "a wrong version's name is letters, digits, '-' and '_', not", name);
    if (strcmp(key, "diagnosis") != 0)
        return exercise_ini_fail(st, "a [wrong NAME] section has only diagnosis, not", key);
    if (!exercise_diagnosis_known(value))
        return exercise_ini_fail(st, "unknown diagnosis (docs/EXERCISES.md lists them)", value);
    int i = 0;
    while (i < ex->nwrongs && strcmp(ex->wrongs[i].name, name) != 0)
        i++;
    if (i == EXERCISE_MAX_WRONGS)
        return exercise_ini_fail(st, "at most 8 wrong versions, not one more:", name);
    if (i == ex->nwrongs) {
        ex->wrongs[i].name = strdup(name);
        ex->nwrongs++;
    }
    free(ex->wrongs[i].diagnosis);
    ex->wrongs[i].diagnosis = strdup(value);
    return 1;
}

/* inih's callback: one key of [exercise], or of a [wrong NAME]. */
static int exercise_ini_key(void *user, const char *section, const char *key, const char *value)
{
    exercise_ini *st = user;
    exercise *ex = st->ex;
    int64_t v;
    if (strncmp(section, "wrong ", 6) == 0)
        return exercise_ini_wrong(st, section + 6, key, value);
    if (strcmp(section, "exercise") != 0)
        return exercise_ini_fail(st, "unknown section", section);
    if (strcmp(key, "recipe") == 0) {
        if (!recipe_find(value))
            return exercise_ini_fail(st, "unknown recipe", value);
        free(ex->recipe);
        ex->recipe = strdup(value);
    } else if (strcmp(key, "kernel") == 0) {
        /* the name is written into the C the learner's kernel is compiled with (exercise_build.c) */
        if (!exercise_identifier_ok(value))
            return exercise_ini_fail(st, "kernel must be a C name (letters, digits and '_', up to 64), not", value);
        free(ex->kernel);
        ex->kernel = strdup(value);
    } else if (strcmp(key, "host") == 0) {
        /* the learner's host function (the five steps), written into the build's .def list too */
        if (!exercise_identifier_ok(value))
            return exercise_ini_fail(st, "host must be a C name (letters, digits and '_', up to 64), not", value);
        free(ex->host);
        ex->host = strdup(value);
    } else if (strcmp(key, "host-out") == 0) {
        /* the host function's extra outputs: float * parameters after the kernel's */
        char buf[256];
        snprintf(buf, sizeof buf, "%s", value);
        for (int i = 0; i < ex->nouts; i++)
            free(ex->outs[i]);
        ex->nouts = 0;
        for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
            if (ex->nouts == EXERCISE_MAX_OUTS || !exercise_identifier_ok(w))
                return exercise_ini_fail(st, "host-out is 1 to 4 C names, not", value);
            ex->outs[ex->nouts++] = strdup(w);
        }
    } else if (strcmp(key, "launches") == 0) {
        if (exercise_int(value, 1, 1000, &v) != 0)
            return exercise_ini_fail(st, "launches must be 1 to 1000, not", value);
        ex->min_launches = (int)v;
    } else if (strcmp(key, "faults") == 0) {
        /* which of the five steps' calls the fault runs make fail: cudaMalloc cudaMemcpy launch, or none */
        char words[256], *save = NULL;
        snprintf(words, sizeof words, "%s", value);
        ex->faults = 0;
        ex->faults_given = 1;
        for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
            if (strcmp(w, "cudaMalloc") == 0)
                ex->faults |= 1 << HOST_FAULT_ALLOC;
            else if (strcmp(w, "cudaMemcpy") == 0)
                ex->faults |= 1 << HOST_FAULT_COPY;
            else if (strcmp(w, "launch") == 0)
                ex->faults |= 1 << HOST_FAULT_LAUNCH;
            else if (strcmp(w, "none") != 0)
                return exercise_ini_fail(st, "faults takes cudaMalloc, cudaMemcpy, launch or none, not", w);
        }
    } else if (strcmp(key, "title.en") == 0 || strcmp(key, "title.ko") == 0) {
        int lang = key[6] == 'k' ? I18N_KO : I18N_EN;
        free(ex->title[lang]);
        ex->title[lang] = strdup(value);
    } else if (strcmp(key, "sizes") == 0) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", value);
        ex->nsizes = 0;
        for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
            if (ex->nsizes == EXERCISE_MAX_CASES || exercise_int(w, 1, (int64_t)1 << 30, &v) != 0)
                return exercise_ini_fail(st, "sizes must be 1 to 8 numbers from 1 to 2^30, not", value);
            ex->sizes[ex->nsizes++] = v;
        }
    } else if (strcmp(key, "threads-per-block") == 0) {
        if (exercise_int(value, 1, 1024, &v) != 0)
            return exercise_ini_fail(st, "threads-per-block must be 1 to 1024, not", value);
        ex->threads_per_block = (int)v;
    } else if (strcmp(key, "blocks") == 0) {
        if (exercise_int(value, 0, 1 << 20, &v) != 0)
            return exercise_ini_fail(st, "blocks must be 0 to 2^20, not", value);
        ex->blocks = v;
    } else if (strcmp(key, "shuffles") == 0) {
        if (exercise_int(value, 0, 8, &v) != 0)
            return exercise_ini_fail(st, "shuffles must be 0 to 8, not", value);
        ex->shuffles = (int)v;
    } else if (strcmp(key, "timeout") == 0) {
        if (exercise_int(value, 1, 600, &v) != 0)
            return exercise_ini_fail(st, "timeout must be 1 to 600 seconds, not", value);
        ex->timeout_s = (double)v;
    } else if (strcmp(key, "points") == 0) {
        if (exercise_int(value, 0, 1000, &v) != 0)
            return exercise_ini_fail(st, "points must be 0 to 1000, not", value);
        ex->points = (double)v;
    } else if (strcmp(key, "rtol") == 0 || strcmp(key, "atol") == 0) {
        char *end;
        double tol = strtod(value, &end);
        if (*end || end == value || !(tol >= 0 && tol <= 1))
            return exercise_ini_fail(st, "a tolerance is a number from 0 to 1, not", value);
        *(key[0] == 'r' ? &ex->rtol : &ex->atol) = tol;
    } else if (strcmp(key, "limit") == 0) {
        char metric[128];
        double most;
        int id = -1, used = 0;
        if (sscanf(value, "%127s %lf %n", metric, &most, &used) == 2 && value[used] == '\0' && most >= 0)
            for (int c = 0; c < COUNTER_COUNT; c++)
                if (strcmp(counter_table[c].metric, metric) == 0)
                    id = c;
        if (id < 0 || ex->nlimits == EXERCISE_MAX_LIMITS)
            return exercise_ini_fail(st, "limit is a counter's metric name and a number (up to 4 limits), not", value);
        ex->limit_counter[ex->nlimits] = id;
        ex->limit_max[ex->nlimits++] = most;
    } else if (strcmp(key, "check") == 0) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", value);
        for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
            if (strcmp(w, "coalesced") == 0)
                ex->coalesced = 1;
            else if (strcmp(w, "no-bank-conflicts") == 0)
                ex->conflict_free = 1;
            else if (strcmp(w, "timed") == 0)
                ex->timed = 1;
            else if (strcmp(w, "one-trip") == 0)
                ex->one_trip = 1;
            else if (strcmp(w, "library") == 0)
                ex->library = 1;
            else if (strcmp(w, "streams") == 0)
                ex->streams = 1;
            else if (strcmp(w, "managed") == 0)
                ex->managed = 1;
            else
                return exercise_ini_fail(st,
                                         "check is 'coalesced', 'no-bank-conflicts', 'timed', 'one-trip', 'library', "
                                         "'streams' or 'managed', not",
                                         value);
        }
    } else {
        return exercise_ini_fail(st, "unknown key", key);
    }
    return 1;
}

/* Frees one exercise's strings. */
static void exercise_free(exercise *ex)
{
    free(ex->dir);
    free(ex->name);
    free(ex->lesson_id);
    free(ex->recipe);
    free(ex->kernel);
    free(ex->host);
    for (int i = 0; i < ex->nouts; i++)
        free(ex->outs[i]);
    free(ex->broken);
    for (int i = 0; i < I18N_LANGS; i++)
        free(ex->title[i]);
    for (int i = 0; i < ex->nwrongs; i++) {
        free(ex->wrongs[i].name);
        free(ex->wrongs[i].diagnosis);
    }
}

/* Makes ex the stand-in of an exercise that could not be read: its name, lesson and folder, and
   why (recipe and kernel empty, so that nothing tries to cook it). */
static void exercise_mark_broken(exercise *ex, const char *lesson_dir, const char *lesson_id, const char *name,
                                 const char *why)
{
    memset(ex, 0, sizeof *ex);
    ex->timeout_s = 20;
    ex->points = 1;
    ex->rtol = ex->atol = -1;
    if (asprintf(&ex->dir, "%s/%s", lesson_dir, name) < 0)
        ex->dir = NULL;
    ex->name = strdup(name);
    ex->lesson_id = strdup(lesson_id);
    ex->lesson_number = atoi(lesson_id);
    ex->recipe = strdup("");
    ex->kernel = strdup("");
    ex->broken = strdup(why);
}

/* How many exercises are broken. */
int exercise_broken_count(const exercise_set *set, const char **first)
{
    int n = 0;
    for (int i = 0; i < set->count; i++)
        if (set->items[i].broken && n++ == 0 && first)
            *first = set->items[i].broken;
    return n;
}

/* Reads lesson_dir/name/exercise.ini into ex: 0, or -1 with err naming the file and line. */
static int exercise_read(const char *lesson_dir, const char *lesson_id, const char *name, exercise *ex,
                         chef_error *err)
{
    memset(ex, 0, sizeof *ex);
    ex->timeout_s = 20;
    ex->points = 1;
    ex->rtol = ex->atol = -1;
    char path[8800];
    if (asprintf(&ex->dir, "%s/%s", lesson_dir, name) < 0)
        ex->dir = NULL;
    ex->name = strdup(name);
    ex->lesson_id = strdup(lesson_id);
    ex->lesson_number = atoi(lesson_id);
    snprintf(path, sizeof path, "%s/%s/exercise.ini", lesson_dir, name);
    exercise_ini st = {ex, ""};
    int line = ini_parse(path, exercise_ini_key, &st);
    const char *problem = line < 0    ? "cannot be read"
                          : st.error[0] ? st.error
                          : line > 0  ? "is not INI (a [section] and key = value lines)"
                          : !ex->recipe ? "has no recipe"
                          : !ex->kernel ? "has no kernel"
                          : !ex->title[I18N_EN] || !ex->title[I18N_KO] ? "needs title.en and title.ko"
                          : ex->nsizes == 0 ? "has no sizes"
                          : (ex->nouts || ex->timed || ex->one_trip || ex->min_launches || ex->library) && !ex->host
                              ? "host-out, launches and check = timed, one-trip or library need a host function"
                          : ex->timed && ex->nouts == 0 ? "check = timed needs host-out (the time)"
                          : (ex->streams || ex->managed) && !ex->host ? "checks 'streams' and 'managed' need host"
                          : ex->faults_given && !ex->host ? "faults needs host"
                                            : NULL;
    if (problem) {
        chef_fail(err, CHEF_EXIT_USAGE, _("fix the file (docs/EXERCISES.md lists the keys)"), "%s:%d: %s", path,
                  line > 0 ? line : 0, problem);
        exercise_free(ex);
        return -1;
    }
    static const char *files[] = {"start.cu", "solution.cu", "task.en.md", "task.ko.md", "hints.en.md", "hints.ko.md"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        struct stat sb;
        exercise_file(ex, files[i], path, sizeof path);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            chef_fail(err, CHEF_EXIT_USAGE, _("every exercise folder needs the files docs/EXERCISES.md lists"),
                      _("%s is missing"), path);
            exercise_free(ex);
            return -1;
        }
        /* each is shown on the terminal as it is (cudachef exercise, the exercise screen) */
        size_t len = 0;
        char *text = lesson_read_file(path, &len), why[160];
        int bad = text ? lesson_text_problem(text, len, why, sizeof why) : 0;
        free(text);
        if (bad) {
            chef_fail(err, CHEF_EXIT_USAGE, _("fix the file (docs/EXERCISES.md lists the keys)"), "%s:%d: %s", path,
                      bad, why);
            exercise_free(ex);
            return -1;
        }
    }
    for (int i = 0; i < ex->nwrongs; i++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/wrong/%s.cu", ex->dir, ex->wrongs[i].name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            chef_fail(err, CHEF_EXIT_USAGE, _("a [wrong NAME] section needs its file wrong/NAME.cu"),
                      _("%s is missing"), path);
            exercise_free(ex);
            return -1;
        }
    }
    return 0;
}

/* Orders exercises by lesson, then name. */
static int exercise_compare(const void *a, const void *b)
{
    const exercise *x = a, *y = b;
    int c = strcmp(x->lesson_id, y->lesson_id);
    return c ? c : strcmp(x->name, y->name);
}

/* Reads every exercise under root. */
int exercise_load_all(const char *root, exercise_set *set, chef_error *err)
{
    memset(set, 0, sizeof *set);
    char dir[4200];
    const char *env = getenv("CUDACHEF_EXERCISES");
    if (!root)
        root = env && *env ? env : (snprintf(dir, sizeof dir, "%s/exercises", chef_data_dir()), dir);
    set->root = strdup(root);
    DIR *top = opendir(root);
    if (!top) {
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_EXERCISES to the exercises folder"),
                  _("cannot read the exercises folder %s: %s"), root, strerror(errno));
        exercise_set_free(set);
        return -1;
    }
    int rc = 0;
    struct dirent *l;
    while (rc == 0 && (l = readdir(top))) {
        if (l->d_name[0] < '0' || l->d_name[0] > '9')
            continue; /* lesson folders start with their number */
        char lesson_dir[4600];
        snprintf(lesson_dir, sizeof lesson_dir, "%s/%s", root, l->d_name);
        DIR *sub = opendir(lesson_dir);
        if (!sub)
            continue;
        struct dirent *e;
        while (rc == 0 && (e = readdir(sub))) {
            char ini[8800];
            struct stat sb;
            snprintf(ini, sizeof ini, "%s/%s/exercise.ini", lesson_dir, e->d_name);
            if (e->d_name[0] == '.' || stat(ini, &sb) != 0)
                continue;
            exercise *grown = realloc(set->items, (size_t)(set->count + 1) * sizeof *grown);
            if (!grown) {
                rc = chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "out of memory");
                break;
            }
            set->items = grown;
            chef_error why = {0};
            if (exercise_read(lesson_dir, l->d_name, e->d_name, &set->items[set->count], &why) != 0)
                exercise_mark_broken(&set->items[set->count], lesson_dir, l->d_name, e->d_name, why.message);
            set->count++;
        }
        closedir(sub);
    }
    closedir(top);
    if (rc == 0 && set->count == 0)
        rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_EXERCISES to the exercises folder"),
                       _("the exercises folder %s holds no exercise (LESSON/NAME/exercise.ini)"), root);
    if (rc == 0)
        qsort(set->items, (size_t)set->count, sizeof *set->items, exercise_compare);
    for (int i = 0; rc == 0 && i + 1 < set->count; i++)
        for (int j = i + 1; j < set->count; j++)
            if (strcmp(set->items[i].name, set->items[j].name) == 0 && !set->items[j].broken) {
                char why[600];
                snprintf(why, sizeof why, _("%s: two exercises are called '%s': give every exercise its own folder name"),
                         set->items[j].dir ? set->items[j].dir : "?", set->items[j].name);
                char *lesson_dir = set->items[j].dir ? strdup(set->items[j].dir) : NULL, *slash;
                if (lesson_dir && (slash = strrchr(lesson_dir, '/')))
                    *slash = '\0';
                char *lesson_id = strdup(set->items[j].lesson_id), *name = strdup(set->items[j].name);
                exercise_free(&set->items[j]);
                exercise_mark_broken(&set->items[j], lesson_dir ? lesson_dir : "", lesson_id ? lesson_id : "",
                                     name ? name : "", why);
                free(lesson_dir);
                free(lesson_id);
                free(name);
            }
    if (rc != 0)
        exercise_set_free(set);
    return rc;
}

/* Frees the set. */
void exercise_set_free(exercise_set *set)
{
    for (int i = 0; i < set->count; i++)
        exercise_free(&set->items[i]);
    free(set->items);
    free(set->root);
    memset(set, 0, sizeof *set);
}

/* An exercise's title in lang. */
const char *exercise_title(const exercise *ex, i18n_lang lang)
{
    return ex->title[lang] ? ex->title[lang] : ex->title[I18N_EN] ? ex->title[I18N_EN] : ex->name;
}

/* The exercise called name, or NULL. */
const exercise *exercise_find(const exercise_set *set, const char *name)
{
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->items[i].name, name) == 0)
            return &set->items[i];
    return NULL;
}

/* Path of one of the exercise's files. */
void exercise_file(const exercise *ex, const char *file, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", ex->dir, file);
}

/* The task's or hints' Markdown in a language (English when missing). */
char *exercise_text(const exercise *ex, const char *what, i18n_lang lang)
{
    char name[64], path[4400];
    snprintf(name, sizeof name, "%s.%s.md", what, i18n_code(lang));
    exercise_file(ex, name, path, sizeof path);
    char *text = lesson_read_file(path, NULL);
    if (!text && lang != I18N_EN)
        return exercise_text(ex, what, I18N_EN);
    return text;
}

/* The hints, one per "# " heading. */
int exercise_hints(const exercise *ex, i18n_lang lang, char **out)
{
    char *text = exercise_text(ex, "hints", lang);
    if (!text)
        return 0;
    int n = 0;
    char *p = text;
    while (n < EXERCISE_MAX_HINTS && (p = strstr(p, "# ")) != NULL) {
        if (p != text && p[-1] != '\n') {
            p += 2;
            continue;
        }
        char *next = strstr(p + 2, "\n# ");
        size_t len = next ? (size_t)(next - p) : strlen(p);
        out[n] = strndup(p, len);
        if (out[n])
            n++;
        p = next ? next + 1 : p + len;
    }
    free(text);
    return n;
}

/* Finds __global__ functions in source text, comments left out. */
int exercise_kernel_name(const char *text, const char *want, char *out, size_t size)
{
    size_t len = strlen(text);
    char *code = malloc(len + 1);
    if (!code)
        return -1;
    /* blank out comments (keeping the line breaks) */
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '/' && text[i + 1] == '*') {
            const char *end = strstr(text + i + 2, "*/");
            size_t stop = end ? (size_t)(end - text) + 2 : len;
            for (; i < stop; i++)
                code[k++] = text[i] == '\n' ? '\n' : ' ';
            i--;
        } else if (text[i] == '/' && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                code[k++] = ' ', i++;
            if (i < len)
                code[k++] = '\n';
        } else {
            code[k++] = text[i];
        }
    }
    code[k] = '\0';
    if (size)
        out[0] = '\0';
    int found = -1;
    /* the name before the first '(' after each __global__: that '(' and the name before it (found
       going back without bound) are kept for the next __global__ before the same '(', so that a file
       of many __global__ and one '(' far away is read in linear time, never in the square of it */
    const char *paren = NULL, *name_start = NULL, *name_end = NULL;
    for (const char *p = strstr(code, "__global__"); p && found != 0; p = strstr(p + 1, "__global__")) {
        if (!paren || paren < p) {
            paren = strchr(p, '(');
            if (!paren)
                break;
            name_end = paren;
            while (name_end > code && (name_end[-1] == ' ' || name_end[-1] == '\t' || name_end[-1] == '\n'))
                name_end--;
            name_start = name_end;
            while (name_start > code && (isalnum((unsigned char)name_start[-1]) || name_start[-1] == '_'))
                name_start--;
        }
        /* as if going back from '(' stopped at p */
        const char *end = name_end > p ? name_end : p;
        const char *start = name_start > p ? name_start : p;
        if (end <= start || (size_t)(end - start) >= size)
            continue;
        if (!want || ((size_t)(end - start) == strlen(want) && strncmp(start, want, (size_t)(end - start)) == 0)) {
            snprintf(out, size, "%.*s", (int)(end - start), start);
            found = 0;
        } else if (!out[0]) {
            snprintf(out, size, "%.*s", (int)(end - start), start);
        }
    }
    free(code);
    return found;
}
