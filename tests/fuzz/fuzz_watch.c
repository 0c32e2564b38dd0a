/*
 * fuzz_watch.c - watching a learner's file (watch.c): any path the exercise screen may be given,
 * with inotify or by polling, while a file in the watched folder is written, replaced and removed
 * (the events inotify then reports are read and matched against the name).
 *
 * Input: a mode byte (bit 0: the path is inside the private folder, else as given; bit 1: poll;
 * bits 2-3: what happens to FOLDER/watch/saved.cu between looks), then the path. Only that one
 * file is ever written: the path is watched, never written to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "grading/watch.h"

FUZZ_TARGET(watch)
{
    if (size < 1)
        return 0;
    int mode = data[0];
    char *given = fuzz_string(data + 1, size - 1);
    char path[8400], saved[4200], moved[4300];
    snprintf(saved, sizeof saved, "%s/watch/saved.cu", fuzz_dir());
    snprintf(moved, sizeof moved, "%s.new", saved);
    if (mode & 1)
        snprintf(path, sizeof path, "%s/watch/%s", fuzz_dir(), given);
    else
        snprintf(path, sizeof path, "%s", given);
    if (mode & 2)
        setenv("CUDACHEF_WATCH", "poll", 1);
    else
        unsetenv("CUDACHEF_WATCH");
    fuzz_write(saved, "a", 1);
    watch *w = watch_open(path);
    watch_fd(w);
    watch_polling(w);
    watch_changed(w);
    switch ((mode >> 2) & 3) {
    case 0:
        fuzz_write(saved, "b", 1);
        break;
    case 1:
        fuzz_write(moved, "c", 1);
        rename(moved, saved);
        break;
    case 2:
        unlink(saved);
        break;
    default:
        break;
    }
    watch_changed(w);
    watch_changed(w);
    watch_close(w);
    free(given);
    return 0;
}
