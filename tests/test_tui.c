/*
 * test_tui.c - the full-screen interface driven end to end: the real build/cudachef (or
 * $CUDACHEF_BIN) runs in a pseudo-terminal (forkpty) with TERM=xterm-256color; what it writes is
 * fed to libvterm, keystrokes are sent, and the screen's cells are asserted.
 *
 * Every wait is for what the screen shows (a text there, a text gone, a cell changed) or for the
 * program's end, never for a time: a busy machine only makes a test slower. A guard, minutes long
 * and scaled by the machine's pace (test_pace.h), stops a wait that hangs, with one line saying
 * what the test waited for after which keys; a whole-program guard does the same for the rest.
 * What the program writes is fed to the screen a piece at a time and each wait looks after each
 * piece, so a screen that was drawn and then replaced while the test was not running is still seen.
 */
#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <vterm.h>

#include "base/chef.h"
#include "lessons/lesson.h"
#include "engine/recipes.h"
#include "test_pace.h"
#include "test_tree.h"

/* How long a screen may take to appear, or the program to end, before the test calls it a hang, in
   seconds on an idle machine (test_guard_s scales it): a screen takes well under a second. */
#define TUI_GUARD_S 120.0
/* The same for a check's verdict or a demo's first run: a build and a child run of their own. */
#define TUI_VERDICT_GUARD_S 300.0
/* The whole program's guard: test_tui takes about 100 s on an idle 2-core machine. */
#define TUI_WHOLE_GUARD_S 3600.0
/* What the screen is fed at a time, and a wait for a text looks at it after (a few rows' worth). */
#define TUI_PIECE 512
/* The bench's sweep runs on the emulator even where a GPU is (make test-gpu): 32 to 4096 on a GPU
   takes minutes, and its figures are tested by test_race. CUDA then sees no device. */
#define TUI_NO_GPU "CUDA_VISIBLE_DEVICES=-1"

static const char *tui_bin = "build/cudachef";
static lesson_set tui_lessons;

/* One run of the program in a pseudo-terminal, and the screen it drew. */
typedef struct tui_run {
    pid_t pid;
    int fd;
    int rows, cols;
    VTerm *vt;
    VTermScreen *screen;
    char *out;          /* every byte the program wrote */
    size_t len;
    int status;         /* exit status once it ended, -1 before */
    char state[200];    /* CUDACHEF_STATE_HOME: a new folder per run, so no test sees another's progress */
    char said[96];      /* the keys sent last, as the guards' lines name them */
} tui_run;

static tui_run *tui_current; /* killed by the teardown if a test fails midway */

/* Starts the program with extra arguments and environment ("NAME=value" strings, NULL-ended). */
static void tui_start(tui_run *r, int rows, int cols, const char *const *args, const char *const *env)
{
    memset(r, 0, sizeof *r);
    r->rows = rows;
    r->cols = cols;
    r->status = -1;
    snprintf(r->state, sizeof r->state, "%s/cudachef-tui-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(r->state));
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
    r->pid = forkpty(&r->fd, NULL, NULL, &ws);
    assert_true(r->pid >= 0);
    if (r->pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        unsetenv("NO_COLOR");
        unsetenv("LINES");
        unsetenv("COLUMNS");
        unsetenv("LANGUAGE");
        unsetenv("CUDACHEF_PROBE_DELAY_MS");
        setenv("CUDACHEF_STATE_HOME", r->state, 1);
        for (int i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        const char *argv[16] = {"cudachef"};
        int n = 1;
        for (int i = 0; args && args[i] && n < 15; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(tui_bin, (char *const *)argv);
        _exit(127);
    }
    tui_current = r;
    r->vt = vterm_new(rows, cols);
    assert_non_null(r->vt);
    vterm_set_utf8(r->vt, 1);
    r->screen = vterm_obtain_screen(r->vt);
    vterm_screen_reset(r->screen, 1);
}

/* A test of the screen: 1 when it shows what a wait waits for (ctx says what). */
typedef int (*tui_test)(tui_run *r, const void *ctx);

/* Reads what the program wrote, waiting up to ms milliseconds for it to begin (then until 50 ms
   pass without more, less once it has ended). The screen is fed TUI_PIECE bytes at a time; with
   test, it is looked at after each piece: 1 when test held after one of them, however briefly. */
static int tui_pump_watch(tui_run *r, int ms, tui_test test, const void *ctx)
{
    struct pollfd p = {r->fd, POLLIN, 0};
    int seen = 0;
    while (poll(&p, 1, ms) > 0) {
        char buf[8192];
        ssize_t n = read(r->fd, buf, sizeof buf);
        if (n <= 0)
            return seen; /* EIO: the program closed the terminal */
        for (ssize_t at = 0; at < n; at += TUI_PIECE) {
            size_t piece = (size_t)(n - at < TUI_PIECE ? n - at : TUI_PIECE);
            vterm_input_write(r->vt, buf + at, piece);
            if (test && !seen)
                seen = test(r, ctx);
        }
        char *grown = realloc(r->out, r->len + (size_t)n + 1);
        assert_non_null(grown);
        r->out = grown;
        memcpy(r->out + r->len, buf, (size_t)n);
        r->len += (size_t)n;
        r->out[r->len] = '\0';
        ms = 50; /* keep reading while it is still drawing */
    }
    return seen;
}

/* Reads what the program wrote for up to ms milliseconds (less once it has ended). */
static void tui_pump(tui_run *r, int ms)
{
    tui_pump_watch(r, ms, NULL, NULL);
}

/* Appends a UTF-32 character as UTF-8. */
static size_t tui_utf8(uint32_t c, char *out)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* The text of one row as UTF-8 (a wide character once, its second cell skipped). */
static void tui_row(tui_run *r, int row, char *out, size_t size)
{
    size_t n = 0;
    for (int col = 0; col < r->cols && n + 8 < size;) {
        VTermScreenCell cell;
        vterm_screen_get_cell(r->screen, (VTermPos){.row = row, .col = col}, &cell);
        uint32_t c = cell.chars[0] ? cell.chars[0] : ' ';
        n += tui_utf8(c, out + n);
        col += cell.width > 0 ? cell.width : 1;
    }
    out[n] = '\0';
}

/* The row where text appears, or -1; *col gets its column (counted in cells). */
static int tui_find(tui_run *r, const char *text, int *col)
{
    for (int row = 0; row < r->rows; row++) {
        char line[4096];
        tui_row(r, row, line, sizeof line);
        char *at = strstr(line, text);
        if (!at)
            continue;
        if (col) {
            *col = -1;
            size_t bytes = (size_t)(at - line), n = 0;
            for (int c = 0; c < r->cols;) {
                if (n >= bytes) {
                    *col = c;
                    break;
                }
                VTermScreenCell cell;
                vterm_screen_get_cell(r->screen, (VTermPos){.row = row, .col = c}, &cell);
                char tmp[8];
                n += tui_utf8(cell.chars[0] ? cell.chars[0] : ' ', tmp);
                c += cell.width > 0 ? cell.width : 1;
            }
        }
        return row;
    }
    return -1;
}

/* Prints the screen to stderr, framed (what it showed when a guard fired). */
static void tui_dump(tui_run *r)
{
    char line[4096];
    fprintf(stderr, "the screen when the guard fired:\n");
    for (int row = 0; row < r->rows; row++) {
        tui_row(r, row, line, sizeof line);
        fprintf(stderr, "|%s|\n", line);
    }
}

/* Waits until test holds (ctx says what) on the screen as drawn, or, with once, after any piece
   the program wrote (a screen shown while the test was away and since replaced counts: for a text
   that appears, never for one that must be gone or a row read afterwards); fails after the guard of
   base_s seconds with one line: what (printf-style words after "for"), after the keys sent last. */
static void tui_wait_until(tui_run *r, tui_test test, const void *ctx, int once, double base_s, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void tui_wait_until(tui_run *r, tui_test test, const void *ctx, int once, double base_s, const char *fmt, ...)
{
    char what[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    test_guard_note("%s after %s", what, r->said[0] ? r->said : "the program's start");
    test_guard guard = test_guard_start(base_s);
    while (!test(r, ctx)) {
        if (test_guard_over(&guard)) {
            tui_dump(r);
            test_guard_fail(test_guard_waited(&guard), "%s after %s", what, r->said[0] ? r->said : "the program's start");
        }
        if (tui_pump_watch(r, 50, once ? test : NULL, ctx))
            return; /* shown while the test was away, and since replaced: it was there */
    }
}

/* What tui_wait_text looks for, and the row it was last seen on. */
typedef struct tui_text {
    const char *text;
    int row;
} tui_text;

/* tui_test: the text is on the screen (its row kept). */
static int tui_text_shown(tui_run *r, const void *ctx)
{
    tui_text *t = (tui_text *)ctx;
    int row = tui_find(r, t->text, NULL);
    if (row >= 0)
        t->row = row;
    return row >= 0;
}

/* tui_test: the text is not on the screen. */
static int tui_text_gone(tui_run *r, const void *ctx)
{
    return tui_find(r, ((const tui_text *)ctx)->text, NULL) < 0;
}

/* Waits until text is on the screen, for the guard of base_s seconds at most; its row (where it is
   now, or where it was seen if a later frame replaced it). */
static int tui_wait_text(tui_run *r, const char *text, double base_s)
{
    tui_text t = {text, -1};
    tui_wait_until(r, tui_text_shown, &t, 1, base_s, "'%s' to appear on the screen", text);
    int now = tui_find(r, text, NULL);
    return now >= 0 ? now : t.row;
}

/* Waits until text is on the screen (a screen's guard); its row. */
static int tui_wait_for(tui_run *r, const char *text)
{
    return tui_wait_text(r, text, TUI_GUARD_S);
}

/* Waits for a check's verdict (PASS or FAIL), or a first run: long work with a build and a child
   run of its own, so its guard is longer; the screen itself keeps answering meanwhile (the cases
   here that send keys during a check wait for the screens those keys open as usual). */
static int tui_wait_verdict(tui_run *r, const char *text)
{
    return tui_wait_text(r, text, TUI_VERDICT_GUARD_S);
}

/* Waits until text has left the screen (after the keys that should take it away). */
static void tui_wait_gone(tui_run *r, const char *text)
{
    tui_text t = {text, -1};
    tui_wait_until(r, tui_text_gone, &t, 0, TUI_GUARD_S, "'%s' to leave the screen", text);
}

/* What tui_wait_row looks for: every text on one row (and not without), and that row. */
typedef struct tui_texts {
    const char *const *texts;
    int row;
    const char *without;
} tui_texts;

/* tui_test: one row holds every text, and not the text without. */
static int tui_row_holds_all(tui_run *r, const void *ctx)
{
    tui_texts *t = (tui_texts *)ctx;
    for (int row = 0; row < r->rows; row++) {
        char line[4096];
        tui_row(r, row, line, sizeof line);
        int all = !t->without || !strstr(line, t->without);
        for (int i = 0; t->texts[i] && all; i++)
            all = strstr(line, t->texts[i]) != NULL;
        if (all) {
            t->row = row;
            return 1;
        }
    }
    return 0;
}

/* Waits until one row holds every text of texts (NULL-ended), and not without (NULL: anything):
   the row drawn whole, as the test then reads it; its row. */
static int tui_wait_row_without(tui_run *r, const char *const *texts, const char *without)
{
    tui_texts t = {texts, -1, without};
    char what[1000];
    size_t n = 0;
    for (int i = 0; texts[i] && n < sizeof what; i++)
        n += (size_t)snprintf(what + n, sizeof what - n, "%s'%s'", i ? ", " : "", texts[i]);
    if (without && n < sizeof what)
        snprintf(what + n, sizeof what - n, " and without '%s'", without);
    tui_wait_until(r, tui_row_holds_all, &t, 0, TUI_GUARD_S, "one row of the screen with %s", what);
    return t.row;
}

/* Waits until one row holds every text of texts (NULL-ended); its row. */
static int tui_wait_row(tui_run *r, const char *const *texts)
{
    return tui_wait_row_without(r, texts, NULL);
}

/* tui_test: one of the texts (tui_texts, NULL-ended) is on the screen; its index in row. */
static int tui_any_shown(tui_run *r, const void *ctx)
{
    tui_texts *t = (tui_texts *)ctx;
    for (int i = 0; t->texts[i]; i++)
        if (tui_find(r, t->texts[i], NULL) >= 0) {
            t->row = i;
            return 1;
        }
    return 0;
}

/* Waits until one of texts (NULL-ended) is on the screen; the index of the one seen. */
static int tui_wait_any(tui_run *r, const char *const *texts)
{
    tui_texts t = {texts, -1, NULL};
    char what[1000];
    size_t n = 0;
    for (int i = 0; texts[i] && n < sizeof what; i++)
        n += (size_t)snprintf(what + n, sizeof what - n, "%s'%s'", i ? " or " : "", texts[i]);
    tui_wait_until(r, tui_any_shown, &t, 1, TUI_GUARD_S, "%s to appear on the screen", what);
    return t.row;
}

/* Sends keystrokes (and keeps them, as the guards' lines name them: "pressing <Esc>q"). */
static void tui_keys(tui_run *r, const char *keys)
{
    size_t len = strlen(keys), n = (size_t)snprintf(r->said, sizeof r->said, "pressing ");
    for (size_t i = 0; i < len && n + 8 < sizeof r->said; i++) {
        unsigned char c = (unsigned char)keys[i];
        const char *name = c == '\r' ? "<Enter>" : c == '\t' ? "<Tab>" : c == 033 ? "<Esc>" : NULL;
        if (name)
            n += (size_t)snprintf(r->said + n, sizeof r->said - n, "%s", name);
        else if (c < 0x20)
            n += (size_t)snprintf(r->said + n, sizeof r->said - n, "<^%c>", c + '@');
        else
            n += (size_t)snprintf(r->said + n, sizeof r->said - n, "%c", c);
    }
    assert_int_equal(write(r->fd, keys, len), (ssize_t)len);
}

/* Waits for the program to end (by the clock of the guard only: once the program has closed the
   terminal, reading returns at once). */
static void tui_wait_exit(tui_run *r)
{
    test_guard_note("cudachef to exit after %s", r->said[0] ? r->said : "the program's start");
    test_guard guard = test_guard_start(TUI_GUARD_S);
    for (double nap_ms = 1;; nap_ms = nap_ms < 20 ? 2 * nap_ms : 20) {
        tui_pump(r, 10);
        int st;
        pid_t got = waitpid(r->pid, &st, WNOHANG);
        if (got == r->pid) {
            tui_pump(r, 50);
            r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return;
        }
        if (test_guard_over(&guard)) {
            tui_dump(r);
            test_guard_fail(test_guard_waited(&guard), "cudachef to exit after %s", r->said[0] ? r->said : "the program's start");
        }
        test_nap_ms(nap_ms);
    }
}

/* Frees a run, killing the program if it is still there. */
static void tui_end(tui_run *r)
{
    if (r->status < 0 && r->pid > 0) {
        kill(r->pid, SIGKILL);
        waitpid(r->pid, NULL, 0);
        r->status = 137;
    }
    if (r->vt)
        vterm_free(r->vt);
    if (r->fd > 0)
        close(r->fd);
    free(r->out);
    if (r->state[0]) {
        char cmd[320];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", r->state);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", r->state);
    }
    memset(r, 0, sizeof *r);
    tui_current = NULL;
}

/* Sends the keys that should end the program, and checks that it ended with 0. */
static void tui_finish(tui_run *r, const char *keys)
{
    tui_keys(r, keys);
    tui_wait_exit(r);
    assert_int_equal(r->status, 0);
    tui_end(r);
}

/* After each test: no program is left running, even when the test failed midway. */
static int tui_teardown(void **state)
{
    (void)state;
    if (tui_current)
        tui_end(tui_current);
    return 0;
}

/* Lesson 1 as loaded from lessons/. */
static const lesson *tui_lesson1(void)
{
    assert_true(tui_lessons.count > 0);
    return &tui_lessons.lessons[0];
}

/* Starts the program (100 x 30) with extra arguments and environment and waits for the home
   screen: lesson 1's title and who cooks. */
static void tui_open_home(tui_run *r, const char *const *args, const char *const *env)
{
    tui_start(r, 30, 100, args, env);
    tui_wait_for(r, tui_lesson1()->title[I18N_EN]);
    tui_wait_for(r, "Who cooks:");
}

/* Starts the program (100 x 30) and opens lesson 1 at its first page. */
static void tui_open_lesson1(tui_run *r)
{
    const lesson *l = tui_lesson1();
    tui_start(r, 30, 100, NULL, NULL);
    tui_wait_for(r, l->title[I18N_EN]);
    tui_keys(r, "\r");
    tui_wait_for(r, l->text[I18N_EN].items[0].title);
}

/* At 150 columns the home screen still shows how far each lesson got (it left the column out at
   123 and wider), a lesson with 1 of its 2 exercises passed says so, and digits choose a lesson by
   its number: 1 then 2 is lesson 12, then 3 is lesson 3. */
static void test_home_wide_progress_and_numbers(void **state)
{
    (void)state;
    static tui_run r;
    static char dir[200], env[320];
    snprintf(dir, sizeof dir, "%s/cudachef-tui-home-%d", test_tmp_dir(), (int)getpid());
    assert_int_equal(mkdir(dir, 0700), 0);
    char path[320];
    snprintf(path, sizeof path, "%s/progress", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# cudachef progress, format 1: see docs/PROGRESS.md\nexercise teams-and-cooks bounds-check\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(env, sizeof env, "CUDACHEF_STATE_HOME=%s", dir);
    const char *envs[] = {env, NULL};
    tui_start(&r, 40, 150, NULL, envs);
    const lesson *one = tui_lesson1(), *three = &tui_lessons.lessons[2];
    tui_wait_for(&r, one->title[I18N_EN]);
    tui_wait_for(&r, "1 of 3 exercises passed");
    const char *const three_passed[] = {three->title[I18N_EN], "1 of 3 exercises passed", NULL};
    tui_wait_row(&r, three_passed);
    const char *const one_not_started[] = {one->title[I18N_EN], "not started", NULL};
    tui_wait_row(&r, one_not_started);
    const lesson *last = &tui_lessons.lessons[tui_lessons.count - 1];
    if (last->number >= 10) {
        char keys[16];
        snprintf(keys, sizeof keys, "%d\r", last->number);
        tui_keys(&r, keys);
        tui_wait_for(&r, last->text[I18N_EN].items[0].title);
        tui_keys(&r, "q");
        tui_wait_for(&r, "q quit");
    }
    tui_keys(&r, "3\r");
    tui_wait_for(&r, three->text[I18N_EN].items[0].title);
    tui_finish(&r, "qq");
    unlink(path);
    rmdir(dir);
}

/* Home lists lesson 1; Enter opens its first page; q q quits with 0, leaving the alternate screen. */
static void test_home_reader_quit(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    tui_start(&r, 46, 100, NULL, NULL); /* rows for every lesson and, below them, the picture */
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_wait_for(&r, "q quit");
    tui_wait_for(&r, "Who cooks:");
    tui_wait_for(&r, "the head chef: the CPU"); /* the picture's caption (assets/art/home.txt) */
    tui_keys(&r, "\r");
    tui_wait_for(&r, l->text[I18N_EN].items[0].title);
    tui_keys(&r, "n");
    tui_wait_for(&r, l->text[I18N_EN].items[1].title);
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    tui_keys(&r, "q");
    tui_wait_exit(&r);
    assert_int_equal(r.status, 0);
    const char *enter = NULL, *leave = NULL;
    for (const char *p = r.out; (p = strstr(p, "\033[?1049h")); p++)
        enter = p;
    for (const char *p = r.out; (p = strstr(p, "\033[?1049l")); p++)
        leave = p;
    assert_non_null(enter);
    assert_non_null(leave);
    assert_true(leave > enter);
    /* after it, only control sequences (no more text drawn): ESC sequences, CR, LF */
    for (const char *p = leave; *p; p++) {
        if (*p == '\r' || *p == '\n')
            continue;
        assert_int_equal(*p, '\033');
        p++;
        if (*p == '[')
            while (p[1] && !(p[1] >= '@' && p[1] <= '~'))
                p++;
        p++;
        if (!*p)
            break;
    }
    tui_end(&r);
}

/* A question answered in place: a letter shows the verdict and the choice's explanation. The
   choices come in the learner's order (CUDACHEF_ANSWER_SEED here), which the test makes too. */
static void test_question_answered(void **state)
{
    (void)state;
    static tui_run r;
    static lesson_set mine;
    chef_error err = {0};
    assert_int_equal(lesson_load_all("lessons", "kernels", &mine, &err), 0);
    lesson_shuffle_choices(&mine, 424242);
    const lesson *l = &mine.lessons[0];
    const lesson_text *t = &l->text[I18N_EN];
    int q = -1;
    for (int i = 0; i < t->nitems && q < 0; i++)
        if (t->items[i].kind == ITEM_QUESTION && t->items[i].nchoices > 0)
            q = i;
    if (q < 0)
        skip();
    static const char *const env[] = {"CUDACHEF_ANSWER_SEED=424242", NULL};
    tui_start(&r, 30, 100, NULL, env);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "\r");
    tui_wait_for(&r, t->items[0].title);
    for (int i = 0; i < q; i++)
        tui_keys(&r, "n");
    tui_wait_for(&r, "a)");
    int right = 0;
    for (int c = 0; c < t->items[q].nchoices; c++)
        if (t->items[q].choices[c].right)
            right = c;
    char key[2] = {(char)('a' + right), 0};
    tui_keys(&r, key);
    tui_wait_for(&r, "Right:");
    tui_finish(&r, "qq");
    lesson_set_free(&mine);
}

/* A 40 x 10 terminal gets the screen that asks for 80 x 24. */
static void test_too_small(void **state)
{
    (void)state;
    static tui_run r;
    tui_start(&r, 10, 40, NULL, NULL);
    tui_wait_for(&r, "enlarge the terminal to 80 x 24");
    tui_finish(&r, "q");
}

/* 1 when some cell of the screen passes test. */
static int tui_any_cell(tui_run *r, int (*test)(const VTermScreenCell *))
{
    for (int row = 0; row < r->rows; row++)
        for (int col = 0; col < r->cols; col++) {
            VTermScreenCell cell;
            vterm_screen_get_cell(r->screen, (VTermPos){.row = row, .col = col}, &cell);
            if (test(&cell))
                return 1;
        }
    return 0;
}

/* 1 when a cell has a colour other than the terminal's default. */
static int tui_cell_colored(const VTermScreenCell *cell)
{
    return !VTERM_COLOR_IS_DEFAULT_FG(&cell->fg) || !VTERM_COLOR_IS_DEFAULT_BG(&cell->bg);
}

/* 1 when a cell holds a character outside ASCII. */
static int tui_cell_wide(const VTermScreenCell *cell)
{
    return cell->chars[0] > 0x7E;
}

/* NO_COLOR=1 and --no-color draw with attributes only; without them the theme has colour. */
static void test_no_color(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    const char *no_color[] = {"NO_COLOR=1", NULL};
    tui_open_home(&r, NULL, no_color);
    assert_false(tui_any_cell(&r, tui_cell_colored));
    tui_keys(&r, "q");
    tui_wait_exit(&r);
    tui_end(&r);

    const char *vt100[] = {"TERM=vt100", NULL}; /* a terminal without colour */
    tui_open_home(&r, NULL, vt100);
    assert_false(tui_any_cell(&r, tui_cell_colored));
    tui_finish(&r, "q");

    const char *flag[] = {"--no-color", NULL};
    tui_start(&r, 30, 100, flag, NULL);
    tui_wait_for(&r, l->title[I18N_EN]);
    assert_false(tui_any_cell(&r, tui_cell_colored));
    tui_keys(&r, "q");
    tui_wait_exit(&r);
    tui_end(&r);

    tui_start(&r, 30, 100, NULL, NULL);
    tui_wait_for(&r, l->title[I18N_EN]);
    assert_true(tui_any_cell(&r, tui_cell_colored));
    tui_finish(&r, "q");
}

/* --lang ko: the Korean title, each syllable two cells wide, and the list's frame still aligned. */
static void test_korean_aligned(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    const char *title = l->title[I18N_KO];
    assert_non_null(title);
    const char *args[] = {"--lang", "ko", NULL};
    tui_start(&r, 30, 100, args, NULL);
    int row = tui_wait_for(&r, title);
    int col = -1;
    tui_find(&r, title, &col);
    assert_true(col >= 0);
    VTermScreenCell cell;
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row, .col = col}, &cell);
    assert_true(cell.chars[0] >= 0xAC00 && cell.chars[0] <= 0xD7A3); /* a Hangul syllable */
    assert_int_equal(cell.width, 2);
    /* the right edge of the frame is in the same column on the title's row and the one below */
    VTermScreenCell edge, below;
    int right = r.cols - 3;
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row, .col = right}, &edge);
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row + 1, .col = right}, &below);
    assert_int_equal(edge.chars[0], 0x2502); /* │ */
    assert_int_equal(below.chars[0], 0x2502);
    tui_finish(&r, "q");
}

