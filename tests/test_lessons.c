/*
 * test_lessons.c - the lesson loader (lesson.c), the Markdown layout (markdown.c) and the
 * interface strings (i18n.c).
 *
 * A valid lesson is written to a temporary folder, then broken one way at a time: each kind of
 * malformed file must give its own problem naming the file and the line, and the other lessons
 * must still load. Then the real lessons/ folder: every lesson loads, in both languages, with the
 * same pages, questions and demos, and every question has one right choice and an explanation per
 * choice. Every Korean interface string keeps its English printf conversions.
 */
#include <dirent.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/i18n.h"
#include "lessons/lesson.h"
#include "lessons/lesson_page.h"
#include "lessons/lesson_run.h"
#include "lessons/markdown.h"
#include "base/text.h"
#include "test_tree.h"

static const char valid_ini[] =
    "; a test lesson\n"
    "[lesson]\n"
    "title.en = Test lesson\n"
    "title.ko = 시험 수업\n"
    "summary.en = A lesson for the tests.\n"
    "summary.ko = 시험용 수업.\n"
    "kernels = vector_add\n"
    "marks = global-index bounds-check\n"
    "\n"
    "[demo tiny]\n"
    "title.en = Four elements\n"
    "title.ko = 원소 네 개\n"
    "kind = run\n"
    "recipe = vector-add\n"
    "n = 4\n"
    "threads-per-block = 4\n";

static const char valid_en[] =
    "# First page\n"
    "\n"
    "Some *text* with `code`.\n"
    "\n"
    "```c\n"
    "# not a page: inside a code block\n"
    "```\n"
    "\n"
    "<!-- demo tiny -->\n"
    "\n"
    "# Second page\n"
    "\n"
    "<!-- kernel vector_add -->\n"
    "\n"
    "# ? Which one is the head chef?\n"
    "\n"
    "- [x] The CPU\n"
    "  Right: it does complex work one step at a time.\n"
    "- [ ] The GPU\n"
    "  No: the GPU is the kitchen of many cooks.\n";

static const char valid_ko[] =
    "# 첫 페이지\n"
    "\n"
    "*글*과 `코드`.\n"
    "\n"
    "<!-- demo tiny -->\n"
    "\n"
    "# 두 번째 페이지\n"
    "\n"
    "<!-- kernel vector_add -->\n"
    "\n"
    "# ? 총괄 셰프는 누구일까요?\n"
    "\n"
    "- [x] CPU\n"
    "  맞습니다.\n"
    "- [ ] GPU\n"
    "  아닙니다.\n";

static char tmp_root[256];

/* The repository's kernels folder. */
static const char *kernels_dir(void)
{
    static char dir[512];
    snprintf(dir, sizeof dir, "%s/kernels", test_source_dir());
    return dir;
}

/* Writes text to root/lesson/file, making the folders. */
static void write_file(const char *lesson, const char *file, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmp_root, lesson);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s", tmp_root, lesson, file);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Removes the temporary lessons folder. */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Makes a fresh temporary lessons folder with one valid lesson, 01-good. */
static int setup_tree(void **state)
{
    (void)state;
    snprintf(tmp_root, sizeof tmp_root, "%s/cudachef-lessons-%ld", test_tmp_dir(), (long)getpid());
    remove_tree(tmp_root);
    mkdir(tmp_root, 0755);
    write_file("01-good", "lesson.ini", valid_ini);
    write_file("01-good", "en.md", valid_en);
    write_file("01-good", "ko.md", valid_ko);
    return 0;
}

/* Removes the temporary lessons folder. */
static int teardown_tree(void **state)
{
    (void)state;
    remove_tree(tmp_root);
    return 0;
}

