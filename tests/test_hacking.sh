#!/bin/sh
# test_hacking.sh - docs/HACKING.md, the map of the code, held to the tree both ways.
#
# Usage: tests/test_hacking.sh [BUILD_DIR]   (make test runs it as BUILD/tests/test_hacking BUILD)
#
# Every path the map names exists (a path with a placeholder, NAME or KIND or NN, names a folder
# that must); every folder of src/ is named, opens with a note of what it owns (README.md), and has
# its row in the map's table of folders; every screen of src/ui/screens.h and every command of
# src/cli/commands.c has its row; the table of layers is the one tests/test_layers.sh enforces.
# Each check also runs once on a copy of the map with something taken out or made up, which it must
# catch. Prints cmocka's lines, so scripts/run-tests.sh counts its cases.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/cases.sh"
map="$here/docs/HACKING.md"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-hacking-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# paths_named MAP: every path of the tree the map names, one per line (a word starting with a
# top folder of the tree, or .ci/run).
paths_named() {
    grep -oE '(^|[^A-Za-z0-9_./-])(src|docs|tests|kernels|scripts|lessons|exercises|assets|bench|\.ci)/[A-Za-z0-9_./*-]*' "$1" |
        sed -E 's/^[^A-Za-z0-9_.]//; s/[.]$//' | sort -u
}

# missing_paths MAP: the paths the map names that are not in the tree.
missing_paths() {
    paths_named "$1" | while read -r p; do
        case "$p" in
            *NAME* | *KIND* | *NN* | *'*'*) # a template: the folders before its first placeholder
                top=$(printf '%s' "$p" | sed -E 's#/[^/]*(NAME|KIND|NN|[*])[^/]*(/.*)?$##')
                [ -d "$here/$top" ] || echo "$p (its folder $top)" ;;
            *) [ -e "$here/$p" ] || echo "$p" ;;
        esac
    done
}

# table_names MAP HEADING: the first column of the table under the first line that starts with
# HEADING's words ("| screen |"), one name per line, without backquotes.
table_names() {
    awk -v h="$2" 'index($0, h) == 1 { on = 1; next } on && /^\| ---/ { next } on && /^\|/ { print; next } on { exit }' "$1" |
        sed -E 's/^\| *`?([^`|]*)`? *\|.*/\1/; s/ *$//'
}

# Every path the map names exists.
test_hacking_paths_exist() {
    out=$(missing_paths "$map")
    [ -z "$out" ] || fail "docs/HACKING.md names what is not there: $(printf '%s' "$out" | tr '\n' ' ')"
    [ "$(paths_named "$map" | wc -l)" -gt 40 ] || fail "found only $(paths_named "$map" | wc -l) paths in the map"
    sed 's|src/engine/kitchen.c|src/engine/cooking.c|' "$map" >"$tmp/map"
    missing_paths "$tmp/map" | grep -q "src/engine/cooking.c" || fail "a made-up path was not caught"
}

# Every folder of src/ has its note and its row in the map's table of folders, and is named.
test_hacking_names_every_folder() {
    rows=$(table_names "$map" "| folder |")
    for d in "$here"/src/*/; do
        f="src/$(basename "$d")/"
        printf '%s\n' "$rows" | grep -qxF "$f" || fail "docs/HACKING.md's table of folders has no row $f"
        [ -s "$d/README.md" ] || fail "$f opens with no note of what it owns (README.md)"
    done
    grep -v '^| `src/cli/`' "$map" >"$tmp/map"
    table_names "$tmp/map" "| folder |" | grep -qxF "src/cli/" && fail "a folder's row taken out was not caught"
    return 0
}

# Every screen of the table in src/ui/screens.h has its row in the map.
test_hacking_names_every_screen() {
    screens=$(sed -n 's/^ *X(\([a-z_]*\)).*/\1/p' "$here/src/ui/screens.h")
    [ "$(printf '%s\n' "$screens" | grep -c .)" -ge 8 ] || fail "found only these screens in src/ui/screens.h: $screens"
    rows=$(table_names "$map" "| screen |")
    for s in $screens; do
        printf '%s\n' "$rows" | grep -qxF "$s" || fail "docs/HACKING.md's table of screens has no row $s"
    done
    for s in $rows; do
        printf '%s\n' "$screens" | grep -qxF "$s" || fail "docs/HACKING.md names a screen $s that src/ui/screens.h does not have"
    done
}

# Every command of the table in src/cli/commands.c (but the hidden child) has its row in the map.
test_hacking_names_every_command() {
    commands=$(sed -n 's/^ *{"\([a-z][a-z]*\)", cmd_.*/\1/p' "$here/src/cli/commands.c")
    [ "$(printf '%s\n' "$commands" | grep -c .)" -ge 10 ] || fail "found only these commands in src/cli/commands.c: $commands"
    rows=$(table_names "$map" "| command |")
    for c in $commands; do
        printf '%s\n' "$rows" | grep -qxF "$c" || fail "docs/HACKING.md's table of commands has no row $c"
    done
    for c in $rows; do
        printf '%s\n' "$commands" | grep -qxF "$c" || fail "docs/HACKING.md names a command $c that src/cli/commands.c does not have"
    done
}

# The map's table of layers is the one tests/test_layers.sh enforces.
test_hacking_draws_the_layers() {
    rules=$(sed -n "/^LAYER_RULES='/,/'$/p" "$here/tests/test_layers.sh" | sed "s/^LAYER_RULES='//; s/'$//")
    [ "$(printf '%s\n' "$rules" | grep -c :)" -ge 9 ] || fail "no LAYER_RULES in tests/test_layers.sh"
    printf '%s\n' "$rules" | while IFS=: read -r layer allowed; do
        allowed=$(printf '%s' "$allowed" | sed 's/^ *//')
        row=$(grep -E "^\| $layer \|" "$map" | sed -E 's/^\| [a-z]+ \| *//; s/ *\|$//')
        [ -n "$row" ] || { echo "no row for layer $layer"; continue; }
        words=$(printf '%s' "$row" | sed 's/ (.*//')
        case "$words" in nothing*) words="" ;; esac
        [ "$words" = "$allowed" ] || echo "layer $layer: the map says '$words', the test enforces '$allowed'"
    done >"$tmp/layers"
    [ -s "$tmp/layers" ] && fail "$(head -3 "$tmp/layers" | tr '\n' ' ')"
    return 0
}

cases_begin 5
run_case test_hacking_paths_exist
run_case test_hacking_names_every_folder
run_case test_hacking_names_every_screen
run_case test_hacking_names_every_command
run_case test_hacking_draws_the_layers
cases_end
