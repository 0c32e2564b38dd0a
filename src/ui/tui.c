/*
 * tui.c - cudachef's full-screen interface: the terminal, the signals and the loop.
 *
 * `cudachef` with no command on a terminal comes here. The loop sleeps in poll() until a key or a
 * signal arrives (no busy loop): signal handlers only set a sig_atomic_t flag and write a byte to
 * a pipe that poll watches. SIGWINCH redraws at the new size; SIGINT and SIGTERM end the loop and
 * restore the terminal; SIGSEGV and SIGABRT restore it and then die as they would have. Below
 * LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS a screen asks for a larger terminal. NO_COLOR, --no-color and
 * terminals without colour get the monochrome theme; --ascii and non-UTF-8 locales get ASCII.
 *
 * The screens are a stack (screens.c): the loop draws the one on top (an overlay over the ones
 * below it) and gives it the keys; `?` opens the help over any screen. A screen may ask for a
 * descriptor to be watched (the inotify watch on an exercise's file, so a save is checked without
 * a key) and for frames (its tick: an animation, a watch that polls); every screen on the stack is
 * told after each wake-up, so work it waits for is seen even under the help.
 *
 * Long work is a job (base/job.h, jobs.c) whose news is a byte on the same self-pipe. The first
 * frame never waits for CUDA: starting the CUDA runtime can take seconds on a GPU machine, so the
 * GPU is probed as a job while the home screen says "checking for a GPU...", and its answer is
 * read once the job has finished.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engine/backend.h"
#include "base/chef.h"
#include "base/i18n.h"
#include "ui/screens.h"
#include "ui/tui.h"
#include "grading/sandbox.h"
#include "ui/ui.h"
#include "base/text.h"

static volatile sig_atomic_t tui_resized;
static volatile sig_atomic_t tui_stop;      /* the signal that asks to stop, 0 none */
static int tui_wake[2] = {-1, -1};          /* a byte written here wakes poll */
static int tui_started;                     /* curses is on */

/* Wakes the loop: a byte on the self-pipe (write is safe in a signal handler and in any thread). */
void tui_wake_loop(void)
{
    if (tui_wake[1] >= 0) {
        char byte = 0;
        ssize_t ignored = write(tui_wake[1], &byte, 1);
        (void)ignored;
    }
}

/* SIGWINCH, SIGINT, SIGTERM: note it and wake the loop; nothing else is safe here. */
static void tui_on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGWINCH)
        tui_resized = 1;
    else
        tui_stop = sig;
    tui_wake_loop();
    errno = saved;
}

/* SIGSEGV, SIGABRT: give the terminal back, then die of the same signal (the handler was reset). */
static void tui_on_crash(int sig)
{
    if (tui_started && !isendwin())
        endwin();
    raise(sig);
}

/* At exit, whatever the path: the terminal is never left in curses mode. */
static void tui_at_exit(void)
{
    if (tui_started && !isendwin())
        endwin();
}

/* 1 for an option of the full-screen interface. */
int tui_option(const char *argument)
{
    return strcmp(argument, "--no-color") == 0 || strcmp(argument, "--ascii") == 0 ||
           strcmp(argument, "--classroom") == 0;
}

/* Installs a handler for sig; 0, or -1 with a message. */
static int tui_handle(int sig, void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0) {
        fprintf(stderr, "cudachef: could not handle signal %d: %s\n", sig, strerror(errno));
        return -1;
    }
    return 0;
}

/* The self-pipe and the signal handlers; 0, or -1 with a message. */
static int tui_signals(void)
{
    if (pipe2(tui_wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        fprintf(stderr, "cudachef: could not make a pipe: %s\n", strerror(errno));
        return -1;
    }
    if (tui_handle(SIGWINCH, tui_on_signal, SA_RESTART) != 0 || tui_handle(SIGINT, tui_on_signal, SA_RESTART) != 0 ||
        tui_handle(SIGTERM, tui_on_signal, SA_RESTART) != 0 || tui_handle(SIGSEGV, tui_on_crash, SA_RESETHAND) != 0 ||
        tui_handle(SIGABRT, tui_on_crash, SA_RESETHAND) != 0)
        return -1;
    return 0;
}

/* What the probe for a GPU found (the probe job's data). */
typedef struct tui_probe_result {
    backend_info info;
    int found; /* 1 when a GPU will cook */
} tui_probe_result;

/* Asks CUDA for a GPU (possibly slow): the probe job's work, also run at once when who cooks must
   be known before the first screen (classroom mode, `try --kitchen`). */
static int tui_probe_work(job *j, void *data)
{
    (void)j;
    tui_probe_result *p = data;
    /* CUDACHEF_PROBE_DELAY_MS makes the probe that much slower, as a slow CUDA start would be: the
       benchmark and the tests use it to check that the first frame never waits for CUDA */
    const char *delay = getenv("CUDACHEF_PROBE_DELAY_MS");
    long ms = delay ? strtol(delay, NULL, 10) : 0;
    if (ms > 0 && ms <= 60000) {
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&t, &t) != 0 && errno == EINTR) {
        }
    }
    memset(&p->info, 0, sizeof p->info);
    p->found = backend_gpu_probe(&p->info) == 0;
    return 0;
}

