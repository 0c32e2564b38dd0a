/*
 * test_sandbox.c - grading a class that attacks its grader (docs/SECURITY.md).
 *
 * A class of workspaces for one exercise (bounds-check, copied with the kernels into a folder of
 * the test's own): honest students graded before and after the attackers, and students whose
 * files try each attack of the threat model: poisoning the build cache, forging a pass on the
 * result pipe, copying the solution by a link, a hard link or an #include, reading a private file
 * through the compiler, leaving a process behind in a session of its own, killing the grader,
 * flooding the output. `cudachef grade --class` runs on the emulator (where learner code is machine
 * code in a process, the harder case); every honest score must hold, no attack may pass, no
 * process may outlive the grade and the private file's words must appear nowhere. `try` is driven
 * the same way: its exit code and report are cudachef's, never the learner process's.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grading/sandbox.h"
#include "test_exec.h"

static const char *sb_bin;  /* the program (cli_prepare) */
static char sb_dir[512];    /* the test's folder */
static char sb_tag[64];     /* a word unique to this run, in the escapee's command line */

#define SB_SECRET "private-words-7f3a9c"

/* Runs a shell command of the test itself, which must succeed. */
static void sb_shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sb_shell(const char *fmt, ...)
{
    char command[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(command, sizeof command, fmt, ap);
    va_end(ap);
    assert_int_equal(system(command), 0);
}

/* Writes text to DIR/path. */
static void sb_write(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_write(const char *path, const char *fmt, ...)
{
    char full[900];
    snprintf(full, sizeof full, "%s/%s", sb_dir, path);
    FILE *f = fopen(full, "w");
    assert_non_null(f);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    assert_int_equal(fclose(f), 0);
}

/* Runs cudachef with argv (after the program) in the test's environment, with `more` variables
   ("NAME=value" set, "NAME" removed; NULL-ended, or NULL). */
static void sb_run_env(cli_result *r, const char *const *args, const char *const *more)
{
    const char *argv[24];
    int n = 0;
    argv[n++] = sb_bin;
    for (int i = 0; args[i] && n < 23; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    char state[700], cache[700], exercises[700];
    snprintf(state, sizeof state, "CUDACHEF_STATE_HOME=%s/state", sb_dir);
    snprintf(cache, sizeof cache, "CUDACHEF_CACHE_HOME=%s/cache", sb_dir);
    snprintf(exercises, sizeof exercises, "CUDACHEF_EXERCISES=%s/exercises", sb_dir);
    const char *env[16] = {state, cache, exercises, "CUDACHEF_SANDBOX"};
    for (int i = 0, k = 4; more && more[i] && k < 15; i++)
        env[k++] = more[i];
    cli_how how = {env, NULL, 240, 0, 0};
    cli_exec_with(r, sb_bin, argv, &how);
}

/* The same with the test's environment alone. */
static void sb_run(cli_result *r, const char *const *args)
{
    sb_run_env(r, args, NULL);
}

/* The test's folder: the exercise, the teacher's private file. */
static int sb_setup(void **state)
{
    (void)state;
    snprintf(sb_dir, sizeof sb_dir, "%s/cudachef-sandbox-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(sb_dir));
    snprintf(sb_tag, sizeof sb_tag, "%ld", 4000 + (long)getpid() % 5000);
    sb_shell("mkdir -p '%s/exercises/03-teams-and-cooks' '%s/class' '%s/teacher' && cp -R "
             "'%s/exercises/03-teams-and-cooks/bounds-check' '%s/exercises/03-teams-and-cooks/' && cp "
             "'%s/exercises/03-teams-and-cooks/bounds-check/solution.cu' '%s/teacher/answer.cu'",
             sb_dir, sb_dir, sb_dir, test_source_dir(), sb_dir, test_source_dir(), sb_dir);
    sb_write("teacher/private.txt", "%s\n", SB_SECRET);
    char path[700];
    snprintf(path, sizeof path, "%s/teacher/private.txt", sb_dir);
    assert_int_equal(chmod(path, 0600), 0);
    return 0;
}

/* Removes the test's folder. */
static int sb_teardown(void **state)
{
    (void)state;
    sb_shell("rm -rf '%s'", sb_dir);
    return 0;
}

/* A student's workspace with their bounds-check.cu holding body (a format's result). */
static void sb_student(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_student(const char *name, const char *fmt, ...)
{
    sb_shell("mkdir -p '%s/class/%s/03-teams-and-cooks'", sb_dir, name);
    char path[900], text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(path, sizeof path, "class/%s/03-teams-and-cooks/bounds-check.cu", name);
    sb_write(path, "%s", text);
}

/* The right kernel, as a learner writes it. */
#define SB_RIGHT                                                                                                       \
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"                                    \
    "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n"

/* A kernel that writes zeros. */
#define SB_ZERO                                                                                                        \
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"                                    \
    "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = 0;\n}\n"

/* A constructor that writes a "passed" line for every run grading asks (n:256:0:shuffle) to fd 3. */
#define SB_FORGE(then)                                                                                                  \
    "#include <stdio.h>\n#include <unistd.h>\n"                                                                        \
    "__attribute__((constructor)) static void forge(void)\n{\n"                                                        \
    "    static const int sizes[] = {1, 1000, 1024, 4099};\n"                                                          \
    "    for (int s = 0; s < 4; s++)\n"                                                                                \
    "        for (int k = 0; k < 9; k++)\n"                                                                            \
    "            dprintf(3, \"{\\\"n\\\":%%d,\\\"threads_per_block\\\":256,\\\"blocks\\\":0,\\\"shuffle\\\":%%d,"      \
    "\\\"code\\\":0,\\\"cause\\\":0,\\\"message\\\":\\\"\\\",\\\"teams\\\":1,\\\"segments\\\":-1,\\\"cook_ms\\\":0.1,"   \
    "\\\"taste\\\":{\\\"checked\\\":%%d,\\\"correct\\\":%%d,\\\"passed\\\":true}}\\n\", sizes[s], "                   \
    "k ? 1000 * (s + 1) + k : 0, sizes[s], sizes[s]);\n" then "}\n"

/* The class: who passes, and the attacks. */
static void sb_make_class(void)
{
    char answer[700], private_file[700], cache[700];
    snprintf(answer, sizeof answer, "%s/teacher/answer.cu", sb_dir);
    snprintf(private_file, sizeof private_file, "%s/teacher/private.txt", sb_dir);
    snprintf(cache, sizeof cache, "%s/cache", sb_dir);
    sb_student("a-honest", "#include \"kernel.h\"\n" SB_RIGHT);
    /* rewrites every module of the build cache it can reach, and every workspace */
    sb_student("b-poisoner",
               "#include \"kernel.h\"\n#include <stdio.h>\n#include <stdlib.h>\n#include <dirent.h>\n"
               "__attribute__((constructor)) static void poison(void)\n{\n"
               "    const char *roots[] = {\"%s/builds\", \"%s/class\", \"%s/exercises/03-teams-and-cooks/bounds-check\"};\n"
               "    for (int r = 0; r < 3; r++) {\n"
               "        DIR *d = opendir(roots[r]);\n"
               "        for (struct dirent *e; d && (e = readdir(d));) {\n"
               "            char p[4096];\n"
               "            snprintf(p, sizeof p, \"%%s/%%s/module.so\", roots[r], e->d_name);\n"
               "            FILE *f = fopen(p, \"w\"); if (f) { fputs(\"poisoned\", f); fclose(f); }\n"
               "            snprintf(p, sizeof p, \"%%s/%%s\", roots[r], e->d_name);\n"
               "            f = fopen(p, \"w\"); if (f) { fputs(\"poisoned\", f); fclose(f); }\n"
               "        }\n"
               "        if (d) closedir(d);\n"
               "    }\n}\n" SB_ZERO,
               cache, sb_dir, sb_dir);
    sb_student("c-forger", "#include \"kernel.h\"\n" SB_FORGE("    _exit(0);\n") SB_RIGHT);
    sb_student("d-forger-wrong", "#include \"kernel.h\"\n" SB_FORGE("") SB_ZERO);
    sb_student("e-includer", "#include \"kernel.h\"\n#if 0\n" SB_RIGHT "#endif\n#include \"%s\"\n", answer);
    sb_student("f-leaker", "#include \"kernel.h\"\n#include \"%s\"\n" SB_ZERO, private_file);
    sb_student("g-escaper",
               "#include \"kernel.h\"\n#include <unistd.h>\n"
               "__attribute__((constructor)) static void escape(void)\n{\n"
               "    if (fork() == 0) { setsid(); if (fork() == 0) execl(\"/bin/sleep\", \"sleep\", \"%s.5\", (char *)0); _exit(0); }\n"
               "}\n" SB_RIGHT,
               sb_tag);
    sb_student("h-parent-killer",
               "#include \"kernel.h\"\n#include <signal.h>\n#include <unistd.h>\n"
               "__attribute__((constructor)) static void kill_parent(void)\n{\n"
               "    kill(getppid(), SIGKILL); kill(1, SIGKILL); kill(-1, SIGKILL);\n}\n" SB_ZERO);
    sb_student("i-flooder", "#include \"kernel.h\"\n#include <stdio.h>\n"
                            "__attribute__((constructor)) static void flood(void)\n{\n"
                            "    for (long k = 0; k < 1000000; k++) printf(\"\\033[2J flood %%ld\\n\", k);\n}\n" SB_RIGHT);
    /* links out of the workspace: to the teacher's answer, and a hard link to it */
    sb_shell("mkdir -p '%s/class/j-linker/03-teams-and-cooks' && ln -s '%s' "
             "'%s/class/j-linker/03-teams-and-cooks/bounds-check.cu'",
             sb_dir, answer, sb_dir);
    sb_shell("mkdir -p '%s/class/k-hardlinker/03-teams-and-cooks' && ln '%s' "
             "'%s/class/k-hardlinker/03-teams-and-cooks/bounds-check.cu'",
             sb_dir, answer, sb_dir);
    sb_student("l-misspeller", "#include \"kernel.h\"\n"
                               "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
                               "{\n    __syncthread();\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < n) c[i] = a[i] + b[i];\n}\n");
    /* the kernel's settings: a core_pattern that runs a program as the machine's root */
    sb_student("n-sysctl", "#include \"kernel.h\"\n#include <stdio.h>\n"
                           "__attribute__((constructor)) static void sysctl(void)\n{\n"
                           "    const char *files[] = {\"/proc/sys/kernel/core_pattern\", \"/proc/sys/vm/drop_caches\","
                           " \"/proc/sysrq-trigger\"};\n"
                           "    const char *values[] = {\"|/bin/touch %s/pwned\", \"1\", \"h\"};\n"
                           "    for (int i = 0; i < 3; i++) { FILE *f = fopen(files[i], \"w\");"
                           " if (f) { fputs(values[i], f); fclose(f); } }\n}\n" SB_ZERO,
               sb_dir);
    /* borrows the program's own vector_add through its kernel registry and patches it into its
       module's table: outputs right, kernel empty */
    sb_student("o-borrower",
               "#include \"kernel.h\"\n#include <dlfcn.h>\n#include <stdint.h>\n#include <sys/mman.h>\n"
               "typedef struct { const char *name; void (*fast)(void **); void (*checked)(void **); } borrowed;\n"
               "typedef struct { const char *name; void (*entry)(void **); } row;\n"
               "extern const borrowed *emu_kernel_find(const char *name);\n"
               "__attribute__((constructor)) static void borrow(void)\n{\n"
               "    const borrowed *k = emu_kernel_find(\"vector_add\");\n    Dl_info info;\n"
               "    if (!k || !dladdr((void *)borrow, &info)) return;\n"
               "    void *self = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);\n"
               "    const char *names[] = {\"exercise_kernels_fast\", \"exercise_kernels_checked\"};\n"
               "    for (int t = 0; self && t < 2; t++) {\n        row *r = dlsym(self, names[t]);\n"
               "        if (!r) continue;\n"
               "        mprotect((void *)((uintptr_t)r & ~(uintptr_t)4095), 8192, PROT_READ | PROT_WRITE);\n"
               "        r[0].entry = t && k->checked ? k->checked : k->fast;\n    }\n}\n"
               "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n{\n}\n");
    /* stops the box's first process (which holds the limits), then starts more processes than allowed */
    sb_student("p-stopper", "#include \"kernel.h\"\n#include <signal.h>\n#include <unistd.h>\n"
                            "__attribute__((constructor)) static void stop_parent(void)\n{\n"
                            "    kill(getppid(), SIGSTOP); kill(1, SIGSTOP);\n"
                            "    for (int k = 0; k < 100; k++)\n"
                            "        if (fork() == 0) { execl(\"/bin/sleep\", \"sleep\", \"%s.5\", (char *)0); _exit(0); }\n"
                            "}\n" SB_RIGHT,
               sb_tag);
    /* a lesson folder linked to the teacher's answer's folder */
    sb_shell("mkdir -p '%s/teacher/03-teams-and-cooks' '%s/class/q-folder-linker' && cp '%s/teacher/answer.cu' "
             "'%s/teacher/03-teams-and-cooks/bounds-check.cu' && ln -s '%s/teacher/03-teams-and-cooks' "
             "'%s/class/q-folder-linker/03-teams-and-cooks'",
             sb_dir, sb_dir, sb_dir, sb_dir, sb_dir, sb_dir);
    sb_student("z-honest", "#include \"kernel.h\"\n/* graded after every attack */\n" SB_RIGHT);
    /* a copy with other names, comments and layout: flagged as the same work, not failed */
    sb_student("m-renamer", "#include \"kernel.h\"\n// my very own kernel\n"
                            "__global__ void vector_add(const float *x1, const float *x2, float *out, int count) {\n"
                            "  int me = blockIdx.x*blockDim.x + threadIdx.x;   if (me < count) out[me] = x1[me] + x2[me]; }\n");
}

/* The first line of a file (empty when it cannot be read), without its newline. */
static void sb_read_line(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f && fgets(out, (int)size, f))
        out[strcspn(out, "\n")] = '\0';
    if (f)
        fclose(f);
}

/* The processes whose command line holds the escapee's tag. */
static int sb_escapees(void)
{
    DIR *proc = opendir("/proc");
    assert_non_null(proc);
    int found = 0;
    char want[80];
    snprintf(want, sizeof want, "%s.5", sb_tag);
    for (struct dirent *e; (e = readdir(proc));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], line[512] = "";
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        for (size_t i = 0; i < n; i++)
            if (line[i] == '\0')
                line[i] = ' ';
        line[n] = '\0';
        found += strstr(line, want) != NULL;
    }
    closedir(proc);
    return found;
}

/* The processes a kernel left (sb_escapees) are gone: killed ones end once the scheduler runs
   them, which on a busy machine is not at once, so this waits for their end; it fails, saying
   what (printf-style), when some are still there after the guard. */
static void sb_escapees_gone(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sb_escapees_gone(const char *fmt, ...)
{
    test_guard guard = test_guard_start(60);
    int left;
    while ((left = sb_escapees()) > 0 && !test_guard_over(&guard))
        test_nap_ms(20);
    if (left > 0) {
        char what[300];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        test_guard_fail(test_guard_waited(&guard), "the end of %d process(es) that %s", left, what);
    }
}

/* The score of one student in grade --class's JSON. */
static double sb_score(json_t *doc, const char *student, const char **message)
{
    json_t *students = json_object_get(doc, "students");
    for (size_t i = 0; i < json_array_size(students); i++) {
        json_t *s = json_array_get(students, i);
        const char *name = json_string_value(json_object_get(s, "student"));
        if (name && strcmp(name, student) == 0) {
            json_t *tests = json_object_get(s, "tests");
            json_t *t = json_array_get(tests, 0);
            if (message)
                *message = json_string_value(json_object_get(t, "message"));
            return json_number_value(json_object_get(t, "score"));
        }
    }
    fail_msg("no student %s in the class's JSON", student);
    return -1;
}

/* The hostile class: honest scores hold, no attack passes, nothing outlives the grade, the private
   file's words appear nowhere. */
static void test_hostile_class(void **state)
{
    (void)state;
    char core_before[512] = "", core_after[512] = "";
    sb_read_line("/proc/sys/kernel/core_pattern", core_before, sizeof core_before);
    sb_make_class();
    char class_dir[700];
    snprintf(class_dir, sizeof class_dir, "%s/class", sb_dir);
    cli_result r;
    const char *args[] = {"grade", "--class", class_dir, "--backend", "emu", "--format", "json", NULL};
    sb_run(&r, args);
    json_error_t jerr;
    json_t *doc = json_loads(r.out, 0, &jerr);
    if (!doc)
        fail_msg("grade --class (exit %d) did not write JSON: %s\nstderr: %s", r.status, r.out, r.err);
    static const char *const honest[] = {"a-honest", "z-honest"};
    for (int i = 0; i < 2; i++) {
        const char *message = NULL;
        double score = sb_score(doc, honest[i], &message);
        if (score != 1)
            fail_msg("%s, an honest student, scored %g: %s", honest[i], score, message ? message : "?");
    }
    static const char *const attackers[] = {"b-poisoner",  "c-forger",  "d-forger-wrong",  "e-includer",
                                            "f-leaker",    "h-parent-killer", "j-linker", "k-hardlinker",
                                            "l-misspeller", "n-sysctl", "o-borrower", "p-stopper",
                                            "q-folder-linker"};
    for (size_t i = 0; i < sizeof attackers / sizeof *attackers; i++) {
        const char *message = NULL;
        double score = sb_score(doc, attackers[i], &message);
        if (score != 0)
            fail_msg("%s passed: %s", attackers[i], message ? message : "?");
    }
    /* the renamed copy is flagged as the same work as the honest students', and passes */
    json_t *students = json_object_get(doc, "students");
    int flagged = 0;
    for (size_t i = 0; i < json_array_size(students); i++) {
        json_t *st = json_array_get(students, i);
        if (strcmp(json_string_value(json_object_get(st, "student")), "m-renamer") != 0)
            continue;
        json_t *same = json_object_get(json_array_get(json_object_get(st, "similar"), 0), "students");
        for (size_t k = 0; k < json_array_size(same); k++)
            flagged |= strcmp(json_string_value(json_array_get(same, k)), "a-honest") == 0;
    }
    if (!flagged)
        fail_msg("m-renamer's copy of a-honest's kernel (names, comments and layout changed) was not flagged");
    assert_true(sb_score(doc, "m-renamer", NULL) == 1);
    /* the misspelled function is a compile error in the compiler's words, as nvcc makes it */
    const char *message = NULL;
    sb_score(doc, "l-misspeller", &message);
    assert_non_null(message);
    assert_non_null(strstr(message, "compile"));
    if (strstr(r.out, SB_SECRET) || strstr(r.err, SB_SECRET))
        fail_msg("the private file's words reached the report");
    /* the kernel's settings are read-only in the box */
    sb_read_line("/proc/sys/kernel/core_pattern", core_after, sizeof core_after);
    if (strcmp(core_before, core_after) != 0) {
        FILE *f = fopen("/proc/sys/kernel/core_pattern", "w"); /* put the machine's back */
        if (f) {
            fputs(core_before, f);
            fclose(f);
        }
        fail_msg("n-sysctl changed the machine's core_pattern from '%s' to '%s'", core_before, core_after);
    }
    /* the escapee's session ended with the check: nothing of it is left */
    sb_escapees_gone("g-escaper left behind: they outlived the grade");
    json_decref(doc);
    cli_free(&r);
    /* the class again, with the cache warm: the same scores (the poisoner reached no build) */
    sb_run(&r, args);
    doc = json_loads(r.out, 0, &jerr);
    assert_non_null(doc);
    for (int i = 0; i < 2; i++)
        assert_true(sb_score(doc, honest[i], NULL) == 1);
    json_decref(doc);
    cli_free(&r);
}

/* A kernel whose runs all taste right but whose process then hangs, or starts more processes than
   allowed, earns none of the exercise's points: its status is the ending, and so is its score. */
static void test_a_process_that_does_not_end_earns_nothing(void **state)
{
    (void)state;
    sb_student("a-hanger", "#include \"kernel.h\"\n"
                           "__attribute__((destructor)) static void hang(void)\n{\n    for (volatile int k = 0;; k++) {\n    }\n}\n"
                           SB_RIGHT);
    sb_student("b-spawner", "#include \"kernel.h\"\n#include <unistd.h>\n"
                            "__attribute__((destructor)) static void spawn(void)\n{\n"
                            "    for (int k = 0; k < 100; k++)\n"
                            "        if (fork() == 0) { execl(\"/bin/sleep\", \"sleep\", \"%s.5\", (char *)0); _exit(0); }\n"
                            "    sleep(3600);\n}\n" SB_RIGHT,
               sb_tag);
    char class_dir[700], timeout[16];
    snprintf(class_dir, sizeof class_dir, "%s/class", sb_dir);
    /* 3 s on an idle machine, more on a slower one: what ends both is the time limit (the spawner
       sleeps an hour), never a build or a run that a busy machine made slow */
    snprintf(timeout, sizeof timeout, "%.0f", fmin(600, ceil(test_long_s(3))));
    cli_result r;
    const char *args[] = {"grade", "--class", class_dir, "--backend", "emu", "--format", "json", "--timeout", timeout, NULL};
    sb_run(&r, args);
    json_error_t jerr;
    json_t *doc = json_loads(r.out, 0, &jerr);
    if (!doc)
        fail_msg("grade --class (exit %d) did not write JSON: %s\nstderr: %s", r.status, r.out, r.err);
    static const char *const who[] = {"a-hanger", "b-spawner"};
    for (int i = 0; i < 2; i++) {
        const char *message = NULL;
        double score = sb_score(doc, who[i], &message);
        if (score != 0)
            fail_msg("%s scored %g though its process did not end by itself: %s", who[i], score,
                     message ? message : "?");
    }
    sb_escapees_gone("b-spawner started: they outlived the grade");
    json_decref(doc);
    cli_free(&r);
}

/* In the box: the machine's keyrings, new namespaces and sockets of families outside the network
   namespace (vsock) are refused by the system-call filter, the kernel's settings are read-only,
   and an ordinary fork and a Unix socket still work. */
static void test_box_refuses_system_calls(void **state)
{
    (void)state;
    sb_write("calls.cu",
             "#include \"kernel.h\"\n#include <errno.h>\n#include <sched.h>\n#include <stdio.h>\n#include <string.h>\n"
             "#include <sys/socket.h>\n#include <sys/syscall.h>\n#include <sys/wait.h>\n#include <unistd.h>\n"
             "__attribute__((constructor)) static void probe(void)\n{\n"
             "    long r = syscall(SYS_keyctl, 0, -4, 0);\n"
             "    printf(\"keyctl=%%s\\n\", r < 0 ? strerror(errno) : \"allowed\");\n"
             "    r = unshare(CLONE_NEWUSER);\n"
             "    printf(\"unshare=%%s\\n\", r < 0 ? strerror(errno) : \"allowed\");\n"
             "    pid_t p = fork();\n    if (p == 0) _exit(7);\n    int st = 0;\n    waitpid(p, &st, 0);\n"
             "    printf(\"fork=%%d\\n\", p > 0 ? WEXITSTATUS(st) : -1);\n"
             "    FILE *f = fopen(\"/proc/sys/kernel/core_pattern\", \"w\");\n"
             "    printf(\"sysctl=%%s\\n\", f ? \"writable\" : strerror(errno));\n"
             "    printf(\"vsock=%%s\\n\", socket(40, 1, 0) < 0 ? strerror(errno) : \"allowed\");\n"
             "    printf(\"unix=%%s\\n\", socket(1, 1, 0) < 0 ? strerror(errno) : \"allowed\");\n}\n" SB_RIGHT);
    char path[700];
    snprintf(path, sizeof path, "%s/calls.cu", sb_dir);
    cli_result r;
    const char *args[] = {"try", path, "--n", "100", "--backend", "emu", "--sandbox", "bwrap", NULL};
    sb_run(&r, args);
    if (r.status != 0)
        fail_msg("try (exit %d): %s\n%s", r.status, r.out, r.err);
    char both[65536];
    snprintf(both, sizeof both, "%s\n%s", r.out, r.err);
    static const char *const want[] = {"keyctl=Operation not permitted", "unshare=Operation not permitted", "fork=7",
                                       "sysctl=Read-only file system", "vsock=Address family not supported by protocol",
                                       "unix=allowed"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(both, want[i]))
            fail_msg("the box should give %s:\n%s", want[i], both);
    cli_free(&r);
}

/* The learner's file is built twice into its module (plain and checked), yet its constructor and
   destructor run once each, and a helper that is not static is defined once. */
static void test_constructors_run_once(void **state)
{
    (void)state;
    sb_write("ctor.cu", "#include \"kernel.h\"\n#include <stdio.h>\n"
                        "__attribute__((constructor)) static void hello(void) { printf(\"ctor-word\\n\"); }\n"
                        "__attribute__((destructor)) static void bye(void) { printf(\"dtor-word\\n\"); }\n"
                        "int helper(int i) { return i; }\n"
                        "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
                        "{\n    int i = helper(blockIdx.x * blockDim.x + threadIdx.x);\n    if (i < n) c[i] = a[i] + b[i];\n}\n");
    char path[700];
    snprintf(path, sizeof path, "%s/ctor.cu", sb_dir);
    cli_result r;
    const char *args[] = {"try", path, "--n", "1000", "--backend", "emu", NULL};
    sb_run(&r, args);
    if (r.status != 0)
        fail_msg("try (exit %d): %s\n%s", r.status, r.out, r.err);
    int ctors = 0, dtors = 0; /* what the kernel printed is on either stream */
    for (int k = 0; k < 2; k++) {
        const char *text = k ? r.err : r.out;
        for (const char *p = text; (p = strstr(p, "ctor-word")); p++)
            ctors += p == text || p[-1] != 'd';
        for (const char *p = text; (p = strstr(p, "dtor-word")); p++)
            dtors++;
    }
    if (ctors != 1 || dtors != 1)
        fail_msg("the constructor ran %d times and the destructor %d times (once each):\n%s\n%s", ctors, dtors, r.out,
                 r.err);
    cli_free(&r);
}

/* Files in the box are memory RLIMIT_AS does not count: its /tmp and /dev/shm (tmpfs) take at most
   SANDBOX_TMP_MB each, then ENOSPC; its root and /dev take none (read-only). A constructor tries to
   write more than that into each, in files under the per-file limit. */
static void test_box_memory_files_are_bounded(void **state)
{
    (void)state;
    char why[300];
    if (!sandbox_available(why, sizeof why)) {
        print_message("SKIP: no sandbox here (%s)\n", why);
        return;
    }
    sb_write("fill.cu",
             "#include \"kernel.h\"\n#include <errno.h>\n#include <fcntl.h>\n#include <stdio.h>\n#include <string.h>\n"
             "#include <unistd.h>\n"
             "static long fill(const char *dir, int *error)\n{\n"
             "    static char chunk[1 << 20];\n    long held = 0;\n    *error = 0;\n"
             "    for (int f = 0; f < 32 && !*error; f++) {\n"
             "        char name[64];\n        snprintf(name, sizeof name, \"%%s/fill%%d\", dir, f);\n"
             "        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);\n"
             "        if (fd < 0) { *error = errno; break; }\n"
             "        for (int m = 0; m < 8 && !*error;) { /* a short write: the next one says why */\n"
             "            ssize_t w = write(fd, chunk, sizeof chunk);\n"
             "            if (w < 0) *error = errno;\n            else if (w == (ssize_t)sizeof chunk) m++, held++;\n"
             "        }\n"
             "        close(fd);\n    }\n"
             "    for (int f = 0; f < 32; f++) { char name[64]; snprintf(name, sizeof name, \"%%s/fill%%d\", dir, f); unlink(name); }\n"
             "    return held;\n}\n"
             "__attribute__((constructor)) static void fill_all(void)\n{\n"
             "    int tmp_error, shm_error, root_error, dev_error;\n"
             "    long tmp = fill(\"/tmp\", &tmp_error), shm = fill(\"/dev/shm\", &shm_error);\n"
             "    fill(\"\", &root_error);\n    fill(\"/dev\", &dev_error);\n"
             "    printf(\"box-files %%ld %%d %%ld %%d %%d %%d\\n\", tmp, tmp_error, shm, shm_error, root_error, dev_error);\n"
             "    fflush(stdout);\n}\n"
             "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
             "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n");
    char path[700];
    snprintf(path, sizeof path, "%s/fill.cu", sb_dir);
    cli_result r;
    const char *args[] = {"try", path, "--n", "1000", "--backend", "emu", "--sandbox", "bwrap", NULL};
    sb_run(&r, args);
    const char *line = strstr(r.out, "box-files");
    if (!line)
        line = strstr(r.err, "box-files");
    if (r.status != 0 || !line)
        fail_msg("try (exit %d): %s\n%s", r.status, r.out, r.err);
    long tmp = -1, shm = -1;
    int tmp_error = 0, shm_error = 0, root_error = 0, dev_error = 0;
    assert_int_equal(sscanf(line, "box-files %ld %d %ld %d %d %d", &tmp, &tmp_error, &shm, &shm_error, &root_error,
                            &dev_error),
                     6);
    print_message("box files: /tmp %ld MiB (%s), /dev/shm %ld MiB (%s), / %s, /dev %s\n", tmp, strerror(tmp_error),
                  shm, strerror(shm_error), strerror(root_error), strerror(dev_error));
    assert_true(tmp >= 1 && tmp <= SANDBOX_TMP_MB);
    assert_true(shm >= 1 && shm <= SANDBOX_TMP_MB);
    assert_int_equal(tmp_error, ENOSPC);
    assert_int_equal(shm_error, ENOSPC);
    assert_int_equal(root_error, EROFS);
    assert_int_equal(dev_error, EROFS);
    cli_free(&r);
}

/* The box's own cgroups, where this machine lets cudachef make them: pids.max is the box's
   process cap and more, and freeing the command removes them. */
static void test_box_cgroups(void **state)
{
    (void)state;
    sandbox_cmd cmd = {0};
    int made = sandbox_cgroup_open(&cmd, 32, 512);
    if (made == 0) {
        print_message("SKIP: this machine does not let cudachef make cgroups (the box's first process holds the "
                      "limits alone)\n");
        return;
    }
    assert_int_equal(made, cmd.ncgroups);
    int pids_found = 0;
    for (int i = 0; i < cmd.ncgroups; i++) {
        char path[SANDBOX_CGROUP_PATH + 32], line[64];
        snprintf(path, sizeof path, "%s/pids.max", cmd.cgroup_dir[i]);
        sb_read_line(path, line, sizeof line);
        if (line[0]) { /* the cap of 32 processes, with room for threads: 64 and 2 per core */
            long cores = sysconf(_SC_NPROCESSORS_ONLN);
            assert_int_equal(atol(line), 32 + 64 + 2 * (cores > 0 ? cores : 1));
            pids_found = 1;
        }
        assert_int_equal(access(cmd.cgroup_procs[i], W_OK), 0);
    }
    assert_true(pids_found);
    char dir[SANDBOX_CGROUP_PATH];
    snprintf(dir, sizeof dir, "%s", cmd.cgroup_dir[0]);
    sandbox_cmd_free(&cmd);
    assert_int_not_equal(access(dir, F_OK), 0);
}

/* The two GPUs of the fake driver's list: PCI order (index) is not the order of the device nodes. */
#define SB_GPU0 "GPU-1f0e0d0c-0000-4000-8000-000000000019"
#define SB_GPU1 "GPU-2a0b0c0d-0000-4000-8000-00000000003b"

/* A student who passes only in a box holding GPU `index`'s device node alone (/dev/nvidia<minor>)
   and naming it by UUID in CUDA_VISIBLE_DEVICES. */
static void sb_gpu_spy(const char *name, int minor, const char *uuid)
{
    sb_student(name,
               "#include \"kernel.h\"\n#include <dirent.h>\n#include <fcntl.h>\n#include <stdlib.h>\n"
               "#include <string.h>\n#include <unistd.h>\n"
               "__attribute__((constructor)) static void look(void)\n{\n"
               "    int nodes = 0;\n    DIR *d = opendir(\"/dev\");\n"
               "    for (struct dirent *e; d && (e = readdir(d));)\n"
               "        nodes += strncmp(e->d_name, \"nvidia\", 6) == 0 && e->d_name[6] >= '0' && e->d_name[6] <= '9';\n"
               "    if (d) closedir(d);\n"
               "    const char *v = getenv(\"CUDA_VISIBLE_DEVICES\");\n"
               "    if (nodes != 1 || access(\"/dev/nvidia%d\", F_OK) != 0 || !v || strcmp(v, \"%s\") != 0)\n"
               "        _exit(7);\n"
               "    int fd = open(\"/dev/nvidia%d\", O_WRONLY | O_APPEND); /* a fake node is a file: read-only */\n"
               "    if (fd >= 0 && write(fd, \"x\", 1) == 1)\n"
               "        _exit(8);\n}\n" SB_RIGHT,
               minor, uuid, minor);
}

/* Checks text against the class-grade schema (docs/run-report.schema.json) when /usr/bin/python3
   has jsonschema: 0 valid, 1 not, -1 not checked. */
static int sb_class_schema(const char *text)
{
    cli_result r;
    const char *probe[] = {"python3", "-c", "import jsonschema", NULL};
    cli_exec(&r, "/usr/bin/python3", probe);
    int have = r.status == 0;
    cli_free(&r);
    if (!have)
        return -1;
    sb_write("class.json", "%s", text);
    char file[700], schema[700], checker[700];
    snprintf(file, sizeof file, "%s/class.json", sb_dir);
    snprintf(schema, sizeof schema, "%s/docs/run-report.schema.json", test_source_dir());
    snprintf(checker, sizeof checker, "%s/tests/check_schema.py", test_source_dir());
    const char *argv[] = {"python3", checker, schema, file, "class-grade", NULL};
    cli_exec(&r, "/usr/bin/python3", argv);
    if (r.status != 0)
        print_message("%s\n", r.err);
    int status = r.status != 0;
    cli_free(&r);
    return status;
}

/* A student's device in grade --class's JSON. */
static json_t *sb_device(json_t *doc, const char *student)
{
    json_t *students = json_object_get(doc, "students");
    for (size_t i = 0; i < json_array_size(students); i++) {
        json_t *s = json_array_get(students, i);
        if (strcmp(json_string_value(json_object_get(s, "student")), student) == 0)
            return json_object_get(s, "device");
    }
    fail_msg("no student %s in the class's JSON", student);
    return NULL;
}

/* A class shared out over a fake list of two GPUs (CUDACHEF_GPU_PROC, CUDACHEF_GPU_DEV) on the
   emulator: one worker per GPU, each run's box holding its own GPU's device node alone and naming
   it by UUID, the JSON naming each student's GPU by index and UUID, every score as it should be;
   then CUDA_VISIBLE_DEVICES naming one GPU by a UUID's beginning: every student on it. */
static void test_class_over_two_gpus(void **state)
{
    (void)state;
    sb_shell("mkdir -p '%s/gpus/0000:3b:00.0' '%s/gpus/0000:19:00.0' '%s/gpus/0000:5c:00.0' '%s/dev' && "
             "printf 'x' > '%s/dev/nvidia0' && printf 'x' > '%s/dev/nvidia1' && printf 'x' > '%s/dev/nvidia2'",
             sb_dir, sb_dir, sb_dir, sb_dir, sb_dir, sb_dir, sb_dir);
    sb_write("gpus/0000:19:00.0/information", "Model: \t\t NVIDIA H200\nGPU UUID: \t %s\nDevice Minor: \t 1\n", SB_GPU0);
    sb_write("gpus/0000:3b:00.0/information", "Model: \t\t NVIDIA H200\nGPU UUID: \t %s\nDevice Minor: \t 0\n", SB_GPU1);
    sb_write("gpus/0000:5c:00.0/information", "Model: \t\t broken\nDevice Minor: \t 2\n"); /* no UUID: not listed */
    sb_student("a-honest", "#include \"kernel.h\"\n" SB_RIGHT);
    sb_student("b-wrong", "#include \"kernel.h\"\n" SB_ZERO);
    sb_gpu_spy("c-spy-0", 1, SB_GPU0);
    sb_gpu_spy("d-spy-1", 0, SB_GPU1);
    sb_student("e-honest", "#include \"kernel.h\"\n/* e */\n" SB_RIGHT);
    sb_student("f-honest", "#include \"kernel.h\"\n/* f */\n" SB_RIGHT);
    char class_dir[700], proc_env[800], dev_env[800];
    snprintf(class_dir, sizeof class_dir, "%s/class", sb_dir);
    snprintf(proc_env, sizeof proc_env, "CUDACHEF_GPU_PROC=%s/gpus", sb_dir);
    snprintf(dev_env, sizeof dev_env, "CUDACHEF_GPU_DEV=%s/dev", sb_dir);
    static const char *const uuids[] = {SB_GPU0, SB_GPU1};
    static const char *const names[] = {"a-honest", "b-wrong", "c-spy-0", "d-spy-1", "e-honest", "f-honest"};
    for (int round = 0; round < 5; round++) {
        const char *visible = round == 0   ? "CUDA_VISIBLE_DEVICES"
                              : round == 1 ? "CUDA_VISIBLE_DEVICES=GPU-2a0b"
                              : round == 2 ? "CUDA_VISIBLE_DEVICES= 1 , 0" /* blanks around entries do not count */
                              : round == 3 ? "CUDA_VISIBLE_DEVICES=1,,0"   /* as CUDA: none after an empty entry */
                                           : "CUDA_VISIBLE_DEVICES=";      /* set but empty: CUDA sees none */
        const char *more[] = {proc_env, dev_env, visible, NULL};
        const char *args[] = {"grade", "--class", class_dir, "--backend", "emu", "--format", "json", NULL};
        cli_result r;
        sb_run_env(&r, args, more);
        json_error_t jerr;
        json_t *doc = json_loads(r.out, 0, &jerr);
        if (!doc)
            fail_msg("grade --class (exit %d) did not write JSON: %s\nstderr: %s", r.status, r.out, r.err);
        int used[2] = {0, 0};
        for (size_t i = 0; round == 4 && i < sizeof names / sizeof *names; i++)
            if (json_is_object(sb_device(doc, names[i])))
                fail_msg("%s: %s was given a GPU", visible, names[i]);
        for (size_t i = 0; round < 4 && i < sizeof names / sizeof *names; i++) {
            json_t *d = sb_device(doc, names[i]);
            assert_true(json_is_object(d));
            int index = (int)json_integer_value(json_object_get(d, "index"));
            assert_true(index == 0 || index == 1);
            assert_string_equal(json_string_value(json_object_get(d, "uuid")), uuids[index]);
            assert_true(json_is_true(json_object_get(d, "fake")));
            used[index]++;
            double score = sb_score(doc, names[i], NULL);
            double want = strcmp(names[i], "b-wrong") == 0 ? 0 : strncmp(names[i] + 2, "spy-", 4) == 0 ? names[i][6] - '0' == index : 1;
            if (score != want)
                fail_msg("round %d: %s on GPU %d scored %g, not %g", round, names[i], index, score, want);
        }
        if (sb_class_schema(r.out) == 1)
            fail_msg("round %d: the class's JSON does not follow its schema", round);
        int one_gpu = round == 1 || round == 3; /* GPU-2a0b is index 1 */
        if (round < 4 && !one_gpu && (!used[0] || !used[1]))
            fail_msg("one worker per GPU: GPU 0 had %d students, GPU 1 %d", used[0], used[1]);
        if (one_gpu && used[1] != (int)(sizeof names / sizeof *names))
            fail_msg("%s: %d students on GPU 0", visible, used[0]);
        json_decref(doc);
        cli_free(&r);
    }
    /* the fake nodes kept their bytes: no box could write them */
    char node[700], text[64];
    for (int i = 0; i < 2; i++) {
        snprintf(node, sizeof node, "%s/dev/nvidia%d", sb_dir, i);
        sb_read_line(node, text, sizeof text);
        assert_string_equal(text, "x");
    }
    /* an entry that names no GPU of the list (nothing after GPU-, a MIG instance, an unknown UUID)
       is refused in one line, before any student: never every GPU's node */
    static const char *const unnamed[] = {"CUDA_VISIBLE_DEVICES=GPU-", "CUDA_VISIBLE_DEVICES=0,MIG-1f0e",
                                          "CUDA_VISIBLE_DEVICES=1,GPU-ffff"};
    for (size_t i = 0; i < sizeof unnamed / sizeof *unnamed; i++) {
        const char *more[] = {proc_env, dev_env, unnamed[i], NULL};
        const char *args[] = {"grade", "--class", class_dir, "--backend", "emu", "--format", "json", NULL};
        cli_result r;
        sb_run_env(&r, args, more);
        if (r.status != 5 || !strstr(r.err, "no GPU of the driver's list"))
            fail_msg("%s: exit %d, stderr '%s'", unnamed[i], r.status, r.err);
        cli_free(&r);
    }
    /* a fake list with --backend gpu: its runs would not stay on the emulator, so none runs */
    const char *more[] = {proc_env, dev_env, "CUDA_VISIBLE_DEVICES", NULL};
    const char *one[] = {"grade", "bounds-check", "--workspace", NULL, "--backend", "gpu", "--format", "json", NULL};
    char ws[800];
    snprintf(ws, sizeof ws, "%s/a-honest", class_dir);
    one[3] = ws;
    cli_result r;
    sb_run_env(&r, one, more);
    if (r.status != 5 || !strstr(r.out, "CUDACHEF_GPU_PROC"))
        fail_msg("a fake list with --backend gpu: exit %d: %s %s", r.status, r.out, r.err);
    cli_free(&r);
}

/* With make test-gpu: a class graded on the GPU names the GPU its worker had by the index and UUID
   that nvidia-smi gives it, and says the list is the driver's own. */
static void test_class_on_a_gpu(void **state)
{
    (void)state;
    const char *backend = getenv("CUDACHEF_TEST_BACKEND");
    if (!backend || strcmp(backend, "gpu") != 0) {
        print_message("SKIP: a class on a GPU: make test-gpu runs it\n");
        return;
    }
    sb_student("a-honest", "#include \"kernel.h\"\n" SB_RIGHT);
    sb_student("b-wrong", "#include \"kernel.h\"\n" SB_ZERO);
    char class_dir[700];
    snprintf(class_dir, sizeof class_dir, "%s/class", sb_dir);
    const char *args[] = {"grade", "--class", class_dir, "--backend", "gpu", "--format", "json", NULL};
    const char *more[] = {"CUDACHEF_GPU_PROC", "CUDACHEF_GPU_DEV", NULL};
    cli_result r;
    sb_run_env(&r, args, more);
    if (r.status == 5) {
        print_message("SKIP: a class on a GPU: no usable GPU (%s)\n", r.err);
        cli_free(&r);
        return;
    }
    json_error_t jerr;
    json_t *doc = json_loads(r.out, 0, &jerr);
    if (!doc)
        fail_msg("grade --class (exit %d) did not write JSON: %s\nstderr: %s", r.status, r.out, r.err);
    assert_true(sb_score(doc, "a-honest", NULL) == 1);
    assert_true(sb_score(doc, "b-wrong", NULL) == 0);
    char smi[4096] = "";
    FILE *p = popen("nvidia-smi --query-gpu=index,uuid --format=csv,noheader 2>/dev/null", "r");
    size_t got = p ? fread(smi, 1, sizeof smi - 1, p) : 0;
    smi[got] = '\0';
    if (p)
        pclose(p);
    static const char *const names[] = {"a-honest", "b-wrong"};
    for (int i = 0; i < 2; i++) {
        json_t *d = sb_device(doc, names[i]);
        assert_true(json_is_object(d));
        assert_true(json_is_false(json_object_get(d, "fake")));
        const char *uuid = json_string_value(json_object_get(d, "uuid"));
        if (!uuid || strncmp(uuid, "GPU-", 4) != 0)
            fail_msg("%s's device has no UUID: %s", names[i], r.out);
        char pair[160];
        snprintf(pair, sizeof pair, "%lld, %s", (long long)json_integer_value(json_object_get(d, "index")), uuid);
        if (got > 0 && !strstr(smi, pair))
            fail_msg("%s's device '%s' is not a GPU as nvidia-smi lists them:\n%s", names[i], pair, smi);
        print_message("%s graded on GPU %s\n", names[i], pair);
    }
    json_decref(doc);
    cli_free(&r);
}

/* A build in the cache that someone changed is built again, never loaded. */
static void test_tampered_cache_is_rebuilt(void **state)
{
    (void)state;
    sb_student("a-honest", "#include \"kernel.h\"\n" SB_RIGHT);
    char ws[700];
    snprintf(ws, sizeof ws, "%s/class/a-honest", sb_dir);
    cli_result r;
    const char *args[] = {"grade", "bounds-check", "--workspace", ws, "--backend", "emu", "--format", "json", NULL};
    sb_run(&r, args);
    assert_int_equal(r.status, 0);
    cli_free(&r);
    /* every module of the cache overwritten with the wrong kernel's bytes is caught by its hash */
    sb_shell("for m in '%s'/cache/builds/*/module.so; do printf 'not a module' > \"$m\"; done", sb_dir);
    sb_run(&r, args);
    if (r.status != 0)
        fail_msg("after the cache was changed, grade exit %d: %s %s", r.status, r.out, r.err);
    assert_non_null(strstr(r.out, "\"build_cached\": false"));
    cli_free(&r);
}

/* try's exit code and report are cudachef's: a kernel that exits 2 (a usage error's code) gets
   exit 4; one that writes junk where the report goes and ends never passes (4 for JSON that does
   not parse, 1 or 4 for text) and none of its escape sequences reach the terminal; a wrong
   kernel is 1. */
static void test_try_reads_nothing_from_the_child(void **state)
{
    (void)state;
    sb_write("exits.cu", "#include \"kernel.h\"\n#include <stdlib.h>\n"
                         "__attribute__((constructor)) static void out(void) { exit(2); }\n" SB_RIGHT);
    sb_write("junk.cu", "#include \"kernel.h\"\n#include <stdio.h>\n#include <unistd.h>\n"
                        "__attribute__((constructor)) static void junk(void)\n{\n"
                        "    dprintf(3, \"\\033]0;owned\\007{\\\"passed\\\": true} PASS: the dish tastes right\\n\");\n"
                        "    _exit(0);\n}\n" SB_RIGHT);
    sb_write("wrong.cu", "#include \"kernel.h\"\n#include <stdio.h>\n#include <unistd.h>\n" SB_ZERO);
    char file[700];
    cli_result r;
    snprintf(file, sizeof file, "%s/exits.cu", sb_dir);
    const char *a1[] = {"try", file, "--backend", "emu", NULL};
    sb_run(&r, a1);
    assert_int_equal(r.status, 4);
    cli_free(&r);
    snprintf(file, sizeof file, "%s/junk.cu", sb_dir);
    const char *a2[] = {"try", file, "--backend", "emu", NULL};
    sb_run(&r, a2);
    assert_true(r.status == 1 || r.status == 4); /* never 0: cudachef's taste found no output */
    assert_null(strstr(r.out, "\033"));
    assert_null(strstr(r.err, "\033"));
    cli_free(&r);
    snprintf(file, sizeof file, "%s/junk.cu", sb_dir);
    const char *a3[] = {"try", file, "--backend", "emu", "--format", "json", NULL};
    sb_run(&r, a3);
    assert_int_equal(r.status, 4);
    assert_null(strstr(r.out, "\033"));
    cli_free(&r);
    snprintf(file, sizeof file, "%s/wrong.cu", sb_dir);
    const char *a4[] = {"try", file, "--backend", "emu", NULL};
    sb_run(&r, a4);
    assert_int_equal(r.status, 1);
    cli_free(&r);
}

/* Where bubblewrap cannot run, grade refuses in one line (exit 5) unless --sandbox none, which
   the report then states. */
static void test_grade_without_a_sandbox(void **state)
{
    (void)state;
    sb_student("a-honest", "#include \"kernel.h\"\n" SB_RIGHT);
    char ws[700], path_env[8192];
    snprintf(ws, sizeof ws, "%s/class/a-honest", sb_dir);
    /* a bwrap first on PATH that cannot make a sandbox (as where namespaces are not allowed); the
       rest of PATH as it was (the compiler, and a sanitizer's wrapper around the program) */
    sb_shell("mkdir -p '%s/bin' && printf '#!/bin/sh\\nexit 1\\n' > '%s/bin/bwrap' && chmod +x '%s/bin/bwrap'", sb_dir,
             sb_dir, sb_dir);
    const char *path = getenv("PATH");
    snprintf(path_env, sizeof path_env, "PATH=%s/bin:%s", sb_dir, path ? path : "/usr/bin:/bin");
    char state_env[700], cache_env[700], ex_env[700];
    snprintf(state_env, sizeof state_env, "CUDACHEF_STATE_HOME=%s/state", sb_dir);
    snprintf(cache_env, sizeof cache_env, "CUDACHEF_CACHE_HOME=%s/cache", sb_dir);
    snprintf(ex_env, sizeof ex_env, "CUDACHEF_EXERCISES=%s/exercises", sb_dir);
    const char *env[] = {state_env, cache_env, ex_env, path_env, "CUDACHEF_SANDBOX", "CC=/usr/bin/cc", NULL};
    cli_how how = {env, NULL, 120, 0, 0};
    cli_result r;
    const char *argv[] = {sb_bin, "grade", "bounds-check", "--workspace", ws, "--backend", "emu", NULL};
    cli_exec_with(&r, sb_bin, argv, &how);
    assert_int_equal(r.status, 5);
    assert_non_null(strstr(r.err, "no sandbox"));
    assert_non_null(strstr(r.err, "--sandbox none"));
    cli_free(&r);
    const char *none[] = {sb_bin, "grade", "bounds-check", "--workspace", ws, "--backend", "emu", "--sandbox", "none",
                          "--format", "json", NULL};
    cli_exec_with(&r, sb_bin, none, &how);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"sandbox\": \"none\""));
    cli_free(&r);
}

/* Ctrl-C, SIGTERM and SIGHUP of grade and try end the learner's code with its sandbox (its
   escapee too) and say "stopped", exit 128 + the signal; SIGKILL of grade ends the sandbox too
   (it dies with its parent). */
static void test_signals_stop_the_check(void **state)
{
    (void)state;
    sb_student("a-hangs", "#include \"kernel.h\"\n#include <unistd.h>\n"
                          "__attribute__((constructor)) static void escape(void)\n{\n"
                          "    if (fork() == 0) { setsid(); execl(\"/bin/sleep\", \"sleep\", \"%s.5\", (char *)0); _exit(0); }\n}\n"
                          "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
                          "{\n    volatile int forever = 1;\n    while (forever) { }\n}\n",
                          sb_tag);
    char ws[700], file[800], state_env[700], cache_env[700], ex_env[700], out_path[800], err_path[800];
    snprintf(ws, sizeof ws, "%s/class/a-hangs", sb_dir);
    snprintf(file, sizeof file, "%s/03-teams-and-cooks/bounds-check.cu", ws);
    snprintf(state_env, sizeof state_env, "%s/state", sb_dir);
    snprintf(cache_env, sizeof cache_env, "%s/cache", sb_dir);
    snprintf(ex_env, sizeof ex_env, "%s/exercises", sb_dir);
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGKILL};
    char timeout[16]; /* the check's own limit, never reached: the signal comes first */
    snprintf(timeout, sizeof timeout, "%.0f", fmin(600, ceil(test_long_s(60))));
    for (int k = 0; k < 4; k++) {
        int is_try = k == 1;
        snprintf(out_path, sizeof out_path, "%s/out.txt", sb_dir);
        snprintf(err_path, sizeof err_path, "%s/err.txt", sb_dir);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            setenv("CUDACHEF_STATE_HOME", state_env, 1);
            setenv("CUDACHEF_CACHE_HOME", cache_env, 1);
            setenv("CUDACHEF_EXERCISES", ex_env, 1);
            unsetenv("CUDACHEF_SANDBOX");
            if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
                _exit(126);
            if (is_try)
                execl(sb_bin, sb_bin, "try", file, "--backend", "emu", "--timeout", timeout, (char *)0);
            else
                execl(sb_bin, sb_bin, "grade", "bounds-check", "--workspace", ws, "--backend", "emu", "--timeout",
                      timeout, (char *)0);
            _exit(127);
        }
        /* the kernel runs (its escapee is there), then the signal */
        test_guard guard = test_guard_start(120);
        int ended = 0;
        while (sb_escapees() == 0 && !test_guard_over(&guard) && !(ended = waitpid(pid, NULL, WNOHANG) == pid))
            test_nap_ms(20);
        if (ended)
            fail_msg("%s ended before its kernel ran (see %s)", is_try ? "try" : "grade", err_path);
        if (sb_escapees() == 0) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            test_guard_fail(test_guard_waited(&guard), "the kernel of %s to start (its escapee to appear)",
                            is_try ? "try" : "grade");
        }
        kill(pid, sigs[k]);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (sigs[k] == SIGKILL) { /* no word from it, but nothing of the check outlives it */
            assert_true(WIFSIGNALED(st));
            sb_escapees_gone("the kernel left: they outlived grade killed with SIGKILL");
            continue;
        }
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 128 + sigs[k]);
        FILE *f = fopen(err_path, "r");
        assert_non_null(f);
        char *err = cli_slurp(f);
        fclose(f);
        if (!strstr(err, "stopped"))
            fail_msg("%s after signal %d did not say stopped: %s", is_try ? "try" : "grade", sigs[k], err);
        free(err);
        sb_escapees_gone("the kernel left: they outlived %s stopped by signal %d", is_try ? "try" : "grade", sigs[k]);
    }
}