/* Lesson 2's page with the tiny demo: r cooks [1,2,3,4] + [5,6,7,8] for real; the steps show the
   run's figures, the taste passes with 6 8 10 12, and q goes back to the reader. */
static void test_kitchen_tiny(void **state)
{
    (void)state;
    static tui_run r;
    assert_true(tui_lessons.count > 1);
    const lesson *l = &tui_lessons.lessons[1];
    const lesson_text *t = &l->text[I18N_EN];
    int page = -1;
    for (int i = 0; i < t->nitems && page < 0; i++)
        for (int d = 0; d < t->items[i].ndemos; d++)
            if (strcmp(t->items[i].demos[d], "tiny") == 0)
                page = i;
    assert_true(page >= 0);
    tui_start(&r, 30, 100, NULL, NULL);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "j\r");
    tui_wait_for(&r, t->items[0].title);
    for (int i = 0; i < page; i++)
        tui_keys(&r, "n");
    tui_wait_for(&r, t->items[page].title);
    tui_wait_for(&r, "r cook the demo");
    tui_keys(&r, "r");
    tui_wait_for(&r, "Kitchen:");
    tui_wait_for(&r, "1 prepare");
    tui_wait_for(&r, "1 2 3 4");
    tui_wait_for(&r, "holds 48 bytes");
    tui_keys(&r, "l");
    tui_wait_for(&r, "(VRAM): 32 bytes");
    tui_keys(&r, "l");
    tui_wait_for(&r, "teams: 1, cooks: 4");
    tui_wait_for(&r, " stations ("); /* SMs on a GPU; workers, with "Times are CPU times", on the emulator */
    tui_keys(&r, "l");
    tui_wait_for(&r, "16 bytes");
    tui_keys(&r, "l");
    tui_wait_for(&r, "Passed: 4 of 4");
    tui_wait_for(&r, "6 8 10 12");
    tui_wait_for(&r, "Timings of this run");
    tui_wait_for(&r, "CPU reference");
    tui_wait_for(&r, "On the road: ");
    tui_keys(&r, "q");
    tui_wait_for(&r, "r cook the demo");
    tui_wait_gone(&r, "Kitchen:");
    tui_finish(&r, "qq");
}

/* Starts the program (100 x 30, with extra arguments and environment) and opens the page of the
   lesson at index that places demo; returns the demo's place among the page's demos. */
