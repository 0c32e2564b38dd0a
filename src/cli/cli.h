/*
 * cli.h - what the commands share (usage errors, options given once, --help, --format) and the
 * commands themselves, each in a file of its own (cli/cmd_NAME.c).
 */
#ifndef CUDACHEF_CLI_H
#define CUDACHEF_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "base/chef.h"

typedef enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_JSON } cli_format;

/* Parses "text" or "json". */
int cli_parse_format(const char *text, cli_format *out, chef_error *err);

/* --model NAME of command: 0 when assets/devices/ has a readable NAME.ini, else the exit code
   after the one-line error (a usage error for a name it lacks). */
int cli_check_model(const char *command, const char *name);

/* Prints a usage error for a command ("cudachef run: ..." + hint) and returns 2. What the user
   typed is echoed safely: bytes that are not UTF-8 and control characters are written as \xNN. */
int cli_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Options are given once: returns 0 the first time option c (a getopt_long value of opts) is seen
   in *seen (one bit per entry of opts), else prints the usage error for command and returns 2. */
int cli_once(const char *command, const struct option *opts, int c, uint64_t *seen);

/* 1 when option c (a getopt_long value of opts) was given, as cli_once recorded it in seen. */
int cli_given(const struct option *opts, int c, uint64_t seen);

/* `--sandbox bwrap|none` of grade and try: sets the process's sandbox policy (bwrap insists on
   bubblewrap; none runs learner code without a box, and reports say so). 0, or 2 after the usage
   error. */
int cli_sandbox_option(const char *command, const char *value);

/* Says once per process that progress could not be saved (perr's reason and hint): a lesson of
   six demos without a state folder warns once, not six times. */
void cli_progress_not_saved(const chef_error *perr);

/* From now on SIGINT, SIGTERM and SIGHUP ask token to stop (the work ends its sandboxed child at
   once) instead of killing the process, so the command can say it was stopped. */
struct chef_cancel;
void cli_stop_on_signals(struct chef_cancel *token);

/* The signal that asked the work to stop (0: none). */
int cli_stopped_by(void);

/* Prints "cudachef COMMAND: stopped (SIGNAME)" and returns the exit code for it: 128 + the signal. */
int cli_stopped(const char *command);

/* Handles the options and errors every command shares ('h' --help, 'V' --version, ':' a missing
   value, anything else unknown); returns the exit code the command should return. */
int cli_common_option(int c, const char *command, const char *usage, char **argv);

/* The commands (each parses its own options). */
int cmd_info(int argc, char **argv);
int cmd_inside(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_grade(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_progress(int argc, char **argv);
int cmd_exercise(int argc, char **argv);
int cmd_try(int argc, char **argv);
int cmd_try_kitchen_box(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
