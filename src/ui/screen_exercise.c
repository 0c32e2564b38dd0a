/*
 * screen_exercise.c - an exercise in the full-screen interface. `x` in the reader or on the home
 * screen opens the lesson's exercise (asking which when it has several). The learner's file in the
 * workspace (made from the starting file when it is missing, never written over) is watched
 * (watch.h: inotify, or polling every WATCH_POLL_MS): a save is checked again once the writes have
 * settled for EXERCISE_SETTLE_MS, with no key pressed, the way `cudachef grade` checks it
 * (exercise_check.h); r checks by hand, and e opens $VISUAL, else $EDITOR, else vi, on the file
 * and checks it when the editor ends.
 *
 * The screen shows one status line (PASS or FAIL and what happened) and under it, scrolled: the
 * task, the file, the whole result (what it probably means and, for a build error, the compiler's
 * words as it wrote them), the hints asked for so far and the reference solution. h shows the hints
 * one at a time, from gentle to almost the answer; s shows the solution once the exercise has
 * passed (in this session, or before by the progress file), else only after a warning and a second
 * s. A pass is recorded in the progress file.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/i18n.h"
#include "ui/ui.h"
#include "grading/workspace.h"
#include "base/text.h"

#define EXERCISE_SETTLE_MS  200  /* a save is checked once no other write came for this long */
#define EXERCISE_LOG_LINES  2000 /* lines of the compiler's or the kernel's words kept on the screen */
#define EXERCISE_MAX_LISTED 9    /* exercises of one lesson offered by the question (digits 1-9) */

/* 1 when ex belongs to lesson l: its folder's name less the number is the lesson's slug. */
static int exercise_screen_belongs(const exercise *ex, const lesson *l)
{
    const char *dash = strchr(ex->lesson_id, '-');
    return strcmp(dash ? dash + 1 : ex->lesson_id, l->slug) == 0;
}

/* Reads every exercise the first time one is asked for; 0, or -1 (with a message unless quiet:
   the reader's footer asks at every frame, and is not answered again after a failure). */
static int exercise_screen_load(ui_state *s, int quiet)
{
    ui_exercise *e = &s->exercise;
    if (e->loaded > 0)
        return 0;
    if (e->loaded < 0 && quiet)
        return -1;
    chef_error err = {0};
    if (exercise_load_all(NULL, &e->set, &err) != 0) {
        e->loaded = -1;
        if (!quiet)
            snprintf(s->message, sizeof s->message, _(" The exercises cannot be read: %s"), err.message);
        return -1;
    }
    e->loaded = 1;
    return 0;
}

/* The exercises of a lesson, up to max, into out; returns how many. */
static int exercise_screen_list(const ui_state *s, int lesson_index, const exercise **out, int max)
{
    const lesson *l = &s->lessons.lessons[lesson_index];
    int n = 0;
    for (int i = 0; i < s->exercise.set.count && n < max; i++)
        if (exercise_screen_belongs(&s->exercise.set.items[i], l))
            out[n++] = &s->exercise.set.items[i];
    return n;
}

/* 1 when the progress file says that ex of lesson l passed ("exercise LESSON NAME"). */
static int exercise_screen_recorded(const ui_state *s, const lesson *l, const exercise *ex)
{
    char record[600];
    snprintf(record, sizeof record, "exercise %s %s", l->slug, ex->name);
    for (size_t i = 0; i < s->progress.count; i++)
        if (strcmp(s->progress.lines[i], record) == 0)
            return 1;
    return 0;
}

/* The editor e runs: $VISUAL, else $EDITOR, else vi. */
static const char *exercise_screen_editor(void)
{
    const char *editor = getenv("VISUAL");
    if (!editor || !*editor)
        editor = getenv("EDITOR");
    return editor && *editor ? editor : "vi";
}

/* Frees the laid-out text. */
static void exercise_screen_forget(ui_exercise *e)
{
    markdown_free(&e->body);
    free(e->roles);
    e->roles = NULL;
    e->width = 0;
}

/* Appends a line (which the body then owns) in a base role; 0, or -1 when out of memory (the
   line is then the caller's to free). */
