/*
 * cuda_probe_rss.c - what starting CUDA adds to a process's resident memory: VmRSS before and
 * after backend_gpu_probe, the very call the full-screen interface makes in its background thread.
 * bench_tui subtracts the difference from cudachef's own resident memory, since issue 4's memory
 * goal is "apart from what the CUDA driver maps". Prints "BEFORE_KB AFTER_KB FOUND" and exits 0.
 */
#include <stdio.h>

#include "engine/backend.h"

/* The process's VmRSS in kB, or -1. */
static long probe_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

int main(void)
{
    long before = probe_rss_kb();
    backend_info info;
    int found = backend_gpu_probe(&info) == 0;
    long after = probe_rss_kb();
    printf("%ld %ld %d\n", before, after, found);
    return before < 0 || after < 0;
}
