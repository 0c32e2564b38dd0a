/*
 * emu_registry.c - finds a kernel by name among those compiled into the program.
 *
 * The plain and checked builds of the same kernel list export parallel tables; this pairs them
 * into emu_kernel records. Tests register the tables of their own kernels the same way.
 */
#include <pthread.h>
#include <string.h>

#include "emu/emu.h"

extern const emu_kernel_row emu_kernels_fast[];
#ifdef EMU_HAVE_CHECKED
extern const emu_kernel_row emu_kernels_checked[];
#endif

#define EMU_MAX_KERNELS 128
#define EMU_MAX_TABLES 8

static pthread_mutex_t emu_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static emu_kernel emu_known[EMU_MAX_KERNELS];
static int emu_nknown;
static const emu_kernel_row *emu_tables[EMU_MAX_TABLES][2];
static int emu_ntables;

void emu_kernels_register(const void *fast_rows, const void *checked_rows);
/* Adds a pair of tables (plain, checked) to the ones searched by emu_kernel_find. */
void emu_kernels_register(const void *fast_rows, const void *checked_rows)
{
    pthread_mutex_lock(&emu_registry_lock);
    if (emu_ntables < EMU_MAX_TABLES) {
        emu_tables[emu_ntables][0] = fast_rows;
        emu_tables[emu_ntables][1] = checked_rows;
        emu_ntables++;
    }
    pthread_mutex_unlock(&emu_registry_lock);
}

/* Searches one pair of tables for name and remembers the kernel found. */
static const emu_kernel *emu_table_find(const emu_kernel_row *fast, const emu_kernel_row *checked,
                                        const char *name)
{
    for (int i = 0; fast && fast[i].name; i++) {
        if (strcmp(fast[i].name, name) != 0)
            continue;
        if (emu_nknown == EMU_MAX_KERNELS)
            return NULL;
        emu_kernel *k = &emu_known[emu_nknown++];
        k->name = fast[i].name;
        k->fast = fast[i].entry;
        k->checked = NULL;
        for (int j = 0; checked && checked[j].name; j++)
            if (strcmp(checked[j].name, name) == 0)
                k->checked = checked[j].entry;
        return k;
    }
    return NULL;
}

/* Looks a kernel up by name in the kernels compiled into the program; NULL if unknown. */
const emu_kernel *emu_kernel_find(const char *name)
{
    const emu_kernel *found = NULL;
    pthread_mutex_lock(&emu_registry_lock);
    for (int i = 0; i < emu_nknown && !found; i++)
        if (strcmp(emu_known[i].name, name) == 0)
            found = &emu_known[i];
#ifdef EMU_HAVE_CHECKED
    if (!found)
        found = emu_table_find(emu_kernels_fast, emu_kernels_checked, name);
#else
    if (!found)
        found = emu_table_find(emu_kernels_fast, NULL, name);
#endif
    for (int i = 0; i < emu_ntables && !found; i++)
        found = emu_table_find(emu_tables[i][0], emu_tables[i][1], name);
    pthread_mutex_unlock(&emu_registry_lock);
    return found;
}
