/*
 * program.c - builds a learner's whole CUDA program for the emulator and runs it (see program.h).
 *
 * The build, for each source file (a translation unit), in two pipelines at once, one per thread:
 *   1. g++ -E, boxed, with the kit's C++ headers first on the path (src/kit/cxx: cudachef.h is
 *      forced in, cuda_runtime.h and its kin stand in for the toolkit's), once plainly and once
 *      with EMU_CHECKED;
 *   2. the source pass (src/kit/prog_prep.c), here in the trusted process, linear and bounded:
 *      the launches, __shared__ and CUDA's storage words;
 *   3. g++ -c, boxed: the plain build at -O2; the checked build with ThreadSanitizer's
 *      instrumentation (every access calls the emulator), coverage of every basic block, locals
 *      filled with a pattern, no vectorising (docs/EMULATOR.md, "Counters"); the checked objects
 *      lose their constructors, so the program's globals are made once, by the plain build;
 *   4. each linked into a shared object: plain.so, and checked.so with -Bsymbolic-functions (its
 *      functions call their own checked copies; its data is the plain build's).
 * The key of the cache entry is the SHA-256 of the preprocessed texts (every header included), the
 * compiler and the kit, so an unchanged program is not compiled again.
 *
 * The run: cudachef-check __program (program_runner.c) in the sandbox, with the program's folder
 * read-only, its own output folder writable (its working folder, holding links to the program
 * folder's files), the terminal's input and output, and a time limit.
 */
#include "grading/program.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "grading/build.h"
#include "grading/child.h"
#include "grading/exercise_check.h"
#include "grading/sandbox.h"
#include "kit/prog_prep.h"
#include "lessons/lesson.h"

#define PROGRAM_TEXT_MAX ((size_t)64 << 20) /* the most preprocessed text the pass reads per file */
#define PROGRAM_RUN_MEMORY_MB 16384         /* the run's address space (guard zones map large) */
#define PROGRAM_MAX_LINKS 256               /* files of the program's folder linked into its output folder */
#define PROGRAM_KEY_FILES 2000              /* files a build's key reads from the program's folders, at most */
#define PROGRAM_KEY_BYTES ((long)64 << 20)  /* ... and bytes */
#define PROGRAM_DECLTYPE "before \xe2\x80\x98" "decltype" /* GCC's words, with its opening quote (UTF-8) */
#define PROGRAM_WATCH_KEEP ((size_t)24 << 20) /* what a watched run sends back, its trace included */

/* What the source pass refuses, as src/kit/prog_prep.c names it (the kit has no translations):
   here for the translator, and looked up when a refusal is said. */
static const char *const program_refusals[] __attribute__((unused)) = {
    N_("inline assembly (asm, PTX)"),
    N_("dynamic parallelism (a launch inside a kernel)"),
    N_("a texture (cudaCreateTextureObject)"),
    N_("a surface (cudaCreateSurfaceObject)"),
    N_("a texture reference (cudaBindTexture)"),
    N_("a CUDA array (cudaMallocArray), for textures"),
    N_("a CUDA array (cudaMalloc3DArray), for textures"),
    N_("a CUDA array (cudaMallocMipmappedArray), for textures"),
    N_("a texture fetch (tex1Dfetch)"),
    N_("a texture fetch (tex1D)"),
    N_("a texture fetch (tex2D)"),
    N_("a texture fetch (tex3D)"),
    N_("a texture fetch (texCubemap)"),
    N_("a surface write (surf1Dwrite)"),
    N_("a surface write (surf2Dwrite)"),
    N_("a surface write (surf3Dwrite)"),
    N_("a surface write (surf2DLayeredwrite)"),
    N_("a surface write (surfCubemapwrite)"),
    N_("a surface read (surf1Dread)"),
    N_("a surface read (surf2Dread)"),
    N_("a surface read (surf3Dread)"),
    N_("a CUDA graph (cudaGraph...)"),
    N_("a CUDA graph (stream capture)"),
    N_("memory shared between processes (cudaIpc...)"),
    N_("the driver API (cuInit)"),
    N_("the driver API (cuDevice...)"),
    N_("the driver API (cuCtx...)"),
    N_("the driver API (cuModule...)"),
    N_("the driver API (cuMem...)"),
    N_("the driver API (cuLaunch...)"),
    N_("the driver API (cuLink...)"),
    N_("the driver API (cuStream...)"),
    N_("the driver API (cuEvent...)"),
    N_("the driver API (cuFunc...)"),
    N_("the driver API (cuGraph...)"),
    N_("the driver API (cuTex...)"),
    N_("the driver API (cuArray...)"),
    N_("the driver API (cuDriverGetVersion)"),
    N_("the driver API (cuGetProcAddress)"),
};

static int program_log_missing_library(const char *log, char *message, size_t size);

/* One pipeline (plain or checked) of the build. */
typedef struct program_pipe {
    const program_spec *spec;
    int checked;
    const char *folder, *kit, *scratch;
    const sandbox_spec *box;
    char *const *rel;        /* each compiled file's path as given to the compiler */
    int nunits;
    int stage;               /* 1: preprocess; 2: the pass, compile and link */
    int rc;                  /* 0 fine, 1 the compiler refused, -1 err */
    char *log;
    chef_error err;
    prog_prep_info info;
    int launches;
} program_pipe;

/* Whether a name ends as a file the compiler builds (not a header). */
static int program_is_source(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".cxx") ||
                   !strcmp(dot, ".c++") || !strcmp(dot, ".C"));
}

/* Whether a source file is CUDA (.cu, or any with -x cu), compiled as nvcc compiles one. */
static int program_is_cuda(const program_spec *spec, const char *name)
{
    const char *dot = strrchr(name, '.');
    return spec->all_cuda || (dot && !strcmp(dot, ".cu"));
}

