/*
 * resources.c - looks a kernel's registers up in the compiler's table (see resources.h).
 */
#include "engine/resources.h"

#include <string.h>

/* Registers per cook of kernel for compute capability cc, or 0 when not known. */
int resources_registers(const char *kernel, double cc)
{
    int want = (int)(cc * 10 + 0.5), best_sm = 0, registers = 0;
    for (const kernel_resource *k = kernel_resources; kernel && k->kernel; k++)
        if (strcmp(k->kernel, kernel) == 0 && k->sm <= want && k->sm > best_sm) {
            best_sm = k->sm;
            registers = k->registers;
        }
    return registers;
}
