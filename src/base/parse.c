/*
 * parse.c - strict parsing of numbers typed by people (parse.h): no silent wrap-around, no
 * trailing junk.
 */
#include "base/parse.h"

#include <string.h>

/* Parses a whole number from min to max (see parse.h). */
int parse_int64(const char *option, const char *text, int64_t min, int64_t max, int64_t *out,
                chef_error *err)
{
    const char *hint = "give a whole number such as 1000000 (or 2^20)";
    if (!text || !*text)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "%s needs a value", option);
    int64_t value = 0;
    if (strncmp(text, "2^", 2) == 0) {
        int64_t k;
        if (parse_int64(option, text + 2, 0, 62, &k, NULL) != 0)
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
