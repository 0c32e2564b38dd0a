/*
 * sandbox.c - boxes learner code with bubblewrap (sandbox.h): the bwrap command line, the probe
 * that says whether bwrap works here, and the box's first process (`cudachef __sandbox`), which
 * holds the wall-clock and process limits from inside.
 *
 * What the box sees, in the order bwrap builds it: the system's programs and libraries (/usr, the
 * /bin and /lib links, the dynamic loader's files of /etc, /sys), the compiler's own tree where it
 * lives elsewhere, the folders of LD_LIBRARY_PATH; then every private folder of cudachef's that lies
 * inside one of those (the data folder, the exercises, $HOME, the caches) hidden under an empty
 * tmpfs; then the few files the program needs (cudachef itself, the data's assets, the spec's
 * paths) and the scratch folder. /tmp and /dev/shm are private tmpfs of SANDBOX_TMP_MB each; the
 * root, /dev and the hiding tmpfs are made read-only last. /proc shows the box's processes only,
 * /dev holds null, zero, random and (GPU runs) the GPU's nodes. The environment is cleared but for
 * a short list.
 */
#include "grading/sandbox.h"
#include "grading/gpu_nodes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"

extern char **environ;

static sandbox_policy sandbox_policy_now = SANDBOX_PREFER;
static int sandbox_last_boxed = -1; /* what sandbox_decide chose last: -1 not asked yet */
static int sandbox_quiet;           /* 1: the full-screen interface owns the terminal: no warning line */

/* The full-screen interface owns the terminal: prefer's warning is not printed. */
void sandbox_set_quiet(int quiet)
{
    sandbox_quiet = quiet;
}

/* Sets the process's policy. */
void sandbox_set_policy(sandbox_policy policy)
{
    sandbox_policy_now = policy;
}

/* A command's policy: CUDACHEF_SANDBOX's (none, bwrap) where it is set, else fallback. */
sandbox_policy sandbox_default(sandbox_policy fallback)
{
    const char *env = getenv("CUDACHEF_SANDBOX");
    if (env && strcmp(env, "none") == 0)
        return SANDBOX_NONE;
    if (env && strcmp(env, "bwrap") == 0)
        return SANDBOX_REQUIRE;
    return fallback;
}

/* The process's policy. */
sandbox_policy sandbox_get_policy(void)
{
    return sandbox_policy_now;
}

/* Looks name up in PATH (a name with a '/' is taken as it is) into out: 0, or -1. */
static int sandbox_which(const char *name, char *out, size_t size)
{
    if (strchr(name, '/')) {
        if (!realpath(name, out) || access(out, X_OK) != 0)
            return -1;
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char probe[PATH_MAX];
        if (len > 0 && snprintf(probe, sizeof probe, "%.*s/%s", (int)len, p, name) < (int)sizeof probe &&
            access(probe, X_OK) == 0 && realpath(probe, out) && strlen(out) < size)
            return 0;
        p += len;
        if (*p == ':')
            p++;
    }
    return -1;
}

/* SANDBOX_SANITIZED: built with AddressSanitizer (make asan), whose leak check at exit attaches to
   the process's own threads with ptrace: such a test build lets ptrace through the filter
   (docs/SANITIZERS.md). A release build refuses it. */
#if defined(__SANITIZE_ADDRESS__)
#define SANDBOX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANDBOX_SANITIZED 1
#endif
#endif
#ifndef SANDBOX_SANITIZED
#define SANDBOX_SANITIZED 0
#endif

/* The box's system-call filter into a new memfd, for bwrap's --seccomp: every call allowed but
   those no kernel build or run needs and that reach past the box (the kernel's keyrings, which a
   box running as root would share with the machine's root; new namespaces; mounts; tracing other
   processes; loading kernel code or BPF; io_uring, whose requests a filter cannot see; the
   clocks), which fail with EPERM; sockets of families the network namespace does not hold (vsock,
   to a virtual machine's host) fail with EAFNOSUPPORT; clone3 fails with ENOSYS (its flags cannot be read by a filter),
   so the C library falls back to clone, whose namespace flags are refused. -1 where libseccomp
   cannot make one. */
