/*
 * fault.c - the fault hook's bookkeeping (fault.h): which calls of which backend operation must
 * fail, read once from CUDACHEF_FAULT; the calls counted; what the process still holds, written to
 * CUDACHEF_FAULT_LOG when it exits. backend.c does the failing itself, in each operation's words.
 *
 * The counters are atomic: the full-screen interface opens kitchens from more than one thread.
 */
#include "base/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"

#define FAULT_MAX 16 /* entries in CUDACHEF_FAULT */

/* One entry of CUDACHEF_FAULT: the call of op that fails. */
typedef struct fault_entry {
    fault_op op;
    long call;
} fault_entry;

static const char *const fault_names[FAULT_OPS] = {"open", "alloc", "host", "copy", "launch", "sync"};

static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static int fault_ready;                  /* CUDACHEF_FAULT was read (under fault_lock) */
static int fault_broken;                 /* ... and it was not understood */
static chef_error fault_why;             /* why, when broken */
static fault_entry fault_entries[FAULT_MAX];
static int fault_count;
static atomic_int fault_calls[FAULT_OPS];
static atomic_int fault_held_now[FAULT_HELD_KINDS];
static atomic_int fault_injected;

/* 1 when CUDACHEF_FAULT or CUDACHEF_FAULT_LOG is set: the backend then goes through the hook. */
int fault_enabled(void)
{
    const char *spec = getenv("CUDACHEF_FAULT"), *log = getenv("CUDACHEF_FAULT_LOG");
    return (spec && *spec) || (log && *log);
}

/* The operation's name as CUDACHEF_FAULT spells it. */
const char *fault_name(fault_op op)
{
    return (unsigned)op < FAULT_OPS ? fault_names[op] : "?";
}

/* Appends what the process still holds to CUDACHEF_FAULT_LOG, in one write (processes share it). */
static void fault_write_log(void)
{
    const char *path = getenv("CUDACHEF_FAULT_LOG");
    if (!path || !*path)
        return;
    char line[512];
    int n = snprintf(line, sizeof line, "cudachef[%ld] backends=%d device=%d host=%d injected=%d calls:", (long)getpid(),
                     atomic_load(&fault_held_now[FAULT_HELD_BACKENDS]), atomic_load(&fault_held_now[FAULT_HELD_DEVICE]),
                     atomic_load(&fault_held_now[FAULT_HELD_HOST]), atomic_load(&fault_injected));
    for (int op = 0; op < FAULT_OPS; op++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%d", fault_names[op], atomic_load(&fault_calls[op]));
    n += snprintf(line + n, sizeof line - (size_t)n, "\n");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, line, (size_t)n) != n)
        fprintf(stderr, "cudachef: CUDACHEF_FAULT_LOG: cannot write %s: %s\n", path, strerror(errno));
    if (fd >= 0)
        close(fd);
}

/* Reads one "WHAT:N" entry into e: 0, or -1 with err. */
static int fault_parse_entry(const char *text, size_t len, fault_entry *e, chef_error *err)
{
    const char *hint = "write WHAT:N[,WHAT:N...], WHAT one of open, alloc, host, copy, launch, sync (docs/RELIABILITY.md)";
    const char *colon = memchr(text, ':', len);
    if (!colon)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "CUDACHEF_FAULT: '%.*s' is not WHAT:N", (int)len, text);
    size_t name_len = (size_t)(colon - text);
    int op = -1;
    for (int i = 0; i < FAULT_OPS; i++)
        if (strlen(fault_names[i]) == name_len && strncmp(text, fault_names[i], name_len) == 0)
            op = i;
    if (op < 0)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "CUDACHEF_FAULT: unknown operation '%.*s'", (int)name_len, text);
    long call = 0;
    const char *p = colon + 1, *end = text + len;
    if (p == end)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "CUDACHEF_FAULT: '%.*s' needs the number of the call that fails",
                         (int)len, text);
    for (; p < end; p++) {
        if (*p < '0' || *p > '9' || call > 100000000)
            return chef_fail(err, CHEF_EXIT_USAGE, hint, "CUDACHEF_FAULT: '%.*s': the call is a number from 1 to 100000000",
                             (int)len, text);
        call = call * 10 + (*p - '0');
    }
    if (call < 1)
        return chef_fail(err, CHEF_EXIT_USAGE, hint, "CUDACHEF_FAULT: '%.*s': the call is a number from 1 to 100000000",
                         (int)len, text);
    e->op = (fault_op)op;
    e->call = call;
    return 0;
}

/* Reads CUDACHEF_FAULT into the entries; 0, or -1 with err. */
static int fault_parse(const char *spec, chef_error *err)
{
    const char *p = spec ? spec : "";
    while (*p) {
        size_t len = strcspn(p, ",");
        if (fault_count == FAULT_MAX)
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, "CUDACHEF_FAULT: more than %d faults", FAULT_MAX);
        if (fault_parse_entry(p, len, &fault_entries[fault_count], err) != 0)
            return -1;
        fault_count++;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* Reads CUDACHEF_FAULT once and arranges the log; 0, or -1 with err (exit 2). */
int fault_setup(chef_error *err)
{
    if (pthread_mutex_lock(&fault_lock) != 0)
        return chef_fail(err, CHEF_EXIT_INTERNAL, NULL, "fault hook: cannot take its lock");
    if (!fault_ready) {
        fault_ready = 1;
        fault_broken = fault_parse(getenv("CUDACHEF_FAULT"), &fault_why) != 0;
        const char *log = getenv("CUDACHEF_FAULT_LOG");
        if (!fault_broken && log && *log && atexit(fault_write_log) != 0) {
            fault_broken = 1;
            chef_fail(&fault_why, CHEF_EXIT_INTERNAL, NULL, "fault hook: cannot arrange the log at exit");
        }
    }
    int broken = fault_broken;
    if (broken && err)
        *err = fault_why;
    pthread_mutex_unlock(&fault_lock);
    return broken ? -1 : 0;
}

/* Counts a call of op; 1 when this call must fail. */
int fault_hit(fault_op op, int *call)
{
    if ((unsigned)op >= FAULT_OPS)
        return 0;
    int n = atomic_fetch_add(&fault_calls[op], 1) + 1;
    if (call)
        *call = n;
    for (int i = 0; i < fault_count; i++)
        if (fault_entries[i].op == op && fault_entries[i].call == n) {
            atomic_fetch_add(&fault_injected, 1);
            return 1;
        }
    return 0;
}

/* Adds delta to what the process holds of kind. */
void fault_hold(fault_held kind, int delta)
{
    if ((unsigned)kind < FAULT_HELD_KINDS)
        atomic_fetch_add(&fault_held_now[kind], delta);
}
