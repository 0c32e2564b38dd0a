/*
 * build.h - what the builds of learner code share (build.c): the cache key, boxed compiler runs,
 * scratch folders and the publishing of artifacts into the cache.
 */
#ifndef CUDACHEF_BUILD_H
#define CUDACHEF_BUILD_H

#include <dirent.h>
#include <stddef.h>

#include <openssl/evp.h>

#include "base/cancel.h"
#include "base/chef.h"
#include "grading/sandbox.h"

#define BUILD_TIMEOUT_S 120
#define BUILD_LOG_KEEP (64 << 10)
#define BUILD_MEMORY_MB 4096 /* the C compiler's address space (nvcc's own tools get none: CUDA maps large) */
#define BUILD_FILE_MB 512    /* the largest file a compiler may write */
#ifndef CHEF_KIT_DIR
#define CHEF_KIT_DIR "src/kit" /* the kernel kit, in the data folder (the Makefile sets it) */
#endif

/* SHA-256 running over the key's parts (OpenSSL's libcrypto). */
typedef struct build_key {
    EVP_MD_CTX *ctx;
} build_key;

/* Starts a key: 0, or -1 when SHA-256 is not available. */
int build_key_start(build_key *k);

/* Ends a key: its 64 hex digits into hex (65 bytes). */
void build_key_hex(build_key *k, char *hex);

/* Adds bytes to the key, with their length first, so that no two lists of parts hash alike. */
void build_hash(build_key *k, const void *data, size_t len);

/* Adds a file's contents (a missing file adds its name). */
void build_hash_file(build_key *k, const char *path);

/* SHA-256 of bytes as 64 hex digits into hex (65 bytes). */
void build_sha256_hex(const void *data, size_t len, char *hex);

/* 1 when the file at path hashes to the 64 hex digits recorded in path.sha256 beside it. */
int build_artifact_ok(const char *path);

/* The kit's own files, for scandir: every name but "." and "..". */
int build_kit_file(const struct dirent *e);

/* Runs a compiler command under limits (memory_mb: its address space, 0 none), keeping its words
   in *log: 0 it succeeded, 1 it refused, -1 err. */
int build_run(char *const *argv, long memory_mb, const sandbox_spec *box, char **log, chef_cancel *cancel,
              chef_error *err);

/* Writes len bytes (after head, when not NULL) to a new file path (0600): 0, or -1. */
int build_write(const char *path, const char *head, const void *data, size_t len);

/* Removes a scratch folder and all it holds. */
void build_remove_tree(const char *dir);

/* Copies the finished artifact from the scratch folder into the cache entry, with its SHA-256
   beside it: 0, or -1 with err. */
int build_publish(const char *from, const char *to, chef_error *err);

/* The same artifact, already published at published (with its SHA-256 beside it), under a second
   cache entry's name to: hard links, so it is neither read nor written again (a copy where links
   cannot be made). 0, or -1 with err. */
int build_publish_again(const char *published, const char *to, chef_error *err);

#endif
