/*
 * main.c - cudachef's entry point: picks the command and runs it.
 *
 * cudachef teaches CUDA with a kitchen: the CPU is the head chef, the GPU a kitchen of thousands
 * of cooks. The commands are the rows of cli/commands.c's table (info, list, read, run, init,
 * grade, exercise, reset, progress, try, bench); without one, on a terminal, the full-screen
 * interface opens (ui/tui.c). --lang en|ko works with every command.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/chef.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "base/i18n.h"
#include "ui/tui.h"

static const char main_tui_note[] =
    "Without a command, on a terminal, cudachef opens its lessons full-screen (--no-color, --ascii;\n--classroom [LESSON] steps a lesson's kitchen for a class on a projector).\n";

/* The character set the environment asks for (LC_ALL, LC_CTYPE, then LANG: the first that is
   set), when it names one that is not UTF-8 ("EUC-KR" of ko_KR.EUC-KR) into out: 1, else 0. */
static int main_environment_other_charset(char *out, size_t size)
{
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) {
            const char *dot = strchr(v, '.');
            if (!dot || strncasecmp(dot + 1, "UTF-8", 5) == 0 || strncasecmp(dot + 1, "utf8", 4) == 0)
                return 0;
            snprintf(out, size, "%.*s", (int)strcspn(dot + 1, "@"), dot + 1);
            return 1;
        }
    }
    return 0;
}

/* Takes --lang VALUE (or --lang=VALUE) out of argv wherever it is and sets the language; the
   environment decides without it. Korean is written in UTF-8: where the environment asks for
   another character set (ko_KR.EUC-KR), the text is English, with a note. Returns 0, or 2 after a
   usage error. */
static int main_language(int *argc, char **argv)
{
    i18n_lang lang = i18n_from_environment();
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *value = NULL;
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--lang") == 0) {
            if (i + 1 >= *argc)
                return cli_usage_error(NULL, "--lang needs a value: en or ko");
            value = argv[++i];
        } else if (strncmp(argv[i], "--lang=", 7) == 0) {
            value = argv[i] + 7;
        } else {
            argv[out++] = argv[i];
            continue;
        }
        if (i18n_parse(value, &lang) != 0)
            return cli_usage_error(NULL, "unknown language '%s' (use en or ko)", value);
    }
    *argc = out;
    argv[out] = NULL;
    char charset[64];
    if (lang == I18N_KO && main_environment_other_charset(charset, sizeof charset)) {
        fprintf(stderr, "cudachef: the Korean text is UTF-8, which the character set %s cannot show: English "
                        "instead\n  hint: use a UTF-8 locale (LANG=ko_KR.UTF-8 or C.UTF-8)\n",
                charset);
        lang = I18N_EN;
    }
    i18n_init(lang, chef_data_dir());
    return 0;
}

/* 1 when the locale's character set is UTF-8. */
static int main_locale_utf8(void)
{
    const char *codeset = nl_langinfo(CODESET);
    return codeset && strcmp(codeset, "UTF-8") == 0;
}

/* 1 when the environment's choice of character set (LC_ALL, LC_CTYPE, then LANG: the first that is
   set) names UTF-8, as in ko_KR.UTF-8 or en_US.utf8. */
static int main_environment_utf8(void)
{
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) {
            const char *dot = strchr(v, '.');
            return dot && (strncasecmp(dot + 1, "UTF-8", 5) == 0 || strncasecmp(dot + 1, "utf8", 4) == 0);
        }
    }
    return 0;
}

/* Takes the locale from the environment. When it asks for UTF-8 but that locale is not installed
   (setlocale fails, as ko_KR.UTF-8 often does in containers), the characters still come from a
   UTF-8 locale that exists (C.UTF-8, else en_US.UTF-8), so the full-screen interface can draw
   Hangul and box drawing instead of falling back to ASCII. */
static void main_locale(void)
{
    if (setlocale(LC_ALL, "") && main_locale_utf8())
        return;
    if (!main_environment_utf8())
        return;
    const char *utf8[] = {"C.UTF-8", "en_US.UTF-8"};
    for (size_t i = 0; i < sizeof utf8 / sizeof utf8[0]; i++)
        if (setlocale(LC_CTYPE, utf8[i]) && main_locale_utf8())
            return;
    /* no UTF-8 locale is installed: the full-screen interface draws in ASCII, in English (tui_main) */
}

/* Runs one command (argv[1]) and returns its exit code. */
static int main_dispatch(int argc, char **argv)
{
    main_locale();
    if (main_language(&argc, argv) != 0)
        return CHEF_EXIT_USAGE;
    if (argc < 2 || tui_option(argv[1])) {
        if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
            tui_options o = {.argc = argc, .argv = argv};
            return tui_main(&o);
        }
        cli_commands_usage(stderr);
        fputs(_(main_tui_note), stderr);
        return CHEF_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        cli_commands_usage(stdout);
        fputs(_(main_tui_note), stdout); /* the full-screen interface's own options: --classroom ... */
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("cudachef %s\n", CHEF_VERSION);
        return 0;
    }
    const cli_command *command = cli_command_find(cmd);
    if (command)
        return command->exec(argc - 1, argv + 1);
    char names[256];
    cli_commands_names(names, sizeof names);
    return cli_usage_error(NULL, "unknown command '%s' (commands: %s)", cmd, names);
}

/* Runs the command, then makes sure what it printed really reached standard output. */
int main(int argc, char **argv)
{
    int code = main_dispatch(argc, argv);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cudachef: could not write to standard output: %s\n  hint: check the disk or the pipe it goes to\n",
                strerror(errno));
        if (code <= CHEF_EXIT_WRONG)
            code = CHEF_EXIT_ENVIRONMENT;
    }
    return code;
}