static int exercise_screen_push(ui_exercise *e, int *cap, md_line line, ui_role role)
{
    if (e->body.nlines == *cap) {
        int grown = *cap ? 2 * *cap : 64;
        md_line *lines = realloc(e->body.lines, (size_t)grown * sizeof *lines);
        if (!lines)
            return -1;
        e->body.lines = lines;
        ui_role *roles = realloc(e->roles, (size_t)grown * sizeof *roles);
        if (!roles)
            return -1;
        e->roles = roles;
        *cap = grown;
    }
    e->body.lines[e->body.nlines] = line;
    e->roles[e->body.nlines++] = role;
    return 0;
}

/* Appends len bytes of text as one line of one style (an empty line when len is 0). */
static void exercise_screen_line(ui_exercise *e, int *cap, const char *text, size_t len, int style,
                                 ui_role role)
{
    md_line line;
    memset(&line, 0, sizeof line);
    if (len > 0) {
        line.spans = malloc(sizeof *line.spans);
        char *copy = strndup(text, len);
        if (!line.spans || !copy) {
            free(line.spans);
            free(copy);
            return;
        }
        line.spans[0].text = copy;
        line.spans[0].style = style;
        line.nspans = 1;
    }
    if (exercise_screen_push(e, cap, line, role) != 0 && line.spans) {
        free(line.spans[0].text);
        free(line.spans);
    }
}

/* Appends plain text wrapped at spaces to width columns; each '\n' starts a new line. */
static void exercise_screen_wrap(ui_exercise *e, int *cap, const char *text, int width, int style,
                                 ui_role role)
{
    while (*text) {
        size_t len = strcspn(text, "\n");
        if (len == 0)
            exercise_screen_line(e, cap, "", 0, style, role);
        const char *p = text, *end = text + len;
        while (p < end) {
            /* the longest run of whole words that fits; a word longer than the line is cut */
            size_t cut = 0;
            for (size_t i = 0; p + i <= end; i++)
                if ((p + i == end || p[i] == ' ') && i > 0) {
                    if (text_width(p, i) > width)
                        break;
                    cut = i;
                }
            if (cut == 0)
                cut = layout_crop(p, (size_t)(end - p), width, NULL);
            if (cut == 0)
                cut = 1;
            exercise_screen_line(e, cap, p, cut, style, role);
            p += cut;
            while (p < end && *p == ' ')
                p++;
        }
        text = *end ? end + 1 : end;
    }
}

/* Appends text as it was written (a compiler's words, a kernel's output): tabs become spaces,
   other control characters are left out, and a line wider than width goes on in lines that start
   with "↪ ". At most EXERCISE_LOG_LINES lines are kept. */
static void exercise_screen_verbatim(ui_exercise *e, int *cap, const char *text, int width, ui_role role)
{
    int lines = 0;
    while (*text && lines < EXERCISE_LOG_LINES) {
        size_t len = strcspn(text, "\n");
        char clean[4096];
        size_t n = 0;
        for (size_t i = 0; i < len && n + 9 < sizeof clean; i++) {
            unsigned char c = (unsigned char)text[i];
            if (c == '\t')
                do
                    clean[n++] = ' ';
                while (n % 8 != 0 && n + 1 < sizeof clean);
            else if (c >= 0x20 && c != 0x7f)
                clean[n++] = (char)c;
        }
        clean[n] = '\0';
        size_t at = 0;
        do {
            int first = at == 0;
            size_t take = layout_crop(clean + at, n - at, first ? width : width - 2, NULL);
            if (take == 0 && at < n)
                take = 1;
            char piece[4200];
            snprintf(piece, sizeof piece, "%s%.*s", first ? "" : "↪ ", (int)take, clean + at);
            exercise_screen_line(e, cap, piece, strlen(piece), MD_STYLE_CODE, role);
            lines++;
            at += take;
        } while (at < n && lines < EXERCISE_LOG_LINES);
        text += len;
        if (*text == '\n')
            text++;
    }
    if (*text)
        exercise_screen_line(e, cap, "...", 3, MD_STYLE_CODE, UI_DIM);
}