int program_defines_main(const char *text)
{
    for (const char *p = text; (p = strstr(p, "main")) != NULL; p += 4) {
        if (p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                         (p[-1] >= '0' && p[-1] <= '9')))
            continue;
        const char *q = p + 4;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
            q++;
        if (*q != '(')
            continue;
        const char *b = p; /* a definition: a type word before it (int main, void main, auto main) */
        while (b > text && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n'))
            b--;
        if ((b - text >= 3 && !strncmp(b - 3, "int", 3)) || (b - text >= 4 && !strncmp(b - 4, "void", 4)) ||
            (b - text >= 4 && !strncmp(b - 4, "auto", 4)))
            return 1;
    }
    return 0;
}

/* The paths of translation unit k's files in the scratch folder. */
static void program_unit_path(const program_pipe *p, int k, const char *what, char *out, size_t size)
{
    snprintf(out, size, "%s/tu%d.%s.%s", p->scratch, k, p->checked ? "checked" : "plain", what);
}

/* Stage 1: each file through the preprocessor. */
static void program_preprocess(program_pipe *p)
{
    char kitflag[4200];
    snprintf(kitflag, sizeof kitflag, "-isystem%s/cxx", p->kit); /* a system folder: the pass leaves it be */
    for (int k = 0; k < p->nunits && p->rc == 0; k++) {
        char out[4400];
        program_unit_path(p, k, "ii", out, sizeof out);
        char *argv[64];
        int n = 0;
        argv[n++] = "g++";
        argv[n++] = "-std=c++17";
        argv[n++] = "-fopenmp"; /* OpenMP's pragmas and omp.h, as nvcc -Xcompiler -fopenmp gives them */
        argv[n++] = "-E";
        argv[n++] = "-x";
        argv[n++] = "c++";
        if (program_is_cuda(p->spec, p->rel[k])) { /* as nvcc compiles a .cu; a .cpp is the host compiler's */
            argv[n++] = "-D__CUDACC__";
            argv[n++] = "-D__NVCC__";
            argv[n++] = "-D__CUDACC_VER_MAJOR__=13";
            argv[n++] = "-D__CUDACC_VER_MINOR__=0";
            /* one compilation is both nvcc's host and device passes: the device's code paths are the
               ones kept (#if __CUDA_ARCH__ >= 700 around a kernel's body), as on the sm_90 GPU the
               emulator stands for */
            argv[n++] = "-D__CUDA_ARCH__=900";
            argv[n++] = "-include";
            argv[n++] = "cudachef.h";
        }
        if (p->checked)
            argv[n++] = "-DEMU_CHECKED";
        argv[n++] = kitflag;
        char incs[PROGRAM_MAX_INCLUDES][4200];
        for (int i = 0; i < p->spec->nincludes && n < 60; i++) {
            snprintf(incs[i], sizeof incs[i], "-I%s", p->spec->includes[i]);
            argv[n++] = incs[i];
        }
        argv[n++] = p->rel[k];
        argv[n++] = "-o";
        argv[n++] = out;
        argv[n] = NULL;
        int rc = build_run(argv, BUILD_MEMORY_MB, p->box, &p->log, p->spec->cancel, &p->err);
        p->rc = rc;
    }
}

/* Stage 2: the pass over each preprocessed file, the compiler, the link. */
static void program_compile(program_pipe *p)
{
    char objs[PROGRAM_MAX_FILES][4400];
    for (int k = 0; k < p->nunits && p->rc == 0; k++) {
        char ii[4400], prepped[4400], why[512];
        program_unit_path(p, k, "ii", ii, sizeof ii);
        program_unit_path(p, k, "pp.ii", prepped, sizeof prepped);
        program_unit_path(p, k, "o", objs[k], sizeof objs[k]);
        struct stat st;
        size_t size = 0;
        char *text = lstat(ii, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= PROGRAM_TEXT_MAX
                         ? lesson_read_file(ii, &size)
                         : NULL;
        char *out = NULL;
        prog_prep_info info;
        if (!text) {
            p->rc = chef_fail(&p->err, CHEF_EXIT_BUILD, NULL, _("%s is too large once its headers are included"),
                              p->rel[k]);
            break;
        }
        int bad = prog_prep_source(text, size, k + 1, &out, &info, why, sizeof why);
        free(text);
        if (bad) {
            p->rc = chef_fail(&p->err, CHEF_EXIT_BUILD, NULL, "%s", why);
            break;
        }
        p->launches += info.launches;
        if (info.unsupported[0] && !p->info.unsupported[0])
            p->info = info;
        if (p->info.unsupported[0]) { /* refused: nothing more is compiled (program_build says why) */
            free(out);
            return;
        }
        int wrote = build_write(prepped, NULL, out, strlen(out));
        free(out);
        if (wrote != 0) {
            p->rc = chef_fail(&p->err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), prepped, strerror(errno));
            break;
        }
        /* the plain build's functions and data are the program's own (no other object stands in for
           them), so the compiler may inline a kernel into its entry as it does for a recipe */
        char *plain[] = {"g++", "-std=c++17", "-fopenmp", "-O2", "-fPIC", "-fno-gnu-unique", "-fno-semantic-interposition",
                         "-fno-diagnostics-show-caret", "-x", "c++-cpp-output", "-c", prepped, "-o", objs[k], NULL};
        char *checked[] = {"g++", "-std=c++17", "-fopenmp", "-O2", "-fPIC", "-fno-gnu-unique", "-fno-diagnostics-show-caret",
                           "-fsanitize=thread", "-fsanitize-coverage=trace-pc", "-ftrivial-auto-var-init=pattern",
                           "-fno-tree-vectorize", "-fno-tree-slp-vectorize", "-fno-tree-sra", "-w",
                           "-x", "c++-cpp-output", "-c", prepped, "-o", objs[k], NULL};
        /* a .cpp holds no kernel: its checked copy is built plainly (nothing of it is checked) */
        int instrument = p->checked && program_is_cuda(p->spec, p->rel[k]);
        p->rc = build_run(instrument ? checked : plain, BUILD_MEMORY_MB, p->box, &p->log, p->spec->cancel, &p->err);
        if (p->rc == 0 && p->checked) {
            char *strip[] = {"objcopy", "--remove-section=.init_array", "--remove-section=.fini_array",
                             "--remove-section=.ctors", "--remove-section=.dtors", objs[k], NULL};
            p->rc = build_run(strip, BUILD_MEMORY_MB, p->box, &p->log, p->spec->cancel, &p->err);
        }
    }
    if (p->rc != 0)
        return;
    char so[4400];
    snprintf(so, sizeof so, "%s/%s.so", p->scratch, p->checked ? "checked" : "plain");
    char *argv[PROGRAM_MAX_FILES + 8];
    int n = 0;
    argv[n++] = "g++";
    argv[n++] = "-shared";
    if (p->checked)
        argv[n++] = "-Wl,-Bsymbolic-functions";
    argv[n++] = "-o";
    argv[n++] = so;
    for (int k = 0; k < p->nunits; k++)
        argv[n++] = objs[k];
    argv[n++] = "-fopenmp";
    argv[n++] = "-lm";
    argv[n] = NULL;
    p->rc = build_run(argv, BUILD_MEMORY_MB, p->box, &p->log, p->spec->cancel, &p->err);
}

