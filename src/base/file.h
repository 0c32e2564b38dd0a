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

/* Writes a file of cudachef's own state whole (the progress file's copy, a workspace file):
   through a new temporary file beside it (O_EXCL, O_NOFOLLOW, mode 0600, flushed to disk) renamed
   over path, so a link planted at path or at the temporary name is never followed, and a full disk
   leaves path as it was. 0, or -1 with err (exit 5). */
int file_write_private(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, chef_error *err);

/* file_write_private of size bytes of text. */
int file_write_private_text(const char *path, const char *text, size_t size, chef_error *err);

/* Whether dir is a folder (not a link) owned by this user and writable by no one else: 0, or -1
   with err naming what (a state folder, a cache) and what to do. */
int file_dir_private(const char *dir, const char *what, chef_error *err);

#endif
