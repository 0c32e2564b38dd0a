/*
 * cmd_inside.c - `cudachef inside RECIPE`: looking inside a recipe's kernel (lesson 18).
 *
 * First its recipe card (card.h: registers, shared memory, stack and spills as ptxas reported
 * them while the build compiled the kernels, and the occupancy they allow). Then the kernel file
 * compiled on its own for one architecture, by nvcc run as a child (child.h: an argument vector,
 * never a shell string): `nvcc -ptx` gives its PTX, `nvcc -cubin` and `cuobjdump -sass` its SASS,
 * the GPU's own machine code. Each listing is cut to the kernel's function and its instructions
 * counted by kind (listing.h); --ptx and --sass print the listing itself. None of this needs a GPU,
 * only the CUDA toolkit; without nvcc the command says so in one line and exits 5.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "cli/cli.h"
#include "demos/card.h"
#include "demos/listing.h"
#include "engine/recipes.h"
#include "grading/child.h"
#include "grading/exercise_check.h"
#include "lessons/lesson.h"

#define INSIDE_TIMEOUT_S 120
#define INSIDE_KEEP (8u << 20) /* bytes of a listing kept */

static const char inside_usage[] =
    "usage: cudachef inside RECIPE [--ptx] [--sass] [--arch sm_XY] [--threads-per-block N]\n"
    "\n"
    "Looks inside a recipe's kernel: its recipe card (registers per cook, static shared memory,\n"
    "stack frame and spilled bytes, as ptxas reported them while cudachef was built) with the\n"
    "occupancy it allows on the modeled GPU; then its PTX (nvcc -ptx) and its SASS (nvcc -cubin,\n"
    "cuobjdump -sass) for one architecture (--arch, default sm_90), each counted by kind of\n"
    "instruction. --ptx and --sass print the kernel's listing too. Needs the CUDA toolkit, not a GPU.\n"
    "Exit codes: 0 ok, 2 usage error, 3 nvcc could not compile the kernel, 5 no nvcc (or, with\n"
    "--sass, no cuobjdump) on this machine.\n";

/* Whether program (a path, or a name looked up in PATH) can be run; its path into out. */
static int inside_find(const char *program, char *out, size_t size)
{
    if (strchr(program, '/')) {
        snprintf(out, size, "%s", program);
        return access(program, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len > 0 && snprintf(out, size, "%.*s/%s", (int)len, p, program) < (int)size && access(out, X_OK) == 0)
            return 1;
        p += len + (colon ? 1 : 0);
    }
    return 0;
}

