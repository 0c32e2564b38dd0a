/*
 * sandbox.h - a box for learner code: every build and run of a learner's kernel goes through
 * bubblewrap (bwrap), in new PID, network, IPC, UTS, cgroup and user namespaces, dying with its
 * parent, with a read-only view of only what it needs (the system's programs and libraries, the
 * compiler, the kernel kit, cudachef itself and the one build it loads), one writable scratch
 * folder, and none of the workspaces, the exercises' solutions, the build cache's other entries,
 * the state folder or $HOME. Its first process (`cudachef __sandbox`) holds the wall-clock and
 * process limits itself, so they hold even when cudachef is stopped; when it ends, the kernel ends
 * every process left in the namespace (a setsid() child included).
 *
 * docs/SECURITY.md is the threat model: what this stops and what it does not.
 */
#ifndef CUDACHEF_SANDBOX_H
#define CUDACHEF_SANDBOX_H

#include <stddef.h>

#include "base/chef.h"

#define SANDBOX_MAX_PATHS 12

/* Whether learner code is boxed: grade insists (refuses without bubblewrap), try and the
   interface prefer (a warning, then on without), none never boxes (--sandbox none). */
typedef enum sandbox_policy { SANDBOX_REQUIRE = 0, SANDBOX_PREFER, SANDBOX_NONE } sandbox_policy;

/* What one boxed program may see. Paths are host paths, bound at the same place inside. */
typedef struct sandbox_spec {
    const char *ro[SANDBOX_MAX_PATHS]; /* read-only: files or folders (a missing one is an error) */
    int nro;
    const char *rw;                    /* NULL, or a scratch folder bound writable */
    int gpu;                           /* bind the GPU's device nodes (the first visible GPU's) */
    const char *visible_gpu;           /* NULL, or the one GPU the box may see (CUDA_VISIBLE_DEVICES
                                          inside; its node alone is bound when it is an index) */
    double wall_s;                     /* the box's first process ends everything past this */
    int max_procs;                     /* ... or when more processes than this live in the box */
    const char *workdir;               /* where the program starts (NULL: /tmp, a private tmpfs) */
    int terminal;                      /* the program draws on the caller's terminal (try --kitchen):
                                          no new session, TERM passed; the filter still refuses the
                                          terminal's input injection (TIOCSTI) */
} sandbox_spec;

#define SANDBOX_CGROUP_PATH 512
/* The box's /tmp and /dev/shm are tmpfs, memory that the child's RLIMIT_AS does not count: each is
   bounded to this many MiB (bwrap --size, where bwrap has it). A build needs about 1.4 MiB there
   (nvcc's intermediate files for the largest exercise; cc's assembly, about 0.1 MiB). Everything else
   the box could write in memory (its root, /dev, the tmpfs hiding private folders) is read-only. */
#define SANDBOX_TMP_MB 64
#define SANDBOX_SECCOMP_FD 5 /* where the program that runs bwrap finds the system-call filter */

/* A boxed command line: argv runs the program inside the box; cgroups, where the machine lets
   cudachef make them, the box's own pids and memory cgroups (sandbox_cgroup_open). */
typedef struct sandbox_cmd {
    char **argv;
    int argc, cap;
    int seccomp;                               /* 1: seccomp_fd holds the box's system-call filter */
    int seccomp_fd;                            /* a memfd with it, given to bwrap as fd 5 (--seccomp 5) */
    int ncgroups;
    char cgroup_dir[2][SANDBOX_CGROUP_PATH];   /* the cgroups made for this box */
    char cgroup_procs[2][SANDBOX_CGROUP_PATH]; /* their cgroup.procs, which the box's first process joins */
} sandbox_cmd;

/* Sets the process's policy (cli: grade's and try's --sandbox). */
void sandbox_set_policy(sandbox_policy policy);

/* A command's policy: CUDACHEF_SANDBOX's where it is set ("none": never box; "bwrap": insist),
   else fallback (grade insists, try and the interface prefer). */
sandbox_policy sandbox_default(sandbox_policy fallback);

/* The process's policy. */
sandbox_policy sandbox_get_policy(void);

/* 1: the full-screen interface owns the terminal, so prefer's one warning is not printed there. */
void sandbox_set_quiet(int quiet);

/* Whether bubblewrap can box a program on this machine (probed once): 1, or 0 with why. */
int sandbox_available(char *why, size_t size);

/* Whether the next learner program is boxed under the policy: 1 boxed, 0 not (policy none, or
   prefer without bubblewrap: the warning is printed once), -1 with err (require without it). */
int sandbox_decide(chef_error *err);

/* "bubblewrap" or "none": what the last decision chose, for reports. */
const char *sandbox_name(void);

/* Builds in cmd the command line that runs argv (argv[0] a path or looked up in PATH) in the box
   spec describes: 0, or -1 with err. */
int sandbox_wrap(const sandbox_spec *spec, char *const *argv, sandbox_cmd *cmd, chef_error *err);

/* Frees cmd's strings and removes its cgroups. */
void sandbox_cmd_free(sandbox_cmd *cmd);

/* Makes the box's own cgroups where this machine lets cudachef write them (cgroup v1's pids and
   memory hierarchies, or a v2 cgroup whose controllers are delegated): pids.max above max_procs
   by room for threads (the box's first process ends the run at max_procs processes; pids.max,
   which counts threads, is the backstop against a fork bomb), the memory limit memory_mb (0: none). Returns how many it made (0: none, the box's first process
   and the resource limits alone hold). */
int sandbox_cgroup_open(sandbox_cmd *cmd, int max_procs, long memory_mb);

/* In the forked child, before exec: joins cmd's cgroups (async-signal-safe). */
void sandbox_cgroup_enter(const sandbox_cmd *cmd);

/* The box's first process (hidden command `cudachef __sandbox WALL_MS MAX_PROCS -- PROGRAM ...`):
   runs the program, ends everything in the box past the wall time or the process count, and exits
   with the program's exit status (128 + N for a signal N). */
int sandbox_init_main(int argc, char **argv);

/* Exit statuses of the box's first process when it ended the box itself. */
#define SANDBOX_EXIT_WALL 201
#define SANDBOX_EXIT_PROCS 202

#endif
