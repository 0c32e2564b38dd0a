/*
 * lesson.h - lessons as data: lessons/NN-slug/{lesson.ini,en.md,ko.md}, loaded at run time.
 *
 * lesson_load_all reads every lesson folder; a broken file gives a problem naming the file and the
 * line, and only that lesson is left out. docs/LESSONS.md is the format a teacher writes.
 * lesson.c loads folders and sets, lesson_ini.c reads lesson.ini, lesson_text.c en.md and ko.md.
 */
#ifndef CUDACHEF_LESSON_H
#define CUDACHEF_LESSON_H

#include <stdint.h>

#include "demos/demo.h"
#include "base/i18n.h"

typedef enum demo_kind {
    DEMO_RUN,
    DEMO_COMPARE,
    DEMO_INFO,
    DEMO_CLOCK,
    DEMO_RACE,
    DEMO_TRIPS,
    DEMO_WALK,
    DEMO_CARD,
    DEMO_ROOFLINE,
    DEMO_STREAMS,
    DEMO_MANAGED
} demo_kind;

typedef enum demo_expect { EXPECT_PASS, EXPECT_WRONG, EXPECT_OUT_OF_BOUNDS, EXPECT_ANY } demo_expect;

/* One [demo NAME] section: what to run and with which parameters. */
typedef struct lesson_demo {
    char *name;
    char *title[I18N_LANGS];
    demo_kind kind;
    char *recipe;
    char *recipes[DEMO_MAX_RECIPES];
    int nrecipes;
    int64_t n, emu_n;           /* 0: not given */
    int64_t threads_per_block, blocks;
    int pinned;
    int access;                 /* compare: also show how each recipe's first warp writes memory */
    int64_t seed;               /* -1: not given */
    int64_t repeat, emu_repeat;
    int64_t steps, emu_steps;
    int64_t streams;            /* streams: how many (0: not given) */
    int64_t sizes[DEMO_MAX_SIZES], emu_sizes[DEMO_MAX_SIZES];
    int nsizes, emu_nsizes;
    demo_expect expect, gpu_expect;
    int gpu_expect_given;
    int line;                   /* where the section starts in lesson.ini */
} lesson_demo;

/* A choice of a check question. */
typedef struct lesson_choice {
    char *text;
    char *explanation;
    int right;
    int line;
} lesson_choice;

typedef enum lesson_item_kind { ITEM_PAGE, ITEM_QUESTION } lesson_item_kind;

/* A page (`# Title`) or a check question (`# ? Prompt`) of one language's text. */
typedef struct lesson_item {
    lesson_item_kind kind;
    char *title;                /* page title, or the question's prompt */
    char *body;                 /* Markdown: the page, or the question's lines before its choices */
    int line;
    char **demos;               /* demo names placed on the page, in order */
    int ndemos;
    char **kernels;             /* kernel names shown on the page, in order */
    int nkernels;
    lesson_choice *choices;
    int nchoices;
} lesson_item;

/* One language's text of a lesson. */
typedef struct lesson_text {
    char *path;
    lesson_item *items;
    int nitems;
    int npages, nquestions;
} lesson_text;

typedef struct lesson {
    char *dir;                  /* the folder's path */
    char *id;                   /* "03-teams-and-cooks" */
    char *slug;                 /* "teams-and-cooks" */
    int number;                 /* 3 */
    char *title[I18N_LANGS];
    char *summary[I18N_LANGS];
    char **kernels;             /* names in kernels/ (without .cu) */
    int nkernels;
    char **marks;
    int nmarks;
    lesson_demo *demos;
    int ndemos;
    lesson_text text[I18N_LANGS];
} lesson;

/* A problem found while loading: "FILE:LINE: message". */
typedef struct lesson_problem {
    char *file;
    int line;                   /* 0: the whole file or folder */
    char *message;
} lesson_problem;

typedef struct lesson_set {
    char *root;                 /* the lessons folder */
    lesson *lessons;            /* the lessons that loaded, in folder order */
    int count;
    lesson_problem *problems;
    int nproblems;
} lesson_set;

