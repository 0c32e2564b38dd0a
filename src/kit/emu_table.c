/*
 * emu_table.c - compiles the kernels of a .def list as C for the emulator.
 *
 * Built once plainly and once as the "checked" build (compiled with per-access callbacks, see
 * emu_check.c); KERNEL_DEF names the list (kernels/kernels.def, or the tests' own) and EMU_TABLE
 * the table of entries this build exports. Each entry unpacks cudaLaunchKernel-style arguments and
 * runs one block's not-yet-started threads one after another (see EMU_COOK_ALL in emu_kernel.h).
 */
#include "emu_table.h"
#include "kernel_glue.h"

#include "emu_check_names.h"
#include "kernel.h"

#ifndef KERNEL_DEF
#define KERNEL_DEF "kernels.def"
#endif
#ifndef EMU_TABLE
#define EMU_TABLE emu_kernels_fast
#endif
/* A learner's exercise is built the same way into a module of its own (exercise_build.c), its
   names prefixed so they never meet the program's kernels of the same name. */
#ifndef EMU_ROW_PREFIX
#define EMU_ROW_PREFIX ""
#endif

/* The entry that cooks a runner's cooks one after another is the emulator's, not the kernel's: in
   the checked build its own basic blocks are not counted (they run once per runner, not per cook,
   and would read as branches the warp took apart); the kernel called in it keeps its count. */
#if defined(EMU_CHECKED) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#define EMU_ENTRY_ATTRIBUTES __attribute__((no_sanitize_coverage, noinline))
#else
#define EMU_ENTRY_ATTRIBUTES
#endif

/* A .def list names host functions (an exercise's five steps) with HOST(name, n, types) lines:
   nothing but in the fast build's export below. */
#define HOST(name, n, types)

#ifdef EMU_HOST
/* Host code launches a kernel of the list as kernel<<<grid, block>>>(args), which the source pass
   (emu_prep.c) wrote as emu_launch_kernel(EMU_CONFIG(grid, block), args): each kernel's launcher,
   declared before the sources so their host code can call it, and defined after them. Its
   parameters are the kernel's, so the arguments convert as CUDA converts them. */
#define KERNEL(name, n, types)                                                                     \
    __attribute__((unused)) static cudaError_t emu_launch_##name(emu_cuda_config emu_config_,     \
                                                                 CHEF_PARAMS(n, types));
#include KERNEL_DEF
#undef KERNEL
#endif

#define KERNEL_SOURCES
#define KERNEL(name, n, types)                                                                     \
    EMU_ENTRY_ATTRIBUTES static void emu_entry_##name(void **args)                                 \
    {                                                                                              \
        CHEF_DECLARE(n, types)                                                                     \
        EMU_COOK_ALL(name(CHEF_NAMES(n)));                                                         \
    }
#include KERNEL_DEF
#undef KERNEL
#undef KERNEL_SOURCES

#ifdef EMU_HOST
#define CHEF_ADDRS(n) CHEF_CAT(CHEF_ADDRS_, n)
#define CHEF_ADDRS_1 &p0
#define CHEF_ADDRS_2 CHEF_ADDRS_1, &p1
#define CHEF_ADDRS_3 CHEF_ADDRS_2, &p2
#define CHEF_ADDRS_4 CHEF_ADDRS_3, &p3
#define CHEF_ADDRS_5 CHEF_ADDRS_4, &p4
#define CHEF_ADDRS_6 CHEF_ADDRS_5, &p5
#define CHEF_ADDRS_7 CHEF_ADDRS_6, &p6
#define CHEF_ADDRS_8 CHEF_ADDRS_7, &p7
#define CHEF_SIZES(n) CHEF_CAT(CHEF_SIZES_, n)
#define CHEF_SIZES_1 sizeof p0
#define CHEF_SIZES_2 CHEF_SIZES_1, sizeof p1
#define CHEF_SIZES_3 CHEF_SIZES_2, sizeof p2
#define CHEF_SIZES_4 CHEF_SIZES_3, sizeof p3
#define CHEF_SIZES_5 CHEF_SIZES_4, sizeof p4
#define CHEF_SIZES_6 CHEF_SIZES_5, sizeof p5
#define CHEF_SIZES_7 CHEF_SIZES_6, sizeof p6
#define CHEF_SIZES_8 CHEF_SIZES_7, sizeof p7
/* Each launcher queues its kernel on the launch's stream, with the arguments' sizes so that their
   values can be kept until it runs. */
#define KERNEL(name, n, types)                                                                     \
    static cudaError_t emu_launch_##name(emu_cuda_config emu_config_, CHEF_PARAMS(n, types))      \
    {                                                                                              \
        void *args[] = {CHEF_ADDRS(n)};                                                            \
        const size_t sizes[] = {CHEF_SIZES(n)};                                                    \
        return emu_cuda_launch_queued(EMU_ROW_PREFIX #name, emu_config_, args, sizes, n);          \
    }
#include KERNEL_DEF
#undef KERNEL
#ifndef EMU_CHECKED
/* The host function, called by the runner with its arguments packed as a kernel's
   (exercise_runner.c): exported from the fast build only. */
#undef HOST
#define KERNEL(name, n, types)
#define HOST(name, n, types)                                                                       \
    __attribute__((visibility("default"))) int emu_host_entry(void **args)                         \
    {                                                                                              \
        CHEF_DECLARE(n, types)                                                                     \
        return name(CHEF_NAMES(n));                                                                \
    }
#include KERNEL_DEF
#undef KERNEL
#undef HOST
#define HOST(name, n, types)
#endif
#endif

extern const emu_kernel_row EMU_TABLE[];
#define KERNEL(name, n, types) {EMU_ROW_PREFIX #name, emu_entry_##name},
__attribute__((visibility("default"))) const emu_kernel_row EMU_TABLE[] = {
#include KERNEL_DEF
    {0, 0}};
#undef KERNEL
