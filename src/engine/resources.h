/*
 * resources.h - what each of the program's kernels uses per cook and per team on a GPU, as the
 * compiler reported it: its recipe card. For each architecture, the registers, static shared
 * memory, stack frame and spills ptxas gave it (nvcc --resource-usage while the GPU kernels were
 * built; the table is made by scripts/kernel-resources.sh). Registers and shared memory limit how
 * many teams a station holds, so the model's occupancy reads them; lesson 18's card shows them
 * all. A build without CUDA has none.
 */
#ifndef CUDACHEF_RESOURCES_H
#define CUDACHEF_RESOURCES_H

/* One kernel on one architecture. */
typedef struct kernel_resource {
    const char *kernel; /* the kernel's name, as kernels.def names it */
    int sm;             /* the architecture: 90 for sm_90 */
    int registers;      /* per cook */
    int shared_bytes;   /* static __shared__ memory per team ("bytes smem") */
    int stack_bytes;    /* local memory per cook: the stack frame */
    int spill_stores;   /* bytes of registers ptxas stored to local memory (spills) */
    int spill_loads;    /* bytes it loaded back */
    int barriers;       /* named barriers the kernel uses (__syncthreads() is barrier 0) */
} kernel_resource;

/* The table, ended by a row whose kernel is NULL (generated into the build folder). */
extern const kernel_resource kernel_resources[];

/* The card of kernel for a GPU of compute capability cc (9.0): the row of the newest architecture
   at most cc (what the driver would load), or NULL when not known. */
const kernel_resource *resources_card(const char *kernel, double cc);

/* Registers per cook of kernel for a GPU of compute capability cc, or 0 when not known. */
int resources_registers(const char *kernel, double cc);

#endif