static int sandbox_seccomp_make(void)
{
    static const char *const refused[] = {
        "keyctl", "add_key", "request_key", "userfaultfd", "bpf", "perf_event_open", "ptrace",
        "process_vm_readv", "process_vm_writev", "kexec_load", "kexec_file_load", "init_module",
        "finit_module", "delete_module", "mount", "umount2", "pivot_root", "move_mount", "open_tree",
        "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr", "swapon", "swapoff", "reboot",
        "syslog", "acct", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm",
        "quotactl", "open_by_handle_at", "name_to_handle_at", "fanotify_init", "setns", "unshare",
        "io_uring_setup", "io_uring_enter", "io_uring_register", "vhangup", "lookup_dcookie", "uselib"};
    static const unsigned long namespaces[] = {0x10000000 /* CLONE_NEWUSER */, 0x20000 /* CLONE_NEWNS */,
                                               0x40000000 /* CLONE_NEWNET */, 0x20000000 /* CLONE_NEWPID */,
                                               0x08000000 /* CLONE_NEWIPC */, 0x04000000 /* CLONE_NEWUTS */,
                                               0x02000000 /* CLONE_NEWCGROUP */, 0x00000080 /* CLONE_NEWTIME */};
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return -1;
    /* int 0x80's other numbers end the process; where libseccomp cannot see that action (its probe
       of the kernel fails, as under valgrind), the thread that made the call */
    int bad = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0 &&
              seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL) != 0;
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        if (SANDBOX_SANITIZED && strcmp(refused[i], "ptrace") == 0)
            continue; /* a sanitizer build's leak check stops its threads with ptrace at exit */
        int nr = seccomp_syscall_resolve_name(refused[i]);
        if (nr != __NR_SCMP_ERROR)
            bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    }
    /* typing into the terminal's input (TIOCSTI) and the console's (TIOCLINUX): a box that keeps
       the terminal (try --kitchen) could type commands into the shell after it */
    static const unsigned long ioctls[] = {0x5412 /* TIOCSTI */, 0x541C /* TIOCLINUX */};
    for (size_t i = 0; i < sizeof ioctls / sizeof *ioctls; i++)
        bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFul, ioctls[i]));
    /* sockets: only the families the network namespace holds (Unix, IP, netlink); vsock, the way
       from a virtual machine to its host, and every other family lie outside it */
    for (unsigned long family = 0; family <= 16; family++)
        if (family != 1 /* AF_UNIX */ && family != 2 /* AF_INET */ && family != 10 /* AF_INET6 */ &&
            family != 16 /* AF_NETLINK */)
            bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                                    SCMP_A0(SCMP_CMP_EQ, family));
    bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_GT, 16));
    int clone3 = seccomp_syscall_resolve_name("clone3");
    if (clone3 != __NR_SCMP_ERROR)
        bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), clone3, 0);
    for (size_t i = 0; i < sizeof namespaces / sizeof *namespaces; i++)
        bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                SCMP_A0(SCMP_CMP_MASKED_EQ, namespaces[i], namespaces[i]));
    int fd = bad ? -1 : memfd_create("cudachef-seccomp", MFD_CLOEXEC);
    if (fd >= 0 && (seccomp_export_bpf(ctx, fd) != 0 || lseek(fd, 0, SEEK_SET) != 0)) {
        close(fd);
        fd = -1;
    }
    seccomp_release(ctx);
    return fd;
}

static pthread_once_t sandbox_probe_once = PTHREAD_ONCE_INIT;
static int sandbox_seccomp_ok; /* bwrap loads the filter here (probed) */
static int sandbox_size_ok;    /* this bwrap bounds a tmpfs (--size, bubblewrap 0.5 and later; probed) */
static int sandbox_probe_ok;
static char sandbox_probe_why[300];

/* Runs bwrap once around /bin/true with the box's namespaces: does it work here? With the
   system-call filter first, then without (a kernel without seccomp); each with /tmp bounded by
   --size first, then without (a bubblewrap older than 0.5). */
