/*
 * resources.h - what each of the program's kernels uses per cook on a GPU, as the compiler
 * reported it: the registers ptxas gave it for each architecture (nvcc --resource-usage while the
 * GPU kernels were built; the table is made by scripts/kernel-resources.sh). They limit how many
 * teams a station holds, so the model's occupancy reads them. A build without CUDA has none.
 */
#ifndef CUDACHEF_RESOURCES_H
#define CUDACHEF_RESOURCES_H

/* One kernel on one architecture. */
typedef struct kernel_resource {
    const char *kernel; /* the kernel's name, as kernels.def names it */
    int sm;             /* the architecture: 90 for sm_90 */
    int registers;      /* per cook */
} kernel_resource;

/* The table, ended by a row whose kernel is NULL (generated into the build folder). */
extern const kernel_resource kernel_resources[];

/* Registers per cook of kernel for a GPU of compute capability cc (9.0): the row of the newest
   architecture at most cc (what the driver would load), or 0 when not known. */
int resources_registers(const char *kernel, double cc);

#endif
