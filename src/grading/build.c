/*
 * build.c - what the builds of learner code share (exercise_build.c builds one kernel, program_build.c a
 * whole program): a cache key hashed over everything that changes a build, compilers run boxed
 * under limits, and artifacts published into the cache with their SHA-256 beside them, so that an
 * entry changed behind cudachef's back is built again.
 */
#include "grading/build.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "grading/child.h"
#include "lessons/lesson.h"


/* Starts a key: 0, or -1 when SHA-256 is not available. */
int build_key_start(build_key *k)
{
    k->ctx = EVP_MD_CTX_new();
    if (k->ctx && EVP_DigestInit_ex(k->ctx, EVP_sha256(), NULL) == 1)
        return 0;
    EVP_MD_CTX_free(k->ctx);
    k->ctx = NULL;
    return -1;
}

/* Ends a key: its 64 hex digits into hex (65 bytes). */
void build_key_hex(build_key *k, char *hex)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_DigestFinal_ex(k->ctx, md, &mdlen);
    EVP_MD_CTX_free(k->ctx);
    k->ctx = NULL;
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", i < mdlen ? md[i] : 0);
}

/* Adds bytes to the key, with their length first, so that no two lists of parts hash alike. */
void build_hash(build_key *k, const void *data, size_t len)
{
    uint64_t n = len;
    EVP_DigestUpdate(k->ctx, &n, sizeof n);
    EVP_DigestUpdate(k->ctx, data, len);
}

/* Adds a file's contents (a missing file adds its name). */
void build_hash_file(build_key *k, const char *path)
{
    size_t size = 0;
    char *text = lesson_read_file(path, &size);
    if (text)
        build_hash(k, text, size);
    else
        build_hash(k, path, strlen(path));
    free(text);
}

/* SHA-256 of bytes as 64 hex digits into hex (65 bytes). */
void build_sha256_hex(const void *data, size_t len, char *hex)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1)
        mdlen = 0;
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", i < mdlen ? md[i] : 0);
    hex[64] = '\0';
}

/* 1 when the file at path hashes to the 64 hex digits recorded in path.sha256 beside it. */
int build_artifact_ok(const char *path)
{
    char sum_path[4700], recorded[80] = "", hex[65];
    snprintf(sum_path, sizeof sum_path, "%s.sha256", path);
    size_t size = 0, rsize = 0;
    char *data = lesson_read_file(path, &size), *sum = lesson_read_file(sum_path, &rsize);
    int ok = 0;
    if (data && sum && rsize >= 64) {
        snprintf(recorded, sizeof recorded, "%.64s", sum);
        build_sha256_hex(data, size, hex);
        ok = strcmp(hex, recorded) == 0;
    }
    free(data);
    free(sum);
    return ok;
}

/* The kit's own files, for scandir: every name but "." and "..". */
int build_kit_file(const struct dirent *e)
{
    return e->d_name[0] != '.';
}


/* Runs a compiler command under limits (memory_mb: its address space, 0 none), keeping its words
   in *log: 0 it succeeded, 1 it refused, -1 err. The learner's source decides what the compiler
   does (an #include of /dev/zero, a macro that grows without end): its time, memory and the files
   it writes are bounded. */
int build_run(char *const *argv, long memory_mb, const sandbox_spec *box, char **log, chef_cancel *cancel,
                     chef_error *err)
{
    child_spec spec = {.argv = argv,
                       .sandbox = box,
                       .timeout_s = BUILD_TIMEOUT_S,
                       .keep = BUILD_LOG_KEEP,
                       .limit_cpu_s = BUILD_TIMEOUT_S + 5,
                       .limit_memory_mb = memory_mb,
                       .limit_file_mb = BUILD_FILE_MB,
                       .cancel = cancel};
    child_outcome out;
    if (child_run(&spec, &out, err) != 0)
        return -1;
    if (out.cancelled) {
        child_outcome_free(&out);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "the check was stopped while the kernel was being built");
        err->cause = CHEF_CAUSE_CANCELLED;
        return -1;
    }
    size_t have = *log ? strlen(*log) : 0, add = strlen(out.output);
    char *grown = realloc(*log, have + add + 1);
    if (grown) {
        memcpy(grown + have, out.output, add + 1);
        *log = grown;
    }
    int ok = out.exited && out.status == 0;
    int missing = out.exited && out.status == 127;
    child_outcome_free(&out);
    if (missing)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                         _("install a C compiler (apt-get install gcc) or the CUDA toolkit, or set CC / NVCC"),
                         _("the compiler %s could not be run"), argv[0]);
    if (out.timed_out)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("the compiler took longer than %d s"), BUILD_TIMEOUT_S);
    return ok ? 0 : 1;
}


/* Writes len bytes to a new file path (0600): 0, or -1. */
int build_write(const char *path, const char *head, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return -1;
    }
    int ok = (!head || fputs(head, f) >= 0) && fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* nftw's callback: removes one entry of a scratch folder. */
static int build_remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0;
}

/* Removes the scratch folder and all it holds. */
void build_remove_tree(const char *dir)
{
    nftw(dir, build_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}


/* Copies the finished artifact from the scratch folder into the cache entry, with its SHA-256
   beside it: 0, or -1 with err. */
int build_publish_again(const char *published, const char *to, chef_error *err)
{
    const char *suffix[] = {"", ".sha256"};
    for (int i = 0; i < 2; i++) {
        char from[4800], dest[4800], tmp[4900];
        snprintf(from, sizeof from, "%s%s", published, suffix[i]);
        snprintf(dest, sizeof dest, "%s%s", to, suffix[i]);
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", dest, (long)getpid());
        unlink(tmp);
        int ok = link(from, tmp) == 0 && rename(tmp, dest) == 0;
        unlink(tmp);
        if (!ok) /* another file system, or links refused: a copy (with its own sum) */
            return build_publish(published, to, err);
    }
    return 0;
}

int build_publish(const char *from, const char *to, chef_error *err)
{
    size_t size = 0;
    struct stat st; /* the scratch folder was the box's: a link planted there is never followed */
    char *data = lstat(from, &st) == 0 && S_ISREG(st.st_mode) ? lesson_read_file(from, &size) : NULL;
    char tmp[4800], sum_path[4700], hex[65];
    if (!data)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot read %s: %s"), from, strerror(errno));
    build_sha256_hex(data, size, hex);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", to, (long)getpid());
    snprintf(sum_path, sizeof sum_path, "%s.sha256", to);
    unlink(tmp);
    int ok = build_write(tmp, NULL, data, size) == 0 && rename(tmp, to) == 0;
    free(data);
    unlink(tmp);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", sum_path, (long)getpid());
    unlink(tmp);
    ok = ok && build_write(tmp, NULL, hex, 64) == 0 && rename(tmp, sum_path) == 0;
    unlink(tmp);
    if (!ok)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), to, strerror(errno));
    return 0;
}