/* One broken exercise.ini is an error row of its exercise, and every other exercise still grades;
   list --check names it, and two lessons whose names match after their numbers; a folder without
   exercises is an error (exit 5), not "0 of 0 passed". */
static void test_one_bad_file_does_not_stop_a_class(void **state)
{
    (void)state;
    sb_shell("cp -R '%s/exercises/03-teams-and-cooks/grid-stride' '%s/exercises/03-teams-and-cooks/' && "
             "printf '[exercise]\\nrecipe = vector-add\\nsizes = many\\n' > "
             "'%s/exercises/03-teams-and-cooks/bounds-check/exercise.ini'",
             test_source_dir(), sb_dir, sb_dir);
    sb_student("a-honest", "#include \"kernel.h\"\n" SB_RIGHT);
    char ws[700], lessons[700], empty[700];
    snprintf(ws, sizeof ws, "%s/class/a-honest", sb_dir);
    sb_shell("cp '%s/exercises/03-teams-and-cooks/grid-stride/solution.cu' '%s/03-teams-and-cooks/grid-stride.cu'",
             test_source_dir(), ws);
    cli_result r;
    const char *grade[] = {"grade", "3", "--workspace", ws, "--backend", "emu", "--format", "json", NULL};
    sb_run(&r, grade);
    assert_int_equal(r.status, 5);
    json_error_t jerr;
    json_t *doc = json_loads(r.out, 0, &jerr);
    assert_non_null(doc);
    json_t *tests = json_object_get(doc, "tests");
    assert_int_equal(json_array_size(tests), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *t = json_array_get(tests, i);
        const char *name = json_string_value(json_object_get(t, "name"));
        const char *result = json_string_value(json_object_get(t, "result"));
        if (strcmp(name, "bounds-check") == 0) {
            assert_string_equal(result, "environment");
            assert_non_null(strstr(json_string_value(json_object_get(t, "message")), "exercise.ini:3"));
        } else {
            assert_string_equal(result, "passed"); /* the other exercise graded */
        }
    }
    json_decref(doc);
    cli_free(&r);
    const char *check[] = {"list", "--check", NULL};
    sb_run(&r, check);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "bounds-check/exercise.ini:3"));
    cli_free(&r);
    /* two lessons called five-steps after their numbers would share progress records */
    snprintf(lessons, sizeof lessons, "%s/lessons", sb_dir);
    sb_shell("mkdir -p '%s' && cp -R '%s/lessons/02-five-steps' '%s/02-five-steps' && cp -R '%s/lessons/02-five-steps' "
             "'%s/03-five-steps' && sed -i 's/^number *=.*/number = 3/' '%s/03-five-steps/lesson.ini'",
             lessons, test_source_dir(), lessons, test_source_dir(), lessons, lessons);
    setenv("CUDACHEF_LESSONS", lessons, 1);
    sb_run(&r, check);
    unsetenv("CUDACHEF_LESSONS");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "has the name of 02-five-steps"));
    cli_free(&r);
    snprintf(empty, sizeof empty, "%s/no-exercises", sb_dir);
    sb_shell("mkdir -p '%s'", empty);
    char env_ex[800], state_env[700], cache_env[700];
    snprintf(env_ex, sizeof env_ex, "CUDACHEF_EXERCISES=%s", empty);
    snprintf(state_env, sizeof state_env, "CUDACHEF_STATE_HOME=%s/state", sb_dir);
    snprintf(cache_env, sizeof cache_env, "CUDACHEF_CACHE_HOME=%s/cache", sb_dir);
    const char *env[] = {env_ex, state_env, cache_env, NULL};
    cli_how how = {env, NULL, 60, 0, 0};
    const char *argv[] = {sb_bin, "grade", "--workspace", ws, "--backend", "emu", NULL};
    cli_exec_with(&r, sb_bin, argv, &how);
    assert_int_equal(r.status, 5);
    assert_non_null(strstr(r.err, "holds no exercise"));
    cli_free(&r);
}