static int tui_open_demo_page(tui_run *r, int index, const char *demo, const char *const *args,
                              const char *const *env)
{
    assert_true(tui_lessons.count > index);
    const lesson *l = &tui_lessons.lessons[index];
    const lesson_text *t = &l->text[I18N_EN];
    int page = -1, which = 0;
    for (int i = 0; i < t->nitems && page < 0; i++)
        for (int d = 0; d < t->items[i].ndemos; d++)
            if (strcmp(t->items[i].demos[d], demo) == 0) {
                page = i;
                which = d;
            }
    assert_true(page >= 0);
    tui_start(r, 30, 100, args, env);
    tui_wait_for(r, l->title[I18N_EN]);
    for (int i = 0; i < index; i++)
        tui_keys(r, "j");
    tui_keys(r, "\r");
    tui_wait_for(r, t->items[0].title);
    for (int i = 0; i < page; i++)
        tui_keys(r, "n");
    tui_wait_for(r, t->items[page].title);
    return t->items[page].ndemos > 1 ? which : -1;
}

/* The same, then cooks the demo (r, and its digit when the page asks which); the kitchen shows its
   first step. */
static void tui_open_demo_kitchen(tui_run *r, int index, const char *demo, const char *const *args,
                                  const char *const *env)
{
    int which = tui_open_demo_page(r, index, demo, args, env);
    tui_wait_for(r, "r cook the demo");
    tui_keys(r, "r");
    if (which >= 0) { /* the page asks which of its demos */
        tui_wait_for(r, "Which demo?");
        char key[2] = {(char)('1' + which), '\0'};
        tui_keys(r, key);
    }
    tui_wait_for(r, "1 prepare");
}

/* Opens lesson 2's page with the tiny demo and cooks it (r); the kitchen shows its first step. */
static void tui_open_tiny_kitchen(tui_run *r)
{
    tui_open_demo_kitchen(r, 1, "tiny", NULL, NULL);
}

/* The cook step replays the trace: the scale is shown, `.` pauses and steps to the next change
   (the one team finishing), and Space plays it again from the start. */
static void test_kitchen_replay(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_tiny_kitchen(&r);
    tui_keys(&r, "ll");
    tui_wait_for(&r, "teams: 1, cooks: 4");
    tui_wait_for(&r, "1 s on screen = ");
    tui_keys(&r, " "); /* pause (or replay if it already ended) */
    tui_keys(&r, ".");
    tui_keys(&r, ".");
    tui_wait_for(&r, "done 1/1");
    tui_wait_for(&r, "Space replays");
    tui_wait_for(&r, "Team 0 under the cursor");
    tui_keys(&r, "z"); /* zoom into team 0: its 4 cooks, each with the element it cooked */
    tui_wait_for(&r, "Team 0 of 1: 4 cooks in one warp of 32, 0 idle");
    int gpu = tui_find(&r, "On a GPU per-cook records are not kept", NULL) >= 0;
    tui_wait_for(&r, gpu ? "w0  □□□□" : "w0  ■■■■"); /* a GPU's: the recipe's mapping */
    tui_keys(&r, "lll");
    tui_wait_for(&r, "Cook 3 (warp 0 lane 3)");
    tui_wait_for(&r, gpu ? "the recipe's mapping gives it element 3" : "cooked: wrote 3, read 3");
    tui_keys(&r, "z");
    tui_wait_for(&r, "done 1/1");
    tui_finish(&r, "qqq");
}

/* The ship steps move a load from the pantry to the kitchen: `.` moves it a tenth of the way on,
   ten of them bring all 32 bytes across, and the scale is shown; shipping out brings 16 back. */
static void test_kitchen_shipping(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_tiny_kitchen(&r);
    tui_keys(&r, "l");
    tui_wait_for(&r, "Head chef's pantry (RAM)");
    tui_wait_for(&r, "Kitchen's pantry (VRAM)");
    tui_wait_for(&r, "1 s on screen = ");
    tui_keys(&r, " "); /* pause (or replay if it already arrived) */
    for (int i = 0; i < 10; i++)
        tui_keys(&r, ".");
    tui_wait_for(&r, "32 B arrived");
    tui_wait_for(&r, "0 B left to ship");
    tui_keys(&r, "ll");
    tui_wait_for(&r, "16 bytes");
    tui_keys(&r, " ");
    for (int i = 0; i < 10; i++)
        tui_keys(&r, ".");
    tui_wait_for(&r, "16 B arrived");
    tui_finish(&r, "qqq");
}

/* The learner changes the parameters in the kitchen and cooks again: + doubles n (4 to 8) and
   Enter cooks 8 elements that all taste right; [ halves the threads per team (4 to 2), p pins the
   host memory, and the next run has 4 teams of 2 cooks with pinned shipments. */
static void test_kitchen_parameters(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_tiny_kitchen(&r);
    tui_wait_for(&r, "n = 4 ");
    tui_wait_for(&r, "threads per team = 4 ");
    tui_keys(&r, "+");
    tui_wait_for(&r, "n = 8 ");
    tui_wait_for(&r, "changed: Enter cooks again");
    tui_keys(&r, "\r");
    tui_wait_for(&r, "holds 96 bytes"); /* a, b and c: 3 x 8 floats */
    tui_wait_gone(&r, "changed: Enter");
    tui_keys(&r, "llll");
    tui_wait_for(&r, "Passed: 8 of 8");
    tui_keys(&r, "[p");
    tui_wait_for(&r, "threads per team = 2 ");
    tui_wait_for(&r, "= 2   pinned   backend");
    tui_keys(&r, "\r");
    tui_wait_for(&r, "Passed: 8 of 8");
    tui_keys(&r, "hh");
    tui_wait_for(&r, "teams: 4, cooks: 8");
    tui_keys(&r, "h");
    tui_wait_for(&r, "GB/s, pinned host memory");
    tui_finish(&r, "qqq");
}

/* Starts `cudachef --classroom 2` and waits for step 1's caption; copies the row with the
   input a's values into a_row (the data the class sees). */
static void tui_open_classroom(tui_run *r, char *a_row, size_t size)
{
    static const char *const args[] = {"--classroom", "2", NULL};
    tui_start(r, 30, 100, args, NULL);
    tui_wait_for(r, "Classroom:");
    tui_wait_for(r, "Step 1, prepare");
    int row = tui_wait_for(r, "  a: ");
    tui_row(r, row, a_row, size);
}

/* Classroom mode: --classroom 2 opens the kitchen of lesson 2's first run demo on step 1 with its
   caption; Space moves to step 2's caption (and left back), nothing moves on by itself, and a
   second run shows the same data (the demo's own: inputs are never random without a fixed seed). */
static void test_classroom(void **state)
{
    (void)state;
    static tui_run r;
    char first[4096], second[4096];
    tui_open_classroom(&r, first, sizeof first);
    assert_int_equal(tui_find(&r, "threads per team", NULL), -1); /* the parameters are hidden */
    tui_keys(&r, " ");
    tui_wait_for(&r, "Step 2, ship in");
    tui_wait_gone(&r, "Step 1, prepare");
    tui_pump(&r, 300); /* nothing advances by itself */
    assert_true(tui_find(&r, "Step 2, ship in", NULL) >= 0);
    tui_keys(&r, "\033OD"); /* left arrow (as keypad mode sends it): back to step 1 */
    tui_wait_for(&r, "Step 1, prepare");
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit"); /* the home screen */
    tui_finish(&r, "q");
    tui_open_classroom(&r, second, sizeof second);
    assert_string_equal(first, second);
    assert_non_null(strstr(first, "1 2 3 4")); /* the demo's own data (its title's numbers), every run */
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    tui_finish(&r, "q");
}

/* Classroom mode on a projector's 200 x 50: from the home screen a lesson with several demos asks
   which (lesson 3's cook who reaches outside can go on the screen), a caption takes one row where
   100 columns would wrap it, d asks again, B moves to the next backend (twice: the emulator) and L
   switches the language live; q goes home. */
static void test_classroom_picker(void **state)
{
    (void)state;
    static tui_run r;
    static const char *const args[] = {"--classroom", NULL};
    tui_start(&r, 50, 200, args, NULL);
    tui_wait_for(&r, tui_lessons.lessons[2].title[I18N_EN]);
    tui_keys(&r, "jj\r");
    tui_wait_for(&r, "Which demo?");
    tui_keys(&r, "2");
    tui_wait_for(&r, "Classroom: Without the bounds check");
    /* the first run of the session: on a GPU machine the CUDA context starts first (seconds) */
    tui_wait_verdict(&r, "Step 1, prepare");
    static const char *const step1[] = {"Step 1, prepare", "Nothing is on the GPU yet.", NULL};
    tui_wait_row(&r, step1);
    tui_keys(&r, "d");
    tui_wait_for(&r, "Which demo?");
    tui_keys(&r, "1");
    tui_wait_for(&r, "Classroom: 1,000 elements, teams of 256");
    tui_keys(&r, "  "); /* step 3 */
    tui_wait_for(&r, "Step 3, cook");
    tui_keys(&r, "B"); /* auto to gpu: a GPU's stations, or no GPU to cook on */
    static const char *const gpu_or_none[] = {"(traced: %smid, %globaltimer)", "no usable GPU", NULL};
    tui_wait_any(&r, gpu_or_none);
    tui_wait_gone(&r, "stations (workers)");
    tui_keys(&r, "B"); /* gpu to the emulator */
    tui_wait_for(&r, "stations (workers)");
    tui_keys(&r, "L");
    tui_wait_for(&r, "교실: ");
    tui_keys(&r, "L");
    tui_wait_for(&r, "Classroom: ");
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    tui_finish(&r, "q");
}

/* A learner's kernel for `try --kitchen` in a file of its own (named after what, with a cache
   folder of its own named in env, "CUDACHEF_CACHE_HOME=..."), and their removal. */
typedef struct tui_kernel {
    char file[320], cache[320], env[400];
} tui_kernel;

static void tui_kernel_write(tui_kernel *k, const char *what, const char *source)
{
    snprintf(k->file, sizeof k->file, "%s/cudachef-%s-%d.cu", test_tmp_dir(), what, (int)getpid());
    snprintf(k->cache, sizeof k->cache, "%s/cudachef-%s-cache-%d", test_tmp_dir(), what, (int)getpid());
    snprintf(k->env, sizeof k->env, "CUDACHEF_CACHE_HOME=%s", k->cache);
    FILE *f = fopen(k->file, "w");
    assert_non_null(f);
    fputs(source, f);
    assert_int_equal(fclose(f), 0);
}

static void tui_kernel_remove(const tui_kernel *k)
{
    unlink(k->file);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", k->cache);
    assert_int_equal(system(cmd), 0);
}

/* A kernel whose cook 37 of team 1 writes a wrong value: the taste names the team and the cook that
   wrote each wrong element, and the zoom into team 1 marks that cook as wrong. */
static void test_taste_names_the_cook(void **state)
{
    (void)state;
    static tui_run r;
    static tui_kernel k;
    tui_kernel_write(&k, "wrong",
                     "#include \"kernel.h\"\n"
                     "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
                     "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i < n) c[i] = i == 293 ? 7.0f : a[i] + b[i];\n}\n");
    const char *args[] = {"try", k.file, "--kitchen", "--n", "1000", NULL};
    const char *envs[] = {k.env, TUI_NO_GPU, NULL};
    tui_start(&r, 30, 100, args, envs);
    tui_wait_verdict(&r, "your vector_add"); /* after the kernel's build: long work */
    tui_keys(&r, "llll");
    tui_wait_for(&r, "Failed: 999 of 1000");
    tui_wait_for(&r, "element 293: expected ");
    tui_wait_for(&r, "got 7 (written by cook 37 of team 1)");
    tui_keys(&r, "hh");
    tui_wait_for(&r, "Team 0 under the cursor");
    tui_keys(&r, "jz");
    tui_wait_for(&r, "Team 1 of 4: 256 cooks in 8 warps of 32, 0 idle");
    tui_wait_for(&r, "✗ wrote a wrong value 1");
    tui_finish(&r, "zq");
    tui_kernel_remove(&k);
}

/* A whole program's kitchen (try PROGRAM.cu --kitchen): its journey in the five steps, a shipment's
   load on the road, the watched launch (the first checked one) replayed with its zoom, floor,
   memory view and step-through; Enter on the other kernel's launch runs the program again with that
   launch watched, and its output is kept for `o`. */
static void test_program_kitchen(void **state)
{
    (void)state;
    static tui_run r;
    static tui_kernel k;
    tui_kernel_write(&k, "program",
                     "#include <cstdio>\n"
                     "__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i < n) x[i] *= 2.0f; }\n"
                     "__global__ void shift(float *x, int n) { __shared__ float t[64];\n"
                     "    int i = blockIdx.x * blockDim.x + threadIdx.x; t[threadIdx.x] = i < n ? x[i] : 0;\n"
                     "    __syncthreads(); if (i < n) x[i] = t[threadIdx.x] + 1.0f; }\n"
                     "int main() {\n"
                     "    const int n = 1000; float h[n], *d;\n"
                     "    for (int i = 0; i < n; i++) h[i] = (float)i;\n"
                     "    cudaMalloc(&d, n * sizeof(float));\n"
                     "    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n"
                     "    scale<<<(n + 63) / 64, 64>>>(d, n);\n"
                     "    scale<<<(n + 63) / 64, 64>>>(d, n);\n"
                     "    shift<<<(n + 63) / 64, 64>>>(d, n);\n"
                     "    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);\n"
                     "    cudaFree(d);\n"
                     "    printf(\"h[999] = %g\\n\", h[999]);\n"
                     "    return h[999] == 3997.0f ? 0 : 1;\n"
                     "}\n");
    const char *args[] = {"try", k.file, "--kitchen", NULL};
    const char *envs[] = {k.env, TUI_NO_GPU, NULL};
    tui_start(&r, 30, 100, args, envs);
    tui_wait_verdict(&r, "on the CPU emulator: it exited 0"); /* after the build and the run */
    /* the cursor starts on the watched launch: scale's first, replayed on the stations */
    int row = tui_wait_for(&r, "scale<<<(16,1,1), (64,1,1)>>>");
    char line[4096];
    tui_row(&r, row, line, sizeof line);
    assert_non_null(strstr(line, "watched"));
    assert_non_null(strstr(line, "3 cook"));
    tui_wait_for(&r, "Team 0 under the cursor");
    tui_wait_for(&r, "MODELED on");
    tui_wait_for(&r, "Idle cooks (nothing read or written): 24, 24 of them in the last team"); /* 1024 cooks, n = 1000 */
    tui_keys(&r, "\r"); /* its teams take the keys: j the next team, z zooms into it */
    tui_wait_for(&r, "Esc the journey");
    tui_keys(&r, "jz");
    tui_wait_for(&r, "Team 1 of 16: 64 cooks in 2 warps of 32");
    tui_keys(&r, "z");
    tui_wait_gone(&r, "Team 1 of 16: 64 cooks");
    tui_keys(&r, "\x1b");
    tui_wait_gone(&r, "Esc the journey");
    tui_keys(&r, "f");
    tui_wait_for(&r, "Floor plan: scale, 16 teams of 64 cooks");
    tui_keys(&r, "q");
    tui_keys(&r, "a");
    tui_wait_for(&r, "Memory: scale");
    tui_keys(&r, "q");
    tui_keys(&r, "s");
    tui_wait_for(&r, "team 0");
    tui_keys(&r, "q");
    /* the shipment in, one event up: its load on the road */
    tui_keys(&r, "k");
    tui_wait_for(&r, "2 ship in");
    tui_wait_for(&r, "Kitchen's pantry (VRAM)");
    tui_keys(&r, ".");
    tui_wait_for(&r, "arrived");
    /* shift's launch is not watched: Enter runs the program again watching it */
    tui_keys(&r, "jjj");
    tui_wait_for(&r, "Enter: watch this launch");
    tui_keys(&r, "\r");
    const char *shifted[] = {"shift<<<(16,1,1), (64,1,1)>>>", ", watched", NULL};
    tui_wait_row(&r, shifted);
    tui_wait_for(&r, "Team 0 under the cursor");
    tui_keys(&r, "o");
    tui_wait_for(&r, "h[999] = 3997");
    tui_finish(&r, "oq");
    tui_kernel_remove(&k);
}

