/*
 * chef.h - what every part of cudachef shares: the version, exit codes and the error record.
 *
 * Exit codes are part of the interface (docs/EXIT-CODES.md): graders and scripts rely on them.
 */
#ifndef CUDACHEF_CHEF_H
#define CUDACHEF_CHEF_H

#include <stddef.h>
#include <stdio.h>

#define CHEF_VERSION "0.1.0"

enum chef_exit {
    CHEF_EXIT_OK = 0,          /* the taste passed */
    CHEF_EXIT_WRONG = 1,       /* the kernel ran but its results are wrong */
    CHEF_EXIT_USAGE = 2,       /* bad command line */
    CHEF_EXIT_BUILD = 3,       /* a kernel did not build */
    CHEF_EXIT_CRASH = 4,       /* the kernel crashed, hung or broke a rule (out of bounds, barrier) */
    CHEF_EXIT_ENVIRONMENT = 5, /* the machine cannot do it: no GPU, not enough memory */
    CHEF_EXIT_INTERNAL = 70    /* a bug in cudachef itself */
};

/* What broke, where a program needs more than the exit code (the message is translated). */
enum chef_cause { CHEF_CAUSE_NONE = 0, CHEF_CAUSE_OUT_OF_BOUNDS, CHEF_CAUSE_BARRIER, CHEF_CAUSE_CANCELLED, CHEF_CAUSE_WARP };

/* An error on its way to the user: one sentence, a hint saying what to do, and the exit code. */
typedef struct chef_error {
    int exit_code;
    int cause;          /* enum chef_cause */
    char message[512];
    char hint[256];
} chef_error;

/* Fills err (if not NULL) and returns -1, so callers can write `return chef_fail(...)`. */
int chef_fail(chef_error *err, int exit_code, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The stable name of what went wrong, for programs (JSON "code" beside the translated message):
   the cause when there is one ("out-of-bounds", "barrier", "cancelled"), else the exit code's
   ("wrong", "usage", "build", "crash", "environment", "internal"); "ok" for exit 0. */
const char *chef_error_code(const chef_error *err);

/* Prints "cudachef: message" and "  hint" to stderr (through chef_print_clean). */
void chef_error_print(const chef_error *err);

/* Writes text to f safely for a terminal: UTF-8 as it is; bytes that are not UTF-8, control
   characters (C0, DEL and C1, line ends included) as \xNN. Messages echo what users typed. */
void chef_print_clean(FILE *f, const char *text);

/* Makes text (output of another program, a learner's) safe for a terminal in place: control
   characters but newline and tab, and bytes that are not UTF-8, become '?'. */
void chef_clean_text(char *text);

/* Formats a byte count for people: "48 B", "3.8 MiB", "1.5 GiB". */
void chef_format_bytes(double bytes, char *out, size_t size);

/* Formats a duration given in ms for people: "1.23 s", "12.4 ms", "8.01 us", "40 ns". */
void chef_format_ms(double ms, char *out, size_t size);

/* Monotonic clock in milliseconds. */
double chef_now_ms(void);

/* The folder holding cudachef's data (lessons/, exercises/, kernels/, assets/ and the sources an
   exercise is compiled with): $CUDACHEF_DATA, else the folder above the program's own when it holds
   lessons/ (the source tree: build/cudachef), else ../share/cudachef beside the program (an
   install, wherever it was moved or staged), else the datadir compiled in (CHEF_DATA_DIR). */
const char *chef_data_dir(void);

/* Makes path and the folders above it that are missing (like mkdir -p), with mode: 0, or -1 with
   errno set (ENOTDIR when path exists and is not a folder). */
int chef_mkdirs(const char *path, unsigned mode);

/* cudachef's cache folder SUB into out, made if missing and required to be the user's alone
   (what is in it is loaded and run): $CUDACHEF_CACHE_HOME/SUB, else $XDG_CACHE_HOME/cudachef/SUB,
   else ~/.cache/cudachef/SUB. 0, or -1 with err. */
int chef_cache_dir(const char *sub, char *out, size_t size, chef_error *err);

/* Bytes of memory the host can still give this process: the least of MemAvailable, what ulimit -v
   (RLIMIT_AS) leaves and what the cgroup's memory.max leaves; 0 if none is known. */
size_t chef_host_memory_available(void);

#endif
