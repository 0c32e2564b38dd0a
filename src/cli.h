/*
 * cli.h - command-line helpers shared by the commands: strict number parsing and usage errors.
 */
#ifndef CUDACHEF_CLI_H
#define CUDACHEF_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "chef.h"

typedef enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_JSON } cli_format;

/* Parses a whole number from min to max: digits (with optional _ separators) or 2^K.
   On failure fills err (exit code 2) naming the option. */
int cli_parse_int64(const char *option, const char *text, int64_t min, int64_t max, int64_t *out,
                    chef_error *err);

/* Parses "text" or "json". */
int cli_parse_format(const char *text, cli_format *out, chef_error *err);

/* Prints a usage error for a command ("cudachef run: ..." + hint) and returns 2. What the user
   typed is echoed safely: bytes that are not UTF-8 and control characters are written as \xNN. */
int cli_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Options are given once: returns 0 the first time option c (a getopt_long value of opts) is seen
   in *seen (one bit per entry of opts), else prints the usage error for command and returns 2. */
int cli_once(const char *command, const struct option *opts, int c, uint64_t *seen);

/* Writes a file whole with writer(f, ctx) (0 or -1): a regular file, or a new one, through a
   temporary file beside it renamed into place, so it holds the old or the new text; anything else
   (a device, a pipe, a link) is written as it is and never replaced. 0, or -1 with err (exit 5). */
int cli_write_file(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, chef_error *err);

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
