/*
 * screenshot.c - a picture of the running program: `make screenshots` makes the README's and the
 * docs' screenshots with it, so none is ever drawn by hand.
 *
 *   screenshot OUT.svg COLS ROWS PROGRAM [ARGS...] < STEPS
 *
 * It starts PROGRAM in a pseudo-terminal of COLS x ROWS, follows STEPS (one a line: `wait TEXT`
 * until TEXT is on the screen, `keys TEXT` typed, with \r \t \e \\ as in C and \s a space, `sleep MS`), and
 * writes the screen as libvterm holds it (the same terminal the interface's tests read) to OUT.svg:
 * a cell grid in a monospace font, each run of cells with its colours, bold and reverse. The
 * program gets TERM=xterm-256color and a UTF-8 locale; it is ended (SIGTERM) after the last step.
 * Exit 0, or 1 with a one-line error (a step that timed out names its text).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vterm.h>

#define SHOT_WAIT_MS 20000 /* a `wait` step gives up after this long */
#define SHOT_CELL_W 8.4    /* a cell in the picture, in pixels */
#define SHOT_CELL_H 17.0

static VTerm *shot_vt;
static VTermScreen *shot_screen;
static int shot_fd = -1, shot_rows, shot_cols;

/* Milliseconds of a monotonic clock. */
static double shot_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int shot_ended; /* the program closed the terminal (it ended) */

/* Feeds what the program wrote into the terminal for up to ms milliseconds. */
static void shot_pump(int ms)
{
    double end = shot_now_ms() + ms;
    for (;;) {
        int left = (int)(end - shot_now_ms());
        struct pollfd p = {shot_fd, POLLIN, 0};
        if (shot_ended || poll(&p, 1, left > 0 ? left : 0) <= 0)
            return;
        char buf[8192];
        ssize_t n = read(shot_fd, buf, sizeof buf);
        if (n <= 0) {
            shot_ended = 1;
            return;
        }
        vterm_input_write(shot_vt, buf, (size_t)n);
        vterm_screen_flush_damage(shot_screen);
    }
}

/* A character as UTF-8 into out (4 bytes at most); returns the bytes. */
static size_t shot_utf8(uint32_t c, char *out)
{
    if (c < 0x80)
        return out[0] = (char)c, 1;
    if (c < 0x800)
        return out[0] = (char)(0xC0 | c >> 6), out[1] = (char)(0x80 | (c & 0x3F)), 2;
    if (c < 0x10000)
        return out[0] = (char)(0xE0 | c >> 12), out[1] = (char)(0x80 | (c >> 6 & 0x3F)),
               out[2] = (char)(0x80 | (c & 0x3F)), 3;
    return out[0] = (char)(0xF0 | c >> 18), out[1] = (char)(0x80 | (c >> 12 & 0x3F)),
           out[2] = (char)(0x80 | (c >> 6 & 0x3F)), out[3] = (char)(0x80 | (c & 0x3F)), 4;
}

/* Row row of the screen as UTF-8 into out (a wide character once, its second cell skipped). */
static void shot_row(int row, char *out, size_t size)
{
    size_t n = 0;
    for (int col = 0; col < shot_cols && n + 8 < size;) {
        VTermScreenCell cell;
        vterm_screen_get_cell(shot_screen, (VTermPos){.row = row, .col = col}, &cell);
        n += shot_utf8(cell.chars[0] ? cell.chars[0] : ' ', out + n);
        col += cell.width > 0 ? cell.width : 1;
    }
    out[n] = '\0';
}

/* Whether text is on the screen now. */
static int shot_shows(const char *text)
{
    char row[4096];
    for (int r = 0; r < shot_rows; r++) {
        shot_row(r, row, sizeof row);
        if (strstr(row, text))
            return 1;
    }
    return 0;
}

/* A step's text with \r \t \e \n \s (a space) and \\ turned into their characters. */
static void shot_unescape(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++) {
        if (*in != '\\' || !in[1]) {
            out[n++] = *in;
            continue;
        }
        in++;
        out[n++] = *in == 'r' ? '\r' : *in == 't' ? '\t' : *in == 'e' ? '\033' : *in == 'n' ? '\n' : *in == 's' ? ' ' : *in;
    }
    out[n] = '\0';
}

/* "#rrggbb" of a cell's colour. */
static void shot_color(const VTermColor *c, char *out)
{
    VTermColor rgb = *c;
    vterm_screen_convert_color_to_rgb(shot_screen, &rgb);
    snprintf(out, 8, "#%02x%02x%02x", rgb.rgb.red, rgb.rgb.green, rgb.rgb.blue);
}

/* Writes text escaped for XML. */
static void shot_xml(FILE *f, const char *text)
{
    for (; *text; text++)
        if (*text == '<')
            fputs("&lt;", f);
        else if (*text == '>')
            fputs("&gt;", f);
        else if (*text == '&')
            fputs("&amp;", f);
        else
            fputc(*text, f);
}

