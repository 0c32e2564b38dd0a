/*
 * test_faults.c - failures that do not come from the user: the backend failing under cudachef, and
 * a learner's kernel misbehaving. Each must be contained (no crash of cudachef, no hang, nothing
 * left allocated), reported (a clear line naming the step that failed) and end with its documented
 * exit code.
 *
 * Backend faults go through the test hook in the backend layer (CUDACHEF_FAULT=WHAT:N, src/base/fault.h):
 * every operation (open, alloc, host, copy, launch, sync) fails at its first call, a middle one and
 * its last one, in `run` (text and JSON), a lesson's demos, `bench` on a small sweep and `grade`.
 * A clean run first counts the calls (CUDACHEF_FAULT_LOG), so the positions follow the code.
 * CUDACHEF_FAULT_LOG also says, per process, what was still held at exit: every line must show no
 * backend, device buffer or host buffer left.
 *
 * Learner kernels that hang, crash the process, dereference a null pointer, write out of bounds,
 * print megabytes or call exit() go through `try` and `grade` (test_exercises.c has grade's
 * out-of-bounds, endless loop, flood and build errors; the ones here are those it does not have).
 *
 * With CUDACHEF_TEST_BACKEND=gpu (make test-gpu) the same cases run on the GPU, except the ones only
 * the emulator can see. `test_faults --markdown` prints the tables docs/RELIABILITY.md holds;
 * test_reliability_doc fails when they differ.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "base/chef.h"
#include "test_backend.h"
#include "test_exec.h"

/* The guard against a hang, in seconds on an idle machine (test_guard_s scales it): a case takes
   seconds, so one still running after minutes hangs. */
#define FAULT_GUARD_S 300.0
#define FAULT_DOC "docs/RELIABILITY.md"
#define FAULT_DOC_BEGIN "<!-- faults:begin (tests/test_faults.c --markdown) -->\n"
#define FAULT_DOC_END "<!-- faults:end -->\n"

/* One operation of the hook: what it stands for, how it reads, and its exit code. */
typedef struct fault_kind {
    const char *op;
    const char *stands_for;
    const char *says;   /* the start of what the learner sees (after "cudachef: ") */
    int status;
} fault_kind;

static const fault_kind fault_kinds[] = {
    {"open",
     "the GPU unusable between `info` and `run` (on a GPU: `no usable GPU: all CUDA-capable devices are busy or "
     "unavailable`), or the emulator unable to start",
     "the CPU emulator could not start: out of host memory", 5},
    {"alloc", "device memory exhausted (cudaMalloc: cudaErrorMemoryAllocation)",
     "prepare: device buffer a (3.91 KiB) could not be allocated: out of memory", 5},
    {"host", "host or pinned memory exhausted (malloc, cudaMallocHost)",
     "prepare: 3.91 KiB of host memory could not be allocated: out of memory", 5},
    {"copy", "a shipment that fails (cudaMemcpy)", "ship in (host -> device): copying 3.91 KiB failed", 5},
    {"launch", "a launch refused (cudaLaunchKernel: cudaErrorLaunchOutOfResources)",
     "cook: launching vector_add<<<(4,1,1), (256,1,1)>>> failed: too many resources requested for launch", 4},
    {"sync", "the kernel failing while it runs (the synchronisation after it: cudaErrorLaunchFailure)",
     "cook: kernel vector_add failed while running: unspecified launch failure", 4},
};
#define FAULT_KINDS (sizeof fault_kinds / sizeof fault_kinds[0])

/* Where faults are injected: a command, and where its message is read. */
typedef struct fault_target {
    const char *name;
    const char *args[16];  /* "@B": the test backend, "@D": the case's folder */
    const char *setup;     /* a shell command run first with $D set, or NULL */
    int report_out;        /* 1: the message is in stdout (grade's report), else the last lines of stderr */
    int json;              /* 1: stdout is a JSON report that repeats the exit code */
} fault_target;

