#!/usr/bin/env python3
"""i18n-extract.py - lists the interface strings of cudachef's C sources that are looked up at run time.

cudachef writes its interface text in English in the code and looks each string up in
assets/i18n/LANG/*.json ({"English": "translation"}) when it prints it (src/base/i18n.h). The key of a
translation must be exactly the string the C compiler makes of the literal: adjacent literals
concatenated, escapes ("\\n", "\\x41", "\\303\\251", "\\u00e9", ...) decoded. This script reads C files
the way the compiler does (comments removed, literals decoded) and finds every string that is looked up:

  - the argument of _("...") or i18n_get("...") (adjacent literals concatenated), and of N_("..."),
    which marks a string looked up where it is shown (a table's row: _(row->summary));
  - the format passed as the 2nd argument of cli_usage_error(command, "...", ...), which
    cli_usage_error looks up itself;
  - the hint and the format of chef_fail(err, code, "hint", "format", ...), its 3rd and 4th
    arguments, which chef_fail looks up itself: a literal, the literal branches of
    `c ? "a" : "b"`, or a variable set just before by `const char *NAME = "..." (or c ? ...);`
    (NULL, and variables set any other way, are skipped);
  - the usage texts: `static const char NAME[] = "..." "...";` arrays that are printed through
    _(NAME) or handed to cli_common_option(c, command, NAME, argv) (which prints _(usage));
  - recipe summaries, `.summary = "..."` (shown through _(recipe->summary));
  - the hint of CHEF_CUDA(call, err, code, "hint") (its 4th argument).

Strings with no letters outside their printf conversions ("%s", "%s%s") are left out: they read
the same in every language. --all keeps them.

Usage:
  scripts/i18n-extract.py src/engine/report.c src/cli/cmd_run.c ...
      prints a sorted JSON array of the strings
  scripts/i18n-extract.py --locations src/*.c
      prints a sorted JSON object {string: ["file:line", ...]}
  scripts/i18n-extract.py --missing assets/i18n/ko src/engine/report.c ...
      prints the strings that no JSON file under assets/i18n/ko translates (a sorted JSON array,
      or with --locations an object); exits 1 if there is one, else 0
  scripts/i18n-extract.py --unused assets/i18n/ko/core.json src/engine/report.c ...
      prints the keys of that JSON file that none of the given sources looks up; exits 1 if any

Strings looked up through a variable (_(rc->summary), _(usage) inside cli_common_option) are not
literals at the call: their literals are found where they are defined only for the cases above.
Exit codes: 0 done (nothing missing/unused), 1 something missing/unused, 2 a usage or read error.
"""
import argparse
import glob
import json
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SIMPLE_ESCAPES = {
    "n": b"\n", "t": b"\t", "r": b"\r", "a": b"\a", "b": b"\b", "f": b"\f", "v": b"\v",
    "\\": b"\\", "'": b"'", '"': b'"', "?": b"?", "e": b"\x1b",
}
CONVERSION = re.compile(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|j|z|t|L)?[diouxXeEfFgGaAcspn%]")


class Token:
    """One C token: kind is 'str' (value: decoded bytes), 'ident', 'punct' or 'other'."""

    def __init__(self, kind, value, line):
        self.kind, self.value, self.line = kind, value, line


