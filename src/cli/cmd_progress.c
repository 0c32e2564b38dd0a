/*
 * cmd_progress.c - `cudachef progress`: shows what the learner has done (each lesson's state, the
 * page reached, the demos run and the exercises passed), resets it, or jumps to a lesson's page so
 * that the full-screen reader opens there. The file itself is described in docs/PROGRESS.md.
 *
 *   cudachef progress [show] [--format text|json]
 *   cudachef progress reset LESSON | --all     (--all first copies the file to progress.bak)
 *   cudachef progress jump LESSON [PAGE]
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/file.h"
#include "grading/exercise.h"
#include "base/layout.h"
#include "lessons/lesson.h"
#include "lessons/progress.h"
#include "engine/report.h"
#include "base/parse.h"

static const char progress_usage[] =
    "usage: cudachef progress [show] [--format text|json]\n"
    "       cudachef progress reset LESSON | --all\n"
    "       cudachef progress jump LESSON [PAGE]\n"
    "\n"
    "Shows how far you got with each lesson (not started, started, read, demo run, exercise passed),\n"
    "the page you reached, and the demos and exercises done. reset forgets one lesson, or everything\n"
    "with --all (the old file is kept as progress.bak); jump makes the full-screen reader open LESSON\n"
    "at PAGE (counted from 1). The file is described in docs/PROGRESS.md.\n";

/* How many records of kind there are for lesson. */
static int progress_count(const progress *p, const char *kind, const char *slug)
{
    int n = 0;
    size_t klen = strlen(kind), llen = strlen(slug);
    for (size_t i = 0; i < p->count; i++)
        n += strncmp(p->lines[i], kind, klen) == 0 && p->lines[i][klen] == ' ' &&
             strncmp(p->lines[i] + klen + 1, slug, llen) == 0 && p->lines[i][klen + 1 + llen] == ' ';
    return n;
}

