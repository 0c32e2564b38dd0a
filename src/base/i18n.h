/*
 * i18n.h - interface strings in the learner's language (English or Korean).
 *
 * Strings are written in English in the code, wrapped in _("..."). Translations are data:
 * assets/i18n/LANG/ holds JSON files, each an object {"English text": "translated text"}, loaded at start.
 * A missing translation falls back to the English text. A translation of a printf format must keep
 * the same conversions in the same order (the tests check every one).
 */
#ifndef CUDACHEF_I18N_H
#define CUDACHEF_I18N_H

typedef enum i18n_lang { I18N_EN = 0, I18N_KO = 1 } i18n_lang;

#define I18N_LANGS 2

/* Chooses the language and loads its strings from data_dir/assets/i18n/CODE/; 0, or -1 if the
   folder could not be read (English is used then). */
int i18n_init(i18n_lang lang, const char *data_dir);

/* The language in use. */
i18n_lang i18n_current(void);

/* "en" or "ko". */
const char *i18n_code(i18n_lang lang);

/* Parses "en" or "ko"; -1 for anything else. */
int i18n_parse(const char *text, i18n_lang *out);

/* The language the environment asks for: LANGUAGE, LC_ALL, LC_MESSAGES, then LANG ("ko..." is
   Korean, anything else English). */
i18n_lang i18n_from_environment(void);

/* The translation of english, or english itself. */
const char *i18n_get(const char *english) __attribute__((format_arg(1)));

#define _(english) i18n_get(english)

/* Marks english as a string looked up later, where it is shown (a row of a table: _(row->text));
   scripts/i18n-extract.py finds it like _("..."). */
#define N_(english) (english)

#endif