/* A pipeline's thread: its stage. */
static void *program_pipe_run(void *arg)
{
    program_pipe *p = arg;
    if (p->stage == 1)
        program_preprocess(p);
    else
        program_compile(p);
    return NULL;
}

/* Runs the stage of both pipelines at once; 0 when both succeeded. */
static int program_stage(program_pipe pipes[2], int stage)
{
    pthread_t t;
    pipes[0].stage = pipes[1].stage = stage;
    int threaded = pthread_create(&t, NULL, program_pipe_run, &pipes[1]) == 0;
    program_pipe_run(&pipes[0]);
    if (threaded)
        pthread_join(t, NULL);
    else
        program_pipe_run(&pipes[1]);
    return pipes[0].rc || pipes[1].rc;
}

/* The build's words for the learner: the plain build's, without the lines that speak of what the
   pass wrote (cudachef_*, emu_*), and with the kit's headers named as CUDA's (kit/cxx/X.h as X.h). */
static char *program_log_clean(const char *log, const char *kit)
{
    size_t len = log ? strlen(log) : 0;
    char prefix[4300];
    snprintf(prefix, sizeof prefix, "%s/cxx/", kit);
    size_t np = strlen(prefix);
    char *out = malloc(len + 1), *w = out;
    if (!out)
        return NULL;
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line + 1) : strlen(line);
        const char *shown = line;
        size_t ns = n;
        const char *k = memmem(line, n, prefix, np);
        /* also what the compiler says of the pass's own text: the closure of a launch ("In lambda
           function"), the declaration a __shared__ array became ("before 'decltype'") */
        int internal = memmem(line, n, "cudachef", 8) != NULL || memmem(line, n, "emu_", 4) != NULL ||
                       memmem(line, n, ": In lambda function:", 21) != NULL ||
                       memmem(line, n, PROGRAM_DECLTYPE, sizeof PROGRAM_DECLTYPE - 1) != NULL;
        if (k) { /* the kit's header: by its own name */
            memcpy(w, line, (size_t)(k - line));
            w += k - line;
            shown = k + np;
            ns = n - (size_t)(k + np - line);
            internal = memmem(shown, ns, "cudachef", 8) != NULL || memmem(shown, ns, "emu_", 4) != NULL;
            if (internal)
                w -= k - line;
        }
        if (!internal) {
            memcpy(w, shown, ns);
            w += ns;
        }
        line += n;
    }
    *w = 0;
    return out;
}

/* A refusal the kit's headers made ("X is not emulated: ..."): one line naming it at the learner's
   own file and line (the nearest place before it outside the kit), in *message. 1 when found. */
static int program_log_refusal(const char *log, const char *kit, char *message, size_t size)
{
    const char *hit = log ? strstr(log, "is not emulated") : NULL;
    if (!hit)
        return program_log_missing_library(log, message, size);
    const char *start = hit;
    while (start > log && start[-1] != '\n' && !(start - log >= 2 && start[-1] == ' ' && start[-2] == ':'))
        start--;
    if (!strncmp(start, "static assertion failed: ", 25))
        start += 25;
    if (*start == '#' && !strncmp(start, "#error ", 7))
        start += 7;
    if (*start == '"')
        start++;
    size_t n = strcspn(start, "\"\n");
    /* where: the nearest "FILE:LINE" before the refusal that is the learner's: a line's own place,
       an include's ("In file included from F:L"), or an inlined call's ("inlined from 'f' at F:L") */
    char where[512] = "";
    for (const char *line = log; line < hit;) {
        const char *end = strchr(line, '\n');
        if (!end || end > hit)
            end = hit;
        const char *f = line;
        while (*f == ' ')
            f++;
        const char *at = memmem(line, (size_t)(end - line), " at ", 4);
        if (!strncmp(f, "In file included from ", 22) || !strncmp(f, "from ", 5))
            f = strchr(f, 'm') + 2;
        else if (at)
            f = at + 4;
        size_t fn = strcspn(f, ":\n");
        if (fn > 0 && f + fn < end && strncmp(f, kit, strlen(kit)) != 0 && isdigit((unsigned char)f[fn + 1])) {
            size_t ln = strspn(f + fn + 1, "0123456789");
            snprintf(where, sizeof where, "%.*s:%.*s: ", (int)fn, f, (int)ln, f + fn + 1);
        }
        line = end + (*end == '\n');
    }
    /* the construct's name, in the learner's language's sentence */
    const char *cut = memmem(start, n, " is not emulated", 16);
    snprintf(message, size, _("%s%.*s is not emulated: run this program on a GPU (--backend gpu)"), where,
             (int)(cut ? cut - start : (ptrdiff_t)n), start);
    return 1;
}

