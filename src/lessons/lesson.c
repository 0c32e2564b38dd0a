/*
 * lesson.c - loads lesson folders into a set, finds lessons and demos in it and frees it
 * (docs/LESSONS.md is the format).
 *
 * A folder is read in three steps: lesson.ini (lesson_ini.c, with inih), en.md and ko.md
 * (lesson_text.c, a line scanner), then the two texts against each other (lesson_text.c); their
 * Markdown is rendered elsewhere (markdown.c, with md4c). Every problem is recorded as
 * "FILE:LINE: message"; a lesson with a problem is left out and the others still load. What the
 * steps share (lesson_internal.h) lives here: problems, copies, reading a file, checking UTF-8.
 */
#include "lessons/lesson.h"
#include "lessons/progress.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lessons/lesson_internal.h"

/* Adds "file:line: message" to the set's problems. */
void lesson_problem_add(lesson_set *set, const char *file, int line, const char *fmt, ...)
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
char *lesson_strdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(CHEF_EXIT_ENVIRONMENT);
    }
    return d;
}

/* Appends an element to a growable array of pointers. */
void lesson_push(char ***array, int *count, const char *value)
{
    char **grown = realloc(*array, (size_t)(*count + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "cudachef: out of memory\n");
        exit(CHEF_EXIT_ENVIRONMENT);
    }
    *array = grown;
    (*array)[(*count)++] = lesson_strdup(value);
}

/* Opens path for reading without waiting: a FIFO with no writer would block open() for ever, so
   it is opened non-blocking (reading it then finds the end at once) and made blocking again, so
   that a pipe with a writer (`cudachef try <(...)`) is read to its end. NULL with errno. */
static FILE *lesson_open_read(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* Reads a whole file into a NUL-terminated buffer (caller frees); NULL with errno on failure. */
char *lesson_read_file(const char *path, size_t *size)
{
    FILE *f = lesson_open_read(path);
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

/* The code point that starts at s[i] (of len bytes) into *cp and its length in bytes, or 0 when
   the bytes there are not valid UTF-8. */
static int lesson_utf8_at(const char *s, size_t len, size_t i, uint32_t *cp)
{
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int extra = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + (size_t)extra >= len)
        return 0;
    *cp = c & (0x3F >> extra);
    for (int k = 1; k <= extra; k++) {
        unsigned char d = (unsigned char)s[i + (size_t)k];
        if ((d & 0xC0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (d & 0x3F);
    }
    if ((extra == 1 && *cp < 0x80) || (extra == 2 && *cp < 0x800) || (extra == 3 && *cp < 0x10000) ||
        (*cp >= 0xD800 && *cp <= 0xDFFF) || *cp > 0x10FFFF)
        return 0;
    return extra + 1;
}

/* The line (from 1) of the first problem of a text that cudachef shows, or 0 if all is well, with
   the problem in why: bytes that are not UTF-8, or a control character other than tab and the line
   ends. Text from data files goes to the terminal as it is, and a terminal obeys control codes
   (escape sequences set its title, write the clipboard, answer back as if typed): data may hold
   none. */
int lesson_text_problem(const char *text, size_t len, char *why, size_t size)
{
    int line = 1;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        int n = lesson_utf8_at(text, len, i, &cp);
        if (n == 0) {
            snprintf(why, size, "not valid UTF-8 text: save the file as UTF-8");
            return line;
        }
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || (cp >= 0x7F && cp <= 0x9F)) {
            snprintf(why, size, "control character U+%04X: text may hold no control codes other than tab and "
                                "line ends (a terminal obeys them)", (unsigned)cp);
            return line;
        }
        /* characters a reader cannot see that change what the text says: zero-width ones, the
           direction overrides and isolates (a line shown backwards), the byte-order mark */
        if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
            cp == 0xFEFF || cp == 0x2060) {
            snprintf(why, size, "invisible or direction-changing character U+%04X: a reader would not see it, and it "
                                "can change how the text reads (write it out, or leave it out)", (unsigned)cp);
            return line;
        }
        line += cp == '\n';
        i += (size_t)n;
    }
    return 0;
}

/* A name is lower-case letters, digits and '-'. */
int lesson_name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
            return 0;
    return 1;
}

