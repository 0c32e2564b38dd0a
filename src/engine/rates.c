/*
 * rates.c - the emulator's measured pace per recipe (see rates.h): read from a tab-separated
 * file (a line per recipe: recipe, workers, work, counted_ns, plain_ns, loop_ns, blas_ns; "-" not
 * known; '#' starts a comment), merged and written whole. A pace depends on the size (a larger
 * problem misses the caches more), and the note is for large runs: a run replaces a recipe's
 * paces only when its work is at least a quarter of the run they came from.
 */
#include "engine/rates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/chef.h"
#include "base/file.h"

#define RATES_MAX 128  /* recipes a file may hold (the tree has about 40) */
#define RATES_FILE "emulator-rates.tsv"

/* A file's entries. */
typedef struct rates_table {
    int count;
    rates_entry e[RATES_MAX];
} rates_table;

/* A rate field: a positive number, or 0 for "-" and anything else. */
static double rates_field(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    return end != s && v > 0 && v < 1e12 ? v : 0;
}

/* Reads path into t (empty when it cannot be read); lines that do not parse are left out. */
static void rates_read(const char *path, rates_table *t)
{
    t->count = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (t->count < RATES_MAX && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char name[48], c[32], p[32], l[32], b[32];
        int workers;
        double work;
        if (sscanf(line, "%47s %d %lf %31s %31s %31s %31s", name, &workers, &work, c, p, l, b) != 7 || workers < 1 ||
            !(work > 0))
            continue;
        rates_entry *e = &t->e[t->count++];
        snprintf(e->recipe, sizeof e->recipe, "%s", name);
        e->workers = workers;
        e->work = work;
        e->counted_ns = rates_field(c);
        e->plain_ns = rates_field(p);
        e->loop_ns = rates_field(l);
        e->blas_ns = rates_field(b);
    }
    fclose(f);
}

/* The entry of recipe in t, or NULL. */
static rates_entry *rates_in(rates_table *t, const char *recipe)
{
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->e[i].recipe, recipe) == 0)
            return &t->e[i];
    return NULL;
}

/* The file of this machine's rates into out (its folder made if missing); 0, or -1. */
int rates_path(char *out, size_t size)
{
    char dir[4096];
    if (chef_cache_dir("rates", dir, sizeof dir, NULL) != 0)
        return -1;
    int n = snprintf(out, size, "%s/%s", dir, RATES_FILE);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* The rates of recipe into out: 2 measured on this machine, 1 from the reference machine, 0 none. */
int rates_find(const char *recipe, rates_entry *out)
{
    rates_table *tab = malloc(sizeof *tab); /* some 8 KiB: not on a worker's stack */
    if (!tab)
        return 0;
    char path[4200];
    int found = 0;
    if (rates_path(path, sizeof path) == 0) {
        rates_read(path, tab);
        rates_entry *e = rates_in(tab, recipe);
        if (e) {
            *out = *e;
            found = 2;
        }
    }
    if (!found) {
        snprintf(path, sizeof path, "%s/assets/devices/%s", chef_data_dir(), RATES_FILE);
        rates_read(path, tab);
        rates_entry *e = rates_in(tab, recipe);
        if (e) {
            *out = *e;
            found = 1;
        }
    }
    free(tab);
    return found;
}

/* Writes t as the file's text. */
static int rates_write(FILE *f, const void *ctx)
{
    const rates_table *t = ctx;
    fprintf(f, "# cudachef: the CPU emulator's pace on this machine, ns per unit of each recipe's work\n"
               "# (elements or multiply-adds), measured by its runs; '-' not yet measured.\n"
               "# recipe\tworkers\twork\tcounted_ns\tplain_ns\tloop_ns\tblas_ns\n");
    for (int i = 0; i < t->count; i++) {
        const rates_entry *e = &t->e[i];
        const double v[4] = {e->counted_ns, e->plain_ns, e->loop_ns, e->blas_ns};
        fprintf(f, "%s\t%d\t%.4g", e->recipe, e->workers, e->work);
        for (int k = 0; k < 4; k++)
            v[k] > 0 ? fprintf(f, "\t%.4g", v[k]) : fprintf(f, "\t-");
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

/* Merges the known rates of e into this machine's file; quietly nothing when it cannot. */
void rates_record(const rates_entry *e)
{
    char path[4200];
    rates_table *t = malloc(sizeof *t);
    if (!t || rates_path(path, sizeof path) != 0) {
        free(t);
        return;
    }
    rates_read(path, t);
    rates_entry *old = rates_in(t, e->recipe);
    if (!old && t->count < RATES_MAX) {
        old = &t->e[t->count++];
        memset(old, 0, sizeof *old);
        snprintf(old->recipe, sizeof old->recipe, "%s", e->recipe);
    }
    if (old && e->work < old->work / 4) {
        free(t); /* paces from a run far larger than this one stay */
        return;
    }
    if (old) {
        old->work = e->work;
        if (old->workers > 0 && old->workers != e->workers) { /* a launch's pace kept, as for e's workers */
            old->counted_ns *= (double)old->workers / e->workers;
            old->plain_ns *= (double)old->workers / e->workers;
        }
        old->workers = e->workers;
        old->counted_ns = e->counted_ns > 0 ? e->counted_ns : old->counted_ns;
        old->plain_ns = e->plain_ns > 0 ? e->plain_ns : old->plain_ns;
        old->loop_ns = e->loop_ns > 0 ? e->loop_ns : old->loop_ns;
        old->blas_ns = e->blas_ns > 0 ? e->blas_ns : old->blas_ns;
        file_write_whole(path, rates_write, t, NULL);
    }
    free(t);
}
