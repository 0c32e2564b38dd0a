/*
 * workspace.h - the learner's workspace: a folder with a copy of every exercise's starting kernel,
 * WORKSPACE/LESSON-ID/NAME.cu, apart from the originals (cudachef init makes it; reset puts one
 * exercise back as it started, keeping the learner's version beside it).
 */
#ifndef CUDACHEF_WORKSPACE_H
#define CUDACHEF_WORKSPACE_H

#include <stddef.h>

#include "base/chef.h"
#include "grading/exercise.h"

/* The workspace folder: given, else $CUDACHEF_WORKSPACE, else ~/cudachef-kitchen, into out.
   0 when it exists, or -1 with err (exit 2, the hint says to run cudachef init). */
int workspace_resolve(const char *given, char *out, size_t size, chef_error *err);

/* The default workspace folder (it may not exist yet) into out: 0, or -1 with err. */
int workspace_default(char *out, size_t size, chef_error *err);

/* WORKSPACE/LESSON-ID/NAME.cu. */
void workspace_exercise_path(const char *workspace, const exercise *ex, char *out, size_t size);

/* Makes the workspace dir with every exercise's starting file that is not there yet (a learner's
   file is never written over); *made gets how many were copied. 0, or -1 with err. */
int workspace_init(const char *dir, const exercise_set *set, int *made, chef_error *err);

/* Puts ex's starting file back in the workspace; the learner's version is first renamed to
   NAME.cu.N.bak (the first free N), whose name goes to saved. 0, or -1 with err. */
int workspace_reset(const char *workspace, const exercise *ex, char *saved, size_t size, chef_error *err);

#endif