/* Replaces the first occurrence of from in text with to (static buffer). */
static const char *replace(const char *text, const char *from, const char *to)
{
    static char out[8192];
    const char *at = strstr(text, from);
    assert_non_null(at);
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* Loads the temporary folder. */
static void load(lesson_set *set)
{
    chef_error err;
    assert_int_equal(lesson_load_all(tmp_root, kernels_dir(), set, &err), 0);
}

/* Finds a problem whose file ends with file, at line, containing words; fails if none. */
static void expect_problem(const lesson_set *set, const char *file, int line, const char *words)
{
    for (int i = 0; i < set->nproblems; i++) {
        const lesson_problem *p = &set->problems[i];
        size_t fl = strlen(p->file), wl = strlen(file);
        if (fl >= wl && strcmp(p->file + fl - wl, file) == 0 && p->line == line && strstr(p->message, words))
            return;
    }
    for (int i = 0; i < set->nproblems; i++)
        print_message("problem: %s:%d: %s\n", set->problems[i].file, set->problems[i].line, set->problems[i].message);
    fail_msg("expected a problem %s:%d containing '%s'", file, line, words);
}

/* The valid lesson loads with its pages, question and demo, in both languages. */
static void test_valid_lesson_loads(void **state)
{
    (void)state;
    lesson_set set;
    load(&set);
    assert_int_equal(set.nproblems, 0);
    assert_int_equal(set.count, 1);
    const lesson *l = lesson_find(&set, "1");
    assert_non_null(l);
    assert_ptr_equal(lesson_find(&set, "01"), l);
    assert_ptr_equal(lesson_find(&set, "good"), l);
    assert_ptr_equal(lesson_find(&set, "01-good"), l);
    assert_null(lesson_find(&set, "2"));
    assert_string_equal(l->title[I18N_KO], "시험 수업");
    for (int lang = 0; lang < I18N_LANGS; lang++) {
        const lesson_text *t = &l->text[lang];
        assert_int_equal(t->npages, 2);
        assert_int_equal(t->nquestions, 1);
        assert_int_equal(t->items[0].ndemos, 1);
        assert_string_equal(t->items[0].demos[0], "tiny");
        assert_int_equal(t->items[1].nkernels, 1);
        assert_int_equal(t->items[2].nchoices, 2);
        assert_true(t->items[2].choices[0].right);
        assert_false(t->items[2].choices[1].right);
        assert_non_null(t->items[2].choices[1].explanation);
    }
    /* a '#' line inside a code block is not a page */
    assert_non_null(strstr(l->text[I18N_EN].items[0].body, "# not a page"));
    assert_string_equal(l->text[I18N_EN].items[2].title, "Which one is the head chef?");
    const lesson_demo *d = lesson_demo_find(l, "tiny");
    assert_non_null(d);
    assert_int_equal(d->kind, DEMO_RUN);
    assert_int_equal(d->n, 4);
    assert_int_equal(d->line, 10);
    lesson_set_free(&set);
}

typedef struct bad_case {
    const char *file;     /* which file of 02-bad is changed */
    const char *from, *to; /* the change, applied to the valid text */
    int line;             /* the line the problem must name (0: the whole file) */
    const char *words;    /* what the message must say */
} bad_case;

static const bad_case bad_cases[] = {
    {"lesson.ini", "title.ko = 시험 수업\n", "", 0, "needs title.ko"},
    {"lesson.ini", "kind = run", "kind = dance", 13, "kind = dance"},
    {"lesson.ini", "recipe = vector-add", "recipe = soup", 14, "no such recipe"},
    {"lesson.ini", "n = 4", "n = many", 15, "expected a whole number"},
    {"lesson.ini", "n = 4", "n = -3", 15, "expected a whole number"},
    {"lesson.ini", "threads-per-block = 4", "threads-per-block = 4096", 16, "1 to 1024"},
    {"lesson.ini", "n = 4", "colour = red", 15, "unknown key 'colour'"},
    {"lesson.ini", "[demo tiny]", "[soup]", 10, "unknown section [soup]"},
    {"lesson.ini", "[demo tiny]", "[demo Tiny!]", 10, "lower-case"},
    {"lesson.ini", "kernels = vector_add", "kernels = no_such_kernel", 7, "no_such_kernel"},
    {"lesson.ini", "marks = global-index", "marks = no-such-mark", 0, "mark 'no-such-mark'"},
    {"lesson.ini", "title.en = Test lesson", "title.fr = Leçon", 3, "en or ko"},
    {"lesson.ini", "title.en = Test lesson", "this line is not ini", 3, "not an INI line"},
    {"lesson.ini", "title.en = Test lesson",
     "title.en = A title so long that it does not fit in one line of an INI file read by inih, which keeps at most "
     "two hundred bytes on each line, so the loader must say so and say how to continue the value instead",
     3, "longer than"},
    {"lesson.ini", "title.en = Test lesson", "title.en = Test \xff lesson", 3, "UTF-8"},
    {"lesson.ini", "kind = run\nrecipe = vector-add\n", "kind = compare\n", 10, "two or more recipes"},
    {"en.md", "# First page\n", "Text before any page.\n# First page\n", 1, "before the first page"},
    {"en.md", "<!-- demo tiny -->", "<!-- demo huge -->", 9, "demo 'huge'"},
    {"en.md", "<!-- kernel vector_add -->", "<!-- kernel no_such -->", 13, "kernel 'no_such'"},
    {"en.md", "- [ ] The GPU", "- [x] The GPU", 15, "exactly one right choice"},
    {"en.md", "- [x] The CPU", "- [ ] The CPU", 15, "exactly one right choice"},
    {"en.md", "  No: the GPU is the kitchen of many cooks.\n", "", 19, "no explanation"},
    {"en.md", "- [ ] The GPU\n  No: the GPU is the kitchen of many cooks.\n", "", 15, "at least two choices"},
    {"en.md", "  No: the GPU is the kitchen of many cooks.\n", "  No.\nA stray line.\n", 21, "after the choices"},
    {"en.md", "```c\n# not", "```c\n# not\n```c", 0, ""}, /* placeholder replaced below */
    {"en.md", "# Second page", "# ", 11, "needs a title"},
    {"en.md", "# ? Which one is the head chef?", "# ?", 15, "question needs its text"},
    {"ko.md", "# 두 번째 페이지\n", "", 1, "shows kernels (vector_add)"},
    {"ko.md", "# 두 번째 페이지\n\n<!-- kernel vector_add -->\n", "<!-- kernel vector_add -->\n", 1, "shows kernels"},
    {"ko.md", "# ? 총괄", "# 총괄", 11, "item 3 is a page here but a question"},
    {"ko.md", "<!-- demo tiny -->\n", "", 1, "places demos (none)"},
    {"ko.md", "- [x] CPU\n  맞습니다.\n- [ ] GPU", "- [ ] CPU\n  맞습니다.\n- [x] GPU", 13, "choice 1 is wrong here"},
    {"ko.md", "  아닙니다.\n", "  아닙니다.\n- [ ] TPU\n  아닙니다.\n", 11, "3 choices"},
    {"ko.md", "# 첫 페이지", "# 첫 \xe0\x80 페이지", 1, "UTF-8"},
    {"en.md", "# Second page\n", "# \r\n", 11, "needs a title"},     /* CRLF: an empty title is still empty */
    {"lesson.ini", "n = 4", "emu.n = 2", 10, "n as well as emu.n"},
    {"lesson.ini", "kind = run\nrecipe = vector-add", "kind = clock\nrecipe = matmul-library", 10, "a recipe of ours"},
    {"lesson.ini", "marks = global-index", "marks = Global_Index", 8, "a mark name is"},
};

/* Every kind of malformed file gives its problem at its line, and the good lesson still loads. */
static void test_malformed_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        if (!*c->words)
            continue;
        const char *base = strcmp(c->file, "lesson.ini") == 0 ? valid_ini : strcmp(c->file, "en.md") == 0 ? valid_en : valid_ko;
        write_file("02-bad", "lesson.ini", valid_ini);
        write_file("02-bad", "en.md", valid_en);
        write_file("02-bad", "ko.md", valid_ko);
        write_file("02-bad", c->file, replace(base, c->from, c->to));
        lesson_set set;
        load(&set);
        print_message("case %zu: %s\n", i, c->words);
        expect_problem(&set, c->file, c->line, c->words);
        /* the broken lesson is left out, the good one loads */
        assert_int_equal(set.count, 1);
        assert_string_equal(set.lessons[0].id, "01-good");
        lesson_set_free(&set);
    }
}

