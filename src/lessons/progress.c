/*
 * progress.c - the learner's progress file: read, change and write it back atomically.
 *
 * Every change takes a lock (flock on progress.lock beside the file), reads the file again, makes
 * its change and writes the whole file to a temporary name, flushed to disk, then renamed over the
 * old one: two cudachef processes never lose each other's records, and a kill at any moment leaves
 * the old or the new file. A file that cannot be read (a folder, too large, not text: a NUL byte)
 * is never written over.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "lessons/progress.h"
#include "base/file.h"

#define PROGRESS_HEADER "# cudachef progress, format 1: see docs/PROGRESS.md"
#define PROGRESS_MAX_BYTES (8 << 20) /* a file larger than this is not a progress file */
#define PROGRESS_TOKEN_MAX 128

/* The folder that holds the progress file, into out: 0, or -1 with err filled. */
static int progress_dir(char *out, size_t size, chef_error *err)
{
    const char *own = getenv("CUDACHEF_STATE_HOME");
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (own && own[0])
        n = snprintf(out, size, "%s", own);
    else if (xdg && xdg[0] == '/')
        n = snprintf(out, size, "%s/cudachef", xdg);
    else if (home && home[0])
        n = snprintf(out, size, "%s/.local/state/cudachef", home);
    else
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set HOME, XDG_STATE_HOME or CUDACHEF_STATE_HOME to a folder"),
                         _("no folder for the progress file: HOME is not set"));
    if (n < 0 || (size_t)n >= size)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_STATE_HOME to a shorter folder name"),
                         _("the folder for the progress file has too long a name"));
    return 0;
}

/* The progress file's path into out. */
int progress_path(char *out, size_t size, chef_error *err)
{
    char dir[PATH_MAX - 16];
    if (progress_dir(dir, sizeof dir, err) != 0)
        return -1;
    if (snprintf(out, size, "%s/progress", dir) >= (int)size)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_STATE_HOME to a shorter folder name"),
                         _("the folder for the progress file has too long a name"));
    return 0;
}

/* Adds a copy of line to p: 0, or -1 when out of memory. */
static int progress_push(progress *p, const char *line)
{
    char **grown = realloc(p->lines, (p->count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    p->lines = grown;
    if (!(p->lines[p->count] = strdup(line)))
        return -1;
    p->count++;
    return 0;
}

/* Reads the progress file into p. */
int progress_load(progress *p, chef_error *err)
{
    memset(p, 0, sizeof *p);
    char path[PATH_MAX];
    if (progress_path(path, sizeof path, err) != 0)
        return -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make the file readable, or set CUDACHEF_STATE_HOME to another folder"),
                         _("cannot read the progress file %s: %s"), path, strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > PROGRESS_MAX_BYTES) {
        fclose(f);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("move it away (cudachef starts a new one), or set CUDACHEF_STATE_HOME"),
                         _("%s is not a progress file (not a regular file, or larger than 8 MiB)"), path);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0, number = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        number++;
        if (strlen(line) != (size_t)len) {
            /* a NUL byte: not text (a disk that lost a block writes zeros). Rewriting it would drop
               what cannot be read, so it is refused like any file that cannot be read. */
            rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                           _("move it away (cudachef starts a new one), or set CUDACHEF_STATE_HOME"),
                           _("%s is not a progress file: line %d holds a NUL byte"), path, number);
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || strcmp(line, PROGRESS_HEADER) == 0)
            continue;
        if (progress_push(p, line) != 0) {
            rc = chef_fail(err, CHEF_EXIT_INTERNAL, _("free some memory and try again"), _("out of memory reading the progress file"));
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("check the disk, or set CUDACHEF_STATE_HOME to another folder"),
                       _("cannot read the progress file %s: %s"), path, strerror(errno));
    free(line);
    fclose(f);
    if (rc != 0)
        progress_free(p);
    return rc;
}

/* Frees what progress_load made. */
void progress_free(progress *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->lines[i]);
    free(p->lines);
    p->lines = NULL;
    p->count = 0;
}

/* Splits a copy of line into at most 4 words; returns how many (0 for a comment). */
static int progress_words(const char *line, char *copy, size_t size, char *words[4])
{
    if (line[0] == '#' || snprintf(copy, size, "%s", line) >= (int)size)
        return 0;
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w && n < 4; w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    return n;
}