/* A header of a library the kit has no stand-in for, which the compiler could not find (a Thrust
   or CUB header the kit lacks, libcu++'s cuda/, CUTLASS): said as a refusal naming the library at
   the learner's include, in *message. 1 when it was one. */
static int program_log_missing_library(const char *log, char *message, size_t size)
{
    static const struct {
        const char *part, *name;
    } libraries[] = {{"thrust/", "Thrust"}, {"cub/", "CUB"}, {"cuda/", "libcu++"}, {"cutlass/", "CUTLASS"},
                     {"cute/", "CUTLASS"}, {"nv/", "libcu++"}};
    const char *fatal = log ? strstr(log, ": fatal error: ") : NULL;
    if (!fatal)
        return 0;
    const char *header = fatal + 15, *end = strstr(header, ": No such file or directory");
    const char *line = fatal;
    while (line > log && line[-1] != '\n')
        line--;
    if (!end || memchr(header, '\n', (size_t)(end - header)))
        return 0;
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++) {
        const char *at = memmem(header, (size_t)(end - header), libraries[i].part, strlen(libraries[i].part));
        if (!at || (at != header && at[-1] != '/'))
            continue;
        /* "FILE:LINE:COL: fatal error": the learner's file and line */
        size_t fn = strcspn(line, ":");
        size_t ln = strspn(line + fn + 1, "0123456789");
        snprintf(message, size, _("%.*s:%.*s: %s (%.*s) is not emulated: run this program on a GPU (--backend gpu)"),
                 (int)fn, line, (int)ln, line + fn + 1, libraries[i].name, (int)(end - header), header);
        return 1;
    }
    return 0;
}

/* Adds to the key every file a program may include: its folder's and its -I folders', two levels
   of subfolders deep. 0, or -1 when they are too many or too large to read each time (more than
   PROGRAM_KEY_FILES files or PROGRAM_KEY_BYTES bytes: a program kept in a big folder): its build is
   then keyed by its preprocessed text instead. */
