/*
 * exercise.h - the exercises: a kernel with TODOs that the learner completes, one or more per
 * lesson, as data in exercises/LESSON-ID/NAME/ (docs/EXERCISES.md describes the files).
 *
 * An exercise is checked by cooking a recipe (its inputs, reference and taste) with the learner's
 * kernel in place of the recipe's own, over several sizes, and on the emulator also with each
 * team's cooks in shuffled orders, so that a race shows without a GPU.
 */
#ifndef CUDACHEF_EXERCISE_H
#define CUDACHEF_EXERCISE_H

#include <stddef.h>
#include <stdint.h>

#include "base/chef.h"
#include "base/i18n.h"

#define EXERCISE_MAX_LIMITS 4

#define EXERCISE_MAX_CASES 8
#define EXERCISE_MAX_HINTS 6
#define EXERCISE_MAX_WRONGS 8

/* A typical wrong version of an exercise, shipped with it (wrong/NAME.cu): the authors' check
   proves it fails with the diagnosis it names. */
typedef struct exercise_wrong {
    char *name;                    /* "off-by-one": its file is wrong/NAME.cu */
    char *diagnosis;               /* the stable code it must be diagnosed with ("bounds-test") */
} exercise_wrong;

#define EXERCISE_MAX_OUTS 4

/* One exercise, as read from its folder. */
typedef struct exercise {
    char *dir;                     /* exercises/03-teams-and-cooks/bounds-check */
    char *name;                    /* "bounds-check": unique among all exercises */
    char *lesson_id;               /* "03-teams-and-cooks": the lesson it belongs to */
    int lesson_number;             /* 3 */
    char *title[I18N_LANGS];       /* NULL where a language has none */
    char *recipe;                  /* the recipe cooked with the learner's kernel */
    char *kernel;                  /* the __global__ function the learner writes */
    char *host;                    /* NULL, or the host function the learner writes (the five steps:
                                      int NAME(the kernel's parameters, with host pointers), 0 on
                                      success): then its runs are also run with a runtime call made
                                      to fail (docs/EXERCISES.md, "Host exercises") */
    int64_t sizes[EXERCISE_MAX_CASES];
    int nsizes;
    int threads_per_block;         /* 0: the recipe's */
    int64_t blocks;                /* 0: enough teams to cover n */
    int shuffles;                  /* emulator runs in shuffled cook orders, for each size */
    double timeout_s;              /* the whole check, all cases */
    int coalesced;                 /* the first warp's writes must touch at most 2 memory segments */
    int conflict_free;             /* the shared locker's accesses must have no bank conflicts */
    /* host exercises beyond the five steps (lessons 7 and 8; docs/EXERCISES.md, "Host exercises"): */
    int nouts;                     /* host-out: the host function's float * parameters after the
                                      kernel's, each one float of the head chef's that it fills */
    char *outs[EXERCISE_MAX_OUTS];
    int timed;                     /* check = timed: the first out is a time the events gave for a
                                      span holding the one launch, warmed up, and no copy */
    int one_trip;                  /* check = one-trip: every input shipped in once, the output
                                      out once, nothing more, and the kitchen launched */
    int min_launches;              /* launches: each plain run makes at least this many (0: any) */
    int library;                   /* check = library: the product by cublasSgemm, every call accepted,
                                      every cuBLAS handle destroyed (lesson 9) */
    int streams;                   /* host: async copies from pinned memory, launches in 2+ streams */
    int managed;                   /* host: the kernel's buffers managed, prefetched to the device */
    int faults;                    /* host: the calls its fault runs fail, faults = ...: bit 1 << HOST_FAULT_ALLOC,
                                      _COPY, _LAUNCH (0 with faults_given: none; not given: all three) */
    int faults_given;
    int limit_counter[EXERCISE_MAX_LIMITS]; /* limit = METRIC MAX: a launch counter (counter_id)... */
    double limit_max[EXERCISE_MAX_LIMITS];  /* ... at most this much per multiply-add of the recipe */
    int nlimits;
    double points;                 /* what passing it is worth in a grade */
    double rtol, atol;             /* the taste's tolerances; < 0: the recipe's */
    exercise_wrong wrongs[EXERCISE_MAX_WRONGS]; /* [wrong NAME] sections of exercise.ini */
    int nwrongs;
    char *broken;                  /* NULL, or why its folder could not be read ("FILE:LINE: ..."):
                                      it stays in the set, so that grading gives it an error row
                                      and every other exercise still grades */
} exercise;

/* All exercises, in lesson order then name order. */
typedef struct exercise_set {
    char *root;
    exercise *items;
    int count;
} exercise_set;

/* Reads every exercise under root (NULL: $CUDACHEF_EXERCISES, else exercises/ in the data
   folder). An exercise whose files are broken (or whose name another has) is kept with its
   broken message. 0, or -1 with err: the folder cannot be read, or holds no exercise (exit 5). */
int exercise_load_all(const char *root, exercise_set *set, chef_error *err);

/* How many of the set's exercises are broken; *first gets the first one's message. */
int exercise_broken_count(const exercise_set *set, const char **first);

/* Frees what exercise_load_all made. */
void exercise_set_free(exercise_set *set);

/* An exercise's title in lang, English where it has none. */
const char *exercise_title(const exercise *ex, i18n_lang lang);

/* The exercise called name, or NULL. */
const exercise *exercise_find(const exercise_set *set, const char *name);

/* The name of the first __global__ function of CUDA C source text (comments ignored) into out:
   0, or -1 when there is none. With want not NULL: 0 when a __global__ function of that name is
   there (out gets it), else -1 (out gets the first one found, or ""). */
int exercise_kernel_name(const char *text, const char *want, char *out, size_t size);

/* Path of one of an exercise's files ("start.cu", "solution.cu", "task.en.md", ...) into out. */
void exercise_file(const exercise *ex, const char *file, char *out, size_t size);

/* The task's or the hints' Markdown in the learner's language (English when missing), or NULL;
   the caller frees it. */
char *exercise_text(const exercise *ex, const char *what, i18n_lang lang);

/* The hints, split at their "# " headings, in the learner's language: returns how many (at most
   EXERCISE_MAX_HINTS); out[i] are Markdown the caller frees. */
int exercise_hints(const exercise *ex, i18n_lang lang, char **out);

#endif