/* 1 when line is the record KIND LESSON [NAME] (name NULL: any name, or none). */
static int progress_is(const char *line, const char *kind, const char *lesson, const char *name)
{
    char copy[4 * PROGRESS_TOKEN_MAX], *w[4];
    int n = progress_words(line, copy, sizeof copy, w);
    if (n < 2 || strcmp(w[0], kind) != 0 || strcmp(w[1], lesson) != 0)
        return 0;
    return !name || (n >= 3 && strcmp(w[2], name) == 0);
}

/* 1 when p holds a record KIND LESSON [NAME]. */
static int progress_has(const progress *p, const char *kind, const char *lesson, const char *name)
{
    for (size_t i = 0; i < p->count; i++)
        if (progress_is(p->lines[i], kind, lesson, name))
            return 1;
    return 0;
}

/* Removes the records KIND LESSON (kind NULL: every kind; lesson NULL: every lesson); returns
   how many went. Lines that are not records are kept. */
static size_t progress_drop(progress *p, const char *kind, const char *lesson)
{
    static const char *kinds[] = {"page", "read", "demo", "exercise"};
    size_t kept = 0, before = p->count;
    for (size_t i = 0; i < p->count; i++) {
        char copy[4 * PROGRESS_TOKEN_MAX], *w[4];
        int drop = 0;
        if (progress_words(p->lines[i], copy, sizeof copy, w) >= 2 && (!lesson || strcmp(w[1], lesson) == 0))
            for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
                if ((!kind || strcmp(kind, kinds[k]) == 0) && strcmp(w[0], kinds[k]) == 0)
                    drop = 1;
        if (drop)
            free(p->lines[i]);
        else
            p->lines[kept++] = p->lines[i];
    }
    p->count = kept;
    return before - kept;
}

/* 1 when s can be one word of a record: 1 to 128 printable ASCII characters, no spaces. */
static int progress_token_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > PROGRESS_TOKEN_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] > '~')
            return 0;
    return 1;
}

/* Writes p to path through a temporary file flushed to disk and renamed: 0, or -1 with err. */
static int progress_write(const progress *p, const char *dir, const char *path, chef_error *err)
{
    char tmp[PATH_MAX];
    /* one name: the lock lets one writer at a time in, and a killed writer's leftover is reused */
    if (snprintf(tmp, sizeof tmp, "%s/.progress.tmp", dir) >= (int)sizeof tmp)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_STATE_HOME to a shorter folder name"),
                         _("the folder for the progress file has too long a name"));
    unlink(tmp); /* a killed writer's leftover, or a link someone planted there: never followed */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make the folder writable, or set CUDACHEF_STATE_HOME to another folder"),
                         _("cannot write the progress file in %s: %s"), dir, strerror(e));
    }
    int ok = fprintf(f, "%s\n", PROGRESS_HEADER) > 0;
    for (size_t i = 0; ok && i < p->count; i++)
        ok = fprintf(f, "%s\n", p->lines[i]) > 0;
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int e = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            e = errno;
        unlink(tmp);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("free some disk space or make the folder writable; the old file is unchanged"),
                         _("cannot write the progress file in %s: %s"), dir, strerror(e));
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) { /* make the rename itself last; a folder that cannot be opened still got it */
        fsync(dfd);
        close(dfd);
    }
    return 0;
}

/* What a change does to the records (progress_change's callback): 1 changed, 0 unchanged, or -1
   with err filled. */
typedef int (*progress_edit)(progress *p, const void *arg, chef_error *err);

/* Locks the file, reads it again, lets edit change it and writes it back when it changed. */
static int progress_change(progress_edit edit, const void *arg, chef_error *err)
{
    char dir[PATH_MAX - 32], path[PATH_MAX], lockpath[PATH_MAX];
    if (progress_dir(dir, sizeof dir, err) != 0)
        return -1;
    if (chef_mkdirs(dir, 0700) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make the folder writable, or set CUDACHEF_STATE_HOME to another folder"),
                         _("cannot make the folder %s for the progress file: %s"), dir, strerror(errno));
    if (file_dir_private(dir, _("the state folder"), err) != 0)
        return -1; /* a folder another user can write could hold their links in place of our files */
    snprintf(path, sizeof path, "%s/progress", dir);
    snprintf(lockpath, sizeof lockpath, "%s/progress.lock", dir);
    int lock = open(lockpath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lock < 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make the folder writable, or set CUDACHEF_STATE_HOME to another folder"),
                         _("cannot write the progress file in %s: %s"), dir, strerror(errno));
    while (flock(lock, LOCK_EX) != 0 && errno == EINTR) {
    }
    progress p;
    int rc = progress_load(&p, err);
    if (rc == 0) {
        rc = edit(&p, arg, err);
        if (rc > 0)
            rc = progress_write(&p, dir, path, err);
        progress_free(&p);
    }
    close(lock); /* also releases the lock */
    return rc;
}