/* Appends Markdown laid out for width columns. */
static void exercise_screen_markdown(ui_exercise *e, int *cap, const char *markdown, int width, ui_role role)
{
    md_doc doc;
    memset(&doc, 0, sizeof doc);
    if (!markdown ||
        markdown_render(markdown, strlen(markdown), width, MD_TARGET_SCREEN, NULL, 0, &doc) != 0) {
        markdown_free(&doc);
        return;
    }
    int i = 0;
    while (i < doc.nlines && exercise_screen_push(e, cap, doc.lines[i], role) == 0)
        i++;
    for (int k = i; k < doc.nlines; k++) { /* not taken (out of memory): freed here */
        for (int j = 0; j < doc.lines[k].nspans; j++)
            free(doc.lines[k].spans[j].text);
        free(doc.lines[k].spans);
    }
    free(doc.lines);
}

/* Appends the last check's result: what happened, what it probably means, the compiler's or the
   kernel's own words. */
static void exercise_screen_result(ui_state *s, int *cap, int width)
{
    ui_exercise *e = &s->exercise;
    const exercise_result *r = &e->result;
    char line[2000];
    exercise_screen_line(e, cap, _("The last check"), strlen(_("The last check")), MD_STYLE_HEADING, UI_TEXT);
    if (e->checking) {
        exercise_screen_wrap(e, cap, _("Checking your kernel..."), width, 0, UI_DIM);
        return;
    }
    if (e->error[0]) {
        exercise_screen_wrap(e, cap, e->error, width, 0, UI_WRONG);
        return;
    }
    if (!e->checked) {
        exercise_screen_wrap(e, cap, _("Not checked yet: r checks it."), width, 0, UI_DIM);
        return;
    }
    int ok = r->status == EXERCISE_PASSED;
    snprintf(line, sizeof line, "%s  %s", ok ? "PASS" : "FAIL", r->summary);
    exercise_screen_wrap(e, cap, line, width, MD_STYLE_STRONG, ok ? UI_RIGHT : UI_WRONG);
    if (r->explanation[0])
        exercise_screen_wrap(e, cap, r->explanation, width, 0, UI_TEXT);
    const char *who = r->backend[0] ? r->backend : "?";
    if (r->status == EXERCISE_BUILD)
        snprintf(line, sizeof line, _("Built for %s in %.0f ms."), who, r->build_ms);
    else
        snprintf(line, sizeof line, _("Cooked by %s; built in %.0f ms%s, ran in %.0f ms."), who, r->build_ms,
                 r->cached ? _(" (unchanged: the last build was used)") : "", r->run_ms);
    exercise_screen_wrap(e, cap, line, width, 0, UI_DIM);
    if (r->status == EXERCISE_BUILD && r->build_log && r->build_log[0]) {
        exercise_screen_line(e, cap, "", 0, 0, UI_TEXT);
        exercise_screen_verbatim(e, cap, r->build_log, width, UI_CODE);
    }
    if (r->output && r->output[0]) {
        exercise_screen_line(e, cap, "", 0, 0, UI_TEXT);
        snprintf(line, sizeof line, _("What your kernel printed (%zu bytes):"), r->output_bytes);
        exercise_screen_wrap(e, cap, line, width, 0, UI_TEXT);
        exercise_screen_verbatim(e, cap, r->output, width, UI_CODE);
    }
    if (ok) {
        exercise_screen_line(e, cap, "", 0, 0, UI_TEXT);
        exercise_screen_wrap(e, cap, _("Well done. s shows the reference solution, to compare with yours."),
                             width, 0, UI_RIGHT);
    }
}

