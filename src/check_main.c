/*
 * check_main.c - the entry point of cudachef-check, the program that runs a learner's kernel in
 * the sandbox (`cudachef-check __check ...`, see src/grading/exercise_runner.c).
 *
 * It is built from the same library as cudachef but without the program's own kernels: its kernel
 * tables are empty (below) and its recipes carry no CPU reference (recipes.c built with
 * CHEF_RECIPES_NO_REFERENCE), so nothing in the process the learner's code shares can cook or
 * compute a right answer for it. The taste is made by the trusted cudachef process (verifier.c).
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "base/chef.h"
#include "base/i18n.h"
#include "grading/exercise_check.h"
#include "grading/program_runner.h"
#include "kit/emu_table.h"
#include "kit/gpu_table.h"

/* No kernel of the program's own: the learner's module registers the one kernel there is. The
   GPU's table keeps each kernel's name and number of parameters, with no code: a learner's GPU
   kernel is registered with the parameters of the recipe's own (exercise_module_gpu.c). */
const emu_kernel_row emu_kernels_fast[] = {{0, 0}};
const emu_kernel_row emu_kernels_checked[] = {{0, 0}};
#ifndef KERNEL_DEF
#define KERNEL_DEF "kernels.def" /* the program's list, as the kit names it (the Makefile's -Ikernels) */
#endif
#define KERNEL(name, n, types) {#name, NULL, NULL, n},
const struct gpu_kernel_row gpu_kernels[] = {
#include KERNEL_DEF
    {0, 0, 0, 0}};
#undef KERNEL

/* `cudachef-check __check ARGS... [--lang en|ko]`: runs the learner's kernel as
   exercise_runner_main says, in the language asked. */
int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    i18n_lang lang = i18n_from_environment();
    int out = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc) {
            if (i18n_parse(argv[++i], &lang) != 0)
                lang = i18n_from_environment();
        } else if (strcmp(argv[i], "--report") == 0) {
            fprintf(stderr, "cudachef-check: no reports here: its recipes hold no CPU reference to taste with\n");
            return CHEF_EXIT_USAGE;
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    i18n_init(lang, chef_data_dir());
    if (out >= 2 && strcmp(argv[1], "__program") == 0)
        return program_runner_main(out - 1, argv + 1);
    if (out < 2 || strcmp(argv[1], "__check") != 0) {
        fprintf(stderr, "cudachef-check: run by cudachef only (cudachef-check __check ...)\n");
        return CHEF_EXIT_USAGE;
    }
    return exercise_runner_main(out - 1, argv + 1);
}