/* Puts every question's choices in an order of seed's (0: the files' order, untouched): the same
   order in every language, its own for each question, the same for the same seed on every run. */
void lesson_shuffle_choices(lesson_set *set, uint64_t seed);

/* Loads every lesson folder of lessons_dir; kernels_dir holds the kernel sources lessons show.
   Returns 0, or -1 with err when the folder itself cannot be read (the set is then empty, with
   nothing to free). Broken lessons are left out of set->lessons and described in set->problems. */
int lesson_load_all(const char *lessons_dir, const char *kernels_dir, lesson_set *set, chef_error *err);

/* Loads one lesson folder; 0, or -1 with the problems added to set. */
int lesson_load(const char *folder, const char *kernels_dir, lesson *out, lesson_set *set);

/* Frees a set. */
void lesson_set_free(lesson_set *set);

/* Frees one lesson. */
void lesson_free(lesson *l);

/* The lesson that name means: "3", "03", "teams-and-cooks" or "03-teams-and-cooks"; NULL if none. */
const lesson *lesson_find(const lesson_set *set, const char *name);

/* The first problem of the lesson folder that name means, or NULL (for a lesson that did not load). */
const lesson_problem *lesson_problem_for(const lesson_set *set, const char *name);

/* When the lesson name means did not load, prints its first problem (naming file and line) for
   `cudachef COMMAND` and returns -1; 0 when it has none. */
int lesson_report_broken(const lesson_set *set, const char *name, const char *command);

/* The demo called name in a lesson, or NULL. */
const lesson_demo *lesson_demo_find(const lesson *l, const char *name);

/* A lesson's title, its text and a demo's title in a language, English where it has none (and the
   demo's name where it has no title at all). */
const char *lesson_title(const lesson *l, i18n_lang lang);
const lesson_text *lesson_text_in(const lesson *l, i18n_lang lang);

/* The anchor of item (a page or question) of l: its English title as one word ("rung-9-in-the-
   code"), the same in every language, for finding the item again when pages around it change.
   Returns out. */
const char *lesson_item_anchor(const lesson *l, int item, char *out, size_t size);
#define LESSON_ANCHOR_MAX 129 /* room for an anchor read back from the progress file */

/* The page to reopen l at (0-based), from the learner's progress p: the page whose anchor was
   saved when it is still there, else the page number saved, kept within the lesson; -1 when none
   was saved. */
struct progress;
int lesson_resume_page(const lesson *l, const struct progress *p);
const char *lesson_demo_title(const lesson_demo *d, i18n_lang lang);

/* The lesson of the set that holds demo, or NULL. */
const lesson *lesson_of_demo(const lesson_set *set, const lesson_demo *demo);

/* "run", "compare", ... */
const char *lesson_demo_kind_name(demo_kind kind);

/* "pass", "wrong", "out-of-bounds", "any". */
const char *lesson_expect_name(demo_expect expect);

/* The lessons folder and the kernels folder: $CUDACHEF_LESSONS / $CUDACHEF_KERNELS, else
   lessons/ and kernels/ of the data folder (chef_data_dir). */
const char *lesson_default_dir(void);
const char *lesson_kernels_dir(void);

/* A path as people read it: relative to the current folder when it is inside it. */
const char *lesson_display_path(const char *path);

/* Reads a whole file into a NUL-terminated buffer (caller frees); NULL with errno on failure. */
char *lesson_read_file(const char *path, size_t *size);

/* The line (from 1) of the first problem of a text cudachef shows from its data, or 0 when there is
   none, with the problem in why: bytes that are not UTF-8, or a control character other than tab
   and the line ends (a terminal would obey it). */
int lesson_text_problem(const char *text, size_t len, char *why, size_t size);

/* Checks a kernel a lesson names (kernels = ..., <!-- kernel NAME -->): a plain name (letters,
   digits and '_': never a path) of a readable kernels_dir/NAME.cu that is clean text. 0, or -1
   with the problem in why. */
int lesson_kernel_ok(const char *kernels_dir, const char *name, char *why, size_t size);

/* Adds "file:line: message" to the set's problems (the loader's, and `list --check`'s for the
   exercises). */
void lesson_problem_add(lesson_set *set, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
