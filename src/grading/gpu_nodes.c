/*
 * gpu_nodes.c - the machine's NVIDIA GPUs from the driver's /proc/driver/nvidia/gpus (gpu_nodes.h).
 */
#include "grading/gpu_nodes.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The driver's folder of GPUs: CUDACHEF_GPU_PROC, else the driver's own. */
static const char *gpu_nodes_proc_dir(void)
{
    const char *fake = getenv("CUDACHEF_GPU_PROC");
    return fake && *fake ? fake : "/proc/driver/nvidia/gpus";
}

int gpu_nodes_fake(void)
{
    const char *fake = getenv("CUDACHEF_GPU_PROC");
    return fake && *fake;
}

const char *gpu_nodes_dev_dir(void)
{
    const char *dev = getenv("CUDACHEF_GPU_DEV");
    return dev && *dev ? dev : "/dev";
}

/* Copies the value after "key:" in line into out, without the blanks around it; 1 if the line
   has that key. */
static int gpu_nodes_field(const char *line, const char *key, char *out, size_t size)
{
    size_t len = strlen(key);
    if (strncmp(line, key, len) != 0 || line[len] != ':')
        return 0;
    const char *v = line + len + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    size_t n = strcspn(v, "\r\n");
    while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    snprintf(out, size, "%.*s", (int)n, v);
    return 1;
}

/* Reads one GPU's information file into g; 0 when it has a UUID and a device minor and is not
   excluded (a GPU the driver excludes is one nvidia-smi and CUDA do not count either). */
static int gpu_nodes_read(const char *path, gpu_node *g)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512], minor[32] = "", excluded[16] = "";
    while (fgets(line, sizeof line, f)) {
        gpu_nodes_field(line, "Model", g->model, sizeof g->model);
        gpu_nodes_field(line, "GPU UUID", g->uuid, sizeof g->uuid);
        gpu_nodes_field(line, "Device Minor", minor, sizeof minor);
        gpu_nodes_field(line, "GPU Excluded", excluded, sizeof excluded);
    }
    fclose(f);
    char *end = NULL;
    long m = strtol(minor, &end, 10);
    if (!minor[0] || *end || m < 0 || m > 255 || strncmp(g->uuid, "GPU-", 4) != 0 || strcmp(excluded, "Yes") == 0)
        return -1;
    g->minor = (int)m;
    return 0;
}

int gpu_nodes_entry(const char *text, size_t len, char *out, size_t size)
{
    while (len > 0 && (*text == ' ' || *text == '\t')) {
        text++;
        len--;
    }
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (len == 0 || len >= size)
        return -1;
    snprintf(out, size, "%.*s", (int)len, text);
    return 0;
}

/* PCI order: by address. */
static int gpu_nodes_by_bus(const void *a, const void *b)
{
    return strcmp(((const gpu_node *)a)->bus, ((const gpu_node *)b)->bus);
}

int gpu_nodes_list(gpu_node *out, int max)
{
    DIR *d = opendir(gpu_nodes_proc_dir());
    if (!d)
        return 0;
    gpu_node *all = calloc(GPU_NODES_READ, sizeof *all); /* every one, then the first max in PCI order */
    int n = 0;
    for (struct dirent *e; all && n < GPU_NODES_READ && (e = readdir(d));) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof all[n].bus)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/information", gpu_nodes_proc_dir(), e->d_name);
        snprintf(all[n].bus, sizeof all[n].bus, "%s", e->d_name);
        if (gpu_nodes_read(path, &all[n]) == 0)
            n++;
        else
            memset(&all[n], 0, sizeof all[n]);
    }
    closedir(d);
    if (!all)
        return 0;
    qsort(all, (size_t)n, sizeof *all, gpu_nodes_by_bus);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        out[i] = all[i];
        out[i].index = i;
    }
    free(all);
    return n;
}

const gpu_node *gpu_nodes_find(const gpu_node *list, int n, const char *given)
{
    char entry[96];
    if (!given || gpu_nodes_entry(given, strlen(given), entry, sizeof entry) != 0)
        return NULL;
    if (isdigit((unsigned char)entry[0])) {
        char *end = NULL;
        long i = strtol(entry, &end, 10);
        return *end == '\0' && i >= 0 && i < n ? &list[i] : NULL;
    }
    if (strncmp(entry, "GPU-", 4) != 0 || strlen(entry) < 5)
        return NULL;
    const gpu_node *found = NULL;
    for (int i = 0; i < n; i++)
        if (strncasecmp(list[i].uuid, entry, strlen(entry)) == 0) {
            if (found)
                return NULL; /* a beginning that two GPUs share */
            found = &list[i];
        }
    return found;
}