static int program_hash_tree(build_key *k, const char *dir, int depth, long *files, long *bytes)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, build_kit_file, alphasort), rc = n < 0 ? -1 : 0;
    for (int i = 0; i < n; i++) {
        char path[8400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (rc == 0 && lstat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode) && depth > 0) {
                build_hash(k, names[i]->d_name, strlen(names[i]->d_name));
                rc = program_hash_tree(k, path, depth - 1, files, bytes);
            } else if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
                *bytes += st.st_size;
                if (++*files > PROGRAM_KEY_FILES || *bytes > PROGRAM_KEY_BYTES)
                    rc = -1;
                else {
                    build_hash(k, names[i]->d_name, strlen(names[i]->d_name));
                    build_hash_file(k, path);
                }
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* The key of a program's build from its files alone (so a warm build runs no compiler at all):
   cudachef, the compiler, the kit, the way it is built, and every file of its folder and -I
   folders. 0 with key set, or -1 when the folders are too big to key this way. */
static int program_source_key(const program_spec *spec, const char *folder, const char *kit, char *const *rel,
                              int nunits, const char *what, char *key)
{
    build_key k;
    if (build_key_start(&k) != 0)
        return -1;
    build_hash(&k, CHEF_VERSION, strlen(CHEF_VERSION));
    build_hash(&k, what, strlen(what));
    char gxx[PATH_MAX] = "";
    struct stat cst;
    memset(&cst, 0, sizeof cst);
    if (realpath("/usr/bin/g++", gxx))
        stat(gxx, &cst);
    build_hash(&k, gxx, strlen(gxx));
    build_hash(&k, &cst.st_size, sizeof cst.st_size);
    build_hash(&k, &cst.st_mtime, sizeof cst.st_mtime);
    build_hash(&k, &spec->all_cuda, sizeof spec->all_cuda);
    build_hash(&k, &spec->gpu_cc, sizeof spec->gpu_cc);
    for (int u = 0; u < nunits; u++)
        build_hash(&k, rel[u], strlen(rel[u]));
    long files = 0, bytes = 0;
    int rc = program_hash_tree(&k, folder, 2, &files, &bytes);
    for (int i = 0; rc == 0 && i < spec->nincludes; i++)
        rc = program_hash_tree(&k, spec->includes[i], 2, &files, &bytes);
    if (rc == 0 && kit) {
        char cxx[4300];
        snprintf(cxx, sizeof cxx, "%s/cxx", kit);
        long kf = 0, kb = 0; /* the kit's own files are not the program's: no bound of theirs */
        program_hash_tree(&k, cxx, 2, &kf, &kb);
        program_hash_tree(&k, kit, 0, &kf, &kb);
    }
    build_key_hex(&k, key);
    return rc;
}

/* The pass's findings kept beside a cached build (launch sites and the first construct refused),
   so that a warm build reads them instead of preprocessing again. */
static void program_info_write(const char *dir, int launches, const prog_prep_info *info)
{
    char path[4500], text[700];
    snprintf(path, sizeof path, "%s/info", dir);
    int n = snprintf(text, sizeof text, "%d\n%d\n%s\n%s\n", launches, info->unsupported_line, info->unsupported,
                     info->unsupported_file);
    unlink(path);
    build_write(path, NULL, text, (size_t)n);
}

/* Reads what program_info_write kept: 0, or -1 when it is not there. */
static int program_info_read(const char *dir, int *launches, prog_prep_info *info)
{
    char path[4500];
    snprintf(path, sizeof path, "%s/info", dir);
    char *text = lesson_read_file(path, NULL);
    if (!text)
        return -1;
    memset(info, 0, sizeof *info);
    char *save = NULL, *l1 = strtok_r(text, "\n", &save), *l2 = strtok_r(NULL, "\n", &save);
    char *l3 = strtok_r(NULL, "\n", &save), *l4 = strtok_r(NULL, "\n", &save);
    int ok = l1 && l2;
    if (ok) {
        *launches = atoi(l1);
        info->unsupported_line = atoi(l2);
        if (l3 && l4) {
            snprintf(info->unsupported, sizeof info->unsupported, "%s", l3);
            snprintf(info->unsupported_file, sizeof info->unsupported_file, "%s", l4);
        }
    }
    free(text);
    return ok ? 0 : -1;
}

/* Builds the program into the cache; plain and checked get the two objects' paths. 0 built (or
   found), 1 the compiler refused (res->build_log) or the program uses what the emulator cannot
   run (res->message), -1 err. */
static int program_build(const program_spec *spec, const char *folder, char *const *rel, int nunits, char *plain,
                         char *checked, size_t size, program_result *res, chef_error *err)
{
    char data[4096], kit[4200], cache[4096], scratch[4200];
    int boxed = sandbox_decide(err);
    if (boxed < 0)
        return -1;
    if (!realpath(chef_data_dir(), data))
        snprintf(data, sizeof data, "%s", chef_data_dir());
    snprintf(kit, sizeof kit, "%s/%s", data, CHEF_KIT_DIR);
    if (chef_cache_dir("programs", cache, sizeof cache, err) != 0)
        return -1;
    snprintf(scratch, sizeof scratch, "%s/.build-XXXXXX", cache);
    if (!mkdtemp(scratch))
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), scratch, strerror(errno));
    sandbox_spec box = {.ro = {folder, kit}, .nro = 2, .rw = scratch, .wall_s = BUILD_TIMEOUT_S + 5, .max_procs = 64,
                        .workdir = folder};
    for (int i = 0; i < spec->nincludes && box.nro < SANDBOX_MAX_PATHS; i++)
        box.ro[box.nro++] = spec->includes[i];
    double start = chef_now_ms();
    program_pipe pipes[2];
    memset(pipes, 0, sizeof pipes);
    for (int c = 0; c < 2; c++) {
        pipes[c] = (program_pipe){.spec = spec, .checked = c, .folder = folder, .kit = kit, .scratch = scratch,
                                  .box = boxed ? &box : NULL, .rel = rel, .nunits = nunits};
    }
    int rc = 0;
    /* warm: the program's files and the kit unchanged since a build: no compiler runs at all */
    char srckey[65], srcdir[4400] = "";
    if (program_source_key(spec, folder, kit, rel, nunits, "emu", srckey) == 0) {
        snprintf(srcdir, sizeof srcdir, "%s/src-%s", cache, srckey);
        if (snprintf(plain, size, "%s/plain.so", srcdir) < (int)size &&
            snprintf(checked, size, "%s/checked.so", srcdir) < (int)size && build_artifact_ok(plain) &&
            build_artifact_ok(checked) && program_info_read(srcdir, &res->launches, &pipes[0].info) == 0) {
            res->cached = 1;
            res->build_ms = chef_now_ms() - start;
            goto found;
        }
    }
    if (program_stage(pipes, 1) != 0)
        goto refused;
    /* the key: the preprocessed texts (every header they include), the compiler, the kit, cudachef */
    build_key k;
    if (build_key_start(&k) != 0) {
        build_remove_tree(scratch);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("SHA-256 is not available (libcrypto)"));
    }
    build_hash(&k, CHEF_VERSION, strlen(CHEF_VERSION));
    for (int c = 0; c < 2; c++)
        for (int u = 0; u < nunits; u++) {
            char ii[4400];
            program_unit_path(&pipes[c], u, "ii", ii, sizeof ii);
            build_hash_file(&k, ii);
        }
    char kitfiles[2][4300];
    snprintf(kitfiles[0], sizeof kitfiles[0], "%s/prog_prep.c", kit);
    snprintf(kitfiles[1], sizeof kitfiles[1], "%s/emu_runtime.h", kit);
    for (int i = 0; i < 2; i++)
        build_hash_file(&k, kitfiles[i]);
    char gxx[PATH_MAX] = "";
    if (!realpath("/usr/bin/g++", gxx))
        snprintf(gxx, sizeof gxx, "g++");
    build_hash(&k, gxx, strlen(gxx));
    char key[65], dir[4400];
    build_key_hex(&k, key);
    snprintf(dir, sizeof dir, "%s/%s", cache, key);
    if (snprintf(plain, size, "%s/plain.so", dir) >= (int)size || snprintf(checked, size, "%s/checked.so", dir) >= (int)size) {
        build_remove_tree(scratch);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_CACHE_HOME to a shorter path"),
                         _("the build cache's path is too long: %s"), dir);
    }
    if (build_artifact_ok(plain) && build_artifact_ok(checked)) {
        res->cached = 1;
        /* the pass's findings are not kept in the cache: read them again (one pass, no compiler) */
        pipes[0].nunits = nunits;
        for (int u = 0; u < nunits; u++) {
            char ii[4400];
            program_unit_path(&pipes[0], u, "ii", ii, sizeof ii);
            size_t tsize = 0;
            char *text = lesson_read_file(ii, &tsize), *out = NULL, why[256];
            prog_prep_info info;
            if (text && prog_prep_source(text, tsize, u + 1, &out, &info, why, sizeof why) == 0) {
                res->launches += info.launches;
                if (info.unsupported[0] && !pipes[0].info.unsupported[0])
                    pipes[0].info = info;
            }
            free(text);
            free(out);
        }
        goto found;
    }
    if (program_stage(pipes, 2) != 0 && !pipes[0].info.unsupported[0] && !pipes[1].info.unsupported[0])
        goto refused;
    if (pipes[0].info.unsupported[0] || pipes[1].info.unsupported[0]) {
        /* a construct the emulator does not run, found by the pass: said before any compiler's
           words (which would only be about what it could not make of it) */
        const prog_prep_info *info = pipes[0].info.unsupported[0] ? &pipes[0].info : &pipes[1].info;
        snprintf(res->message, sizeof res->message, _("%s:%d: %s is not emulated: run this program on a GPU (--backend gpu)"),
                 info->unsupported_file, info->unsupported_line, _(info->unsupported));
        res->status = PROGRAM_UNSUPPORTED;
        build_remove_tree(scratch);
        free(pipes[0].log);
        free(pipes[1].log);
        return 1;
    }
    res->launches = pipes[0].launches;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        build_remove_tree(scratch);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), dir, strerror(errno));
    }
    char built[4400];
    snprintf(built, sizeof built, "%s/plain.so", scratch);
    rc = build_publish(built, plain, err);
    snprintf(built, sizeof built, "%s/checked.so", scratch);
    if (rc == 0)
        rc = build_publish(built, checked, err);
    if (rc == 0 && srcdir[0] && (mkdir(srcdir, 0700) == 0 || errno == EEXIST)) {
        /* the same build under its files' key too, with the pass's findings beside it */
        char to[4500];
        snprintf(to, sizeof to, "%s/plain.so", srcdir);
        int kept = build_publish_again(plain, to, err) == 0;
        snprintf(to, sizeof to, "%s/checked.so", srcdir);
        kept = kept && build_publish_again(checked, to, err) == 0;
        if (kept)
            program_info_write(srcdir, res->launches, &pipes[0].info);
    }
    res->build_ms = chef_now_ms() - start;
