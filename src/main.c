/*
 * main.c - cudachef's entry point: picks the command and runs it.
 *
 * cudachef teaches CUDA with a kitchen: the CPU is the head chef, the GPU a kitchen of thousands
 * of cooks. Commands: info (meet your kitchen), list (what can be cooked), run (the five steps).
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "chef.h"
#include "cli.h"

static const char main_usage[] =
    "usage: cudachef COMMAND [options]\n"
    "\n"
    "cudachef teaches CUDA GPU programming in a kitchen: the CPU is the head chef who works one\n"
    "step at a time, the GPU a kitchen of thousands of cooks who each do one small step at once.\n"
    "\n"
    "Commands:\n"
    "  info     meet your kitchen: the GPU (or the CPU emulator) that will cook\n"
    "  list     what can be cooked\n"
    "  run      run CUDA's five steps for a recipe, e.g. cudachef run vector-add --n 4 --threads-per-block 4\n"
    "\n"
    "Every command takes --help and --version. Exit codes: docs/EXIT-CODES.md.\n";

/* Runs one command (argv[1]) and returns its exit code. */
static int main_dispatch(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    if (argc < 2) {
        fputs(main_usage, stderr);
        return CHEF_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(main_usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("cudachef %s\n", CHEF_VERSION);
        return 0;
    }
    if (strcmp(cmd, "info") == 0)
        return cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    return cli_usage_error(NULL, "unknown command '%s' (commands: info, list, run)", cmd);
}

/* Runs the command, then makes sure what it printed really reached standard output. */
int main(int argc, char **argv)
{
    int code = main_dispatch(argc, argv);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cudachef: could not write to standard output: %s\n  hint: check the disk or the pipe it goes to\n",
                strerror(errno));
        if (code <= CHEF_EXIT_WRONG)
            code = CHEF_EXIT_ENVIRONMENT;
    }
    return code;
}