/* Lays everything under the status line out for width columns, if not done yet. */
static void exercise_screen_layout(ui_state *s, int width)
{
    ui_exercise *e = &s->exercise;
    if (e->width == width && e->body.lines)
        return;
    exercise_screen_forget(e);
    int cap = 0;
    char line[5200];
    char *task = exercise_text(e->ex, "task", i18n_current());
    if (task)
        exercise_screen_markdown(e, &cap, task, width, UI_TEXT);
    else
        exercise_screen_wrap(e, &cap, exercise_title(e->ex, i18n_current()), width, MD_STYLE_HEADING, UI_TEXT);
    free(task);
    exercise_screen_line(e, &cap, "", 0, 0, UI_TEXT);
    snprintf(line, sizeof line, _("Your file: %s"), e->path);
    exercise_screen_wrap(e, &cap, line, width, 0, UI_TEXT);
    snprintf(line, sizeof line,
             e->watch
                 ? _("Edit it in any editor: each save is checked again at once. e opens it in %s; r checks "
                     "it by hand.")
                 : _("Saves cannot be watched here: r checks it by hand. e opens it in %s."),
             exercise_screen_editor());
    exercise_screen_wrap(e, &cap, line, width, 0, UI_DIM);
    exercise_screen_line(e, &cap, "", 0, 0, UI_TEXT);
    e->part[3] = e->body.nlines;
    exercise_screen_result(s, &cap, width);
    for (int i = 0; i < e->shown && i < e->nhints; i++) {
        exercise_screen_line(e, &cap, "", 0, 0, UI_TEXT);
        e->part[1] = e->body.nlines;
        exercise_screen_markdown(e, &cap, e->hints[i], width, UI_TEXT);
    }
    if (e->solution) {
        exercise_screen_line(e, &cap, "", 0, 0, UI_TEXT);
        e->part[2] = e->body.nlines;
        char *markdown = NULL;
        if (asprintf(&markdown, "# %s\n\n```c\n%s\n```\n", _("Reference solution"), e->solution) < 0)
            markdown = NULL;
        exercise_screen_markdown(e, &cap, markdown, width, UI_TEXT);
        free(markdown);
    }
    e->width = width;
}

/* The status line: checking, PASS or FAIL with what happened, or why no check could be made. */
static void exercise_screen_status(ui_state *s, int y, int x, int width)
{
    ui_exercise *e = &s->exercise;
    char line[1000];
    if (e->checking) {
        draw_text(s, y, x, width, _("Checking your kernel..."), UI_HEADING);
    } else if (e->error[0]) {
        draw_text(s, y, x, width, e->error, UI_WRONG);
    } else if (e->checked) {
        int ok = e->result.status == EXERCISE_PASSED;
        snprintf(line, sizeof line, "%s  %s", ok ? "PASS" : "FAIL", e->result.summary);
        draw_text(s, y, x, width, line, ok ? UI_RIGHT : UI_WRONG);
    }
}

/* Draws the exercise. */
void exercise_screen_draw(ui_state *s)
{
    ui_exercise *e = &s->exercise;
    if (!e->ex)
        return;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    const lesson *l = &s->lessons.lessons[e->lesson];
    char line[1000];
    snprintf(line, sizeof line, _(" Exercise: %s (lesson %d)"), exercise_title(e->ex, i18n_current()), l->number);
    draw_text(s, lr.title.y, lr.title.x, lr.title.w, line, UI_TITLE);
    snprintf(line, sizeof line, " %s ", e->ex->name);
    int wide = text_width(line, strlen(line));
    if (wide < lr.title.w / 3)
        draw_span(s, lr.title.y, lr.title.x + lr.title.w - wide, wide, line, theme_attr(UI_TITLE, s->color));
    exercise_screen_status(s, lr.body.y, lr.body.x, lr.body.w);

    layout_rect body = {lr.body.x, lr.body.y + 2, lr.body.w, lr.body.h - 2};
    exercise_screen_layout(s, body.w);
    if (e->jump == 3 && (e->part[3] < e->top || e->part[3] >= e->top + body.h))
        e->top = e->part[3];
    else if (e->jump == 1 || e->jump == 2)
        e->top = e->part[e->jump];
    e->jump = 0;
    e->top = layout_scroll_clamp(e->top, e->body.nlines, body.h);
    for (int row = 0; row < body.h && e->top + row < e->body.nlines; row++)
        reader_draw_line(s, body.y + row, body, &e->body.lines[e->top + row], e->roles[e->top + row]);

    draw_text(s, lr.footer.y, lr.footer.x, lr.footer.w,
              _(" e edit   r check   h hint   s solution   ↑↓ scroll   q back   ? help"), UI_TITLE);
    if (e->top + body.h < e->body.nlines) {
        const char *more = _(" ↓ more ");
        int w = text_width(more, strlen(more));
        if (w < lr.footer.w)
            draw_span(s, lr.footer.y, lr.footer.x + lr.footer.w - w, w, more, theme_attr(UI_TITLE, s->color));
    }
}

/* What the loop waits for: frames every 50 ms while a save settles, every WATCH_POLL_MS while
   the watch polls, else nothing. */