found:
    if (res->cached) /* the preprocessor ran (to know every header it reads): that was the build */
        res->build_ms = chef_now_ms() - start;
    if (rc == 0 && pipes[0].info.unsupported[0]) {
        char where[300];
        snprintf(where, sizeof where, "%s:%d: ", pipes[0].info.unsupported_file, pipes[0].info.unsupported_line);
        snprintf(res->message, sizeof res->message, _("%s%.*s is not emulated: run this program on a GPU (--backend gpu)"),
                 where, 64, pipes[0].info.unsupported);
        res->status = PROGRAM_UNSUPPORTED;
        rc = 1;
    }
    build_remove_tree(scratch);
    free(pipes[0].log);
    free(pipes[1].log);
    return rc;
refused:
    for (int c = 0; c < 2; c++)
        if (pipes[c].rc < 0) {
            *err = pipes[c].err;
            build_remove_tree(scratch);
            free(pipes[0].log);
            free(pipes[1].log);
            return -1;
        }
    res->status = PROGRAM_BUILD;
    if (program_log_refusal(pipes[0].rc ? pipes[0].log : pipes[1].log, kit, res->message, sizeof res->message))
        res->status = PROGRAM_UNSUPPORTED;
    res->build_log = program_log_clean(pipes[0].rc ? pipes[0].log : pipes[1].log, kit);
    if (pipes[0].err.message[0] && !pipes[0].log)
        res->build_log = strdup(pipes[0].err.message);
    build_remove_tree(scratch);
    free(pipes[0].log);
    free(pipes[1].log);
    return 1;
}

/* The GPU's build: nvcc compiles and links the learner's files as they are, for the GPU's own
   architecture, boxed, into the cache (keyed by every file of the program's folder and of its -I
   folders, the compiler and the architecture). 0 built or found (*binary set), 1 refused, -1 err. */
static int program_build_gpu(const program_spec *spec, const char *folder, char *const *rel, int nunits, char *binary,
                             size_t size, program_result *res, chef_error *err)
{
    char cache[4096], scratch[4200];
    int boxed = sandbox_decide(err);
    if (boxed < 0)
        return -1;
    if (chef_cache_dir("programs", cache, sizeof cache, err) != 0)
        return -1;
    build_key k;
    if (build_key_start(&k) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("SHA-256 is not available (libcrypto)"));
    const char *nvcc = exercise_nvcc();
    char arch[64];
    snprintf(arch, sizeof arch, "arch=compute_%d,code=sm_%d", spec->gpu_cc, spec->gpu_cc);
    build_hash(&k, CHEF_VERSION, strlen(CHEF_VERSION));
    build_hash(&k, nvcc, strlen(nvcc));
    build_hash(&k, arch, strlen(arch));
    build_hash(&k, &spec->all_cuda, sizeof spec->all_cuda);
    for (int u = 0; u < nunits; u++)
        build_hash(&k, rel[u], strlen(rel[u]));
    long files = 0, bytes = 0; /* every file the program may include: its folder's and -I's */
    double start_ns = chef_now_ms();
    int keyed = program_hash_tree(&k, folder, 2, &files, &bytes);
    for (int i = 0; keyed == 0 && i < spec->nincludes; i++)
        keyed = program_hash_tree(&k, spec->includes[i], 2, &files, &bytes);
    if (keyed != 0) /* too big to key by its files: a key that is new each time (built afresh) */
        build_hash(&k, &start_ns, sizeof start_ns);
    char key[65], dir[4400];
    build_key_hex(&k, key);
    snprintf(dir, sizeof dir, "%s/gpu-%s", cache, key);
    if (snprintf(binary, size, "%s/program", dir) >= (int)size)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_CACHE_HOME to a shorter path"),
                         _("the build cache's path is too long: %s"), dir);
    if (build_artifact_ok(binary)) {
        res->cached = 1;
        return 0;
    }
    snprintf(scratch, sizeof scratch, "%s/.build-XXXXXX", cache);
    if (!mkdtemp(scratch))
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make the build cache %s: %s"), scratch, strerror(errno));
    sandbox_spec box = {.ro = {folder}, .nro = 1, .rw = scratch, .wall_s = BUILD_TIMEOUT_S + 5, .max_procs = 64,
                        .workdir = folder};
    for (int i = 0; i < spec->nincludes && box.nro < SANDBOX_MAX_PATHS; i++)
        box.ro[box.nro++] = spec->includes[i];
    char out[4400], incs[PROGRAM_MAX_INCLUDES][4200];
    snprintf(out, sizeof out, "%s/program", scratch);
    char *argv[PROGRAM_MAX_FILES + PROGRAM_MAX_INCLUDES + 16];
    int n = 0;
    argv[n++] = (char *)nvcc;
    argv[n++] = "-std=c++17";
    argv[n++] = "-O2";
    argv[n++] = "-gencode";
    argv[n++] = arch;
    if (spec->all_cuda) {
        argv[n++] = "-x";
        argv[n++] = "cu";
    }
    for (int i = 0; i < spec->nincludes; i++) {
        snprintf(incs[i], sizeof incs[i], "-I%s", spec->includes[i]);
        argv[n++] = incs[i];
    }
    for (int u = 0; u < nunits; u++)
        argv[n++] = rel[u];
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n++] = "-lcublas"; /* a program that calls cuBLAS links it; others do not need it */
    argv[n] = NULL;
    double start = chef_now_ms();
    char *log = NULL;
    int rc = build_run(argv, 0, boxed ? &box : NULL, &log, spec->cancel, err);
    if (rc == 0 && mkdir(dir, 0700) != 0 && errno != EEXIST)
        rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                       _("cannot make the build cache %s: %s"), dir, strerror(errno));
    if (rc == 0)
        rc = build_publish(out, binary, err);
    if (rc == 0 && chmod(binary, 0700) != 0)
        rc = chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot write %s: %s"), binary, strerror(errno));
    res->build_ms = chef_now_ms() - start;
    if (rc == 1) {
        res->status = PROGRAM_BUILD;
        res->build_log = log;
        log = NULL;
    }
    free(log);
    build_remove_tree(scratch);
    return rc;
}