/* Who will cook, as the home screen says it: the GPU's name, or the CPU emulator and why. */
static void tui_backend_text(ui_state *s, const tui_probe_result *p)
{
    s->gpu = p->found;
    if (p->found)
        snprintf(s->backend, sizeof s->backend, "%s", p->info.name);
    else
        snprintf(s->backend, sizeof s->backend, "%s: %s", _("CPU emulator"), p->info.no_gpu_reason);
}

static job *tui_probe; /* the probe for a GPU while it runs (a slow CUDA start never delays a frame) */

/* Probes for a GPU in the background; if no thread can be made, probes here instead (a slower
   first answer, the same result). */
static void tui_probe_start(ui_state *s)
{
    tui_probe_result *p = calloc(1, sizeof *p);
    if (p && (tui_probe = ui_job_start(s, _("probing for a GPU"), tui_probe_work, p, free)) != NULL)
        return;
    s->message[0] = '\0';
    tui_probe_result now;
    tui_probe_work(NULL, &now);
    tui_backend_text(s, &now);
}

/* After a wake-up: once the probe has finished, shows what it found; 1 if so. */
static int tui_probe_collect(ui_state *s)
{
    if (!tui_probe || job_running(tui_probe))
        return 0;
    tui_backend_text(s, job_data(tui_probe));
    job_free(tui_probe);
    tui_probe = NULL;
    return 1;
}

/* The screen shown while the terminal is too small. */
static void tui_draw_too_small(ui_state *s)
{
    char line[160], now[80];
    snprintf(line, sizeof line, _("Please enlarge the terminal to %d x %d"), LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
    snprintf(now, sizeof now, _("(now %d x %d; q quits)"), COLS, LINES);
    int y = LINES / 2 - 1 < 0 ? 0 : LINES / 2 - 1;
    int w = text_width(line, strlen(line));
    draw_text(s, y, w < COLS ? (COLS - w) / 2 : 0, COLS < w ? COLS : w, line, UI_HEADING);
    w = text_width(now, strlen(now));
    if (y + 1 < LINES)
        draw_text(s, y + 1, w < COLS ? (COLS - w) / 2 : 0, COLS < w ? COLS : w, now, UI_TEXT);
}

static double tui_frame_ms; /* when the last frame was drawn (chef_now_ms) */

/* Draws the whole screen: the screen on top and, under an overlay, the ones it covers; curses
   sends only what changed, so nothing flickers. */
static void tui_draw(ui_state *s)
{
    tui_frame_ms = chef_now_ms();
    erase();
    if (layout_too_small(COLS, LINES)) {
        tui_draw_too_small(s);
    } else {
        int from = s->depth - 1;
        while (from > 0 && (s->stack[from].cls->flags & UI_SCREEN_OVERLAY))
            from--;
        for (int i = from < 0 ? 0 : from; i < s->depth; i++)
            s->stack[i].cls->draw(s, s->stack[i].self);
        if (s->message[0])
            draw_text(s, LINES - 1, 0, COLS, s->message, UI_MARK);
    }
    refresh();
}

/* Keeps why progress could not be read or written, for the home screen. */
static void tui_progress_note(ui_state *s, const chef_error *err)
{
    snprintf(s->progress_note, sizeof s->progress_note, _(" Progress is not being saved: %s (%s)"), err->message, err->hint);
}

/* Reads the progress file again into s->progress. */
static void tui_progress_reload(ui_state *s)
{
    chef_error err = {0};
    progress_free(&s->progress);
    if (progress_load(&s->progress, &err) != 0)
        tui_progress_note(s, &err);
}

/* Records the page reached in a lesson. */
void ui_progress_page(ui_state *s, const lesson *l, int page, int count)
{
    chef_error err = {0};
    char anchor[64];
    if (progress_page(l->slug, page, count, lesson_item_anchor(l, page, anchor, sizeof anchor), &err) != 0)
        tui_progress_note(s, &err);
    else
        tui_progress_reload(s);
}

/* Records a demo run or an exercise passed. */
void ui_progress_mark(ui_state *s, const char *kind, const lesson *l, const char *name)
{
    chef_error err = {0};
    if (progress_mark(kind, l->slug, name, &err) != 0)
        tui_progress_note(s, &err);
    else
        tui_progress_reload(s);
}

/* A mouse event as the screens take it: the wheel scrolls a screen that scrolls (as arrow keys),
   a click goes to the screen shown; over the help, any click closes it. */
static void tui_mouse(ui_state *s)
{
    MEVENT ev;
    const ui_layer *top = ui_top(s);
    if (getmouse(&ev) != OK || !top)
        return;
    if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
        int key = ev.bstate & BUTTON4_PRESSED ? KEY_UP : KEY_DOWN;
        if (!(top->cls->flags & UI_SCREEN_WHEEL))
            return;
        for (int i = 0; i < 3 && ui_top(s) == top; i++)
            top->cls->key(s, top->self, key);
        return;
    }
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return;
    if (top->cls == &ui_screen_help)
        ui_back(s);
    else if (top->cls->click)
        top->cls->click(s, top->self, ev.y, ev.x);
}

