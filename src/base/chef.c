/*
 * chef.c - small shared helpers: errors, byte formatting, clocks, host memory, the data folder.
 */
#include "base/chef.h"

#include "base/i18n.h"
#include "base/text.h"

#include <stdarg.h>
#include <errno.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Fills err (if not NULL) and returns -1, so callers can write `return chef_fail(...)`. */
int chef_fail(chef_error *err, int exit_code, const char *hint, const char *fmt, ...)
{
    if (!err)
        return -1;
    err->exit_code = exit_code;
    err->cause = CHEF_CAUSE_NONE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, i18n_get(fmt), ap); /* the English is the key */
    va_end(ap);
    snprintf(err->hint, sizeof err->hint, "%s", hint ? i18n_get(hint) : "");
    return -1;
}

/* Writes text to f with what a terminal would obey (or cannot show) as \xNN. */
void chef_print_clean(FILE *f, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        int n = text_utf8_length((const char *)s);
        if (n == 0 || text_is_control((const char *)s, n)) {
            fprintf(f, "\\x%02X", *s);
            s++;
        } else {
            fwrite(s, 1, (size_t)n, f);
            s += n;
        }
    }
}

/* Makes text safe to print in place: control characters but newline and tab, and bytes that are
   not UTF-8, become '?'. */
void chef_clean_text(char *text)
{
    for (unsigned char *s = (unsigned char *)text; s && *s;) {
        int n = text_utf8_length((const char *)s);
        if (n == 0 || (text_is_control((const char *)s, n) && *s != '\n' && *s != '\t')) {
            *s++ = '?';
            continue;
        }
        s += n;
    }
}

/* The stable name of what went wrong. */
const char *chef_error_code(const chef_error *err)
{
    switch (err->cause) {
    case CHEF_CAUSE_OUT_OF_BOUNDS:
        return "out-of-bounds";
    case CHEF_CAUSE_BARRIER:
        return "barrier";
    case CHEF_CAUSE_CANCELLED:
        return "cancelled";
    case CHEF_CAUSE_WARP:
        return "warp";
    default:
        break;
    }
    switch (err->exit_code) {
    case CHEF_EXIT_OK:
        return "ok";
    case CHEF_EXIT_WRONG:
        return "wrong";
    case CHEF_EXIT_USAGE:
        return "usage";
    case CHEF_EXIT_BUILD:
        return "build";
    case CHEF_EXIT_CRASH:
        return "crash";
    case CHEF_EXIT_ENVIRONMENT:
        return "environment";
    default:
        return "internal";
    }
}

/* Prints "cudachef: message" and "  hint" to stderr. */
void chef_error_print(const chef_error *err)
{
    fputs("cudachef: ", stderr);
    chef_print_clean(stderr, err->message);
    fputc('\n', stderr);
    if (err->hint[0]) {
        char hint[sizeof err->hint + 64];
        snprintf(hint, sizeof hint, _("  hint: %s\n"), err->hint);
        hint[strcspn(hint, "\n")] = '\0';
        chef_print_clean(stderr, hint);
        fputc('\n', stderr);
    }
}

/* Formats a byte count for people: "48 B", "3.8 MiB", "1.5 GiB". */
void chef_format_bytes(double bytes, char *out, size_t size)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(out, size, "%.0f B", bytes);
    else
        snprintf(out, size, "%.*f %s", bytes < 10 ? 2 : 1, bytes, units[u]);
}

/* Formats a duration given in ms for people: "1.23 s", "12.4 ms", "8.01 us", "40 ns". */
void chef_format_ms(double ms, char *out, size_t size)
{
    if (ms >= 1000.0)
        snprintf(out, size, "%.3g s", ms / 1000.0);
    else if (ms >= 1.0)
        snprintf(out, size, "%.3g ms", ms);
    else if (ms >= 0.001)
        snprintf(out, size, "%.3g us", ms * 1000.0);
    else
        snprintf(out, size, "%.0f ns", ms * 1e6);
}