static const fault_target fault_targets[] = {
    {"`cudachef run vector-add --n 1000`", {"run", "vector-add", "--n", "1000", "--backend", "@B"}, NULL, 0, 0},
    {"`cudachef run vector-add --n 1000 --format json`",
     {"run", "vector-add", "--n", "1000", "--format", "json", "--backend", "@B"}, NULL, 0, 1},
    {"`cudachef run 2` (lesson 2's two demos)", {"run", "2", "--backend", "@B"}, NULL, 0, 0},
    {"`cudachef bench --sweep 32 --only matmul`",
     {"bench", "--sweep", "32", "--only", "matmul", "--quiet", "--repeat", "1", "--backend", "@B"}, NULL, 0, 0},
    {"`cudachef grade bounds-check` (the kitchen in grade's child)",
     {"grade", "bounds-check", "--workspace", "@D/ws", "--backend", "@B"},
     "\"$CUDACHEF_BIN\" init $D/ws >/dev/null && cp exercises/03-teams-and-cooks/bounds-check/solution.cu "
     "$D/ws/03-teams-and-cooks/bounds-check.cu",
     1, 0},
};
#define FAULT_TARGETS (sizeof fault_targets / sizeof fault_targets[0])

/* A learner's kernel that misbehaves: the body of bounds-check's vector_add. */
typedef struct fault_kernel {
    const char *what;
    const char *body;
    const char *timeout;  /* --timeout, or NULL */
    int status;
    const char *says;     /* in the message (try: stderr; grade: its report) */
    const char *says_gpu; /* ... when a GPU cooks, if it differs */
    int emulator_only;    /* a GPU does not see it, or cannot build it */
    int in_grade;         /* also through grade (test_exercises.c has the others) */
    int not_under_asan;   /* AddressSanitizer's fake stacks and redzones move where it lands */
    int timeout_races;    /* the timeout only ends a GPU's run, and must not end the emulator's before
                             its own limit: it grows with the machine's pace (test_long_s) */
} fault_kernel;

static const fault_kernel fault_kernels[] = {
    {"hangs (an endless loop)", "while (n > 0) { }", "1", 4, "did not finish within 1 s", NULL, 0, 0, 0, 0},
    {"crashes the process (a trap: SIGILL)", "__builtin_trap();", NULL, 4, "crashed", NULL, 1, 1, 0, 0},
    {"dereferences a null pointer (SIGSEGV in a cook)", "int *p = 0; *p = 1;", NULL, 4, "touched address (nil)",
     "failed while running", 0, 1, 0, 0},
    {"writes out of bounds", "int i = blockIdx.x * blockDim.x + threadIdx.x; c[i + 100000] = 1.0f;", NULL, 4,
     "outside the pantry", NULL, 1, 0, 0, 0},
    /* a GPU keeps printf's output in a buffer until the kernel ends, and this one does not end soon */
    {"prints megabytes",
     "int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i];\n"
     "for (int k = 0; k < 100000; k++) printf(\"cook %d says hello %d\\n\", i, k);",
     "5", 4, "printed more than 4 MiB", "did not finish within 5 s", 0, 0, 0, 1},
    {"calls exit(0)", "exit(0);", NULL, 4, "must not call exit()", NULL, 1, 1, 0, 0},
    /* a frame larger than the guard page below a cook's stack steps over it: still its overflow */
    {"keeps a 1 MiB local array", "volatile float big[262144]; int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "big[i % 262144] = 1.0f; if (i < n) c[i] = big[i % 262144];",
     NULL, 4, "ran out of stack", NULL, 1, 0, 1, 0},
};
#define FAULT_KERNEL_CASES (sizeof fault_kernels / sizeof fault_kernels[0])

static const char *fault_bin = "build/cudachef";
static const char *fault_backend = "emu";
static int fault_can_cook = 1;
static int fault_failures;

