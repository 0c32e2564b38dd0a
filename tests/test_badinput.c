/*
 * test_badinput.c - every command and flag given what a learner, a script or a broken machine can
 * give it: malformed, empty, huge, negative, non-UTF-8 and conflicting values, unknown and repeated
 * options; a lessons folder that is missing, empty or not a folder; lesson files broken in every
 * way the loader knows; a progress file that is corrupt, empty, too large, a folder, or that cannot
 * be written; a terminal without TERM, a dumb one, and no terminal at all; a memory limit.
 *
 * The cases are one table (bad_cases). Each runs build/cudachef (or $CUDACHEF_BIN) in a fresh
 * folder of its own ($D: its setup command makes what it needs there) with its arguments,
 * environment and standard input, and checks what the contract promises (docs/EXIT-CODES.md,
 * docs/RELIABILITY.md): the documented exit code; no crash (not ended by a signal) and no hang
 * (it ends by itself: a case still running after BAD_GUARD_S, scaled by the machine's pace, is
 * killed and fails, test_pace.h); the message, and its shape: one line "cudachef...: message" that may
 * be followed by one "  hint: ..." line, nothing on stdout for a usage error; what is written to
 * the terminal is UTF-8 with no escape sequence (what the user typed is echoed as \xNN); a file the
 * case keeps (the progress file) has the same bytes afterwards; in a pseudo-terminal, the terminal's
 * modes are as they were. Cases marked as cooking use CUDACHEF_TEST_BACKEND's backend.
 *
 * `test_badinput --markdown` prints the table of cases by category that docs/RELIABILITY.md holds;
 * test_reliability_doc fails when the two differ, so the figures there cannot drift.
 */
#include <dirent.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>

#include <cmocka.h>

#include "base/chef.h"
#include "test_backend.h"
#include "test_exec.h"

/* The guard against a hang, in seconds on an idle machine (test_guard_s scales it): a case takes a
   second or less, so one still running after minutes hangs. */
#define BAD_GUARD_S 300.0
#define BAD_DOC "docs/RELIABILITY.md"
#define BAD_DOC_BEGIN "<!-- badinput:begin (tests/test_badinput.c --markdown) -->\n"
#define BAD_DOC_END "<!-- badinput:end -->\n"

/* What the output must look like besides the exit code. */
typedef enum bad_shape {
    BAD_USAGE = 0, /* stderr: one error line (and its hint); stdout: nothing */
    BAD_LINE,      /* stderr: one line (and its hint), or nothing when no message is expected; stdout: free */
    BAD_REPORT,    /* the message is in stdout (list --check's report); stderr is free */
    BAD_TEXT,      /* the message is in stderr, several lines (the usage) */
    BAD_TERMINAL   /* in a pseudo-terminal: the message on it, its modes as they were */
} bad_shape;

/* One case. In args, env and check, "@D" is the case's folder, "@B" the test backend and "@LONG"
   a path of 5000 characters; setup and check are shell commands run from the repository root with
   $D set. */
typedef struct bad_case {
    const char *category;
    const char *what;      /* what is tried, in a few words (docs/RELIABILITY.md lists them) */
    const char *setup;     /* made in $D first, or NULL */
    const char *env[4];    /* "NAME=value", or "NAME" to remove it */
    const char *args[12];  /* after the program's name */
    int status;            /* the exit code expected */
    const char *message;   /* what the message must contain (NULL: no message expected) */
    bad_shape shape;
    const char *keep;      /* a file of $D that must keep its bytes (or a folder that must stay one) */
    const char *check;     /* a shell command that must succeed afterwards, or NULL */
    int cooks;             /* 1: cooks on the test backend (skipped on gpu without a GPU) */
    long memory_mb;        /* > 0: runs under ulimit -v of this many MiB */
    const char *input;     /* standard input (NULL: /dev/null) */
} bad_case;

/* A lesson's copy to break: $D/l/02-five-steps (CUDACHEF_LESSONS=@D/l). */
#define LESSON "mkdir -p $D/l && cp -r lessons/02-five-steps $D/l/ && cd $D/l/02-five-steps && "
#define LESSONS_ENV "CUDACHEF_LESSONS=@D/l"
/* The progress folder: $D/s (CUDACHEF_STATE_HOME=@D/s). */
#define STATE "mkdir -p $D/s && "
#define STATE_ENV "CUDACHEF_STATE_HOME=@D/s"
#define NUL_FILE "printf 'page five-steps 2\\n\\000\\000\\000garbage\\n' > $D/s/progress"
#define A_KERNEL                                                                                   \
    "printf '#include \"kernel.h\"\\n__global__ void vector_add(const float *a, const float *b, float *c, int n) "   \
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\\n' > $D/k.cu"

