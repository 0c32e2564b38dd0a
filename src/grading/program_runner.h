/*
 * program_runner.h - the child's side of running a learner's whole CUDA program on the emulator
 * (cudachef-check __program; program_runner.c). Its outcome comes back on fd 3, one JSON object a
 * line: {"started": 1} before the program's main, then {"exit": STATUS, "kernel_faulted": 0|1,
 * "leaked": N, "leaked_bytes": B, "cause": C} when it ends by returning or exit() (a program killed
 * by a signal has no second line).
 */
#ifndef CUDACHEF_PROGRAM_RUNNER_H
#define CUDACHEF_PROGRAM_RUNNER_H

/* `__program --plain P.so [--checked C.so] -- NAME ARGS...`: runs the program; does not return
   once its main has been called. */
int program_runner_main(int argc, char **argv);

#endif