/* A value continued on the next line (indented) adds to it, also for a list of sizes. */
static void test_continued_values(void **state)
{
    (void)state;
    write_file("02-race", "lesson.ini",
               "[lesson]\ntitle.en = Race\ntitle.ko = 경주\n[demo race]\ntitle.en = A race\ntitle.ko = 경주\n"
               "kind = race\nrecipes = matmul-tiled\nsizes = 8 16\n  24 32\n");
    write_file("02-race", "en.md", "# Page\n\r\n<!-- demo race -->\r\n");
    write_file("02-race", "ko.md", "# 페이지\n\n<!-- demo race -->\n");
    lesson_set set;
    load(&set);
    assert_int_equal(set.nproblems, 0);
    const lesson *l = lesson_find(&set, "2");
    assert_non_null(l);
    const lesson_demo *d = lesson_demo_find(l, "race");
    assert_int_equal(d->nsizes, 4);
    assert_int_equal(d->sizes[0], 8);
    assert_int_equal(d->sizes[3], 32);
    lesson_set_free(&set);
}

/* An unclosed code block, a missing file and a badly named folder are problems too. */
static void test_broken_folders(void **state)
{
    (void)state;
    lesson_set set;
    write_file("02-bad", "lesson.ini", valid_ini);
    write_file("02-bad", "en.md", replace(valid_en, "```c\n# not a page: inside a code block\n```\n", "```c\nint x;\n"));
    write_file("02-bad", "ko.md", valid_ko);
    load(&set);
    expect_problem(&set, "02-bad/en.md", 5, "never closed");
    assert_int_equal(set.count, 1);
    lesson_set_free(&set);

    write_file("02-bad", "en.md", valid_en);
    char path[1024];
    snprintf(path, sizeof path, "%s/02-bad/ko.md", tmp_root);
    unlink(path);
    load(&set);
    expect_problem(&set, "02-bad/ko.md", 0, "cannot read");
    lesson_set_free(&set);

    write_file("Bad Name", "lesson.ini", valid_ini);
    write_file("03-dup", "lesson.ini", valid_ini);
    write_file("03-dup", "en.md", valid_en);
    write_file("03-dup", "ko.md", valid_ko);
    write_file("01-again", "lesson.ini", valid_ini);
    write_file("01-again", "en.md", valid_en);
    write_file("01-again", "ko.md", valid_ko);
    load(&set);
    expect_problem(&set, "Bad Name", 0, "NN-slug");
    expect_problem(&set, "01-good", 0, "number 01 is taken");
    assert_int_equal(set.count, 2); /* 01-again and 03-dup */
    lesson_set_free(&set);

    chef_error err;
    assert_int_equal(lesson_load_all("/nonexistent/lessons", kernels_dir(), &set, &err), -1);
    assert_int_equal(err.exit_code, CHEF_EXIT_ENVIRONMENT);
    assert_non_null(strstr(err.message, "/nonexistent/lessons"));
    lesson_set_free(&set);
}

/* The emulator's smaller values apply only where the learner did not choose. */
static void test_demo_params(void **state)
{
    (void)state;
    lesson_demo d;
    memset(&d, 0, sizeof d);
    d.recipe = "matmul-naive";
    d.n = 1024;
    d.emu_n = 192;
    d.repeat = 3;
    d.seed = -1;
    demo_overrides o;
    memset(&o, 0, sizeof o);
    demo_params p;
    demo_reduction r;
    char reduced[512];
    lesson_demo_params(&d, &o, 1, &p, &r);
    lesson_reduction_text(&r, reduced, sizeof reduced);
    assert_int_equal(p.run.n, 192);
    assert_int_equal(p.run.repeat, 3);
    assert_non_null(strstr(reduced, "1024"));
    assert_string_equal(lesson_reduction_code(&r), "n");
    lesson_demo_params(&d, &o, 0, &p, &r);
    lesson_reduction_text(&r, reduced, sizeof reduced);
    assert_int_equal(p.run.n, 1024);
    assert_string_equal(reduced, "");
    o.n = 1;
    o.p.n = 300;
    lesson_demo_params(&d, &o, 1, &p, &r);
    lesson_reduction_text(&r, reduced, sizeof reduced);
    assert_int_equal(p.run.n, 300);
    assert_string_equal(reduced, "");
    /* expectations */
    d.expect = EXPECT_OUT_OF_BOUNDS;
    d.gpu_expect = EXPECT_ANY;
    d.gpu_expect_given = 1;
    assert_int_equal(lesson_demo_expected(&d, 0), EXPECT_OUT_OF_BOUNDS);
    assert_int_equal(lesson_demo_expected(&d, 1), EXPECT_ANY);
    assert_true(lesson_outcome_matches(EXPECT_ANY, OUTCOME_PASSED));
    assert_true(lesson_outcome_matches(EXPECT_ANY, OUTCOME_WRONG));
    assert_false(lesson_outcome_matches(EXPECT_ANY, OUTCOME_ERROR));
    assert_false(lesson_outcome_matches(EXPECT_WRONG, OUTCOME_PASSED));
    assert_false(lesson_outcome_matches(EXPECT_PASS, OUTCOME_OUT_OF_BOUNDS));
}

