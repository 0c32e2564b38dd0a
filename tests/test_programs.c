/*
 * test_programs.c - whole CUDA programs on the emulator (docs/EMULATOR.md, "Whole programs"):
 * the source pass over preprocessed C++ (src/kit/prog_prep.c) on every form of launch and
 * __shared__ declaration, and `cudachef try` on programs, both small ones written here to break
 * one rule each and the corpus of real public programs in tests/programs/ (its README says where
 * each comes from), each of which must print its own line of success.
 *
 * With CUDACHEF_TEST_BACKEND=gpu (make test-gpu) the corpus runs through `try --backend gpu` too
 * where there is a GPU; else that case says SKIP.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <jansson.h>
#include <regex.h>
#include <sys/stat.h>

#include "engine/kitchen.h"
#include "grading/program.h"
#include "kit/prog_prep.h"
#include "test_backend.h"
#include "test_exec.h"

static const char *prog_bin = "build/cudachef";

/* The pass's output for src (asserted to succeed); info filled. */
static char *prep(const char *src, prog_prep_info *info)
{
    char *out = NULL, why[512] = "";
    int rc = prog_prep_source(src, strlen(src), 1, &out, info, why, sizeof why);
    if (rc != 0)
        fail_msg("the pass refused: %s", why);
    return out;
}

/* The number of lines a text's lines are numbered to: its newlines, with the line markers that
   set the number read as they say. */
static int prep_last_line(const char *text)
{
    int line = 1;
    if (text[0] == '#' && text[1] == ' ' && isdigit((unsigned char)text[2])) { /* a marker first */
        line = atoi(text + 2) - 1;
        text = strchr(text, '\n');
        if (!text)
            return line;
    }
    for (const char *p = text; *p; p++) {
        if (*p != '\n')
            continue;
        line++;
        if (p[1] == '#' && p[2] == ' ' && isdigit((unsigned char)p[3])) {
            line = atoi(p + 3);
            p = strchr(p + 1, '\n');
            if (!p)
                break;
        }
    }
    return line;
}

/* Every form of launch: 2, 3 and 4 values, dim3 and counts, templates with explicit arguments,
   qualified names, an array of kernels, launches across lines; literals go in as written (0 and
   NULL still convert to pointers), the rest is kept in the closure, by reference where the kernel
   takes a reference. */
static void test_pass_launches(void **state)
{
    (void)state;
    prog_prep_info info;
    char *out = prep("# 1 \"a.cu\"\n"
                     "void f() {\n"
                     "  add<<<n / 256, 256>>>(n, x, y);\n"
                     "  reduce<float, 256>\n"
                     "     <<<dim3(g), 256, 0, s>>>(in,\n"
                     "        __null, 0);\n"
                     "  ns::k<<<1, 1, bytes>>>();\n"
                     "  fp[i]<<<g, b>>>(a);\n"
                     "  int after = 1;\n"
                     "}\n",
                     &info);
    assert_int_equal(info.launches, 4);
    assert_non_null(strstr(out, "::cudachef::launch<1, 0>(\"add\", \"a.cu\", 2, n / 256,  256, [=, cudachef_a0 = "
                                "::cudachef::kernel_arg_of((n)), cudachef_a1 = ::cudachef::kernel_arg_of((x)), cudachef_a2 = "
                                "::cudachef::kernel_arg_of((y))]() mutable { add(::cudachef::arg(cudachef_a0), ::cudachef::arg(cudachef_a1), "
                                "::cudachef::arg(cudachef_a2)); })"));
    assert_non_null(strstr(out, "::cudachef::launch<1, 1>(\"reduce<float, 256>\", \"a.cu\", 4, dim3(g),  256, [=, "
                                "cudachef_a0 = ::cudachef::kernel_arg_of((in))]() mutable { reduce<float, 256>(::cudachef::arg(cudachef_a0), "
                                "__null, 0); },  0,  s)"));
    assert_non_null(strstr(out, "(\"ns::k\", \"a.cu\", 6, 1,  1, [=]() mutable { ns::k(); },  bytes)"));
    assert_non_null(strstr(out, "(\"fp[i]\", \"a.cu\", 7, g,  b, [=, cudachef_a0 = ::cudachef::kernel_arg_of((a))]() mutable { "
                                "fp[i](::cudachef::arg(cudachef_a0)); })"));
    assert_null(strstr(out, "<<<"));
    /* `int after` keeps its line (8: the marker names the line after it): markers put the lines back after a launch across lines */
    const char *after = strstr(out, "int after");
    assert_non_null(after);
    char *head = strndup(out, (size_t)(after - out));
    assert_int_equal(prep_last_line(head), 8);
    free(head);
    free(out);
    /* a kernel's non-const reference parameter gets the object the caller named (as CUDA passes its
       address); a const one, a pointer and a value are copied; __global__ itself goes */
    out = prep("# 1 \"r.cu\"\n"
               "struct E { int v; };\n"
               "template <typename T> __global__ void byref(E &e, const E &c, T *p, std::pair<int, int> q, int &&m) {}\n"
               "void g(E &x, E y, int *z) { ns::byref<int><<<1, 1>>>(x, y, z, q, 0); byval<<<1, 1>>>(x); }\n",
               &info);
    assert_null(strstr(out, "__global__"));
    assert_non_null(strstr(out, "[=, &cudachef_a0 = (x), cudachef_a1 = ::cudachef::kernel_arg_of((y)), cudachef_a2 = "
                                "::cudachef::kernel_arg_of((z)), cudachef_a3 = ::cudachef::kernel_arg_of((q))]() mutable { "
                                "ns::byref<int>(cudachef_a0, ::cudachef::arg(cudachef_a1), ::cudachef::arg(cudachef_a2), ::cudachef::arg(cudachef_a3), 0); }"));
    assert_non_null(strstr(out, "[=, cudachef_a0 = ::cudachef::kernel_arg_of((x))]() mutable { byval(::cudachef::arg(cudachef_a0)); }"));
    free(out);
}

/* __shared__: poisoned and registered through a pointer in a function, an accessor at file scope,
   the dynamic area for extern (in a function: a reference, since GCC drops a template's block-scope
   assembler names; at file scope: by name), extern or static anywhere before it taken out, member
   accesses of the same name left alone. */
