/*
 * draw.c - the drawing helpers every screen uses: text cropped by display columns (layout_crop),
 * frames, and every character outside ASCII turned into ASCII for --ascii and non-UTF-8 terminals.
 *
 * ASCII mode decodes the UTF-8 text itself (the locale may not know UTF-8): the symbols the lessons
 * and the screens use get ASCII stand-ins (draw_symbols), superscripts become ^N, and anything else
 * becomes '?' once per column it would have taken. Text was laid out by the display width of the
 * UTF-8 original (text_width), so most stand-ins take the same width (x for ×, < for ←);
 * the few that need more (>= for ≥, <-> for ↔, ^2 for ², ... for …) give the extra columns back by
 * dropping padding: an all-space span drawn right after it on the same row (a table cell's
 * padding), a space of a run of two or more, or the space before a table's bar, so that the
 * columns after it stay aligned. A span
 * that still does not fit its width drops the spaces around its operators ("2x10^12") before
 * anything at its end is cut.
 */
#include <string.h>

#include "ui/ui.h"
#include "base/text.h"

/* A character outside ASCII and its ASCII stand-in. */
typedef struct draw_symbol {
    unsigned long code;
    const char *ascii;
} draw_symbol;

/* The stand-ins: the box drawing of frames and tables, and the symbols of lessons and screens. */
static const draw_symbol draw_symbols[] = {
    {0x00A0, " "},  {0x00B1, "+-"}, {0x00B5, "u"},   {0x00B7, "-"},   {0x00D7, "x"},  {0x00F7, "/"},
    {0x2010, "-"},  {0x2011, "-"},  {0x2013, "-"},   {0x2014, "-"},   {0x2018, "'"},  {0x2019, "'"},
    {0x201C, "\""}, {0x201D, "\""}, {0x2022, "*"},   {0x2026, "..."}, {0x2190, "<"},  {0x2191, "^"},
    {0x2192, ">"},  {0x2193, "v"},  {0x2194, "<->"}, {0x2195, "|"},   {0x21A9, "<"},  {0x21AA, ">"},
    {0x21D2, "=>"}, {0x2212, "-"},  {0x2248, "~"},   {0x2260, "!="},  {0x2264, "<="}, {0x2265, ">="},
    {0x2500, "-"},  {0x2501, "-"},  {0x2502, "|"},   {0x2503, "|"},   {0x2550, "="},  {0x2551, "|"},
    {0x2588, "#"},  {0x2591, ":"},  {0x2592, "%"},   {0x2593, "#"},   {0x25A0, "#"},  {0x25A1, "o"},
    {0x25A3, "#"},  {0x25B2, "^"},  {0x25B6, ">"},   {0x25B8, ">"},   {0x25BA, ">"},  {0x25BC, "v"},
    {0x25C0, "<"},  {0x25C2, "<"},  {0x25C4, "<"},   {0x25CB, "o"},   {0x25CF, "o"},  {0x2713, "+"},
    {0x2714, "+"},  {0x2717, "x"},  {0x2718, "x"},
};

/* The digit or sign a superscript stands for (⁰-⁹ ⁺ ⁻), or 0 for any other character. */
static char draw_superscript(unsigned long code)
{
    if (code == 0x00B9)
        return '1';
    if (code == 0x00B2 || code == 0x00B3)
        return (char)('2' + (code - 0x00B2));
    if (code == 0x2070 || (code >= 0x2074 && code <= 0x2079))
        return (char)('0' + (code - 0x2070));
    return code == 0x207A ? '+' : code == 0x207B ? '-' : 0;
}

/* The ASCII stand-in of a character outside ASCII, or NULL when it has none. */
static const char *draw_symbol_ascii(unsigned long code)
{
    for (size_t i = 0; i < sizeof draw_symbols / sizeof draw_symbols[0]; i++)
        if (draw_symbols[i].code == code)
            return draw_symbols[i].ascii;
    if (code >= 0x2500 && code <= 0x257F)
        return "+"; /* the other corners and joints of box drawing */
    if (code >= 0x2580 && code <= 0x259F)
        return "#"; /* block elements */
    return NULL;
}