static void sandbox_probe(void)
{
    char bwrap[PATH_MAX];
    if (sandbox_which("bwrap", bwrap, sizeof bwrap) != 0) {
        snprintf(sandbox_probe_why, sizeof sandbox_probe_why, "%s",
                 _("bubblewrap (bwrap) is not installed: apt-get install bubblewrap"));
        return;
    }
    for (int tried = 0; tried < 4; tried++) {
        int filtered = tried < 2, sized = tried % 2 == 0;
        int fd = filtered ? sandbox_seccomp_make() : -1;
        if (filtered && fd < 0)
            continue;
        char fdtext[16], size[32];
        snprintf(fdtext, sizeof fdtext, "%d", SANDBOX_SECCOMP_FD);
        snprintf(size, sizeof size, "%lld", (long long)SANDBOX_TMP_MB << 20);
        static const char *const fixed[] = {"--unshare-user-try", "--unshare-pid", "--unshare-net",
                                            "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session",
                                            "--as-pid-1", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"};
        char *argv[32];
        int n = 0;
        argv[n++] = bwrap;
        for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
            argv[n++] = (char *)fixed[i];
        if (sized) {
            argv[n++] = "--size";
            argv[n++] = size;
        }
        argv[n++] = "--tmpfs";
        argv[n++] = "/tmp";
        if (filtered) {
            argv[n++] = "--seccomp";
            argv[n++] = fdtext;
        }
        argv[n++] = "--";
        argv[n++] = "true";
        argv[n] = NULL;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        if (fd >= 0)
            posix_spawn_file_actions_adddup2(&fa, fd, SANDBOX_SECCOMP_FD);
        pid_t pid;
        int st = 0, rc = posix_spawn(&pid, bwrap, &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        if (fd >= 0)
            close(fd);
        if (rc == 0)
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
            }
        if (rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            sandbox_probe_ok = 1;
            sandbox_seccomp_ok = filtered;
            sandbox_size_ok = sized;
            return;
        }
    }
    snprintf(sandbox_probe_why, sizeof sandbox_probe_why,
             _("bubblewrap cannot make a sandbox here (namespaces not allowed?): %s ... true failed"), bwrap);
}

/* Whether bubblewrap works here. */
int sandbox_available(char *why, size_t size)
{
    pthread_once(&sandbox_probe_once, sandbox_probe);
    if (!sandbox_probe_ok && why)
        snprintf(why, size, "%s", sandbox_probe_why);
    return sandbox_probe_ok;
}

/* Whether the next learner program is boxed. */
int sandbox_decide(chef_error *err)
{
    char why[300];
    if (sandbox_policy_now == SANDBOX_NONE)
        return sandbox_last_boxed = 0;
    if (sandbox_available(why, sizeof why))
        return sandbox_last_boxed = 1;
    if (sandbox_policy_now == SANDBOX_REQUIRE) {
        sandbox_last_boxed = 0;
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT,
                         _("install bubblewrap (apt-get install bubblewrap), or give --sandbox none to grade without one"),
                         _("no sandbox for learner code: %s"), why);
    }
    static int warned;
    if (!sandbox_quiet && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        fprintf(stderr, _("cudachef: warning: %s; learner code runs without a sandbox\n"), why);
    return sandbox_last_boxed = 0;
}

/* What the last decision chose. */
const char *sandbox_name(void)
{
    return sandbox_last_boxed == 1 ? "bubblewrap" : "none";
}

/* Appends a copy of s to cmd; -1 when out of memory. */
static int sandbox_add(sandbox_cmd *cmd, const char *s)
{
    if (cmd->argc + 2 > cmd->cap) {
        int cap = cmd->cap ? cmd->cap * 2 : 128;
        char **grown = realloc(cmd->argv, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        cmd->argv = grown;
        cmd->cap = cap;
    }
    char *copy = strdup(s);
    if (!copy)
        return -1;
    cmd->argv[cmd->argc++] = copy;
    cmd->argv[cmd->argc] = NULL;
    return 0;
}

/* Appends an option with two paths ("--ro-bind SRC DEST"). */
static int sandbox_add3(sandbox_cmd *cmd, const char *opt, const char *a, const char *b)
{
    return sandbox_add(cmd, opt) | sandbox_add(cmd, a) | sandbox_add(cmd, b);
}

/* 1 when path is inside folder (or is it). */
static int sandbox_inside(const char *path, const char *folder)
{
    size_t n = strlen(folder);
    while (n > 1 && folder[n - 1] == '/')
        n--;
    return strncmp(path, folder, n) == 0 && (path[n] == '/' || path[n] == '\0' || n == 1);
}

/* What of /proc and /sys the box may not write or read, as container runtimes hide them: where
   bwrap runs as root the box's processes are root without capabilities, and a file of the kernel's
   that root may write (core_pattern, drop_caches, sysrq-trigger) would reach the machine. Read-only:
   the kernel's settings and the interrupt and bus tables; hidden: the kernel's memory, keys and
   timers, the firmware. Only the paths this kernel has (bwrap refuses a missing destination). */
static int sandbox_add_proc_masks(sandbox_cmd *cmd)
{
    static const char *const readonly[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"};
    static const char *const hidden[] = {"/proc/kcore", "/proc/keys", "/proc/key-users", "/proc/timer_list",
                                         "/proc/sched_debug", "/proc/latency_stats", "/proc/kallsyms",
                                         "/proc/acpi", "/proc/scsi", "/proc/asound", "/sys/firmware",
                                         "/sys/kernel/debug", "/sys/kernel/security"};
    int bad = 0;
    struct stat st;
    for (size_t i = 0; i < sizeof readonly / sizeof *readonly; i++)
        if (lstat(readonly[i], &st) == 0)
            bad |= sandbox_add3(cmd, "--ro-bind", readonly[i], readonly[i]);
    for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
        if (lstat(hidden[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            bad |= sandbox_add(cmd, "--tmpfs") | sandbox_add(cmd, hidden[i]);
        else
            bad |= sandbox_add3(cmd, "--ro-bind", "/dev/null", hidden[i]);
    }
    return bad;
}

/* A tmpfs the box may write at dest, bounded to SANDBOX_TMP_MB where bwrap can bound it. */
static int sandbox_add_scratch(sandbox_cmd *cmd, const char *dest)
{
    char size[32];
    snprintf(size, sizeof size, "%lld", (long long)SANDBOX_TMP_MB << 20);
    int bad = sandbox_size_ok ? sandbox_add(cmd, "--size") | sandbox_add(cmd, size) : 0;
    return bad | sandbox_add(cmd, "--tmpfs") | sandbox_add(cmd, dest);
}

/* After every mount: each tmpfs but the scratch ones (/tmp, /dev/shm), /dev and the box's root,
   which bwrap makes writable and unbounded, read-only (files in them would be memory that no limit
   counts). */
static int sandbox_add_readonly(sandbox_cmd *cmd)
{
    int bad = 0, argc = cmd->argc;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(cmd->argv[i], "--tmpfs") == 0 && strcmp(cmd->argv[i + 1], "/tmp") != 0 &&
            strcmp(cmd->argv[i + 1], "/dev/shm") != 0)
            bad |= sandbox_add(cmd, "--remount-ro") | sandbox_add(cmd, cmd->argv[i + 1]);
    return bad | sandbox_add(cmd, "--remount-ro") | sandbox_add(cmd, "/dev") | sandbox_add(cmd, "--remount-ro") |
           sandbox_add(cmd, "/");
}

/* The top-level system links and folders: a link as a link, a folder bound read-only. */
static int sandbox_add_system(sandbox_cmd *cmd)
{
    static const char *const tops[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
    int bad = sandbox_add3(cmd, "--ro-bind", "/usr", "/usr");
    for (size_t i = 0; i < sizeof tops / sizeof *tops; i++) {
        struct stat st;
        char target[PATH_MAX];
        if (lstat(tops[i], &st) != 0)
            continue;
        ssize_t len = S_ISLNK(st.st_mode) ? readlink(tops[i], target, sizeof target - 1) : -1;
        if (len > 0) {
            target[len] = '\0';
            bad |= sandbox_add3(cmd, "--symlink", target, tops[i]);
        } else if (S_ISDIR(st.st_mode)) {
            bad |= sandbox_add3(cmd, "--ro-bind", tops[i], tops[i]);
        }
    }
    /* what the dynamic loader and OpenBLAS's alternatives need of /etc, nothing else of it */
    static const char *const etc[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"};
    for (size_t i = 0; i < sizeof etc / sizeof *etc; i++)
        bad |= sandbox_add3(cmd, "--ro-bind-try", etc[i], etc[i]);
    bad |= sandbox_add3(cmd, "--ro-bind-try", "/sys", "/sys");
    bad |= sandbox_add(cmd, "--proc") | sandbox_add(cmd, "/proc");
    bad |= sandbox_add(cmd, "--dev") | sandbox_add(cmd, "/dev");
    bad |= sandbox_add_scratch(cmd, "/dev/shm") | sandbox_add_scratch(cmd, "/tmp");
    return bad | sandbox_add_proc_masks(cmd);
}

/* The GPU's device nodes: the control nodes and the first visible GPU's (`only`, else
   CUDA_VISIBLE_DEVICES' first entry, else 0). A GPU of the driver's list (gpu_nodes.h) is bound
   alone, by its node, and named inside by its UUID; an entry the list does not name (a blank, an
   unknown or shared UUID beginning, a MIG instance) gets no GPU node at all, so the run finds no
   GPU and says so. Without a list: an index's node, or every GPU's node for a UUID. A fake list's
   nodes are plain files, bound read-only. */
static int sandbox_add_gpu(sandbox_cmd *cmd, const char *only)
{
    static const char *const common[] = {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                                         "/dev/nvidia-modeset"};
    int bad = 0, fake = gpu_nodes_fake();
    for (size_t i = 0; !fake && i < sizeof common / sizeof *common; i++)
        bad |= sandbox_add3(cmd, "--dev-bind-try", common[i], common[i]);
    const char *visible = only ? only : getenv("CUDA_VISIBLE_DEVICES");
    char first[96] = "0";
    if (visible && *visible && gpu_nodes_entry(visible, strcspn(visible, ","), first, sizeof first) != 0)
        first[0] = '\0';
    gpu_node list[GPU_NODES_MAX];
    int listed = gpu_nodes_list(list, GPU_NODES_MAX);
    const gpu_node *g = gpu_nodes_find(list, listed, first);
    if (g) {
        char from[4200], node[64];
        snprintf(from, sizeof from, "%s/nvidia%d", gpu_nodes_dev_dir(), g->minor);
        snprintf(node, sizeof node, "/dev/nvidia%d", g->minor);
        bad |= sandbox_add3(cmd, fake ? "--ro-bind" : "--dev-bind", from, node); /* a missing node: the box fails */
        return bad | sandbox_add3(cmd, "--setenv", "CUDA_VISIBLE_DEVICES", g->uuid);
    }
    if (listed > 0 || fake)
        return bad; /* fail closed: no GPU rather than every GPU */
    if (first[0] && (first[0] < '0' || first[0] > '9')) {
        /* a UUID (GPU-...) and no driver's list: its node's number is not known here, so every
           GPU's node is bound and CUDA_VISIBLE_DEVICES chooses */
        for (int i = 0; i < 64; i++) {
            char node[64];
            snprintf(node, sizeof node, "/dev/nvidia%d", i);
            if (access(node, F_OK) != 0)
                break;
            bad |= sandbox_add3(cmd, "--dev-bind", node, node);
        }
    } else if (first[0]) {
        char node[64], *end = NULL;
        long index = strtol(first, &end, 10);
        if (*end == '\0' && index >= 0 && index < 256) {
            snprintf(node, sizeof node, "/dev/nvidia%ld", index);
            bad |= sandbox_add3(cmd, "--dev-bind-try", node, node);
        }
    }
    if (only)
        bad |= sandbox_add3(cmd, "--setenv", "CUDA_VISIBLE_DEVICES", only);
    return bad;
}

/* The variables that pass into the box (everything else is cleared). */
static int sandbox_add_env(sandbox_cmd *cmd, const char *data)
{
    static const char *const pass[] = {"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "CUDA_VISIBLE_DEVICES",
                                       "LD_LIBRARY_PATH", "OPENBLAS_NUM_THREADS", "CUDACHEF_FAULT", "ASAN_OPTIONS",
                                       "UBSAN_OPTIONS", "LSAN_OPTIONS", "NO_COLOR", "CUDACHEF_PROBE_DELAY_MS",
#ifdef CHEF_PLANTED_FAULTS
                                       "CUDACHEF_PLANTED_FAULT", /* the memory tools' builds only (base/planted.h) */
#endif
    };
    int bad = sandbox_add(cmd, "--clearenv");
    bad |= sandbox_add3(cmd, "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin");
    bad |= sandbox_add3(cmd, "--setenv", "HOME", "/tmp");
    bad |= sandbox_add3(cmd, "--setenv", "TMPDIR", "/tmp");
    bad |= sandbox_add3(cmd, "--setenv", "CUDACHEF_DATA", data);
    bad |= sandbox_add3(cmd, "--setenv", "CUDACHEF_CACHE_HOME", "/tmp/cache");
    bad |= sandbox_add3(cmd, "--setenv", "CUDACHEF_STATE_HOME", "/tmp/state");
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        const char *v = getenv(pass[i]);
        if (v)
            bad |= sandbox_add3(cmd, "--setenv", pass[i], v);
    }
    return bad;
}

/* The private folders that must never show inside, where they lie under a bound tree. */
static int sandbox_add_masks(sandbox_cmd *cmd, char trees[][PATH_MAX], int ntrees, const char *data)
{
    const char *env[] = {"HOME", "CUDACHEF_EXERCISES", "CUDACHEF_WORKSPACE", "CUDACHEF_STATE_HOME",
                         "CUDACHEF_CACHE_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "CUDACHEF_LESSONS"};
    const char *paths[sizeof env / sizeof *env + 1];
    int n = 0, bad = 0;
    paths[n++] = data;
    for (size_t i = 0; i < sizeof env / sizeof *env; i++)
        if (getenv(env[i]) && *getenv(env[i]))
            paths[n++] = getenv(env[i]);
    for (int i = 0; i < n; i++) {
        char real[PATH_MAX];
        if (!realpath(paths[i], real))
            continue;
        for (int t = 0; t < ntrees; t++)
            if (sandbox_inside(real, trees[t]) && strcmp(real, "/") != 0) {
                bad |= sandbox_add(cmd, "--tmpfs") | sandbox_add(cmd, real);
                break;
            }
    }
    return bad;
}

/* Builds the boxed command line. */
int sandbox_wrap(const sandbox_spec *spec, char *const *argv, sandbox_cmd *cmd, chef_error *err)
{
    memset(cmd, 0, sizeof *cmd);
    pthread_once(&sandbox_probe_once, sandbox_probe);
    char bwrap[PATH_MAX], self[PATH_MAX], program[PATH_MAX], data[PATH_MAX];
    if (sandbox_which("bwrap", bwrap, sizeof bwrap) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, _("apt-get install bubblewrap"), "%s",
                         _("bubblewrap (bwrap) is not installed"));
    if (!realpath("/proc/self/exe", self) || sandbox_which(argv[0], program, sizeof program) != 0)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, _("cannot find %s to run in the sandbox"), argv[0]);
    if (!realpath(chef_data_dir(), data))
        snprintf(data, sizeof data, "%s", chef_data_dir());
    /* the trees bound whole: /usr, the program's own tree when elsewhere, LD_LIBRARY_PATH's folders */
    char (*tree)[PATH_MAX] = calloc(24, PATH_MAX);
    if (!tree)
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of memory"));
    int ntrees = 0;
    snprintf(tree[ntrees++], PATH_MAX, "/usr");
    snprintf(tree[ntrees++], PATH_MAX, "/etc");
    /* a program outside /usr (a compiler in /opt/gcc/bin): its prefix, the folder above bin/ */
    char self_dir[PATH_MAX], program_dir[PATH_MAX];
    snprintf(self_dir, sizeof self_dir, "%s", self);
    snprintf(program_dir, sizeof program_dir, "%s", program);
    *strrchr(self_dir, '/') = '\0';
    *strrchr(program_dir, '/') = '\0';
    int beside = strcmp(self_dir, program_dir) == 0; /* cudachef-check: bound alone, below */
    if (!beside && !sandbox_inside(program, "/usr")) {
        snprintf(tree[ntrees], PATH_MAX, "%s", program);
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(tree[ntrees], '/');
            if (slash && slash != tree[ntrees])
                *slash = '\0';
        }
        if (strcmp(tree[ntrees], "/") != 0)
            ntrees++;
    }
    const char *ld = getenv("LD_LIBRARY_PATH");
    for (const char *p = ld ? ld : ""; *p && ntrees < 24;) {
        size_t len = strcspn(p, ":");
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)len, p);
        if (len > 0 && realpath(dir, tree[ntrees]) && !sandbox_inside(tree[ntrees], "/usr"))
            ntrees++;
        p += len + (p[len] == ':');
    }
    int bad = sandbox_add(cmd, bwrap);
    static const char *const ns[] = {"--unshare-user-try", "--unshare-pid", "--unshare-net", "--unshare-ipc",
                                     "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session",
                                     "--as-pid-1"}; /* the first process is cudachef's: see sandbox_init_main */
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        if (!spec->terminal || strcmp(ns[i], "--new-session") != 0) /* the terminal's session is kept */
            bad |= sandbox_add(cmd, ns[i]);
    if (geteuid() == 0)
        bad |= sandbox_add(cmd, "--cap-drop") | sandbox_add(cmd, "ALL");
    bad |= sandbox_add_system(cmd);
    for (int t = 2; t < ntrees; t++)
        bad |= sandbox_add3(cmd, "--ro-bind", tree[t], tree[t]);
    bad |= sandbox_add_masks(cmd, tree, ntrees, data);
    free(tree);
    /* the files the program needs, bound over the masks */
    char assets[PATH_MAX + 16];
    snprintf(assets, sizeof assets, "%s/assets", data);
    bad |= sandbox_add3(cmd, "--ro-bind", self, self);
    if (beside && strcmp(program, self) != 0)
        bad |= sandbox_add3(cmd, "--ro-bind", program, program);
    bad |= sandbox_add3(cmd, "--ro-bind-try", assets, assets);
    for (int i = 0; i < spec->nro; i++)
        bad |= sandbox_add3(cmd, "--ro-bind", spec->ro[i], spec->ro[i]);
    if (spec->rw)
        bad |= sandbox_add3(cmd, "--bind", spec->rw, spec->rw);
    bad |= sandbox_add_env(cmd, data);
    static const char *const term[] = {"TERM", "COLORTERM", "COLUMNS", "LINES"};
    for (size_t i = 0; spec->terminal && i < sizeof term / sizeof *term; i++)
        if (getenv(term[i]))
            bad |= sandbox_add3(cmd, "--setenv", term[i], getenv(term[i]));
    if (spec->gpu || (spec->visible_gpu && gpu_nodes_fake())) /* a fake list: its nodes, on the emulator too */
        bad |= sandbox_add_gpu(cmd, spec->visible_gpu); /* after the environment: it may set one variable */
    /* the fault hook's log (a test hook, never set when grading): appended to from inside */
    const char *log = getenv("CUDACHEF_FAULT_LOG");
    if (log && *log) {
        int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        char real[PATH_MAX];
        if (fd >= 0 && realpath(log, real)) {
            bad |= sandbox_add3(cmd, "--bind", real, real) | sandbox_add3(cmd, "--setenv", "CUDACHEF_FAULT_LOG", real);
        }
        if (fd >= 0)
            close(fd);
    }
    bad |= sandbox_add_readonly(cmd);
    bad |= sandbox_add(cmd, "--chdir") | sandbox_add(cmd, spec->workdir ? spec->workdir : "/tmp");
    if (sandbox_seccomp_ok) { /* the filter, loaded by bwrap just before the box's first process */
        cmd->seccomp_fd = sandbox_seccomp_make();
        cmd->seccomp = cmd->seccomp_fd >= 0;
        char fdtext[16];
        snprintf(fdtext, sizeof fdtext, "%d", SANDBOX_SECCOMP_FD);
        if (cmd->seccomp)
            bad |= sandbox_add(cmd, "--seccomp") | sandbox_add(cmd, fdtext);
    }
    /* inside: cudachef's own first process holds the limits, then the program */
    char wall[32], procs[32];
    snprintf(wall, sizeof wall, "%.0f", spec->wall_s > 0 ? spec->wall_s * 1000 : 0.0);
    snprintf(procs, sizeof procs, "%d", spec->max_procs);
    bad |= sandbox_add(cmd, "--") | sandbox_add(cmd, self) | sandbox_add(cmd, "__sandbox") | sandbox_add(cmd, wall) |
           sandbox_add(cmd, procs) | sandbox_add(cmd, "--") | sandbox_add(cmd, program);
    for (int i = 1; argv[i]; i++)
        bad |= sandbox_add(cmd, argv[i]);
    if (bad) {
        sandbox_cmd_free(cmd);
        return chef_fail(err, CHEF_EXIT_ENVIRONMENT, NULL, "%s", _("out of memory"));
    }
    return 0;
}

/* Frees cmd's strings and removes its cgroups (empty once the box has ended: a moment's wait for
   the kernel to let its last processes go). */
void sandbox_cmd_free(sandbox_cmd *cmd)
{
    for (int i = 0; i < cmd->argc; i++)
        free(cmd->argv[i]);
    free(cmd->argv);
    if (cmd->seccomp)
        close(cmd->seccomp_fd);
    for (int i = 0; i < cmd->ncgroups; i++)
        for (int tries = 0; tries < 200 && rmdir(cmd->cgroup_dir[i]) != 0 && errno == EBUSY; tries++) {
            struct timespec nap = {0, 5000000L};
            nanosleep(&nap, NULL);
        }
    memset(cmd, 0, sizeof *cmd);
}

/* Writes text to the file path (a cgroup's setting): 0, or -1. */
static int sandbox_write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    return close(fd) == 0 && n == (ssize_t)strlen(text) ? 0 : -1;
}

/* This process's cgroup in the hierarchy whose controllers field is name ("pids", "memory"; "" for
   cgroup v2's one line) into out, from /proc/self/cgroup: 0, or -1. */
static int sandbox_cgroup_of(const char *name, char *out, size_t size)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    char line[1024];
    int found = -1;
    while (f && found != 0 && fgets(line, sizeof line, f)) {
        char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
        if (!b)
            continue;
        *b = '\0';
        b[strcspn(b + 1, "\n") + 1] = '\0';
        int match = !*name ? a[1] == '\0' : 0;
        for (char *tok = a + 1; *name && tok && *tok;) { /* "cpu,cpuacct" names two */
            size_t len = strcspn(tok, ",");
            match |= len == strlen(name) && strncmp(tok, name, len) == 0;
            tok = tok[len] ? tok + len + 1 : NULL;
        }
        if (match && snprintf(out, size, "%s", b + 1) < (int)size)
            found = 0;
    }
    if (f)
        fclose(f);
    return found;
}

