/*
 * fuzz_theme.c - a colour theme (src/ui/theme.c, with inih): assets/themes/NAME.ini as the TUI
 * reads it at start, then every role's attributes with colour on and off.
 *
 * Input: the theme file.
 */
#include <stdio.h>

#include "fuzz.h"
#include "ui/ui.h"

FUZZ_TARGET(theme)
{
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/assets/themes/fuzz.ini", fuzz_dir());
    fuzz_write(path, data, size);
    theme_load("fuzz", err, sizeof err);
    for (int role = 0; role < UI_ROLES; role++) {
        theme_attr((ui_role)role, 0);
        theme_attr((ui_role)role, 1);
    }
    return 0;
}