/* The real lessons: all load, both languages match, every question is well formed. */
static void test_real_lessons(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/lessons", test_source_dir());
    lesson_set set;
    chef_error err;
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &set, &err), 0);
    for (int i = 0; i < set.nproblems; i++)
        print_message("%s:%d: %s\n", set.problems[i].file, set.problems[i].line, set.problems[i].message);
    assert_int_equal(set.nproblems, 0);
    assert_int_equal(set.count, 21);
    for (int i = 0; i < set.count; i++) {
        const lesson *l = &set.lessons[i];
        assert_int_equal(l->number, i + 1); /* numbered 1, 2, 3, ... with none left out */
        assert_true(l->ndemos >= 1);
        const lesson_text *en = &l->text[I18N_EN], *ko = &l->text[I18N_KO];
        assert_int_equal(en->nitems, ko->nitems);
        assert_true(en->npages >= 3);
        assert_true(en->nquestions >= 2);
        for (int k = 0; k < en->nitems; k++) {
            assert_int_equal(en->items[k].kind, ko->items[k].kind);
            assert_int_equal(en->items[k].ndemos, ko->items[k].ndemos);
            if (en->items[k].kind != ITEM_QUESTION)
                continue;
            int right = 0;
            assert_int_equal(en->items[k].nchoices, ko->items[k].nchoices);
            for (int c = 0; c < en->items[k].nchoices; c++) {
                right += en->items[k].choices[c].right;
                assert_int_equal(en->items[k].choices[c].right, ko->items[k].choices[c].right);
                assert_true(strlen(en->items[k].choices[c].explanation) > 10);
                assert_true(strlen(ko->items[k].choices[c].explanation) > 5);
            }
            assert_int_equal(right, 1);
        }
        for (int d = 0; d < l->ndemos; d++) {
            assert_non_null(l->demos[d].title[I18N_EN]);
            assert_non_null(l->demos[d].title[I18N_KO]);
        }
        /* Korean text is Korean: it holds Hangul */
        int hangul = 0;
        for (int k = 0; k < ko->nitems && !hangul; k++)
            hangul = strstr(ko->items[k].title, "\xea") || strstr(ko->items[k].title, "\xeb") ||
                     strstr(ko->items[k].title, "\xec") || strstr(ko->items[k].title, "\xed");
        assert_true(hangul);
    }
    lesson_set_free(&set);
}

/* The position of the right choice of every question of the set, in order, into pos (at most max):
   returns how many questions. */
static int right_positions(const lesson_set *set, i18n_lang lang, int *pos, int max)
{
    int n = 0;
    for (int i = 0; i < set->count; i++)
        for (int k = 0; k < set->lessons[i].text[lang].nitems; k++) {
            const lesson_item *it = &set->lessons[i].text[lang].items[k];
            for (int c = 0; it->kind == ITEM_QUESTION && c < it->nchoices && n < max; c++)
                if (it->choices[c].right)
                    pos[n++] = c;
        }
    return n;
}

/* The choices' order: the same seed gives the same order on every load, in English and Korean
   alike (the same choice at each place, its explanation with it); seed 0 keeps the files' order;
   another seed gives another; the right answers are spread over the places, in the files (the
   order a classroom sees) and shuffled. */
static void test_answer_order(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/lessons", test_source_dir());
    lesson_set file, a, b, c;
    chef_error err;
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &file, &err), 0);
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &a, &err), 0);
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &b, &err), 0);
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &c, &err), 0);
    lesson_shuffle_choices(&a, 7);
    lesson_shuffle_choices(&b, 7);
    lesson_shuffle_choices(&c, 0);
    int pf[400], pa[400], pb[400], pc[400], pk[400];
    int n = right_positions(&file, I18N_EN, pf, 400);
    assert_true(n >= 40);
    assert_int_equal(right_positions(&a, I18N_EN, pa, 400), n);
    assert_int_equal(right_positions(&b, I18N_EN, pb, 400), n);
    assert_int_equal(right_positions(&c, I18N_EN, pc, 400), n);
    assert_int_equal(right_positions(&a, I18N_KO, pk, 400), n);
    assert_memory_equal(pa, pb, sizeof(int) * (size_t)n);
    assert_memory_equal(pa, pk, sizeof(int) * (size_t)n);
    assert_memory_equal(pf, pc, sizeof(int) * (size_t)n);
    int moved = 0, at_file[8] = {0}, at_shuffled[8] = {0};
    for (int i = 0; i < n; i++) {
        moved += pa[i] != pf[i];
        at_file[pf[i]]++;
        at_shuffled[pa[i]]++;
    }
    assert_true(moved > n / 4);
    /* over many learners (seeds), no place holds more than 30% of the right answers (4 places:
       25% each when fair); in the files, no place more than 40% */
    for (uint64_t seed = 1; seed <= 32; seed++) {
        lesson_set s;
        assert_int_equal(lesson_load_all(dir, kernels_dir(), &s, &err), 0);
        lesson_shuffle_choices(&s, seed);
        int ps[400];
        assert_int_equal(right_positions(&s, I18N_EN, ps, 400), n);
        for (int i = 0; i < n; i++)
            at_shuffled[ps[i]]++;
        lesson_set_free(&s);
    }
    for (int p = 0; p < 8; p++) {
        assert_true(at_file[p] * 10 <= n * 4);
        assert_true(at_shuffled[p] * 10 <= (n * 33) * 3);
    }
    /* the choices travel whole: a shuffled choice is one of the file's, with its own explanation */
    const lesson_item *fi = NULL, *ai = NULL;
    for (int k = 0; k < file.lessons[0].text[I18N_EN].nitems && !fi; k++)
        if (file.lessons[0].text[I18N_EN].items[k].kind == ITEM_QUESTION) {
            fi = &file.lessons[0].text[I18N_EN].items[k];
            ai = &a.lessons[0].text[I18N_EN].items[k];
        }
    assert_non_null(fi);
    for (int x = 0; x < ai->nchoices; x++) {
        int found = 0;
        for (int y = 0; y < fi->nchoices; y++)
            found |= strcmp(ai->choices[x].text, fi->choices[y].text) == 0 &&
                     strcmp(ai->choices[x].explanation, fi->choices[y].explanation) == 0 &&
                     ai->choices[x].right == fi->choices[y].right;
        assert_true(found);
    }
    lesson_set_free(&file);
    lesson_set_free(&a);
    lesson_set_free(&b);
    lesson_set_free(&c);
}

/* The printf conversions of a format, in order ("%d%s%.2f"). */
static void conversions(const char *fmt, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = fmt; *p && n + 8 < size; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        out[n++] = '%';
        while (*p && !strchr("diouxXeEfgGcspzl", *p))
            p++;
        while (*p && strchr("zl", *p))
            out[n++] = *p++;
        if (*p)
            out[n++] = *p;
        if (!*p)
            break;
    }
    out[n] = '\0';
}

