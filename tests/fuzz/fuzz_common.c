/*
 * fuzz_common.c - the private folder, input splitting and file writing the fuzz targets share
 * (fuzz.h).
 *
 * The folder lives in /dev/shm where it can (a target writes files for every input, thousands a
 * second, and memory is faster than a disk), else in $TMPDIR; it is removed when the process
 * exits normally.
 */
#include "fuzz.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef FUZZ_REPLAY
/* replayed in make test (tests/test_fuzz_corpus.c): the tree is found at run time, as every test
   finds it, so that a copy of a built tree replays the copy's corpus */
#include "../test_tree.h"
#define FUZZ_TREE test_source_dir()
#else
#ifndef FUZZ_SOURCE_DIR
#error "FUZZ_SOURCE_DIR must name the source tree (the Makefile sets it)"
#endif
#define FUZZ_TREE FUZZ_SOURCE_DIR
#endif

static char fuzz_folder[4096];

/* nftw's callback: removes one file or (emptied) folder. */
static int fuzz_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Removes the private folder (at exit). */
static void fuzz_cleanup(void)
{
    if (fuzz_folder[0])
        nftw(fuzz_folder, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The private folder of this process. */
const char *fuzz_dir(void)
{
    if (fuzz_folder[0])
        return fuzz_folder;
    const char *tmp = getenv("TMPDIR");
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : tmp && *tmp ? tmp : "/tmp";
    snprintf(fuzz_folder, sizeof fuzz_folder, "%s/cudachef-fuzz-XXXXXX", base);
    if (!mkdtemp(fuzz_folder)) {
        fprintf(stderr, "fuzz: cannot make a folder in %s: %s\n", base, strerror(errno));
        abort();
    }
    atexit(fuzz_cleanup);
    char path[4200];
    setenv("CUDACHEF_DATA", fuzz_folder, 1);
    snprintf(path, sizeof path, "%s/kernels", FUZZ_TREE);
    setenv("CUDACHEF_KERNELS", path, 1);
    snprintf(path, sizeof path, "%s/state", fuzz_folder);
    setenv("CUDACHEF_STATE_HOME", path, 1);
    return fuzz_folder;
}

/* The source tree. */
const char *fuzz_source_dir(void)
{
    return FUZZ_TREE;
}

/* Splits an input at FUZZ_SEPARATOR. */
size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts, size_t max)
{
    const size_t sep = strlen(FUZZ_SEPARATOR);
    size_t n = 0, start = 0;
    if (max == 0)
        return 0;
    for (size_t i = 0; n + 1 < max && i + sep <= size; i++)
        if (memcmp(data + i, FUZZ_SEPARATOR, sep) == 0) {
            parts[n++] = (fuzz_part){data + start, i - start};
            start = i + sep;
            i = start - 1;
        }
    parts[n++] = (fuzz_part){data + start, size - start};
    return n;
}

/* Makes the folders above path. */
static void fuzz_mkdirs_for(const char *path)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0700);
            *p = '/';
        }
}

/* Writes a file whole. */
void fuzz_write(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fuzz_mkdirs_for(path);
        f = fopen(path, "wb");
    }
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
        abort();
    }
}

/* A NUL-terminated copy of an input. */
char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}