static void test_pass_shared(void **state)
{
    (void)state;
    prog_prep_info info;
    char *out = prep("__shared__ int counter;\n"
                     "extern __shared__ float dyn[];\n"
                     "template <class T> void k(T *o) {\n"
                     "  __shared__ T tile[16][17], row[4];\n"
                     "  extern float __shared__ smem[];\n"
                     "  volatile __shared__ int flag;\n"
                     "  tile[0][1] = row[2] + smem[0] + o->tile + counter + flag + dyn[1];\n"
                     "}\n",
                     &info);
    assert_non_null(strstr(out, "static thread_local __attribute__((aligned(16)))  int cudachef_shared_counter;"));
    assert_non_null(strstr(out, "static inline decltype(cudachef_shared_counter) *cudachef_at_counter()"));
    assert_non_null(strstr(out, "extern __thread  float dyn[] __asm__(\"emu_dynamic_shared\")"));
    assert_non_null(strstr(out, "cudachef_shared_tile[16][17], cudachef_shared_row[4];"));
    assert_non_null(strstr(out, "(&smem)[] = *reinterpret_cast<std::remove_reference_t<decltype(smem)> *>("));
    assert_null(strstr(out, "extern float"));
    assert_non_null(strstr(out, "volatile static thread_local __attribute__((aligned(16)))  int cudachef_shared_flag;"));
    assert_non_null(strstr(out, "(*cudachef_ptr_tile)[0][1] = (*cudachef_ptr_row)[2] + smem[0] + o->tile + "
                                "(*cudachef_at_counter()) + (*cudachef_ptr_flag) + dyn[1];"));
    assert_int_equal(info.launches, 0);
    free(out);
}

/* CUDA's storage words: gone, with a static before a variable (one copy for the plain and checked
   builds), not before a function; __noinline__ gone except inside an attribute; inline assembly in
   the learner's own files noted, in system headers not. */
static void test_pass_words(void **state)
{
    (void)state;
    prog_prep_info info;
    char *out = prep("# 1 \"b.cu\"\n"
                     "static __device__ int hits[4];\n"
                     "static __device__ float helper(float x) { return x; }\n"
                     "__constant__ float coef[8];\n"
                     "__attribute__((__noinline__)) void g();\n"
                     "__device__ __noinline__ int h();\n"
                     "# 1 \"/usr/include/x.h\" 3\n"
                     "void s() { asm(\"nop\"); }\n"
                     "# 9 \"b.cu\"\n"
                     "__global__ void k() { asm volatile(\"trap;\"); }\n",
                     &info);
    assert_non_null(strstr(out, "\n  int hits[4];"));
    assert_non_null(strstr(out, "static   float helper"));
    assert_non_null(strstr(out, "  float coef[8];"));
    assert_non_null(strstr(out, "__attribute__((__noinline__)) void g();"));
    assert_null(strstr(out, "__noinline__ int h"));
    assert_string_equal(info.unsupported, "inline assembly (asm, PTX)");
    assert_string_equal(info.unsupported_file, "b.cu");
    assert_int_equal(info.unsupported_line, 9);
    free(out);
}

/* The pass is one reading of the text: half a megabyte of launches and declarations is rewritten
   whole (a pass that went back over the text for each would take minutes here: make bench times
   it). */
static void test_pass_large(void **state)
{
    (void)state;
    size_t cap = 600 << 10, n = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    int launches = 0;
    n += (size_t)snprintf(src + n, cap - n, "void f() {\n");
    while (n + 200 < (512u << 10)) {
        n += (size_t)snprintf(src + n, cap - n, "  k<T, %d><<<g, b, 0, s>>>(a[%d], (b < c), d);\n", launches, launches);
        launches++;
        n += (size_t)snprintf(src + n, cap - n, "  __shared__ float t%d[32];\n", launches);
    }
    n += (size_t)snprintf(src + n, cap - n, "}\n");
    prog_prep_info info;
    char *out = prep(src, &info);
    assert_int_equal(info.launches, launches);
    assert_null(strstr(out, "<<<"));
    free(out);
    free(src);
}

/* The launches the pass refuses, with the place: no >>>, no arguments, too many values. */
static void test_pass_refusals(void **state)
{
    (void)state;
    const char *bad[] = {"# 4 \"c.cu\"\nvoid f() { k<<<1, 1(a); }\n", "# 4 \"c.cu\"\nvoid f() { k<<<1, 1>>>; }\n",
                         "# 4 \"c.cu\"\nvoid f() { k<<<1, 2, 3, 4, 5>>>(a); }\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *out = NULL, why[512] = "";
        prog_prep_info info;
        assert_int_equal(prog_prep_source(bad[i], strlen(bad[i]), 1, &out, &info, why, sizeof why), -1);
        assert_non_null(strstr(why, "c.cu:4: "));
        assert_null(out);
    }
}