/* Decodes the UTF-8 character at text: its code point, with *len its bytes; an invalid or cut
   sequence is one byte with code point 0 (no stand-in: it becomes '?'). */
static unsigned long draw_utf8_decode(const unsigned char *text, size_t *len)
{
    unsigned char c = text[0];
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    unsigned long code = n == 4 ? c & 0x07u : n == 3 ? c & 0x0Fu : c & 0x1Fu;
    for (size_t i = 1; i < n; i++) {
        if ((text[i] & 0xC0) != 0x80) {
            n = 0;
            break;
        }
        code = code << 6 | (text[i] & 0x3Fu);
    }
    if (n == 0 || (n == 3 && code < 0x800) || (n == 4 && (code < 0x10000 || code > 0x10FFFF)) ||
        (code >= 0xD800 && code <= 0xDFFF)) {
        *len = 1;
        return 0;
    }
    *len = n;
    return code;
}

/* 1 for an operator (× ≥ ↔ ...): when a line is too long in ASCII, the spaces around its stand-in
   go first ("2x10^12" rather than a cut "2 x 10^"). */
static int draw_operator(unsigned long code)
{
    static const unsigned long operators[] = {0x00B1, 0x00D7, 0x00F7, 0x2190, 0x2192, 0x2194,
                                              0x21D2, 0x2212, 0x2248, 0x2260, 0x2264, 0x2265};
    for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
        if (operators[i] == code)
            return 1;
    return 0;
}

/* 1 when text starts with an operator. */
static int draw_at_operator(const char *text)
{
    size_t len;
    return (unsigned char)text[0] >= 0x80 &&
           draw_operator(draw_utf8_decode((const unsigned char *)text, &len));
}

/* Extra columns the last ASCII span took beyond its original, still to be given back by the
   padding drawn right after it: row and column where that span ended. */
static struct draw_debt {
    int y, x, columns;
} draw_debt;

/* One conversion of a span to ASCII: what it starts with, and what it gave. */
typedef struct draw_pass {
    int debt;    /* in: extra columns owed before the span; out: still owed after it */
    int squeeze; /* in: spaces next to operators that may go to make the span fit */
    int columns; /* out: columns written */
    int grown;   /* out: columns that stand-ins wider than their character added */
    int rest;    /* out: 1 when the span did not fit in width */
} draw_pass;

/* Converts text to ASCII into out (size bytes), cropped to width columns (see the top of the file). */
static void draw_convert(const char *text, int width, char *out, size_t size, draw_pass *pass)
{
    int all_spaces = text[strspn(text, " ")] == '\0', superscript = 0, operator= 0;
    size_t n = 0;
    const char *p = text;
    pass->columns = pass->grown = 0;
    while (*p && pass->columns < width && n + 1 < size) {
        unsigned char c = (unsigned char)*p;
        if (c == ' ' && pass->debt > 0 &&
            (all_spaces || p[1] == ' ' || strncmp(p + 1, "│", strlen("│")) == 0)) {
            pass->debt--; /* padding, or the space before a table's bar, gives a column back */
            p++;
            continue;
        }
        if (c == ' ' && pass->squeeze > 0 && (operator|| draw_at_operator(p + 1))) {
            pass->squeeze--;
            p++;
            continue;
        }
        if (c < 0x80) {
            out[n++] = (char)c;
            pass->columns++;
            p++;
            superscript = operator= 0;
            continue;
        }
        size_t len = 1;
        unsigned long code = draw_utf8_decode((const unsigned char *)p, &len);
        int original = text_width(p, len); /* the columns the layout gave it */
        const char *ascii = draw_symbol_ascii(code);
        char digit = draw_superscript(code), raised[3] = {'^', digit, '\0'};
        if (digit)
            ascii = superscript ? raised + 1 : raised; /* 10⁻³ is 10^-3: one ^ for the run */
        superscript = digit != 0;
        operator= draw_operator(code);
        p += len;
        int wide = ascii ? (int)strlen(ascii) : original, put = 0;
        for (; put < wide && pass->columns < width && n + 1 < size; put++, pass->columns++)
            out[n++] = ascii ? ascii[put] : '?';
        for (; put < original && pass->columns < width && n + 1 < size; put++, pass->columns++)
            out[n++] = ' '; /* a stand-in narrower than the original keeps its columns */
        pass->debt += put > original ? put - original : 0;
        pass->grown += put > original ? put - original : 0;
    }
    out[n] = '\0';
    pass->rest = *p != '\0';
}