/* Every Korean interface string keeps the conversions of its English original. */
static void test_translations_keep_conversions(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/assets/i18n/ko", test_source_dir());
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int files = 0, strings = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_error_t jerr;
        json_t *o = json_load_file(path, 0, &jerr);
        if (!o)
            fail_msg("%s:%d: %s", path, jerr.line, jerr.text);
        assert_true(json_is_object(o));
        files++;
        const char *key;
        json_t *value;
        json_object_foreach(o, key, value) {
            assert_true(json_is_string(value));
            char a[128], b[128];
            conversions(key, a, sizeof a);
            conversions(json_string_value(value), b, sizeof b);
            if (strcmp(a, b) != 0)
                fail_msg("%s: \"%s\" has conversions %s but its translation has %s", e->d_name, key, a, b);
            strings++;
        }
        json_decref(o);
    }
    closedir(d);
    assert_true(files >= 1);
    assert_true(strings >= 20);
    /* lookups: Korean when loaded, English otherwise */
    assert_int_equal(i18n_init(I18N_KO, test_source_dir()), 0);
    assert_string_not_equal(i18n_get("=> As expected: the taste passed."), "=> As expected: the taste passed.");
    assert_string_equal(i18n_get("a string nobody translated"), "a string nobody translated");
    i18n_init(I18N_EN, test_source_dir());
    assert_string_equal(i18n_get("=> As expected: the taste passed."), "=> As expected: the taste passed.");
    i18n_lang lang;
    assert_int_equal(i18n_parse("ko", &lang), 0);
    assert_int_equal(lang, I18N_KO);
    assert_int_equal(i18n_parse("fr", &lang), -1);
    setenv("LANGUAGE", "", 1);
    setenv("LC_ALL", "ko_KR.UTF-8", 1);
    assert_int_equal(i18n_from_environment(), I18N_KO);
    setenv("LC_ALL", "C", 1);
    assert_int_equal(i18n_from_environment(), I18N_EN);
}

/* Every English string the program looks up has its Korean (scripts/i18n-extract.py --missing),
   and every Korean table holds only strings the program still looks up (--unused). */
static void test_every_string_translated(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && python3 -B scripts/i18n-extract.py --missing assets/i18n/ko src/*.c src/*/*.c >/tmp/i18n-missing.$$ 2>&1;"
             " rc=$?; cat /tmp/i18n-missing.$$; rm -f /tmp/i18n-missing.$$;"
             " for f in assets/i18n/ko/*.json; do python3 -B scripts/i18n-extract.py --unused \"$f\" src/*.c src/*/*.c"
             " >/dev/null || { echo \"$f has strings nothing looks up:\";"
             " python3 -B scripts/i18n-extract.py --unused \"$f\" src/*.c src/*/*.c; rc=1; }; done; exit $rc",
             test_source_dir());
    int rc = system(cmd);
    assert_int_equal(rc, 0);
}

/* Concatenates a laid-out line's spans. */
static void line_text(const md_line *l, char *out, size_t size)
{
    out[0] = '\0';
    for (int i = 0; i < l->nspans; i++)
        strncat(out, l->spans[i].text, size - strlen(out) - 1);
}

/* Markdown is wrapped by display width, tables aligned, marked code lines flagged. */
static void test_markdown_layout(void **state)
{
    (void)state;
    const char *md = "# Title\n\n"
                     "one two three four five six seven eight nine ten eleven twelve\n\n"
                     "가나다라 마바사아 자차카타 파하가나 다라마바\n\n"
                     "| a | 한국어 |\n|---|---|\n| x | 요리사 |\n\n"
                     "```c\nint i = 0; /* @mark global-index */\nint j;\n```\n\n"
                     "- item `code here`\n\n"
                     "words words `run 1 --demo x` more\n";
    char *marks[] = {"global-index"};
    md_doc doc;
    assert_int_equal(markdown_render(md, strlen(md), 24, MD_TARGET_SCREEN, marks, 1, &doc), 0);
    char text[512];
    int saw_heading = 0, saw_mark = 0, saw_unmarked_code = 0, saw_table = 0, saw_code_span = 0;
    for (int i = 0; i < doc.nlines; i++) {
        const md_line *l = &doc.lines[i];
        line_text(l, text, sizeof text);
        /* nothing wider than the page, Hangul counted as two columns */
        assert_true(text_width(text, strlen(text)) <= 24 || (l->style & MD_STYLE_CODE));
        if (strcmp(text, "Title") == 0 && (l->style & MD_STYLE_HEADING))
            saw_heading = 1;
        if ((l->style & MD_STYLE_MARK) && strstr(text, "int i"))
            saw_mark = 1;
        if ((l->style & MD_STYLE_CODE) && !(l->style & MD_STYLE_MARK) && strstr(text, "int j"))
            saw_unmarked_code = 1;
        if (strstr(text, "x │ 요리사"))
            saw_table = 1;
        for (int k = 0; k < l->nspans; k++)
            if ((l->spans[k].style & MD_STYLE_CODE) && strcmp(l->spans[k].text, "code here") == 0)
                saw_code_span = 1;
    }
    assert_true(saw_heading);
    assert_true(saw_mark);
    assert_true(saw_unmarked_code);
    assert_true(saw_table);
    assert_true(saw_code_span);
    assert_int_equal(text_width("요리사", strlen("요리사")), 6);
    assert_int_equal(text_width("cook", 4), 4);
    markdown_free(&doc);
    /* for plain text, inline code keeps its backticks and they count in the width */
    assert_int_equal(markdown_render(md, strlen(md), 24, MD_TARGET_PLAIN, marks, 1, &doc), 0);
    int saw_ticks = 0, saw_whole = 0;
    for (int i = 0; i < doc.nlines; i++) {
        line_text(&doc.lines[i], text, sizeof text);
        assert_true(text_width(text, strlen(text)) <= 24 || (doc.lines[i].style & MD_STYLE_CODE));
        saw_ticks |= strstr(text, "`code here`") != NULL;
        saw_whole |= strstr(text, "`run 1 --demo x`") != NULL; /* a code span is not broken */
    }
    assert_true(saw_ticks);
    assert_true(saw_whole);
    markdown_free(&doc);
    /* quotes and lists nested deeper than the layout follows are laid out, not a crash */
    char deep[600] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "> ");
    strcat(deep, "deep\n\n> again\n");
    assert_int_equal(markdown_render(deep, strlen(deep), 40, MD_TARGET_PLAIN, NULL, 0, &doc), 0);
    int saw_again = 0;
    for (int i = 0; i < doc.nlines; i++) {
        line_text(&doc.lines[i], text, sizeof text);
        saw_again |= strstr(text, "again") != NULL;
    }
    assert_true(saw_again);
    markdown_free(&doc);
    /* a word in a table cell is not cut while the table can fit by wrapping between words */
    const char *tbl = "| name | what it does |\n|---|---|\n"
                      "| `nvrtcCompileProgram` | compiles CUDA C source text into code for the GPU at run time |\n";
    assert_int_equal(markdown_render(tbl, strlen(tbl), 40, MD_TARGET_PLAIN, NULL, 0, &doc), 0);
    int whole = 0;
    for (int i = 0; i < doc.nlines; i++) {
        line_text(&doc.lines[i], text, sizeof text);
        assert_true(text_width(text, strlen(text)) <= 40);
        whole |= strstr(text, "`nvrtcCompileProgram`") != NULL;
    }
    assert_true(whole);
    markdown_free(&doc);
    /* a table of more columns than any fixed limit keeps them all */
    char wide[2000] = "";
    for (int pass = 0; pass < 3; pass++) {
        for (int c = 0; c < 70; c++)
            strcat(wide, pass == 1 ? "|-" : "|x");
        strcat(wide, "|\n");
    }
    assert_int_equal(markdown_render(wide, strlen(wide), 400, MD_TARGET_PLAIN, NULL, 0, &doc), 0);
    line_text(&doc.lines[doc.nlines - 1], text, sizeof text);
    int xs = 0;
    for (char *q = text; *q; q++)
        xs += *q == 'x';
    assert_int_equal(xs, 70);
    markdown_free(&doc);
}

