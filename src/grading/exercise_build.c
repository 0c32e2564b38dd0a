/*
 * exercise_build.c - builds a learner's kernel on its own, so that a broken exercise never breaks
 * the program or another exercise, and keeps the build in a cache keyed by its content.
 *
 * The learner's file is compiled with the same glue as the program's own kernels, listed in a
 * generated .def file (KERNEL_DEF) with the signature of the recipe's kernel from kernels.def:
 *   - for the emulator, by the C compiler ($CC, else cc): src/kit/emu_table.c twice (plain, and
 *     checked with the access callbacks), linked into a shared object whose table rows are called
 *     "exercise:NAME" and whose other symbols stay hidden;
 *   - for the GPU, by nvcc ($NVCC, else nvcc on PATH, else the toolkit cudachef was built with):
 *     src/kit/gpu_table.cu into a fatbin for the GPU's own architecture.
 * The cache key is a hash of the source, the generated glue, the glue's own files, the compiler
 * command and cudachef's version: an unchanged exercise is never rebuilt. The cache is under
 * $CUDACHEF_CACHE_HOME, else $XDG_CACHE_HOME/cudachef, else ~/.cache/cudachef.
 */
#include "grading/exercise_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grading/child.h"
#include "kit/emu_prep.h"
#include "kit/gpu_table.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"

#define BUILD_TIMEOUT_S 120
#define BUILD_LOG_KEEP (64 << 10)
#define BUILD_MEMORY_MB 4096 /* the C compiler's address space (nvcc's own tools get none: CUDA maps large) */
#define BUILD_FILE_MB 512    /* the largest file a compiler may write */
#ifndef CHEF_KIT_DIR
#define CHEF_KIT_DIR "src/kit" /* the kernel kit, in the data folder (the Makefile sets it) */
#endif

/* FNV-1a over bytes, continuing from h. */
static uint64_t build_hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Hashes a file's contents (a missing file hashes its name). */
static uint64_t build_hash_file(uint64_t h, const char *path)
{
    size_t size = 0;
    char *text = lesson_read_file(path, &size);
    h = text ? build_hash(h, text, size) : build_hash(h, path, strlen(path));
    free(text);
    return h;
}

/* The kit's own files, for scandir: every name but "." and "..". */
static int build_kit_file(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* The KERNEL line of the recipe's kernel in kernels.def, with the learner's kernel's name. */
static int build_def_line(const exercise *ex, char *out, size_t size, chef_error *err)
{
    const recipe *rc = recipe_find(ex->recipe);
    char path[4200];
    snprintf(path, sizeof path, "%s/kernels.def", lesson_kernels_dir());
    char *text = lesson_read_file(path, NULL);
    char want[160];
    snprintf(want, sizeof want, "\nKERNEL(%s,", rc ? rc->kernel : "");
    const char *at = text ? strstr(text, want) : NULL;
    if (!at) {
        free(text);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("reinstall cudachef: its kernels are incomplete"),
                         _("%s does not list the kernel of recipe %s"), path, ex->recipe);
    }
    at += strlen(want);
    const char *end = strchr(at, '\n');
    snprintf(out, size, "KERNEL(%s,%.*s\n", ex->kernel, (int)(end ? end - at : (long)strlen(at)), at);
    free(text);
    return 0;
}

/* The kernel ex cooks, as "NAME(types)". */
void exercise_signature(const exercise *ex, char *out, size_t size)
{
    char line[512];
    chef_error err = {0};
    out[0] = '\0';
    if (build_def_line(ex, line, sizeof line, &err) != 0)
        return;
    /* KERNEL(name, n, (types))\n */
    const char *types = strchr(line, '(');
    types = types ? strchr(types + 1, '(') : NULL;
    const char *end = types ? strrchr(types, ')') : NULL;
    if (types && end) /* types runs to the KERNEL line's own closing bracket, its last ')' */
        snprintf(out, size, "%s%.*s", ex->kernel, (int)(end - types), types);
}

/* Runs a compiler command under limits (memory_mb: its address space, 0 none), keeping its words
   in *log: 0 it succeeded, 1 it refused, -1 err. The learner's source decides what the compiler
   does (an #include of /dev/zero, a macro that grows without end): its time, memory and the files
   it writes are bounded. */
static int build_run(char *const *argv, long memory_mb, char **log, chef_cancel *cancel, chef_error *err)
{
    child_spec spec = {.argv = argv,
                       .timeout_s = BUILD_TIMEOUT_S,
                       .keep = BUILD_LOG_KEEP,
                       .limit_cpu_s = BUILD_TIMEOUT_S + 5,
                       .limit_memory_mb = memory_mb,
                       .limit_file_mb = BUILD_FILE_MB,
                       .cancel = cancel};
    child_outcome out;
    if (child_run(&spec, &out, err) != 0)
        return -1;
    if (out.cancelled) {
        child_outcome_free(&out);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "the check was stopped while the kernel was being built");
        err->cause = CHEF_CAUSE_CANCELLED;
        return -1;
    }
    size_t have = *log ? strlen(*log) : 0, add = strlen(out.output);
    char *grown = realloc(*log, have + add + 1);
    if (grown) {
        memcpy(grown + have, out.output, add + 1);
        *log = grown;
    }
    int ok = out.exited && out.status == 0;
    int missing = out.exited && out.status == 127;
    child_outcome_free(&out);
    if (missing)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                         _("install a C compiler (apt-get install gcc) or the CUDA toolkit, or set CC / NVCC"),
                         _("the compiler %s could not be run"), argv[0]);
    if (out.timed_out)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("the compiler took longer than %d s"), BUILD_TIMEOUT_S);
    return ok ? 0 : 1;
}

