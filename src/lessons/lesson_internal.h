/*
 * lesson_internal.h - what the lesson loader's three files share: lesson.c (folders and sets),
 * lesson_ini.c (lesson.ini) and lesson_text.c (en.md and ko.md). The rest of the program uses
 * lesson.h only.
 */
#ifndef CUDACHEF_LESSON_INTERNAL_H
#define CUDACHEF_LESSON_INTERNAL_H

#include <stddef.h>

#include "lessons/lesson.h"

/* strdup that never returns NULL for a valid string (aborts the process when memory is gone). */
char *lesson_strdup(const char *s);

/* Appends a copy of value to a growable array of strings. */
void lesson_push(char ***array, int *count, const char *value);

/* A name is lower-case letters, digits and '-'. */
int lesson_name_ok(const char *s);

/* Reads folder/lesson.ini into l (lesson_ini.c); -1 after adding the problems to set. */
int lesson_read_ini(const char *folder, const char *kernels_dir, lesson *l, lesson_set *set);

/* Reads one language's text, folder/LANG.md (lesson_text.c); ini_ok says lesson.ini loaded, so demo
   names can be checked. -1 after adding the problems to set. */
int lesson_read_text(const char *folder, const char *kernels_dir, lesson *l, i18n_lang lang, int ini_ok,
                     lesson_set *set);

/* Checks that the Korean text has the English one's pages, questions and demos, and that every demo
   is placed on a page (lesson_text.c); -1 after adding the problems to set. */
int lesson_compare_texts(const lesson *l, lesson_set *set);

/* Reads a lesson file as UTF-8 text, or adds its problem to set and returns NULL. */
char *lesson_read_text_file(const char *path, const char *missing, lesson_set *set, size_t *len);

#endif