/* Makes one cgroup below this process's in the hierarchy mounted at mount (its own current one
   named by controller), with the limits written; adds it to cmd. 0, or -1 (nothing left made). */
static int sandbox_cgroup_make(sandbox_cmd *cmd, const char *mount, const char *controller,
                               const char *const *files, const char *const *values, int nfiles)
{
    static int made;
    char cur[SANDBOX_CGROUP_PATH], dir[SANDBOX_CGROUP_PATH];
    if (cmd->ncgroups >= 2 || sandbox_cgroup_of(controller, cur, sizeof cur) != 0 ||
        snprintf(dir, sizeof dir, "%s%s/cudachef-box-%d-%d", mount, strcmp(cur, "/") == 0 ? "" : cur, (int)getpid(),
                 __atomic_add_fetch(&made, 1, __ATOMIC_RELAXED)) >= (int)sizeof dir ||
        mkdir(dir, 0700) != 0)
        return -1;
    for (int i = 0; i < nfiles; i++) {
        char file[SANDBOX_CGROUP_PATH + 32];
        snprintf(file, sizeof file, "%s/%s", dir, files[i]);
        if (values[i] && sandbox_write_file(file, values[i]) != 0) {
            rmdir(dir);
            return -1;
        }
    }
    snprintf(cmd->cgroup_dir[cmd->ncgroups], SANDBOX_CGROUP_PATH, "%s", dir);
    if (snprintf(cmd->cgroup_procs[cmd->ncgroups], SANDBOX_CGROUP_PATH, "%s/cgroup.procs", dir) >= SANDBOX_CGROUP_PATH) {
        rmdir(dir);
        return -1;
    }
    cmd->ncgroups++;
    return 0;
}

