/*
 * emu_table.h - what a build of the kit for the emulator exports: a table of rows, one per
 * KERNEL line of a .def list, each the kernel's name and the C function that runs one team's
 * cooks (emu_table.c makes it; the emulator's registry, src/emu/emu_registry.c, reads it). The
 * kit includes nothing outside itself, so a learner's kernel builds from the kit folder alone.
 */
#ifndef CUDACHEF_KIT_EMU_TABLE_H
#define CUDACHEF_KIT_EMU_TABLE_H

/* A kernel as the emulator calls it: unpacks args (as for cudaLaunchKernel) and runs the cooks. */
typedef void (*emu_entry)(void **args);

/* One row of a table; a table ends with a row whose name is NULL. */
typedef struct emu_kernel_row {
    const char *name;
    emu_entry entry;
} emu_kernel_row;

#endif
