/*
 * cmd_read.c - `cudachef read LESSON`: a lesson's pages and check questions as text.
 *
 * The same pages the TUI shows, laid out by markdown.c for the terminal's width: kernels shown with
 * the lines that matter flagged, demos named with the command that runs them, questions with their
 * choices (and, with --answers, which one is right and why each choice is right or wrong).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/i18n.h"
#include "lessons/lesson.h"
#include "lessons/lesson_page.h"
#include "lessons/markdown.h"
#include "lessons/progress.h"
#include "base/parse.h"

static const char read_usage[] =
    "usage: cudachef read LESSON [--page N] [--answers] [--file-order] [--width W] [--lang en|ko]\n"
    "\n"
    "Prints a lesson's pages and check questions. LESSON is its number or name (`cudachef list`).\n"
    "\n"
    "  --page N     only page N (questions count as pages after the text)\n"
    "  --answers    show the right choice of each question and why each choice is right or wrong\n"
    "  --file-order the choices in the lesson file's order, as classroom mode shows them (default:\n"
    "               the learner's own order, the same as the full-screen reader's)\n"
    "  --width W    wrap at W columns (default: the terminal's width, else 80)\n";

/* Lays out Markdown and prints it. */
static void read_print_markdown(const lesson *l, const char *markdown, int width)
{
    md_doc doc;
    if (markdown_render(markdown, strlen(markdown), width, MD_TARGET_PLAIN, l->marks, l->nmarks, &doc) == 0)
        markdown_print(&doc, stdout);
    markdown_free(&doc);
}

/* Prints one page or question. */
static void read_item(const lesson *l, const lesson_item *it, int index, int count, int answers, int width)
{
    char *markdown = lesson_page_markdown(l, it, answers ? LESSON_PAGE_ANSWERS : LESSON_PAGE_HINT, -1);
    printf("[%d/%d]\n", index, count);
    read_print_markdown(l, markdown, width);
    printf("\n");
    free(markdown);
}

/* The width to wrap at: the terminal's, else COLUMNS, else 80. */
static int read_default_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col > 100 ? 100 : ws.ws_col;
    const char *cols = getenv("COLUMNS");
    if (cols && atoi(cols) >= 20)
        return atoi(cols) > 100 ? 100 : atoi(cols);
    return 80;
}

/* `cudachef read LESSON [--page N] [--answers] [--width W]`. */
int cmd_read(int argc, char **argv)
{
    static const struct option opts[] = {{"page", required_argument, 0, 'p'},
                                         {"answers", no_argument, 0, 'a'},
                                         {"file-order", no_argument, 0, 'F'},
                                         {"width", required_argument, 0, 'w'},
                                         {"help", no_argument, 0, 'h'},
                                         {"version", no_argument, 0, 'V'},
                                         {0, 0, 0, 0}};
    int64_t page = 0, width = 0;
    int answers = 0, file_order = 0, c;
    chef_error err = {0};
    optind = 1;
    opterr = 0;
    uint64_t seen = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_once("read", opts, c, &seen) != 0) /* options are given once */
            return CHEF_EXIT_USAGE;
        switch (c) {
        case 'p':
            if (parse_int64("--page", optarg, 1, 1000, &page, &err) != 0)
                return cli_usage_error("read", "%s", err.message);
            break;
        case 'a':
            answers = 1;
            break;
        case 'F':
            file_order = 1;
            break;
        case 'w':
            if (parse_int64("--width", optarg, 20, 1000, &width, &err) != 0)
                return cli_usage_error("read", "%s", err.message);
            break;
        default:
            return cli_common_option(c, "read", read_usage, argv);
        }
    }
    if (optind >= argc)
        return cli_usage_error("read", "which lesson? for example: cudachef read 1 (`cudachef list` shows them)");
    if (optind + 1 < argc)
        return cli_usage_error("read", "unexpected argument '%s'", argv[optind + 1]);
    lesson_set set;
    if (lesson_load_all(lesson_default_dir(), lesson_kernels_dir(), &set, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    if (!file_order)
        lesson_shuffle_choices(&set, progress_answer_seed());
    const lesson *l = lesson_find(&set, argv[optind]);
    if (!l && lesson_report_broken(&set, argv[optind], "read") != 0) {
        lesson_set_free(&set);
        return CHEF_EXIT_USAGE;
    }
    if (!l) {
        int code = cli_usage_error("read", "no lesson called '%s' (`cudachef list` shows them; `cudachef list --check` "
                                           "shows lessons that did not load)", argv[optind]);
        lesson_set_free(&set);
        return code;
    }
    i18n_lang lang = i18n_current();
    const lesson_text *t = &l->text[lang];
    if (page > t->nitems) {
        int code = cli_usage_error("read", "lesson %d has %d pages and questions; --page %lld is past the end", l->number,
                                   t->nitems, (long long)page);
        lesson_set_free(&set);
        return code;
    }
    int w = width ? (int)width : read_default_width();
    if (!page) {
        char *head = lesson_header_markdown(l);
        read_print_markdown(l, head, w);
        printf("\n");
        free(head);
    }
    for (int i = 0; i < t->nitems; i++)
        if (!page || page == i + 1)
            read_item(l, &t->items[i], i + 1, t->nitems, answers, w);
    if (!page)
        printf(_("Run its demos: cudachef run %d\n"), l->number);
    lesson_set_free(&set);
    return 0;
}