/* The text of a laid-out line after its first n columns of prefix ("    ", ">>  "), or "" if shorter. */
static const char *line_after(const char *text, size_t n)
{
    return strlen(text) >= n ? text + n : "";
}

/* On the screen a line of code wider than the page goes on in lines that keep its indentation and
   start with "↪ ", broken at a space or after punctuation, marked lines marked on every piece;
   plain text keeps it whole. `@mark` comments are never shown, a note after "NAME:" stays.
   A choice's wrapped lines hang under its text. */
static void test_markdown_code_wrap(void **state)
{
    (void)state;
    const char *md = "```c\n"
                     "int i = blockIdx.x * blockDim.x + threadIdx.x; /* @mark global-index */\n"
                     "    if (i < n) {          /* @mark bounds-check */\n"
                     "    int row = 0; /* @mark row-from-x: rows n apart */\n"
                     "    call_something(first_argument, second_argument, third_argument);\n"
                     "    anIdentifierFarTooLongForAnyLineOfFortyColumnsToHoldInOnePiece = 1;\n"
                     "    // @mark other-lessons-mark\n"
                     "```\n";
    char *marks[] = {"global-index", "bounds-check", "row-from-x"};
    md_doc doc;
    char text[512];
    assert_int_equal(markdown_render(md, strlen(md), 40, MD_TARGET_SCREEN, marks, 3, &doc), 0);
    int marked_pieces = 0, call_pieces = 0, long_pieces = 0;
    for (int i = 0; i < doc.nlines; i++) {
        const md_line *l = &doc.lines[i];
        line_text(l, text, sizeof text);
        assert_true(text_width(text, strlen(text)) <= 40);
        assert_null(strstr(text, "@mark"));
        assert_null(strstr(text, "other-lessons-mark"));
        const char *code = line_after(text, 4);
        int more = strstr(code, "↪ ") != NULL;
        if (more) /* a continuation: the code's own indentation, then the mark */
            assert_true(strncmp(code, "↪ ", strlen("↪ ")) == 0 || strncmp(code, "    ↪ ", strlen("    ↪ ")) == 0);
        if (strstr(text, "int i =")) {
            assert_true(l->style & MD_STYLE_MARK);
            assert_true(strncmp(text, ">>  int i =", 11) == 0);
            /* the pieces of the marked line: marked too, and no word cut */
            int k = i + 1;
            for (; k < doc.nlines; k++) {
                line_text(&doc.lines[k], text, sizeof text);
                if (strncmp(text, "    ↪ ", strlen("    ↪ ")) != 0)
                    break;
                assert_true(doc.lines[k].style & MD_STYLE_MARK);
                marked_pieces++;
            }
            line_text(l, text, sizeof text);
            assert_true(marked_pieces >= 1);
            char joined[512] = "";
            for (int j = i; j < k; j++) {
                line_text(&doc.lines[j], text, sizeof text);
                const char *piece = j == i ? line_after(text, 4) : line_after(text, 4 + strlen("↪ "));
                strcat(joined, j == i ? "" : " ");
                strcat(joined, piece);
            }
            assert_string_equal(joined, "int i = blockIdx.x * blockDim.x + threadIdx.x;");
        }
        if (strstr(text, "if (i < n) {")) {
            assert_true(l->style & MD_STYLE_MARK);
            assert_string_equal(text, ">>      if (i < n) {"); /* the comment and the spaces before it gone */
        }
        if (strstr(text, "call_something") || (more && strstr(text, "_argument"))) {
            call_pieces++;
            size_t n = strlen(text);
            assert_true(text[n - 1] == ',' || text[n - 1] == '(' || text[n - 1] == ';'); /* after punctuation */
        }
        if (strstr(text, "anIdentifier") || (more && strstr(text, "Piece")) || (more && strstr(text, "Columns")))
            long_pieces++;
    }
    assert_true(call_pieces >= 2);
    assert_true(long_pieces >= 2); /* no space or punctuation: cut where the page ends */
    markdown_free(&doc);
    /* wide enough, and for plain text: each line whole, the note kept */
    for (int target = MD_TARGET_SCREEN; target <= MD_TARGET_PLAIN; target++) {
        assert_int_equal(markdown_render(md, strlen(md), target == MD_TARGET_PLAIN ? 40 : 100, target, marks, 3, &doc), 0);
        int saw_note = 0, saw_whole = 0;
        for (int i = 0; i < doc.nlines; i++) {
            line_text(&doc.lines[i], text, sizeof text);
            assert_null(strstr(text, "@mark"));
            assert_null(strstr(text, "↪"));
            if (strcmp(text, ">>      int row = 0; /* rows n apart */") == 0)
                saw_note = 1;
            if (strcmp(text, ">>  int i = blockIdx.x * blockDim.x + threadIdx.x;") == 0)
                saw_whole = 1;
        }
        assert_true(saw_note);
        assert_true(saw_whole);
        markdown_free(&doc);
    }
    /* a choice's lines hang under its text, the verdict's too; a list item's under its bullet */
    const char *choices = "b) The function is a kernel that runs on the device\n\n"
                          "**✓ b)** Right: the head chef hands it to the kitchen\n\n"
                          "- one two three four five six seven eight\n";
    assert_int_equal(markdown_render(choices, strlen(choices), 24, MD_TARGET_SCREEN, NULL, 0, &doc), 0);
    int hung = 0;
    for (int i = 1; i < doc.nlines; i++) {
        line_text(&doc.lines[i - 1], text, sizeof text);
        char prev[16];
        snprintf(prev, sizeof prev, "%s", text);
        line_text(&doc.lines[i], text, sizeof text);
        if (text[0] == '\0')
            continue;
        if (strncmp(prev, "b) ", 3) == 0 || (strncmp(prev, "   ", 3) == 0 && strncmp(text, "   ", 3) == 0 && text[3] != ' '))
            hung += strncmp(text, "   ", 3) == 0 && text[3] != ' ';
        if (strncmp(prev, "✓ b) ", strlen("✓ b) ")) == 0)
            hung += strncmp(text, "     ", 5) == 0 && text[5] != ' ';
        if (strncmp(prev, "• ", strlen("• ")) == 0)
            hung += strncmp(text, "  ", 2) == 0 && text[2] != ' ';
    }
    assert_true(hung >= 3);
    markdown_free(&doc);
}

