#!/bin/sh
# test_layers.sh - the rules of src/'s layers (docs/HACKING.md draws them), read from the includes.
#
# Usage: tests/test_layers.sh [BUILD_DIR]   (make test runs it as BUILD/tests/test_layers BUILD)
#
# Each folder of src/ is a layer and may include only the layers below it:
#
#   base     nothing of ours                     kit      nothing outside itself
#   emu      base kit                            engine   base kit emu
#   demos    base kit engine                     lessons  base engine demos
#   grading  base kit engine demos lessons       ui       base engine demos lessons grading
#   cli      base kit engine demos lessons grading, and ui only from the commands that open the
#            full-screen interface (cli/cmd_try.c); src/main.c may include any layer.
#
# Every quoted include outside the kit names its folder ("engine/kitchen.h") and a file that is
# there; the kit names its own files from the including file's folder (cxx/ reaches its C kit as
# "../emu_kernel.h"), so that it builds alone from its folder. curses is
# included by ui/ only. The folders' graph, as the includes make it, has no cycle. No name means two
# things: a function or type defined in two layers, or a function with a type's name. Each rule is
# checked on the tree, and once on a copy with a breaking include added, which it must catch.
# Prints cmocka's lines, so scripts/run-tests.sh counts its cases.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/cases.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-layers-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The layers each layer may include (besides itself). docs/HACKING.md shows the same table; the
# case test_hacking_draws_the_layers of tests/test_hacking.sh holds it to this one.
LAYER_RULES='base:
kit:
emu: base kit
engine: base kit emu
demos: base kit engine
lessons: base engine demos
grading: base kit engine demos lessons
ui: base engine demos lessons grading
cli: base kit engine demos lessons grading
main: base kit emu engine demos lessons grading cli ui'
# Files of a layer allowed one more layer: the commands that open the full-screen interface.
LAYER_EXCEPTIONS='src/cli/cmd_try.c: ui'

# includes ROOT: one line per quoted include of ROOT/src: FILE FOLDER INCLUDED (FOLDER is the
# layer of FILE: its folder under src/, or main for src/main.c).
includes() {
    (cd "$1" && find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.S' \) | sort |
        while read -r f; do
            case "$f" in src/*/*) layer=${f#src/}; layer=${layer%%/*} ;; *) layer=main ;; esac
            sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
                while read -r inc; do echo "$f $layer $inc"; done
        done)
}

# check_includes ROOT: prints every include of ROOT/src that breaks a rule (nothing when all hold).
check_includes() {
    includes "$1" | while read -r f layer inc; do
        if [ "$layer" = kit ]; then
            # a kit file names its own files from its folder (cxx/ reaches ../ for the C kit's),
            # and never leaves the kit
            target=$(cd "$1" && realpath -m "$(dirname "$f")/$inc")
            kit=$(cd "$1" && realpath -m src/kit)
            case "$target" in
                "$kit"/*) [ -f "$target" ] || echo "$f includes \"$inc\", which is not a file of the kit" ;;
                *) echo "$f includes \"$inc\": the kit includes only its own files" ;;
            esac
            continue
        fi
        case "$inc" in
            */*) ;;
            *) echo "$f includes \"$inc\": name its folder (\"FOLDER/$inc\")"; continue ;;
        esac
        to=${inc%%/*}
        [ -f "$1/src/$inc" ] || { echo "$f includes \"$inc\", which is not in src/"; continue; }
        [ "$to" = "$layer" ] && continue
        allowed=$(printf '%s\n' "$LAYER_RULES" | sed -n "s/^$layer:[[:space:]]*//p")
        extra=$(printf '%s\n' "$LAYER_EXCEPTIONS" | sed -n "s|^$f:[[:space:]]*||p")
        case " $allowed $extra " in
            *" $to "*) ;;
            *) echo "$f ($layer) includes \"$inc\" ($to): $layer may include only: ${allowed:-nothing of ours}" ;;
        esac
    done
}

# check_curses ROOT: prints every file outside src/ui/ that includes curses.
check_curses() {
    (cd "$1" && grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses|ncursesw/[a-z]*|term|panel|menu|form)\.h>' \
        $(find src -type f \( -name '*.c' -o -name '*.h' \) | grep -v '^src/ui/' | sort) /dev/null |
        sed 's/$/ includes curses: only src\/ui\/ may/')
}

# check_cycles ROOT: prints the folders that depend on each other in a circle, if any (the graph of
# folder edges as the includes make them, sorted by tsort, which names a cycle on stderr).
check_cycles() {
    includes "$1" | awk '$2 != "kit" { split($3, p, "/"); if (p[2] != "" && p[1] != $2) print $2, p[1] }' | sort -u >"$tmp/edges"
    tsort "$tmp/edges" 2>&1 >/dev/null | grep -i "cycle\|loop" | sed 's/^/folders in a circle: /'
}

# copy_tree: a copy of src/ to break on purpose, in $tmp/copy.
copy_tree() {
    rm -rf "$tmp/copy"
    mkdir -p "$tmp/copy"
    cp -R "$here/src" "$tmp/copy/src"
}

