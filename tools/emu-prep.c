/*
 * emu-prep.c - the build's tool over kernels/: emu-prep IN OUT [SHOWN_AS] writes IN after the
 * emulator's source pass (src/kit/emu_prep.c) to OUT, its #line naming SHOWN_AS (else IN).
 */
#include "emu_prep.h"

#include <stdio.h>

/* Runs the source pass over one file; exit 0, 1 with a message, or 2 for a wrong command line. */
int main(int argc, char **argv)
{
    char why[512];
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: emu-prep IN OUT [SHOWN_AS]\n");
        return 2;
    }
    if (emu_prep_file(argv[1], argc == 4 ? argv[3] : argv[1], argv[2], why, sizeof why) != 0) {
        fprintf(stderr, "emu-prep: %s: %s\n", argv[1], why);
        return 1;
    }
    return 0;
}
