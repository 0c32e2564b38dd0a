/*
 * cmd_exercise.c - `cudachef exercise NAME`: an exercise's task, its hints one at a time, and its
 * reference solution, which is shown only once the exercise has passed (the progress file says so)
 * or on an explicit --spoil, after a warning that it gives the answer away.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "grading/exercise.h"
#include "lessons/lesson.h"
#include "lessons/progress.h"
#include "grading/workspace.h"
#include "base/parse.h"

static const char exercise_usage[] =
    "usage: cudachef exercise NAME [--hint K] [--solution [--spoil]]\n"
    "\n"
    "Prints an exercise's task and where your file is. --hint K prints its K-th hint (they go from\n"
    "gentle to almost the answer). --solution prints the reference solution once you have passed the\n"
    "exercise; before that it needs --spoil, because it gives the answer away.\n";

/* 1 when the progress file says the exercise passed. */
static int exercise_passed(const exercise *ex)
{
    progress p;
    chef_error err = {0};
    if (progress_load(&p, &err) != 0)
        return 0;
    char want[400];
    const char *slug = strchr(ex->lesson_id, '-') ? strchr(ex->lesson_id, '-') + 1 : ex->lesson_id;
    snprintf(want, sizeof want, "exercise %s %s", slug, ex->name);
    int found = 0;
    for (size_t i = 0; i < p.count; i++)
        found |= strcmp(p.lines[i], want) == 0;
    progress_free(&p);
    return found;
}

/* `cudachef exercise NAME ...`. */
int cmd_exercise(int argc, char **argv)
{
    static const struct option opts[] = {{"hint", required_argument, 0, 'k'},
                                         {"solution", no_argument, 0, 's'},
                                         {"spoil", no_argument, 0, 'p'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    int64_t hint = 0;
    int solution = 0, spoil = 0, c;
    chef_error err = {0};
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("exercise", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        if (c == 'k') {
            if (parse_int64("--hint", optarg, 1, EXERCISE_MAX_HINTS, &hint, &err) != 0)
                return cli_usage_error("exercise", "%s", err.message);
        } else if (c == 's') {
            solution = 1;
        } else if (c == 'p') {
            spoil = 1;
        } else {
            return cli_common_option(c, "exercise", exercise_usage, argv);
        }
    }
    if (hint && solution)
        return cli_usage_error("exercise", "--hint and --solution cannot go together: ask for one");
    if (spoil && !solution)
        return cli_usage_error("exercise", "--spoil goes with --solution");
    if (argc - optind != 1)
        return cli_usage_error("exercise", "name one exercise (cudachef init lists them)");
    exercise_set set;
    if (exercise_load_all(NULL, &set, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    const exercise *ex = exercise_find(&set, argv[optind]);
    int code = 0;
    if (!ex) {
        code = cli_usage_error("exercise", "no exercise '%s' (cudachef init lists them)", argv[optind]);
    } else if (ex->broken) {
        fprintf(stderr, _("cudachef exercise: %s is broken: %s\n  hint: tell the exercise's author (cudachef list --check "
                          "names every problem)\n"),
                ex->name, ex->broken);
        code = CHEF_EXIT_USAGE; /* as for a broken lesson */
    } else if (hint) {
        char *hints[EXERCISE_MAX_HINTS];
        int n = exercise_hints(ex, i18n_current(), hints);
        if (hint > n)
            code = cli_usage_error("exercise", "%s has %d hints", ex->name, n);
        else
            printf("%s\n", hints[hint - 1]);
        for (int i = 0; i < n; i++)
            free(hints[i]);
    } else if (solution) {
        if (!exercise_passed(ex) && !spoil) {
            fprintf(stderr, _("cudachef: %s has not passed yet: its solution would give the answer away\n"
                              "  hint: pass it first (cudachef grade %s), or add --spoil to see it anyway\n"),
                    ex->name, ex->name);
            code = CHEF_EXIT_USAGE;
        } else {
            char path[4400];
            exercise_file(ex, "solution.cu", path, sizeof path);
            char *text = lesson_read_file(path, NULL);
            if (!exercise_passed(ex))
                printf(_("/* The answer, before you passed the exercise: try it yourself first. */\n"));
            fputs(text ? text : "", stdout);
            free(text);
        }
    } else {
        char *task = exercise_text(ex, "task", i18n_current());
        char ws[4096], path[4400];
        fputs(task ? task : "", stdout);
        free(task);
        if (workspace_default(ws, sizeof ws, &err) == 0) {
            workspace_exercise_path(ws, ex, path, sizeof path);
            printf(_("\nYour file: %s (cudachef init makes it)\nCheck it: cudachef grade %s   Hints: cudachef "
                     "exercise %s --hint 1\n"),
                   path, ex->name, ex->name);
        }
    }
    exercise_set_free(&set);
    return code;
}