/* A program written here into a folder of its own; returns the folder. */
static void prog_write(char *dir, size_t size, const char *name, const char *text)
{
    if (!dir[0]) {
        snprintf(dir, size, "%s/prog-XXXXXX", test_tmp_dir());
        assert_non_null(mkdtemp(dir));
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Runs `cudachef try` with args (NULL-ended) in the tree, with input on standard input. */
static void prog_try(cli_result *r, const char *input, ...)
{
    const char *argv[64] = {prog_bin, "try"};
    int n = 2;
    va_list ap;
    va_start(ap, input);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 62;)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    cli_how how = {.input = input};
    cli_exec_with(r, prog_bin, argv, &how);
}

/* The classic first program (main, cudaMallocManaged, a grid-stride loop, std::cout): it runs,
   its output comes as it prints it, its arguments and standard input reach it, a file it writes
   lands in the folder try names, and a float's max is a float (not cut to an int). */
static void test_program_runs(void **state)
{
    (void)state;
    char dir[PATH_MAX] = "";
    prog_write(dir, sizeof dir, "add.cu",
               "#include <iostream>\n#include <cmath>\n#include <fstream>\n"
               "__global__ void add(int n, float *x, float *y) {\n"
               "  int index = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x;\n"
               "  for (int i = index; i < n; i += stride) y[i] = x[i] + y[i];\n}\n"
               "__global__ void root(float *y, int n) {\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i < n) y[i] = sqrtf(max(y[i] - 0.75f, 0.0f));\n}\n"
               "int main(int argc, char **argv) {\n"
               "  int N = 1 << 16, extra = 0; std::cin >> extra;\n"
               "  float *x, *y;\n"
               "  cudaMallocManaged(&x, N * sizeof(float)); cudaMallocManaged(&y, N * sizeof(float));\n"
               "  for (int i = 0; i < N; i++) { x[i] = 1.0f; y[i] = 2.0f; }\n"
               "  add<<<(N + 255) / 256, 256>>>(N, x, y);\n"
               "  root<<<(N + 255) / 256, 256>>>(y, N);\n"
               "  cudaDeviceSynchronize();\n"
               "  float maxError = 0.0f;\n"
               "  for (int i = 0; i < N; i++) maxError = fmax(maxError, fabs(y[i] - 1.5f));\n"
               "  std::cout << \"Max error: \" << maxError << \" args \" << argc << \" \" << argv[1] << \" in \" << extra << std::endl;\n"
               "  std::ofstream(\"out.txt\") << \"written\\n\";\n"
               "  cudaFree(x); cudaFree(y);\n  return 0;\n}\n");
    char file[PATH_MAX + 16];
    snprintf(file, sizeof file, "%s/add.cu", dir);
    cli_result r;
    prog_try(&r, "41\n", file, "--", "hello", NULL);
    if (r.status != 0)
        fail_msg("try %s: status %d, stdout: %s, stderr: %s", file, r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "Max error: 0 args 2 hello in 41"));
    cli_free(&r);
    /* a program saved straight in /tmp: its folder (which the program may read) is every user's, so
       try refuses it and says where to save it */
    char at_tmp[64];
    snprintf(at_tmp, sizeof at_tmp, "/tmp/cudachef-at-tmp-%d.cu", (int)getpid());
    FILE *f = fopen(at_tmp, "w");
    assert_non_null(f);
    fputs("#include <cstdio>\n__global__ void one(int *x) { *x = 1; }\nint main() { return 0; }\n", f);
    assert_int_equal(fclose(f), 0);
    prog_try(&r, NULL, at_tmp, NULL);
    unlink(at_tmp);
    if (r.status != 2 || !strstr(r.err, "/tmp is shared with every user of this machine") || !strstr(r.err, "folder of its own"))
        fail_msg("try %s: status %d, stdout: %s, stderr: %s", at_tmp, r.status, r.out, r.err);
    cli_free(&r);
    char written[PATH_MAX + 64];
    const char *cache = getenv("CUDACHEF_CACHE_HOME");
    if (!cache)
        return; /* run by hand: the cache is the user's own */
    snprintf(written, sizeof written, "%s/runs/add/out.txt", cache);
    struct stat st;
    assert_int_equal(stat(written, &st), 0);
}

/* The watched launch as the runner sends it back (program_runner.c, --watch): a launch of 2 teams
   of 64 cooks, its blocks, 128 cooks' records and one memory instruction; text is spliced in at
   the marks to break it. */
static json_t *prog_watched(const char *event, const char *block1, const char *thread_last, const char *label)
{
    char threads[128 * 64] = "", text[sizeof threads + 2048];
    size_t n = 0;
    for (int i = 0; i < 128; i++)
        n += (size_t)snprintf(threads + n, sizeof threads - n, "%s[%d,%d,0,%d,%d,1,1,0,0,%d,%d,0,0,0]", i ? "," : "",
                              i / 64, i % 64, i, i, i, i);
    if (thread_last)
        n += (size_t)snprintf(threads + n, sizeof threads - n, ",%s", thread_last);
    char address[32 * 8] = "";
    n = 0;
    for (int l = 0; l < 32; l++)
        n += (size_t)snprintf(address + n, sizeof address - n, "%s%d", l ? "," : "", 4096 + 4 * l);
    snprintf(text, sizeof text,
             "{\"trace\": {\"event\": %s, \"stopped\": false, \"stopped_team\": 0, \"watched_team\": 0,"
             " \"accesses_left_out\": 0, \"blocks\": [0,0,0,100,%s], \"threads\": [%s],"
             " \"accesses\": [{\"warp\": 1, \"phase\": 0, \"space\": 0, \"op\": 0, \"size\": 4, \"elem_size\": 4,"
             " \"lanes\": 4294967295, \"address\": [%s], \"base\": 4096, \"label\": \"%s\", \"units\": 4,"
             " \"ideal\": 4, \"lines\": 1}]}}",
             event, block1, threads, address, label);
    json_error_t err;
    json_t *t = json_loads(text, 0, &err);
    if (!t)
        fail_msg("the test's trace is not JSON: %s", err.text);
    return t;
}

/* A whole program's watched launch becomes a kitchen report (program_kitchen.c, what the kitchen
   of try --kitchen shows): its shape from the journey, its counts and modeled time, its trace;
   and anything out of its bounds in what the learner's process sent back is refused, never
   shown (the kitchen reads it in the trusted process). */