static void exercise_screen_tick(ui_state *s)
{
    ui_exercise *e = &s->exercise;
    s->tick_ms = e->due_ms > 0 ? 50 : watch_polling(e->watch) ? WATCH_POLL_MS : 0;
}

/* Checks the learner's file now, saying "Checking your kernel..." on the screen first (a check
   can take a second, more with nvcc); a pass is recorded. */
static void exercise_screen_check(ui_state *s)
{
    ui_exercise *e = &s->exercise;
    e->due_ms = 0;
    e->checking = 1;
    e->width = 0;
    if (!layout_too_small(COLS, LINES)) {
        erase();
        exercise_screen_draw(s);
        refresh();
    }
    exercise_result_free(&e->result);
    memset(&e->result, 0, sizeof e->result);
    e->checked = 0;
    e->error[0] = '\0';
    exercise_options opt;
    memset(&opt, 0, sizeof opt);
    opt.backend = BACKEND_AUTO;
    chef_error err = {0};
    if (access(e->path, R_OK) != 0)
        snprintf(e->error, sizeof e->error, _("Your file %s cannot be read (%s): save it again."), e->path,
                 strerror(errno));
    else if (exercise_check(e->ex, e->path, &opt, &e->result, &err) != 0)
        snprintf(e->error, sizeof e->error, _("It could not be checked: %s"), err.message);
    else
        e->checked = 1;
    e->checking = 0;
    e->width = 0;
    e->jump = 3;
    if (e->checked && e->result.status == EXERCISE_PASSED) {
        const lesson *l = &s->lessons.lessons[e->lesson];
        e->passed = 1;
        if (!s->classroom && !exercise_screen_recorded(s, l, e->ex))
            ui_progress_mark(s, "exercise", l, e->ex->name);
    }
}

/* Opens ex of the lesson: the learner's file made if missing, watched, checked. */
static void exercise_screen_open(ui_state *s, int lesson_index, const exercise *ex)
{
    ui_exercise *e = &s->exercise;
    e->choosing = 0;
    exercise_screen_close(s);
    char dir[4096];
    chef_error err = {0};
    if (workspace_default(dir, sizeof dir, &err) != 0) {
        snprintf(s->message, sizeof s->message, " %.200s (%.90s)", err.message, err.hint);
        return;
    }
    workspace_exercise_path(dir, ex, e->path, sizeof e->path);
    if (access(e->path, F_OK) != 0) { /* the workspace's missing files from the starting ones */
        int made = 0;
        if (workspace_init(dir, &e->set, &made, &err) != 0) {
            snprintf(s->message, sizeof s->message, " %.200s (%.90s)", err.message, err.hint);
            return;
        }
        snprintf(s->message, sizeof s->message,
                 _(" Your exercises are in %s: %d starting files were copied there."), dir, made);
    }
    e->ex = ex;
    e->lesson = lesson_index;
    e->back = s->screen;
    e->watch = watch_open(e->path); /* NULL: r still checks by hand, and the screen says so */
    e->nhints = exercise_hints(ex, i18n_current(), e->hints);
    e->passed = exercise_screen_recorded(s, &s->lessons.lessons[lesson_index], ex);
    s->screen = UI_SCREEN_EXERCISE;
    exercise_screen_check(s);
    exercise_screen_tick(s);
}

/* How many exercises a lesson has (0 also when they cannot be read). */
int exercise_screen_count(ui_state *s, int lesson_index)
{
    const exercise *list[EXERCISE_MAX_LISTED];
    if (lesson_index < 0 || lesson_index >= s->lessons.count || exercise_screen_load(s, 1) != 0)
        return 0;
    return exercise_screen_list(s, lesson_index, list, EXERCISE_MAX_LISTED);
}

/* `x`: the lesson's exercise, or the question which one, or a word that there is none. */
void exercise_screen_ask(ui_state *s, int lesson_index)
{
    if (lesson_index < 0 || lesson_index >= s->lessons.count || exercise_screen_load(s, 0) != 0)
        return;
    const exercise *list[EXERCISE_MAX_LISTED];
    int n = exercise_screen_list(s, lesson_index, list, EXERCISE_MAX_LISTED);
    if (n == 0) {
        snprintf(s->message, sizeof s->message, _(" Lesson %d has no exercise yet."),
                 s->lessons.lessons[lesson_index].number);
    } else if (n == 1) {
        exercise_screen_open(s, lesson_index, list[0]);
    } else {
        s->exercise.choosing = 1;
        s->exercise.choice = 0;
        s->exercise.choose_lesson = lesson_index;
    }
}