/* Says what went wrong with one run (and counts it). */
static void fault_fail(const cli_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fault_fail(const cli_result *r, const char *fmt, ...)
{
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    print_message("FAIL %s\n    $ %s\n    exit %d after %.2f s\n    stdout: %.800s\n    stderr: %.800s\n", why,
                  r->line, r->status, r->seconds, r->out ? r->out : "", r->err ? r->err : "");
    fault_failures++;
}

/* A fresh folder for one case; its name into dir. */
static void fault_tempdir(char *dir, size_t size)
{
    snprintf(dir, size, "%s/cudachef-fault-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
}

/* Removes a case's folder. */
static void fault_rmdir(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        print_message("note: could not remove %s\n", dir);
}

/* Runs the target with CUDACHEF_FAULT=spec (NULL: none) and its log at dir/log. */
static void fault_exec(const fault_target *t, const char *dir, const char *spec, cli_result *r)
{
    char args[16][600], env_text[6][700];
    const char *argv[18] = {fault_bin}, *env[7];
    int argc = 1;
    for (int i = 0; i < 16 && t->args[i]; i++) {
        const char *a = t->args[i];
        if (strcmp(a, "@B") == 0)
            snprintf(args[i], sizeof args[i], "%s", fault_backend);
        else if (strncmp(a, "@D", 2) == 0)
            snprintf(args[i], sizeof args[i], "%s%s", dir, a + 2);
        else
            snprintf(args[i], sizeof args[i], "%s", a);
        argv[argc++] = args[i];
    }
    argv[argc] = NULL;
    int n = 0;
    snprintf(env_text[n++], sizeof env_text[0], "CUDACHEF_FAULT_LOG=%s/log", dir);
    if (spec)
        snprintf(env_text[n++], sizeof env_text[0], "CUDACHEF_FAULT=%s", spec);
    else
        snprintf(env_text[n++], sizeof env_text[0], "CUDACHEF_FAULT");
    snprintf(env_text[n++], sizeof env_text[0], "CUDACHEF_STATE_HOME=%s/state", dir);
    snprintf(env_text[n++], sizeof env_text[0], "CUDACHEF_CACHE_HOME=%s/cache", dir);
    for (int i = 0; i < n; i++)
        env[i] = env_text[i];
    env[n] = NULL;
    cli_how how = {env, NULL, FAULT_GUARD_S, 0, 1};
    cli_exec_with(r, fault_bin, argv, &how);
}

/* Takes dir/log (one line per process that ran) into text, and empties it. */
static void fault_take_log(const char *dir, char *text, size_t size)
{
    char path[300];
    snprintf(path, sizeof path, "%s/log", dir);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, size - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    unlink(path);
}

/* The calls of op over every process of a log. */
static int fault_log_calls(const char *log, const char *op)
{
    char key[32];
    snprintf(key, sizeof key, " %s=", op);
    int calls = 0;
    for (const char *at = strstr(log, key); at; at = strstr(at + 1, key))
        calls += atoi(at + strlen(key));
    return calls;
}

/* 1 when every process of a log let go of every backend and buffer (and there was one); the
   faults injected in all into *injected. */
static int fault_log_clean(const char *log, int *injected)
{
    int clean = 1, processes = 0;
    *injected = 0;
    for (const char *line = log; *line; processes++) {
        int backends = -1, device = -1, host = -1, inj = 0;
        const char *at = strchr(line, ']');
        if (!at || sscanf(at + 1, " backends=%d device=%d host=%d injected=%d", &backends, &device, &host, &inj) != 4)
            clean = 0;
        clean &= backends == 0 && device == 0 && host == 0;
        *injected += inj;
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    return clean && processes > 0;
}

/* 1 when grade's text report says want, its wrapped lines joined again (a line end and the next
   line's indent read as one space). */
static int fault_in_report(const char *report, const char *want)
{
    char *joined = strdup(report);
    assert_non_null(joined);
    size_t n = 0;
    for (const char *p = report; *p; p++) {
        if (*p == '\n' && p[1] == ' ') {
            while (p[1] == ' ')
                p++;
            joined[n++] = ' ';
        } else {
            joined[n++] = *p;
        }
    }
    joined[n] = '\0';
    int found = strstr(joined, want) != NULL;
    free(joined);
    return found;
}

/* True when the text ends with one "cudachef..." line, optionally followed by one "  hint:" line (and
   notes of a later demo). */
static int fault_ends_with_message(const char *text, const char **message)
{
    size_t len = strlen(text);
    if (len == 0 || text[len - 1] != '\n')
        return 0;
    /* the start of the last line, and of the one before; notes after it are of a later demo of the
       lesson (how long its run should take, from a pace this machine measured: under memcheck a
       slow one), not of the error */
    const char *last = text + len - 1;
    for (;;) {
        while (last > text && last[-1] != '\n')
            last--;
        if (strncmp(last, "cudachef: note: ", 16) != 0 || last == text)
            break;
        last--; /* the newline before the note: on to the line above it */
    }
    const char *line = last;
    if (strncmp(last, "  hint:", 7) == 0 && last > text) {
        line = last - 1;
        while (line > text && line[-1] != '\n')
            line--;
    }
    *message = line;
    return strncmp(line, "cudachef", 8) == 0;
}

/* One injected fault: contained, reported, with its exit code, nothing left held; first says
   whether this is the first call of the first target, whose message the docs quote. */
static void fault_inject(const fault_target *t, const fault_kind *k, const char *dir, int call, int first)
{
    char spec[64], want[128];
    snprintf(spec, sizeof spec, "%s:%d", k->op, call);
    snprintf(want, sizeof want, "injected by CUDACHEF_FAULT=%s", spec);
    cli_result r;
    fault_exec(t, dir, spec, &r);
    snprintf(r.line + strlen(r.line), sizeof r.line - strlen(r.line), "   (CUDACHEF_FAULT=%s)", spec);
    int injected = 0;
    char log[4096];
    fault_take_log(dir, log, sizeof log);
    int clean = fault_log_clean(log, &injected);
    const char *message = NULL;
    if (r.status >= 128)
        fault_fail(&r, "%s: ended by signal %d", t->name, r.status - 128);
    else if (r.status != k->status)
        fault_fail(&r, "%s: exit %d, expected %d", t->name, r.status, k->status);
    if (r.timed_out)
        fault_fail(&r, "%s: hung: %s", t->name, r.hung);
    if (t->report_out ? !fault_in_report(r.out, want) : !fault_ends_with_message(r.err, &message) || !strstr(message, want))
        fault_fail(&r, "%s: the message does not end standard %s with \"%s\"", t->name, t->report_out ? "output" : "error",
                   want);
    if (first && message && (strcmp(k->op, "open") != 0 || strcmp(fault_backend, "emu") == 0) &&
        !strstr(message, k->says))
        fault_fail(&r, "%s: the message does not say \"%s\" (docs/RELIABILITY.md quotes it)", t->name, k->says);
    if (t->json) {
        char code[40];
        snprintf(code, sizeof code, "\"exit_code\": %d", k->status);
        if (!strstr(r.out, code) || !strstr(r.out, want))
            fault_fail(&r, "%s: the JSON report does not say %s with the message", t->name, code);
    }
    if (!clean)
        fault_fail(&r, "%s: something was left held at exit (CUDACHEF_FAULT_LOG):\n%s", t->name, log);
    if (injected != 1)
        fault_fail(&r, "%s: %d faults injected, expected 1:\n%s", t->name, injected, log);
    cli_free(&r);
}

/* Every operation of the hook fails at its first, a middle and its last call in every target. */
static void test_backend_faults(void **state)
{
    (void)state;
    fault_failures = 0;
    if (!fault_can_cook)
        skip();
    int runs = 0;
    for (size_t ti = 0; ti < FAULT_TARGETS; ti++) {
        const fault_target *t = &fault_targets[ti];
        char dir[128];
        fault_tempdir(dir, sizeof dir);
        setenv("D", dir, 1);
        if (t->setup)
            assert_int_equal(system(t->setup), 0);
        /* a clean run counts the calls of each operation and lets go of everything */
        cli_result clean;
        char log[4096];
        int injected = 0;
        fault_exec(t, dir, NULL, &clean);
        fault_take_log(dir, log, sizeof log);
        if (clean.status != 0)
            fault_fail(&clean, "%s: without a fault it does not pass", t->name);
        if (!fault_log_clean(log, &injected) || injected != 0)
            fault_fail(&clean, "%s: without a fault, something was left held (CUDACHEF_FAULT_LOG):\n%s", t->name, log);
        cli_free(&clean);
        for (size_t ki = 0; ki < FAULT_KINDS; ki++) {
            const fault_kind *k = &fault_kinds[ki];
            int calls = fault_log_calls(log, k->op);
            int positions[3] = {1, (calls + 1) / 2, calls};
            for (int p = 0; p < 3 && calls > 0; p++) {
                if ((p == 1 && positions[1] == positions[0]) || (p == 2 && positions[2] == positions[1]))
                    continue; /* a short run has fewer than three different positions */
                fault_inject(t, k, dir, positions[p], ti == 0 && p == 0);
                runs++;
            }
        }
        fault_rmdir(dir);
    }
    print_message("backend faults: %d injected runs, %d problems\n", runs, fault_failures);
    assert_int_equal(fault_failures, 0);
}

/* Runs cudachef with args (NULL-ended) in dir's environment, within the time limit. */
static void fault_run_in(cli_result *r, const char *dir, const char *const *args)
{
    const char *argv[24] = {fault_bin};
    int n = 1;
    for (int i = 0; args[i] && n < 23; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    char state[300], cache[300];
    snprintf(state, sizeof state, "CUDACHEF_STATE_HOME=%s/state", dir);
    snprintf(cache, sizeof cache, "CUDACHEF_CACHE_HOME=%s/cache", dir);
    const char *env[] = {state, cache, "CUDACHEF_FAULT", "CUDACHEF_FAULT_LOG", NULL};
    cli_how how = {env, NULL, FAULT_GUARD_S, 0, 1};
    cli_exec_with(r, fault_bin, argv, &how);
}

/* Writes bounds-check's kernel with body to path. */
static void fault_write_kernel(const char *path, const char *body)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#include \"kernel.h\"\n#include <stdlib.h>\n__global__ void vector_add(const float *a, const float *b, float *c, int n)\n{\n%s\n}\n",
            body);
    assert_int_equal(fclose(f), 0);
}

/* Learner kernels that misbehave, through try and grade: contained, named, exit 4. */
static void test_kernel_faults(void **state)
{
    (void)state;
    fault_failures = 0;
    if (!fault_can_cook)
        skip();
    char dir[128], file[200], ws[200], ws_file[300];
    fault_tempdir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/mine.cu", dir);
    snprintf(ws, sizeof ws, "%s/ws", dir);
    snprintf(ws_file, sizeof ws_file, "%s/03-teams-and-cooks/bounds-check.cu", ws);
    cli_result r;
    const char *init[] = {"init", ws, NULL};
    fault_run_in(&r, dir, init);
    assert_int_equal(r.status, 0);
    cli_free(&r);
    int runs = 0;
    for (size_t i = 0; i < FAULT_KERNEL_CASES; i++) {
        const fault_kernel *k = &fault_kernels[i];
        if (k->emulator_only && strcmp(fault_backend, "emu") != 0)
            continue;
        const char *sanitizer = getenv("CUDACHEF_TEST_SANITIZER");
        if (k->not_under_asan && sanitizer && strcmp(sanitizer, "address") == 0) {
            /* its frames of 1 MiB and ASan's fake stacks (detect_stack_use_after_return): where the
               overflow lands is ASan's, not the emulator's; make test and make valgrind run it */
            print_message("SKIP under AddressSanitizer: a kernel that %s\n", k->what);
            continue;
        }
        fault_write_kernel(file, k->body);
        char timeout[16], says_late[64];
        const char *says_gpu = k->says_gpu;
        if (k->timeout && k->timeout_races) { /* at least the table's, up to the program's 600 s */
            double s = ceil(test_long_s(atof(k->timeout)));
            snprintf(timeout, sizeof timeout, "%.0f", s > 600 ? 600 : s);
            snprintf(says_late, sizeof says_late, "did not finish within %s s", timeout);
            says_gpu = says_late;
        } else {
            snprintf(timeout, sizeof timeout, "%s", k->timeout ? k->timeout : "");
        }
        const char *try_args[] = {"try", file, "--backend", fault_backend, k->timeout ? "--timeout" : NULL, timeout, NULL};
        fault_run_in(&r, dir, try_args);
        const char *message = NULL, *says = k->says_gpu && strcmp(fault_backend, "gpu") == 0 ? says_gpu : k->says;
        if (r.status != k->status)
            fault_fail(&r, "try, a kernel that %s: exit %d, expected %d", k->what, r.status, k->status);
        if (r.timed_out)
            fault_fail(&r, "try, a kernel that %s: cudachef itself did not finish: %s", k->what, r.hung);
        if (!fault_ends_with_message(r.err, &message) || !strstr(message, says))
            fault_fail(&r, "try, a kernel that %s: stderr does not end with one line saying \"%s\"", k->what, says);
        cli_free(&r);
        runs++;
        if (!k->in_grade)
            continue;
        fault_write_kernel(ws_file, k->body);
        const char *grade_args[] = {"grade", "bounds-check", "--workspace", ws, "--backend", fault_backend, NULL};
        fault_run_in(&r, dir, grade_args);
        if (r.status != k->status)
            fault_fail(&r, "grade, a kernel that %s: exit %d, expected %d", k->what, r.status, k->status);
        if (!fault_in_report(r.out, says) || !strstr(r.out, "FAIL bounds-check"))
            fault_fail(&r, "grade, a kernel that %s: the report does not say \"%s\"", k->what, says);
        cli_free(&r);
        runs++;
    }
    print_message("kernel faults: %d runs\n", runs);
    fault_rmdir(dir);
    assert_int_equal(fault_failures, 0);
}

/* Writes the tables docs/RELIABILITY.md holds into out. */
static void fault_markdown(char *out, size_t size)
{
    size_t n = 0;
    n += (size_t)snprintf(out + n, size - n,
                          "%s| fault (`CUDACHEF_FAULT=WHAT:N`) | stands for | what the learner sees (`cudachef run "
                          "vector-add`, emulator) | exit |\n| --- | --- | --- | --- |\n",
                          FAULT_DOC_BEGIN);
    for (size_t i = 0; i < FAULT_KINDS; i++)
        n += (size_t)snprintf(out + n, size - n, "| `%s` | %s | `cudachef: %s ...` | %d |\n", fault_kinds[i].op,
                              fault_kinds[i].stands_for, fault_kinds[i].says, fault_kinds[i].status);
    n += (size_t)snprintf(out + n, size - n, "\nEach is injected at its first, a middle and its last call in:\n\n");
    for (size_t i = 0; i < FAULT_TARGETS; i++)
        n += (size_t)snprintf(out + n, size - n, "- %s\n", fault_targets[i].name);
    n += (size_t)snprintf(out + n, size - n,
                          "\n| a learner's kernel that | `try` | `grade` | exit | the message says |\n"
                          "| --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < FAULT_KERNEL_CASES; i++)
        n += (size_t)snprintf(out + n, size - n, "| %s | yes | %s | %d | %s%s%s%s |\n", fault_kernels[i].what,
                              fault_kernels[i].in_grade ? "yes" : "in test_exercises.c", fault_kernels[i].status,
                              fault_kernels[i].says, fault_kernels[i].says_gpu ? "; on a GPU: " : "",
                              fault_kernels[i].says_gpu ? fault_kernels[i].says_gpu : "",
                              fault_kernels[i].emulator_only ? " (emulator)" : "");
    if (n < size)
        snprintf(out + n, size - n, "%s", FAULT_DOC_END);
}

/* docs/RELIABILITY.md holds the tables this program makes (`test_faults --markdown`). */
static void test_reliability_doc(void **state)
{
    (void)state;
    static char want[16384];
    fault_markdown(want, sizeof want);
    assert_true(cli_doc_holds(FAULT_DOC, FAULT_DOC_BEGIN, FAULT_DOC_END, want));
}

int main(int argc, char **argv)
{
    if (chdir(test_source_dir()) != 0)
        return 1;
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0) {
        static char tables[16384];
        fault_markdown(tables, sizeof tables);
        fputs(tables, stdout);
        return 0;
    }
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    if (!(fault_bin = cli_prepare("test_faults", fault_bin)))
        return 1;
    setenv("CUDACHEF_BIN", fault_bin, 1); /* for the setups that run the program */
    if (test_backend_from_env() == BACKEND_GPU) {
        fault_backend = "gpu";
        fault_can_cook = !test_backend_skip(BACKEND_GPU);
    }
    printf("test_faults: %s, backend %s\n", fault_bin, fault_backend);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend_faults),
        cmocka_unit_test(test_kernel_faults),
        cmocka_unit_test(test_reliability_doc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