/* The glossary, in English and Korean: a table of the same rows (the kitchen's word, the CUDA term,
   what it is, none empty), the same CUDA names in code in each row, and clean text that lays out;
   it names the words the kitchen shows (cook, team, station, warp, pantry, locker, shipment). */
static void test_glossary(void **state)
{
    (void)state;
    char path[600], *text[2];
    int rows[2] = {0, 0};
    char codes[2][80][200];
    for (int lang = 0; lang < 2; lang++) {
        snprintf(path, sizeof path, "%s/lessons/glossary.%s.md", test_source_dir(), lang ? "ko" : "en");
        size_t size = 0;
        text[lang] = lesson_read_file(path, &size);
        assert_non_null(text[lang]);
        char why[300];
        assert_int_equal(lesson_text_problem(text[lang], size, why, sizeof why), 0);
        md_doc doc;
        assert_int_equal(markdown_render(text[lang], size, 100, MD_TARGET_SCREEN, NULL, 0, &doc), 0);
        assert_true(doc.nlines > 30);
        markdown_free(&doc);
        int header = 0;
        for (char *line = text[lang]; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            if (strncmp(line, "| ", 2) != 0)
                continue;
            if (header++ < 2) /* the heading row and the rule */
                continue;
            char row[600];
            size_t len = strcspn(line, "\n");
            snprintf(row, sizeof row, "%.*s", (int)len, line);
            int cells = 0;
            for (char *c = strchr(row, '|'); c && c[1]; c = strchr(c + 1, '|')) {
                size_t n = strcspn(c + 1, "|");
                int blank = 1;
                for (size_t k = 0; k < n; k++)
                    blank &= c[1 + k] == ' ';
                if (blank)
                    fail_msg("glossary.%s: an empty cell in: %s", lang ? "ko" : "en", row);
                cells++;
            }
            assert_int_equal(cells, 3);
            /* the code spans of the row, in order: the same CUDA names in both languages */
            codes[lang][rows[lang]][0] = '\0';
            for (char *c = strchr(row, '`'); c; c = strchr(c + 1, '`')) {
                char *end = strchr(c + 1, '`');
                if (!end)
                    break;
                strncat(codes[lang][rows[lang]], c, (size_t)(end - c + 1) < 100 ? (size_t)(end - c + 1) : 100);
                c = end;
            }
            assert_true(rows[lang] < 79);
            rows[lang]++;
        }
    }
    assert_true(rows[0] >= 25);
    assert_int_equal(rows[0], rows[1]);
    for (int r = 0; r < rows[0]; r++)
        if (strcmp(codes[0][r], codes[1][r]) != 0)
            fail_msg("glossary row %d: the code differs: %s against %s", r + 1, codes[0][r], codes[1][r]);
    static const char *const words[] = {"| cook |", "| team |", "| station |", "| warp |", "| kitchen's pantry |",
                                        "| shared locker |", "| shipment |", "| head chef |"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strstr(text[0], words[i]))
            fail_msg("the glossary lacks %s", words[i]);
    free(text[0]);
    free(text[1]);
}

/* Every page and question of the real lessons laid out for the screen: no line of code wider than
   the page, no `@mark` comment shown, the lines that matter flagged; a question shows the choice
   picked in bold with its verdict. */
/* A page's kernel listing: a kernel file of LESSON_LISTING_LINES lines or fewer is shown whole; a
   longer one keeps every line the lesson marks, LESSON_LISTING_AROUND lines either side of each and
   every line that opens a function, the rest folded into "lines not shown" lines that count them:
   the listing and the folded lines add up to the file. Lesson 12's page with matmul_async. */
