/*
 * rates.h - how fast the emulator cooks each recipe on this machine, measured, so that a run's
 * wait is predicted before it starts (the kitchen's "this will take a while" note).
 *
 * A rate is the time per unit of a recipe's work (recipe->work(n): elements, or multiply-adds)
 * in ns, for each part of a run that grows with n: the checked launch that counts (its counted
 * teams), a plain launch, and the CPU reference (the plain loop, or OpenBLAS). The rates of this
 * machine are the cache's emulator-rates.tsv, written after each run long enough to time; before
 * any, the ones measured on the reference machine (assets/devices/emulator-rates.tsv, made by
 * scripts/emu-rates.sh) stand in.
 */
#ifndef CUDACHEF_RATES_H
#define CUDACHEF_RATES_H

#include <stddef.h>

/* One recipe's rates; a rate of 0 is not known. */
typedef struct rates_entry {
    char recipe[48];
    int workers;        /* the emulator's workers when they were measured */
    double work;        /* the work of the run they were measured in */
    double counted_ns;  /* the checked launch, per unit of work of its counted teams */
    double plain_ns;    /* a plain launch */
    double loop_ns;     /* the plain-loop CPU reference */
    double blas_ns;     /* the OpenBLAS reference */
} rates_entry;

/* The rates of recipe into out: 2 measured on this machine, 1 from the reference machine, 0 none. */
int rates_find(const char *recipe, rates_entry *out);

/* Merges the rates of e that are known (not 0) into this machine's file; quietly nothing when the
   cache cannot be written (it is only a cache). */
void rates_record(const rates_entry *e);

/* The file of this machine's rates into out (made if missing); 0, or -1. */
int rates_path(char *out, size_t size);

#endif
