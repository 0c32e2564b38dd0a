/*
 * fuzz_lesson.c - the lesson loader (lesson.c, lesson_ini.c, lesson_text.c) and what shows a
 * loaded lesson (lesson_page.c, markdown.c, markdown_table.c), fed one lesson folder.
 *
 * Input: lesson.ini, en.md and ko.md, separated by FUZZ_SEPARATOR lines; a file left out is
 * missing from the folder. The folder is loaded as `cudachef list` loads lessons/; a lesson that
 * loads has every page and question made into Markdown (as `cudachef read` does, with and without
 * answers) and laid out for the screen and for plain text at a width taken from the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "lessons/lesson.h"
#include "lessons/lesson_page.h"
#include "lessons/markdown.h"

/* Lays out one piece of Markdown for both targets and frees it. */
static void fuzz_layout(char *md, int width, const lesson *l)
{
    for (int target = MD_TARGET_SCREEN; target <= MD_TARGET_PLAIN; target++) {
        md_doc doc;
        markdown_render(md, strlen(md), width, target, l->marks, l->nmarks, &doc);
        markdown_free(&doc);
    }
    free(md);
}

/* Shows every page and question of a loaded lesson, in both languages. */
static void fuzz_show(const lesson *l, int width)
{
    fuzz_layout(lesson_header_markdown(l), width, l);
    for (int lang = 0; lang < I18N_LANGS; lang++) {
        const lesson_text *t = lesson_text_in(l, (i18n_lang)lang);
        for (int i = 0; i < t->nitems; i++) {
            const lesson_item *it = &t->items[i];
            int flags = (i & 1) ? LESSON_PAGE_ANSWERS : LESSON_PAGE_HINT;
            fuzz_layout(lesson_page_markdown(l, it, flags, it->nchoices ? i % it->nchoices : -1), width, l);
        }
    }
    for (int d = 0; d < l->ndemos; d++) {
        lesson_demo_title(&l->demos[d], I18N_KO);
        lesson_demo_find(l, l->demos[d].name);
    }
}

FUZZ_TARGET(lesson)
{
    static const char *files[] = {"lesson.ini", "en.md", "ko.md"};
    char lessons[4200], path[4400];
    snprintf(lessons, sizeof lessons, "%s/lessons", fuzz_dir());
    fuzz_part parts[3];
    size_t n = fuzz_split(data, size, parts, 3);
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/01-fuzz/%s", lessons, files[i]);
        if (i < n)
            fuzz_write(path, parts[i].data, parts[i].size);
        else
            unlink(path);
    }
    char kernels[4200];
    snprintf(kernels, sizeof kernels, "%s/kernels", fuzz_source_dir());
    lesson_set set;
    chef_error err = {0};
    if (lesson_load_all(lessons, kernels, &set, &err) == 0) {
        int width = 16 + (int)(size % 97);
        for (int i = 0; i < set.count; i++)
            fuzz_show(&set.lessons[i], width);
        lesson_find(&set, "1");
        lesson_find(&set, "fuzz");
        lesson_problem_for(&set, "01-fuzz");
        lesson_problem_for(&set, "1");
    }
    lesson_set_free(&set);
    return 0;
}