static void test_kernel_listing_folded(void **state)
{
    (void)state;
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/lessons", test_source_dir());
    setenv("CUDACHEF_KERNELS", kernels_dir(), 1);
    lesson_set set;
    chef_error err;
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &set, &err), 0);
    int folded = 0, whole = 0;
    for (int i = 0; i < set.count; i++) {
        const lesson *l = &set.lessons[i];
        const lesson_text *t = &l->text[I18N_EN];
        for (int k = 0; k < t->nitems; k++) {
            const char *body = t->items[k].body, *at = body ? strstr(body, "<!-- kernel ") : NULL;
            if (!at)
                continue;
            char name[128];
            assert_int_equal(sscanf(at, "<!-- kernel %127s", name), 1);
            snprintf(path, sizeof path, "%s/%s.cu", kernels_dir(), name);
            FILE *f = fopen(path, "r");
            assert_non_null(f);
            int file_lines = 0, marked_in_file = 0;
            char line[1024];
            while (fgets(line, sizeof line, f)) {
                file_lines++;
                for (int m = 0; m < l->nmarks; m++) {
                    char tag[160];
                    snprintf(tag, sizeof tag, "@mark %s", l->marks[m]);
                    const char *hit = strstr(line, tag);
                    if (hit && !isalnum((unsigned char)hit[strlen(tag)]) && hit[strlen(tag)] != '-') {
                        marked_in_file++;
                        break;
                    }
                }
            }
            fclose(f);
            char *md = lesson_page_markdown(l, &t->items[k], 0, -1);
            char header[200];
            snprintf(header, sizeof header, "`kernels/%s.cu`", name);
            const char *code = strstr(md, header); /* the listing, after the page's own code blocks */
            assert_non_null(code);
            code = strstr(code, "```cuda\n");
            assert_non_null(code);
            code += 8;
            const char *end = strstr(code, "```");
            assert_non_null(end);
            int shown = 0, hidden = 0, marks_shown = 0;
            for (const char *c = code; c < end;) {
                const char *nl = memchr(c, '\n', (size_t)(end - c));
                size_t n = nl ? (size_t)(nl - c) : (size_t)(end - c);
                const char *fold = memmem(c, n, "/* ... ", 7);
                int count;
                if (fold && sscanf(fold, "/* ... %d lines not shown", &count) == 1)
                    hidden += count;
                else
                    shown++;
                marks_shown += memmem(c, n, "@mark ", 6) != NULL;
                c = nl ? nl + 1 : end;
            }
            if (shown + hidden != file_lines)
                fail_msg("lesson %d, item %d, kernel %s: %d shown + %d folded, the file has %d lines", l->number, k + 1,
                         name, shown, hidden, file_lines);
            assert_true(marks_shown >= marked_in_file);
            if (file_lines <= LESSON_LISTING_LINES || marked_in_file == 0) {
                assert_int_equal(hidden, 0);
                whole++;
            } else {
                assert_true(hidden > 0);
                assert_true(shown <= marked_in_file * (2 * LESSON_LISTING_AROUND + 1) + 40);
                folded++;
            }
            free(md);
        }
    }
    assert_true(folded >= 5 && whole >= 5); /* lesson 12's rungs fold; lessons 2 to 6's kernels do not */
    lesson_set_free(&set);
}

static void test_markdown_real_pages(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/lessons", test_source_dir());
    setenv("CUDACHEF_KERNELS", kernels_dir(), 1);
    lesson_set set;
    chef_error err;
    assert_int_equal(lesson_load_all(dir, kernels_dir(), &set, &err), 0);
    int marked = 0, questions = 0;
    char text[2048];
    for (int i = 0; i < set.count; i++) {
        const lesson *l = &set.lessons[i];
        const lesson_text *t = &l->text[I18N_EN];
        for (int k = 0; k < t->nitems; k++) {
            char *md = lesson_page_markdown(l, &t->items[k], 0, -1);
            assert_null(strstr(md, "`@mark")); /* the comments are in the source: markdown_render drops them */
            for (int width = 40; width <= 100; width += 60) {
                md_doc doc;
                assert_int_equal(markdown_render(md, strlen(md), width, MD_TARGET_SCREEN, l->marks, l->nmarks, &doc), 0);
                for (int n = 0; n < doc.nlines; n++) {
                    line_text(&doc.lines[n], text, sizeof text);
                    /* (a table of many columns may not fit 40 columns: code is what is checked) */
                    if ((doc.lines[n].style & MD_STYLE_CODE) && text_width(text, strlen(text)) > width)
                        fail_msg("lesson %d, item %d, width %d: too wide: %s", l->number, k + 1, width, text);
                    if (strstr(text, "@mark "))
                        fail_msg("lesson %d, item %d: a marker comment shows: %s", l->number, k + 1, text);
                    marked += (doc.lines[n].style & MD_STYLE_MARK) != 0;
                }
                markdown_free(&doc);
            }
            free(md);
            if (t->items[k].kind == ITEM_QUESTION) {
                questions++;
                md = lesson_page_markdown(l, &t->items[k], 0, 1);
                const char *verdict = t->items[k].choices[1].right ? "✓" : "✗";
                char *b = strstr(md, "**b) ");
                assert_non_null(b);
                assert_non_null(strstr(b, verdict));
                assert_null(strstr(md, "**a) "));
                free(md);
            }
        }
    }
    assert_true(marked > 0);
    assert_true(questions > 0);
    lesson_set_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_valid_lesson_loads, setup_tree, teardown_tree),
        cmocka_unit_test_setup_teardown(test_malformed_files, setup_tree, teardown_tree),
        cmocka_unit_test_setup_teardown(test_broken_folders, setup_tree, teardown_tree),
        cmocka_unit_test_setup_teardown(test_continued_values, setup_tree, teardown_tree),
        cmocka_unit_test(test_demo_params),
        cmocka_unit_test(test_real_lessons),
        cmocka_unit_test(test_answer_order),
        cmocka_unit_test(test_translations_keep_conversions),
        cmocka_unit_test(test_every_string_translated),
        cmocka_unit_test(test_markdown_layout),
        cmocka_unit_test(test_markdown_code_wrap),
        cmocka_unit_test(test_markdown_real_pages),
        cmocka_unit_test(test_kernel_listing_folded),
        cmocka_unit_test(test_glossary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
