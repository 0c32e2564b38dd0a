/*
 * fuzz.h - what the fuzz targets of tests/fuzz/ share (docs/SANITIZERS.md).
 *
 * Each fuzz_NAME.c feeds one parser of outside input through the entry points the program itself
 * uses, and frees what it made, so that a leak counts. Built by `make fuzz` with clang's
 * -fsanitize=fuzzer, FUZZ_TARGET(NAME) is libFuzzer's LLVMFuzzerTestOneInput; built with
 * -DFUZZ_REPLAY into tests/test_fuzz_corpus (`make test`), it is fuzz_NAME, and that test replays
 * every file of tests/fuzz/corpus/NAME/ through it without clang's run-time.
 *
 * Parsers that read files (lessons, exercises, themes, translations, the progress file) are given
 * the input as files in a private folder (fuzz_dir); an input that holds several files separates
 * them with FUZZ_SEPARATOR lines, so that the corpus stays readable text.
 */
#ifndef CUDACHEF_FUZZ_H
#define CUDACHEF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef FUZZ_REPLAY
#define FUZZ_TARGET(name) int fuzz_##name(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name) int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif

/* Between the files of one input: a line of its own. */
#define FUZZ_SEPARATOR "\n--8<--\n"

/* One file of an input. */
typedef struct fuzz_part {
    const uint8_t *data;
    size_t size;
} fuzz_part;

/* The private folder of this process (made at the first call, removed at exit). The first call
   also points the program's data folder (CUDACHEF_DATA) at it, its kernels (CUDACHEF_KERNELS) at
   the source tree's, and its state (CUDACHEF_STATE_HOME) at FOLDER/state. */
const char *fuzz_dir(void);

/* The source tree (for kernels/ and the other files lessons and exercises name). */
const char *fuzz_source_dir(void);

/* Splits an input at FUZZ_SEPARATOR into at most max parts; returns how many. */
size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts, size_t max);

/* Writes a file whole (folders made as needed); aborts when it cannot, since the target would
   then test nothing. */
void fuzz_write(const char *path, const void *data, size_t size);

/* A NUL-terminated copy of an input (caller frees). */
char *fuzz_string(const uint8_t *data, size_t size);

#endif
