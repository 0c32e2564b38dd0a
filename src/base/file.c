/*
 * file.c - writing a file whole (file.h): a reader sees the old text or the new, never half.
 */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int file_write_new(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, int mode,
                          int durable, chef_error *err);

/* Writes path whole: through a temporary file when it is (or will be) a regular file. */
int file_write_whole(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, chef_error *err)
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
    return file_write_new(path, writer, ctx, 0644, 0, err);
}

/* Writes path through a new temporary file beside it, renamed over it (mode, and flushed to disk
   when durable): 0, or -1 with err. */
static int file_write_new(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, int mode,
                          int durable, chef_error *err)
{
    const char *hint = "check the folder exists and is writable, and that the disk is not full";
    size_t len = strlen(path) + 32;
    char *tmp = malloc(len);
    if (!tmp)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, hint, "cannot write %s: %s", path, strerror(ENOMEM));
    snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int rc = f ? writer(f, ctx) : -1;
    int e = errno;
    if (!f && fd >= 0)
        close(fd);
    if (f && durable && rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0)) {
        rc = -1;
        e = errno;
    }
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

/* Writes a file of cudachef's own state whole, never through a link. */
int file_write_private(const char *path, int (*writer)(FILE *f, const void *ctx), const void *ctx, chef_error *err)
{
    return file_write_new(path, writer, ctx, 0600, 1, err);
}

/* Bytes to write (file_put_text's context). */
typedef struct file_text {
    const char *text;
    size_t size;
} file_text;

/* Writes the bytes (a writer for file_write_private): 0, or -1. */
static int file_put_text(FILE *f, const void *ctx)
{
    const file_text *t = ctx;
    return fwrite(t->text, 1, t->size, f) == t->size ? 0 : -1;
}

/* file_write_private of size bytes of text. */
int file_write_private_text(const char *path, const char *text, size_t size, chef_error *err)
{
    file_text t = {text, size};
    return file_write_private(path, file_put_text, &t, err);
}

/* Whether dir is this user's own folder, writable by no one else. */
int file_dir_private(const char *dir, const char *what, chef_error *err)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, "make it, or point cudachef at another folder", "cannot read %s %s: %s",
                         what, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                         "make it a folder of your own that only you can write (chmod go-w), or set another",
                         "%s %s is not a folder of yours alone (a link, another user's, or writable by others): "
                         "cudachef will not write there",
                         what, dir);
    return 0;
}
