/*
 * child.h - running another program under limits: a compiler, or a learner's kernel in a child
 * cudachef. Its output is captured (up to a limit; more is a flood and ends it), it gets a time
 * limit enforced on its whole process group, and optional resource limits (CPU seconds, memory,
 * file size, no core files). A second pipe (fd 3 in the child) can carry a result back.
 *
 * Every process the program starts ends with it, even one that left its process group (setsid):
 * the program runs under a keeper, a process of ours that adopts every orphan below it (Linux's
 * child subreaper) and, once the program has ended, kills what is left before it ends itself. A
 * stop token (cancel.h) ends the run at once when someone asks.
 */
#ifndef CUDACHEF_CHILD_H
#define CUDACHEF_CHILD_H

#include <stddef.h>

#include "base/cancel.h"
#include "base/chef.h"

/* What to run and within which limits. */
typedef struct child_spec {
    char *const *argv;        /* argv[0] is looked up in PATH */
    double timeout_s;         /* wall-clock limit; the process group is killed past it */
    size_t keep;              /* bytes of output kept */
    size_t flood;             /* 0: no limit; else more output than this kills the child */
    int result_pipe;          /* 1: the child gets a pipe on fd 3 whose contents come back */
    size_t result_keep;       /* bytes of it kept (0: 1 MiB); past them it is cut */
    int limit_cpu_s;          /* 0: none; else RLIMIT_CPU */
    long limit_memory_mb;     /* 0: none; else RLIMIT_AS */
    long limit_file_mb;       /* 0: none; else RLIMIT_FSIZE */
    chef_cancel *cancel;      /* NULL, or a token whose stop ends the run (outcome.cancelled) */
    const struct sandbox_spec *sandbox; /* NULL, or the box the program runs in (sandbox.h) */
    int shared_fd;            /* >= 3: a descriptor the program gets as fd 4 (the check's shared
                                 memory); 0: none */
    int passthrough;          /* 1: the program reads our standard input and writes to our standard
                                 output and error as it goes (a learner's whole program under try):
                                 nothing is captured, and no flood limit applies */
} child_spec;

/* How it ended. */
typedef struct child_outcome {
    int exited;               /* 1: exit status in status; 0: killed by signal */
    int status;               /* exit status, or the signal */
    int timed_out;            /* killed at the time limit */
    int flooded;              /* killed for printing more than spec.flood */
    int cancelled;            /* killed because the spec's token asked it to stop */
    int boxed;                /* it ran in the sandbox */
    int too_many;             /* the sandbox ended it for starting too many processes */
    int left_behind;          /* processes the program left running when it ended, which the keeper
                                 killed (a background job holding the output, a setsid escape) */
    char *output;             /* the first spec.keep bytes of stdout and stderr, NUL-ended */
    size_t output_bytes;      /* all it printed */
    char *result;             /* what it wrote to fd 3, NUL-ended (result_pipe only) */
    double ms;
} child_outcome;

/* Runs spec's program and waits for it: 0 with out filled, or -1 with err when it could not be
   started (then out is empty). */
int child_run(const child_spec *spec, child_outcome *out, chef_error *err);

/* Frees out's buffers. */
void child_outcome_free(child_outcome *out);

#endif
