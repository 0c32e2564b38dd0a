/*
 * theme.c - colour themes as data: assets/themes/NAME.ini read with inih (see default.ini).
 *
 * A role's value is a list of words: the first colour word is the foreground, the second the
 * background, and attribute words add bold, underline, reverse or dim. The monochrome theme
 * (mono.ini) uses attributes only; colours are never drawn when colour is off.
 */
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "base/chef.h"
#include "ui/ui.h"

static const char *const theme_role_names[UI_ROLES] = {
    "text", "title", "heading", "code", "mark", "link", "quote",
    "table_head", "rule", "selected", "right", "wrong", "dim", "border"};

static short theme_fg[UI_ROLES], theme_bg[UI_ROLES];
static attr_t theme_attrs[UI_ROLES];

/* The curses colour of a word, -1 for the terminal's default, -2 for a word that is no colour. */
static short theme_color(const char *word)
{
    static const char *const names[] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};
    if (strcmp(word, "default") == 0)
        return -1;
    for (short i = 0; i < 8; i++)
        if (strcmp(word, names[i]) == 0)
            return i;
    return -2;
}

/* The attribute of a word, or (attr_t)-1 for a word that is no attribute. */
static attr_t theme_attribute(const char *word)
{
    if (strcmp(word, "normal") == 0)
        return A_NORMAL;
    if (strcmp(word, "bold") == 0)
        return A_BOLD;
    if (strcmp(word, "underline") == 0)
        return A_UNDERLINE;
    if (strcmp(word, "reverse") == 0)
        return A_REVERSE;
    if (strcmp(word, "dim") == 0)
        return A_DIM;
    return (attr_t)-1;
}

/* inih's callback: one "role = words" line; returns 0 (an error at that line) for unknown words. */
static int theme_line(void *user, const char *section, const char *name, const char *value)
{
    (void)user;
    if (strcmp(section, "roles") != 0)
        return 1;
    int role = -1;
    for (int i = 0; i < UI_ROLES; i++)
        if (strcmp(name, theme_role_names[i]) == 0)
            role = i;
    if (role < 0)
        return 0;
    char words[256];
    snprintf(words, sizeof words, "%s", value);
    int colors = 0;
    theme_fg[role] = theme_bg[role] = -1;
    theme_attrs[role] = A_NORMAL;
    for (char *save = NULL, *w = strtok_r(words, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        short c = theme_color(w);
        attr_t a = theme_attribute(w);
        if (c != -2 && colors < 2)
            *(colors++ == 0 ? &theme_fg[role] : &theme_bg[role]) = c;
        else if (a != (attr_t)-1)
            theme_attrs[role] |= a;
        else
            return 0;
    }
    return 1;
}

/* Reads a theme file into the roles. */
int theme_load(const char *name, char *err, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/assets/themes/%s.ini", chef_data_dir(), name);
    for (int i = 0; i < UI_ROLES; i++) {
        theme_fg[i] = theme_bg[i] = -1;
        theme_attrs[i] = A_NORMAL;
    }
    int line = ini_parse(path, theme_line, NULL);
    if (line < 0) {
        snprintf(err, size, "could not read the theme %s", path);
        return -1;
    }
    if (line > 0) {
        snprintf(err, size, "%s:%d: unknown role or word (roles: text, title, heading, ...; words: colours and "
                            "bold, underline, reverse, dim)", path, line);
        return -1;
    }
    return 0;
}

/* One colour pair per role, numbered from 1; "default" is white on black where the terminal has
   no default colours. */
void theme_start_colors(int defaults)
{
    for (int i = 0; i < UI_ROLES; i++) {
        short fg = theme_fg[i] < 0 && !defaults ? COLOR_WHITE : theme_fg[i];
        short bg = theme_bg[i] < 0 && !defaults ? COLOR_BLACK : theme_bg[i];
        init_pair((short)(i + 1), fg, bg);
    }
}

/* A role's attributes, with its colour pair when colour is on. */
attr_t theme_attr(ui_role role, int color)
{
    return theme_attrs[role] | (color ? (attr_t)COLOR_PAIR(role + 1) : 0);
}
