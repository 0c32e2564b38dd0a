/*
 * cli.h - command-line helpers shared by the commands: strict number parsing and usage errors.
 */
#ifndef CUDACHEF_CLI_H
#define CUDACHEF_CLI_H

#include <stdint.h>

#include "chef.h"

typedef enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_JSON } cli_format;

/* Parses a whole number from min to max: digits (with optional _ separators) or 2^K.
   On failure fills err (exit code 2) naming the option. */
int cli_parse_int64(const char *option, const char *text, int64_t min, int64_t max, int64_t *out,
                    chef_error *err);

/* Parses "text" or "json". */
int cli_parse_format(const char *text, cli_format *out, chef_error *err);

/* Prints a usage error for a command ("cudachef run: ..." + hint) and returns 2. */
int cli_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Handles the options and errors every command shares ('h' --help, 'V' --version, ':' a missing
   value, anything else unknown); returns the exit code the command should return. */
int cli_common_option(int c, const char *command, const char *usage, char **argv);

/* The commands (each parses its own options). */
int cmd_info(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_grade(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_progress(int argc, char **argv);
int cmd_exercise(int argc, char **argv);
int cmd_try(int argc, char **argv);

#endif