# Every include of the tree follows the layers.
test_layers_hold() {
    out=$(check_includes "$here")
    [ -z "$out" ] || fail "$(printf '%s\n' "$out" | head -5)"
    [ "$(includes "$here" | wc -l)" -gt 200 ] || fail "found only $(includes "$here" | wc -l) includes in src/"
}

# An include upwards, one sideways that is not allowed, a bare name and a kit file reaching out are
# each caught.
test_layers_catch_a_break() {
    copy_tree
    echo '#include "ui/ui.h"' >>"$tmp/copy/src/engine/verify.h"
    echo '#include "grading/child.h"' >>"$tmp/copy/src/demos/access.h"
    echo '#include "trace.h"' >>"$tmp/copy/src/base/trace.c"
    echo '#include "base/chef.h"' >>"$tmp/copy/src/kit/kernel_glue.h"
    out=$(check_includes "$tmp/copy")
    for f in src/engine/verify.h src/demos/access.h src/base/trace.c src/kit/kernel_glue.h; do
        printf '%s\n' "$out" | grep -q "^$f " || fail "a breaking include in $f was not caught: $out"
    done
}

# Only src/ui/ includes curses.
test_curses_only_in_ui() {
    out=$(check_curses "$here")
    [ -z "$out" ] || fail "$out"
    grep -q '#include <curses.h>' "$here/src/ui/ui.h" || fail "src/ui/ui.h does not include curses: the check looks for the wrong thing"
    copy_tree
    echo '#include <curses.h>' >>"$tmp/copy/src/lessons/progress.c"
    check_curses "$tmp/copy" | grep -q "src/lessons/progress.c" || fail "curses in src/lessons/progress.c was not caught"
}

# No two folders include each other, directly or through others.
test_no_folder_cycle() {
    out=$(check_cycles "$here")
    [ -z "$out" ] || fail "$out"
    [ "$(wc -l <"$tmp/edges")" -ge 10 ] || fail "found only $(wc -l <"$tmp/edges") edges between folders"
    copy_tree
    echo '#include "grading/child.h"' >>"$tmp/copy/src/base/chef.h"
    check_cycles "$tmp/copy" | grep -q "circle" || fail "a circle base -> grading -> base was not caught"
}

# names ROOT: "FOLDER KIND NAME" for every function defined (KIND f) and every type named (KIND t)
# in ROOT/src's C files and headers.
names() {
    (cd "$1" && for f in $(find src -type f \( -name '*.c' -o -name '*.h' \) | sort); do
        layer=${f#src/}; layer=${layer%%/*}
        case "$f" in src/*/*) ;; *) layer=main ;; esac
        sed -nE 's/^(static )?(inline )?[a-z_][a-z_0-9 ]*[ *]+([a-z_][a-z_0-9]*)\(.*[^;]$/f \3/p; s/^} ([a-z_][a-z_0-9]*);$/t \1/p; s/^typedef .* ([a-z_][a-z_0-9]*);$/t \1/p' "$f" |
            sed "s/^/$layer /"
    done) | sort -u
}

# check_names ROOT: a name defined in two folders, or a function and a type of the same name.
check_names() {
    names "$1" >"$tmp/names"
    awk '{ seen[$2 " " $3] = seen[$2 " " $3] ? seen[$2 " " $3] " " $1 : $1; kinds[$3] = kinds[$3] $2 }
         END {
             for (k in seen) { split(k, p, " "); n = split(seen[k], l, " ");
                 if (n > 1) print "the " (p[1] == "f" ? "function" : "type") " " p[2] " is defined in " seen[k] }
             for (k in kinds) if (index(kinds[k], "f") && index(kinds[k], "t")) print k " names both a function and a type" }' "$tmp/names" | sort
}

# No name means two things: one defined in two layers (bench_params once was, in cli and ui), or a
# function with a type's name (md_line once was both).
test_names_mean_one_thing() {
    out=$(check_names "$here")
    [ -z "$out" ] || fail "$(printf '%s\n' "$out" | head -5 | tr '\n' ';')"
    [ "$(wc -l <"$tmp/names")" -gt 600 ] || fail "found only $(wc -l <"$tmp/names") names in src/"
    copy_tree
    printf '/* a second one */\nstatic int trace_free(void)\n{\n    return 0;\n}\n' >>"$tmp/copy/src/ui/draw.c"
    printf 'static void kitchen_params(int x)\n{\n    (void)x;\n}\n' >>"$tmp/copy/src/engine/verify.c"
    out=$(check_names "$tmp/copy")
    printf '%s\n' "$out" | grep -q "trace_free is defined in" || fail "a name defined in two layers was not caught: $out"
    printf '%s\n' "$out" | grep -q "kitchen_params names both" || fail "a function named as a type was not caught: $out"
}

cases_begin 5
run_case test_names_mean_one_thing
run_case test_layers_hold
run_case test_layers_catch_a_break
run_case test_curses_only_in_ui
run_case test_no_folder_cycle
cases_end
