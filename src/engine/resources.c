/*
 * resources.c - looks a kernel's recipe card up in the compiler's table (see resources.h).
 */
#include "engine/resources.h"

#include <string.h>

/* The row of kernel for the newest architecture at most cc, or NULL. */
const kernel_resource *resources_card(const char *kernel, double cc)
{
    int want = (int)(cc * 10 + 0.5);
    const kernel_resource *best = NULL;
    for (const kernel_resource *k = kernel_resources; kernel && k->kernel; k++)
        if (strcmp(k->kernel, kernel) == 0 && k->sm <= want && (!best || k->sm > best->sm))
            best = k;
    return best;
}

/* Registers per cook of kernel for compute capability cc, or 0 when not known. */
int resources_registers(const char *kernel, double cc)
{
    const kernel_resource *k = resources_card(kernel, cc);
    return k ? k->registers : 0;
}