/* The box's own cgroups (sandbox.h). */
int sandbox_cgroup_open(sandbox_cmd *cmd, int max_procs, long memory_mb)
{
    char pids[32], memory[32];
    /* pids.max counts threads too: room above max_procs for the runner's threads (a worker per
       core, and more) and for bwrap's own, so that a process beyond max_procs can always start
       and be seen by the box's first process, which ends the run (its limit is on processes) */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long room = max_procs + 64 + 2 * (cores > 0 ? cores : 1);
    snprintf(pids, sizeof pids, "%ld", max_procs > 0 ? room : 4096);
    snprintf(memory, sizeof memory, "%lld", (long long)memory_mb << 20);
    const char *mem = memory_mb > 0 ? memory : NULL;
    /* cgroup v1: a hierarchy per controller */
    const char *const v1_pids[] = {"pids.max"}, *const v1_mem[] = {"memory.limit_in_bytes"};
    struct stat st;
    if (stat("/sys/fs/cgroup/pids/cgroup.procs", &st) == 0)
        sandbox_cgroup_make(cmd, "/sys/fs/cgroup/pids", "pids", v1_pids, (const char *const[]){pids}, 1);
    if (mem && stat("/sys/fs/cgroup/memory/cgroup.procs", &st) == 0)
        sandbox_cgroup_make(cmd, "/sys/fs/cgroup/memory", "memory", v1_mem, (const char *const[]){mem}, 1);
    /* cgroup v2: one cgroup, where the controllers are delegated to this process's */
    if (cmd->ncgroups == 0 && stat("/sys/fs/cgroup/cgroup.controllers", &st) == 0) {
        const char *const v2[] = {"pids.max", "memory.max"};
        sandbox_cgroup_make(cmd, "/sys/fs/cgroup", "", v2, (const char *const[]){pids, mem}, mem ? 2 : 1);
    }
    return cmd->ncgroups;
}

