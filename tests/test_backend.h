/*
 * test_backend.h - which backend a test cooks on: CUDACHEF_TEST_BACKEND=gpu (make test-gpu) or the
 * CPU emulator (make test). Shared by the tests that cook.
 */
#ifndef CUDACHEF_TEST_BACKEND_H
#define CUDACHEF_TEST_BACKEND_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"

/* "gpu" means the GPU; anything else (or nothing) the emulator. */
static inline backend_kind test_backend_from_env(void)
{
    const char *want = getenv("CUDACHEF_TEST_BACKEND");
    return want && strcmp(want, "gpu") == 0 ? BACKEND_GPU : BACKEND_EMU;
}

/* 1 after printing one "SKIP:" line when the GPU is asked for but none is usable, else 0. */
static inline int test_backend_skip(backend_kind kind)
{
    if (kind != BACKEND_GPU)
        return 0;
    backend_info info;
    memset(&info, 0, sizeof info);
    if (backend_gpu_probe(&info) == 0)
        return 0;
    printf("SKIP: no usable GPU (%s)\n", info.no_gpu_reason[0] ? info.no_gpu_reason : "unknown reason");
    return 1;
}

/* 1 when the tests run under a memory tool (make asan and make valgrind set CUDACHEF_TEST_SANITIZER),
   which runs a program 2 (AddressSanitizer) to 60 (memcheck) times slower: the few cases that cook
   for seconds then cook less, the same host code on fewer sizes, orders and kernels (each says what,
   and make test runs them whole; docs/SANITIZERS.md lists them). */
static inline int test_under_memory_tool(void)
{
    const char *tool = getenv("CUDACHEF_TEST_SANITIZER");
    return tool && (strcmp(tool, "valgrind") == 0 || strcmp(tool, "address") == 0);
}

#endif