/* The arguments of a page, mark or reset change. */
typedef struct progress_arg {
    const char *kind, *lesson, *name, *anchor;
    int page, count;
} progress_arg;

/* Edit: the page reached replaces the last one; the last page also adds "read". */
static int progress_edit_page(progress *p, const void *arg, chef_error *err)
{
    const progress_arg *a = arg;
    char line[4 * PROGRESS_TOKEN_MAX], anchor[PROGRESS_TOKEN_MAX + 1];
    if (a->anchor)
        snprintf(line, sizeof line, "page %s %d %s", a->lesson, a->page, a->anchor);
    else
        snprintf(line, sizeof line, "page %s %d", a->lesson, a->page);
    int changed = 0;
    if (progress_page_of(p, a->lesson) != a->page ||
        (progress_anchor_of(p, a->lesson, anchor, sizeof anchor) == 0) != (a->anchor != NULL) ||
        (a->anchor && strcmp(anchor, a->anchor) != 0)) {
        progress_drop(p, "page", a->lesson);
        if (progress_push(p, line) != 0)
            return chef_fail(err, CHEF_EXIT_INTERNAL, _("free some memory and try again"), _("out of memory"));
        changed = 1;
    }
    if (a->page + 1 >= a->count && !progress_has(p, "read", a->lesson, NULL)) {
        snprintf(line, sizeof line, "read %s", a->lesson);
        if (progress_push(p, line) != 0)
            return chef_fail(err, CHEF_EXIT_INTERNAL, _("free some memory and try again"), _("out of memory"));
        changed = 1;
    }
    return changed;
}

/* Edit: adds "KIND LESSON NAME" unless it is there. */
static int progress_edit_mark(progress *p, const void *arg, chef_error *err)
{
    const progress_arg *a = arg;
    if (progress_has(p, a->kind, a->lesson, a->name))
        return 0;
    char line[3 * PROGRESS_TOKEN_MAX + 16];
    snprintf(line, sizeof line, "%s %s %s", a->kind, a->lesson, a->name);
    if (progress_push(p, line) != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, _("free some memory and try again"), _("out of memory"));
    return 1;
}

/* Edit: forgets a lesson's records, or every record (lines not understood are kept). */
static int progress_edit_reset(progress *p, const void *arg, chef_error *err)
{
    (void)err;
    const progress_arg *a = arg;
    return progress_drop(p, NULL, a->lesson) > 0;
}

/* Fails with a message when a lesson or exercise name cannot be recorded. */
static int progress_check(const char *what, chef_error *err)
{
    if (what && progress_token_ok(what))
        return 0;
    return chef_fail(err, CHEF_EXIT_USAGE, _("use a lesson's folder name without spaces, as cudachef list shows"),
                     _("'%s' cannot be recorded in the progress file"), what ? what : "");
}

/* Records the page reached. */
int progress_page(const char *lesson, int page, int count, const char *anchor, chef_error *err)
{
    if (progress_check(lesson, err) != 0 || (anchor && progress_check(anchor, err) != 0))
        return -1;
    progress_arg a = {.lesson = lesson, .page = page < 0 ? 0 : page, .count = count, .anchor = anchor};
    return progress_change(progress_edit_page, &a, err);
}

/* Records a demo run or an exercise passed. */
int progress_mark(const char *kind, const char *lesson, const char *name, chef_error *err)
{
    if (strcmp(kind, "demo") != 0 && strcmp(kind, "exercise") != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "progress_mark: unknown kind %s", kind);
    if (progress_check(lesson, err) != 0 || progress_check(name, err) != 0)
        return -1;
    progress_arg a = {.kind = kind, .lesson = lesson, .name = name};
    return progress_change(progress_edit_mark, &a, err);
}