/* Passes a key to the screen shown; `?` opens the help over it (unless a prompt takes the key). */
static void tui_key(ui_state *s, int key)
{
    if (key == KEY_MOUSE) {
        if (!layout_too_small(COLS, LINES))
            tui_mouse(s);
        return;
    }
    s->message[0] = '\0'; /* a message answers one key only */
    /* below the minimum size keys still reach the screen (q goes back), which is drawn once the
       terminal is large enough again */
    const ui_layer *top = ui_top(s);
    if (!top)
        return;
    if (key == '?' && !(top->cls->flags & UI_SCREEN_OVERLAY) && !s->typing)
        ui_open(s, &ui_screen_help, NULL);
    else
        top->cls->key(s, top->self, key);
}

/* Reads the new size of the terminal and tells curses. */
static void tui_resize(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
}

#define TUI_JOB_TICK_MS 100 /* while the screen shown waits for a job: its elapsed time moves on */

/* The first frame any open screen asks for, in ms from the last one (0: nothing moves). */
static int tui_tick(const ui_state *s)
{
    int tick = 0;
    for (int i = 0; i < s->depth; i++) {
        const ui_layer *l = &s->stack[i];
        int want = l->cls->tick ? l->cls->tick(l->self) : 0;
        if (l->cls->running && job_running(l->cls->running(l->self)) && (want == 0 || want > TUI_JOB_TICK_MS))
            want = TUI_JOB_TICK_MS;
        if (want > 0 && (tick == 0 || want < tick))
            tick = want;
    }
    return tick;
}

/* Tells every open screen the loop woke up (top first; one may close itself or others); 1 when
   the screen must be drawn again. */
static int tui_wake_screens(ui_state *s, const struct pollfd *fds, int nfds)
{
    int redraw = 0;
    for (int i = s->depth - 1; i >= 0; i--) {
        if (i >= s->depth)
            continue;
        const ui_layer *l = &s->stack[i];
        if (!l->cls->wake)
            continue;
        int fd = l->cls->fd ? l->cls->fd(l->self) : -1, readable = 0;
        for (int k = 2; k < nfds && fd >= 0; k++)
            if (fds[k].fd == fd && (fds[k].revents & POLLIN))
                readable = 1;
        redraw |= l->cls->wake(s, l->self, readable);
    }
    return redraw;
}

/* Sleeps until a key, a signal, a job's news or an open screen's descriptor (or, while something
   moves, its next frame), then handles them; returns 0, or -1 when the loop must end on an error
   (the terminal went away). */
