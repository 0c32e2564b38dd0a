/*
 * demo_try.c - a temporary driver for the clock, trips and walk demos until `cudachef run LESSON
 * --demo NAME` runs them: demo_try KIND [backend] [n] [repeat|steps] [json] [ko].
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "i18n.h"
#include "trips.h"
#include "walk.h"

/* Prints a progress line to stderr. */
static void demo_try_progress(const char *text)
{
    fprintf(stderr, "... %s\n", text);
}

/* Runs one demo as asked on the command line. */
int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    if (argc < 2) {
        fprintf(stderr, "usage: demo_try clock|trips|walk [auto|gpu|emu] [n] [repeat|steps] [json] [ko]\n");
        return 2;
    }
    demo_params p;
    memset(&p, 0, sizeof p);
    kitchen_params_default(&p.run);
    p.run.repeat = 0;
    p.progress = demo_try_progress;
    if (getenv("DEMO_WORKERS"))
        p.run.workers = atoi(getenv("DEMO_WORKERS"));
    if (argc > 2)
        backend_kind_parse(argv[2], &p.run.backend);
    if (argc > 3)
        p.run.n = atoll(argv[3]);
    if (argc > 4) {
        p.run.repeat = atoi(argv[4]);
        p.steps = atoi(argv[4]);
    }
    int json = argc > 5 && strcmp(argv[5], "json") == 0;
    if (argc > 6 && strcmp(argv[6], "ko") == 0)
        i18n_init(I18N_KO, ".");
    chef_error err = {0};
    int code;
    json_t *j = NULL;
    if (strcmp(argv[1], "clock") == 0) {
        clock_result *r;
        code = clock_run(&p, &r, &err);
        if (r) {
            if (json)
                j = clock_json(r);
            else
                clock_text(stdout, r);
        }
        clock_free(r);
    } else if (strcmp(argv[1], "trips") == 0) {
        trips_result *r;
        code = trips_run(&p, &r, &err);
        if (r) {
            if (json)
                j = trips_json(r);
            else
                trips_text(stdout, r);
        }
        trips_free(r);
    } else {
        walk_result *r;
        code = walk_run(&p, &r, &err);
        if (r) {
            if (json)
                j = walk_json(r);
            else
                walk_text(stdout, r);
        }
        walk_free(r);
    }
    if (j) {
        json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
        putchar('\n');
        json_decref(j);
    }
    if (code > 1)
        fprintf(stderr, "error %d: %s (%s)\n", code, err.message, err.hint);
    return code;
}
