/*
 * progress.h - what the learner has done, kept across runs: pages reached, lessons read, demos
 * run, exercises passed. One plain-text file (docs/PROGRESS.md describes it) under
 * $XDG_STATE_HOME/cudachef/, or $CUDACHEF_STATE_HOME when set, always written whole to a
 * temporary file and renamed into place, so a crash or a kill leaves the old or the new version.
 */
#ifndef CUDACHEF_PROGRESS_H
#define CUDACHEF_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "base/chef.h"

/* The records of the file, in the order they were first made. Lines the program does not
   understand (from a newer version, or edited by hand) are kept as they are. */
typedef struct progress {
    char **lines;
    size_t count;
} progress;

/* How far a learner got with one lesson; later states include the earlier ones. */
typedef enum progress_state {
    PROGRESS_NOT_STARTED = 0,
    PROGRESS_STARTED,          /* some pages seen */
    PROGRESS_READ,             /* the last page reached */
    PROGRESS_DEMO_RUN,         /* a demo cooked */
    PROGRESS_EXERCISE_PASSED   /* an exercise passed */
} progress_state;

/* The progress file's path into out: 0, or -1 with err filled when no folder can be named. */
/* The learner's seed for the order of each question's choices: CUDACHEF_ANSWER_SEED when set (0:
   the files' order), else the number kept in the state folder (made at random on first use; a
   fixed one when it cannot be kept). Never 0 unless asked for. */
uint64_t progress_answer_seed(void);

int progress_path(char *out, size_t size, chef_error *err);

/* Reads the progress file into p (empty when there is none yet): 0, or -1 with err filled. */
int progress_load(progress *p, chef_error *err);

/* Frees what progress_load made. */
void progress_free(progress *p);

/* Records that the learner reached page (0-based) of lesson (a lesson's slug), with the page's
   anchor (lesson_item_anchor; NULL: none), which finds the page again after pages are added or
   split; reaching its last page of count also marks it read. 0, or -1 with err filled (the old
   file stays). */
int progress_page(const char *lesson, int page, int count, const char *anchor, chef_error *err);

/* Records "demo LESSON NAME" or "exercise LESSON NAME": 0, or -1 with err filled. */
int progress_mark(const char *kind, const char *lesson, const char *name, chef_error *err);

/* Forgets everything about lesson, or everything when lesson is NULL: 0, or -1 with err. */
int progress_reset(const char *lesson, chef_error *err);

/* The furthest a learner got with lesson. */
progress_state progress_state_of(const progress *p, const char *lesson);

/* The page last reached in lesson (0-based), or -1 when none. */
int progress_page_of(const progress *p, const char *lesson);

/* Copies the anchor saved with lesson's page into out: 0, or -1 when none was saved. */
int progress_anchor_of(const progress *p, const char *lesson, char *out, size_t size);

/* A state as a fixed word for programs: "not-started", "started", "read", "demo-run",
   "exercise-passed". */
const char *progress_state_key(progress_state state);

/* A state in a few words, in the learner's language. */
const char *progress_state_name(progress_state state);

#endif
