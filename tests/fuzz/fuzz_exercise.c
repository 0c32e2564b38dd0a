/*
 * fuzz_exercise.c - an exercise's folder as exercise.c reads it: exercise.ini (inih), the hints
 * split at their headings, the task, the kernel name in the starting file, and the signature the
 * learner's kernel is built with (exercise_build.c, from kernels/kernels.def).
 *
 * Input: exercise.ini, hints.en.md, start.cu and task.ko.md, separated by FUZZ_SEPARATOR lines;
 * the other files an exercise folder needs are there, empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading/exercise.h"
#include "grading/exercise_check.h"
#include "fuzz.h"
#include "lessons/lesson.h"

FUZZ_TARGET(exercise)
{
    static const char *files[] = {"exercise.ini", "hints.en.md", "start.cu",   "task.ko.md",
                                  "solution.cu",  "task.en.md",  "hints.ko.md"};
    char root[4200], path[4400];
    snprintf(root, sizeof root, "%s/exercises", fuzz_dir());
    fuzz_part parts[4];
    size_t n = fuzz_split(data, size, parts, 4);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/01-fuzz/fuzz-ex/%s", root, files[i]);
        fuzz_write(path, i < n ? parts[i].data : (const uint8_t *)"", i < n ? parts[i].size : 0);
    }
    exercise_set set;
    chef_error err = {0};
    if (exercise_load_all(root, &set, &err) != 0)
        return 0;
    for (int i = 0; i < set.count; i++) {
        const exercise *ex = &set.items[i];
        exercise_title(ex, I18N_KO);
        exercise_find(&set, ex->name);
        char *hints[EXERCISE_MAX_HINTS];
        for (int lang = 0; lang < I18N_LANGS; lang++) {
            int nh = exercise_hints(ex, (i18n_lang)lang, hints);
            for (int h = 0; h < nh; h++)
                free(hints[h]);
            free(exercise_text(ex, "task", (i18n_lang)lang));
        }
        char signature[512], name[128];
        exercise_signature(ex, signature, sizeof signature);
        exercise_file(ex, "start.cu", path, sizeof path);
        char *source = lesson_read_file(path, NULL);
        if (source) {
            exercise_kernel_name(source, ex->kernel, name, sizeof name);
            exercise_kernel_name(source, NULL, name, sizeof name);
            free(source);
        }
    }
    exercise_set_free(&set);
    return 0;
}