/* The screen as an SVG picture. */
static int shot_svg(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    double w = shot_cols * SHOT_CELL_W, h = shot_rows * SHOT_CELL_H;
    VTermColor dfg, dbg;
    vterm_state_get_default_colors(vterm_obtain_state(shot_vt), &dfg, &dbg);
    char fg0[8], bg0[8];
    shot_color(&dfg, fg0);
    shot_color(&dbg, bg0);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n"
            "<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"14\" xml:space=\"preserve\">\n",
            w, h, w, h, bg0);
    for (int r = 0; r < shot_rows; r++) {
        for (int c = 0; c < shot_cols;) {
            VTermScreenCell cell;
            vterm_screen_get_cell(shot_screen, (VTermPos){.row = r, .col = c}, &cell);
            int width = cell.width > 0 ? cell.width : 1;
            VTermColor fgc = cell.fg, bgc = cell.bg;
            if (cell.attrs.reverse) {
                VTermColor t = fgc;
                fgc = bgc;
                bgc = t;
            }
            char fg[8], bg[8];
            shot_color(&fgc, fg);
            shot_color(&bgc, bg);
            if (strcmp(bg, bg0) != 0)
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", c * SHOT_CELL_W,
                        r * SHOT_CELL_H, width * SHOT_CELL_W, SHOT_CELL_H, bg);
            uint32_t ch = cell.chars[0];
            if (ch && ch != ' ') {
                char text[8] = {0};
                shot_utf8(ch, text);
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\"%s>", c * SHOT_CELL_W, r * SHOT_CELL_H + 13, fg,
                        cell.attrs.bold ? " font-weight=\"bold\"" : "");
                shot_xml(f, text);
                fputs("</text>\n", f);
            }
            c += width;
        }
    }
    fputs("</g>\n</svg>\n", f);
    return fclose(f);
}

/* Starts the program, follows the steps, writes the picture. */
int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: screenshot OUT.svg COLS ROWS PROGRAM [ARGS...] < STEPS\n");
        return 2;
    }
    shot_cols = atoi(argv[2]);
    shot_rows = atoi(argv[3]);
    if (shot_cols < 20 || shot_rows < 5 || shot_cols > 400 || shot_rows > 200) {
        fprintf(stderr, "screenshot: COLS and ROWS must be a terminal's size (20..400 x 5..200)\n");
        return 2;
    }
    struct winsize ws = {.ws_row = (unsigned short)shot_rows, .ws_col = (unsigned short)shot_cols};
    pid_t pid = forkpty(&shot_fd, NULL, NULL, &ws);
    if (pid < 0) {
        perror("screenshot: forkpty");
        return 1;
    }
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        unsetenv("NO_COLOR");
        execvp(argv[4], argv + 4);
        _exit(127);
    }
    shot_vt = vterm_new(shot_rows, shot_cols);
    vterm_set_utf8(shot_vt, 1);
    shot_screen = vterm_obtain_screen(shot_vt);
    vterm_screen_reset(shot_screen, 1);
    char line[4096], text[4096];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        char *arg = strchr(line, ' ');
        arg = arg ? arg + 1 : line + strlen(line);
        shot_unescape(arg, text, sizeof text);
        if (strncmp(line, "wait ", 5) == 0) {
            double end = shot_now_ms() + SHOT_WAIT_MS;
            while (!shot_shows(text) && shot_now_ms() < end && !shot_ended)
                shot_pump(50);
            if (!shot_shows(text)) {
                fprintf(stderr, "screenshot: '%s' did not appear within %d s (%s)\n", text, SHOT_WAIT_MS / 1000, argv[1]);
                rc = 1;
            }
        } else if (strncmp(line, "keys ", 5) == 0) {
            if (write(shot_fd, text, strlen(text)) < 0)
                rc = 1;
            shot_pump(100);
        } else if (strncmp(line, "sleep ", 6) == 0) {
            shot_pump(atoi(text));
        } else {
            fprintf(stderr, "screenshot: a step is wait, keys or sleep, not: %s\n", line);
            rc = 1;
        }
    }
    shot_pump(200);
    if (rc == 0 && shot_svg(argv[1]) != 0) {
        fprintf(stderr, "screenshot: cannot write %s: %s\n", argv[1], strerror(errno));
        rc = 1;
    }
    kill(pid, SIGTERM);
    pid_t gone = 0;
    for (int i = 0; i < 20 && (gone = waitpid(pid, NULL, WNOHANG)) == 0; i++)
        shot_pump(100);
    if (gone == 0) { /* still there: ended for good (never a pid that was reaped and reused) */
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    vterm_free(shot_vt);
    return rc;
}