/* Draws the question "which exercise?" over the screen; one already passed is ticked. */
void exercise_choose_draw(ui_state *s)
{
    ui_exercise *e = &s->exercise;
    const exercise *list[EXERCISE_MAX_LISTED];
    int n = exercise_screen_list(s, e->choose_lesson, list, EXERCISE_MAX_LISTED);
    const lesson *l = &s->lessons.lessons[e->choose_lesson];
    layout_rect screen = {0, 0, COLS, LINES};
    layout_rect box = layout_center(screen, 72, n + 6);
    draw_clear(s, box, UI_TEXT);
    draw_box(s, box, UI_BORDER);
    draw_text(s, box.y + 1, box.x + 2, box.w - 4,
              _("Which exercise? (a digit, or ↑↓ and Enter; Esc cancels)"), UI_HEADING);
    for (int i = 0; i < n; i++) {
        char line[600];
        snprintf(line, sizeof line, " %d %s %s", i + 1, exercise_screen_recorded(s, l, list[i]) ? "✓" : " ",
                 exercise_title(list[i], i18n_current()));
        draw_text(s, box.y + 3 + i, box.x + 2, box.w - 4, line, i == e->choice ? UI_SELECTED : UI_TEXT);
    }
}

/* Keys of the question "which exercise?". */
void exercise_choose_key(ui_state *s, int key)
{
    ui_exercise *e = &s->exercise;
    const exercise *list[EXERCISE_MAX_LISTED];
    int n = exercise_screen_list(s, e->choose_lesson, list, EXERCISE_MAX_LISTED);
    if (key >= '1' && key < '1' + n)
        exercise_screen_open(s, e->choose_lesson, list[key - '1']);
    else if ((key == KEY_DOWN || key == 'j') && e->choice + 1 < n)
        e->choice++;
    else if ((key == KEY_UP || key == 'k') && e->choice > 0)
        e->choice--;
    else if ((key == '\n' || key == '\r' || key == KEY_ENTER) && n > 0)
        exercise_screen_open(s, e->choose_lesson, list[e->choice < n ? e->choice : 0]);
    else if (key == 27 || key == 'q')
        e->choosing = 0;
}

/* e: the terminal is given to the editor on the file (through sh, so that VISUAL may carry
   options, "code -w"), then taken back; the file is checked again. Ctrl-C while the editor runs
   belongs to the editor. */