/* the rows give their fields in order and stop after the last one they need: the rest are 0 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const bad_case bad_cases[] = {
    /* no command, and what every command shares */
    {"program", "no command, standard output not a terminal", NULL, {0}, {0}, 2, "usage: cudachef", BAD_TEXT},
    {"program", "an empty command", NULL, {0}, {""}, 2, "unknown command ''"},
    {"program", "an unknown command", NULL, {0}, {"bake"}, 2, "unknown command 'bake'"},
    {"program", "a command that is not UTF-8", NULL, {0}, {"\xff\xfe"}, 2, "unknown command '\\xFF\\xFE'"},
    {"program", "an escape sequence as a lesson's name", NULL, {0}, {"read", "\x1b[2J\x1b]0;x\x07"}, 2,
     "'\\x1B[2J\\x1B]0;x\\x07'"},
    {"program", "a newline inside an argument", NULL, {0}, {"run", "vector\nadd"}, 2, "'vector\\x0Aadd'"},
    {"program", "--lang without its value", NULL, {0}, {"--lang"}, 2, "--lang needs a value"},
    {"program", "--lang= empty", NULL, {0}, {"--lang=", "list"}, 2, "unknown language ''"},
    {"program", "--lang not UTF-8", NULL, {0}, {"list", "--lang", "\xc3"}, 2, "unknown language '\\xC3'"},
    {"program", "--lang fr", NULL, {0}, {"--lang", "fr", "list"}, 2, "unknown language 'fr'"},
    {"program", "--no-color, standard output not a terminal", NULL, {0}, {"--no-color"}, 2, "usage: cudachef", BAD_TEXT},
    {"program", "--classroom 99, standard output not a terminal", NULL, {0}, {"--classroom", "99"}, 2,
     "usage: cudachef", BAD_TEXT},
    {"program", "TERM=dumb, standard output not a terminal", NULL, {"TERM=dumb"}, {0}, 2, "usage: cudachef", BAD_TEXT},

    /* info */
    {"info", "--format xml", NULL, {0}, {"info", "--format", "xml"}, 2, "unknown format 'xml'"},
    {"info", "--format without its value", NULL, {0}, {"info", "--format"}, 2, "--format needs a value"},
    {"info", "--backend tpu", NULL, {0}, {"info", "--backend", "tpu"}, 2, "unknown backend 'tpu'"},
    {"info", "--backend empty", NULL, {0}, {"info", "--backend", ""}, 2, "unknown backend ''"},
    {"info", "an extra argument", NULL, {0}, {"info", "extra"}, 2, "unexpected argument 'extra'"},
    {"info", "--format given twice", NULL, {0}, {"info", "--format", "json", "--format", "text"}, 2, "given twice"},
    {"info", "an unknown long option", NULL, {0}, {"info", "--bogus"}, 2, "unknown option '--bogus'"},
    {"info", "an unknown short option in a cluster", NULL, {0}, {"info", "-xh"}, 2, "unknown option '-x'"},

    /* list */
    {"list", "--format without its value", NULL, {0}, {"list", "--format"}, 2, "--format needs a value"},
    {"list", "--check given twice", NULL, {0}, {"list", "--check", "--check"}, 2, "--check was given twice"},
    {"list", "--check=yes (a flag given a value)", NULL, {0}, {"list", "--check=yes"}, 2, "--check takes no value"},
    {"list", "an extra argument", NULL, {0}, {"list", "extra"}, 2, "unexpected argument 'extra'"},

    /* read */
    {"read", "no lesson", NULL, {0}, {"read"}, 2, "which lesson?"},
    {"read", "lesson 0", NULL, {0}, {"read", "0"}, 2, "no lesson called '0'"},
    {"read", "a lesson number of 20 digits", NULL, {0}, {"read", "99999999999999999999"}, 2, "no lesson called"},
    {"read", "--page 0", NULL, {0}, {"read", "1", "--page", "0"}, 2, "--page 0 is too small"},
    {"read", "--page -5", NULL, {0}, {"read", "1", "--page", "-5"}, 2, "--page -5 is too small"},
    {"read", "--page 12abc", NULL, {0}, {"read", "1", "--page", "12abc"}, 2, "'12abc' is not a whole number"},
    {"read", "--page 1e309", NULL, {0}, {"read", "1", "--page", "1e309"}, 2, "'1e309' is not a whole number"},
    {"read", "--page of 20 digits", NULL, {0}, {"read", "1", "--page", "99999999999999999999"}, 2, "is too large"},
    {"read", "--page empty", NULL, {0}, {"read", "1", "--page", ""}, 2, "--page needs a value"},
    {"read", "--page past the last page", NULL, {0}, {"read", "1", "--page", "999"}, 2, "past the end"},
    {"read", "--page given twice", NULL, {0}, {"read", "1", "--page", "1", "--page", "2"}, 2, "--page was given twice"},
    {"read", "--width 5", NULL, {0}, {"read", "1", "--width", "5"}, 2, "--width 5 is too small"},
    {"read", "two lessons", NULL, {0}, {"read", "1", "2"}, 2, "unexpected argument '2'"},

    /* run */
    {"run", "no recipe or lesson", NULL, {0}, {"run"}, 2, "which recipe or lesson?"},
    {"run", "an unknown recipe", NULL, {0}, {"run", "vector-soup"}, 2, "no recipe or lesson called 'vector-soup'"},
    {"run", "a recipe that is not UTF-8", NULL, {0}, {"run", "vector-\xe2\x28"}, 2, "'vector-\\xE2('"},
    {"run", "--n 12abc", NULL, {0}, {"run", "vector-add", "--n", "12abc"}, 2, "'12abc' is not a whole number"},
    {"run", "--n empty", NULL, {0}, {"run", "vector-add", "--n", ""}, 2, "--n needs a value"},
    {"run", "--n -5", NULL, {0}, {"run", "vector-add", "--n", "-5"}, 2, "--n -5 is too small"},
    {"run", "--n 0", NULL, {0}, {"run", "vector-add", "--n", "0"}, 2, "--n 0 is too small"},
    {"run", "--n 1e309", NULL, {0}, {"run", "vector-add", "--n", "1e309"}, 2, "'1e309' is not a whole number"},
    {"run", "--n of 20 digits", NULL, {0}, {"run", "vector-add", "--n", "99999999999999999999"}, 2, "is too large"},
    {"run", "--n 2^63", NULL, {0}, {"run", "vector-add", "--n", "2^63"}, 2, "--n 2^63 is too large"},
    {"run", "--n without its value", NULL, {0}, {"run", "vector-add", "--n"}, 2, "--n needs a value"},
    {"run", "--threads-per-block 0", NULL, {0}, {"run", "vector-add", "--threads-per-block", "0"}, 2, "is too small"},
    {"run", "--threads-per-block 5000", NULL, {0}, {"run", "vector-add", "--threads-per-block", "5000"}, 2,
     "is too large"},
    {"run", "--repeat 1001", NULL, {0}, {"run", "vector-add", "--repeat", "1001"}, 2, "--repeat 1001 is too large"},
    {"run", "an option after '--'", NULL, {0}, {"run", "vector-add", "--", "--n", "5"}, 2, "nothing after '--'"},
    {"run", "--n 2^99", NULL, {0}, {"run", "vector-add", "--n", "2^99"}, 2, "--n 2^99 is too large"},
    {"run", "--blocks whose cooks an int cannot count", NULL, {0},
     {"run", "vector-add-grid-stride", "--n", "1000", "--blocks", "100000000", "--backend", "@B"}, 2,
     "more than the kernel's int index can count"},

    {"run", "--seed -1", NULL, {0}, {"run", "vector-add", "--seed", "-1"}, 2, "--seed -1 is too small"},
    {"run", "--workers 0", NULL, {0}, {"run", "vector-add", "--workers", "0"}, 2, "--workers 0 is too small"},
    {"run", "--backend tpu", NULL, {0}, {"run", "vector-add", "--backend", "tpu"}, 2, "unknown backend 'tpu'"},
    {"run", "--format xml", NULL, {0}, {"run", "vector-add", "--format", "xml"}, 2, "unknown format 'xml'"},
    {"run", "--n given twice", NULL, {0}, {"run", "vector-add", "--n", "4", "--n", "8"}, 2, "--n was given twice"},
    {"run", "--pinned given twice", NULL, {0}, {"run", "vector-add", "--pinned", "--pinned"}, 2, "given twice"},
    {"run", "--pinned=3 (a flag given a value)", NULL, {0}, {"run", "vector-add", "--pinned=3"}, 2,
     "--pinned takes no value"},
    {"run", "--trace - with --format json (both on stdout)", NULL, {0},
     {"run", "vector-add", "--trace", "-", "--format", "json"}, 2, "both write to standard output"},
    {"run", "--trace empty", NULL, {0}, {"run", "vector-add", "--trace", ""}, 2, "--trace needs a file name"},
    {"run", "--demo with a recipe", NULL, {0}, {"run", "vector-add", "--demo", "tiny"}, 2, "goes with a lesson's demo"},
    {"run", "--trace with a lesson", NULL, {0}, {"run", "2", "--trace", "@D/t.json"}, 2, "--trace works with a recipe"},
    {"run", "lesson 99", NULL, {0}, {"run", "99"}, 2, "no recipe or lesson called '99'"},
    {"run", "a demo the lesson does not have", NULL, {0}, {"run", "3", "--demo", "nope"}, 2, "has no demo 'nope'"},
    {"run", "--sizes empty", NULL, {0}, {"run", "7", "--sizes", ""}, 2, "--sizes needs matrix sides"},
    {"run", "--sizes of 33 sizes", NULL, {0},
     {"run", "7", "--sizes", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33"},
     2, "at most 32 sizes"},
    {"run", "--sizes for a lesson without a race", NULL, {0}, {"run", "3", "--sizes", "64"}, 2, "changes a race demo"},
    {"run", "--steps for a demo that is not a trip", NULL, {0}, {"run", "7", "--demo", "clock", "--steps", "3"}, 2,
     "changes a trips or streams demo"},
    {"run", "--trace into a folder that does not exist", NULL, {0},
     {"run", "vector-add", "--n", "4", "--backend", "@B", "--trace", "@D/no/such/t.json"}, 5,
     "could not write the trace", BAD_LINE, NULL, NULL, 1},

    /* init and reset */
    {"init, reset", "init with two folders", NULL, {0}, {"init", "a", "b"}, 2, "init takes one folder, not 2"},
    {"init, reset", "init with an empty folder name", NULL, {0}, {"init", ""}, 2, "the folder's name is empty"},
    {"init, reset", "init into a file", "touch $D/file", {0}, {"init", "@D/file"}, 5, "cannot make the folder"},
    {"init, reset", "reset without an exercise", NULL, {0}, {"reset"}, 2, "name one exercise"},
    {"init, reset", "reset of an unknown exercise", "\"$CUDACHEF_BIN\" init $D/ws >/dev/null", {0},
     {"reset", "nope", "--workspace", "@D/ws"}, 2, "no exercise 'nope'"},
    {"init, reset", "reset in a workspace that does not exist", NULL, {0},
     {"reset", "bounds-check", "--workspace", "@D/none"}, 2, "no workspace at"},
    {"init, reset", "reset with --workspace twice", NULL, {0}, {"reset", "x", "--workspace", "a", "--workspace", "b"}, 2,
     "--workspace was given twice"},

    /* progress */
    {"progress", "--format xml", NULL, {0}, {"progress", "--format", "xml"}, 2, "unknown format 'xml'"},
    {"progress", "jump without a lesson", NULL, {0}, {"progress", "jump"}, 2, "jump takes a lesson"},
    {"progress", "jump to page 0", NULL, {0}, {"progress", "jump", "1", "0"}, 2, "PAGE 0 is too small"},
    {"progress", "jump to page abc", NULL, {0}, {"progress", "jump", "1", "abc"}, 2, "'abc' is not a whole number"},
    {"progress", "jump to page 1e309", NULL, {0}, {"progress", "jump", "1", "1e309"}, 2, "not a whole number"},
    {"progress", "jump to an unknown lesson", NULL, {0}, {"progress", "jump", "nope"}, 2, "no lesson 'nope'"},
    {"progress", "reset without a lesson", NULL, {0}, {"progress", "reset"}, 2, "reset takes one lesson, or --all"},
    {"progress", "reset of a lesson and --all", NULL, {0}, {"progress", "reset", "1", "--all"}, 2,
     "reset takes one lesson, or --all"},
    {"progress", "--all without reset", NULL, {0}, {"progress", "--all"}, 2, "--all goes with reset"},
    {"progress", "an unknown action", NULL, {0}, {"progress", "fly"}, 2, "'fly' is not show, reset or jump"},
    {"progress", "show with an argument", NULL, {0}, {"progress", "show", "x"}, 2, "show takes none"},

    /* exercise */
    {"exercise", "no exercise", NULL, {0}, {"exercise"}, 2, "name one exercise"},
    {"exercise", "an unknown exercise", NULL, {0}, {"exercise", "nope"}, 2, "no exercise 'nope'"},
    {"exercise", "--hint 0", NULL, {0}, {"exercise", "bounds-check", "--hint", "0"}, 2, "--hint 0 is too small"},
    {"exercise", "--hint 99", NULL, {0}, {"exercise", "bounds-check", "--hint", "99"}, 2, "--hint 99 is too large"},
    {"exercise", "--hint with --solution", NULL, {0}, {"exercise", "bounds-check", "--hint", "1", "--solution"}, 2,
     "cannot go together"},
    {"exercise", "--spoil without --solution", NULL, {0}, {"exercise", "bounds-check", "--spoil"}, 2,
     "--spoil goes with --solution"},
    {"exercise", "--solution before it passed", NULL, {0}, {"exercise", "bounds-check", "--solution"}, 2,
     "has not passed yet"},

    /* grade */
    {"grade", "--format xml", NULL, {0}, {"grade", "--format", "xml"}, 2, "not 'xml'"},
    {"grade", "--timeout 0", NULL, {0}, {"grade", "--timeout", "0"}, 2, "--timeout 0 is too small"},
    {"grade", "--timeout 1e309", NULL, {0}, {"grade", "--timeout", "1e309"}, 2, "not a whole number"},
    {"grade", "--solutions with --starters", NULL, {0}, {"grade", "--solutions", "--starters"}, 2, "cannot go together"},
    {"grade", "--solutions given twice", NULL, {0}, {"grade", "--solutions", "--solutions"}, 2, "given twice"},
    {"grade", "--class with --workspace", NULL, {0}, {"grade", "--class", "@D", "--workspace", "@D"}, 2,
     "does not go with --workspace"},
    {"grade", "a workspace that does not exist", NULL, {0}, {"grade", "--workspace", "@D/none"}, 2, "no workspace at"},
    {"grade", "an unknown exercise", NULL, {0}, {"grade", "--solutions", "nope"}, 2, "no exercise 'nope'"},
    {"grade", "--output empty", NULL, {0}, {"grade", "--output", ""}, 2, "--output needs a file name"},
    {"grade", "--output into a folder that does not exist", NULL, {0},
     {"grade", "--solutions", "bounds-check", "--backend", "@B", "--output", "@D/no/such/g.json"}, 5,
     "cannot write @D/no/such/g.json", BAD_LINE, NULL, NULL, 1},
    {"grade", "--output a link: written through, never replaced", "echo old > $D/target && ln -s target $D/link", {0},
     {"grade", "--solutions", "bounds-check", "--backend", "@B", "--output", "@D/link"}, 0, NULL, BAD_LINE, NULL,
     "test -L $D/link && grep -q 'PASS bounds-check' $D/target", 1},

    /* try */
    {"try", "no file", NULL, {0}, {"try"}, 2, "give one .cu file"},
    {"try", "two files that are not there", NULL, {0}, {"try", "a.cu", "b.cu"}, 2, "cannot read a.cu"},
    {"try", "a file that does not exist", NULL, {0}, {"try", "@D/missing.cu"}, 2, "cannot read @D/missing.cu"},
    {"try", "an empty file", "touch $D/e.cu", {0}, {"try", "@D/e.cu"}, 2, "has no __global__ kernel"},
    {"try", "a FIFO no one writes to", "mkfifo $D/f.cu", {0}, {"try", "@D/f.cu"}, 2, "has no __global__ kernel"},
    {"try", "a folder", NULL, {0}, {"try", "@D"}, 2, "cannot read"},
    {"try", "bytes that are not text", "head -c 4096 /dev/urandom | tr -d '\\000' > $D/bin.cu", {0}, {"try", "@D/bin.cu"},
     2, "has no __global__ kernel"},
    {"try", "standard input without a kernel", NULL, {0}, {"try", "/dev/stdin"}, 2, "has no __global__ kernel",
     BAD_USAGE, NULL, NULL, 0, 0, "int x;\n"},
    {"try", "a whole program on standard input", NULL, {0}, {"try", "/dev/stdin"}, 2, "is built from its files",
     BAD_USAGE, NULL, NULL, 0, 0, "int main(void) { return 0; }\n"},
    {"try", "--timeout -1", NULL, {0}, {"try", "k.cu", "--timeout", "-1"}, 2, "--timeout -1 is too small"},
    {"try", "--recipe that does not exist", A_KERNEL, {0}, {"try", "@D/k.cu", "--recipe", "soup"}, 2,
     "no recipe 'soup'"},
    {"try", "--kitchen, standard output not a terminal", A_KERNEL, {0}, {"try", "@D/k.cu", "--kitchen"}, 2,
     "--kitchen needs a terminal"},
    {"try", "--backend tpu", A_KERNEL, {0}, {"try", "@D/k.cu", "--backend", "tpu"}, 2, "not 'tpu'"},

    /* bench (its options only: the sweeps are in test_bench.c) */
    {"bench", "--sweep 0", NULL, {0}, {"bench", "--sweep", "0"}, 2, "--sweep 0 is too small"},
    {"bench", "--sweep abc", NULL, {0}, {"bench", "--sweep", "abc"}, 2, "'abc' is not a whole number"},
    {"bench", "--sweep 32:16 (backwards)", NULL, {0}, {"bench", "--sweep", "32:16"}, 2, "from the smaller side"},
    {"bench", "--sweep given twice", NULL, {0}, {"bench", "--sweep", "32", "--sweep", "64"}, 2, "given twice"},
    {"bench", "--only gemm", NULL, {0}, {"bench", "--only", "gemm"}, 2, "unknown sweep 'gemm'"},
    {"bench", "--format xml", NULL, {0}, {"bench", "--format", "xml"}, 2, "unknown format 'xml'"},

    /* the lessons folder */
    {"lessons folder", "missing: list --check", NULL, {"CUDACHEF_LESSONS=@D/none"}, {"list", "--check"}, 5,
     "cannot read the lessons folder @D/none"},
    {"lessons folder", "missing: list still lists the recipes", NULL, {"CUDACHEF_LESSONS=@D/none"}, {"list"}, 0,
     "cannot read the lessons folder", BAD_LINE},
    {"lessons folder", "missing: read", NULL, {"CUDACHEF_LESSONS=@D/none"}, {"read", "1"}, 5, "cannot read the lessons folder"},
    {"lessons folder", "missing: run a lesson", NULL, {"CUDACHEF_LESSONS=@D/none"}, {"run", "2"}, 5,
     "cannot read the lessons folder"},
    {"lessons folder", "missing: progress", NULL, {"CUDACHEF_LESSONS=@D/none"}, {"progress"}, 5,
     "cannot read the lessons folder"},
    {"lessons folder", "missing through CUDACHEF_DATA", NULL, {"CUDACHEF_DATA=@D/none", "CUDACHEF_LESSONS"},
     {"read", "1"}, 5, "cannot read the lessons folder @D/none/lessons"},
    {"lessons folder", "empty: read", "mkdir $D/l", {LESSONS_ENV}, {"read", "1"}, 5, "holds no lessons"},
    {"lessons folder", "empty: list --check", "mkdir $D/l", {LESSONS_ENV}, {"list", "--check"}, 5, "holds no lessons"},
    {"lessons folder", "a file, not a folder", "touch $D/l", {LESSONS_ENV}, {"read", "1"}, 5, "Not a directory"},
    {"lessons folder", "a link to itself", "ln -s l $D/l", {LESSONS_ENV}, {"read", "1"}, 5, "Too many levels"},
    {"lessons folder", "no exercises folder (init)", NULL, {"CUDACHEF_DATA=@D", "CUDACHEF_EXERCISES"}, {"init", "@D/ws"},
     5, "cannot read the exercises folder"},
    {"lessons folder", "no exercises folder (grade)", NULL, {"CUDACHEF_DATA=@D", "CUDACHEF_EXERCISES"}, {"grade"}, 5,
     "cannot read the exercises folder"},

    /* lesson files, broken in a copy of lesson 2 */
    {"lesson files", "lesson.ini: a line that is not INI", LESSON "echo '[lesson' >> lesson.ini", {LESSONS_ENV},
     {"read", "2"}, 2, "not an INI line"},
    {"lesson files", "lesson.ini: an unknown key", LESSON "sed -i 's/^kernels /kernelz /' lesson.ini", {LESSONS_ENV},
     {"read", "2"}, 2, "unknown key 'kernelz'"},
    {"lesson files", "lesson.ini: an unknown section", LESSON "printf '[dessert]\\nx = 1\\n' >> lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "unknown section [dessert]"},
    {"lesson files", "lesson.ini: no title.en", LESSON "sed -i '/^title.en /d' lesson.ini", {LESSONS_ENV}, {"read", "2"},
     2, "needs title.en"},
    {"lesson files", "lesson.ini: empty", LESSON ": > lesson.ini", {LESSONS_ENV}, {"read", "2"}, 2, "needs title.en"},
    {"lesson files", "lesson.ini: missing", LESSON "rm lesson.ini", {LESSONS_ENV}, {"read", "2"}, 2,
     "lesson.ini: cannot read"},
    {"lesson files", "lesson.ini: a demo of an unknown kind", LESSON "sed -i 's/^kind     = run/kind = bake/' lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "kind = bake"},
    {"lesson files", "lesson.ini: n = -4", LESSON "sed -i 's/^n        = 4$/n = -4/' lesson.ini", {LESSONS_ENV},
     {"read", "2"}, 2, "n = -4: expected a whole number"},
    {"lesson files", "lesson.ini: n of 20 digits", LESSON "sed -i 's/^n        = 4$/n = 99999999999999999999/' lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "expected a whole number"},
    {"lesson files", "lesson.ini: emu.n = 0", LESSON "printf 'emu.n = 0\\n' >> lesson.ini", {LESSONS_ENV}, {"read", "2"},
     2, "emu.n = 0"},
    {"lesson files", "lesson.ini: expect = maybe", LESSON "printf 'expect = maybe\\n' >> lesson.ini", {LESSONS_ENV},
     {"read", "2"}, 2, "expect = maybe"},
    {"lesson files", "lesson.ini: an unknown recipe", LESSON "sed -i '0,/^recipe /s/^recipe .*/recipe = soup/' lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "no such recipe"},
    {"lesson files", "lesson.ini: a demo named twice",
     LESSON "printf '[demo tiny]\\ntitle.en = a\\ntitle.ko = b\\nkind = run\\nrecipe = vector-add\\n' >> lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "appears twice"},
    {"lesson files", "lesson.ini: a demo name with capitals and '!'",
     LESSON "printf '[demo Bad!]\\ntitle.en = a\\ntitle.ko = b\\nkind = run\\nrecipe = vector-add\\n' >> lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "a demo name is"},
    {"lesson files", "lesson.ini: a kernel that does not exist", LESSON "sed -i 's/^kernels .*/kernels = nope_kernel/' lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "nope_kernel"},
    {"lesson files", "lesson.ini: a mark in no kernel", LESSON "sed -i 's/^marks .*/marks = nope-mark/' lesson.ini",
     {LESSONS_ENV}, {"read", "2"}, 2, "mark 'nope-mark'"},
    {"lesson files", "lesson.ini: a line of 3000 bytes", LESSON "printf '; %03000d\\n' 0 >> lesson.ini", {LESSONS_ENV},
     {"read", "2"}, 2, "line longer than"},
    {"lesson files", "lesson.ini: not UTF-8", LESSON "printf '; \\377\\n' >> lesson.ini", {LESSONS_ENV}, {"read", "2"}, 2,
     "not valid UTF-8"},
    {"lesson files", "en.md: missing", LESSON "rm en.md", {LESSONS_ENV}, {"read", "2"}, 2, "en.md: cannot read"},
    {"lesson files", "ko.md: missing", LESSON "rm ko.md", {LESSONS_ENV}, {"read", "2"}, 2, "ko.md: cannot read"},
    {"lesson files", "en.md: a folder", LESSON "rm en.md && mkdir en.md", {LESSONS_ENV}, {"read", "2"}, 2,
     "Is a directory"},
    {"lesson files", "en.md: a FIFO no one writes to", LESSON "rm en.md && mkfifo en.md", {LESSONS_ENV}, {"read", "2"}, 2,
     "no pages"},
    {"lesson files", "en.md: empty (a lesson with no pages)", LESSON ": > en.md", {LESSONS_ENV}, {"read", "2"}, 2,
     "no pages"},
    {"lesson files", "en.md: 130 MiB", LESSON "truncate -s 130M en.md", {LESSONS_ENV}, {"read", "2"}, 2, "File too large"},
    {"lesson files", "en.md: not UTF-8", LESSON "printf '\\377\\376 bad\\n' >> en.md", {LESSONS_ENV}, {"read", "2"}, 2,
     "not valid UTF-8"},
    {"lesson files", "en.md: a question with two right choices", LESSON "sed -i '0,/^- \\[ \\]/s//- [x]/' en.md",
     {LESSONS_ENV}, {"read", "2"}, 2, "exactly one right choice"},
    {"lesson files", "en.md: a question with no choices", LESSON "printf '\\n# ? What?\\n\\nno choices\\n' >> en.md",
     {LESSONS_ENV}, {"read", "2"}, 2, "at least two choices"},
    {"lesson files", "ko.md: a question fewer than en.md",
     LESSON "printf '\\n# ? Extra?\\n\\n- [x] a\\n  b\\n- [ ] c\\n  d\\n' >> en.md", {LESSONS_ENV}, {"read", "2"}, 2,
     "questions, but"},
    {"lesson files", "two lessons with the same number", LESSON "cp -r . ../02-five-steps-again", {LESSONS_ENV},
     {"list", "--check"}, 1, "is taken by", BAD_REPORT},
    {"lesson files", "list --check names the file and line", LESSON "echo '[lesson' >> lesson.ini", {LESSONS_ENV},
     {"list", "--check"}, 1, "02-five-steps/lesson.ini:", BAD_REPORT},
    {"lesson files", "en.md: a right-to-left override (U+202E)", LESSON "printf '\\n\\342\\200\\256gnirts\\n' >> en.md",
     {LESSONS_ENV}, {"list", "--check"}, 1, "U+202E", BAD_REPORT},
    {"lesson files", "en.md: a zero-width space (U+200B)", LESSON "printf '\\nzero\\342\\200\\213width\\n' >> en.md",
     {LESSONS_ENV}, {"list", "--check"}, 1, "U+200B", BAD_REPORT},
    {"lesson files", "run of a broken lesson", LESSON "echo '[lesson' >> lesson.ini", {LESSONS_ENV}, {"run", "2"}, 2,
     "lesson.ini:"},
    {"lesson files", "progress with a broken lesson", LESSON "echo '[lesson' >> lesson.ini", {LESSONS_ENV},
     {"progress", "jump", "2"}, 2, "no lesson '2'"},

    /* the progress file (CUDACHEF_STATE_HOME=@D/s); its bytes must survive */
    {"progress file", "NUL bytes: progress", STATE NUL_FILE, {STATE_ENV}, {"progress"}, 5, "holds a NUL byte",
     BAD_USAGE, "s/progress"},
    {"progress file", "NUL bytes: a demo runs, not recorded", STATE NUL_FILE, {STATE_ENV},
     {"run", "2", "--demo", "tiny", "--backend", "@B"}, 0, "progress not saved", BAD_LINE, "s/progress", NULL, 1},
    {"progress file", "NUL bytes: jump", STATE NUL_FILE, {STATE_ENV}, {"progress", "jump", "1", "2"}, 5,
     "holds a NUL byte", BAD_USAGE, "s/progress"},
    {"progress file", "NUL bytes: reset --all", STATE NUL_FILE, {STATE_ENV}, {"progress", "reset", "--all"}, 5,
     "holds a NUL byte", BAD_LINE, "s/progress", "cmp -s $D/s/progress $D/s/progress.bak"},
    {"progress file", "not UTF-8: shown", STATE "printf 'page five-steps 1\\n\\377\\376 x\\n' > $D/s/progress",
     {STATE_ENV}, {"progress", "--format", "json"}, 0, NULL, BAD_LINE, "s/progress"},
    {"progress file", "not UTF-8: its lines kept by a jump", STATE "printf '\\377\\376 mine\\n' > $D/s/progress",
     {STATE_ENV}, {"progress", "jump", "1", "2"}, 0, NULL, BAD_LINE, NULL,
     "grep -q 'mine' $D/s/progress && grep -q 'page meet-your-kitchen 1' $D/s/progress"},
    {"progress file", "empty: shown", STATE ": > $D/s/progress", {STATE_ENV}, {"progress"}, 0, NULL, BAD_LINE,
     "s/progress"},
    {"progress file", "empty: a jump records", STATE ": > $D/s/progress", {STATE_ENV}, {"progress", "jump", "1", "2"}, 0,
     NULL, BAD_LINE, NULL, "grep -q 'page meet-your-kitchen 1' $D/s/progress"},
    {"progress file", "a folder: progress", STATE "mkdir $D/s/progress", {STATE_ENV}, {"progress"}, 5,
     "not a progress file", BAD_USAGE, "s/progress"},
    {"progress file", "a folder: a demo runs, not recorded", STATE "mkdir $D/s/progress", {STATE_ENV},
     {"run", "2", "--demo", "tiny", "--backend", "@B"}, 0, "progress not saved", BAD_LINE, "s/progress", NULL, 1},
    {"progress file", "a folder: reset --all", STATE "mkdir $D/s/progress", {STATE_ENV}, {"progress", "reset", "--all"},
     5, "not a progress file", BAD_USAGE, "s/progress"},
    {"progress file", "9 MiB", STATE "truncate -s 9M $D/s/progress", {STATE_ENV}, {"progress"}, 5, "larger than 8 MiB",
     BAD_USAGE, "s/progress"},
    {"progress file", "cannot be written (its temporary name is a folder)",
     STATE "echo 'page five-steps 2' > $D/s/progress && mkdir $D/s/.progress.tmp", {STATE_ENV},
     {"progress", "jump", "1", "2"}, 5, "cannot write the progress file", BAD_USAGE, "s/progress"},
    {"progress file", "cannot be locked (its lock is a folder)",
     STATE "echo 'page five-steps 2' > $D/s/progress && mkdir $D/s/progress.lock", {STATE_ENV},
     {"progress", "jump", "1", "2"}, 5, "cannot write the progress file", BAD_USAGE, "s/progress"},
    {"progress file", "its folder under a file", "touch $D/f", {"CUDACHEF_STATE_HOME=@D/f/state"},
     {"progress", "jump", "1", "2"}, 5, "cannot make the folder", BAD_USAGE, "f"},
    {"progress file", "a folder name of 5000 characters", NULL, {"CUDACHEF_STATE_HOME=@LONG"}, {"progress"}, 5,
     "too long a name"},
    {"progress file", "no HOME, no XDG_STATE_HOME", NULL, {"CUDACHEF_STATE_HOME", "XDG_STATE_HOME", "HOME"},
     {"progress"}, 5, "HOME is not set"},
    {"progress file", "a link to itself", STATE "ln -s progress $D/s/progress", {STATE_ENV}, {"progress"}, 5,
     "cannot read the progress file"},

    /* the terminal (no command: the full-screen interface) */
    {"terminal", "TERM not set", NULL, {"TERM"}, {0}, 5, "TERM is not set", BAD_TERMINAL},
    {"terminal", "TERM=dumb", NULL, {"TERM=dumb"}, {0}, 5, "cannot move its cursor", BAD_TERMINAL},
    {"terminal", "TERM names no known terminal", NULL, {"TERM=no-such-terminal"}, {0}, 5, "cannot be driven full-screen",
     BAD_TERMINAL},
    {"terminal", "TERM=dumb, --classroom", NULL, {"TERM=dumb"}, {"--classroom"}, 5, "cannot move its cursor",
     BAD_TERMINAL},

    /* memory: a run larger than the memory this process may take is refused before allocating (4 GiB:
       OpenBLAS reserves address space for a thread per core when the program starts) */
    {"memory", "run larger than ulimit -v", NULL, {0}, {"run", "vector-add", "--n", "400000000", "--backend", "emu"}, 5,
     "of host memory, but only", BAD_USAGE, NULL, NULL, 0, 4096},
    {"memory", "a demo larger than ulimit -v", NULL, {0},
     {"run", "2", "--demo", "million", "--n", "400000000", "--backend", "emu"}, 5, "of host memory, but only", BAD_LINE,
     NULL, NULL, 0, 4096},
    {"memory", "a learner's kernel larger than ulimit -v", A_KERNEL, {0},
     {"try", "@D/k.cu", "--n", "400000000", "--backend", "emu"}, 5, "of host memory, but only", BAD_USAGE, NULL, NULL, 0,
     4096},

    /* the test hook's own variable */
    {"test hook", "CUDACHEF_FAULT=bogus", NULL, {"CUDACHEF_FAULT=bogus"}, {"run", "vector-add", "--n", "4"}, 2,
     "CUDACHEF_FAULT: 'bogus' is not WHAT:N"},
    {"test hook", "CUDACHEF_FAULT=alloc:0", NULL, {"CUDACHEF_FAULT=alloc:0"}, {"info"}, 2, "a number from 1"},
    {"test hook", "CUDACHEF_FAULT=melt:1", NULL, {"CUDACHEF_FAULT=melt:1"}, {"info"}, 2, "unknown operation 'melt'"},
};

#define BAD_COUNT (sizeof bad_cases / sizeof bad_cases[0])

static const char *bad_bin = "build/cudachef";
static const char *bad_backend = "emu";
static int bad_can_cook = 1;
/* 1 under AddressSanitizer (CUDACHEF_TEST_SANITIZER=address): the ulimit -v cases are skipped. */
static int bad_under_asan;
static char bad_long[5100];

/* Copies text into out with @D, @B and @LONG replaced. */
static void bad_expand(const char *text, const char *dir, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = text; *p && n + 1 < size;) {
        const char *with = NULL;
        size_t skip = 0;
        if (strncmp(p, "@D", 2) == 0)
            with = dir, skip = 2;
        else if (strncmp(p, "@B", 2) == 0)
            with = bad_backend, skip = 2;
        else if (strncmp(p, "@LONG", 5) == 0)
            with = bad_long, skip = 5;
        if (with) {
            n += (size_t)snprintf(out + n, size - n, "%s", with);
            p += skip;
        } else {
            out[n++] = *p++;
            out[n] = '\0';
        }
        if (n >= size)
            n = size - 1;
    }
}

/* Reads a whole file (NULL when it cannot be read); *size gets its length. */
static char *bad_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = cli_slurp(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fclose(f);
    return s;
}

/* True when text is one line starting with "cudachef", optionally followed by one "  hint:" line. */
static int bad_one_line(const char *text)
{
    const char *nl = strchr(text, '\n');
    if (strncmp(text, "cudachef", 8) != 0 || !nl)
        return 0;
    if (nl[1] == '\0')
        return 1;
    if (strncmp(nl + 1, "  hint:", 7) != 0)
        return 0;
    nl = strchr(nl + 1, '\n');
    return nl && nl[1] == '\0';
}

/* True when text is valid UTF-8 and holds no escape character (nothing a terminal would obey). */
static int bad_clean_text(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        int n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : (*s & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0 || *s == 0x1B)
            return 0;
        for (int k = 1; k < n; k++)
            if ((s[k] & 0xC0) != 0x80)
                return 0;
        s += n;
    }
    return 1;
}

/* Runs the program in a pseudo-terminal of 80 x 24 with env; fills r (its output in r->out) and
   whether the terminal's modes were left as they were found. */
static void bad_exec_terminal(cli_result *r, const char *const *argv, const char *const *env, int *modes_kept)
{
    memset(r, 0, sizeof *r);
    snprintf(r->line, sizeof r->line, "(in a terminal) %s", argv[1] ? argv[1] : "");
    int master, slave;
    struct winsize ws = {.ws_row = 24, .ws_col = 80};
    assert_int_equal(openpty(&master, &slave, NULL, NULL, &ws), 0);
    struct termios before, after;
    assert_int_equal(tcgetattr(slave, &before), 0);
    test_guard guard = test_guard_start(BAD_GUARD_S);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(master);
        setsid();
        ioctl(slave, TIOCSCTTY, 0);
        dup2(slave, 0);
        dup2(slave, 1);
        dup2(slave, 2);
        if (slave > 2)
            close(slave);
        setenv("TERM", "xterm-256color", 1);
        for (int i = 0; env[i]; i++) {
            const char *eq = strchr(env[i], '=');
            if (eq) {
                char name[128];
                snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
                setenv(name, eq + 1, 1);
            } else {
                unsetenv(env[i]);
            }
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    size_t len = 0, cap = 4096;
    r->out = malloc(cap);
    assert_non_null(r->out);
    r->out[0] = '\0';
    int st = 0, done = 0;
    while (!done) {
        struct pollfd p = {master, POLLIN, 0};
        if (poll(&p, 1, 50) > 0) {
            char buf[4096];
            ssize_t n = read(master, buf, sizeof buf);
            if (n > 0) {
                if (len + (size_t)n + 1 > cap) {
                    cap = 2 * (len + (size_t)n + 1);
                    r->out = realloc(r->out, cap);
                    assert_non_null(r->out);
                }
                memcpy(r->out + len, buf, (size_t)n);
                len += (size_t)n;
                r->out[len] = '\0';
                continue;
            }
        }
        if (waitpid(pid, &st, WNOHANG) == pid)
            done = 1;
        r->seconds = test_guard_waited(&guard);
        if (!done && !r->timed_out && test_guard_over(&guard)) {
            r->timed_out = 1;
            test_guard_line(r->hung, sizeof r->hung, r->seconds, "`%s` to end (killed it)", r->line);
            kill(pid, SIGKILL);
        }
    }
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r->err = strdup("");
    assert_int_equal(tcgetattr(slave, &after), 0);
    *modes_kept = before.c_lflag == after.c_lflag && before.c_iflag == after.c_iflag &&
                  before.c_oflag == after.c_oflag && before.c_cflag == after.c_cflag;
    close(slave);
    close(master);
}

/* Says what went wrong with a case (and counts it). */
static void bad_fail(int *failures, const bad_case *c, const cli_result *r, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void bad_fail(int *failures, const bad_case *c, const cli_result *r, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    print_message("FAIL [%s] %s: %s\n    $ %s\n    exit %d after %.2f s\n    stdout: %.600s\n    stderr: %.600s\n",
                  c->category, c->what, why, r->line, r->status, r->seconds, r->out ? r->out : "",
                  r->err ? r->err : "");
    (*failures)++;
}

/* Runs one case; adds to *failures what it got wrong. Returns 0 when skipped, else 1. */
static int bad_run(const bad_case *c, int *failures)
{
    if (c->cooks && !bad_can_cook)
        return 0;
    if (c->memory_mb > 0 && bad_under_asan) /* its shadow memory needs terabytes of address space */
        return 0;
    char dir[200];
    snprintf(dir, sizeof dir, "%s/cudachef-bad-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
    setenv("D", dir, 1);
    if (c->setup && system(c->setup) != 0)
        print_message("note: the setup of '%s' failed: %s\n", c->what, c->setup);
    /* the case's environment after the defaults: its own folders for everything it could write */
    char env_text[12][5400], *env[13];
    int nenv = 0;
    snprintf(env_text[nenv++], sizeof env_text[0], "CUDACHEF_STATE_HOME=%s/state", dir);
    snprintf(env_text[nenv++], sizeof env_text[0], "CUDACHEF_CACHE_HOME=%s/cache", dir);
    snprintf(env_text[nenv++], sizeof env_text[0], "CUDACHEF_WORKSPACE=%s/ws", dir);
    snprintf(env_text[nenv++], sizeof env_text[0], "LANG=C.UTF-8");
    snprintf(env_text[nenv++], sizeof env_text[0], "LC_ALL");
    snprintf(env_text[nenv++], sizeof env_text[0], "LANGUAGE");
    snprintf(env_text[nenv++], sizeof env_text[0], "CUDACHEF_FAULT");
    for (int i = 0; i < 4 && c->env[i]; i++)
        bad_expand(c->env[i], dir, env_text[nenv++], sizeof env_text[0]);
    for (int i = 0; i < nenv; i++)
        env[i] = env_text[i];
    env[nenv] = NULL;
    char args[12][1200];
    const char *argv[14] = {bad_bin};
    int argc = 1;
    for (int i = 0; i < 12 && c->args[i]; i++) {
        bad_expand(c->args[i], dir, args[i], sizeof args[i]);
        argv[argc++] = args[i];
    }
    argv[argc] = NULL;
    char message[1200] = "", keep_path[300] = "";
    if (c->message)
        bad_expand(c->message, dir, message, sizeof message);
    size_t kept_size = 0;
    char *kept = NULL;
    struct stat kept_st;
    int kept_dir = 0;
    if (c->keep) {
        snprintf(keep_path, sizeof keep_path, "%s/%s", dir, c->keep);
        kept_dir = stat(keep_path, &kept_st) == 0 && S_ISDIR(kept_st.st_mode);
        kept = kept_dir ? NULL : bad_read(keep_path, &kept_size);
    }
    cli_result r;
    int modes_kept = 1;
    if (c->shape == BAD_TERMINAL) {
        bad_exec_terminal(&r, argv, (const char *const *)env, &modes_kept);
    } else {
        cli_how how = {(const char *const *)env, c->input, BAD_GUARD_S, c->memory_mb, 1};
        cli_exec_with(&r, bad_bin, argv, &how);
    }
    int before = *failures;
    if (r.status >= 128 && r.status != c->status)
        bad_fail(failures, c, &r, "ended by signal %d", r.status - 128);
    else if (r.status != c->status)
        bad_fail(failures, c, &r, "exit %d, expected %d", r.status, c->status);
    if (r.timed_out)
        bad_fail(failures, c, &r, "hung: %s", r.hung);
    const char *where = c->shape == BAD_REPORT || c->shape == BAD_TERMINAL ? r.out : r.err;
    if (message[0] && !strstr(where, message))
        bad_fail(failures, c, &r, "the message does not say \"%s\"", message);
    switch (c->shape) {
    case BAD_USAGE:
        if (r.out[0] && c->status == CHEF_EXIT_USAGE)
            bad_fail(failures, c, &r, "a usage error wrote to stdout");
        /* fall through */
    case BAD_LINE:
        if (message[0] ? !bad_one_line(r.err) : r.err[0] != '\0')
            bad_fail(failures, c, &r, "stderr is not %s", message[0] ? "one line (and its hint)" : "empty");
        break;
    case BAD_TERMINAL:
        if (!modes_kept)
            bad_fail(failures, c, &r, "the terminal's modes were changed");
        break;
    default:
        break;
    }
    if (c->shape != BAD_TERMINAL && !bad_clean_text(r.err))
        bad_fail(failures, c, &r, "stderr holds bytes that are not UTF-8, or an escape character");
    if (c->keep) {
        struct stat now;
        size_t size = 0;
        char *text = kept_dir ? NULL : bad_read(keep_path, &size);
        int same = kept_dir ? stat(keep_path, &now) == 0 && S_ISDIR(now.st_mode)
                            : kept && text && size == kept_size && memcmp(kept, text, size) == 0;
        if (!same)
            bad_fail(failures, c, &r, "%s changed: progress would be lost", c->keep);
        free(text);
    }
    if (c->check && system(c->check) != 0)
        bad_fail(failures, c, &r, "afterwards, '%s' failed", c->check);
    if (*failures > before && c->setup)
        print_message("    setup: %s\n", c->setup);
    free(kept);
    cli_free(&r);
    char cmd[500];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwX '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
    if (system(cmd) != 0)
        print_message("note: could not remove %s\n", dir);
    return 1;
}

/* Every case of the table: the exit code, no crash or hang, the message and its shape, the files
   kept, the terminal as it was. */
static void test_bad_inputs(void **state)
{
    (void)state;
    int failures = 0, ran = 0, skipped = 0;
    double t0 = test_now_s();
    for (size_t i = 0; i < BAD_COUNT; i++) {
        if (bad_run(&bad_cases[i], &failures))
            ran++;
        else
            skipped++;
    }
    print_message("bad inputs: %d cases run, %d skipped (%s), %d problems, %.1f s\n", ran, skipped,
                  bad_under_asan ? "no GPU, or ulimit -v under AddressSanitizer" : "no GPU", failures,
                  test_now_s() - t0);
    assert_int_equal(failures, 0);
}

/* Writes the table of cases by category, as docs/RELIABILITY.md holds it, into out (size bytes). */
static void bad_markdown(char *out, size_t size)
{
    size_t n = 0;
    n += (size_t)snprintf(out + n, size - n, "%s| category | cases | what is tried |\n| --- | --- | --- |\n", BAD_DOC_BEGIN);
    const char *done[64];
    int ndone = 0;
    for (size_t i = 0; i < BAD_COUNT && n < size; i++) {
        const char *cat = bad_cases[i].category;
        int seen = 0;
        for (int k = 0; k < ndone; k++)
            seen |= strcmp(done[k], cat) == 0;
        if (seen || ndone == 64)
            continue;
        done[ndone++] = cat;
        int count = 0;
        for (size_t k = 0; k < BAD_COUNT; k++)
            count += strcmp(bad_cases[k].category, cat) == 0;
        n += (size_t)snprintf(out + n, size - n, "| %s | %d | ", cat, count);
        int first = 1;
        for (size_t k = 0; k < BAD_COUNT && n < size; k++)
            if (strcmp(bad_cases[k].category, cat) == 0) {
                n += (size_t)snprintf(out + n, size - n, "%s%s", first ? "" : "; ", bad_cases[k].what);
                first = 0;
            }
        n += (size_t)snprintf(out + n, size - n, " |\n");
    }
    if (n < size)
        n += (size_t)snprintf(out + n, size - n, "| **all** | **%zu** | |\n%s", BAD_COUNT, BAD_DOC_END);
}

/* docs/RELIABILITY.md holds the table this program makes (`test_badinput --markdown`). */
static void test_reliability_doc(void **state)
{
    (void)state;
    static char want[65536];
    bad_markdown(want, sizeof want);
    assert_true(cli_doc_holds(BAD_DOC, BAD_DOC_BEGIN, BAD_DOC_END, want));
}

int main(int argc, char **argv)
{
    if (chdir(test_source_dir()) != 0)
        return 1;
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0) {
        static char table[65536];
        bad_markdown(table, sizeof table);
        fputs(table, stdout);
        return 0;
    }
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    if (!(bad_bin = cli_prepare("test_badinput", bad_bin)))
        return 1;
    setenv("CUDACHEF_BIN", bad_bin, 1); /* for the setups that run the program */
    if (test_backend_from_env() == BACKEND_GPU) {
        bad_backend = "gpu";
        bad_can_cook = !test_backend_skip(BACKEND_GPU);
    }
    const char *sanitizer = getenv("CUDACHEF_TEST_SANITIZER");
    bad_under_asan = sanitizer && strcmp(sanitizer, "address") == 0;
    memset(bad_long, 'x', sizeof bad_long - 1);
    bad_long[0] = '/';
    printf("test_badinput: %s, %zu cases, backend %s\n", bad_bin, BAD_COUNT, bad_backend);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_reliability_doc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
