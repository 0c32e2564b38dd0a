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

#include <fcntl.h>
#include <ftw.h>
#include <openssl/evp.h>

#include "grading/build.h"
#include "grading/child.h"
#include "grading/sandbox.h"
#include "kit/emu_prep.h"
#include "kit/gpu_table.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"


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
    int len = (int)(end ? end - at : (long)strlen(at));
    char *types = NULL;
    long nparams = strtol(at, &types, 10);
    types = types ? strchr(types, '(') : NULL;
    if (ex->host && (!types || len < 2 || strncmp(at + len - 2, "))", 2) != 0 || types > at + len - 2)) {
        free(text);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("reinstall cudachef: its kernels are incomplete"),
                         _("%s lists the kernel of recipe %s in a form the exercises do not read"), path, ex->recipe);
    }
    if (ex->host) { /* a host exercise: the kernel's parameters, then a float * for each host-out */
        char extra[EXERCISE_MAX_OUTS * 12 + 1] = "";
        for (int i = 0; i < ex->nouts; i++)
            strcat(extra, ", float *");
        snprintf(out, size, "KERNEL(%s,%.*s\nHOST(%s, %ld, (%.*s%s))\n", ex->kernel, len, at, ex->host,
                 nparams + ex->nouts, (int)(at + len - 2 - (types + 1)), types + 1, extra);
    } else
        snprintf(out, size, "KERNEL(%s,%.*s\n", ex->kernel, len, at);
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
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = '\0';
    const char *types = strchr(line, '(');
    types = types ? strchr(types + 1, '(') : NULL;
    const char *end = types ? strrchr(types, ')') : NULL;
    if (types && end) /* types runs to the KERNEL line's own closing bracket, its last ')' */
        snprintf(out, size, "%s%.*s", ex->kernel, (int)(end - types), types);
}

/* The nvcc to use. */
const char *exercise_nvcc(void)
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

/* Opens source's file as exercise_source_read does: its folder (the lesson's, in a workspace) from
   the one above it, then the file in it, neither through a link. -1 with errno (ELOOP: a link). */