/* The output folder: the program's working folder, with a link to each file of its own folder (so
   it reads its inputs by their names, and writes what it writes here). */
static int program_outdir(const char *folder, const char *stem, char *out, size_t size, chef_error *err)
{
    char runs[4096];
    if (chef_cache_dir("runs", runs, sizeof runs, err) != 0)
        return -1;
    if (snprintf(out, size, "%s/%s", runs, stem) >= (int)size)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("set CUDACHEF_CACHE_HOME to a shorter path"),
                         _("the build cache's path is too long: %s"), runs);
    if (chef_mkdirs(out, 0700) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("make it writable, or set CUDACHEF_CACHE_HOME"),
                         _("cannot make %s: %s"), out, strerror(errno));
    DIR *d = opendir(folder);
    int linked = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL && linked < PROGRAM_MAX_LINKS;) {
        if (e->d_name[0] == '.')
            continue;
        char from[8400], to[8400];
        snprintf(from, sizeof from, "%s/%s", folder, e->d_name);
        snprintf(to, sizeof to, "%s/%s", out, e->d_name);
        struct stat st, here;
        if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (lstat(to, &here) == 0) {
            if (!S_ISLNK(here.st_mode))
                continue; /* a file the program wrote last time stays */
            unlink(to);
        }
        if (symlink(from, to) == 0)
            linked++;
    }
    if (d)
        closedir(d);
    return 0;
}