static void test_program_watch(void **state)
{
    (void)state;
    setenv("CUDACHEF_DATA", test_source_dir(), 0); /* assets/devices/ of this tree, for the model */
    json_error_t err;
    program_result res;
    memset(&res, 0, sizeof res);
    res.journey = json_loads("{\"journey\": [{\"kind\": \"alloc\", \"memory\": \"device\", \"number\": 1, \"bytes\": 512},"
                             " {\"kind\": \"launch\", \"kernel\": \"scale\", \"grid\": [2,1,1], \"block\": [64,1,1],"
                             " \"shared\": 0, \"checked\": true, \"faulted\": false, \"ms\": 0.5, \"counters\": {\"teams\": 2,"
                             " \"teams_counted\": 2, \"teams_checked\": 2, \"shared_bytes_per_team\": 0,"
                             " \"sectors_in_buffers\": 32, \"values\": {}}}], \"not_kept\": {}}",
                             0, &err);
    assert_non_null(res.journey);
    res.trace = prog_watched("1", "1,1,5,90", NULL, "buffer #1");
    kitchen_report r;
    char why[300];
    if (program_launch_report(&res, &r, why, sizeof why) != 0)
        fail_msg("a whole trace was refused: %s", why);
    assert_string_equal(r.kernel, "scale");
    assert_int_equal(r.teams, 2);
    assert_int_equal(r.cooks_per_team, 64);
    assert_int_equal(r.trace.nblocks, 2);
    assert_int_equal(r.trace.nthreads, 128);
    assert_int_equal(r.trace.threads[127].last_element, 127);
    assert_int_equal(r.trace.naccesses, 1);
    assert_string_equal(r.trace.accesses[0].label, "buffer #1");
    assert_true(r.backend.workers >= 2); /* the trace names stations 0 and 1 */
    assert_int_equal(r.trace_summary.stations_used, 2);
    assert_true(r.counters.valid);
    assert_true(r.modeled);
    assert_true(r.one_launch && r.idle_known); /* every cook's record came back: none was idle */
    assert_int_equal(r.idle_cooks, 0);
    kitchen_report_free(&r);
    /* each of these breaks one bound: refused, with why */
    struct {
        const char *event, *block1, *thread_last, *label;
    } bad[] = {
        {"0", "1,1,5,90", NULL, "buffer #1"},                       /* the event is an allocation */
        {"7", "1,1,5,90", NULL, "buffer #1"},                       /* past the journey */
        {"1", "2,1,5,90", NULL, "buffer #1"},                       /* a team the grid lacks */
        {"1", "1,5000,5,90", NULL, "buffer #1"},                    /* a station past any machine's */
        {"1", "1,1,90,5", NULL, "buffer #1"},                       /* a team that ended before it started */
        {"1", "1,1,5,90", "[0,0,0,0,0,1,1,0,0,0,0,0,0,0]", "buffer #1"}, /* more cooks than the launch has */
        {"1", "1,1,5,90", NULL, "a label far longer than any buffer's name may be"},
        {"1", "1,1,5", NULL, "buffer #1"},                          /* a block cut short */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_decref(res.trace);
        res.trace = prog_watched(bad[i].event, bad[i].block1, bad[i].thread_last, bad[i].label);
        why[0] = '\0';
        if (program_launch_report(&res, &r, why, sizeof why) == 0)
            fail_msg("case %zu: a broken trace was taken", i);
        assert_true(why[0] != '\0');
        assert_null(r.trace.threads);
    }
    json_decref(res.trace);
    res.trace = NULL; /* nothing watched */
    assert_int_equal(program_launch_report(&res, &r, why, sizeof why), -1);
    assert_non_null(strstr(why, "no launch"));
    json_decref(res.journey);
}

/* The first launch at each site is the checked one: a kernel that reads past its buffer is named
   (cook, team, element) and try says 4; the program's own status; a compile error at the
   learner's line; a library the emulator lacks, refused in one line naming the include. */
static void test_program_rules(void **state)
{
    (void)state;
    char dir[PATH_MAX] = "";
    prog_write(dir, sizeof dir, "oob.cu",
               "#include <cstdio>\n"
               "__global__ void scale(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] *= 2; }\n"
               "int main() { float *d; cudaMalloc(&d, 1000 * sizeof(float));\n"
               "  scale<<<4, 256>>>(d, 1000);\n"
               "  printf(\"sync: %s\\n\", cudaGetErrorString(cudaDeviceSynchronize()));\n  return 0; }\n");
    prog_write(dir, sizeof dir, "status.cu", "#include <cstdlib>\nint main() { return 3; }\n");
    prog_write(dir, sizeof dir, "typo.cu", "int main() {\n  int x = ;\n  return x;\n}\n");
    prog_write(dir, sizeof dir, "lib.cu", "#include <cstdio>\n#include <thrust/sort.h>\nint main() { return 0; }\n");
    char file[PATH_MAX + 16];
    cli_result r;
    snprintf(file, sizeof file, "%s/oob.cu", dir);
    prog_try(&r, NULL, file, NULL);
    assert_int_equal(r.status, 4);
    assert_non_null(strstr(r.out, "sync: an illegal memory access was encountered"));
    assert_non_null(strstr(r.err, "cook (thread) 232 of team (block) 3 read outside the pantry"));
    assert_non_null(strstr(r.err, "1 element past the end"));
    assert_non_null(strstr(r.err, "1 device allocation(s) never freed (4000 bytes)"));
    cli_free(&r);
    snprintf(file, sizeof file, "%s/status.cu", dir);
    prog_try(&r, NULL, file, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "the program exited with status 3"));
    cli_free(&r);
    snprintf(file, sizeof file, "%s/typo.cu", dir);
    prog_try(&r, NULL, file, NULL);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "typo.cu:2:"));
    assert_null(strstr(r.err, "cudachef_"));
    assert_null(strstr(r.err, "emu_"));
    cli_free(&r);
    snprintf(file, sizeof file, "%s/lib.cu", dir);
    prog_try(&r, NULL, file, NULL);
    assert_int_equal(r.status, 5);
    assert_non_null(strstr(r.err, "cudachef: lib.cu:2: Thrust is not emulated: run this program on a GPU"));
    cli_free(&r);
    /* what the emulator does not run, refused at its line before any compiler's words, even where
       the compiler could not have made sense of it (PTX, a launch inside a kernel) */
    static const struct {
        const char *name, *source, *said;
    } refused[] = {
        {"ptx.cu", "__global__ void k(int *o) {\n  int lane; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane)); *o = lane; }\n"
                   "int main() { int x = ; return 0; }\n",
         "ptx.cu:2: inline assembly (asm, PTX) is not emulated"},
        {"tex.cu", "__global__ void k(cudaTextureObject_t t, float *o) {\n\n  *o = tex2D<float>(t, 0.5f, 0.5f); }\nint main() { return 0; }\n",
         "tex.cu:3: a texture fetch (tex2D) is not emulated"},
        {"graph.cu", "int main() {\n  cudaGraph_t g;\n  cudaGraphCreate(&g, 0);\n  return 0; }\n",
         "graph.cu:2: a CUDA graph (cudaGraph...) is not emulated"},
        {"cdp.cu", "__global__ void child(int *o) { *o = 1; }\n__global__ void parent(int *o) {\n  if (threadIdx.x == 0)\n"
                   "    child<<<1, 1>>>(o); }\nint main() { return 0; }\n",
         "cdp.cu:4: dynamic parallelism (a launch inside a kernel) is not emulated"},
        {"drv.cu", "#include <cuda.h>\nint main() {\n  cuInit(0);\n  return 0; }\n", "drv.cu:3: the driver API (cuInit) is not emulated"},
        {"gl.cu", "#include <cstdio>\n#include <cuda_gl_interop.h>\nint main() { return 0; }\n",
         "gl.cu:2: OpenGL interop (cuda_gl_interop.h) is not emulated"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        prog_write(dir, sizeof dir, refused[i].name, refused[i].source);
        snprintf(file, sizeof file, "%s/%s", dir, refused[i].name);
        prog_try(&r, NULL, file, NULL);
        if (r.status != 5 || !strstr(r.err, refused[i].said))
            fail_msg("%s: status %d (not 5), or not '%s' in: %s", refused[i].name, r.status, refused[i].said, r.err);
        assert_null(strstr(r.err, "error:")); /* no compiler's words before it */
        cli_free(&r);
    }
    /* a line the program writes to fd 3 (where the runner once sent its own) is not taken as the
       runner's: the journey is the runtime's */
    prog_write(dir, sizeof dir, "forge.cu",
               "#include <cstdio>\n#include <unistd.h>\n"
               "int main() { dprintf(3, \"{\\\"journey\\\": [{\\\"kind\\\": \\\"launch\\\", \\\"kernel\\\": \\\"forged\\\"}]}\\n\");\n"
               "  dprintf(3, \"{\\\"exit\\\": 0, \\\"kernel_faulted\\\": 0, \\\"leaked\\\": 0}\\n\"); return 7; }\n");
    snprintf(file, sizeof file, "%s/forge.cu", dir);
    prog_try(&r, NULL, file, "--format", "json", NULL);
    if (r.status != 1 || strstr(r.out, "forged") || !strstr(r.out, "\"exit_status\": 7"))
        fail_msg("forge.cu: status %d, %s%s", r.status, r.out, r.err);
    cli_free(&r);
    /* a variable whose name only starts like a refused word is the learner's own */
    prog_write(dir, sizeof dir, "names.cu",
               "#include <cstdio>\n__global__ void k(float *tex2D_sum, float *surfaceArea) { tex2D_sum[0] = 1; surfaceArea[0] = 2; }\n"
               "int main() { float *d, h[2]; cudaMalloc(&d, 2 * sizeof(float)); k<<<1, 1>>>(d, d + 1);\n"
               "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); cudaFree(d); printf(\"%g %g\\n\", h[0], h[1]); return 0; }\n");
    snprintf(file, sizeof file, "%s/names.cu", dir);
    prog_try(&r, NULL, file, NULL);
    if (r.status != 0 || !strstr(r.out, "1 2"))
        fail_msg("names.cu: status %d, %s%s", r.status, r.out, r.err);
    cli_free(&r);
}