/* The memory view: `a` on lesson 3's cook step shows team 0's warp 0 reading a: 4 sectors in one
   line, every word of it reached; lesson 6's comparison opens it on its recipes (Tab: the next), and
   the tiled kernel's shared loads are drawn against the 32 banks. */
static void test_memory_view(void **state)
{
    (void)state;
    static tui_run r;
    static const char *const args[] = {"--classroom", "3", NULL};
    const char *no_gpu[] = {TUI_NO_GPU, NULL};
    tui_start(&r, 24, 80, args, no_gpu);
    tui_wait_for(&r, "Step 1, prepare");
    tui_keys(&r, "  ");
    tui_wait_for(&r, "Step 3, cook");
    tui_keys(&r, "a");
    tui_wait_for(&r, "Memory: vector-add, the warps of team 0");
    tui_wait_for(&r, "Warp 0 of 8, instruction 1 of 3, after 0 barriers: a global load of 4 bytes");
    tui_wait_for(&r, "Sectors of 32 bytes: 4; lines of 128 bytes: 1;");
    tui_wait_for(&r, "a[0..]        ■■■■■■■■ ■■■■■■■■ ■■■■■■■■ ■■■■■■■■");
    tui_keys(&r, "jj");
    tui_wait_for(&r, "a global store of 4 bytes");
    tui_keys(&r, "l");
    tui_wait_for(&r, "Warp 1 of 8, instruction 3 of 3");
    tui_wait_for(&r, "c[32..]");
    tui_finish(&r, "qqq");

    tui_open_demo_page(&r, 5, "tiled", NULL, no_gpu);
    tui_keys(&r, "r");
    tui_wait_for(&r, "a memory of each recipe");
    tui_keys(&r, "a");
    tui_wait_for(&r, "Memory: matmul-coalesced, the warps of team 0");
    tui_wait_for(&r, "a global load");
    tui_keys(&r, "\t");
    tui_wait_for(&r, "Memory: matmul-tiled, the warps of team 0");
    tui_wait_for(&r, "a global load"); /* counted: its first instruction is shown */
    /* j steps through the warp's instructions, each one drawn before the next j, to a shared one */
    int shared = 0;
    for (int i = 0; i < 10 && !shared; i++) {
        int index = 0, count = 0;
        char line[4096], next[64];
        tui_row(&r, tui_wait_for(&r, ", instruction "), line, sizeof line);
        assert_int_equal(sscanf(strstr(line, ", instruction "), ", instruction %d of %d", &index, &count), 2);
        if (index >= count)
            break;
        tui_keys(&r, "j");
        snprintf(next, sizeof next, "instruction %d of %d, after ", index + 1, count);
        const char *const drawn[] = {next, " barriers: a ", NULL};
        tui_row(&r, tui_wait_row(&r, drawn), line, sizeof line);
        shared = strstr(line, "a shared ") != NULL;
    }
    assert_true(shared);
    tui_wait_for(&r, "The 32 banks of the shared locker");
    tui_wait_for(&r, "words ");
    tui_finish(&r, "qqqq");
}

/* The step-through, s on the cook step: lesson 6's kernel without the barrier after filling the
   locker races (a cook writes a word another reads in the same phase, both named); a barrier
   inside an if stops the launch with half the team waiting at it, drawn as stuck. */
static void test_step_through(void **state)
{
    (void)state;
    static tui_run r;
    static tui_kernel k;
    const char *no_gpu[] = {TUI_NO_GPU, NULL};
    static const char *const lesson6[] = {"--classroom", "6", NULL};
    tui_start(&r, 30, 100, lesson6, no_gpu);
    tui_wait_for(&r, "Step 1, prepare");
    tui_keys(&r, "  ");
    tui_wait_for(&r, "Step 3, cook");
    tui_keys(&r, "s");
    tui_wait_for(&r, "Step-through: matmul_tiled_no_fill_barrier, team 0, phase 1 of ");
    tui_wait_for(&r, "Race: cook 0 writes shared word 0 and cook 16 reads it in the same phase");
    tui_wait_for(&r, "w0  !!!!");
    tui_finish(&r, "qqq");
    tui_kernel_write(&k, "steps",
                     "#include \"kernel.h\"\n"
                     "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
                     "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (threadIdx.x < 128)\n        __syncthreads();\n    if (i < n) c[i] = a[i] + b[i];\n}\n");
    const char *args[] = {"try", k.file, "--kitchen", "--n", "256", NULL};
    const char *envs[] = {k.env, TUI_NO_GPU, NULL};
    tui_start(&r, 30, 100, args, envs);
    tui_wait_verdict(&r, "your vector_add"); /* after the kernel's build: long work */
    tui_keys(&r, "ll");
    tui_wait_for(&r, "The launch stopped at a fault in team 0");
    tui_keys(&r, "s");
    tui_wait_for(&r, "The launch stopped in this phase: 128 cooks wait at a barrier the other 128 never reach");
    tui_wait_for(&r, "w0  ‖‖‖‖");
    tui_finish(&r, "qq");
    tui_kernel_remove(&k);
}

/* Every new view of the cook step, at 80 x 24, 120 x 40 and 200 x 60, in English and Korean, in
   ASCII without colour: the warps (z), the floor plan (f), the memory view (a) and the
   step-through (s) of lesson 6's kernel that misses a barrier, each opening with its own heading
   and going back to the kitchen with q. */
static void test_views_everywhere(void **state)
{
    (void)state;
    static tui_run r;
    static const struct {
        int rows, cols;
        const char *lang, *locale, *step1, *step3, *floor, *memory, *steps;
    } runs[] = {
        {24, 80, "en", NULL, "Step 1, prepare", "Step 3, cook", " Floor plan: ", " Memory: ", " Step-through: "},
        {40, 120, "ko", NULL, "1단계, 준비", "3단계, 요리", " 주방 배치도: ", " 메모리: ", " 한 단계씩 보기: "},
        {60, 200, "en", "LC_ALL=C", "Step 1, prepare", "Step 3, cook", " Floor plan: ", " Memory: ", " Step-through: "},
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        const char *args[] = {"--classroom", "6", "--lang", runs[i].lang, NULL};
        const char *env[] = {TUI_NO_GPU, runs[i].locale ? "NO_COLOR=1" : NULL, runs[i].locale, NULL};
        tui_start(&r, runs[i].rows, runs[i].cols, args, env);
        tui_wait_for(&r, runs[i].step1);
        tui_keys(&r, "  ");
        tui_wait_for(&r, runs[i].step3);
        tui_keys(&r, "z");
        tui_wait_for(&r, "w7 ");
        tui_keys(&r, "zf");
        tui_wait_for(&r, runs[i].floor);
        tui_keys(&r, "q");
        tui_wait_for(&r, runs[i].step3);
        tui_keys(&r, "a");
        tui_wait_for(&r, runs[i].memory);
        tui_keys(&r, "q");
        tui_wait_for(&r, runs[i].step3);
        tui_keys(&r, "s");
        tui_wait_for(&r, runs[i].steps);
        if (runs[i].locale) {
            assert_false(tui_any_cell(&r, tui_cell_wide));
            assert_false(tui_any_cell(&r, tui_cell_colored));
        }
        tui_keys(&r, "q");
        tui_wait_for(&r, runs[i].step3);
        tui_finish(&r, "qq");
    }
}

/* The team zoom shows the idle cooks of the last team: lesson 3's 1000 elements in teams of 256
   leave the 4th team's cooks 232-255 idle, drawn as such in warp 7; cook 231, the last with an
   element, wrote 999. */
static void test_team_zoom_idle(void **state)
{
    (void)state;
    static tui_run r;
    static const char *const args[] = {"--classroom", "3", NULL};
    tui_start(&r, 30, 100, args, NULL);
    tui_wait_for(&r, "Step 1, prepare");
    tui_keys(&r, "  ");
    tui_wait_for(&r, "Team 0 under the cursor");
    tui_keys(&r, "jjjj"); /* the cursor stops at the last team, 3 */
    tui_wait_for(&r, "Team 3 under the cursor");
    tui_keys(&r, "z");
    tui_wait_for(&r, "Team 3 of 4: 256 cooks in 8 warps of 32, 24 idle");
    tui_wait_for(&r, "· idle 24");
    int gpu = tui_find(&r, "On a GPU per-cook records are not kept", NULL) >= 0; /* the recipe's mapping */
    tui_wait_for(&r, gpu ? "w7  □□□□□□□□························" : "w7  ■■■■■■■■························");
    tui_keys(&r, "jjjjjjjlllllll"); /* cook 231: the last one with an element */
    tui_wait_for(&r, "Cook 231 (warp 7 lane 7): threadIdx (231,0,0) blockIdx (3,0,0) global 999");
    tui_wait_for(&r, gpu ? "the recipe's mapping gives it element 999" : "cooked: wrote 999, read 999");
    tui_keys(&r, "l");
    tui_wait_for(&r, gpu ? "idle: the recipe's mapping gives it no element"
                         : "idle: wrote nothing, read nothing (stores 0, loads 0, barriers 0)");
    tui_finish(&r, "qq");
}

/* The team zoom draws warps of 32 cooks, one glyph each: a team of 1024 fits at 80 x 24 (all 32
   warps, the cook under the cursor described); a kernel whose cooks skip the bounds check on odd
   lanes shows the one that reached outside, the team it stopped, and a cook's threadIdx, blockIdx,
   global index, elements and barrier; in Korean at 120 x 40, and in ASCII (a locale that is not
   UTF-8) without colour. */
static void test_team_warps(void **state)
{
    (void)state;
    static tui_run r;
    static tui_kernel k;
    tui_kernel_write(&k, "warps",
                     "#include \"kernel.h\"\n"
                     "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
                     "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    __syncthreads();\n"
                     "    if (threadIdx.x % 2) c[i] = a[i] + b[i];\n    else if (i < n) c[i] = a[i] + b[i];\n}\n");
    const char *envs[] = {k.env, TUI_NO_GPU, NULL};
    /* a team of 1024 cooks at 80 x 24, the right kernel (the bounds-check exercise's solution) */
    const char *full[] = {"try", "exercises/03-teams-and-cooks/bounds-check/solution.cu", "--kitchen", "--n", "3000",
                          "--threads-per-block", "1024", NULL};
    tui_start(&r, 24, 80, full, envs);
    tui_wait_verdict(&r, "your vector_add"); /* after the kernel's build: long work */
    tui_keys(&r, "ll");
    tui_wait_for(&r, "teams: 3, cooks: 3072");
    tui_keys(&r, "z");
    tui_wait_for(&r, "Team 0 of 3: 1024 cooks in 32 warps of 32, 0 idle");
    tui_wait_for(&r, "w31 ");
    tui_wait_for(&r, "w0 ");
    tui_keys(&r, "jl>"); /* down a warp, right a cook, the next team */
    tui_wait_for(&r, "Cook 33 (warp 1 lane 1): threadIdx (33,0,0) blockIdx (1,0,0) global 1057");
    tui_wait_for(&r, "cooked: wrote 1057, read 1057 (stores 1, loads 2, barriers 0)");
    tui_keys(&r, ">");
    tui_wait_for(&r, "Team 2 of 3: 1024 cooks in 32 warps of 32, 72 idle");
    tui_finish(&r, "zq");
    static const struct {
        const char *lang, *ascii, *outside, *cook;
    } runs[] = {{"ko", NULL, "! 밖으로 나감 1", "요리사 233 (워프 7 레인 9)"},
                {"en", "LC_ALL=C", "! reached outside 1", "Cook 233 (warp 7 lane 9): threadIdx (233,0,0) blockIdx (3,0,0) global 1001"}};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        const char *args[] = {"try", k.file, "--kitchen", "--n", "1000", "--lang", runs[i].lang, NULL};
        const char *no_color[] = {k.env, TUI_NO_GPU, "NO_COLOR=1", runs[i].ascii, NULL}; /* a locale not UTF-8: ASCII */
        tui_start(&r, 40, 120, args, runs[i].ascii ? no_color : envs);
        tui_wait_for(&r, "vector_add");
        tui_keys(&r, "ll");
        tui_wait_for(&r, strcmp(runs[i].lang, "ko") == 0 ? "팀 3" : "The launch stopped at a fault in team 3");
        tui_keys(&r, "z"); /* the zoom opens on the team where it stopped */
        tui_wait_for(&r, runs[i].outside);
        for (int k = 0; k < 7; k++) /* warp 7 */
            tui_keys(&r, "j");
        for (int k = 0; k < 9; k++) /* lane 9: cook 233, index 1001 */
            tui_keys(&r, "l");
        tui_wait_for(&r, runs[i].cook);
        if (runs[i].ascii) {
            tui_wait_for(&r, "reached outside: wrote nothing, read nothing (stores 0, loads 0, barriers 1)");
            assert_false(tui_any_cell(&r, tui_cell_wide));
            assert_false(tui_any_cell(&r, tui_cell_colored));
        }
        tui_finish(&r, "zq");
    }
    tui_kernel_remove(&k);
}