/* Joins cmd's cgroups: called in the forked child, so open, write and close only. */
void sandbox_cgroup_enter(const sandbox_cmd *cmd)
{
    for (int i = 0; i < cmd->ncgroups; i++) {
        int fd = open(cmd->cgroup_procs[i], O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t ignored = write(fd, "0", 1); /* 0: the writer itself */
            (void)ignored;
            close(fd);
        }
    }
}

/* The processes the box holds now (its /proc lists only them). */
static int sandbox_count_procs(void)
{
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
            n++;
    if (d)
        closedir(d);
    return n;
}

/* Milliseconds of the monotonic clock. */
static double sandbox_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Ends every other process of the box and reaps them all (a process forking as it is killed may
   leave a child the first kill missed, so again until none is left). */
static void sandbox_end_all(void)
{
    for (int round = 0; round < 1000; round++) {
        kill(-1, SIGKILL); /* as PID 1: every process of the namespace but this one */
        int st;
        pid_t r = waitpid(-1, &st, 0);
        if (r < 0 && errno == ECHILD)
            return;
    }
}

/* `cudachef __sandbox WALL_MS MAX_PROCS -- PROGRAM ARGS...`: the box's first process, PID 1 of its
   namespace (bwrap --as-pid-1). The kernel drops every signal sent to a namespace's PID 1 from
   inside it for which PID 1 has no handler, SIGSTOP and SIGKILL included, and this one installs
   none: the learner's code can neither stop nor kill the process that holds its limits. */