int program_try(const program_spec *spec, program_result *res, chef_error *err)
{
    memset(res, 0, sizeof *res);
    char folder[PATH_MAX], first[PATH_MAX];
    char *rel[PROGRAM_MAX_FILES];
    int nunits = 0;
    if (spec->nfiles < 1 || !realpath(spec->files[0], first))
        return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("cannot read %s"), spec->nfiles ? spec->files[0] : "");
    snprintf(folder, sizeof folder, "%s", first);
    *strrchr(folder, '/') = '\0';
    size_t nf = strlen(folder);
    struct stat fst;
    if (stat(folder[0] ? folder : "/", &fst) == 0 && (fst.st_mode & S_IWOTH) && (fst.st_mode & S_ISVTX))
        /* the program reads its whole folder: one every user writes to (/tmp) would show it theirs */
        return chef_fail(err, CHEF_EXIT_USAGE, _("save it in a folder of its own (mkdir ~/myprogram)"),
                         _("%s is shared with every user of this machine"), folder[0] ? folder : "/");
    char paths[PROGRAM_MAX_FILES][PATH_MAX];
    for (int i = 0; i < spec->nfiles; i++) {
        if (!realpath(spec->files[i], paths[i]))
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("cannot read %s: %s"), spec->files[i], strerror(errno));
        if (!program_is_source(paths[i]))
            continue;
        /* the compiler is given the path from the program's folder, which its messages then show */
        rel[nunits++] = strncmp(paths[i], folder, nf) == 0 && paths[i][nf] == '/' ? paths[i] + nf + 1 : paths[i];
    }
    if (nunits == 0)
        return chef_fail(err, CHEF_EXIT_USAGE, _("give the .cu (or .cpp) files that hold its code"),
                         _("none of the files given is a source file"));
    /* the -I folders as real paths: the compiler runs in the program's folder */
    program_spec real = *spec;
    char incs[PROGRAM_MAX_INCLUDES][PATH_MAX];
    for (int i = 0; i < spec->nincludes; i++) {
        if (!realpath(spec->includes[i], incs[i]))
            return chef_fail(err, CHEF_EXIT_USAGE, NULL, _("cannot read the folder %s: %s"), spec->includes[i],
                             strerror(errno));
        real.includes[i] = incs[i];
    }
    spec = &real;
    char plain[4400], checked[4400];
    res->gpu = spec->gpu_cc > 0;
    int built = res->gpu ? program_build_gpu(spec, folder, rel, nunits, plain, sizeof plain, res, err)
                         : program_build(spec, folder, rel, nunits, plain, checked, sizeof plain, res, err);
    if (built != 0)
        return built < 0 ? -1 : 0;
    /* the run */
    char stem[256];
    const char *base = strrchr(rel[0], '/') ? strrchr(rel[0], '/') + 1 : rel[0];
    snprintf(stem, sizeof stem, "%s", base);
    if (strrchr(stem, '.'))
        *strrchr(stem, '.') = '\0';
    if (program_outdir(folder, stem, res->outdir, sizeof res->outdir, err) != 0)
        return -1;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot find the cudachef program itself"));
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash || snprintf(slash + 1, sizeof self - (size_t)(slash + 1 - self), "cudachef-check") >= 64)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot find the cudachef program itself"));
    if (access(self, X_OK) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("install cudachef again (make install), or build it (make)"),
                         _("%s is missing: it runs the learner's programs"), self);
    char argv0[PATH_MAX + 300];
    snprintf(argv0, sizeof argv0, "%s/%s", folder, stem);
    char *argv[PROGRAM_MAX_FILES + 300];
    int n = 0;
    if (res->gpu) { /* natively: the GPU's build is the program itself */
        argv[n++] = plain;
    } else {
        argv[n++] = self;
        argv[n++] = "__program";
        argv[n++] = "--plain";
        argv[n++] = plain;
        argv[n++] = "--checked";
        argv[n++] = checked;
        if (spec->check_launch) {
            argv[n++] = "--check-launch";
            argv[n++] = (char *)spec->check_launch;
        }
        if (spec->watch)
            argv[n++] = "--watch";
        argv[n++] = "--";
        argv[n++] = argv0;
    }
    for (int i = 0; i < spec->nargs && n < (int)(sizeof argv / sizeof *argv) - 1; i++)
        argv[n++] = spec->args[i];
    argv[n] = NULL;
    char entry[4400];
    snprintf(entry, sizeof entry, "%s", plain);
    *strrchr(entry, '/') = '\0';
    int boxed = sandbox_decide(err);
    if (boxed < 0)
        return -1;
    sandbox_spec box = {.ro = {entry, folder}, .nro = 2, .rw = res->outdir, .workdir = res->outdir, .gpu = res->gpu,
                        .wall_s = spec->timeout_s + 2, .max_procs = 64, .terminal = 1};
    child_spec cs = {.argv = argv,
                     .sandbox = boxed ? &box : NULL,
                     .timeout_s = spec->timeout_s,
                     .keep = 4096,
                     .result_pipe = !res->gpu,
                     .limit_cpu_s = (int)(spec->timeout_s * 4) + 5,
                     .limit_memory_mb = res->gpu ? 0 : PROGRAM_RUN_MEMORY_MB, /* CUDA maps large */
                     .limit_file_mb = 1024,
                     .cancel = spec->cancel,
                     .passthrough = 1};
    if (spec->capture) { /* kept for the report, not shown as it comes */
        cs.passthrough = 0;
        cs.keep = 1 << 20;
    }
    if (spec->watch)
        cs.result_keep = PROGRAM_WATCH_KEEP; /* the watched launch's trace comes back too */
    child_outcome out;
    if (!boxed && chdir(res->outdir) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot enter %s: %s"), res->outdir, strerror(errno));
    if (child_run(&cs, &out, err) != 0)
        return -1;
    const char *end = out.result ? strstr(out.result, "{\"exit\":") : NULL;
    const char *journey = out.result ? strstr(out.result, "{\"journey\":") : NULL;
    if (journey) {
        json_error_t jerr;
        res->journey = json_loadb(journey, strcspn(journey, "\n"), 0, &jerr);
    }
    const char *watched = out.result ? strstr(out.result, "{\"trace\":") : NULL;
    if (watched) {
        json_error_t jerr;
        res->trace = json_loadb(watched, strcspn(watched, "\n"), 0, &jerr);
    }
    if (spec->capture && out.output)
        res->output = strdup(out.output);
    int started = out.result && strstr(out.result, "{\"started\": 1}");
    if (out.cancelled) {
        child_outcome_free(&out);
        chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("the program was stopped"));
        err->cause = CHEF_CAUSE_CANCELLED;
        return -1;
    }
    if (out.timed_out) {
        res->status = PROGRAM_TIMED_OUT;
        snprintf(res->message, sizeof res->message, _("the program ran longer than %.0f s (--timeout)"), spec->timeout_s);
    } else if (res->gpu && out.exited) { /* natively: its own exit status */
        res->status = PROGRAM_RAN;
        res->exit_status = out.status;
    } else if (end) {
        res->status = PROGRAM_RAN;
        sscanf(end, "{\"exit\": %d, \"kernel_faulted\": %d, \"leaked\": %d", &res->exit_status, &res->kernel_faulted,
               &res->leaked);
    } else if (!out.exited) {
        res->status = PROGRAM_CRASHED;
        res->signal = out.status;
        snprintf(res->message, sizeof res->message, _("the program crashed (%s)"), strsignal(out.status));
    } else if (!started && out.exited && out.status == CHEF_EXIT_ENVIRONMENT && !res->gpu) {
        /* the runner refused to start it and said why (a function no library of the emulator's has) */
        res->status = PROGRAM_UNSUPPORTED;
        const char *said = out.output ? strstr(out.output, "cudachef: ") : NULL;
        if (said)
            snprintf(res->message, sizeof res->message, "%.*s", (int)strcspn(said + 10, "\n"), said + 10);
    } else if (!started) {
        child_outcome_free(&out);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("the program could not be started (status %d)"),
                         out.status);
    } else {
        res->status = PROGRAM_CRASHED;
        snprintf(res->message, sizeof res->message, _("the program ended without a word (status %d)"), out.status);
    }
    child_outcome_free(&out);
    return 0;
}

void program_result_free(program_result *res)
{
    free(res->build_log);
    free(res->output);
    json_decref(res->journey);
    json_decref(res->trace);
    res->build_log = res->output = NULL;
    res->journey = res->trace = NULL;
}
