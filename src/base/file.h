/*
 * file.h - writing a file whole, so that a full disk or a crash never leaves half of it.
 */
#ifndef CUDACHEF_BASE_FILE_H
#define CUDACHEF_BASE_FILE_H

#include <stdio.h>

#include "base/chef.h"

/* Writes a file whole with writer(f, ctx) (0 or -1): a regular file, or a new one, through a
   temporary file beside it renamed into place, so it holds the old or the new text; anything else
   (a device, a pipe, a link) is written as it is and never replaced. 0, or -1 with err (exit 5). */
int file_write_whole(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, chef_error *err);

#endif