/* `progress show`. */
static int progress_show(const lesson_set *set, int json)
{
    progress p;
    chef_error err = {0};
    if (progress_load(&p, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    exercise_set ex;
    chef_error ignore = {0};
    if (exercise_load_all(NULL, &ex, &ignore) != 0)
        memset(&ex, 0, sizeof ex);
    char path[4200];
    progress_path(path, sizeof path, &err);
    json_t *lessons = json_array();
    i18n_lang lang = i18n_current();
    if (!json)
        printf(_("Progress (%s)\n\n"), path);
    for (int i = 0; i < set->count; i++) {
        const lesson *l = &set->lessons[i];
        progress_state state = progress_state_of(&p, l->slug);
        int page = lesson_resume_page(l, &p), pages = l->text[I18N_EN].nitems;
        int demos = progress_count(&p, "demo", l->slug), exercises = progress_count(&p, "exercise", l->slug), total = 0;
        for (int k = 0; k < ex.count; k++)
            total += strcmp(ex.items[k].lesson_id, l->id) == 0;
        if (json) {
            json_array_append_new(lessons,
                                  json_pack("{s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:i}", "number", l->number, "id", l->id,
                                            "state", progress_state_key(state), "page", page >= 0 ? page + 1 : 0, "pages",
                                            pages, "demos_run", demos, "exercises_passed", exercises, "exercises", total));
            continue;
        }
        char where[64] = "";
        if (page >= 0)
            snprintf(where, sizeof where, _("page %d of %d"), page + 1, pages);
        /* columns by display width, so Hangul lines up */
        char title[200], name[100], at[100];
        layout_fit(lesson_title(l, lang), 34, title, sizeof title);
        layout_fit(progress_state_name(state), 16, name, sizeof name);
        layout_fit(where, 14, at, sizeof at);
        printf(" %2d  %s %s %s", l->number, title, name, at);
        printf(_("demos %d of %d, exercises %d of %d\n"), demos, l->ndemos, exercises, total);
    }
    if (json) {
        json_t *doc = json_pack("{s:s, s:s, s:o}", "schema", "cudachef.progress/1", "file", path, "lessons", lessons);
        report_json_write(stdout, doc);
        json_decref(doc);
    } else {
        json_decref(lessons);
    }
    exercise_set_free(&ex);
    progress_free(&p);
    return 0;
}

/* Copies the progress file to progress.bak beside it (nothing to copy is fine). */
static int progress_backup(chef_error *err)
{
    char path[4200], bak[4300];
    if (progress_path(path, sizeof path, err) != 0)
        return -1;
    snprintf(bak, sizeof bak, "%s.bak", path);
    size_t size = 0;
    char *text = lesson_read_file(path, &size);
    if (!text)
        return 0;
    /* whole or not at all, 0600, never through a link planted at its name */
    chef_error why = {0};
    int ok = file_write_private_text(bak, text, size, &why) == 0;
    free(text);
    if (!ok)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("free some disk space or make the folder writable; nothing was reset"),
                         _("cannot keep a copy of the progress file as %s: %s"), bak, why.message);
    printf(_("The old progress is kept as %s\n"), bak);
    return 0;
}

/* `cudachef progress`. */
int cmd_progress(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, 0, 'f'},
                                         {"all", no_argument, 0, 'a'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    cli_format format = CLI_FORMAT_TEXT;
    int all = 0, c;
    chef_error err = {0};
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("progress", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        if (c == 'f') {
            if (cli_parse_format(optarg, &format, &err) != 0)
                return cli_usage_error("progress", "%s", err.message);
        } else if (c == 'a') {
            all = 1;
        } else {
            return cli_common_option(c, "progress", progress_usage, argv);
        }
    }
    const char *action = optind < argc ? argv[optind++] : "show";
    lesson_set set;
    if (lesson_load_all(lesson_default_dir(), lesson_kernels_dir(), &set, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    int code = 0;
    const lesson *l = optind < argc ? lesson_find(&set, argv[optind]) : NULL;
    if (strcmp(action, "show") == 0 && optind == argc && !all) {
        code = progress_show(&set, format == CLI_FORMAT_JSON);
    } else if (strcmp(action, "reset") == 0 && all && optind == argc) {
        code = progress_backup(&err) != 0 || progress_reset(NULL, &err) != 0 ? (chef_error_print(&err), err.exit_code) : 0;
        if (code == 0)
            printf(_("All progress is forgotten.\n"));
    } else if (strcmp(action, "reset") == 0 && !all && optind + 1 == argc) {
        if (!l)
            code = cli_usage_error("progress", "no lesson '%s' (cudachef list names them)", argv[optind]);
        else if (progress_reset(l->slug, &err) != 0)
            code = (chef_error_print(&err), err.exit_code);
        else
            printf(_("Lesson %d's progress is forgotten.\n"), l->number);
    } else if (strcmp(action, "jump") == 0 && !all && (optind + 1 == argc || optind + 2 == argc)) {
        int64_t page = 1;
        int pages = l ? l->text[I18N_EN].nitems : 0;
        char anchor[64];
        if (!l)
            code = cli_usage_error("progress", "no lesson '%s' (cudachef list names them)", argv[optind]);
        else if (optind + 2 == argc && parse_int64("PAGE", argv[optind + 1], 1, pages, &page, &err) != 0)
            code = cli_usage_error("progress", "%s", err.message);
        else if (progress_page(l->slug, (int)page - 1, pages + 1, lesson_item_anchor(l, (int)page - 1, anchor, sizeof anchor),
                               &err) != 0) /* jumping is not reading to the end */
            code = (chef_error_print(&err), err.exit_code);
        else
            printf(_("Lesson %d opens at page %lld: run cudachef (full screen) and press Enter on it, or cudachef read "
                     "%d --page %lld\n"),
                   l->number, (long long)page, l->number, (long long)page);
    } else if (strcmp(action, "reset") == 0) {
        code = cli_usage_error("progress", "reset takes one lesson, or --all");
    } else if (all) {
        code = cli_usage_error("progress", "--all goes with reset: cudachef progress reset --all");
    } else if (strcmp(action, "jump") == 0) {
        code = cli_usage_error("progress", "jump takes a lesson and, if you like, a page: cudachef progress jump 3 2");
    } else if (strcmp(action, "show") == 0) {
        code = cli_usage_error("progress", "unexpected argument '%s' (show takes none)", argv[optind]);
    } else {
        code = cli_usage_error("progress", "'%s' is not show, reset or jump (with their arguments)", action);
    }
    lesson_set_free(&set);
    return code;
}
