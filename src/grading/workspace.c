/*
 * workspace.c - the learner's workspace folder (workspace.h): found, made, and one exercise put
 * back as it started. Files are written to a temporary name and renamed, and nothing the learner
 * wrote is ever overwritten: a reset first moves their file aside.
 */
#include "grading/workspace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "lessons/lesson.h"
#include "base/file.h"

/* The default workspace folder. */
int workspace_default(char *out, size_t size, chef_error *err)
{
    const char *env = getenv("CUDACHEF_WORKSPACE"), *home = getenv("HOME");
    if (env && *env)
        snprintf(out, size, "%s", env);
    else if (home && *home)
        snprintf(out, size, "%s/cudachef-kitchen", home);
    else
        return chef_fail(err, CHEF_EXIT_USAGE, _("name the folder: cudachef init DIR, or set CUDACHEF_WORKSPACE"),
                         _("no folder for the workspace: HOME is not set"));
    return 0;
}

/* The workspace folder, which must exist. */
int workspace_resolve(const char *given, char *out, size_t size, chef_error *err)
{
    if (given && strlen(given) >= size)
        return chef_fail(err, CHEF_EXIT_USAGE, _("choose a shorter folder name"),
                         _("the workspace's name is longer than %zu bytes"), size - 1);
    if (given)
        snprintf(out, size, "%s", given);
    else if (workspace_default(out, size, err) != 0)
        return -1;
    struct stat st;
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
        return chef_fail(err, CHEF_EXIT_USAGE, _("make it with: cudachef init (or cudachef init DIR)"),
                         _("no workspace at %s"), out);
    return 0;
}

/* WORKSPACE/LESSON-ID/NAME.cu. */
void workspace_exercise_path(const char *workspace, const exercise *ex, char *out, size_t size)
{
    snprintf(out, size, "%s/%s/%s.cu", workspace, ex->lesson_id, ex->name);
}

/* Makes a folder if it is not there. */
static int workspace_mkdir(const char *path, chef_error *err)
{
    if (chef_mkdirs(path, 0755) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("choose a folder you can write to"),
                         _("cannot make the folder %s: %s"), path, strerror(errno));
    return 0;
}

/* Copies from to to, whole or not at all, through a temporary file made beside it that never
   follows a link left there (file_write_private_text): 0, or -1 with err. */
static int workspace_copy(const char *from, const char *to, chef_error *err)
{
    size_t size = 0;
    char *text = lesson_read_file(from, &size);
    if (!text)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("reinstall cudachef: its exercises are incomplete"),
                         _("cannot read %s: %s"), from, strerror(errno));
    int rc = file_write_private_text(to, text, size, err);
    free(text);
    return rc;
}

/* Makes the workspace with every starting file not there yet. */
int workspace_init(const char *dir, const exercise_set *set, int *made, chef_error *err)
{
    *made = 0;
    if (workspace_mkdir(dir, err) != 0)
        return -1;
    for (int i = 0; i < set->count; i++) {
        const exercise *ex = &set->items[i];
        if (ex->broken)
            continue; /* nothing to copy: init says so */
        char sub[4400], path[4400], start[4400];
        snprintf(sub, sizeof sub, "%s/%s", dir, ex->lesson_id);
        workspace_exercise_path(dir, ex, path, sizeof path);
        exercise_file(ex, "start.cu", start, sizeof start);
        if (workspace_mkdir(sub, err) != 0)
            return -1;
        if (access(path, F_OK) == 0)
            continue; /* the learner's own work stays */
        if (workspace_copy(start, path, err) != 0)
            return -1;
        (*made)++;
    }
    return 0;
}

/* Puts one exercise back as it started, keeping the learner's version aside. The fresh copy is
   written first (beside the file, whole, never through a link), and only then is the learner's
   file moved to NAME.cu.N.bak and the copy renamed into place: a full disk changes nothing. */
int workspace_reset(const char *workspace, const exercise *ex, char *saved, size_t size, chef_error *err)
{
    char path[4400], start[4400], sub[4400], fresh[4500];
    workspace_exercise_path(workspace, ex, path, sizeof path);
    exercise_file(ex, "start.cu", start, sizeof start);
    snprintf(sub, sizeof sub, "%s/%s", workspace, ex->lesson_id);
    saved[0] = '\0';
    if (workspace_mkdir(sub, err) != 0)
        return -1;
    struct stat st;
    if (lstat(path, &st) != 0)
        return workspace_copy(start, path, err); /* nothing of the learner's to keep */
    snprintf(fresh, sizeof fresh, "%s.fresh", path);
    if (workspace_copy(start, fresh, err) != 0) {
        unlink(fresh);
        snprintf(err->hint, sizeof err->hint, "%s", _("free some disk space; your file is as it was"));
        return -1;
    }
    for (int k = 1; k < 10000 && !saved[0]; k++) {
        char candidate[4500];
        snprintf(candidate, sizeof candidate, "%s.%d.bak", path, k);
        if (lstat(candidate, &st) != 0)
            snprintf(saved, size, "%s", candidate);
    }
    if (!saved[0] || rename(path, saved) != 0) {
        int e = errno;
        unlink(fresh);
        saved[0] = '\0';
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("move your file away by hand first"),
                         _("cannot keep your version of %s: %s"), path, strerror(e));
    }
    if (rename(fresh, path) != 0) {
        int e = errno;
        rename(saved, path); /* the learner's file back where it was */
        unlink(fresh);
        saved[0] = '\0';
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("your file is as it was"), _("cannot write %s: %s"), path,
                         strerror(e));
    }
    return 0;
}