/* The nvcc to use. */
static const char *build_nvcc(void)
{
    const char *env = getenv("NVCC");
    if (env && *env)
        return env;
    static const char path[] = CHEF_CUDA_LIB_DIR "/../bin/nvcc"; /* no buffer shared between threads */
    return access(path, X_OK) == 0 ? path : "nvcc";
}

/* After a GPU build: the registers ptxas gave the learner's kernel (the plain one, namespace
   chef_plain of gpu_table.cu; --resource-usage) into DIR/registers, and ptxas's report taken out
   of the log, which then holds the compiler's own words only. */
static void build_keep_registers(char **log, const char *dir)
{
    if (!*log)
        return;
    int registers = 0, plain = 0;
    char *out = *log;
    for (char *line = *log; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        int info = strncmp(line, "ptxas info", 10) == 0 ||
                   (strncmp(line, "    ", 4) == 0 && memmem(line, len, "bytes stack frame", 17));
        if (info && memmem(line, len, "Compiling entry function", 24))
            plain = memmem(line, len, "chef_plain", 10) != NULL;
        const char *used = info ? memmem(line, len, "Used ", 5) : NULL;
        if (used && plain && registers == 0)
            registers = atoi(used + 5);
        if (!info) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
    if (!**log) {
        free(*log);
        *log = NULL;
    }
    char path[4500];
    snprintf(path, sizeof path, "%s/registers", dir);
    FILE *f = registers > 0 ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", registers);
        fclose(f);
    }
}

/* The registers a cook of the learner's kernel uses on a GPU of compute capability cc, as ptxas
   gives them: the kernel built for that GPU with nvcc (into the cache, where a second call finds
   it); 0 when not known (no nvcc here, or it does not build). */
int exercise_registers(const exercise *ex, const char *source, double cc, chef_cancel *cancel)
{
    backend_info target;
    memset(&target, 0, sizeof target);
    target.cc_major = (int)cc;
    target.cc_minor = (int)(cc * 10 + 0.5) % 10;
    char module[4600], *log = NULL, path[4700];
    int cached = 0, registers = 0;
    chef_error err = {0};
    if (exercise_build(ex, source, 1, &target, module, sizeof module, &log, &cached, cancel, &err) == 0) {
        snprintf(path, sizeof path, "%s", module);
        char *slash = strrchr(path, '/');
        if (slash) {
            snprintf(slash, sizeof path - (size_t)(slash - path), "/registers");
            FILE *f = fopen(path, "r");
            if (f && fscanf(f, "%d", &registers) != 1)
                registers = 0;
            if (f)
                fclose(f);
        }
    }
    free(log);
    return registers;
}

