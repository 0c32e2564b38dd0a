/*
 * cmd_list.c - `cudachef list`: the lessons and the recipes; `--check` checks every lesson file.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "grading/exercise.h"
#include "base/i18n.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"
#include "engine/report.h"

static const char list_usage[] =
    "usage: cudachef list [--check] [--format text|json]\n"
    "\n"
    "Lists the lessons (`cudachef read N` to read one, `cudachef run N` to run its demos) and the\n"
    "recipes (`cudachef run NAME`).\n"
    "\n"
    "  --check    check every lesson file and print each problem as FILE:LINE: message;\n"
    "             exit 1 if there is one (docs/LESSONS.md describes the format)\n"
    "\n"
    "Lessons are read from the folder in CUDACHEF_LESSONS, else from lessons/ next to the program.\n";

/* Prints each problem found in the lesson files as FILE:LINE: message. */
static void list_problems(FILE *out, const lesson_set *set)
{
    for (int i = 0; i < set->nproblems; i++) {
        const lesson_problem *p = &set->problems[i];
        if (p->line > 0)
            fprintf(out, "%s:%d: %s\n", lesson_display_path(p->file), p->line, p->message);
        else
            fprintf(out, "%s: %s\n", lesson_display_path(p->file), p->message);
    }
}

/* Adds a broken exercise's "FILE:LINE: message" (or "FILE: message") to the lessons' problems. */
static void list_add_broken(lesson_set *set, const char *why)
{
    char file[4400];
    const char *colon = strstr(why, ": ");
    size_t n = colon ? (size_t)(colon - why) : 0;
    snprintf(file, sizeof file, "%.*s", (int)n, why);
    int line = 0;
    char *at = strrchr(file, ':');
    if (at && at[1] >= '0' && at[1] <= '9') {
        line = atoi(at + 1);
        *at = '\0';
    }
    lesson_problem_add(set, colon ? file : "exercises", line, "%s", colon ? colon + 2 : why);
}

/* `cudachef list [--format text|json]`. */
int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, 0, 'f'},
                                         {"check", no_argument, 0, 'c'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    cli_format format = CLI_FORMAT_TEXT;
    chef_error err = {0};
    int c, check = 0;
    optind = 1;
    opterr = 0;
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("list", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        switch (c) {
        case 'c':
            check = 1;
            break;
        case 'f':
            if (cli_parse_format(optarg, &format, &err) != 0)
                return cli_usage_error("list", "%s", err.message);
            break;
        default:
            return cli_common_option(c, "list", list_usage, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("list", "unexpected argument '%s'", argv[optind]);
    lesson_set set;
    if (lesson_load_all(lesson_default_dir(), lesson_kernels_dir(), &set, &err) != 0) {
        chef_error_print(&err);
        if (check || format == CLI_FORMAT_JSON)
            return err.exit_code;
        /* without lessons the recipes can still be listed and run */
    }
    i18n_lang lang = i18n_current();
    if (check) { /* the exercises too: each broken one is a problem of its exercise.ini */
        exercise_set exercises;
        chef_error eerr = {0};
        if (exercise_load_all(NULL, &exercises, &eerr) != 0) {
            lesson_problem_add(&set, "exercises", 0, "%s", eerr.message);
        } else {
            for (int i = 0; i < exercises.count; i++)
                if (exercises.items[i].broken)
                    list_add_broken(&set, exercises.items[i].broken);
            exercise_set_free(&exercises);
        }
    }
    if (check) {
        int code = set.nproblems ? CHEF_EXIT_WRONG : CHEF_EXIT_OK;
        if (format == CLI_FORMAT_JSON) {
            json_t *problems = json_array();
            for (int i = 0; i < set.nproblems; i++)
                json_array_append_new(problems, json_pack("{s:s, s:i, s:s}", "file", set.problems[i].file, "line",
                                                          set.problems[i].line, "message", set.problems[i].message));
            json_t *o = json_pack("{s:s, s:i, s:o}", "schema", REPORT_CHECK_SCHEMA, "lessons", set.count, "problems",
                                  problems);
            if (report_json_write(stdout, o) != 0)
                code = CHEF_EXIT_ENVIRONMENT;
            json_decref(o);
        } else {
            list_problems(stdout, &set);
            printf(_("lessons loaded: %d, problems: %d\n"), set.count, set.nproblems);
        }
        lesson_set_free(&set);
        return code;
    }
    /* a broken lesson does not stop the others: its problems go to stderr */
    list_problems(stderr, &set);
    const recipe *const *all = recipe_all();
    if (format == CLI_FORMAT_JSON) {
        json_t *items = json_array();
        for (int i = 0; i < set.count; i++) {
            const lesson *l = &set.lessons[i];
            json_t *demos = json_array();
            for (int d = 0; d < l->ndemos; d++)
                json_array_append_new(demos, json_pack("{s:s, s:s, s:s}", "name", l->demos[d].name, "kind",
                                                       lesson_demo_kind_name(l->demos[d].kind), "title",
                                                       l->demos[d].title[lang]));
            json_array_append_new(items, json_pack("{s:s, s:s, s:i, s:s, s:s, s:i, s:i, s:o}", "name", l->id, "kind",
                                                   "lesson", "number", l->number, "title", l->title[lang], "summary",
                                                   l->summary[lang] ? l->summary[lang] : "", "pages",
                                                   l->text[lang].npages, "questions", l->text[lang].nquestions,
                                                   "demos", demos));
        }
        for (int i = 0; all[i]; i++)
            json_array_append_new(items, json_pack("{s:s, s:s, s:s, s:s, s:I, s:i}", "name", all[i]->name, "kind",
                                                   "recipe", "kernel", all[i]->kernel, "summary", _(all[i]->summary),
                                                   "default_n", (json_int_t)all[i]->default_n,
                                                   "default_threads_per_block", all[i]->default_threads_per_block));
        json_t *o = json_pack("{s:s, s:s, s:o}", "schema", REPORT_LIST_SCHEMA, "lang", i18n_code(lang), "items", items);
        int rc = report_json_write(stdout, o);
        json_decref(o);
        lesson_set_free(&set);
        return rc == 0 ? 0 : CHEF_EXIT_ENVIRONMENT;
    }
    printf("%s\n\n", _("Lessons (cudachef read N to read one, cudachef run N to run its demos):"));
    for (int i = 0; i < set.count; i++) {
        const lesson *l = &set.lessons[i];
        printf("  %2d  %s\n", l->number, l->title[lang]);
        if (l->summary[lang])
            printf("      %s\n", l->summary[lang]);
    }
    if (set.count == 0)
        printf("  %s\n", _("(no lessons found)"));
    printf("\n%s\n\n", _("Recipes (cudachef run NAME):"));
    for (int i = 0; all[i]; i++)
        printf("  %-30s %s\n", all[i]->name, _(all[i]->summary));
    lesson_set_free(&set);
    return 0;
}
