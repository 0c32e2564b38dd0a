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
 *
 * A check is a job (ui/jobs.c): the screen keeps drawing and answering keys while the kernel is
 * built and run in its child process, the status line says for how long, and Esc stops it (the
 * child's whole process group ends with it). A save seen while a check runs stops that check and
 * starts another on the file as it is now. The job owns the result; the screen shows it as a view.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/text.h"
#include "grading/exercise_check.h"
#include "grading/watch.h"
#include "grading/workspace.h"
#include "ui/screens.h"

#define EXERCISE_SETTLE_MS  200  /* a save is checked once no other write came for this long */
#define EXERCISE_LOG_LINES  2000 /* lines of the compiler's or the kernel's words kept on the screen */
#define EXERCISE_MAX_LISTED 9    /* exercises of one lesson offered by the question (digits 1-9) */

/* One check of the learner's file, as its job makes it. */
typedef struct exercise_check_run {
    const exercise *ex;
    char path[4400];
    exercise_result result;
    char error[900];           /* why the check could not be made; "" when it could */
    int checked;               /* result holds the check */
} exercise_check_run;

/* The exercise screen's own state: one exercise of a lesson, the learner's file watched and
   checked again on every save, the hints shown so far and, once earned, the solution. */
typedef struct exercise_screen {
    const exercise *ex;        /* the exercise open */
    int lesson;                /* its lesson's index in the lesson set */
    char path[4400];           /* the learner's file: WORKSPACE/LESSON-ID/NAME.cu */
    watch *watch;              /* that file watched (NULL: it could not be; r still checks) */
    double due_ms;             /* a save was seen: check at this moment (chef_now_ms); 0 none */
    job *check;                /* the last check (its job owns its result), or NULL */
    int taken;                 /* the last check's end was seen (its pass recorded) */
    int passed;                /* passed in this session (or recorded in the progress file) */
    char *hints[EXERCISE_MAX_HINTS];
    int nhints, shown;         /* the hints there are, and how many are shown */
    int spoil;                 /* s was pressed before passing: a second s shows the solution */
    char *solution;            /* the reference solution once shown; NULL while hidden */
    md_doc body;               /* everything under the status line, laid out */
    ui_role *roles;            /* the base role of each line of body */
    int width;                 /* the width body was laid out for; 0: lay it out again */
    int top;                   /* the first line of body shown */
    int jump;                  /* once laid out, bring a part into view: 0 none, 1 the last hint,
                                  2 the solution, 3 the check's result (only when out of view) */
    int part[4];               /* the line of body where each of those parts starts */
} exercise_screen;

/* The last check as it stands: NULL while none has finished. */
static const exercise_check_run *exercise_screen_last(const exercise_screen *e)
{
    return e->check && !job_running(e->check) ? job_data(e->check) : NULL;
}

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
    if (s->exercises_loaded > 0)
        return 0;
    if (s->exercises_loaded < 0 && quiet)
        return -1;
    chef_error err = {0};
    if (exercise_load_all(NULL, &s->exercises, &err) != 0) {
        s->exercises_loaded = -1;
        if (!quiet)
            snprintf(s->message, sizeof s->message, _(" The exercises cannot be read: %s"), err.message);
        return -1;
    }
    s->exercises_loaded = 1;
    return 0;
}

