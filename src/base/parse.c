/*
 * parse.c - strict parsing of numbers typed by people (parse.h): no silent wrap-around, no
 * trailing junk.
 */
#include "base/parse.h"

#include <string.h>

/* parse_int64's work; messages echo shown (what was typed, cut when it is long). */
static int parse_int64_as(const char *option, const char *text, const char *shown, int64_t min, int64_t max,
                          int64_t *out, chef_error *err)
{
    const char *hint = "give a whole number such as 1000000 (or 2^20)";
    if (!text || !*text)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s needs a value", option);
    int64_t value = 0;
    if (strncmp(text, "2^", 2) == 0) {
        int64_t k;
        chef_error why = {0};
        if (parse_int64_as(option, text + 2, shown, 0, INT64_MAX, &k, &why) != 0 && !strstr(why.message, "too large"))
            return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a number", option, shown);
        if (why.message[0] || k > 62) /* 2^99, or 2^ of a number too large to read: too large all the same */
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too large: use at most %lld", option, shown,
                             (long long)max);
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
                return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a whole number", option, shown);
            if (value > (INT64_MAX - (*s - '0')) / 10) {
                for (; *s >= '0' && *s <= '9'; s++) {
                }
                if (*s) /* junk after the digits: not a number, however long */
                    return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a whole number", option, shown);
                return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too large: use at most %lld", option, shown,
                                 (long long)max);
            }
            value = value * 10 + (*s - '0');
            digits++;
        }
        if (digits == 0)
            return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s: '%s' is not a whole number", option, shown);
        if (negative)
            value = -value;
    }
    if (value < min)
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too small: use at least %lld", option, shown,
                         (long long)min);
    if (value > max)
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, "%s %s is too large: use at most %lld", option, shown,
                         (long long)max);
    *out = value;
    return 0;
}

/* Parses a whole number from min to max (see parse.h). */
int parse_int64(const char *option, const char *text, int64_t min, int64_t max, int64_t *out, chef_error *err)
{
    char shown[48]; /* a 100,000-digit number must not push the reason out of the message */
    if (text && strlen(text) > 40)
        snprintf(shown, sizeof shown, "%.32s...", text);
    else
        snprintf(shown, sizeof shown, "%s", text ? text : "");
    return parse_int64_as(option, text, shown, min, max, out, err);
}
