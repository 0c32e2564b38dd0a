/*
 * fuzz_progress.c - the progress file (progress.c): read as it is found on disk, asked about, then
 * changed and written back the way the program changes it.
 *
 * Input: the progress file. The lessons asked about are the second words of its lines (and one
 * fixed name); then a page, a demo and an exercise are recorded and one lesson or everything is
 * reset, each of which reads the file again and writes it whole.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "lessons/progress.h"

/* Asks about the lesson named by the second word of line (if it has one). */
static void fuzz_ask(const progress *p, const char *line)
{
    char word[256];
    if (sscanf(line, "%*s %255s", word) == 1) {
        progress_state_of(p, word);
        progress_page_of(p, word);
    }
}

FUZZ_TARGET(progress)
{
    char path[4200];
    chef_error err = {0};
    fuzz_dir();
    if (progress_path(path, sizeof path, &err) != 0)
        return 0;
    fuzz_write(path, data, size);
    progress p;
    if (progress_load(&p, &err) == 0) {
        for (size_t i = 0; i < p.count && i < 16; i++)
            fuzz_ask(&p, p.lines[i]);
        progress_state_of(&p, "03-teams-and-cooks");
        progress_state_key(progress_state_of(&p, "01-meet-your-kitchen"));
        progress_free(&p);
    }
    int page = size ? data[0] % 6 : 0;
    progress_page("03-teams-and-cooks", page, 5, NULL, &err);
    progress_mark("demo", "03-teams-and-cooks", "one-team", &err);
    progress_mark("exercise", "03-teams-and-cooks", "bounds-check", &err);
    progress_reset(size % 2 ? NULL : "03-teams-and-cooks", &err);
    return 0;
}
