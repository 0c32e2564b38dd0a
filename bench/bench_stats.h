/*
 * bench_stats.h - the median every benchmark of bench/ reports, written once.
 *
 * Header-only (static functions), so that each benchmark stays one program built from one .c file
 * with no cudachef code linked in: bench_emu.c, bench_tui.c and peer_pocl.c include it.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdlib.h>

/* For qsort: ascending doubles. */
static int bench_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (n >= 1); v is left sorted. */
static double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_compare);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