static int source_open(const char *source)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", source) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    char *name = strrchr(path, '/');
    const char *top = ".", *folder = ".";
    if (name) {
        *name++ = '\0';
        char *base = strrchr(path, '/');
        if (base) {
            *base++ = '\0';
            top = path[0] ? path : "/";
            folder = base[0] ? base : ".";
        } else {
            top = path[0] ? "." : "/";
            folder = path[0] ? path : ".";
        }
    } else {
        name = path;
    }
    int topfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (topfd < 0)
        return -1;
    int dirfd = openat(topfd, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    struct stat st;
    if (dirfd < 0 && fstatat(topfd, folder, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        e = ELOOP; /* the folder is a link (O_DIRECTORY may say ENOTDIR) */
    close(topfd);
    if (dirfd < 0) {
        errno = e;
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    e = errno;
    close(dirfd);
    errno = e;
    return fd;
}

/* Reads the learner's file for a build into *text: a regular file of its own, opened without
   following a link, in a folder that is no link either (a link or a hard link to another file, the
   solution's or a classmate's, or a lesson folder linked to another workspace's, is refused).
   0, or -1 with err. */
int exercise_source_read(const char *source, char **text, size_t *size, chef_error *err)
{
    *text = NULL;
    int fd = source_open(source);
    struct stat st;
    if (fd < 0 && errno == ELOOP)
        return chef_fail(err, CHEF_EXIT_USAGE, _("copy the kernel into a file of its own (cp --remove-destination)"),
                         _("%s is a symbolic link or lies in a linked folder: only a file of the workspace's own is built"), source);
    if (fd < 0)
        return chef_fail(err, errno == ENOENT ? CHEF_EXIT_USAGE : CHEF_EXIT_ENVIRONMENT,
                         errno == ENOENT ? _("check the path, or run cudachef init to make a workspace")
                                         : _("make it readable (chmod u+r)"),
                         _("cannot read %s: %s"), source, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return chef_fail(err, CHEF_EXIT_USAGE, _("put the kernel in a plain file"),
                         _("%s is not a regular file"), source);
    }
    if (st.st_nlink > 1) {
        close(fd);
        return chef_fail(err, CHEF_EXIT_USAGE, _("copy the kernel into a file of its own (cp --remove-destination)"),
                         _("%s is a hard link to another file: only a file of the workspace's own is built"), source);
    }
    if (st.st_size > (16 << 20)) {
        close(fd);
        return chef_fail(err, CHEF_EXIT_USAGE, _("a kernel's file is a few kilobytes"), _("%s is larger than 16 MiB"),
                         source);
    }
    char *buf = malloc((size_t)st.st_size + 1);
    ssize_t got = buf ? read(fd, buf, (size_t)st.st_size) : -1;
    close(fd);
    if (got < 0) {
        free(buf);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot read %s: %s"), source, strerror(errno));
    }
    buf[got] = '\0';
    *text = buf;
    *size = (size_t)got;
    return 0;
}

/* 1 when a header the compiler read is one a learner may include: the kit's, the build's own
   files (the learner's copy, named as its #line names it), or a system or toolkit header (a folder
   named include, or GCC's own). */
static int build_header_allowed(const char *path, const char *kit, const char *scratch, const char *shown)
{
    char real[PATH_MAX];
    if (strcmp(path, shown) == 0)
        return 1;
    if (!realpath(path, real))
        snprintf(real, sizeof real, "%s", path);
    size_t nk = strlen(kit), ns = strlen(scratch);
    if ((strncmp(real, kit, nk) == 0 && real[nk] == '/') || (strncmp(real, scratch, ns) == 0 && real[ns] == '/'))
        return 1;
    return strncmp(real, "/usr/", 5) == 0 && (strstr(real, "/include/") || strstr(real, "/lib/gcc/"));
}

/* Reads the compiler's dependency list (make's syntax) and refuses an include of any other file:
   0 fine, 1 refused (*log says which), -1 the list is missing. */
static int build_check_headers(const char *deps, const char *kit, const char *scratch, const char *shown, char **log)
{
    struct stat st; /* the scratch folder was the box's: a link planted there is never followed */
    char *text = lstat(deps, &st) == 0 && S_ISREG(st.st_mode) ? lesson_read_file(deps, NULL) : NULL;
    if (!text)
        return -1;
    char *p = strchr(text, ':'); /* after "target:" */
    int refused = 0;
    for (p = p ? p + 1 : text; *p && !refused;) {
        while (*p == ' ' || *p == '\\' || *p == '\n' || *p == '\t')
            p++;
        char name[PATH_MAX];
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\n' && *p != '\t' && n + 1 < sizeof name) {
            if (*p == '\\' && p[1] == ' ') /* an escaped space belongs to the name */
                p++;
            else if (*p == '\\' && p[1] == '\n')
                break;
            name[n++] = *p++;
        }
        name[n] = '\0';
        if (n == 0 || name[n - 1] == ':')
            continue;
        if (!build_header_allowed(name, kit, scratch, shown)) {
            char line[PATH_MAX + 400];
            snprintf(line, sizeof line,
                     _("%s: includes %s: a kernel may include only the kit's headers (kernel.h) and the C and CUDA "
                       "standard headers\n"),
                     shown, name);
            size_t have = *log ? strlen(*log) : 0, add = strlen(line);
            char *grown = realloc(*log, have + add + 1);
            if (grown) {
                memcpy(grown + have, line, add + 1);
                *log = grown;
            }
            refused = 1;
        }
    }
    free(text);
    return refused;
}

/* Builds source for ex into the cache (or finds it there).

   The trusted side reads the learner's file (exercise_source_read), keys the build by SHA-256 of
   everything that changes it, and looks for the entry; an entry whose module does not match the
   SHA-256 recorded beside it is rebuilt. A build runs in a scratch folder of its own, boxed
   (sandbox.h): the compilers see the system's headers, the kit and the one copied file, nothing
   else; then this process checks the compiler's list of included files and copies the module into
   the entry, which the check binds read-only. */
int exercise_build(const exercise *ex, const char *source, int gpu, const backend_info *info, char *module,
                   size_t size, char **log, int *cached, chef_cancel *cancel, chef_error *err)
{
    *log = NULL;
    *cached = 0;
    char def_line[512], cache[4096], dir[4400], data[4096], kit[4200];
    size_t text_size = 0;
    char *text = NULL;
    int boxed = sandbox_decide(err);
    if (boxed < 0)
        return -1;
    if (build_def_line(ex, def_line, sizeof def_line, err) != 0 ||
        chef_cache_dir("builds", cache, sizeof cache, err) != 0 ||
        exercise_source_read(source, &text, &text_size, err) != 0)
        return -1;
    if (!realpath(chef_data_dir(), data))
        snprintf(data, sizeof data, "%s", chef_data_dir());
    snprintf(kit, sizeof kit, "%s/%s", data, CHEF_KIT_DIR);
    const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    char arch[64] = "";
    if (gpu)
        snprintf(arch, sizeof arch, "arch=compute_%d%d,code=sm_%d%d", info->cc_major, info->cc_minor, info->cc_major,
                 info->cc_minor);
    /* the key: everything that changes what the build makes */
    build_key k;
    if (build_key_start(&k) != 0) {
        free(text);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("SHA-256 is not available (libcrypto)"));
    }
    const char *compiler = gpu ? exercise_nvcc() : cc;
    char compiler_real[PATH_MAX] = "";
    struct stat cst;
    memset(&cst, 0, sizeof cst);
    if (realpath(compiler, compiler_real))
        stat(compiler_real, &cst);
    build_hash(&k, CHEF_VERSION, strlen(CHEF_VERSION));
    build_hash(&k, def_line, strlen(def_line));
    build_hash(&k, compiler, strlen(compiler));
    build_hash(&k, compiler_real, strlen(compiler_real));
    build_hash(&k, &cst.st_size, sizeof cst.st_size);
    build_hash(&k, &cst.st_mtime, sizeof cst.st_mtime);
    build_hash(&k, arch, strlen(arch));
    build_hash(&k, &boxed, sizeof boxed);
    build_hash(&k, text, text_size);
    /* the kit: every file of its folder, in the order of their names */
    struct dirent **names = NULL;
    int nnames = scandir(kit, &names, build_kit_file, alphasort);
    for (int i = 0; i < nnames; i++) {
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", kit, names[i]->d_name);
        build_hash(&k, names[i]->d_name, strlen(names[i]->d_name));
        build_hash_file(&k, path);
        free(names[i]);
    }
    free(names);
    char key[65];
    build_key_hex(&k, key);
    if (nnames <= 0) {
        free(text);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("reinstall cudachef, or set CUDACHEF_DATA to its data folder"),
                         _("the kernel kit %s cannot be read: %s"), kit, nnames < 0 ? strerror(errno) : _("it is empty"));
    }
    snprintf(dir, sizeof dir, "%s/%s-%s", cache, ex->name, key);
    snprintf(module, size, "%s/%s", dir, gpu ? "module.fatbin" : "module.so");
    if (build_artifact_ok(module)) {
        free(text);
        *cached = 1;
        return 0;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        free(text);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), dir, strerror(errno));
    }
    /* the scratch folder the boxed compilers write in, private to this build */
    char scratch[4200], copy[4500], prepped[4500], why[512], def[4500], deps[4500], built[4500];
    snprintf(scratch, sizeof scratch, "%s/.build-XXXXXX", cache);
    if (!mkdtemp(scratch)) {
        free(text);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), scratch, strerror(errno));
    }
    const char *shown = source; /* the name the compiler's messages give the learner's file */
    char line_head[4400];
    snprintf(copy, sizeof copy, "%s/learner.cu", scratch);
    snprintf(prepped, sizeof prepped, "%s/source.cu", scratch);
    snprintf(def, sizeof def, "%s/exercise.def", scratch);
    snprintf(deps, sizeof deps, "%s/deps", scratch);
    snprintf(built, sizeof built, "%s/%s", scratch, gpu ? "module.fatbin" : "module.so");
    snprintf(line_head, sizeof line_head, "#line 1 \"%s\"\n", shown);
    int rc = build_write(copy, gpu ? line_head : NULL, text, text_size) == 0 ? 0 : -1;
    free(text);
    if (rc != 0) {
        build_remove_tree(scratch);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), copy, strerror(errno));
    }
    /* the emulator compiles the learner's file after the source pass (kit/emu_prep.c), which keeps
       its name and lines for the compiler's messages */
    if (!gpu && emu_prep_file(copy, shown, prepped, why, sizeof why) != 0) {
        build_remove_tree(scratch);
        return chef_fail(err, CHEF_EXIT_BUILD, _("check the __shared__ declarations of the kernel"),
                         _("cannot prepare %s for the emulator: %s"), source, why);
    }
    FILE *f = fopen(def, "w");
    if (!f || fprintf(f, "#ifdef KERNEL_SOURCES\n#include \"%s\"\n#endif\n%s", gpu ? copy : prepped, def_line) < 0 ||
        fclose(f) != 0) {
        build_remove_tree(scratch);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), def, strerror(errno));
    }
    sandbox_spec box = {.ro = {kit}, .nro = 1, .rw = scratch, .wall_s = BUILD_TIMEOUT_S + 5, .max_procs = 64,
                        .workdir = scratch};
    const sandbox_spec *in = boxed ? &box : NULL;
    char def_macro[4600], inc_kit[4300], tmp[4500];
    snprintf(def_macro, sizeof def_macro, "-DKERNEL_DEF=\"%s\"", def);
    snprintf(inc_kit, sizeof inc_kit, "-I%s", kit);
    snprintf(tmp, sizeof tmp, "%s", built);
    if (gpu) {
        char glue_cu[4300];
        snprintf(glue_cu, sizeof glue_cu, "%s/gpu_table.cu", kit);
        char *argv[] = {(char *)exercise_nvcc(), "-fatbin", "-O3", "-std=c++17", "-gencode", arch, "--resource-usage",
                        "-MD", "-MF", deps, inc_kit, def_macro, "-DGPU_TABLE=exercise_gpu_kernels", glue_cu, "-o", tmp,
                        NULL};
        rc = build_run(argv, 0, in, log, cancel, err);
        if (rc == 0)
            build_keep_registers(log, dir);
    } else {
        char glue_c[4300], fast[4500], checked[4500];
        /* a host exercise: the kernels' launchers and the host function's entry (emu_table.c) */
        char *host = ex->host ? "-DEMU_HOST" : "-DEMU_KERNELS_ONLY";
        snprintf(glue_c, sizeof glue_c, "%s/emu_table.c", kit);
        snprintf(fast, sizeof fast, "%s/fast.o", scratch);
        snprintf(checked, sizeof checked, "%s/checked.o", scratch);
        char *plain[] = {(char *)cc, "-std=c11", "-O2", "-fPIC", "-fvisibility=hidden", "-D_GNU_SOURCE", "-pthread",
                         "-Werror=implicit-function-declaration", "-MD", "-MF", deps, inc_kit, def_macro,
                         "-DEMU_TABLE=exercise_kernels_fast", "-DEMU_ROW_PREFIX=\"exercise:\"", host, "-c", glue_c,
                         "-o", fast, NULL};
        char deps_checked[4600];
        snprintf(deps_checked, sizeof deps_checked, "%s.checked", deps);
        char *check[] = {(char *)cc, "-std=c11", "-O2", "-fPIC", "-fvisibility=hidden", "-D_GNU_SOURCE", "-pthread",
                         "-Werror=implicit-function-declaration", "-MD", "-MF", deps_checked, inc_kit, def_macro,
                         "-DEMU_TABLE=exercise_kernels_checked", "-DEMU_ROW_PREFIX=\"exercise:\"", host, "-DEMU_CHECKED",
                         "-fsanitize=thread", "-fsanitize-coverage=trace-pc", "-ftrivial-auto-var-init=pattern",
                         "-fno-tree-vectorize", "-fno-tree-slp-vectorize", "-fno-tree-sra", "-c", glue_c, "-o", checked,
                         NULL};
        char *link[] = {(char *)cc, "-shared", "-o", tmp, fast, checked, "-lm", NULL};
        /* the learner's file is in both objects: its own names are made local to each (they are
           hidden already), so that a helper function that is not static is not defined twice, and
           the checked copy loses its constructors and destructors, so that each runs once */
        const char *objcopy = getenv("OBJCOPY") && *getenv("OBJCOPY") ? getenv("OBJCOPY") : "objcopy";
        char *local_fast[] = {(char *)objcopy, "--localize-hidden", fast, NULL};
        char *local_checked[] = {(char *)objcopy, "--localize-hidden", "--remove-section=.init_array*",
                                 "--remove-section=.fini_array*", "--remove-section=.ctors*",
                                 "--remove-section=.dtors*", checked, NULL};
        rc = build_run(plain, BUILD_MEMORY_MB, in, log, cancel, err);
        if (rc == 0 && build_check_headers(deps, kit, scratch, shown, log) != 0)
            rc = 1;
        if (rc == 0) {
            free(*log); /* the checked build repeats the same warnings: keep one copy */
            *log = NULL;
            rc = build_run(check, BUILD_MEMORY_MB, in, log, cancel, err);
            /* the checked build reads its own headers (#ifdef EMU_CHECKED): they are checked too */
            if (rc == 0 && build_check_headers(deps_checked, kit, scratch, shown, log) != 0)
                rc = 1;
        }
        if (rc == 0)
            rc = build_run(local_fast, BUILD_MEMORY_MB, in, log, cancel, err);
        if (rc == 0)
            rc = build_run(local_checked, BUILD_MEMORY_MB, in, log, cancel, err);
        if (rc == 0)
            rc = build_run(link, BUILD_MEMORY_MB, in, log, cancel, err);
    }
    if (gpu && rc == 0 && build_check_headers(deps, kit, scratch, shown, log) != 0)
        rc = 1;
    if (rc == 0)
        rc = build_publish(built, module, err);
    build_remove_tree(scratch);
    return rc;
}