/* Builds source for ex into the cache (or finds it there). */
int exercise_build(const exercise *ex, const char *source, int gpu, const backend_info *info, char *module,
                   size_t size, char **log, int *cached, chef_cancel *cancel, chef_error *err)
{
    *log = NULL;
    *cached = 0;
    char absolute[4096], def_line[512], cache[4096], dir[4400], def[4500], data[4096];
    if (!realpath(source, absolute))
        return chef_fail(err, CHEF_EXIT_USAGE, _("check the path, or run cudachef init to make a workspace"),
                         _("cannot read %s: %s"), source, strerror(errno));
    if (build_def_line(ex, def_line, sizeof def_line, err) != 0 || chef_cache_dir("builds", cache, sizeof cache, err) != 0)
        return -1;
    snprintf(data, sizeof data, "%s", chef_data_dir());
    const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    char arch[64] = "";
    if (gpu)
        snprintf(arch, sizeof arch, "arch=compute_%d%d,code=sm_%d%d", info->cc_major, info->cc_minor, info->cc_major,
                 info->cc_minor);
    /* the key: everything that changes what the build makes */
    uint64_t h = 0xcbf29ce484222325ULL;
    h = build_hash(h, CHEF_VERSION, strlen(CHEF_VERSION));
    h = build_hash(h, def_line, strlen(def_line));
    h = build_hash(h, gpu ? build_nvcc() : cc, strlen(gpu ? build_nvcc() : cc));
    h = build_hash(h, arch, strlen(arch));
    h = build_hash_file(h, absolute);
    /* the kit: every file of its folder, in the order of their names */
    char kit[4200];
    snprintf(kit, sizeof kit, "%s/%s", data, CHEF_KIT_DIR);
    struct dirent **names = NULL;
    int nnames = scandir(kit, &names, build_kit_file, alphasort);
    for (int i = 0; i < nnames; i++) {
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", kit, names[i]->d_name);
        h = build_hash(h, names[i]->d_name, strlen(names[i]->d_name));
        h = build_hash_file(h, path);
        free(names[i]);
    }
    free(names);
    if (nnames <= 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("reinstall cudachef, or set CUDACHEF_DATA to its data folder"),
                         _("the kernel kit %s cannot be read: %s"), kit, nnames < 0 ? strerror(errno) : _("it is empty"));
    snprintf(dir, sizeof dir, "%s/%s-%016llx", cache, ex->name, (unsigned long long)h);
    snprintf(module, size, "%s/%s", dir, gpu ? "module.fatbin" : "module.so");
    if (access(module, R_OK) == 0) {
        *cached = 1;
        return 0;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), dir, strerror(errno));
    /* the emulator compiles the learner's file after the source pass (kit/emu_prep.c), which keeps
       its name and lines for the compiler's messages */
    char prepped[4500], why[512];
    snprintf(prepped, sizeof prepped, "%s/source.cu", dir);
    if (!gpu && emu_prep_file(absolute, source, prepped, why, sizeof why) != 0)
        return chef_fail(err, CHEF_EXIT_BUILD, _("check the __shared__ declarations of the kernel"),
                         _("cannot prepare %s for the emulator: %s"), source, why);
    snprintf(def, sizeof def, "%s/exercise.def", dir);
    FILE *f = fopen(def, "w");
    if (!f || fprintf(f, "#ifdef KERNEL_SOURCES\n#include \"%s\"\n#endif\n%s", gpu ? absolute : prepped, def_line) < 0 ||
        fclose(f) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), def, strerror(errno));
    char def_macro[4600], inc_kit[4300], inc_kernels[4200], tmp[4500];
    snprintf(def_macro, sizeof def_macro, "-DKERNEL_DEF=\"%s\"", def);
    snprintf(inc_kit, sizeof inc_kit, "-I%s", kit);
    snprintf(inc_kernels, sizeof inc_kernels, "-I%s/kernels", data);
    snprintf(tmp, sizeof tmp, "%s.tmp", module);
    int rc;
    if (gpu) {
        char glue_cu[4300];
        snprintf(glue_cu, sizeof glue_cu, "%s/gpu_table.cu", kit);
        char *argv[] = {(char *)build_nvcc(), "-fatbin", "-O3", "-std=c++17", "-gencode", arch, "--resource-usage",
                        inc_kit, inc_kernels, def_macro, "-DGPU_TABLE=exercise_gpu_kernels", glue_cu, "-o", tmp, NULL};
        rc = build_run(argv, 0, log, cancel, err);
        if (rc == 0)
            build_keep_registers(log, dir);
    } else {
        char glue_c[4300], fast[4500], checked[4500], inc_source[4200];
        /* the learner's own quoted includes are still found beside the file */
        snprintf(inc_source, sizeof inc_source, "-iquote%s", absolute);
        char *slash = strrchr(inc_source, '/');
        if (slash)
            *slash = 0;
        snprintf(glue_c, sizeof glue_c, "%s/emu_table.c", kit);
        snprintf(fast, sizeof fast, "%s/fast.o", dir);
        snprintf(checked, sizeof checked, "%s/checked.o", dir);
        char *plain[] = {(char *)cc, "-std=c11", "-O2", "-fPIC", "-fvisibility=hidden", "-D_GNU_SOURCE", "-pthread",
                         inc_kit, inc_kernels, inc_source, def_macro, "-DEMU_TABLE=exercise_kernels_fast",
                         "-DEMU_ROW_PREFIX=\"exercise:\"", "-c", glue_c, "-o", fast, NULL};
        char *check[] = {(char *)cc, "-std=c11", "-O2", "-fPIC", "-fvisibility=hidden", "-D_GNU_SOURCE", "-pthread",
                         inc_kit, inc_kernels, inc_source, def_macro, "-DEMU_TABLE=exercise_kernels_checked",
                         "-DEMU_ROW_PREFIX=\"exercise:\"", "-DEMU_CHECKED", "-fsanitize=thread",
                         "-fsanitize-coverage=trace-pc", "-ftrivial-auto-var-init=pattern", "-fno-tree-vectorize",
                         "-fno-tree-slp-vectorize", "-fno-tree-sra", "-c", glue_c, "-o", checked, NULL};
        char *link[] = {(char *)cc, "-shared", "-o", tmp, fast, checked, "-lm", NULL};
        rc = build_run(plain, BUILD_MEMORY_MB, log, cancel, err);
        if (rc == 0) {
            free(*log); /* the checked build repeats the same warnings: keep one copy */
            *log = NULL;
            rc = build_run(check, BUILD_MEMORY_MB, log, cancel, err);
        }
        if (rc == 0)
            rc = build_run(link, BUILD_MEMORY_MB, log, cancel, err);
        unlink(fast);
        unlink(checked);
        unlink(prepped);
    }
    if (rc == 0 && rename(tmp, module) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), module, strerror(errno));
    if (rc != 0)
        unlink(tmp);
    return rc;
}