/* w on the home screen opens the glossary in the learner's language (Korean's own words), with
   its table laid out for the terminal; the arrows scroll it and q goes back home. */
static void test_glossary_screen(void **state)
{
    (void)state;
    static tui_run r;
    const char *ko[] = {"--lang", "ko", NULL};
    tui_start(&r, 24, 80, ko, NULL);
    tui_wait_for(&r, tui_lesson1()->title[I18N_KO]);
    tui_keys(&r, "w");
    tui_wait_for(&r, " 용어집: 주방의 말과 CUDA의 말");
    tui_wait_for(&r, "총괄 셰프");
    assert_int_equal(tui_find(&r, "조가 나눠 든 타일", NULL), -1); /* the last row: below the screen */
    for (int i = 0; i < 240; i++)
        tui_keys(&r, "j");
    tui_wait_for(&r, "조가 나눠 든 타일");
    tui_keys(&r, "q");
    tui_wait_for(&r, tui_lesson1()->title[I18N_KO]);
    tui_finish(&r, "q");
    const char *en[] = {"--ascii", NULL};
    tui_start(&r, 40, 120, en, NULL);
    tui_wait_for(&r, tui_lesson1()->title[I18N_EN]);
    tui_keys(&r, "w");
    tui_wait_for(&r, "| SM (streaming multiprocessor)");
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_finish(&r, "qq");
}

/* f on the cook step opens the floor plan: every station a box, all of them at 120 x 40 and
   200 x 60 (132 on the H200, and on the emulator the modeled H200's 132 after m, labelled as
   modeled), scrolled with PgDn at 80 x 24; under them every team of the grid, one cell each, and
   the cursor's team with its station and times. In English and Korean, in ASCII without colour. */
static void test_floor_plan(void **state)
{
    (void)state;
    static tui_run r;
    static const struct {
        int rows, cols;
        const char *lang, *ascii, *title, *box;
    } sizes[] = {{24, 80, "en", NULL, " Floor plan: vector_add, 4 teams of 256 cooks", "┌0"},
                 {40, 120, "ko", NULL, " 주방 배치도: vector_add", "┌131"},
                 {60, 200, "en", "--ascii", " Floor plan: vector_add, 4 teams of 256 cooks", "+131"}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const char *args[] = {"--classroom", "3", "--lang", sizes[i].lang, sizes[i].ascii, NULL};
        const char *no_color[] = {"NO_COLOR=1", NULL};
        tui_start(&r, sizes[i].rows, sizes[i].cols, args, sizes[i].ascii ? no_color : NULL);
        tui_wait_for(&r, "1,000");
        tui_wait_for(&r, "  a: "); /* cooked: step 1 shows the inputs */
        tui_keys(&r, "  ");
        tui_wait_for(&r, "4 x 1 x 1");
        tui_keys(&r, "f");
        tui_wait_for(&r, sizes[i].title);
        int gpu = tui_find(&r, "%smid", NULL) >= 0;
        if (!gpu) { /* the emulator's two workers, then the modeled GPU's stations */
            tui_keys(&r, "m");
            tui_wait_for(&r, strcmp(sizes[i].lang, "ko") == 0 ? "모델로 본 NVIDIA H200: 조리대(SM) 132개" : "MODELED NVIDIA H200: 132 stations");
        }
        if (sizes[i].rows >= 40) { /* every station fits (a GPU's boxes wide enough say "SM131") */
            const char *const box[] = {sizes[i].box, gpu ? "SM131" : NULL, NULL};
            tui_wait_any(&r, box);
            assert_int_equal(tui_find(&r, "PgDn", NULL) >= 0 && tui_find(&r, "Stations 0 to", NULL) >= 0, 0);
        } else {
            tui_wait_for(&r, "Stations 0 to ");
            assert_int_equal(tui_find(&r, "┌131", NULL), -1);
            tui_keys(&r, "\033[6~"); /* PgDn: the next row of stations */
            tui_wait_for(&r, "Stations 1");
        }
        tui_wait_for(&r, strcmp(sizes[i].lang, "ko") == 0 ? "팀 4개" : "All 4 teams, one cell each");
        tui_keys(&r, "l");
        tui_wait_for(&r, strcmp(sizes[i].lang, "ko") == 0 ? "커서: 팀 1," : "Cursor: team 1 on station ");
        if (sizes[i].ascii) {
            assert_false(tui_any_cell(&r, tui_cell_wide));
            assert_false(tui_any_cell(&r, tui_cell_colored));
        }
        tui_keys(&r, "q"); /* back to the kitchen's cook step, then home, then out */
        tui_wait_for(&r, "4 x 1 x 1");
        tui_finish(&r, "qq");
    }
}

/* Progress is kept: lesson 1 read to its third page shows as started on the home screen, and the
   next start opens it where it was left; reading to the end marks it read. */
static void test_progress_resume(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    const lesson_text *t = &l->text[I18N_EN];
    assert_true(t->nitems >= 3);
    static char dir[200], env[320];
    snprintf(dir, sizeof dir, "%s/cudachef-tui-keep-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(dir));
    snprintf(env, sizeof env, "CUDACHEF_STATE_HOME=%s", dir);
    const char *keep[] = {env, NULL};
    tui_start(&r, 30, 100, NULL, keep);
    tui_wait_for(&r, l->title[I18N_EN]);
    const char *const not_started[] = {l->title[I18N_EN], "not started", NULL};
    tui_wait_row(&r, not_started);
    tui_keys(&r, "\r");
    tui_wait_for(&r, t->items[0].title);
    tui_keys(&r, "nn");
    tui_wait_for(&r, t->items[2].title);
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    const char *const started[] = {l->title[I18N_EN], "started", NULL};
    tui_wait_row_without(&r, started, "not started");
    tui_keys(&r, "q");
    tui_wait_exit(&r);
    tui_end(&r);

    tui_start(&r, 30, 100, NULL, keep);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "\r");
    tui_wait_for(&r, t->items[2].title); /* where it was left */
    char where[32];
    snprintf(where, sizeof where, " 3/%d ", t->nitems);
    tui_wait_for(&r, where);
    tui_keys(&r, "G"); /* G scrolls; the last item is reached with n */
    for (int i = 3; i < t->nitems; i++)
        tui_keys(&r, "n");
    snprintf(where, sizeof where, " %d/%d ", t->nitems, t->nitems);
    tui_wait_for(&r, where);
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    const char *const read[] = {l->title[I18N_EN], " read ", NULL};
    tui_wait_row(&r, read);
    tui_keys(&r, "q");
    tui_wait_exit(&r);
    tui_end(&r);
    char cmd[320];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* 1 when the cell at (row, col) is drawn in reverse video. */
static int tui_reverse(tui_run *r, int row, int col)
{
    VTermScreenCell cell;
    vterm_screen_get_cell(r->screen, (VTermPos){.row = row, .col = col}, &cell);
    return cell.attrs.reverse;
}

/* `/` searches the lesson: the prompt echoes what is typed, Enter jumps to the first line that has
   it (highlighted), n moves to the next, Esc puts the search away. */
static void test_search(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_lesson1(&r);
    tui_keys(&r, "/KERNEL");
    tui_wait_for(&r, "/KERNEL");
    tui_keys(&r, "\r");
    int row = tui_wait_for(&r, "'KERNEL': line 1 of ");
    (void)row;
    /* the match is highlighted where it stands on the screen, whatever its case */
    int found = 0;
    for (int y = 1; y < r.rows - 1 && !found; y++) {
        char line[4096];
        tui_row(&r, y, line, sizeof line);
        for (char *p = line; *p && !found; p++)
            if (strncasecmp(p, "kernel", 6) == 0) {
                int col = -1;
                char needle[8];
                memcpy(needle, p, 6);
                needle[6] = '\0';
                tui_find(&r, needle, &col);
                found = col >= 0 && tui_reverse(&r, y, col);
            }
    }
    assert_true(found);
    tui_keys(&r, "n");
    tui_wait_for(&r, "'KERNEL': line 2 of ");
    tui_keys(&r, "N");
    tui_wait_for(&r, "'KERNEL': line 1 of ");
    tui_keys(&r, "\033");
    tui_wait_for(&r, "q back");
    tui_keys(&r, "/no such word here\r");
    tui_wait_for(&r, "is not in this lesson");
    tui_finish(&r, "\033qq");
}

/* A cell of the screen and how it looked. */
typedef struct tui_cell {
    int row, col;
    VTermScreenCell was;
} tui_cell;

/* tui_test: the cell looks otherwise now (its background, or reverse video). */
static int tui_cell_changed(tui_run *r, const void *ctx)
{
    const tui_cell *c = ctx;
    VTermScreenCell now;
    vterm_screen_get_cell(r->screen, (VTermPos){.row = c->row, .col = c->col}, &now);
    return !vterm_color_is_equal(&c->was.bg, &now.bg) || c->was.attrs.reverse != now.attrs.reverse;
}

/* The mouse: a click on lesson 2 chooses it, a second click opens it; the wheel scrolls. */
static void test_mouse(void **state)
{
    (void)state;
    static tui_run r;
    assert_true(tui_lessons.count > 1);
    const lesson *l = &tui_lessons.lessons[1];
    tui_start(&r, 30, 100, NULL, NULL);
    int row = tui_wait_for(&r, l->title[I18N_EN]);
    int col = -1;
    tui_find(&r, l->title[I18N_EN], &col);
    char click[64];
    /* SGR mouse reports (xterm's 1006 mode, which ncurses turns on): press and release, 1-based */
    snprintf(click, sizeof click, "\033[<0;%d;%dM\033[<0;%d;%dm", col + 1, row + 1, col + 1, row + 1);
    VTermScreenCell before, after, first;
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row, .col = col}, &before);
    int first_row = tui_find(&r, tui_lesson1()->title[I18N_EN], NULL);
    tui_keys(&r, click);
    tui_cell c = {row, col, before};
    tui_wait_until(&r, tui_cell_changed, &c, 0, TUI_GUARD_S, "the clicked lesson's row to be drawn as chosen");
    /* chosen: the row now looks as lesson 1's did, and lesson 1's as lesson 2's did */
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row, .col = col}, &after);
    vterm_screen_get_cell(r.screen, (VTermPos){.row = first_row, .col = col}, &first);
    assert_false(vterm_color_is_equal(&before.bg, &after.bg) && before.attrs.reverse == after.attrs.reverse);
    assert_true(vterm_color_is_equal(&before.bg, &first.bg) && before.attrs.reverse == first.attrs.reverse);
    tui_keys(&r, click);
    tui_wait_for(&r, l->text[I18N_EN].items[0].title);
    tui_wait_for(&r, " 1/");
    tui_finish(&r, "qq");
}

/* Changes the pseudo-terminal's size (the kernel sends SIGWINCH) and libvterm's. */
static void tui_resize(tui_run *r, int rows, int cols)
{
    struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
    assert_int_equal(ioctl(r->fd, TIOCSWINSZ, &ws), 0);
    vterm_set_size(r->vt, rows, cols);
    r->rows = rows;
    r->cols = cols;
}

/* Resizing at any time: below the minimum the enlarge screen, and back, the reader as it was. */
static void test_resize_back(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    tui_start(&r, 30, 100, NULL, NULL);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "\rn");
    tui_wait_for(&r, l->text[I18N_EN].items[1].title);
    tui_resize(&r, 12, 50);
    tui_wait_for(&r, "enlarge the terminal to 80 x 24");
    tui_resize(&r, 40, 120);
    tui_wait_for(&r, l->text[I18N_EN].items[1].title);
    tui_wait_gone(&r, "enlarge the terminal");
    tui_finish(&r, "qq");
}

/* 1 when the kitchen on screen was cooked by a GPU (make test-gpu), 0 by the CPU emulator. */
static int tui_kitchen_on_gpu(tui_run *r)
{
    tui_wait_for(r, "Who cooked: ");
    return tui_find(r, "Who cooked: CPU emulator", NULL) < 0;
}

/* The cook step's stations: where the figures come from, the limit the backend gives, the summary
   and each station's cell with the teams on it now, the most at once in the run and that limit.
   On the emulator (one team per worker) the tiny demo's one team is on a station while it cooks,
   then done, the most staying 1; on a GPU the limit is the occupancy calculator's, a whole number
   that every cell and the summary quote. */
