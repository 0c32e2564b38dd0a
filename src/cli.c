/*
 * cli.c - strict parsing of command-line values: no silent wrap-around, no trailing junk.
 */
#include "cli.h"

#include "i18n.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cli_parse_int64(const char *option, const char *text, int64_t min, int64_t max, int64_t *out,
                    chef_error *err)
{
    const char *hint = "give a whole number such as 1000000 (or 2^20)";
    if (!text || !*text)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s needs a value", option);
    int64_t value = 0;
    if (strncmp(text, "2^", 2) == 0) {
        int64_t k;
        if (cli_parse_int64(option, text + 2, 0, 62, &k, NULL) != 0)
            return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a number", option, text);
        value = (int64_t)1 << k;
    } else {
        const char *s = text;
        int negative = 0, digits = 0;
        if (*s == '-' || *s == '+')
            negative = *s++ == '-';
        for (; *s; s++) {
            if (*s == '_' && digits > 0 && s[1] >= '0' && s[1] <= '9')
                continue;
            if (*s < '0' || *s > '9')
                return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a whole number", option, text);
            if (value > (INT64_MAX - (*s - '0')) / 10)
                return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too large: use at most %lld", option,
                                 text, (long long)max);
            value = value * 10 + (*s - '0');
            digits++;
        }
        if (digits == 0)
            return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a whole number", option, text);
        if (negative)
            value = -value;
    }
    if (value < min)
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too small: use at least %lld", option, text,
                         (long long)min);
    if (value > max)
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too large: use at most %lld", option, text,
                         (long long)max);
    *out = value;
    return 0;
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
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cudachef%s%s: ", command ? " " : "", command ? command : "");
    vfprintf(stderr, i18n_get(fmt), ap); /* the English format is the key of its translation */
    va_end(ap);
    fprintf(stderr, _("\n  hint: see 'cudachef %s%s--help'\n"), command ? command : "", command ? " " : "");
    return CHEF_EXIT_USAGE;
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
        return cli_usage_error(command, "unknown option '%s'", argv[optind - 1]);
    }
}