/* cudachef's own files cannot be turned against another: links planted at the progress file's
   temporary name and at progress.bak are never followed (the victim keeps its words), a state folder
   others can write is refused, and reset writes the fresh copy before it moves the learner's file,
   so a copy that cannot be written changes nothing. */
static void test_state_files_never_follow_links(void **state)
{
    (void)state;
    char st[700], victim[700];
    snprintf(st, sizeof st, "%s/state", sb_dir);
    snprintf(victim, sizeof victim, "%s/teacher/victim.txt", sb_dir);
    sb_write("teacher/victim.txt", "%s\n", "the victim's own words");
    sb_shell("mkdir -p '%s' && chmod 700 '%s' && ln -s '%s' '%s/.progress.tmp' && ln -s '%s' '%s/progress.bak'", st, st,
             victim, st, victim, st);
    cli_result r;
    const char *jump[] = {"progress", "jump", "2", "3", NULL};
    sb_run(&r, jump);
    assert_int_equal(r.status, 0);
    cli_free(&r);
    const char *reset[] = {"progress", "reset", "--all", NULL};
    sb_run(&r, reset);
    assert_int_equal(r.status, 0);
    cli_free(&r);
    FILE *f = fopen(victim, "r");
    assert_non_null(f);
    char *words = cli_slurp(f);
    fclose(f);
    assert_string_equal(words, "the victim's own words\n");
    free(words);
    struct stat sb;
    char bak[800];
    snprintf(bak, sizeof bak, "%s/progress.bak", st);
    assert_int_equal(lstat(bak, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));           /* the link was replaced, not followed */
    assert_int_equal(sb.st_mode & 077, 0);      /* and the copy is the user's alone */
    /* a state folder that others can write: refused */
    sb_shell("chmod 777 '%s'", st);
    sb_run(&r, jump);
    assert_int_equal(r.status, 5);
    assert_non_null(strstr(r.err, "not a folder of yours alone"));
    cli_free(&r);
    sb_shell("chmod 700 '%s'", st);
    /* reset: a fresh copy that cannot be written leaves the learner's file where and as it was */
    sb_student("a-reset", "#include \"kernel.h\"\n/* my own work */\n" SB_RIGHT);
    char ws[700], file[800], blocker[900];
    snprintf(ws, sizeof ws, "%s/class/a-reset", sb_dir);
    snprintf(file, sizeof file, "%s/03-teams-and-cooks/bounds-check.cu", ws);
    snprintf(blocker, sizeof blocker, "%s.fresh", file);
    assert_int_equal(mkdir(blocker, 0700), 0); /* the fresh copy's name is taken by a folder */
    const char *again[] = {"reset", "bounds-check", "--workspace", ws, NULL};
    sb_run(&r, again);
    assert_int_equal(r.status, 5);
    cli_free(&r);
    f = fopen(file, "r");
    assert_non_null(f);
    words = cli_slurp(f);
    fclose(f);
    assert_non_null(strstr(words, "my own work"));
    free(words);
    char bak1[900];
    snprintf(bak1, sizeof bak1, "%s.1.bak", file);
    assert_int_not_equal(access(bak1, F_OK), 0); /* nothing was moved */
    assert_int_equal(rmdir(blocker), 0);
    sb_run(&r, again);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, bak1));
    cli_free(&r);
}