static void test_kitchen_occupancy(void **state)
{
    (void)state;
    static tui_run r;
    char line[4096], text[96];
    tui_open_tiny_kitchen(&r);
    int gpu = tui_kitchen_on_gpu(&r);
    tui_keys(&r, "ll");
    tui_wait_for(&r, "teams: 1, cooks: 4");
    tui_wait_for(&r, "teams on it now");
    tui_wait_for(&r, "[finished: Space replays]"); /* the screen is read once the replay stops moving */
    if (gpu) {
        tui_wait_for(&r, "(traced: %smid, %globaltimer)");
        int limit = 0;
        tui_row(&r, tui_wait_for(&r, "Limit: "), line, sizeof line);
        assert_int_equal(sscanf(strstr(line, "Limit: "), "Limit: %d teams of 4 cooks per SM (occupancy calculator;", &limit), 1);
        assert_true(limit >= 1 && limit <= 64);
        snprintf(text, sizeof text, "in this run; limit %d", limit);
        tui_wait_for(&r, text);
        snprintf(text, sizeof text, "/%d most ", limit);
        tui_row(&r, tui_wait_for(&r, text), line, sizeof line);
        assert_non_null(strstr(line, "SM "));
        tui_wait_for(&r, "Stations used: 1 of ");
        tui_finish(&r, "qqq");
        return;
    }
    tui_wait_for(&r, "(traced: worker, CPU clock)");
    tui_wait_for(&r, "Limit: 1 team per worker (an emulator worker cooks one team at a time)");
    tui_keys(&r, "  "); /* again from the start, paused there: the team is on its station */
    tui_wait_for(&r, "most teams on one: 1 now, 1 in this run; limit 1");
    const char *const on_it[] = {"1/1 most 1", "worker ", "team 0", "■", NULL}; /* ■: its bar, one team on it */
    tui_wait_row(&r, on_it);
    tui_keys(&r, "."); /* on to its end: the station is empty, the most seen stays */
    tui_wait_for(&r, "most teams on one: 0 now, 1 in this run; limit 1");
    const char *const done[] = {"0/1 most 1", "done 1/1", "▣", NULL};
    tui_wait_row(&r, done);
    tui_wait_for(&r, "Stations used: 1 of ");
    tui_finish(&r, "qqq");
}

/* v in the kitchen: the same recipe and n cooked with teams of 32 and of 1024 cooks, side by side
   with each side's own figures (4 elements: one team each, 28 and 1020 idle cooks), the limits and
   the stations; Space and . drive the shared replay; q goes back to the kitchen as it was. On a GPU
   the caption quotes the occupancy calculator: no more teams of 1024 fit on an SM than its cooks
   allow, and at least as many teams of 32. */
static void test_versus(void **state)
{
    (void)state;
    static tui_run r;
    char line[4096];
    tui_open_tiny_kitchen(&r);
    int gpu = tui_kitchen_on_gpu(&r);
    tui_wait_for(&r, "v 32 vs 1024");
    tui_keys(&r, "v");
    tui_wait_for(&r, "Side by side: vector-add, n = 4, cooked by ");
    tui_wait_for(&r, "What to look for");
    int left_col = -1, right_col = -1;
    int row = tui_wait_for(&r, "Teams of 32 cooks");
    tui_find(&r, "Teams of 32 cooks", &left_col);
    assert_int_equal(tui_find(&r, "Teams of 1024 cooks", &right_col), row);
    assert_true(right_col > left_col + 30); /* two columns */
    int small = tui_wait_for(&r, "1 team, 32 cooks (28 idle)");
    int big = tui_wait_for(&r, "1 team, 1024 cooks (1020 idle)");
    assert_int_equal(small, big);
    tui_wait_for(&r, "Cooking took ");
    tui_wait_for(&r, "1 s on screen = ");
    tui_wait_for(&r, "[finished: Space replays]");
    if (gpu) {
        int cooks = 0, of_small = 0, of_big = 0;
        tui_row(&r, tui_wait_for(&r, "On this GPU an SM holds "), line, sizeof line);
        assert_int_equal(sscanf(strstr(line, "On this GPU"), "On this GPU an SM holds %d cooks: at most %d teams of 32 and %d",
                                &cooks, &of_small, &of_big), 3);
        assert_true(cooks >= 1024 && of_big >= 1 && of_big <= cooks / 1024 && of_small >= of_big);
    } else {
        tui_wait_for(&r, "cooked by CPU emulator");
        /* from the start, paused: each side's one team on a station; then (. to each change until
           both have ended) done */
        tui_keys(&r, "  ");
        tui_wait_for(&r, "[paused]");
        const char *const both_on[] = {"│", "1/1 most 1 team 0", NULL};
        int cell = tui_wait_row(&r, both_on);
        tui_row(&r, cell, line, sizeof line);
        assert_non_null(strstr(strstr(line, "│"), "1/1 most 1 team 0"));
        tui_keys(&r, "...");
        tui_wait_for(&r, "[finished: Space replays]");
        const char *const both_done[] = {"│", "0/1 most 1 done 1/1", NULL};
        assert_int_equal(tui_wait_row(&r, both_done), cell);
        tui_row(&r, cell, line, sizeof line);
        assert_non_null(strstr(line, "0/1 most 1 done 1/1"));
        assert_non_null(strstr(strstr(line, "│"), "0/1 most 1 done 1/1"));
    }
    tui_keys(&r, "?");
    tui_wait_for(&r, "back to the kitchen");
    tui_keys(&r, "x"); /* any key closes the help */
    tui_keys(&r, "q");
    tui_wait_for(&r, "1 prepare");
    tui_wait_for(&r, "Kitchen: ");
    tui_wait_gone(&r, "Teams of 32 cooks");
    tui_finish(&r, "qqq");
}

/* A recipe that cannot take both team sizes (matmul-naive needs square teams) does not open the
   side-by-side: the key line says why and the kitchen stays. */
static void test_versus_refused(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_demo_kitchen(&r, 3, "naive-512", NULL, NULL);
    tui_keys(&r, "v");
    tui_wait_for(&r, "matmul-naive cannot cook with teams of 32 cooks");
    tui_wait_for(&r, "not a perfect square");
    tui_wait_for(&r, "1 prepare");
    assert_int_equal(tui_find(&r, "Side by side", NULL), -1);
    tui_finish(&r, "qqq");
}

/* b on the home screen: the sweep's progress while it runs (which measurement of how many, the
   size and who), then the log-log chart with its legend, the crossovers, and the table; s switches
   to times with shipping; the table scrolls to the last size; q goes home. */
static void test_bench(void **state)
{
    (void)state;
    static tui_run r;
    const char *slow[] = {"CUDACHEF_BENCH_DELAY_MS=80", TUI_NO_GPU, NULL}; /* more than the 50 ms a read waits for quiet */
    tui_open_home(&r, NULL, slow);
    tui_wait_for(&r, "b bench");
    tui_keys(&r, "b");
    tui_wait_for(&r, "Measurement ");
    tui_wait_for(&r, "size 32 (1 of 3): ");
    tui_wait_for(&r, "the recipes cook on the CPU emulator");
    tui_wait_for(&r, "q stop");
    tui_wait_for(&r, "Crossover, cooking only: ");
    tui_wait_for(&r, "Crossover, with shipping: ");
    tui_wait_for(&r, "Cooking time against n, log-log");
    tui_wait_for(&r, "L CPU loop");
    tui_wait_for(&r, "B CPU BLAS");
    tui_wait_for(&r, "matmul-naive");
    tui_wait_for(&r, "the CPU races itself");
    int axis = tui_wait_for(&r, "+---");
    char line[4096];
    tui_row(&r, axis + 1, line, sizeof line);
    assert_non_null(strstr(line, "32"));
    assert_non_null(strstr(line, "128"));
    int first = tui_wait_for(&r, "   32  L CPU loop");
    tui_row(&r, first, line, sizeof line);
    assert_non_null(strstr(line, " ok")); /* measured, and it agreed with CPU BLAS */
    tui_keys(&r, "s");
    tui_wait_for(&r, "Time with shipping against n, log-log");
    tui_keys(&r, "G"); /* the table's end: the last size's last rung of the ladder */
    const char *const *ladder = recipe_ladder();
    const char *last = ladder[0];
    for (int i = 0; ladder[i]; i++)
        last = ladder[i];
    const char *const end[] = {"    128  ", last, " ok", NULL};
    tui_wait_row(&r, end);
    tui_wait_gone(&r, "   32  L CPU loop");
    tui_resize(&r, 24, 80);
    tui_wait_for(&r, "Crossover, cooking only: ");
    tui_resize(&r, 40, 120);
    tui_wait_for(&r, "Time with shipping against n, log-log");
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    tui_finish(&r, "q");
}

/* q while the sweep runs stops it after the measurement under way and goes back home, with no
   hang; the program then quits cleanly. Each measurement waits 2 s first (more on a slower
   machine, up to the program's 60 s): the sweep lasts far longer than the keys take to arrive. */
static void test_bench_cancel(void **state)
{
    (void)state;
    static tui_run r;
    static char delay[64];
    snprintf(delay, sizeof delay, "CUDACHEF_BENCH_DELAY_MS=%.0f", fmin(60000, 1e3 * test_long_s(2)));
    const char *slow[] = {delay, TUI_NO_GPU, NULL};
    tui_open_home(&r, NULL, slow);
    tui_keys(&r, "b");
    tui_wait_for(&r, "Measurement 1 of ");
    tui_resize(&r, 24, 80);
    tui_wait_for(&r, "size 32 (1 of 3): ");
    tui_keys(&r, "q");
    tui_wait_for(&r, "q quit");
    tui_wait_gone(&r, "Crossover");
    tui_finish(&r, "q");
}

/* r on lesson 7's race page opens the bench screen with that demo's own contenders (not the whole
   ladder); q goes back to the page. */
static void test_bench_from_lesson(void **state)
{
    (void)state;
    static tui_run r;
    assert_true(tui_lessons.count > 6);
    const lesson_demo *d = lesson_demo_find(&tui_lessons.lessons[6], "race");
    assert_non_null(d);
    assert_int_equal(d->kind, DEMO_RACE);
    const char *no_gpu[] = {TUI_NO_GPU, NULL};
    assert_int_equal(tui_open_demo_page(&r, 6, "race", NULL, no_gpu), -1);
    tui_keys(&r, "r");
    tui_wait_for(&r, "Crossover, cooking only: ");
    for (int i = 0; i < d->nrecipes; i++)
        tui_wait_for(&r, d->recipes[i]);
    assert_int_equal(tui_find(&r, "matmul-warptile", NULL), -1); /* a rung the demo does not race */
    const lesson_text *t = &tui_lessons.lessons[6].text[I18N_EN];
    const char *title = NULL;
    for (int i = 0; i < t->nitems && !title; i++)
        for (int k = 0; k < t->items[i].ndemos; k++)
            if (strcmp(t->items[i].demos[k], "race") == 0)
                title = t->items[i].title;
    tui_keys(&r, "q");
    tui_wait_for(&r, title);
    tui_wait_gone(&r, "Crossover");
    tui_finish(&r, "qq");
}

/* --ascii: the stations' bars, the side-by-side's rule and the bench's chart come out in ASCII. */
static void test_new_screens_ascii(void **state)
{
    (void)state;
    static tui_run r;
    const char *flag[] = {"--ascii", NULL}, *no_gpu[] = {TUI_NO_GPU, NULL};
    tui_open_demo_kitchen(&r, 1, "tiny", flag, no_gpu);
    tui_keys(&r, "ll");
    tui_wait_for(&r, "# teams on it now  + the most at once in this run  . room up to the limit");
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_keys(&r, "v");
    tui_wait_for(&r, "Teams of 1024 cooks");
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_keys(&r, "q");
    tui_wait_for(&r, "1 prepare");
    tui_keys(&r, "qq");
    tui_wait_for(&r, "b bench");
    tui_keys(&r, "b");
    tui_wait_for(&r, "Crossover, cooking only: ");
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_finish(&r, "qq");
}

/* --ascii, and a locale that is not UTF-8, draw frames and symbols in ASCII only. */
static void test_ascii(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    tui_start(&r, 30, 100, NULL, NULL);
    tui_wait_for(&r, l->title[I18N_EN]);
    assert_true(tui_any_cell(&r, tui_cell_wide)); /* box drawing by default */
    tui_keys(&r, "q");
    tui_wait_exit(&r);
    tui_end(&r);

    const char *flag[] = {"--ascii", NULL};
    tui_open_home(&r, flag, NULL);
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_keys(&r, "\r");
    tui_wait_for(&r, l->text[I18N_EN].items[0].title);
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_finish(&r, "qq");

    const char *posix[] = {"LC_ALL=C", "LANG=C", NULL};
    tui_open_home(&r, NULL, posix);
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_finish(&r, "q");
}

/* LC_ALL=C: lesson 4's first page, whose symbols (×) and frames all come out as ASCII stand-ins
   of the same width; nothing outside ASCII reaches the terminal. */
static void test_ascii_symbols(void **state)
{
    (void)state;
    static tui_run r;
    assert_true(tui_lessons.count > 3);
    const lesson *l = &tui_lessons.lessons[3];
    const char *posix[] = {"LC_ALL=C", "LANG=C", NULL};
    tui_start(&r, 30, 100, NULL, posix);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "jjj\r");
    tui_wait_for(&r, l->text[I18N_EN].items[0].title);
    tui_wait_for(&r, "C = A x B, with A, B and C");
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_finish(&r, "qq");
}

/* LANG=ko_KR.UTF-8 where that locale is not installed (setlocale fails): the C.UTF-8 fallback
   still draws Hangul two cells wide and the frames in box drawing. LANG=C with --lang ko cannot:
   English, in ASCII, with a note that says why. */
static void test_korean_without_locale(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    locale_t installed = newlocale(LC_CTYPE_MASK, "ko_KR.UTF-8", (locale_t)0);
    if (installed)
        freelocale(installed);
    const char *missing[] = {installed ? "LANG=ko_ZZ.UTF-8" : "LANG=ko_KR.UTF-8", "LC_ALL=", NULL};
    const char *ko[] = {"--lang", "ko", NULL};
    tui_start(&r, 30, 100, ko, missing);
    int row = tui_wait_for(&r, l->title[I18N_KO]);
    int col = -1;
    tui_find(&r, l->title[I18N_KO], &col);
    VTermScreenCell cell;
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row, .col = col}, &cell);
    assert_true(cell.chars[0] >= 0xAC00 && cell.chars[0] <= 0xD7A3);
    assert_int_equal(cell.width, 2);
    vterm_screen_get_cell(r.screen, (VTermPos){.row = row, .col = r.cols - 3}, &cell);
    assert_int_equal(cell.chars[0], 0x2502); /* │ */
    tui_finish(&r, "q");

    const char *posix[] = {"LC_ALL=C", "LANG=C", NULL};
    tui_start(&r, 30, 100, ko, posix);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_wait_for(&r, "Korean needs a UTF-8 terminal");
    assert_false(tui_any_cell(&r, tui_cell_wide));
    tui_finish(&r, "q");
}

