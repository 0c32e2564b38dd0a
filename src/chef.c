/*
 * chef.c - small shared helpers: errors, byte formatting, clocks, host memory, the data folder.
 */
#include "chef.h"

#include "i18n.h"

#include <stdarg.h>
#include <errno.h>
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

/* Prints "cudachef: message" and "  hint" to stderr. */
void chef_error_print(const chef_error *err)
{
    fprintf(stderr, "cudachef: %s\n", err->message);
    if (err->hint[0])
        fprintf(stderr, _("  hint: %s\n"), err->hint);
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

/* Bytes of memory the host can still give (MemAvailable), 0 if unknown. */
size_t chef_host_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    size_t kib = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemAvailable: %zu kB", &kib) == 1)
            break;
    }
    fclose(f);
    return kib * 1024;
}

/* The folder holding cudachef's data (see chef.h). */
const char *chef_data_dir(void)
{
    static char dir[4096];
    if (dir[0])
        return dir;
    const char *env = getenv("CUDACHEF_DATA");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    char exe[4000];
    dir[sizeof dir - 1] = '\0';
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char probe[4096 + 16];
            snprintf(probe, sizeof probe, "%s/../lessons", exe);
            if (access(probe, F_OK) == 0) {
                snprintf(probe, sizeof probe, "%s/..", exe);
                if (!realpath(probe, dir)) {
                    size_t n = strlen(probe) < sizeof dir - 1 ? strlen(probe) : sizeof dir - 1;
                    memcpy(dir, probe, n);
                    dir[n] = '\0';
                }
                return dir;
            }
        }
    }
#ifdef CHEF_DATA_DIR
    snprintf(dir, sizeof dir, "%s", CHEF_DATA_DIR);
#else
    snprintf(dir, sizeof dir, ".");
#endif
    return dir;
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