/* Reads a whole file (NUL-ended, malloc'd), or NULL. */
static char *inside_read(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (cap - len < 2) {
            char *more = cap < INSIDE_KEEP ? realloc(buf, cap * 2) : NULL;
            if (!more)
                break;
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* Runs argv as a child, its output kept; 0 when it exited 0, else -1 with what it printed. */
static int inside_child(char *const *argv, child_outcome *out)
{
    child_spec spec = {.argv = argv, .timeout_s = INSIDE_TIMEOUT_S, .keep = INSIDE_KEEP};
    chef_error err = {0};
    if (child_run(&spec, out, &err) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return out->exited && out->status == 0 ? 0 : -1;
}

/* Prints a listing's counts by kind, then (full) the listing. */
static void inside_show(const char *title, listing_kind kind, const char *begin, const char *end, int full)
{
    int counts[LISTING_NOPS];
    int total = listing_count(kind, begin, (size_t)(end - begin), counts);
    printf("%s\n", title);
    printf(_("    %d instructions:"), total);
    for (int k = 0; k < LISTING_NOPS; k++)
        if (counts[k] || k < LISTING_LOCAL || k == LISTING_FMA)
            printf(" %s %d%s", _(listing_op_name((listing_op)k)), counts[k], k + 1 < LISTING_NOPS ? "," : "");
    printf("\n");
    if (full)
        printf("\n%.*s\n", (int)(end - begin), begin);
}

/* The command. */
int cmd_inside(int argc, char **argv)
{
    static const struct option opts[] = {{"ptx", no_argument, 0, 'p'},
                                         {"sass", no_argument, 0, 's'},
                                         {"arch", required_argument, 0, 'a'},
                                         {"threads-per-block", required_argument, 0, 't'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    int want_ptx = 0, want_sass = 0, cooks = 0;
    const char *arch = "sm_90";
    int c;
    optind = 1;
    opterr = 0;
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("inside", opts, c, &seen) != 0)
            return CHEF_EXIT_USAGE;
        switch (c) {
        case 'p':
            want_ptx = 1;
            break;
        case 's':
            want_sass = 1;
            break;
        case 'a':
            if (strncmp(optarg, "sm_", 3) != 0 || strlen(optarg) < 5 || strlen(optarg) > 7 ||
                strspn(optarg + 3, "0123456789") < 2 || strspn(optarg + 3, "0123456789af") != strlen(optarg + 3))
                return cli_usage_error("inside", "--arch %s: use sm_ and the compute capability (sm_90)", optarg);
            arch = optarg;
            break;
        case 't': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 1024)
                return cli_usage_error("inside", "--threads-per-block %s: use 1 to 1024", optarg);
            cooks = (int)v;
            break;
        }
        default:
            return cli_common_option(c, "inside", inside_usage, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("inside", optind < argc ? "give one recipe" : "which recipe? (`cudachef list` shows them)");
    const recipe *rc = recipe_find(argv[optind]);
    if (!rc)
        return cli_usage_error("inside", "no recipe '%s' (`cudachef list` shows them)", argv[optind]);
    if (rc->library || !rc->kernel)
        return cli_usage_error("inside", "%s is a library call: there is no kernel of ours to look inside", rc->name);

    chef_error err = {0};
    model_device d;
    card_row card;
    if (model_device_open(NULL, &d, &err) != 0 || card_fill(&d, rc->name, cooks, &card, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    printf("%s\n", _("Recipe card"));
    card_row_text(stdout, &d, &card);

    char nvcc[4096], source[4400];
    if (!inside_find(exercise_nvcc(), nvcc, sizeof nvcc)) {
        chef_fail(&err, CHEF_EXIT_ENVIRONMENT, _("install the CUDA toolkit (or set NVCC); the card above needs no nvcc"),
                  _("nvcc is not installed here, so there is no PTX or SASS to show"));
        chef_error_print(&err);
        return err.exit_code;
    }
    snprintf(source, sizeof source, "%s/%s.cu", lesson_kernels_dir(), rc->kernel);
    char dir[] = "/tmp/cudachef-inside-XXXXXX";
    if (!mkdtemp(dir)) {
        chef_fail(&err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot make a temporary folder: %s"), strerror(errno));
        chef_error_print(&err);
        return err.exit_code;
    }
    char kit[4400], inc[4400], archflag[32], ptx[64], cubin[64];
    snprintf(kit, sizeof kit, "-I%s/src/kit", chef_data_dir());
    snprintf(inc, sizeof inc, "-I%s", lesson_kernels_dir());
    snprintf(archflag, sizeof archflag, "-arch=%s", arch);
    snprintf(ptx, sizeof ptx, "%s/kernel.ptx", dir);
    snprintf(cubin, sizeof cubin, "%s/kernel.cubin", dir);
    int code = CHEF_EXIT_OK;
    child_outcome o;

    char *ptx_argv[] = {nvcc, "-ptx", "-O3", "-std=c++17", archflag, kit, inc, "-o", ptx, source, NULL};
    char *text = NULL;
    if (inside_child(ptx_argv, &o) != 0 || !(text = inside_read(ptx))) {
        fprintf(stderr, "%s", o.output ? o.output : "");
        chef_fail(&err, CHEF_EXIT_BUILD, NULL, _("nvcc could not make the PTX of %s"), source);
        chef_error_print(&err);
        code = err.exit_code;
    }
    child_outcome_free(&o);
    const char *begin, *end;
    if (text && listing_cut(LISTING_PTX, text, rc->kernel, &begin, &end) == 0) {
        char title[256];
        snprintf(title, sizeof title, _("\nPTX (nvcc -ptx %s): the virtual instructions every GPU's driver can compile"), archflag);
        inside_show(title, LISTING_PTX, begin, end, want_ptx);
    }
    free(text);
    text = NULL;

    char cuobjdump[4200];
    char *slash = strrchr(nvcc, '/');
    snprintf(cuobjdump, sizeof cuobjdump, "%.*scuobjdump", slash ? (int)(slash - nvcc + 1) : 0, nvcc);
    if (code == CHEF_EXIT_OK && !inside_find(cuobjdump, cuobjdump, sizeof cuobjdump) &&
        !inside_find("cuobjdump", cuobjdump, sizeof cuobjdump)) {
        printf("%s\n", _("\nSASS: cuobjdump is not installed here (it comes with the full CUDA toolkit), so there is no "
                         "SASS to show"));
        if (want_sass) {
            chef_fail(&err, CHEF_EXIT_ENVIRONMENT, _("install the CUDA toolkit's cuobjdump, or leave out --sass"),
                      _("cuobjdump is not installed here"));
            chef_error_print(&err);
            code = err.exit_code;
        }
    } else if (code == CHEF_EXIT_OK) {
        char *cubin_argv[] = {nvcc, "-cubin", "-O3", "-std=c++17", archflag, kit, inc, "-o", cubin, source, NULL};
        char *dump_argv[] = {cuobjdump, "-sass", cubin, NULL};
        if (inside_child(cubin_argv, &o) != 0) {
            fprintf(stderr, "%s", o.output ? o.output : "");
            chef_fail(&err, CHEF_EXIT_BUILD, NULL, _("nvcc could not make the machine code of %s"), source);
            chef_error_print(&err);
            code = err.exit_code;
        }
        child_outcome_free(&o);
        if (code == CHEF_EXIT_OK && inside_child(dump_argv, &o) == 0 &&
            listing_cut(LISTING_SASS, o.output, rc->kernel, &begin, &end) == 0) {
            char title[256];
            snprintf(title, sizeof title, _("\nSASS (cuobjdump -sass, %s): the machine code the GPU runs"), arch);
            inside_show(title, LISTING_SASS, begin, end, want_sass);
        } else if (code == CHEF_EXIT_OK) {
            chef_fail(&err, CHEF_EXIT_ENVIRONMENT, NULL, _("cuobjdump could not read %s"), cubin);
            chef_error_print(&err);
            code = err.exit_code;
        }
        child_outcome_free(&o);
    }
    unlink(ptx);
    unlink(cubin);
    rmdir(dir);
    return code;
}