def decode_literal(body, path, line):
    """Decodes the inside of a C string literal (text between the quotes) to bytes, as C does."""
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        i += 1
        if i >= n:
            raise ValueError(f"{path}:{line}: a string literal ends with a lone backslash")
        ch = body[i]
        if ch in SIMPLE_ESCAPES:
            out += SIMPLE_ESCAPES[ch]
            i += 1
        elif ch in "01234567":  # up to three octal digits
            j = i
            while j < n and j - i < 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        elif ch == "x":  # as many hex digits as follow
            j = i + 1
            while j < n and body[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                raise ValueError(f"{path}:{line}: \\x with no hex digits")
            out.append(int(body[i + 1:j], 16) & 0xFF)
            i = j
        elif ch in "uU":
            width = 4 if ch == "u" else 8
            digits = body[i + 1:i + 1 + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise ValueError(f"{path}:{line}: bad \\{ch} escape")
            out += chr(int(digits, 16)).encode("utf-8")
            i += 1 + width
        else:
            raise ValueError(f"{path}:{line}: unknown escape \\{ch}")
    return bytes(out)


def splice_lines(text):
    """Removes line splices (backslash-newline) as C does first; returns the text and, for each of
    its characters, the line of the source it came from (so lines stay right after a splice)."""
    out, lines, line, i, n = [], [], 1, 0, len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
            line += 1
            i += 2
            continue
        out.append(text[i])
        lines.append(line)
        if text[i] == "\n":
            line += 1
        i += 1
    return "".join(out), lines


def tokenize(text, path):
    """Splits C source into tokens, dropping comments, line splices and whitespace."""
    text, lines = splice_lines(text)
    tokens = []
    i, n = 0, len(text)
    while i < n:
        ch, line = text[i], lines[i]
        if ch.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise ValueError(f"{path}:{line}: unterminated comment")
            i = j + 2
        elif ch == '"' or (ch in "uUL" and re.match(r'(u8|u|U|L)"', text[i:i + 3])):
            prefix = re.match(r'(u8|u|U|L)?', text[i:]).group(0)
            j = i + len(prefix) + 1
            start = j
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                if j < n and text[j] == "\n":
                    raise ValueError(f"{path}:{line}: newline inside a string literal")
                j += 1
            if j >= n:
                raise ValueError(f"{path}:{line}: unterminated string literal")
            tokens.append(Token("str", decode_literal(text[start:j], path, line), line))
            i = j + 1
        elif ch == "'":
            j = i + 1
            while j < n and text[j] != "'":
                if text[j] == "\\":
                    j += 1
                j += 1
            tokens.append(Token("other", text[i:j + 1], line))
            i = j + 1
        else:
            m = IDENT.match(text, i)
            if m:
                tokens.append(Token("ident", m.group(0), line))
                i = m.end()
            elif ch.isdigit():
                m = re.compile(r"[0-9A-Za-z_.]+").match(text, i)
                tokens.append(Token("other", m.group(0), line))
                i = m.end()
            else:
                tokens.append(Token("punct", ch, line))
                i += 1
    return tokens


def literal_run(tokens, k):
    """If tokens[k:] starts with string literals, returns (concatenated bytes, index after them)."""
    if k >= len(tokens) or tokens[k].kind != "str":
        return None, k
    value = b""
    while k < len(tokens) and tokens[k].kind == "str":
        value += tokens[k].value
        k += 1
    return value, k


def call_arguments(tokens, k):
    """tokens[k] is '(' of a call: returns the token ranges (start, end) of its arguments."""
    depth, start, args = 0, k + 1, []
    for j in range(k, len(tokens)):
        t = tokens[j]
        if t.kind != "punct":
            continue
        if t.value in "([{":
            depth += 1
        elif t.value in ")]}":
            depth -= 1
            if depth == 0:
                if j > start or args:
                    args.append((start, j))
                return args
        elif t.value == "," and depth == 1:
            args.append((start, j))
            start = j + 1
    return args


def whole_literal(tokens, span):
    """The decoded string when an argument is nothing but string literals, else None."""
    value, end = literal_run(tokens, span[0])
    return value if value is not None and end == span[1] else None


def literal_choices(tokens, span):
    """[(string, line)] for an expression that is string literals, or `cond ? "a" : "b"` whose
    branches are literals or such conditionals again (NULL or a variable in a branch is skipped);
    [] for anything else."""
    value = whole_literal(tokens, span)
    if value is not None:
        return [(value, tokens[span[0]].line)]
    start, end = span
    depth, question, colon, nested = 0, None, None, 0
    for j in range(start, end):  # the top-level ? and its own : (a ? b ? c : d : e pairs them up)
        v = tokens[j].value if tokens[j].kind == "punct" else None
        if v in ("(", "[", "{"):
            depth += 1
        elif v in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and v == "?":
            if question is None:
                question = j
            else:
                nested += 1
        elif depth == 0 and v == ":" and question is not None and colon is None:
            if nested:
                nested -= 1
            else:
                colon = j
    if question is None or colon is None:
        return []
    return literal_choices(tokens, (question + 1, colon)) + literal_choices(tokens, (colon + 1, end))


def pointer_definition(tokens, k):
    """If tokens[k] is NAME in `char *NAME = EXPR;`, returns (NAME, the span of EXPR), else None."""
    if (k < 2 or tokens[k].kind != "ident" or tokens[k - 1].value != "*" or tokens[k - 2].value != "char"
            or k + 1 >= len(tokens) or tokens[k + 1].value != "="):
        return None
    depth = 0
    for j in range(k + 2, len(tokens)):
        v = tokens[j].value if tokens[j].kind == "punct" else None
        if v in ("(", "[", "{"):
            depth += 1
        elif v in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and v in (";", ","):
            return tokens[k].value, (k + 2, j)
    return None


def single_ident(tokens, span):
    """The identifier when an argument is one identifier, else None."""
    start, end = span
    return tokens[start].value if end == start + 1 and tokens[start].kind == "ident" else None


def extract_file(path):
    """Returns [(string, line)] for one C file."""
    with open(path, encoding="utf-8") as f:
        tokens = tokenize(f.read(), path)
    found, arrays, used_arrays, pointers = [], {}, [], {}
    for k, t in enumerate(tokens):
        definition = pointer_definition(tokens, k)
        if definition:  # const char *hint = "..."; kept in case chef_fail is handed the variable
            pointers.setdefault(definition[0], []).append((k, literal_choices(tokens, definition[1])))
        # .summary = "..." in a recipe: cmd_list and report.c show it through _(recipe->summary)
        if (t.value == "." and k + 3 < len(tokens) and tokens[k + 1].value == "summary"
                and tokens[k + 2].value == "="):
            value, end = literal_run(tokens, k + 3)
            if value is not None:
                found.append((value, tokens[k + 3].line))
            continue
        if t.kind != "ident" or k + 1 >= len(tokens) or tokens[k + 1].value != "(":
            # static const char NAME[] = "..." "...";
            if (t.kind == "ident" and t.value == "char" and k + 5 < len(tokens)
                    and tokens[k + 1].kind == "ident" and tokens[k + 2].value == "["
                    and tokens[k + 3].value == "]" and tokens[k + 4].value == "="):
                value, end = literal_run(tokens, k + 5)
                if value is not None and end < len(tokens) and tokens[end].value == ";":
                    arrays[tokens[k + 1].value] = (value, tokens[k + 5].line)
            continue
        args = call_arguments(tokens, k + 1)
        if t.value in ("_", "N_", "i18n_get") and len(args) == 1:
            value = whole_literal(tokens, args[0])
            if value is not None:
                found.append((value, t.line))
            elif single_ident(tokens, args[0]):
                used_arrays.append(single_ident(tokens, args[0]))
        elif t.value == "cli_usage_error" and len(args) >= 2:
            value = whole_literal(tokens, args[1])
            if value is not None:
                found.append((value, t.line))
        elif t.value == "chef_fail" and len(args) >= 4:
            for span in args[2:4]:  # the hint, then the format
                name = single_ident(tokens, span)
                if name is None:
                    found.extend(literal_choices(tokens, span))
                else:  # a variable: the strings of its latest `char *NAME = ...;` before this call
                    earlier = [choices for at, choices in pointers.get(name, []) if at < k]
                    if earlier:
                        found.extend(earlier[-1])
        elif t.value == "CHEF_CUDA" and len(args) >= 4:  # CHEF_CUDA(call, err, code, hint)
            found.extend(literal_choices(tokens, args[3]))
        elif t.value == "cli_common_option" and len(args) >= 3 and single_ident(tokens, args[2]):
            used_arrays.append(single_ident(tokens, args[2]))
    for name in used_arrays:
        if name in arrays:
            found.append(arrays[name])
    result = []
    for value, line in found:
        try:
            result.append((value.decode("utf-8"), line))
        except UnicodeDecodeError:
            raise ValueError(f"{path}:{line}: a looked-up string is not valid UTF-8")
    return result


def is_trivial(text):
    """Whether a string has no letters outside its printf conversions (nothing to translate)."""
    return not any(c.isalpha() for c in CONVERSION.sub("", text))


def load_translations(folder):
    """Every key with a non-empty string value in the JSON files of a folder."""
    keys = set()
    files = sorted(glob.glob(os.path.join(folder, "*.json")))
    if not files:
        raise ValueError(f"{folder}: no .json files there")
    for path in files:
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
        if not isinstance(table, dict):
            raise ValueError(f"{path}: not a JSON object")
        keys.update(k for k, v in table.items() if isinstance(v, str) and v)
    return keys


def main():
    """Parses the command line, extracts, prints; returns the exit code."""
    ap = argparse.ArgumentParser(description="List the interface strings cudachef's C sources look up.")
    ap.add_argument("files", nargs="+", help="C source files")
    ap.add_argument("--missing", metavar="DIR", help="list only strings no JSON file under DIR translates")
    ap.add_argument("--unused", metavar="JSON", help="list the keys of JSON that the sources do not look up")
    ap.add_argument("--locations", action="store_true", help="print {string: [file:line, ...]}")
    ap.add_argument("--all", action="store_true", help="keep strings with nothing to translate, like \"%%s\"")
    opt = ap.parse_args()
    where = {}
    try:
        for path in opt.files:
            for text, line in extract_file(path):
                places = where.setdefault(text, []) if opt.all or not is_trivial(text) else None
                if places is not None and f"{path}:{line}" not in places:
                    places.append(f"{path}:{line}")
        if opt.unused:
            with open(opt.unused, encoding="utf-8") as f:
                table = json.load(f)
            unused = sorted(k for k in table if k not in where)
            print(json.dumps(unused, ensure_ascii=False, indent=2))
            return 1 if unused else 0
        if opt.missing:
            have = load_translations(opt.missing)
            where = {k: v for k, v in where.items() if k not in have}
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        print(f"i18n-extract: {e}", file=sys.stderr)
        return 2
    if opt.locations:
        print(json.dumps(dict(sorted(where.items())), ensure_ascii=False, indent=2))
    else:
        print(json.dumps(sorted(where), ensure_ascii=False, indent=2))
    return 1 if opt.missing and where else 0


if __name__ == "__main__":
    sys.exit(main())