/* A slow CUDA start never holds the first frame: the lessons are there while the GPU is still
   being looked for, and who cooks appears once the probe answers. The probe's delay (1.5 s on an
   idle machine, longer on a slower one) is what the still-looking check is told by: it is asserted
   only when the test itself got there before the delay could have passed. */
static void test_slow_probe(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    static char delay[64];
    double delay_s = fmin(60, test_long_s(1.5)); /* (the program takes up to 60 s) */
    snprintf(delay, sizeof delay, "CUDACHEF_PROBE_DELAY_MS=%.0f", 1e3 * delay_s);
    const char *slow[] = {delay, NULL};
    double started = test_now_s();
    tui_start(&r, 30, 100, NULL, slow);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_wait_for(&r, "checking for a GPU...");
    tui_keys(&r, "j"); /* keys are answered meanwhile */
    tui_pump(&r, 100);
    if (test_now_s() - started < delay_s) /* the probe cannot have answered yet */
        assert_true(tui_find(&r, "checking for a GPU...", NULL) >= 0);
    else
        print_message("note: the test reached the probe's check %.1f s after the start, past its %.1f s delay: "
                      "not asserted\n", test_now_s() - started, delay_s);
    tui_wait_gone(&r, "checking for a GPU");
    tui_wait_for(&r, "Who cooks:");
    tui_finish(&r, "q");

    /* quitting while the GPU is still being looked for ends cleanly, at once */
    tui_start(&r, 30, 100, NULL, slow);
    tui_wait_for(&r, "checking for a GPU...");
    tui_finish(&r, "q");
}

/* Ctrl-C (the terminal's interrupt key) ends the program from any screen and gives the terminal
   back: the alternate screen left, the cursor shown again. */
static void test_ctrl_c_restores(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_lesson1(&r);
    tui_keys(&r, "\003");
    tui_wait_exit(&r);
    assert_int_equal(r.status, 128 + SIGINT);
    const char *enter = NULL, *leave = NULL;
    for (const char *p = r.out; (p = strstr(p, "\033[?1049h")); p++)
        enter = p;
    assert_non_null(enter);
    leave = strstr(enter, "\033[?1049l"); /* the alternate screen left, after the last time it was entered */
    assert_non_null(leave);
    const char *shown = strstr(enter, "\033[?25h"); /* and the cursor shown again on the way out */
    assert_non_null(shown);
    assert_true(shown < leave + 8);
    tui_end(&r);
}

/* A crash (SIGSEGV, as a bug would raise) still gives the terminal back, then dies of it. */
static void test_crash_restores(void **state)
{
    (void)state;
    static tui_run r;
    tui_open_lesson1(&r);
    kill(r.pid, SIGSEGV);
    tui_wait_exit(&r);
    assert_int_equal(r.status, 128 + SIGSEGV);
    const char *enter = NULL;
    for (const char *p = r.out; (p = strstr(p, "\033[?1049h")); p++)
        enter = p;
    assert_non_null(enter);
    assert_non_null(strstr(enter, "\033[?1049l"));
    tui_end(&r);
}

/* `r` on a page without a demo says so; on a page whose demo is not drawn in the kitchen (lesson
   1's roll call or device info), the demo runs and its report is shown, q going back. */
static void test_demo_report(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    const lesson_text *t = &l->text[I18N_EN];
    int none = -1, other = -1;
    for (int i = 0; i < t->nitems; i++) {
        if (t->items[i].kind == ITEM_PAGE && t->items[i].ndemos == 0 && none < 0)
            none = i;
        for (int k = 0; k < t->items[i].ndemos && other < 0; k++) {
            const lesson_demo *d = lesson_demo_find(l, t->items[i].demos[k]);
            if (d && d->kind != DEMO_RUN && t->items[i].ndemos == 1)
                other = i;
        }
    }
    assert_true(none >= 0 && other >= 0);
    tui_open_lesson1(&r);
    for (int i = 0; i < none; i++)
        tui_keys(&r, "n");
    tui_wait_for(&r, t->items[none].title);
    tui_keys(&r, "r");
    tui_wait_for(&r, "This page has no live demo");
    for (int i = none; i < other; i++)
        tui_keys(&r, "n");
    tui_wait_for(&r, t->items[other].title);
    tui_keys(&r, "r");
    tui_wait_for(&r, " Demo: ");
    tui_wait_for(&r, "r run it again");
    tui_keys(&r, "G");
    tui_wait_for(&r, "=> "); /* the report's verdict, at its end */
    tui_keys(&r, "q");
    tui_wait_for(&r, t->items[other].title);
    tui_finish(&r, "qq");
}

/* A demo that fails (device memory exhausted, injected by CUDACHEF_FAULT) shows its error at the
   end of its report, with the hint, and q goes back to the page. */
static void test_demo_error_shown(void **state)
{
    (void)state;
    static tui_run r;
    const char *env[] = {"CUDACHEF_FAULT=alloc:1", TUI_NO_GPU, NULL};
    int which = tui_open_demo_page(&r, 4, "mappings", NULL, env);
    tui_keys(&r, "r");
    if (which >= 0) {
        char key[2] = {(char)('1' + which), '\0'};
        tui_wait_for(&r, "Which demo?");
        tui_keys(&r, key);
    }
    tui_wait_for(&r, "r run it again");
    tui_keys(&r, "G");
    tui_wait_for(&r, "The demo could not run: its error follows.");
    tui_wait_for(&r, "The demo could not finish:");
    tui_wait_for(&r, "injected by CUDACHEF_FAULT=alloc:1");
    tui_wait_for(&r, "hint: ");
    tui_keys(&r, "q");
    tui_wait_for(&r, "r cook the demo"); /* back on the page, whose footer names r: it has a demo */
    tui_wait_gone(&r, "The demo could not finish:");
    tui_finish(&r, "qq");
}

/* `cudachef try FILE --kitchen`: a learner's own kernel in the full-screen kitchen, tasted for
   real; q ends the program. The kitchen runs in the sandbox too: the kernel's constructor, which
   writes a file in the machine's /tmp, writes it in the box's own. */
static void test_try_kitchen(void **state)
{
    (void)state;
    static tui_run r;
    static char file[320], cache[320], env[400], escape[320];
    snprintf(file, sizeof file, "%s/cudachef-try-%d.cu", test_tmp_dir(), (int)getpid());
    snprintf(cache, sizeof cache, "%s/cudachef-try-cache-%d", test_tmp_dir(), (int)getpid());
    snprintf(escape, sizeof escape, "%s/cudachef-try-escape-%d", test_tmp_dir(), (int)getpid());
    snprintf(env, sizeof env, "CUDACHEF_CACHE_HOME=%s", cache);
    unlink(escape);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fprintf(f,
            "#include \"kernel.h\"\n#include <stdio.h>\n"
            "__attribute__((constructor)) static void mark(void) { FILE *m = fopen(\"%s\", \"w\"); if (m) fclose(m); }\n"
            "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n",
            escape);
    assert_int_equal(fclose(f), 0);
    const char *args[] = {"try", file, "--kitchen", "--n", "4", "--threads-per-block", "4", NULL};
    const char *envs[] = {env, NULL};
    tui_start(&r, 30, 100, args, envs);
    tui_wait_verdict(&r, "your vector_add"); /* after the kernel's build: long work */
    tui_keys(&r, "llll");
    tui_wait_for(&r, "Passed: 4 of 4");
    tui_finish(&r, "q");
    if (access(escape, F_OK) == 0) {
        unlink(escape);
        fail_msg("the learner's kernel ran outside the sandbox in try --kitchen (it wrote %s)", escape);
    }
    unlink(file);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    assert_int_equal(system(cmd), 0);
}

/* At a lesson's end the key line says what comes next, and n opens the next lesson. */
static void test_lesson_end(void **state)
{
    (void)state;
    static tui_run r;
    const lesson *l = tui_lesson1();
    const lesson_text *t = &l->text[I18N_EN];
    tui_open_lesson1(&r);
    for (int i = 1; i < t->nitems; i++)
        tui_keys(&r, "n");
    char where[32];
    snprintf(where, sizeof where, " %d/%d ", t->nitems, t->nitems);
    tui_wait_for(&r, where);
    if (t->items[t->nitems - 1].kind == ITEM_QUESTION)
        tui_keys(&r, "a"); /* any answer: the lesson is done */
    tui_wait_for(&r, "End of lesson 1");
    tui_keys(&r, "n");
    tui_wait_for(&r, "Lesson 2: ");
    tui_finish(&r, "qq");
}

/* SIGTERM ends the program and gives the terminal back. */
static void test_sigterm_restores(void **state)
{
    (void)state;
    static tui_run r;
    tui_start(&r, 30, 100, NULL, NULL);
    tui_wait_for(&r, "q quit");
    kill(r.pid, SIGTERM);
    tui_wait_exit(&r);
    assert_int_equal(r.status, 128 + SIGTERM);
    assert_non_null(strstr(r.out, "\033[?1049l"));
    tui_end(&r);
}

/* A workspace and a build cache of their own for an exercise test, in one temporary folder, and
   the environment that points cudachef at them. */
typedef struct tui_exercise_dirs {
    char root[200];
    char workspace[320], cache[320];  /* CUDACHEF_WORKSPACE=..., CUDACHEF_CACHE_HOME=... */
    char file[256];                   /* the learner's file of bounds-check */
    char solution[4200];              /* the exercise's reference solution (absolute) */
} tui_exercise_dirs;

/* Makes the folder (the workspace itself is left to cudachef to make). */
static void tui_exercise_dirs_make(tui_exercise_dirs *d)
{
    snprintf(d->root, sizeof d->root, "%s/cudachef-tui-ex-XXXXXX", test_tmp_dir());
    assert_non_null(mkdtemp(d->root));
    snprintf(d->workspace, sizeof d->workspace, "CUDACHEF_WORKSPACE=%s/ws", d->root);
    snprintf(d->cache, sizeof d->cache, "CUDACHEF_CACHE_HOME=%s/cache", d->root);
    snprintf(d->file, sizeof d->file, "%s/ws/03-teams-and-cooks/bounds-check.cu", d->root);
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(d->solution, sizeof d->solution, "%s/exercises/03-teams-and-cooks/bounds-check/solution.cu", cwd);
}

/* Removes the folder. */
static void tui_exercise_dirs_remove(tui_exercise_dirs *d)
{
    char cmd[320];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->root);
    assert_int_equal(system(cmd), 0);
}

/* Saves the reference solution as the learner's file: in place, or (by_rename) as most editors
   do, a new file renamed over it. */
static void tui_exercise_save_solution(const tui_exercise_dirs *d, int by_rename)
{
    FILE *in = fopen(d->solution, "r");
    assert_non_null(in);
    char text[8192];
    size_t n = fread(text, 1, sizeof text, in);
    fclose(in);
    assert_true(n > 0);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.swp", d->file);
    FILE *out = fopen(by_rename ? tmp : d->file, "w");
    assert_non_null(out);
    assert_int_equal(fwrite(text, 1, n, out), n);
    assert_int_equal(fclose(out), 0);
    if (by_rename)
        assert_int_equal(rename(tmp, d->file), 0);
}

/* From the home screen: lesson 3, x, and its first exercise (bounds-check) of the two, checked as
   it starts: FAIL. */
static void tui_exercise_open(tui_run *r, const char *const *env)
{
    assert_true(tui_lessons.count > 2);
    const lesson *l = &tui_lessons.lessons[2];
    assert_int_equal(l->number, 3);
    tui_start(r, 30, 100, NULL, env);
    tui_wait_for(r, l->title[I18N_EN]);
    tui_keys(r, "jjx");
    tui_wait_for(r, "Which exercise?");
    tui_keys(r, "1");
    tui_wait_for(r, "Exercise: The last team's idle cooks (lesson 3)");
    tui_wait_verdict(r, "FAIL  wrong with n = ");
    tui_wait_for(r, "Your exercises are in "); /* the workspace was made: said once */
}

/* A learner's kernel that never ends; on the emulator (where a kernel is C) it also leaves a
   process of its own behind that left its process group (setsid): a sleep of a day (it never ends
   by itself while a test waits for its end), which the test finds below the interface by its name.
   On a GPU it only loops. */
static const char tui_endless_kernel[] =
    "#include \"kernel.h\"\n"
    "#ifndef __CUDACC__\n"
    "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n"
    "#endif\n"
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "#ifndef __CUDACC__\n"
    "    static int escaped;\n"
    "    if (!escaped++ && fork() == 0) {\n"
    "        setsid();\n"
    "        execl(\"/bin/sleep\", \"sleep\", \"86400\", (char *)0);\n"
    "        _exit(0);\n"
    "    }\n"
    "#endif\n"
    "#ifdef __CUDACC__\n"
    "    while (clock64() >= 0) { } /* the clock is read each time: nvcc cannot drop the loop */\n"
    "#else\n"
    "    volatile int forever = 1;\n"
    "    while (forever) { }\n"
    "#endif\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

static int tui_descendants_named(pid_t pid, const char *comm, pid_t *found);

/* The processes below pid (its children, theirs, ...), counted from /proc. */
static int tui_descendants(pid_t pid)
{
    return tui_descendants_named(pid, NULL, NULL);
}