/* The exercises of a lesson, up to max, into out; returns how many. */
static int exercise_screen_list(const ui_state *s, int lesson_index, const exercise **out, int max)
{
    const lesson *l = &s->lessons.lessons[lesson_index];
    int n = 0;
    for (int i = 0; i < s->exercises.count && n < max; i++)
        if (exercise_screen_belongs(&s->exercises.items[i], l))
            out[n++] = &s->exercises.items[i];
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
static void exercise_screen_forget(exercise_screen *e)
{
    markdown_free(&e->body);
    free(e->roles);
    e->roles = NULL;
    e->width = 0;
}

/* Appends a line (which the body then owns) in a base role; 0, or -1 when out of memory (the
   line is then the caller's to free). */
static int exercise_screen_push(exercise_screen *e, int *cap, md_line line, ui_role role)
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
static void exercise_screen_line(exercise_screen *e, int *cap, const char *text, size_t len, int style,
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
static void exercise_screen_wrap(exercise_screen *e, int *cap, const char *text, int width, int style,
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
static void exercise_screen_verbatim(exercise_screen *e, int *cap, const char *text, int width, ui_role role)
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
static void exercise_screen_markdown(exercise_screen *e, int *cap, const char *markdown, int width, ui_role role)
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
static void exercise_screen_result(exercise_screen *e, int *cap, int width)
{
    const exercise_check_run *run = exercise_screen_last(e);
    const exercise_result *r = run ? &run->result : NULL;
    char line[2000];
    exercise_screen_line(e, cap, _("The last check"), strlen(_("The last check")), MD_STYLE_HEADING, UI_TEXT);
    if (job_running(e->check)) {
        exercise_screen_wrap(e, cap, _("Checking your kernel..."), width, 0, UI_DIM);
        return;
    }
    if (run && run->error[0]) {
        exercise_screen_wrap(e, cap, run->error, width, 0, UI_WRONG);
        return;
    }
    if (!run || !run->checked) {
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
    if (!r->sandboxed && r->status != EXERCISE_BUILD)
        exercise_screen_wrap(e, cap,
                             _("No sandbox: your kernel ran as you, with your files (bubblewrap is missing or cannot run "
                               "here, or CUDACHEF_SANDBOX=none; apt-get install bubblewrap)."),
                             width, 0, UI_WRONG);
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
static void exercise_screen_layout(exercise_screen *e, int width)
{
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
    exercise_screen_result(e, &cap, width);
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
static void exercise_screen_status(ui_state *s, const exercise_screen *e, int y, int x, int width)
{
    const exercise_check_run *run = exercise_screen_last(e);
    char line[1000];
    if (job_running(e->check)) {
        snprintf(line, sizeof line, "%s %.1f s", _("Checking your kernel..."), job_elapsed_ms(e->check) / 1e3);
        draw_text(s, y, x, width, line, UI_HEADING);
    } else if (run && run->error[0]) {
        draw_text(s, y, x, width, run->error, UI_WRONG);
    } else if (run && run->checked) {
        int ok = run->result.status == EXERCISE_PASSED;
        snprintf(line, sizeof line, "%s  %s", ok ? "PASS" : "FAIL", run->result.summary);
        draw_text(s, y, x, width, line, ok ? UI_RIGHT : UI_WRONG);
    }
}

/* Draws the exercise. */
static void exercise_screen_draw(ui_state *s, void *self)
{
    exercise_screen *e = self;
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
    exercise_screen_status(s, e, lr.body.y, lr.body.x, lr.body.w);

    layout_rect body = {lr.body.x, lr.body.y + 2, lr.body.w, lr.body.h - 2};
    exercise_screen_layout(e, body.w);
    if (e->jump == 3 && (e->part[3] < e->top || e->part[3] >= e->top + body.h))
        e->top = e->part[3];
    else if (e->jump == 1 || e->jump == 2)
        e->top = e->part[e->jump];
    e->jump = 0;
    e->top = layout_scroll_clamp(e->top, e->body.nlines, body.h);
    for (int row = 0; row < body.h && e->top + row < e->body.nlines; row++)
        draw_md_line(s, body.y + row, body, &e->body.lines[e->top + row], e->roles[e->top + row]);

    if (job_running(e->check)) {
        ui_job_draw(s, e->check, lr.footer);
        return;
    }
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
   the watch polls, else nothing (a check's own news wakes the loop). */
static int exercise_screen_tick(const void *self)
{
    const exercise_screen *e = self;
    return e->due_ms > 0 ? 50 : watch_polling(e->watch) ? WATCH_POLL_MS : 0;
}

/* Frees a check's run (its job's data). */
static void exercise_check_run_free(void *data)
{
    exercise_check_run *run = data;
    if (run)
        exercise_result_free(&run->result);
    free(run);
}

/* The check's job: the file built and run under limits as `cudachef grade` does (exercise_check),
   stopped at once through the job's token. */
static int exercise_check_work(job *j, void *data)
{
    exercise_check_run *run = data;
    exercise_options opt;
    memset(&opt, 0, sizeof opt);
    opt.backend = BACKEND_AUTO;
    opt.cancel = job_token(j);
    chef_error err = {0};
    if (access(run->path, R_OK) != 0) {
        snprintf(run->error, sizeof run->error, _("Your file %s cannot be read (%s): save it again."), run->path,
                 strerror(errno));
    } else if (exercise_check(run->ex, run->path, &opt, &run->result, &err) != 0) {
        if (err.cause == CHEF_CAUSE_CANCELLED)
            snprintf(run->error, sizeof run->error, "%s", _("The check was stopped (Esc): r checks the file again."));
        else
            snprintf(run->error, sizeof run->error, _("It could not be checked: %s"), err.message);
    } else {
        run->checked = 1;
    }
    return run->checked ? exercise_status_exit(run->result.status) : CHEF_EXIT_ENVIRONMENT;
}

/* Checks the learner's file: a new check as a job (one still running is stopped and let go). */
static void exercise_screen_check(ui_state *s, exercise_screen *e)
{
    e->due_ms = 0;
    job_free(e->check);
    e->check = NULL;
    e->taken = 0;
    e->width = 0;
    exercise_check_run *run = calloc(1, sizeof *run);
    if (!run) {
        snprintf(s->message, sizeof s->message, "%s", _(" Not enough memory to check the exercise."));
        return;
    }
    run->ex = e->ex;
    snprintf(run->path, sizeof run->path, "%s", e->path);
    char what[300];
    snprintf(what, sizeof what, _("checking %s"), e->ex->name);
    e->check = ui_job_start(s, what, exercise_check_work, run, exercise_check_run_free);
}

/* Once the check has finished: its result laid out and brought into view, and a pass recorded. */
static void exercise_screen_take(ui_state *s, exercise_screen *e)
{
    const exercise_check_run *run = exercise_screen_last(e);
    if (!run || e->taken)
        return;
    e->taken = 1;
    e->width = 0;
    e->jump = 3;
    if (run->checked && run->result.status == EXERCISE_PASSED) {
        const lesson *l = &s->lessons.lessons[e->lesson];
        e->passed = 1;
        if (!s->classroom && !exercise_screen_recorded(s, l, e->ex))
            ui_progress_mark(s, "exercise", l, e->ex->name);
    }
}

/* What the exercise screen opens on. */
typedef struct exercise_target {
    int lesson;
    const exercise *ex;
} exercise_target;

/* Opens an exercise of a lesson: the learner's file made if missing, watched, checked. */
static int exercise_screen_open(ui_state *s, void *self, const void *arg)
{
    exercise_screen *e = self;
    const exercise_target *to = arg;
    char dir[4096];
    chef_error err = {0};
    if (workspace_default(dir, sizeof dir, &err) != 0) {
        snprintf(s->message, sizeof s->message, " %.200s (%.90s)", err.message, err.hint);
        return -1;
    }
    workspace_exercise_path(dir, to->ex, e->path, sizeof e->path);
    if (access(e->path, F_OK) != 0) { /* the workspace's missing files from the starting ones */
        int made = 0;
        if (workspace_init(dir, &s->exercises, &made, &err) != 0) {
            snprintf(s->message, sizeof s->message, " %.200s (%.90s)", err.message, err.hint);
            return -1;
        }
        snprintf(s->message, sizeof s->message,
                 _(" Your exercises are in %s: %d starting files were copied there."), dir, made);
    }
    e->ex = to->ex;
    e->lesson = to->lesson;
    e->watch = watch_open(e->path); /* NULL: r still checks by hand, and the screen says so */
    e->nhints = exercise_hints(e->ex, i18n_current(), e->hints);
    e->passed = exercise_screen_recorded(s, &s->lessons.lessons[to->lesson], e->ex);
    exercise_screen_check(s, e);
    return 0;
}

/* Opens exercise ex of lesson lesson_index. */
static void exercise_screen_go(ui_state *s, int lesson_index, const exercise *ex)
{
    exercise_target to = {lesson_index, ex};
    ui_open(s, &ui_screen_exercise, &to);
}

/* How many exercises a lesson has (0 also when they cannot be read). */
int ui_exercise_count(ui_state *s, int lesson_index)
{
    const exercise *list[EXERCISE_MAX_LISTED];
    if (lesson_index < 0 || lesson_index >= s->lessons.count || exercise_screen_load(s, 1) != 0)
        return 0;
    return exercise_screen_list(s, lesson_index, list, EXERCISE_MAX_LISTED);
}

/* How many of a lesson's exercises the progress file records as passed. */
int ui_exercise_passed(ui_state *s, int lesson_index)
{
    const exercise *list[EXERCISE_MAX_LISTED];
    if (lesson_index < 0 || lesson_index >= s->lessons.count || exercise_screen_load(s, 1) != 0)
        return 0;
    int n = exercise_screen_list(s, lesson_index, list, EXERCISE_MAX_LISTED), passed = 0;
    for (int i = 0; i < n; i++)
        passed += exercise_screen_recorded(s, &s->lessons.lessons[lesson_index], list[i]);
    return passed;
}

/* `x`: the lesson's exercise, or the question which one, or a word that there is none. */
void ui_exercise_ask(ui_state *s, int lesson_index)
{
    if (lesson_index < 0 || lesson_index >= s->lessons.count || exercise_screen_load(s, 0) != 0)
        return;
    const exercise *list[EXERCISE_MAX_LISTED];
    int n = exercise_screen_list(s, lesson_index, list, EXERCISE_MAX_LISTED);
    if (n == 0) {
        snprintf(s->message, sizeof s->message, _(" Lesson %d has no exercise yet."),
                 s->lessons.lessons[lesson_index].number);
    } else if (n == 1) {
        exercise_screen_go(s, lesson_index, list[0]);
    } else {
        ui_open(s, &ui_screen_exercise_choice, &lesson_index);
    }
}

/* The question "which exercise?": a lesson's exercises and the one under the cursor. */
typedef struct exercise_choice_screen {
    int lesson;
    int choice;
} exercise_choice_screen;

/* Opens the question on lesson *arg. */
static int exercise_choice_open(ui_state *s, void *self, const void *arg)
{
    (void)s;
    ((exercise_choice_screen *)self)->lesson = *(const int *)arg;
    return 0;
}

/* Draws the question "which exercise?" over the screen; one already passed is ticked. */
static void exercise_choice_draw(ui_state *s, void *self)
{
    exercise_choice_screen *c = self;
    const exercise *list[EXERCISE_MAX_LISTED];
    int n = exercise_screen_list(s, c->lesson, list, EXERCISE_MAX_LISTED);
    const lesson *l = &s->lessons.lessons[c->lesson];
    char text[EXERCISE_MAX_LISTED][600];
    const char *lines[EXERCISE_MAX_LISTED];
    for (int i = 0; i < n; i++) {
        snprintf(text[i], sizeof text[i], " %d %s %s", i + 1, exercise_screen_recorded(s, l, list[i]) ? "✓" : " ",
                 exercise_title(list[i], i18n_current()));
        lines[i] = text[i];
    }
    draw_choice(s, 72, _("Which exercise? (a digit, or ↑↓ and Enter; Esc cancels)"), lines, n, c->choice);
}

/* Keys of the question "which exercise?": the exercise chosen opens, the question closed. */
static void exercise_choice_key(ui_state *s, void *self, int key)
{
    exercise_choice_screen *c = self;
    const exercise *list[EXERCISE_MAX_LISTED];
    int n = exercise_screen_list(s, c->lesson, list, EXERCISE_MAX_LISTED), lesson_index = c->lesson;
    int chosen = draw_choice_key(key, n, &c->choice);
    if (chosen == -2) {
        ui_back(s);
    } else if (chosen >= 0) {
        ui_back(s);
        exercise_screen_go(s, lesson_index, list[chosen]);
    }
}

const ui_screen_class ui_screen_exercise_choice = {
    .name = "exercise_choice",
    .size = sizeof(exercise_choice_screen),
    .open = exercise_choice_open,
    .draw = exercise_choice_draw,
    .key = exercise_choice_key,
    .flags = UI_SCREEN_OVERLAY,
};

/* e: the terminal is given to the editor on the file (through sh, so that VISUAL may carry
   options, "code -w"), then taken back; the file is checked again. Ctrl-C while the editor runs
   belongs to the editor. */
static void exercise_screen_edit(ui_state *s, exercise_screen *e)
{
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
    exercise_screen_check(s, e);
}

/* s: the reference solution, shown when the exercise passed or after the warning. */
static void exercise_screen_solution(ui_state *s, exercise_screen *e, int warned)
{
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

/* Keys of the exercise screen; while a check runs, Esc stops it. */
static void exercise_screen_key(ui_state *s, void *self, int key)
{
    exercise_screen *e = self;
    layout_reader lr;
    layout_reader_split(COLS, LINES, &lr);
    int rows = lr.body.h - 2, page = rows > 2 ? rows - 1 : 1;
    int warned = e->spoil;
    e->spoil = 0; /* the warning holds for the next key only */
    if (key == 27 && job_running(e->check)) {
        job_cancel(e->check);
        return;
    }
    if (draw_scroll_key(key, &e->top, page)) {
        e->top = layout_scroll_clamp(e->top, e->body.nlines, rows);
        return;
    }
    switch (key) {
    case 'r':
        exercise_screen_check(s, e);
        break;
    case 'e':
        exercise_screen_edit(s, e);
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
        exercise_screen_solution(s, e, warned);
        break;
    case 'q':
    case 27:
        ui_back(s);
        return;
    default:
        break;
    }
}

/* The watch's descriptor. */
static int exercise_screen_fd(const void *self)
{
    return watch_fd(((const exercise_screen *)self)->watch);
}

/* After a wake-up of the loop: a check that finished is shown; a save starts the settling time,
   which ends in a check. */
static int exercise_screen_wake(ui_state *s, void *self, int readable)
{
    exercise_screen *e = self;
    int redraw = 0;
    if (e->check && !job_running(e->check) && !e->taken) {
        exercise_screen_take(s, e);
        redraw = 1;
    }
    double now = chef_now_ms();
    if ((readable || watch_polling(e->watch)) && watch_changed(e->watch))
        e->due_ms = now + EXERCISE_SETTLE_MS; /* another write soon after moves it on */
    if (e->due_ms > 0 && now + 1 >= e->due_ms) {
        exercise_screen_check(s, e);
        redraw = 1;
    }
    return redraw;
}

/* The check the screen waits for. */
static job *exercise_screen_running(const void *self)
{
    return ((const exercise_screen *)self)->check;
}

/* Closes the exercise: its watch, its check (one still running is stopped), hints and solution. */
static void exercise_screen_close(ui_state *s, void *self)
{
    (void)s;
    exercise_screen *e = self;
    watch_close(e->watch);
    job_free(e->check);
    for (int i = 0; i < e->nhints; i++)
        free(e->hints[i]);
    free(e->solution);
    exercise_screen_forget(e);
}

/* The exercise screen's keys, for the help. */
static const char *const exercise_help[] = {
    N_("(save the file) each save is checked again, no key needed"),
    N_("e               edit the file ($VISUAL, else $EDITOR, else vi)"),
    N_("r               check it again now"),
    N_("h               the next hint, from gentle to almost the answer"),
    N_("s               the reference solution (before a pass: s twice)"),
    N_("↑↓ Space PgDn   scroll;  g G  top, bottom"),
    NULL,
};

const ui_screen_class ui_screen_exercise = {
    .name = "exercise",
    .size = sizeof(exercise_screen),
    .open = exercise_screen_open,
    .draw = exercise_screen_draw,
    .key = exercise_screen_key,
    .close = exercise_screen_close,
    .wake = exercise_screen_wake,
    .fd = exercise_screen_fd,
    .tick = exercise_screen_tick,
    .running = exercise_screen_running,
    .help = exercise_help,
    .flags = UI_SCREEN_WHEEL,
};