/* Checks a kernel a lesson names (kernels = ..., <!-- kernel NAME -->): a plain name (letters,
   digits and '_', so never a path out of the kernels folder) of a readable kernels_dir/NAME.cu
   that is clean text. 0, or -1 with the problem in why. */
int lesson_kernel_ok(const char *kernels_dir, const char *name, char *why, size_t size)
{
    int plain = *name != '\0' && strlen(name) <= 64;
    for (const char *p = name; *p && plain; p++)
        plain = isalnum((unsigned char)*p) || *p == '_';
    if (!plain) {
        snprintf(why, size, "kernel '%.64s': a kernel is named by its file in kernels/ without .cu (up to 64 "
                            "letters, digits and '_')", name);
        return -1;
    }
    char path[4400], problem[160];
    snprintf(path, sizeof path, "%s/%s.cu", kernels_dir, name);
    size_t len = 0;
    char *text = lesson_read_file(path, &len);
    int line = text ? lesson_text_problem(text, len, problem, sizeof problem) : 0;
    free(text);
    if (!text)
        snprintf(why, size, "kernel '%s' not found: there is no kernels/%s.cu", name, name);
    else if (line)
        snprintf(why, size, "kernel '%s': kernels/%s.cu:%d: %s", name, name, line, problem);
    return !text || line ? -1 : 0;
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
    const char *hint = getenv("CUDACHEF_LESSONS") ? "CUDACHEF_LESSONS names this folder: point it at a folder of lessons, or unset it"
                                                  : "set CUDACHEF_LESSONS to the lessons folder";
    DIR *d = opendir(lessons_dir);
    if (!d) {
        int rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT, hint, "cannot read the lessons folder %s: %s", lessons_dir,
                           strerror(errno));
        lesson_set_free(set); /* an empty set: nothing for the caller to free */
        return rc;
    }
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
    if (count == 0) { /* not one folder: the wrong folder, or an install that lost its data */
        int rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT, hint,
                           "the lessons folder %s holds no lessons (a lesson is a folder such as 01-name)", lessons_dir);
        lesson_set_free(set); /* an empty set: nothing for the caller to free */
        return rc;
    }
    qsort(names, (size_t)count, sizeof names[0], lesson_name_compare);
    for (int i = 0; i < count; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", lessons_dir, names[i]);
        lesson l;
        int rc = lesson_load(path, kernels_dir, &l, set);
        for (int k = 0; rc == 0 && k < set->count; k++) {
            /* progress records name a lesson by the words after its number: two lessons whose
               words are the same would share them */
            const char *mine = strchr(l.id, '-'), *theirs = strchr(set->lessons[k].id, '-');
            if (set->lessons[k].number == l.number) {
                lesson_problem_add(set, path, 0, "lesson number %02d is taken by %s: renumber one of them", l.number,
                                   set->lessons[k].id);
                rc = -1;
            } else if (mine && theirs && strcmp(mine, theirs) == 0) {
                lesson_problem_add(set, path, 0, "lesson %s has the name of %s after its number: rename one of them",
                                   l.id, set->lessons[k].id);
                rc = -1;
            }
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

/* A lesson's title in lang, English where it has none. */
const char *lesson_title(const lesson *l, i18n_lang lang)
{
    return l->title[lang] ? l->title[lang] : l->title[I18N_EN];
}

/* A lesson's pages and questions in lang, English where it has none. */
const lesson_text *lesson_text_in(const lesson *l, i18n_lang lang)
{
    return l->text[lang].nitems > 0 ? &l->text[lang] : &l->text[I18N_EN];
}

/* The anchor of item: its English title's letters and digits in lower case, every other run of
   characters one '-', at most 48 characters; "item-N" for an item without a title. */
const char *lesson_item_anchor(const lesson *l, int item, char *out, size_t size)
{
    const lesson_text *t = &l->text[I18N_EN];
    const char *title = item >= 0 && item < t->nitems ? t->items[item].title : NULL;
    size_t n = 0, cap = size > 49 ? 48 : (size ? size - 1 : 0);
    for (const char *c = title ? title : ""; *c && n < cap; c++) {
        if (isalnum((unsigned char)*c))
            out[n++] = (char)tolower((unsigned char)*c);
        else if (n > 0 && out[n - 1] != '-')
            out[n++] = '-';
    }
    while (n > 0 && out[n - 1] == '-')
        n--;
    if (size)
        out[n] = '\0';
    if (n == 0 && size)
        snprintf(out, size, "item-%d", item + 1);
    return out;
}

/* The page to reopen l at. */
int lesson_resume_page(const lesson *l, const progress *p)
{
    int page = progress_page_of(p, l->slug), pages = l->text[I18N_EN].nitems;
    char saved[LESSON_ANCHOR_MAX], anchor[LESSON_ANCHOR_MAX];
    if (page < 0 || pages <= 0)
        return -1;
    if (progress_anchor_of(p, l->slug, saved, sizeof saved) == 0) {
        /* the saved number first, then the pages after it (pages added before it move it on) */
        for (int k = 0; k < pages; k++) {
            int item = (page + k) % pages;
            lesson_item_anchor(l, item, anchor, sizeof anchor);
            if (strcmp(anchor, saved) == 0)
                return item;
        }
    }
    return page < pages ? page : pages - 1;
}

/* A demo's title in lang, English where it has none, its name where it has no title. */
const char *lesson_demo_title(const lesson_demo *d, i18n_lang lang)
{
    return d->title[lang] ? d->title[lang] : d->title[I18N_EN] ? d->title[I18N_EN] : d->name;
}

/* The lesson whose demos array holds demo. */
const lesson *lesson_of_demo(const lesson_set *set, const lesson_demo *demo)
{
    for (int i = 0; i < set->count; i++) {
        const lesson *l = &set->lessons[i];
        if (l->ndemos > 0 && demo >= l->demos && demo < l->demos + l->ndemos)
            return l;
    }
    return NULL;
}

/* "run", "compare", ... */
const char *lesson_demo_kind_name(demo_kind kind)
{
    static const char *names[] = {"run", "compare", "info", "clock", "race", "trips", "walk", "card", "roofline",
                                  "streams", "managed"};
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
    if (!set->root)
        return NULL; /* the folder could not be read */
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

/* Reads a lesson file as UTF-8 text (caller frees); NULL after adding the problem to set: the file
   cannot be read (missing adds why every lesson needs it), or a byte is not UTF-8. */
char *lesson_read_text_file(const char *path, const char *missing, lesson_set *set, size_t *len)
{
    char *text = lesson_read_file(path, len);
    if (!text) {
        if (missing)
            lesson_problem_add(set, path, 0, "cannot read: %s (%s)", strerror(errno), missing);
        else
            lesson_problem_add(set, path, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    char why[160];
    int bad_line = lesson_text_problem(text, *len, why, sizeof why);
    if (bad_line) {
        lesson_problem_add(set, path, bad_line, "%s", why);
        free(text);
        return NULL;
    }
    return text;
}

/* splitmix64: the next number of a small seeded generator. */
static uint64_t lesson_mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Every question's choices in seed's order. */
void lesson_shuffle_choices(lesson_set *set, uint64_t seed)
{
    if (seed == 0)
        return;
    for (int l = 0; l < set->count; l++) {
        lesson *ls = &set->lessons[l];
        uint64_t base = seed;
        for (const char *p = ls->id; *p; p++) /* FNV-1a of the lesson's folder: each its own order */
            base = (base ^ (unsigned char)*p) * 0x100000001B3ull;
        for (int lang = 0; lang < I18N_LANGS; lang++) {
            int q = 0;
            for (int i = 0; i < ls->text[lang].nitems; i++) {
                lesson_item *it = &ls->text[lang].items[i];
                if (it->kind != ITEM_QUESTION)
                    continue;
                uint64_t x = base + (uint64_t)q++ * 0xD1B54A32D192ED03ull; /* the same in every language */
                for (int c = it->nchoices - 1; c > 0; c--) {       /* Fisher-Yates */
                    int k = (int)(lesson_mix(&x) % (uint64_t)(c + 1));
                    lesson_choice t = it->choices[c];
                    it->choices[c] = it->choices[k];
                    it->choices[k] = t;
                }
            }
        }
    }
}
