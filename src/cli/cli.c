/*
 * cli.c - what the commands share: usage errors that echo what was typed safely, options given
 * once, --help and --version, and --format.
 */
#include "cli/cli.h"

#include "base/cancel.h"
#include "grading/sandbox.h"

#include "base/i18n.h"
#include "engine/model.h"

#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* --model NAME of command: 0 when its device file reads, else the exit code after saying why. */
int cli_check_model(const char *command, const char *name)
{
    model_device probe;
    chef_error err = {0};
    if (model_device_load(name, &probe, &err) == 0)
        return 0;
    if (err.exit_code == CHEF_EXIT_USAGE)
        return cli_usage_error(command, "%s", err.message);
    chef_error_print(&err);
    return err.exit_code;
}

/* Parses "text" or "json". */
int cli_parse_format(const char *text, cli_format *out, chef_error *err)
{
    if (strcmp(text, "text") == 0)
        *out = CLI_FORMAT_TEXT;
    else if (strcmp(text, "json") == 0)
        *out = CLI_FORMAT_JSON;
    else
        return chef_fail(err, CHEF_EXIT_USAGE, "use --format text or --format json", "unknown format '%s'", text);
    return 0;
}

/* Prints a usage error for a command ("cudachef run: ..." + hint) and returns 2. */
int cli_usage_error(const char *command, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, i18n_get(fmt), ap); /* the English format is the key of its translation */
    va_end(ap);
    fprintf(stderr, "cudachef%s%s: ", command ? " " : "", command ? command : "");
    chef_print_clean(stderr, message);
    fprintf(stderr, _("\n  hint: see 'cudachef %s%s--help'\n"), command ? command : "", command ? " " : "");
    return CHEF_EXIT_USAGE;
}

/* The bit of option c in a cli_once record (0 when opts has no such option). */
static uint64_t cli_option_bit(const struct option *opts, int c)
{
    for (int i = 0; opts[i].name && i < 64; i++)
        if (!opts[i].flag && opts[i].val == c)
            return (uint64_t)1 << i;
    return 0;
}

/* 1 when option c was given (recorded in seen by cli_once). */
int cli_given(const struct option *opts, int c, uint64_t seen)
{
    return (seen & cli_option_bit(opts, c)) != 0;
}

/* Fails when an option is given a second time. */
int cli_once(const char *command, const struct option *opts, int c, uint64_t *seen)
{
    uint64_t bit = cli_option_bit(opts, c);
    if (*seen & bit) {
        int i = 0;
        while (!(bit >> i & 1))
            i++;
        return cli_usage_error(command, "--%s was given twice; give each option once", opts[i].name);
    }
    *seen |= bit;
    return 0;
}

static struct chef_cancel *cli_stop_token;
static volatile sig_atomic_t cli_stop_signal;

/* A stop signal: the work's token is asked to stop (async-signal-safe: an atomic store and a kill). */
static void cli_on_stop_signal(int sig)
{
    cli_stop_signal = sig;
    cancel_request(cli_stop_token);
}

/* SIGINT, SIGTERM and SIGHUP ask token to stop. */
void cli_stop_on_signals(struct chef_cancel *token)
{
    cli_stop_token = token;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cli_on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* The signal that asked the work to stop. */
int cli_stopped_by(void)
{
    return cli_stop_signal;
}

/* "cudachef COMMAND: stopped (SIGNAME)", and 128 + the signal. */
int cli_stopped(const char *command)
{
    int sig = cli_stop_signal ? cli_stop_signal : SIGINT;
    fprintf(stderr, _("cudachef %s: stopped (%s): the learner's code was ended with its sandbox\n"), command,
            sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
    return 128 + sig;
}

/* `--sandbox bwrap|none`. */
int cli_sandbox_option(const char *command, const char *value)
{
    if (strcmp(value, "bwrap") == 0)
        sandbox_set_policy(SANDBOX_REQUIRE);
    else if (strcmp(value, "none") == 0)
        sandbox_set_policy(SANDBOX_NONE);
    else
        return cli_usage_error(command, "--sandbox is bwrap or none, not '%s'", value);
    return 0;
}

/* Handles what every command shares: --help, --version and getopt's complaints. */
int cli_common_option(int c, const char *command, const char *usage, char **argv)
{
    switch (c) {
    case 'h':
        fputs(_(usage), stdout);
        return 0;
    case 'V':
        printf("cudachef %s\n", CHEF_VERSION);
        return 0;
    case ':':
        return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
    default:
        break;
    }
    /* getopt leaves optind past the word it finished: inside a cluster of short options (-xy) the
       word is still argv[optind]; a long option given a value it does not take sets optopt */
    const char *word = argv[optind - 1];
    if (optopt && argv[optind] && argv[optind][0] == '-' && argv[optind][1] != '-' && strchr(argv[optind], optopt))
        word = NULL;
    if (word && strncmp(word, "--", 2) == 0) {
        const char *eq = strchr(word, '=');
        if (optopt && eq)
            return cli_usage_error(command, "%.*s takes no value", (int)(eq - word), word);
        return cli_usage_error(command, "unknown option '%s'", word);
    }
    if (optopt)
        return cli_usage_error(command, "unknown option '-%c'", optopt);
    return cli_usage_error(command, "unknown option '%s'", word ? word : "?");
}

/* Says once that progress could not be saved. */
void cli_progress_not_saved(const chef_error *perr)
{
    static int said;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, _("cudachef: progress not saved: %s\n  hint: %s\n"), perr->message, perr->hint);
}
