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