int sandbox_init_main(int argc, char **argv)
{
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "__sandbox: usage: __sandbox WALL_MS MAX_PROCS -- PROGRAM ...\n");
        return 125;
    }
    double wall_ms = strtod(argv[1], NULL);
    int max_procs = atoi(argv[2]);
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* the program may not open this process's descriptors */
    double deadline = sandbox_now_ms() + wall_ms;
    pid_t pid = fork();
    if (pid < 0) {
        perror("__sandbox: fork");
        return 125;
    }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        execvp(argv[4], argv + 4);
        fprintf(stderr, "cannot run %s: %s\n", argv[4], strerror(errno));
        _exit(127);
    }
    for (;;) {
        int st;
        pid_t r;
        while ((r = waitpid(-1, &st, WNOHANG)) > 0)
            if (r == pid) {
                sandbox_end_all(); /* whatever it left behind */
                return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            }
        if (wall_ms > 0 && sandbox_now_ms() > deadline) {
            sandbox_end_all();
            return SANDBOX_EXIT_WALL;
        }
        if (max_procs > 0 && sandbox_count_procs() > max_procs + 1) { /* + this one */
            sandbox_end_all();
            return SANDBOX_EXIT_PROCS;
        }
        struct timespec nap = {0, 5000000L};
        sigtimedwait(&chld, NULL, &nap);
    }
}