static int tui_wait(ui_state *s, int *dirty)
{
    struct pollfd fds[2 + UI_STACK_MAX] = {{STDIN_FILENO, POLLIN, 0}, {tui_wake[0], POLLIN, 0}};
    int nfds = 2;
    for (int i = 0; i < s->depth; i++) {
        const ui_layer *l = &s->stack[i];
        int fd = l->cls->fd ? l->cls->fd(l->self) : -1;
        if (fd >= 0)
            fds[nfds++] = (struct pollfd){fd, POLLIN, 0};
    }
    /* frames come every tick ms from the start of the last one, however long drawing took */
    int timeout = -1, tick = tui_tick(s);
    if (tick > 0) {
        double due = tui_frame_ms + tick - chef_now_ms();
        timeout = due <= 0 ? 0 : (int)(due + 0.999);
    }
    int ready = poll(fds, (nfds_t)nfds, timeout);
    if (ready < 0)
        return errno == EINTR ? 0 : -1;
    if (fds[1].revents & POLLIN) {
        char drain[64];
        while (read(tui_wake[0], drain, sizeof drain) > 0)
            ;
        if (tui_probe_collect(s))
            *dirty = 1;
    }
    /* a job's news, a save seen (or, polling, looked for), a check once it settled */
    if (tui_wake_screens(s, fds, nfds))
        *dirty = 1;
    if (ready == 0) {
        *dirty = 1; /* the next frame of what moves */
        return 0;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        int key, got = 0;
        while ((key = getch()) != ERR) {
            got = 1;
            if (key == KEY_RESIZE)
                tui_resized = 1;
            else
                tui_key(s, key);
            *dirty = 1;
            if (s->quit || s->depth == 0)
                break;
        }
        if (!got && (fds[0].revents & (POLLHUP | POLLERR)))
            return -1;
    }
    return 0;
}

/* Starts curses on the terminal with the theme; 0, or -1 with a message. */
static int tui_start(ui_state *s)
{
    const char *term = getenv("TERM");
    if (!term || !*term) {
        fprintf(stderr, "%s\n  %s\n", _("cudachef: TERM is not set, so this terminal cannot be driven full-screen"),
                _("hint: set TERM to your terminal's type (xterm-256color works in most), or use cudachef read 1"));
        return -1;
    }
    if (!newterm(NULL, stdout, stdin)) {
        fprintf(stderr, _("cudachef: this terminal (TERM=%s) cannot be driven full-screen\n"), term);
        fprintf(stderr, "  %s\n", _("hint: set TERM to your terminal's type (xterm-256color works in most), or use cudachef read 1"));
        return -1;
    }
    tui_started = 1;
    /* a terminal that cannot move the cursor (TERM=dumb, a printer) cannot show screens */
    const char *move = tigetstr("cup");
    if (!move || move == (const char *)-1) {
        endwin();
        fprintf(stderr, _("cudachef: this terminal (TERM=%s) cannot move its cursor, so it cannot show full screens\n"), term);
        fprintf(stderr, "  %s\n", _("hint: set TERM to your terminal's type (xterm-256color works in most), or use cudachef read 1"));
        return -1;
    }
    if (s->color && !has_colors())
        s->color = 0;
    char err[600];
    if (theme_load(!s->color ? "mono" : s->classroom ? "classroom" : "default", err, sizeof err) != 0) {
        endwin();
        fprintf(stderr, "cudachef: %s\n  hint: set CUDACHEF_DATA to the folder holding assets/\n", err);
        return -1;
    }
    if (s->color && start_color() == OK)
        theme_start_colors(use_default_colors() == OK);
    else
        s->color = 0;
    bkgd(theme_attr(UI_TEXT, s->color) | ' '); /* the theme's background everywhere, not only behind text */
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    /* clicks and the wheel (holding Shift still selects text in most terminals) */
    mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    curs_set(0);
    return 0;
}

/* Frees what the interface holds at its end; 1 when a job still runs (a screen's, or one let go
   earlier): then what the jobs may still read (the lessons, the exercises) is left as it is, and
   the program must end with _exit. */
static int tui_free(ui_state *s)
{
    ui_close_all(s);
    for (int i = 0; ui_screens[i]; i++)
        if (ui_screens[i]->finish)
            ui_screens[i]->finish(s);
    if (tui_probe)
        job_free(tui_probe);
    tui_probe = NULL;
    progress_free(&s->progress);
    if (job_live() > 0)
        return 1;
    if (s->exercises_loaded > 0)
        exercise_set_free(&s->exercises);
    lesson_set_free(&s->lessons);
    return 0;
}

