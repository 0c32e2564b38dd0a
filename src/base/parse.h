/*
 * parse.h - strict parsing of numbers typed by people: on the command line and in lesson files.
 */
#ifndef CUDACHEF_BASE_PARSE_H
#define CUDACHEF_BASE_PARSE_H

#include <stdint.h>

#include "base/chef.h"

/* Parses a whole number from min to max: digits (with optional _ separators) or 2^K.
   On failure fills err (exit code 2) naming the option. */
int parse_int64(const char *option, const char *text, int64_t min, int64_t max, int64_t *out,
                chef_error *err);

#endif