/* cuBLAS beyond cublasSgemm (the kit's Level 1, 2 and 3 in single and double precision, src/kit/cxx/cublas_v2.h):
   each call's result as cuBLAS gives it, checked by the program itself; a host pointer given as an operand
   is named as a fault, as a kernel's would be. Several host threads (OpenMP's) call the runtime at once,
   each with its stream. cuRAND's host and device APIs give numbers of the right distributions (a Monte
   Carlo pi, a normal sample's mean and spread). A class with a destructor given to a kernel by value (CUDA
   by Example's Lock) is copied as CUDA copies it, never destroyed by the launch; a program may hold a
   thousand buffers; and the properties older books read are there. And clock() in a kernel counts the cook's cycles, not the host's CPU time: a
   kernel that waits 20 million of them ends in a moment. */
static void test_program_library(void **state)
{
    (void)state;
    char dir[PATH_MAX] = "";
    prog_write(dir, sizeof dir, "blas.cu",
               "#include <cstdio>\n#include <cublas_v2.h>\n"
               "int main() {\n"
               "  cublasHandle_t h; cublasCreate(&h);\n"
               "  float hx[4] = {1, 2, 3, 4}, hy[4] = {1, 1, 1, 1}, ha[6] = {1, 2, 3, 4, 5, 6}, r = 0, *x, *y, *a;\n"
               "  double hd[4] = {1, 2, 3, 4}, *dx, dr = 0, hc[4], *dc, one = 1, zero = 0; int imax = 0;\n"
               "  cudaMalloc(&x, sizeof hx); cudaMalloc(&y, sizeof hy); cudaMalloc(&a, sizeof ha);\n"
               "  cudaMalloc(&dx, sizeof hd); cudaMalloc(&dc, sizeof hc);\n"
               "  cublasSetVector(4, sizeof(float), hx, 1, x, 1); cublasSetVector(4, sizeof(float), hy, 1, y, 1);\n"
               "  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice); cudaMemcpy(dx, hd, sizeof hd, cudaMemcpyHostToDevice);\n"
               "  float two = 2, fone = 1, fzero = 0;\n"
               "  cublasSaxpy(h, 4, &two, x, 1, y, 1);\n"                   /* y = 3 5 7 9 */
               "  cublasSdot(h, 4, x, 1, y, 1, &r);\n"                      /* 3+10+21+36 = 70 */
               "  cublasIsamax(h, 4, y, 1, &imax);\n"                       /* 4 */
               "  cublasDdot(h, 4, dx, 1, dx, 1, &dr);\n"                   /* 30 */
               "  cublasSgemv(h, CUBLAS_OP_N, 2, 3, &fone, a, 2, x, 1, &fzero, y, 1);\n" /* A 2x3 col-major * (1 2 3) = (22 28) */
               "  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 2, 2, &one, dx, 2, dx, 2, &zero, dc, 2);\n" /* X X^T */
               "  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost); cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost);\n"
               "  printf(\"dot %g amax %d ddot %g gemv %g %g dgemm %g %g %g %g\\n\", r, imax, dr, hy[0], hy[1], hc[0], hc[1], hc[2], hc[3]);\n"
               "  cublasStatus_t s = cublasSaxpy(h, 4, &two, hx, 1, y, 1);\n" /* a host pointer */
               "  printf(\"host operand: %d, %s\\n\", (int)s, cudaGetErrorString(cudaDeviceSynchronize()));\n"
               "  cublasDestroy(h); cudaFree(x); cudaFree(y); cudaFree(a); cudaFree(dx); cudaFree(dc); return 0; }\n");
    prog_write(dir, sizeof dir, "clock.cu",
               "#include <cstdio>\n#include <ctime>\n"
               "__global__ void wait(long long *o) { clock_t s = clock(); while (clock() - s < 20000000) {} *o = clock() - s; }\n"
               "int main() { long long *d, h = 0; cudaMalloc(&d, sizeof h); clock_t t = clock(); wait<<<1, 1>>>(d);\n"
               "  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); cudaFree(d);\n"
               "  printf(\"waited %s, host clock %s\\n\", h >= 20000000 ? \"enough\" : \"too little\", clock() >= t ? \"on\" : \"back\");\n"
               "  return 0; }\n");
    prog_write(dir, sizeof dir, "threads.cu",
               "#include <cstdio>\n#include <omp.h>\n"
               "__global__ void fill(int *o, int v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = v; }\n"
               "int main() { const int T = 4, n = 4096; int ok = 0;\n"
               "#pragma omp parallel num_threads(T) reduction(+ : ok)\n"
               "  { int t = omp_get_thread_num(), *d, h[n]; cudaStream_t s; cudaStreamCreate(&s);\n"
               "    cudaMalloc(&d, sizeof h); fill<<<n / 256, 256, 0, s>>>(d, t + 1, n);\n"
               "    cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s); cudaStreamSynchronize(s);\n"
               "    int good = 1; for (int i = 0; i < n; i++) good &= h[i] == t + 1;\n"
               "    ok += good; cudaFree(d); cudaStreamDestroy(s); }\n"
               "  printf(\"%d of %d threads saw their own work\\n\", ok, T); return ok == T ? 0 : 1; }\n");
    prog_write(dir, sizeof dir, "pi.cu",
               "#include <cstdio>\n#include <cmath>\n#include <curand.h>\n#include <curand_kernel.h>\n"
               "__global__ void darts(unsigned long long seed, int per, int *hits) {\n"
               "  int id = blockIdx.x * blockDim.x + threadIdx.x; curandState s; curand_init(seed, id, 0, &s);\n"
               "  int in = 0; for (int i = 0; i < per; i++) { float x = curand_uniform(&s), y = curand_uniform(&s); in += x * x + y * y <= 1.0f; }\n"
               "  atomicAdd(hits, in); }\n"
               "int main() { int *hits, h = 0; cudaMalloc(&hits, sizeof(int)); cudaMemset(hits, 0, sizeof(int));\n"
               "  darts<<<64, 128>>>(1234ULL, 100, hits); cudaMemcpy(&h, hits, sizeof h, cudaMemcpyDeviceToHost);\n"
               "  double pi = 4.0 * h / (64.0 * 128 * 100);\n"
               "  curandGenerator_t g; float *d, v[100000]; cudaMalloc(&d, sizeof v);\n"
               "  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT); curandSetPseudoRandomGeneratorSeed(g, 42);\n"
               "  curandGenerateNormal(g, d, 100000, 2.0f, 0.5f); cudaMemcpy(v, d, sizeof v, cudaMemcpyDeviceToHost);\n"
               "  double m = 0, q = 0; for (int i = 0; i < 100000; i++) m += v[i]; m /= 100000;\n"
               "  for (int i = 0; i < 100000; i++) q += (v[i] - m) * (v[i] - m); q = sqrt(q / 100000);\n"
               "  int odd = curandGenerateNormal(g, d, 3, 0, 1) == CURAND_STATUS_LENGTH_NOT_MULTIPLE;\n"
               "  curandDestroyGenerator(g); cudaFree(d); cudaFree(hits);\n"
               "  printf(\"pi %s, normal %s, odd %s\\n\", fabs(pi - 3.14159) < 0.02 ? \"near\" : \"far\",\n"
               "         fabs(m - 2.0) < 0.01 && fabs(q - 0.5) < 0.01 ? \"right\" : \"wrong\", odd ? \"refused\" : \"taken\"); return 0; }\n");
    prog_write(dir, sizeof dir, "book.cu",
               "#include <cstdio>\n"
               "struct Lock { int *mutex; Lock() { cudaMalloc(&mutex, sizeof(int)); cudaMemset(mutex, 0, sizeof(int)); }\n"
               "  ~Lock() { cudaFree(mutex); }\n"
               "  __device__ void lock() { while (atomicCAS(mutex, 0, 1) != 0); } __device__ void unlock() { atomicExch(mutex, 0); } };\n"
               "__global__ void count(Lock lock, int *c) { if (threadIdx.x == 0) { lock.lock(); *c += 1; lock.unlock(); } }\n"
               "int main() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
               "  int *c, h = 0, *many[1100]; cudaMalloc(&c, sizeof(int)); cudaMemset(c, 0, sizeof(int));\n"
               "  for (int i = 0; i < 1100; i++) if (cudaMalloc(&many[i], 4) != cudaSuccess) return 2;\n"
               "  { Lock lock; count<<<64, 32>>>(lock, c); cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost); }\n"
               "  for (int i = 0; i < 1100; i++) cudaFree(many[i]);\n"
               "  printf(\"overlap %d, teams counted %d, %s\\n\", p.deviceOverlap, h, cudaGetErrorString(cudaGetLastError()));\n"
               "  cudaFree(c); return 0; }\n");
    char file[PATH_MAX + 16];
    cli_result r;
    snprintf(file, sizeof file, "%s/book.cu", dir);
    prog_try(&r, NULL, file, NULL);
    if (r.status != 0 || !strstr(r.out, "overlap 1, teams counted 64, no error") || strstr(r.err, "never freed") ||
        strstr(r.err, "already freed"))
        fail_msg("book.cu: status %d, %s%s", r.status, r.out, r.err);
    cli_free(&r);
    snprintf(file, sizeof file, "%s/pi.cu", dir);
    prog_try(&r, NULL, file, NULL);
    if (r.status != 0 || !strstr(r.out, "pi near, normal right, odd refused"))
        fail_msg("pi.cu: status %d, %s%s", r.status, r.out, r.err);
    cli_free(&r);
    snprintf(file, sizeof file, "%s/threads.cu", dir);
    prog_try(&r, NULL, file, NULL);
    if (r.status != 0 || !strstr(r.out, "4 of 4 threads saw their own work"))
        fail_msg("threads.cu: status %d, %s%s", r.status, r.out, r.err);
    cli_free(&r);
    snprintf(file, sizeof file, "%s/blas.cu", dir);
    prog_try(&r, NULL, file, NULL);
    if (!strstr(r.out, "dot 70 amax 4 ddot 30 gemv 22 28 dgemm 10 14 14 20"))
        fail_msg("blas.cu: status %d, %s%s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "host operand: 0, an illegal memory access was encountered"));
    assert_int_equal(r.status, 4); /* the host operand broke a rule */
    assert_non_null(strstr(r.err, "cublasSaxpy's operand x"));
    cli_free(&r);
    snprintf(file, sizeof file, "%s/clock.cu", dir);
    prog_try(&r, NULL, file, "--timeout", "60", NULL);
    if (r.status != 0 || !strstr(r.out, "waited enough, host clock on"))
        fail_msg("clock.cu: status %d, %s%s", r.status, r.out, r.err);
    cli_free(&r);
}

/* The checked launches of a run's JSON journey, as a string of 0 and 1 in launch order. */
static void prog_checked_pattern(const char *json, char *out, size_t size)
{
    json_error_t e;
    json_t *root = json_loads(json, 0, &e);
    if (!root)
        fail_msg("the report is not JSON (%s): %.300s", e.text, json);
    size_t i, n = 0;
    json_t *ev;
    json_array_foreach(json_object_get(root, "journey"), i, ev)
    {
        if (n + 1 < size && !strcmp(json_string_value(json_object_get(ev, "kind")), "launch"))
            out[n++] = json_is_true(json_object_get(ev, "checked")) ? '1' : '0';
    }
    out[n] = 0;
    json_decref(root);
}

/* The report: JSON that its schema holds (tests/check_schema.py), with the program's output in it,
   every allocation, shipment and launch in order, the checked launch counted with Nsight Compute's
   names and an H200's time beside it labelled "modeled"; --check-launch KERNEL:K moves the checked
   launch to the K-th, where a fault that first shows there is named as a checked one is. */
static void test_program_report(void **state)
{
    (void)state;
    char dir[PATH_MAX] = "";
    prog_write(dir, sizeof dir, "late.cu",
               "#include <cstdio>\n"
               "__global__ void shift(float *a, int n, int k) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i < n) a[i + k] += 1.0f; }\n"
               "int main() { float *d, h[4]; cudaMalloc(&d, 1024 * sizeof(float));\n"
               "  cudaMemset(d, 0, 1024 * sizeof(float));\n"
               "  for (int k = 0; k < 3; k++) shift<<<4, 256>>>(d, 1000, k * 13);\n"
               "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
               "  printf(\"sync: %s\\n\", cudaGetErrorString(cudaDeviceSynchronize()));\n"
               "  cudaFree(d); return 0; }\n");
    char file[PATH_MAX + 16], json[PATH_MAX + 32];
    snprintf(file, sizeof file, "%s/late.cu", dir);
    cli_result r;
    prog_try(&r, NULL, file, "--format", "json", NULL);
    assert_int_equal(r.status, 4); /* the third launch reaches past the buffer */
    snprintf(json, sizeof json, "%s/report.json", dir);
    FILE *f = fopen(json, "w");
    assert_non_null(f);
    fputs(r.out, f);
    fclose(f);
    const char *const check[] = {"/usr/bin/python3", "tests/check_schema.py", "docs/program-report.schema.json", json, NULL};
    cli_result v;
    cli_exec(&v, check[0], check);
    if (v.status != 0)
        fail_msg("the report does not hold its schema: %s%s", v.out, v.err);
    cli_free(&v);
    char pattern[16];
    prog_checked_pattern(r.out, pattern, sizeof pattern);
    assert_string_equal(pattern, "100");
    assert_non_null(strstr(r.out, "\"kind\": \"alloc\""));
    assert_non_null(strstr(r.out, "\"kind\": \"sync\"")); /* the copy back was refused: the fault is sticky */
    assert_non_null(strstr(r.out, "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\": 32"));
    assert_non_null(strstr(r.out, "\"kind\": \"modeled\""));
    assert_non_null(strstr(r.out, "sync: an illegal memory access was encountered"));
    assert_non_null(strstr(r.out, "reached outside the pantry")); /* a plain launch: its guard zone */
    cli_free(&r);
    prog_try(&r, NULL, file, "--format", "json", "--check-launch", "shift:3", NULL);
    assert_int_equal(r.status, 4);
    prog_checked_pattern(r.out, pattern, sizeof pattern);
    assert_string_equal(pattern, "001");
    assert_non_null(strstr(r.out, "cook (thread) 230 of team (block) 3 read outside the pantry"));
    cli_free(&r);
    prog_try(&r, NULL, file, "--check-launch", "shift", NULL);
    assert_int_equal(r.status, 2);
    cli_free(&r);
}

/* One row of tests/programs/programs.tsv (its README says what each column holds). */
typedef struct corpus_row {
    char name[64], files[512], includes[256], flags[64], args[512], expect[256], emulator[256];
} corpus_row;

/* Splits a line at tabs into the row's columns; 0 when it has the seven it needs. */
static int corpus_parse(char *line, corpus_row *row)
{
    char *col[8] = {0};
    int n = 0;
    line[strcspn(line, "\n")] = 0;
    for (char *p = line; p && n < 8; n++) {
        col[n] = p;
        char *tab = strchr(p, '\t');
        if (tab)
            *tab = 0;
        p = tab ? tab + 1 : NULL;
    }
    if (n < 7)
        return -1;
    snprintf(row->name, sizeof row->name, "%s", col[0]);
    snprintf(row->files, sizeof row->files, "%s", col[1]);
    snprintf(row->includes, sizeof row->includes, "%s", col[2]);
    snprintf(row->flags, sizeof row->flags, "%s", col[3]);
    snprintf(row->args, sizeof row->args, "%s", col[4]);
    snprintf(row->expect, sizeof row->expect, "%s", col[5]);
    snprintf(row->emulator, sizeof row->emulator, "%s", col[6]);
    return 0;
}

/* Runs one corpus program through try (backend: "emu" or "gpu"); its result in r. */
static void corpus_run(corpus_row *row, const char *backend, cli_result *r)
{
    const char *argv[128] = {prog_bin, "try", "--backend", backend};
    int n = 4;
    static char store[64][PATH_MAX];
    int s = 0;
    char files[512], includes[256], flags[64], args[512];
    snprintf(files, sizeof files, "%s", row->files);
    snprintf(includes, sizeof includes, "%s", row->includes);
    snprintf(flags, sizeof flags, "%s", row->flags);
    snprintf(args, sizeof args, "%s", row->args);
    for (char *tok = strtok(files, " "); tok && s < 40; tok = strtok(NULL, " ")) {
        snprintf(store[s], PATH_MAX, "%s/tests/programs/%s/%s", test_source_dir(), row->name, tok);
        argv[n++] = store[s++];
    }
    for (char *tok = strtok(includes, " "); tok && s < 60; tok = strtok(NULL, " ")) {
        argv[n++] = "-I";
        snprintf(store[s], PATH_MAX, "%s/tests/programs/%s", test_source_dir(), tok);
        argv[n++] = store[s++];
    }
    for (char *tok = strtok(flags, " "); tok && n < 100; tok = strtok(NULL, " "))
        argv[n++] = tok;
    argv[n++] = "--timeout";
    argv[n++] = "300";
    if (args[0]) {
        argv[n++] = "--";
        for (char *tok = strtok(args, " "); tok && n < 126; tok = strtok(NULL, " "))
            argv[n++] = tok;
    }
    argv[n] = NULL;
    cli_exec(r, prog_bin, argv);
}

/* Whether a run printed the row's line of success (and exited 0). */
static int corpus_passed(const corpus_row *row, const cli_result *r)
{
    regex_t re;
    assert_int_equal(regcomp(&re, row->expect, REG_EXTENDED | REG_NEWLINE | REG_NOSUB), 0);
    int ok = r->status == 0 && regexec(&re, r->out, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* Every program of the corpus runs on the emulator, unmodified, as the table says: those marked
   "passes" print their line of success; those marked "refused WHAT" are refused before they run
   with one line naming WHAT (exit 5); those marked "fails" are the emulator's known limits, run and
   reported. With CUDACHEF_TEST_BACKEND=gpu, each also runs natively through try --backend gpu,
   where every one must pass. */
static void test_corpus(void **state)
{
    (void)state;
    char tsv[PATH_MAX], line[2048];
    snprintf(tsv, sizeof tsv, "%s/tests/programs/programs.tsv", test_source_dir());
    FILE *f = fopen(tsv, "r");
    assert_non_null(f);
    const char *want = getenv("CUDACHEF_TEST_BACKEND");
    int gpu = want && !strcmp(want, "gpu") && access("/dev/nvidiactl", F_OK) == 0;
    int total = 0, passed = 0, refused = 0, wrong = 0, gpu_passed = 0, rows = 0;
    /* under AddressSanitizer every eighth program (the sanitizer build of cudachef is what it
       checks, and the same code runs for each) */
    int every = test_under_memory_tool() ? 8 : 1;
    char failures[8192] = "";
    size_t used = 0;
    while (fgets(line, sizeof line, f)) {
        corpus_row row;
        if (!strncmp(line, "name\t", 5) || line[0] == '#' || corpus_parse(line, &row) != 0)
            continue;
        if (rows++ % every != 0)
            continue;
        cli_result r;
        corpus_run(&row, "emu", &r);
        int ok = corpus_passed(&row, &r), as_said;
        const char *what = "";
        if (!strcmp(row.emulator, "passes")) {
            as_said = ok;
            what = ok ? "passes" : "FAILS";
        } else if (!strncmp(row.emulator, "refused ", 8)) {
            as_said = r.status == 5 && strstr(r.err, row.emulator + 8) && strstr(r.err, "is not emulated");
            what = as_said ? "refused, as the table says" : "NOT REFUSED AS THE TABLE SAYS";
            refused += as_said;
        } else {
            as_said = !ok; /* a known limit: if it passes now, the table is out of date */
            what = as_said ? "fails, as the table says" : "PASSES: THE TABLE SAYS IT FAILS";
        }
        total++;
        passed += ok;
        printf("  %-26s %s (%.1f s)\n", row.name, what, r.seconds);
        if (!as_said) {
            wrong++;
            if (used + 300 < sizeof failures)
                used += (size_t)snprintf(failures + used, sizeof failures - used, "%s: status %d, %.200s\n", row.name,
                                         r.status, r.err[0] ? r.err : r.out);
        }
        cli_free(&r);
        if (gpu) {
            corpus_run(&row, "gpu", &r);
            int on_gpu = corpus_passed(&row, &r);
            gpu_passed += on_gpu;
            printf("  %-26s on the GPU: %s (%.1f s)\n", row.name, on_gpu ? "passes" : "FAILS", r.seconds);
            if (!on_gpu) {
                wrong++;
                if (used + 300 < sizeof failures)
                    used += (size_t)snprintf(failures + used, sizeof failures - used, "%s on the GPU: status %d, %.200s\n",
                                             row.name, r.status, r.err[0] ? r.err : r.out);
            }
            cli_free(&r);
        }
    }
    fclose(f);
    printf("  the corpus: %d of %d programs pass on the emulator unmodified (%d refused with their reason)\n", passed,
           total, refused);
    if (gpu)
        printf("  the corpus: %d of %d pass on the GPU\n", gpu_passed, total);
    else if (want && !strcmp(want, "gpu"))
        printf("SKIP: no GPU: the corpus ran on the emulator only\n");
    assert_true(total * every >= 30);
    if (wrong)
        fail_msg("%d corpus runs are not what tests/programs/programs.tsv says:\n%s", wrong, failures);
}

int main(void)
{
    test_pace_report();
    const char *bin = cli_prepare("test_programs", prog_bin);
    if (!bin)
        return 1;
    prog_bin = bin;
    const char *only = getenv("CUDACHEF_TEST_ONLY"); /* one test by name (a glob), while working on it */
    if (only)
        cmocka_set_test_filter(only);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_launches),  cmocka_unit_test(test_pass_shared),   cmocka_unit_test(test_pass_words),
        cmocka_unit_test(test_pass_large),     cmocka_unit_test(test_pass_refusals), cmocka_unit_test(test_program_runs),
        cmocka_unit_test(test_program_rules),  cmocka_unit_test(test_program_report), cmocka_unit_test(test_program_watch),
        cmocka_unit_test(test_program_library),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