/* --format classroom: base64 of what GitHub Classroom's grading reporter reads (every test with
   line_no, test_code and its diagnosis), result=... appended to $GITHUB_OUTPUT, nothing on standard
   error, exit 0 on pass and on fail, under 128 KiB whatever the compiler wrote; --format exercism:
   results.json version 3. */
static void test_classroom_and_exercism_formats(void **state)
{
    (void)state;
    sb_student("a-wrong", "#include \"kernel.h\"\n" SB_ZERO);
    /* a file the compiler has a lot to say about: 4000 errors */
    char many[65536];
    size_t at = (size_t)snprintf(many, sizeof many, "#include \"kernel.h\"\n");
    for (int i = 0; i < 4000 && at + 40 < sizeof many; i++)
        at += (size_t)snprintf(many + at, sizeof many - at, "int e%d = undeclared_%d;\n", i, i);
    snprintf(many + at, sizeof many - at, "%s", SB_RIGHT);
    sb_student("b-verbose", "%s", many);
    sb_student("c-right", "#include \"kernel.h\"\n" SB_RIGHT);
    static const char *const who[] = {"a-wrong", "b-verbose", "c-right"};
    for (int k = 0; k < 3; k++) {
        char ws[700], gh[800];
        snprintf(ws, sizeof ws, "%s/class/%s", sb_dir, who[k]);
        snprintf(gh, sizeof gh, "%s/github-output-%d", sb_dir, k);
        setenv("GITHUB_OUTPUT", gh, 1);
        cli_result r;
        const char *args[] = {"grade", "bounds-check", "--workspace", ws, "--backend", "emu", "--format", "classroom",
                              "--github-output", NULL};
        sb_run(&r, args);
        unsetenv("GITHUB_OUTPUT");
        if (r.status != 0 || r.err[0])
            fail_msg("%s: classroom exit %d, stderr '%s'", who[k], r.status, r.err);
        assert_true(strlen(r.out) < 128 * 1024);
        /* decode with base64(1), as the reporter does with Buffer.from(..., 'base64') */
        char b64[800], cmd[2000];
        snprintf(b64, sizeof b64, "%s/result-%d", sb_dir, k);
        FILE *f = fopen(b64, "w");
        assert_non_null(f);
        fputs(r.out, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "base64 -d '%s' > '%s.json'", b64, b64);
        assert_int_equal(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "%s.json", b64);
        json_error_t jerr;
        json_t *doc = json_load_file(cmd, 0, &jerr);
        assert_non_null(doc);
        assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
        json_t *t = json_array_get(json_object_get(doc, "tests"), 0);
        assert_non_null(t);
        static const char *const keys[] = {"name", "status", "score", "max_score", "message", "test_code", "filename",
                                           "line_no", "duration"};
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (!json_object_get(t, keys[i]))
                fail_msg("%s: the Classroom test has no %s", who[k], keys[i]);
        const char *status = json_string_value(json_object_get(t, "status"));
        assert_string_equal(status, k == 2 ? "pass" : "fail");
        if (k == 0)
            assert_non_null(strstr(json_string_value(json_object_get(t, "message")), "wrong with n ="));
        json_decref(doc);
        f = fopen(gh, "r");
        assert_non_null(f);
        char *line = cli_slurp(f);
        fclose(f);
        assert_int_equal(strncmp(line, "result=", 7), 0);
        assert_int_equal(strncmp(line + 7, r.out, strlen(r.out) - 1), 0);
        free(line);
        cli_free(&r);
    }
    /* Exercism's runner: results.json, version 3, exit 0 on a fail */
    char solution[700], output[700], results[800], cmd[3000];
    snprintf(solution, sizeof solution, "%s/class/a-wrong/03-teams-and-cooks", sb_dir);
    snprintf(output, sizeof output, "%s/exercism-out", sb_dir);
    snprintf(cmd, sizeof cmd,
             "CUDACHEF='%s' CUDACHEF_CACHE_HOME='%s/cache' CUDACHEF_EXERCISES='%s/exercises' sh '%s/scripts/exercism-run.sh' "
             "bounds-check '%s' '%s'",
             sb_bin, sb_dir, sb_dir, test_source_dir(), solution, output);
    assert_int_equal(system(cmd), 0);
    snprintf(results, sizeof results, "%s/results.json", output);
    json_error_t jerr;
    json_t *doc = json_load_file(results, 0, &jerr);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 3);
    assert_string_equal(json_string_value(json_object_get(doc, "status")), "fail");
    json_decref(doc);
}

int main(void)
{
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    if (!(sb_bin = cli_prepare("test_sandbox", "build/cudachef")))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hostile_class, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_tampered_cache_is_rebuilt, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_class_over_two_gpus, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_class_on_a_gpu, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_a_process_that_does_not_end_earns_nothing, sb_setup, sb_teardown),
        cmocka_unit_test(test_box_cgroups),
        cmocka_unit_test_setup_teardown(test_constructors_run_once, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_box_memory_files_are_bounded, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_box_refuses_system_calls, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_try_reads_nothing_from_the_child, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_grade_without_a_sandbox, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_signals_stop_the_check, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_one_bad_file_does_not_stop_a_class, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_state_files_never_follow_links, sb_setup, sb_teardown),
        cmocka_unit_test_setup_teardown(test_classroom_and_exercism_formats, sb_setup, sb_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
