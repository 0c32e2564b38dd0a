/*
 * cmd_init.c - `cudachef init [DIR]` makes the learner's workspace (a copy of every exercise's
 * starting kernel; files already there are kept), and `cudachef reset EXERCISE` puts one exercise
 * back as it started, keeping the learner's version beside it (workspace.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "grading/exercise.h"
#include "grading/workspace.h"

static const char init_usage[] =
    "usage: cudachef init [DIR]\n"
    "\n"
    "Makes your workspace: DIR (default: $CUDACHEF_WORKSPACE, else ~/cudachef-kitchen) gets a copy of\n"
    "every exercise's starting kernel, DIR/LESSON/NAME.cu. Files already there are kept, so running it\n"
    "again only adds new exercises. Then edit a kernel and check it: cudachef grade NAME.\n";

static const char reset_usage[] =
    "usage: cudachef reset EXERCISE [--workspace DIR]\n"
    "\n"
    "Puts an exercise's kernel back as it started. Your version is kept beside it as NAME.cu.N.bak.\n";

/* Parses the options every command shares plus --workspace (reset only); returns -1 to go on, else
   the exit code. */
static int init_options(int argc, char **argv, int reset, const char **workspace)
{
    static const struct option opts[] = {{"workspace", required_argument, 0, 'w'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    int c;
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once((reset ? "reset" : "init"), opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        if (c == 'w' && reset)
            *workspace = optarg;
        else if (reset)
            return cli_common_option(c, "reset", reset_usage, argv);
        else
            return cli_common_option(c, "init", init_usage, argv);
    }
    return -1;
}

/* `cudachef init [DIR]`. */
int cmd_init(int argc, char **argv)
{
    int code = init_options(argc, argv, 0, NULL);
    if (code >= 0)
        return code;
    if (argc - optind > 1)
        return cli_usage_error("init", "init takes one folder, not %d", argc - optind);
    char dir[4096];
    chef_error err = {0};
    exercise_set set;
    if (optind < argc && !argv[optind][0])
        return cli_usage_error("init", "the folder's name is empty");
    if (optind < argc && strlen(argv[optind]) >= sizeof dir)
        return cli_usage_error("init", "the folder's name is longer than %zu bytes: choose a shorter one",
                               sizeof dir - 1); /* cut, it would name another folder: nothing is made */
    if (optind < argc)
        snprintf(dir, sizeof dir, "%s", argv[optind]);
    else if (workspace_default(dir, sizeof dir, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    int made = 0;
    if (exercise_load_all(NULL, &set, &err) != 0 || workspace_init(dir, &set, &made, &err) != 0) {
        chef_error_print(&err);
        exercise_set_free(&set);
        return err.exit_code;
    }
    const char *first = NULL;
    int broken = exercise_broken_count(&set, &first);
    printf(_("Your workspace is %s: %d new exercise files, %d in all.\n"), dir, made, set.count - broken);
    for (int i = 0; i < set.count; i++) {
        const exercise *ex = &set.items[i];
        if (!ex->broken)
            printf("  %s/%s.cu  %s\n", ex->lesson_id, ex->name, exercise_title(ex, i18n_current()));
    }
    for (int i = 0; i < set.count; i++) /* the others are all there: a broken one is left out, and said */
        if (set.items[i].broken)
            fprintf(stderr, _("cudachef init: left out %s, which is broken: %s\n"), set.items[i].name,
                    set.items[i].broken);
    printf(_("Edit one, then check it: cudachef grade NAME (all of them: cudachef grade).\n"));
    exercise_set_free(&set);
    return 0;
}

/* `cudachef reset EXERCISE`. */
int cmd_reset(int argc, char **argv)
{
    const char *given = NULL;
    int code = init_options(argc, argv, 1, &given);
    if (code >= 0)
        return code;
    if (argc - optind != 1)
        return cli_usage_error("reset", "name one exercise to put back as it started");
    char dir[4096], saved[4600];
    chef_error err = {0};
    exercise_set set;
    if (workspace_resolve(given, dir, sizeof dir, &err) != 0 || exercise_load_all(NULL, &set, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    const exercise *ex = exercise_find(&set, argv[optind]);
    if (!ex) {
        exercise_set_free(&set);
        return cli_usage_error("reset", "no exercise '%s' (cudachef init lists them)", argv[optind]);
    }
    if (workspace_reset(dir, ex, saved, sizeof saved, &err) != 0) {
        chef_error_print(&err);
        exercise_set_free(&set);
        return err.exit_code;
    }
    if (saved[0])
        printf(_("%s is back as it started; your version is %s\n"), ex->name, saved);
    else
        printf(_("%s is back as it started\n"), ex->name);
    exercise_set_free(&set);
    return 0;
}
