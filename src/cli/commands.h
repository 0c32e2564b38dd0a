/*
 * commands.h - the table of cudachef's commands, as tmux keeps its cmd_entry table: each command
 * is a file of its own (cli/cmd_NAME.c) and one row here. main.c dispatches through the table, and
 * --help and the answer to an unknown command are made from it, so they name every command.
 */
#ifndef CUDACHEF_CLI_COMMANDS_H
#define CUDACHEF_CLI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

/* One command: its name, what runs it, and its line in --help (English, looked up in the
   learner's language; a "\n" goes on in an indented second line). A hidden command is left out of
   --help and of the list of commands (the child that runs a learner's kernel). */
typedef struct cli_command {
    const char *name;
    int (*exec)(int argc, char **argv); /* argv[0] is the command's name */
    const char *summary;
    int hidden;
} cli_command;

/* Every command, ending with a row whose name is NULL. */
extern const cli_command cli_commands[];

/* The command called name, or NULL. */
const cli_command *cli_command_find(const char *name);

/* Writes `cudachef --help`: what cudachef is, every command with its line, and what they share. */
void cli_commands_usage(FILE *out);

/* The names of the commands people use, as "info, list, ...", into out. */
void cli_commands_names(char *out, size_t size);

#endif
