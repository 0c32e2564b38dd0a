/*
 * commands.c - the table of cudachef's commands (commands.h). Adding a command: write
 * cli/cmd_NAME.c with int cmd_NAME(int argc, char **argv), declare it in cli/cli.h and add its row
 * here; --help, the unknown-command answer and main.c's dispatch follow from the row.
 */
#include "cli/commands.h"

#include <string.h>

#include "base/i18n.h"
#include "cli/cli.h"
#include "grading/exercise_check.h"
#include "grading/sandbox.h"

/* The commands in the order --help lists them. */
const cli_command cli_commands[] = {
    {"info", cmd_info, N_("meet your kitchen: the GPU (or the CPU emulator) that will cook"), 0},
    {"list", cmd_list, N_("the lessons and the recipes; --check checks every lesson file"), 0},
    {"read", cmd_read, N_("read a lesson: cudachef read 1"), 0},
    {"inside", cmd_inside,
     N_("look inside a recipe's kernel: its recipe card, PTX and SASS (cudachef inside matmul-tiled)"), 0},
    {"run", cmd_run,
     N_("run a lesson's live demos (cudachef run 2) or a recipe's five steps\n"
        "(cudachef run vector-add --n 4 --threads-per-block 4)"),
     0},
    {"init", cmd_init, N_("make your workspace: a copy of every exercise's kernel to complete"), 0},
    {"grade", cmd_grade, N_("check exercises: cudachef grade bounds-check (--format json|junit|tap for graders)"), 0},
    {"exercise", cmd_exercise, N_("an exercise's task, hints and (once passed) solution: cudachef exercise bounds-check"), 0},
    {"reset", cmd_reset, N_("put an exercise back as it started (your version is kept)"), 0},
    {"progress", cmd_progress, N_("what you have done; reset it, or jump to a lesson's page"), 0},
    {"try", cmd_try, N_("cook your own kernel through the five steps: cudachef try my_add.cu"), 0},
    {"bench", cmd_bench,
     N_("the CPU against the GPU over matrix sizes, and copies from 4 KiB to 1 GiB:\n"
        "tables and log-log charts of this machine (--format json|csv for programs)"),
     0},
    /* the child process that runs a learner's kernel under limits (grading/exercise_runner.c) */
    {"__check", exercise_runner_main, NULL, 1},
    /* try --kitchen's full-screen kitchen, inside a sandbox with the terminal (cli/cmd_try.c) */
    {"__kitchen", cmd_try_kitchen_box, NULL, 1},
    /* the first process inside a sandbox, holding its limits (grading/sandbox.c) */
    {"__sandbox", sandbox_init_main, NULL, 1},
    {NULL, NULL, NULL, 0}};

/* The command called name, or NULL. */
const cli_command *cli_command_find(const char *name)
{
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

/* Writes one command's line of --help: the name in a column of 8, the summary, and its second
   line, if any, under the first. */
static void cli_commands_line(FILE *out, const cli_command *c)
{
    const char *text = _(c->summary);
    size_t first = strcspn(text, "\n");
    fprintf(out, "  %-8s %.*s\n", c->name, (int)first, text);
    for (const char *p = text + first; *p == '\n';) {
        p++;
        size_t len = strcspn(p, "\n");
        fprintf(out, "%11s%.*s\n", "", (int)len, p);
        p += len;
    }
}

/* Writes `cudachef --help`. */
void cli_commands_usage(FILE *out)
{
    fputs(_("usage: cudachef COMMAND [options]\n"
            "\n"
            "cudachef teaches CUDA GPU programming in a kitchen: the CPU is the head chef who works one\n"
            "step at a time, the GPU a kitchen of thousands of cooks who each do one small step at once.\n"
            "\n"
            "Commands:\n"),
          out);
    for (const cli_command *c = cli_commands; c->name; c++)
        if (!c->hidden)
            cli_commands_line(out, c);
    fputs(_("\n"
            "Every command takes --help, --version and --lang en|ko (default from LANG). Exit codes:\n"
            "docs/EXIT-CODES.md.\n"),
          out);
}

/* The names of the commands people use, as "info, list, ...". */
void cli_commands_names(char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (const cli_command *c = cli_commands; c->name && used < size; c++)
        if (!c->hidden)
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? ", " : "", c->name);
}