/* Monotonic clock in milliseconds. */
double chef_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A whole number read from the start of a file, or -1 (also for "max"). */
static long long chef_read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long long v = -1;
    if (fscanf(f, "%lld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

/* What a cgroup may still take: limit and usage files under root + path (or root itself, when a
   cgroup namespace hides the path); 0 when there is no limit or it cannot be read. */
static size_t chef_cgroup_left(const char *root, const char *path, const char *limit_file, const char *usage_file)
{
    char file[4400];
    for (int pass = 0; pass < 2; pass++) {
        const char *sub = pass == 0 && strcmp(path, "/") != 0 ? path : "";
        snprintf(file, sizeof file, "%s%s/%s", root, sub, limit_file);
        long long limit = chef_read_number(file);
        snprintf(file, sizeof file, "%s%s/%s", root, sub, usage_file);
        long long usage = chef_read_number(file);
        if (limit >= 0 && usage >= 0) /* "max", or cgroup v1's near-2^63, is no limit */
            return limit > 0 && limit < (1LL << 60) ? (limit > usage ? (size_t)(limit - usage) : 1) : 0;
    }
    return 0;
}

/* What this process's cgroup may still take before its memory limit (cgroup v2 memory.max, or v1
   memory.limit_in_bytes): a container's limit, which MemAvailable does not show. 0 when none. */
static size_t chef_cgroup_memory_left(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    char line[4096];
    size_t left = 0;
    while (!left && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *v1 = strstr(line, ":memory:");
        if (strncmp(line, "0::", 3) == 0)
            left = chef_cgroup_left("/sys/fs/cgroup", line + 3, "memory.max", "memory.current");
        else if (v1)
            left = chef_cgroup_left("/sys/fs/cgroup/memory", v1 + 8, "memory.limit_in_bytes", "memory.usage_in_bytes");
    }
    fclose(f);
    return left;
}

/* What the address-space limit (ulimit -v, RLIMIT_AS) still leaves this process, 0 when there is
   no limit. */
static size_t chef_address_space_left(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 0;
    long long pages = chef_read_number("/proc/self/statm"); /* its first number: the pages mapped */
    long page = sysconf(_SC_PAGESIZE);
    size_t used = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
    return rl.rlim_cur > used ? (size_t)(rl.rlim_cur - used) : 1;
}

/* Bytes of memory the host can still give this process: the least of MemAvailable, what ulimit -v
   leaves and what the cgroup's limit leaves; 0 if none is known. */
size_t chef_host_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    size_t avail = 0;
    if (f) {
        char line[256];
        size_t kib = 0;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "MemAvailable: %zu kB", &kib) == 1)
                break;
        }
        fclose(f);
        avail = kib * 1024;
    }
    size_t limits[] = {chef_address_space_left(), chef_cgroup_memory_left()};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (limits[i] > 0 && (avail == 0 || limits[i] < avail))
            avail = limits[i];
    return avail;
}

/* 1 when dir holds cudachef's data (its lessons/ folder). */
static int chef_data_probe(const char *dir)
{
    char probe[4200];
    if (snprintf(probe, sizeof probe, "%s/lessons", dir) >= (int)sizeof probe)
        return 0;
    return access(probe, F_OK) == 0;
}

/* Sets the data folder to path, made canonical when it can be (else as it is). */
static void chef_data_set(char *dir, size_t size, const char *path)
{
    char real[PATH_MAX];
    if (snprintf(dir, size, "%s", realpath(path, real) ? real : path) >= (int)size)
        dir[0] = '\0'; /* too long to use: chef_data_dir looks again */
}

/* The folder holding cudachef's data (see chef.h). Where the program is decides before the folder
   compiled in, so that a source tree, a DESTDIR-staged install and a moved one all find their own
   data rather than an older install's. */
const char *chef_data_dir(void)
{
    static char dir[PATH_MAX];
    if (dir[0])
        return dir;
    const char *env = getenv("CUDACHEF_DATA");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
        *slash = '\0';
        /* the source tree (build/cudachef), then an install (PREFIX/bin/cudachef) */
        static const char *const beside[] = {"..", "../share/cudachef"};
        for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
            char probe[PATH_MAX];
            if (snprintf(probe, sizeof probe, "%s/%s", exe, beside[i]) < (int)sizeof probe &&
                chef_data_probe(probe)) {
                chef_data_set(dir, sizeof dir, probe);
                if (dir[0])
                    return dir;
            }
        }
    }
#ifdef CHEF_DATA_DIR
    snprintf(dir, sizeof dir, "%s", CHEF_DATA_DIR); /* make install's datadir, compiled in */
#else
    snprintf(dir, sizeof dir, ".");
#endif
    return dir;
}

/* cudachef's cache folder SUB into out, made if missing, the user's alone. 0, or -1 with err. */
int chef_cache_dir(const char *sub, char *out, size_t size, chef_error *err)
{
    const char *own = getenv("CUDACHEF_CACHE_HOME"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (own && *own)
        snprintf(out, size, "%s/%s", own, sub);
    else if (xdg && *xdg == '/')
        snprintf(out, size, "%s/cudachef/%s", xdg, sub);
    else if (home && *home)
        snprintf(out, size, "%s/.cache/cudachef/%s", home, sub);
    else
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set HOME or CUDACHEF_CACHE_HOME to a folder"),
                         _("no folder for the build cache: HOME is not set"));
    if (chef_mkdirs(out, 0700) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), out, strerror(errno));
    /* the child loads and runs what it finds there: nobody else may be able to put it there */
    struct stat st;
    if (lstat(out, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                         _("make it yours and writable by you alone (chmod go-w), or set CUDACHEF_CACHE_HOME"),
                         _("the build cache %s is not yours alone: cudachef runs the code it finds there"), out);
    return 0;
}

/* mkdir -p. */
int chef_mkdirs(const char *path, unsigned mode)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = tmp + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(tmp, (mode_t)mode) != 0 && errno != EEXIST)
                return -1;
            *p = c;
            if (c == '\0')
                break;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}