/* Forgets a lesson, or everything. */
int progress_reset(const char *lesson, chef_error *err)
{
    if (lesson && progress_check(lesson, err) != 0)
        return -1;
    progress_arg a = {.lesson = lesson};
    return progress_change(progress_edit_reset, &a, err);
}

/* The furthest a learner got with lesson. */
progress_state progress_state_of(const progress *p, const char *lesson)
{
    if (progress_has(p, "exercise", lesson, NULL))
        return PROGRESS_EXERCISE_PASSED;
    if (progress_has(p, "demo", lesson, NULL))
        return PROGRESS_DEMO_RUN;
    if (progress_has(p, "read", lesson, NULL))
        return PROGRESS_READ;
    if (progress_has(p, "page", lesson, NULL))
        return PROGRESS_STARTED;
    return PROGRESS_NOT_STARTED;
}

/* The page last reached in lesson, or -1. */
int progress_page_of(const progress *p, const char *lesson)
{
    for (size_t i = 0; i < p->count; i++) {
        char copy[4 * PROGRESS_TOKEN_MAX], *w[4];
        int n = progress_words(p->lines[i], copy, sizeof copy, w);
        if ((n == 3 || n == 4) && strcmp(w[0], "page") == 0 && strcmp(w[1], lesson) == 0) {
            char *end;
            long page = strtol(w[2], &end, 10);
            if (*end == '\0' && page >= 0 && page < INT_MAX)
                return (int)page;
        }
    }
    return -1;
}

/* Copies the anchor saved with lesson's page into out. */
int progress_anchor_of(const progress *p, const char *lesson, char *out, size_t size)
{
    for (size_t i = 0; i < p->count; i++) {
        char copy[4 * PROGRESS_TOKEN_MAX], *w[4];
        if (progress_words(p->lines[i], copy, sizeof copy, w) == 4 && strcmp(w[0], "page") == 0 &&
            strcmp(w[1], lesson) == 0)
            return snprintf(out, size, "%s", w[3]) < (int)size ? 0 : -1;
    }
    return -1;
}

/* A state in a few words, in the learner's language. */
const char *progress_state_name(progress_state state)
{
    switch (state) {
    case PROGRESS_STARTED:
        return _("started");
    case PROGRESS_READ:
        return _("read");
    case PROGRESS_DEMO_RUN:
        return _("demo run");
    case PROGRESS_EXERCISE_PASSED:
        return _("exercise passed");
    default:
        return _("not started");
    }
}

/* A state as a fixed word for programs. */
const char *progress_state_key(progress_state state)
{
    static const char *keys[] = {"not-started", "started", "read", "demo-run", "exercise-passed"};
    return (unsigned)state < 5 ? keys[state] : "not-started";
}

/* Reads the seed kept in path: 0 when there is none (or it is not a number). */
static uint64_t progress_seed_read(const char *path)
{
    char text[32] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    return errno || end == text || (*end && *end != '\n') ? 0 : (uint64_t)v;
}

/* The learner's seed for the order of the choices. */
uint64_t progress_answer_seed(void)
{
    const char *own = getenv("CUDACHEF_ANSWER_SEED");
    if (own && *own) {
        char *end;
        unsigned long long v = strtoull(own, &end, 10);
        return *end ? 1 : (uint64_t)v; /* a word that is not a number still gives a stable order */
    }
    char dir[PATH_MAX - 16], path[PATH_MAX];
    chef_error err = {0};
    if (progress_dir(dir, sizeof dir, &err) != 0)
        return 1;
    snprintf(path, sizeof path, "%s/answer-seed", dir);
    uint64_t seed = progress_seed_read(path);
    if (seed)
        return seed;
    FILE *r = fopen("/dev/urandom", "rb");
    if (!r || fread(&seed, sizeof seed, 1, r) != 1)
        seed = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)(chef_now_ms() * 1000);
    if (r)
        fclose(r);
    seed = seed % 1000000000000ull + 1; /* 1 to 10^12: short to read, never 0 */
    char text[32];
    int len = snprintf(text, sizeof text, "%llu\n", (unsigned long long)seed);
    if (chef_mkdirs(dir, 0700) != 0 || file_dir_private(dir, "state", &err) != 0 ||
        file_write_private_text(path, text, (size_t)len, &err) != 0)
        return seed; /* not kept: this run's order, and the next run's may differ */
    uint64_t kept = progress_seed_read(path); /* another process may have written its own first */
    return kept ? kept : seed;
}