/* The full-screen interface: options, terminal, loop, and the terminal given back. */
int tui_main(const tui_options *o)
{
    ui_state s;
    memset(&s, 0, sizeof s);
    /* the interface's checks are boxed where bubblewrap works; a warning line would land in the
       middle of the screen, so none is printed */
    sandbox_set_policy(sandbox_default(SANDBOX_PREFER));
    sandbox_set_quiet(1);
    const char *no_color = getenv("NO_COLOR");
    s.color = !(no_color && *no_color);
    const char *codeset = nl_langinfo(CODESET);
    s.ascii = !codeset || strcmp(codeset, "UTF-8") != 0;
    const char *classroom_lesson = NULL;
    for (int i = 1; i < o->argc; i++) {
        if (strcmp(o->argv[i], "--classroom") == 0) {
            s.classroom = 1;
            if (i + 1 < o->argc && o->argv[i + 1][0] != '-')
                classroom_lesson = o->argv[++i];
        } else if (strcmp(o->argv[i], "--no-color") == 0)
            s.color = 0;
        else if (strcmp(o->argv[i], "--ascii") == 0)
            s.ascii = 1;
        else {
            fprintf(stderr, "cudachef: unknown option '%s' (without a command: --no-color, --ascii, --lang, --classroom [LESSON])\n", o->argv[i]);
            return CHEF_EXIT_USAGE;
        }
    }
    /* Hangul cannot be drawn in ASCII: English then, said on the home screen and left on the
       terminal under the interface (in English: Korean is what cannot be shown) */
    const char *no_korean = " Korean needs a UTF-8 terminal (e.g. LANG=C.UTF-8) and no --ascii: showing English";
    if (s.ascii && i18n_current() == I18N_KO) {
        i18n_init(I18N_EN, chef_data_dir());
        snprintf(s.progress_note, sizeof s.progress_note, "%s", no_korean);
        fprintf(stderr, "cudachef:%s\n", no_korean);
    }
    chef_error err = {0};
    if (lesson_load_all(lesson_default_dir(), lesson_kernels_dir(), &s.lessons, &err) != 0) {
        chef_error_print(&err);
        return err.exit_code;
    }
    /* each learner meets the choices in an order of their own, the same on every run; a class on a
       projector sees the files' one, so that the room can say "b" together */
    if (!s.classroom)
        lesson_shuffle_choices(&s.lessons, progress_answer_seed());
    if (progress_load(&s.progress, &err) != 0)
        tui_progress_note(&s, &err);
    int first = 0; /* the lesson the home screen chooses first */
    if (classroom_lesson) {
        const lesson *l = lesson_find(&s.lessons, classroom_lesson);
        if (!l) {
            fprintf(stderr, "cudachef: no lesson '%s' (cudachef list names them)\n", classroom_lesson);
            tui_free(&s);
            return CHEF_EXIT_USAGE;
        }
        first = (int)(l - s.lessons.lessons);
    }
    if (tui_signals() != 0 || atexit(tui_at_exit) != 0 || tui_start(&s) != 0 ||
        ui_open(&s, &ui_screen_home, &first) != 0) {
        tui_free(&s);
        return CHEF_EXIT_ENVIRONMENT;
    }
    int dirty = 1, code = CHEF_EXIT_OK;
    tui_draw(&s); /* the first frame, "checking for a GPU..." */
    if (o->kitchen_demo || classroom_lesson) {
        /* `try --kitchen` (the learner's own kernel, cooked at once) and a class's run need to know
           who cooks, since the demo's sizes depend on it: probe first */
        tui_probe_result now;
        tui_probe_work(NULL, &now);
        tui_backend_text(&s, &now);
    }
    if (o->program) {
        if (ui_open(&s, &ui_screen_program, o->program) != 0)
            s.quit = 1;
    } else if (o->kitchen_demo) {
        s.kernel = o->kitchen_kernel;
        if (ui_open(&s, &ui_screen_kitchen, o->kitchen_demo) != 0)
            s.quit = 1;
    } else if (classroom_lesson) {
        if (classroom_open(&s, first, 0) != 0) /* no run demo: the home screen, on that lesson */
            snprintf(s.message, sizeof s.message,
                     _(" Lesson %d has no demo for the kitchen: Enter opens its pages, and r runs their demos."),
                     s.lessons.lessons[first].number);
    } else {
        tui_probe_start(&s); /* a slow CUDA start never delays it */
    }
    while (!tui_stop && !s.quit && s.depth > 0) {
        if (tui_resized) {
            tui_resized = 0;
            tui_resize();
            dirty = 1;
        }
        if (dirty) {
            tui_draw(&s);
            dirty = 0;
        }
        if (tui_wait(&s, &dirty) != 0) {
            code = CHEF_EXIT_ENVIRONMENT;
            break;
        }
    }
    endwin();
    int running = tui_free(&s); /* a probe inside CUDA, a sweep measuring: let go */
    if (tui_stop)
        code = 128 + tui_stop;
    if (running) { /* quit while CUDA was still starting, or measuring: end without exit's clean-up, which
                      the CUDA runtime's own destructors would run under that thread's feet */
        fflush(NULL);
        _exit(code);
    }
    return code;
}
