/*
 * cli.c - strict parsing of command-line values: no silent wrap-around, no trailing junk.
 */
#include "cli.h"

#include "i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Fails when an option is given a second time. */
int cli_once(const char *command, const struct option *opts, int c, uint64_t *seen)
{
    for (int i = 0; opts[i].name && i < 64; i++) {
        if (opts[i].flag || opts[i].val != c)
            continue;
        if (*seen & ((uint64_t)1 << i))
            return cli_usage_error(command, "--%s was given twice; give each option once", opts[i].name);
        *seen |= (uint64_t)1 << i;
        return 0;
    }
    return 0;
}

/* Writes path whole: through a temporary file when it is (or will be) a regular file. */
int cli_write_file(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, chef_error *err)
{
    const char *hint = "check the folder exists and is writable, and that the disk is not full";
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* /dev/stdout, a pipe, a link: written in place, never renamed over */
        FILE *f = fopen(path, "w");
        int rc = f ? writer(f, ctx) : -1;
        int e = errno;
        if (f && fclose(f) != 0 && rc == 0) {
            rc = -1;
            e = errno;
        }
        return rc == 0 ? 0 : chef_fail(err, CHEF_EXIT_ENVIRONMENT, hint, "cannot write %s: %s", path, strerror(e));
    }
    size_t len = strlen(path) + 32;
    char *tmp = malloc(len);
    if (!tmp)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, hint, "cannot write %s: %s", path, strerror(ENOMEM));
    snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int rc = f ? writer(f, ctx) : -1;
    int e = errno;
    if (!f && fd >= 0)
        close(fd);
    if (f && fclose(f) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0 && fd >= 0)
        unlink(tmp);
    free(tmp);
    return rc == 0 ? 0 : chef_fail(err, CHEF_EXIT_ENVIRONMENT, hint, "cannot write %s: %s", path, strerror(e));
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