/* The span in ASCII, cropped to width columns at row y, column x: the extra columns of the span
   drawn just before it on the row are given back first; a span too long for width squeezes the
   spaces around its operators before anything is cut. Returns out; *used gets its columns. */
static const char *draw_to_ascii(const char *text, int y, int x, int width, char *out, size_t size, int *used)
{
    int owed = draw_debt.y == y && draw_debt.x == x ? draw_debt.columns : 0;
    draw_pass pass = {.debt = owed};
    draw_convert(text, width, out, size, &pass);
    if (pass.rest) {
        draw_pass whole = {.debt = owed};
        draw_convert(text, (int)size, out, size, &whole); /* how far past width it goes */
        int over = whole.columns - width; /* squeezed only when the stand-ins made it too long */
        pass = (draw_pass){.debt = owed, .squeeze = over <= whole.grown ? over : 0};
        draw_convert(text, width, out, size, &pass);
    }
    draw_debt = (struct draw_debt){y, x + pass.columns, pass.debt};
    *used = pass.columns;
    return out;
}

/* Writes a span cropped to width columns; returns the columns it took. */
int draw_span(const ui_state *s, int y, int x, int width, const char *text, attr_t attr)
{
    char ascii[2048];
    if (width <= 0)
        return 0;
    int used = 0;
    size_t n;
    if (s->ascii) {
        text = draw_to_ascii(text, y, x, width, ascii, sizeof ascii, &used);
        n = strlen(text);
    } else {
        n = layout_crop(text, strlen(text), width, &used);
    }
    attrset(attr);
    mvaddnstr(y, x, text, (int)n);
    attrset(A_NORMAL);
    return used;
}

/* Writes text padded to exactly width columns. */
void draw_text(const ui_state *s, int y, int x, int width, const char *text, ui_role role)
{
    attr_t attr = theme_attr(role, s->color);
    int used = draw_span(s, y, x, width, text, attr);
    attrset(attr);
    for (int i = used; i < width; i++)
        mvaddch(y, x + i, ' ');
    attrset(A_NORMAL);
}

/* Fills a rectangle with spaces. */
void draw_clear(const ui_state *s, layout_rect r, ui_role role)
{
    for (int y = r.y; y < r.y + r.h; y++)
        draw_text(s, y, r.x, r.w, "", role);
}

/* Draws a frame on the edge of a rectangle. */
void draw_box(const ui_state *s, layout_rect r, ui_role role)
{
    if (r.w < 2 || r.h < 2)
        return;
    attr_t attr = theme_attr(role, s->color);
    const char *h = s->ascii ? "-" : "─", *v = s->ascii ? "|" : "│";
    const char *corners[4] = {"┌", "┐", "└", "┘"};
    for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
        draw_span(s, r.y, x, 1, h, attr);
        draw_span(s, r.y + r.h - 1, x, 1, h, attr);
    }
    for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
        draw_span(s, y, r.x, 1, v, attr);
        draw_span(s, y, r.x + r.w - 1, 1, v, attr);
    }
    draw_span(s, r.y, r.x, 1, corners[0], attr);
    draw_span(s, r.y, r.x + r.w - 1, 1, corners[1], attr);
    draw_span(s, r.y + r.h - 1, r.x, 1, corners[2], attr);
    draw_span(s, r.y + r.h - 1, r.x + r.w - 1, 1, corners[3], attr);
}