static void exercise_screen_edit(ui_state *s)
{
    ui_exercise *e = &s->exercise;
    const char *editor = exercise_screen_editor();
    char command[1200];
    snprintf(command, sizeof command, "%s \"$1\"", editor);
    struct sigaction ignore, old_int, old_quit;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    def_prog_mode();
    endwin();
    int ignoring = sigaction(SIGINT, &ignore, &old_int) == 0;
    int quieted = sigaction(SIGQUIT, &ignore, &old_quit) == 0;
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        execl("/bin/sh", "sh", "-c", command, "sh", e->path, (char *)NULL);
        _exit(127);
    }
    int forked = errno, status = 0;
    pid_t waited = -1;
    while (pid > 0 && (waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (ignoring && sigaction(SIGINT, &old_int, NULL) != 0)
        signal(SIGINT, SIG_DFL); /* cannot happen with a valid old action; Ctrl-C then ends it plainly */
    if (quieted && sigaction(SIGQUIT, &old_quit, NULL) != 0)
        signal(SIGQUIT, SIG_DFL);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    if (pid < 0)
        snprintf(s->message, sizeof s->message, _(" The editor cannot be started: %s"), strerror(forked));
    else if (waited == pid && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(
            s->message, sizeof s->message,
            _(" The editor '%s' was not found: set VISUAL or EDITOR to one you have (nano, vim, code -w)."),
            editor);
    watch_changed(e->watch); /* the editor's saves are checked now, once */
    exercise_screen_check(s);
    exercise_screen_tick(s);
}

/* s: the reference solution, shown when the exercise passed or after the warning. */
static void exercise_screen_solution(ui_state *s, int warned)
{
    ui_exercise *e = &s->exercise;
    if (e->solution) {
        e->jump = 2;
        return;
    }
    if (!e->passed && !warned) {
        e->spoil = 1;
        snprintf(s->message, sizeof s->message, "%s",
                 _(" This shows the answer and spoils the exercise. Press s again to see it."));
        return;
    }
    char path[4400];
    size_t size = 0;
    exercise_file(e->ex, "solution.cu", path, sizeof path);
    e->solution = lesson_read_file(path, &size);
    if (!e->solution) {
        snprintf(s->message, sizeof s->message, _(" The reference solution %s cannot be read."), path);
        return;
    }
    e->width = 0;
    e->jump = 2;
}

/* Keys of the exercise screen. */
void exercise_screen_key(ui_state *s, int key)
{
    ui_exercise *e = &s->exercise;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    int rows = lr.body.h - 2, page = rows > 2 ? rows - 1 : 1;
    int warned = e->spoil;
    e->spoil = 0; /* the warning holds for the next key only */
    if (draw_scroll_key(key, &e->top, page)) {
        e->top = layout_scroll_clamp(e->top, e->body.nlines, rows);
        return;
    }
    switch (key) {
    case 'r':
        exercise_screen_check(s);
        exercise_screen_tick(s);
        break;
    case 'e':
        exercise_screen_edit(s);
        break;
    case 'h':
        if (e->nhints == 0)
            snprintf(s->message, sizeof s->message, "%s", _(" This exercise has no hints."));
        else if (e->shown < e->nhints) {
            e->shown++;
            e->width = 0;
            e->jump = 1;
        } else {
            snprintf(s->message, sizeof s->message, "%s",
                     _(" That was the last hint; s shows the reference solution."));
            e->jump = 1;
        }
        break;
    case 's':
        exercise_screen_solution(s, warned);
        break;
    case 'q':
    case 27: {
        ui_screen back = e->back;
        exercise_screen_close(s);
        s->screen = back == UI_SCREEN_READER ? UI_SCREEN_READER : UI_SCREEN_HOME;
        break;
    }
    default:
        break;
    }
}

/* The watch's descriptor while an exercise is shown. */
int exercise_screen_fd(const ui_state *s)
{
    return s->screen == UI_SCREEN_EXERCISE && s->exercise.ex ? watch_fd(s->exercise.watch) : -1;
}

/* After a wake-up of the loop: a save starts the settling time, which ends in a check. */
int exercise_screen_wake(ui_state *s, int readable)
{
    ui_exercise *e = &s->exercise;
    if (s->screen != UI_SCREEN_EXERCISE || !e->ex)
        return 0;
    int redraw = 0;
    double now = chef_now_ms();
    if ((readable || watch_polling(e->watch)) && watch_changed(e->watch))
        e->due_ms = now + EXERCISE_SETTLE_MS; /* another write soon after moves it on */
    if (e->due_ms > 0 && now + 1 >= e->due_ms) {
        exercise_screen_check(s);
        redraw = 1;
    }
    exercise_screen_tick(s);
    return redraw;
}

/* Closes the exercise open, keeping the exercises read. */
void exercise_screen_close(ui_state *s)
{
    ui_exercise *e = &s->exercise;
    if (e->ex)
        s->tick_ms = 0;
    watch_close(e->watch);
    exercise_result_free(&e->result);
    for (int i = 0; i < e->nhints; i++)
        free(e->hints[i]);
    free(e->solution);
    exercise_screen_forget(e);
    exercise_set set = e->set;
    int loaded = e->loaded, choosing = e->choosing, choice = e->choice, asked = e->choose_lesson;
    memset(e, 0, sizeof *e);
    e->set = set;
    e->loaded = loaded;
    e->choosing = choosing;
    e->choice = choice;
    e->choose_lesson = asked;
}

/* At the end of the program: the exercise open and every exercise read. */
void exercise_screen_free(ui_state *s)
{
    exercise_screen_close(s);
    if (s->exercise.loaded > 0)
        exercise_set_free(&s->exercise.set);
    memset(&s->exercise, 0, sizeof s->exercise);
}