/* The processes below pid; with comm, *found gets the first one of that name (0: none). */
static int tui_descendants_named(pid_t pid, const char *comm, pid_t *found)
{
    if (found)
        *found = 0;
    int count = 0;
    pid_t queue[256];
    int head = 0, tail = 0;
    queue[tail++] = pid;
    while (head < tail && tail < 256) {
        pid_t parent = queue[head++];
        DIR *proc = opendir("/proc");
        assert_non_null(proc);
        struct dirent *e;
        while ((e = readdir(proc)) != NULL && tail < 256) {
            char path[300], stat[512];
            if (e->d_name[0] < '0' || e->d_name[0] > '9')
                continue;
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            FILE *f = fopen(path, "r");
            if (!f)
                continue;
            size_t n = fread(stat, 1, sizeof stat - 1, f);
            fclose(f);
            stat[n] = '\0';
            const char *close_paren = strrchr(stat, ')');
            long ppid = 0;
            char state = 0;
            if (close_paren && sscanf(close_paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent &&
                state != 'Z') {
                queue[tail++] = (pid_t)atol(e->d_name);
                count++;
                const char *open_paren = strchr(stat, '(');
                size_t len = comm ? strlen(comm) : 0;
                if (comm && found && !*found && open_paren && strncmp(open_paren + 1, comm, len) == 0 &&
                    open_paren[1 + len] == ')')
                    *found = (pid_t)atol(e->d_name);
            }
        }
        closedir(proc);
    }
    return count;
}

/* A check runs off the interface's thread: while the learner's kernel loops, the screen says how
   long it has run and answers keys (h shows a hint at once), and Esc stops it: the child ends with
   everything it started, the process it hid with setsid included. The exercise's time limit is
   made the longest there is (600 s) in a copy of lesson 3's exercises, so that Esc, not the limit,
   ends the check however long the build took. */
static void test_exercise_check_stopped(void **state)
{
    (void)state;
    static tui_run r;
    static tui_exercise_dirs d;
    tui_exercise_dirs_make(&d);
    char dir[300];
    snprintf(dir, sizeof dir, "%s/ws/03-teams-and-cooks", d.root);
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' '%s/exercises' && cp -R exercises/03-teams-and-cooks '%s/exercises/' && "
             "sed -i 's/^timeout *=.*/timeout = 600/' '%s/exercises/03-teams-and-cooks/bounds-check/exercise.ini'",
             dir, d.root, d.root, d.root);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(d.file, "w");
    assert_non_null(f);
    assert_int_equal(fputs(tui_endless_kernel, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
    static char exercises[300];
    snprintf(exercises, sizeof exercises, "CUDACHEF_EXERCISES=%s/exercises", d.root);
    const char *const env[] = {d.workspace, d.cache, exercises, NULL};
    const lesson *l = &tui_lessons.lessons[2];
    tui_start(&r, 30, 100, NULL, env);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "jjx");
    tui_wait_for(&r, "Which exercise?");
    tui_keys(&r, "1");
    tui_wait_for(&r, "Checking your kernel...");
    tui_wait_for(&r, "Esc stops it");
    /* on the emulator the kernel hides a process once it runs (on a GPU it only loops: give it
       its build and a moment) */
    const char *backend = getenv("CUDACHEF_TEST_BACKEND");
    int gpu = backend && strcmp(backend, "gpu") == 0;
    long escapee = gpu ? -1 : 0;
    for (double until = test_now_s() + test_long_s(3); gpu && test_now_s() < until;)
        tui_pump(&r, 10); /* (a pump lasts until 10 ms pass without output: the screen ticks every 100) */
    test_guard guard = test_guard_start(TUI_VERDICT_GUARD_S);
    test_guard_note("the kernel's escapee (a sleep) to appear below the interface");
    while (!escapee) {
        /* the kernel runs once built: its escapee (a sleep in a session of its own) appears below
           the interface, wherever the sandbox put it */
        pid_t found = 0;
        tui_descendants_named(r.pid, "sleep", &found);
        escapee = found;
        if (!escapee && test_guard_over(&guard)) {
            tui_dump(&r);
            test_guard_fail(test_guard_waited(&guard), "the kernel's escapee (a sleep) to appear below the interface");
        }
        tui_pump(&r, 10);
    }
    assert_true(gpu || kill((pid_t)escapee, 0) == 0);
    tui_keys(&r, "h"); /* the screen answers while the kernel loops */
    tui_wait_for(&r, "Hint 1"); /* shown at once, the check still running */
    tui_wait_for(&r, "Checking your kernel...");
    tui_keys(&r, "\033");
    tui_wait_for(&r, "The check was stopped (Esc)");
    /* killed processes end once the scheduler runs them: wait for that, under the guard */
    guard = test_guard_start(TUI_GUARD_S);
    while ((escapee > 0 && kill((pid_t)escapee, 0) == 0) || tui_descendants(r.pid) > 0) {
        if (test_guard_over(&guard)) {
            int hidden = escapee > 0 && kill((pid_t)escapee, 0) == 0, below = tui_descendants(r.pid);
            if (hidden)
                kill((pid_t)escapee, SIGKILL);
            test_guard_fail(test_guard_waited(&guard), "the end of the stopped check's processes (%d below the "
                            "interface; the one the kernel hid with setsid %s)", below, hidden ? "still there" : "gone");
        }
        tui_pump(&r, 10);
    }
    assert_int_equal(tui_descendants(r.pid), 0);
    tui_finish(&r, "qq");
    tui_exercise_dirs_remove(&d);
}

/* q back home, where lesson 3 now says the exercise passed. */
static void tui_exercise_recorded(tui_run *r)
{
    const lesson *l = &tui_lessons.lessons[2];
    tui_keys(r, "q");
    tui_wait_for(r, "q quit");
    const char *const passed[] = {l->title[I18N_EN], "1 of 3 exercises passed", NULL}; /* lesson 3 has three */
    tui_wait_row(r, passed);
}

/* The exercise of lesson 3 from the home screen: the learner's file is made from the starting one
   and fails; the reference solution written over it (no key pressed) is noticed by inotify,
   checked again, passes, and the pass is recorded. */
static void test_exercise_watch(void **state)
{
    (void)state;
    static tui_run r;
    static tui_exercise_dirs d;
    tui_exercise_dirs_make(&d);
    const char *env[] = {d.workspace, d.cache, "CUDACHEF_WATCH=", NULL};
    tui_exercise_open(&r, env);
    tui_wait_for(&r, "Your file: ");
    assert_int_equal(access(d.file, R_OK), 0);
    tui_exercise_save_solution(&d, 0);
    tui_wait_verdict(&r, "PASS  passed: ");
    tui_wait_gone(&r, "FAIL");
    assert_int_equal(tui_find(&r, "No sandbox:", NULL), -1); /* bubblewrap boxed it */
    tui_exercise_recorded(&r);
    tui_finish(&r, "q");
    tui_exercise_dirs_remove(&d);
}

/* The same with polling (CUDACHEF_WATCH=poll), opened from lesson 3's reader, the solution saved
   the way editors save (renamed over the file), without a sandbox (CUDACHEF_SANDBOX=none): the
   screen says so. */
static void test_exercise_watch_poll(void **state)
{
    (void)state;
    static tui_run r;
    static tui_exercise_dirs d;
    tui_exercise_dirs_make(&d);
    const lesson *l = &tui_lessons.lessons[2];
    const char *env[] = {d.workspace, d.cache, "CUDACHEF_WATCH=poll", "CUDACHEF_SANDBOX=none", NULL};
    tui_start(&r, 30, 100, NULL, env);
    tui_wait_for(&r, l->title[I18N_EN]);
    tui_keys(&r, "jj\r");
    tui_wait_for(&r, l->text[I18N_EN].items[0].title);
    tui_keys(&r, "x");
    tui_wait_for(&r, "Which exercise?");
    tui_keys(&r, "\r"); /* the first one, chosen */
    tui_wait_verdict(&r, "FAIL  wrong with n = ");
    tui_wait_for(&r, "No sandbox:");
    tui_exercise_save_solution(&d, 1);
    tui_wait_verdict(&r, "PASS  passed: ");
    tui_keys(&r, "q"); /* back to the reader it was opened from */
    tui_wait_for(&r, l->text[I18N_EN].items[0].title);
    tui_finish(&r, "qq");
    tui_exercise_dirs_remove(&d);
}

/* h shows the hints one at a time; s before passing warns that it spoils the exercise and a
   second s shows the reference solution; e runs $VISUAL on the file (here a command that writes
   the solution over it) and the file is checked when it ends: PASS. A file of the learner's is
   never written over when the exercise is opened again. */
static void test_exercise_hints_solution_editor(void **state)
{
    (void)state;
    static tui_run r;
    static tui_exercise_dirs d;
    static char visual[4300];
    tui_exercise_dirs_make(&d);
    snprintf(visual, sizeof visual, "VISUAL=cp '%s'", d.solution);
    const char *env[] = {d.workspace, d.cache, visual, NULL};
    tui_exercise_open(&r, env);
    tui_keys(&r, "h");
    tui_wait_for(&r, "Hint 1");
    tui_wait_for(&r, "e edit   r check   h hint   s solution"); /* the message made room for the keys */
    assert_int_equal(tui_find(&r, "Hint 2", NULL), -1);
    tui_keys(&r, "h");
    tui_wait_for(&r, "Hint 2");
    tui_keys(&r, "s");
    tui_wait_for(&r, "This shows the answer and spoils the exercise. Press s again to see it.");
    assert_int_equal(tui_find(&r, "Reference solution", NULL), -1);
    tui_keys(&r, "s");
    tui_wait_for(&r, "Reference solution");
    tui_wait_for(&r, "if (i < n)");
    tui_keys(&r, "e");
    tui_wait_verdict(&r, "PASS  passed: ");
    tui_exercise_recorded(&r);
    tui_keys(&r, "x1"); /* lesson 3 still chosen, opened again: the learner's passing file is kept, and checked */
    tui_wait_verdict(&r, "PASS  passed: ");
    tui_finish(&r, "qq");
    tui_exercise_dirs_remove(&d);
}

int main(void)
{
    const char *bin = getenv("CUDACHEF_BIN");
    if (bin && *bin)
        tui_bin = bin;
    const char *only = getenv("CUDACHEF_TEST_ONLY"); /* one test by name (a glob), while working on it */
    if (only && *only)
        cmocka_set_test_filter(only);
    if (chdir(test_source_dir()) != 0) {
        perror("chdir");
        return 1;
    }
    chef_error err = {0};
    if (lesson_load_all("lessons", "kernels", &tui_lessons, &err) != 0) {
        fprintf(stderr, "could not load lessons: %s\n", err.message);
        return 1;
    }
    test_pace_report(); /* once, at the start: the guards of the waits scale with it */
    test_guard_whole(TUI_WHOLE_GUARD_S);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_home_reader_quit, tui_teardown),
        cmocka_unit_test_teardown(test_home_wide_progress_and_numbers, tui_teardown),
        cmocka_unit_test_teardown(test_question_answered, tui_teardown),
        cmocka_unit_test_teardown(test_too_small, tui_teardown),
        cmocka_unit_test_teardown(test_no_color, tui_teardown),
        cmocka_unit_test_teardown(test_korean_aligned, tui_teardown),
        cmocka_unit_test_teardown(test_kitchen_tiny, tui_teardown),
        cmocka_unit_test_teardown(test_kitchen_replay, tui_teardown),
        cmocka_unit_test_teardown(test_kitchen_shipping, tui_teardown),
        cmocka_unit_test_teardown(test_kitchen_parameters, tui_teardown),
        cmocka_unit_test_teardown(test_classroom, tui_teardown),
        cmocka_unit_test_teardown(test_team_zoom_idle, tui_teardown),
        cmocka_unit_test_teardown(test_floor_plan, tui_teardown),
        cmocka_unit_test_teardown(test_views_everywhere, tui_teardown),
        cmocka_unit_test_teardown(test_step_through, tui_teardown),
        cmocka_unit_test_teardown(test_memory_view, tui_teardown),
        cmocka_unit_test_teardown(test_taste_names_the_cook, tui_teardown),
        cmocka_unit_test_teardown(test_program_kitchen, tui_teardown),
        cmocka_unit_test_teardown(test_classroom_picker, tui_teardown),
        cmocka_unit_test_teardown(test_glossary_screen, tui_teardown),
        cmocka_unit_test_teardown(test_team_warps, tui_teardown),
        cmocka_unit_test_teardown(test_kitchen_occupancy, tui_teardown),
        cmocka_unit_test_teardown(test_versus, tui_teardown),
        cmocka_unit_test_teardown(test_versus_refused, tui_teardown),
        cmocka_unit_test_teardown(test_bench, tui_teardown),
        cmocka_unit_test_teardown(test_bench_cancel, tui_teardown),
        cmocka_unit_test_teardown(test_bench_from_lesson, tui_teardown),
        cmocka_unit_test_teardown(test_new_screens_ascii, tui_teardown),
        cmocka_unit_test_teardown(test_sigterm_restores, tui_teardown),
        cmocka_unit_test_teardown(test_progress_resume, tui_teardown),
        cmocka_unit_test_teardown(test_search, tui_teardown),
        cmocka_unit_test_teardown(test_mouse, tui_teardown),
        cmocka_unit_test_teardown(test_resize_back, tui_teardown),
        cmocka_unit_test_teardown(test_ascii, tui_teardown),
        cmocka_unit_test_teardown(test_ascii_symbols, tui_teardown),
        cmocka_unit_test_teardown(test_korean_without_locale, tui_teardown),
        cmocka_unit_test_teardown(test_slow_probe, tui_teardown),
        cmocka_unit_test_teardown(test_ctrl_c_restores, tui_teardown),
        cmocka_unit_test_teardown(test_crash_restores, tui_teardown),
        cmocka_unit_test_teardown(test_demo_report, tui_teardown),
        cmocka_unit_test_teardown(test_demo_error_shown, tui_teardown),
        cmocka_unit_test_teardown(test_lesson_end, tui_teardown),
        cmocka_unit_test_teardown(test_try_kitchen, tui_teardown),
        cmocka_unit_test_teardown(test_exercise_watch, tui_teardown),
        cmocka_unit_test_teardown(test_exercise_watch_poll, tui_teardown),
        cmocka_unit_test_teardown(test_exercise_hints_solution_editor, tui_teardown),
        cmocka_unit_test_teardown(test_exercise_check_stopped, tui_teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    lesson_set_free(&tui_lessons);
    return failed;
}