/* The scrolling keys of a text screen (↑↓ j k, Space f PgDn, b PgUp, g G Home End) applied to
   *top with page rows to a screenful; 1 when key was one of them (the caller clamps *top). */
int draw_scroll_key(int key, int *top, int page)
{
    switch (key) {
    case KEY_DOWN:
    case 'j':
        (*top)++;
        return 1;
    case KEY_UP:
    case 'k':
        *top = *top > 0 ? *top - 1 : 0;
        return 1;
    case KEY_NPAGE:
    case ' ':
    case 'f':
        *top += page;
        return 1;
    case KEY_PPAGE:
    case 'b':
        *top = *top > page ? *top - page : 0;
        return 1;
    case KEY_HOME:
    case 'g':
        *top = 0;
        return 1;
    case KEY_END:
    case 'G':
        *top = 1 << 20;
        return 1;
    default:
        return 0;
    }
}

/* The attributes of a span from its Markdown style, over a base role. */
static attr_t draw_md_attr(const ui_state *s, int style, ui_role base)
{
    ui_role role = base;
    if (style & MD_STYLE_MARK)
        role = UI_MARK;
    else if (style & MD_STYLE_HEADING)
        role = UI_HEADING;
    else if (style & MD_STYLE_CODE)
        role = UI_CODE;
    else if (style & MD_STYLE_LINK)
        role = UI_LINK;
    else if (style & MD_STYLE_TABLE_HEAD)
        role = UI_TABLE_HEAD;
    else if (style & MD_STYLE_RULE)
        role = UI_RULE;
    else if (style & MD_STYLE_QUOTE)
        role = UI_QUOTE;
    attr_t attr = theme_attr(role, s->color);
    if (style & MD_STYLE_STRONG)
        attr |= A_BOLD;
    if (style & MD_STYLE_EMPH)
        attr |= A_UNDERLINE;
    return attr;
}

/* Draws one laid-out Markdown line; a marked line is highlighted across the whole width. */
void draw_md_line(const ui_state *s, int y, layout_rect body, const md_line *line, ui_role base)
{
    if (line->style & MD_STYLE_MARK)
        draw_text(s, y, body.x, body.w, "", UI_MARK);
    int x = body.x;
    for (int i = 0; i < line->nspans && x < body.x + body.w; i++)
        x += draw_span(s, y, x, body.x + body.w - x, line->spans[i].text,
                       draw_md_attr(s, line->spans[i].style | line->style, base));
}

/* Draws a question with its numbered lines in a centred frame. */
void draw_choice(const ui_state *s, int width, const char *heading, const char *const *lines, int n, int choice)
{
    layout_rect screen = {0, 0, COLS, LINES};
    layout_rect box = layout_center(screen, width, n + 6);
    draw_clear(s, box, UI_TEXT);
    draw_box(s, box, UI_BORDER);
    draw_text(s, box.y + 1, box.x + 2, box.w - 4, heading, UI_HEADING);
    for (int i = 0; i < n; i++)
        draw_text(s, box.y + 3 + i, box.x + 2, box.w - 4, lines[i], i == choice ? UI_SELECTED : UI_TEXT);
}

/* The keys of a question: the index chosen, -1 nothing yet, -2 cancelled. */
int draw_choice_key(int key, int n, int *choice)
{
    if (key >= '1' && key < '1' + n && key <= '9')
        return key - '1';
    if ((key == KEY_DOWN || key == 'j') && *choice + 1 < n)
        (*choice)++;
    else if ((key == KEY_UP || key == 'k') && *choice > 0)
        (*choice)--;
    else if ((key == '\n' || key == '\r' || key == KEY_ENTER) && n > 0)
        return *choice < n ? *choice : 0;
    else if (key == 27 || key == 'q')
        return -2;
    return -1;
}
