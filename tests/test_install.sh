#!/bin/sh
# test_install.sh - `make install` and `make uninstall`, and the manual page against the program.
#
# Usage: tests/test_install.sh BUILD_DIR   (make test runs it as BUILD/tests/test_install BUILD)
#
# Stages an install of the current build (make install DESTDIR=TMP/stage PREFIX=/usr), then runs
# the installed program from another folder with no CUDACHEF_DATA and HOME in the temporary folder:
# info, list --check, read, run, init and grade of an exercise's solution, whose check compiles
# against the installed sources (the proof: without one of them it fails). Every file the program
# wrote must be in the workspace, the state folder, the build cache or a file named with
# --output/--trace. The installed cudachef(1) renders; it names every command and option of the
# program's --help and every variable the sources getenv. Then make uninstall must leave none of
# its files, and the files that were there before (another program's) untouched.
# Prints cmocka's lines, so scripts/run-tests.sh counts its cases.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${1:-}" ]; then build=$1
elif [ -n "${CUDACHEF_BIN:-}" ]; then build=$(dirname "$CUDACHEF_BIN")
else echo "usage: tests/test_install.sh BUILD_DIR (the build folder to install from)" >&2; exit 2
fi
case "$build" in /*) ;; *) build="$here/$build" ;; esac
backend=${CUDACHEF_TEST_BACKEND:-emu}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-install-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
stage="$tmp/stage"
bin="$stage/usr/bin/cudachef"
data="$stage/usr/share/cudachef"
man="$stage/usr/share/man/man1/cudachef.1"
. "$here/tests/cases.sh"

# make_in ARGS...: make in the source tree with the build's own BUILD and CUDA mode, so that
# nothing is rebuilt differently (the outer make's flags are not passed on).
make_in() {
    env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$here" --no-print-directory BUILD="$build" \
        $(cat "$build/.mode" 2>/dev/null) "$@"
}

# cudachef ARGS...: the installed program, from a folder of its own, with nothing pointing it at
# the source tree, HOME and TMPDIR in the temporary folder; its output in $tmp/out, $tmp/err.
cudachef() {
    (cd "$tmp/elsewhere" && env -u CUDACHEF_DATA -u CUDACHEF_LESSONS -u CUDACHEF_KERNELS -u CUDACHEF_EXERCISES \
        -u CUDACHEF_STATE_HOME -u CUDACHEF_CACHE_HOME -u CUDACHEF_WORKSPACE -u XDG_STATE_HOME -u XDG_CACHE_HOME \
        HOME="$tmp/home" TMPDIR="$tmp/tmpdir" LANG=C.UTF-8 "$bin" "$@") >"$tmp/out" 2>"$tmp/err"
}

# The man page's source with roff's escaped hyphens as plain ones.
man_text() {
    sed 's/\\-/-/g' "$here/docs/cudachef.1"
}

# The commands of `cudachef --help`: each has a section "cudachef COMMAND ..." in the man page.
test_manpage_lists_every_command() {
    commands=$("$build/cudachef" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
    [ -n "$commands" ] || fail "cudachef --help lists no commands"
    for c in $commands; do
        man_text | grep -q "^\.SS \"cudachef $c[ \"]" || fail "docs/cudachef.1 has no section .SS \"cudachef $c ...\""
    done
    version=$("$build/cudachef" --version | sed 's/^cudachef //')
    grep -q "^\.TH CUDACHEF 1 [^ ]* \"cudachef $version\"" "$here/docs/cudachef.1" ||
        fail "docs/cudachef.1's .TH does not say cudachef $version"
}

# Every option of each command's --help is in that command's sections; the interface's own options
# (the usage printed without a command) are in the page.
test_manpage_lists_every_option() {
    for c in $("$build/cudachef" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'); do
        section=$(man_text | awk -v c="$c" '
            /^\.SS / { on = index($0, "\"cudachef " c " ") == 5 || $0 == ".SS \"cudachef " c "\"" }
            /^\.SH / { on = 0 }
            on')
        for o in $("$build/cudachef" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
            case "$o" in --help | --version | --lang) continue ;; esac
            printf '%s\n' "$section" | grep -q -- "$o\\b" || fail "docs/cudachef.1: cudachef $c has no $o"
        done
    done
    for o in $("$build/cudachef" 2>&1 </dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        man_text | grep -q -- "$o\\b" || fail "docs/cudachef.1 does not mention $o"
    done
}

# Every environment variable the sources read is in ENVIRONMENT.
test_manpage_lists_every_variable() {
    environment=$(man_text | sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p')
    for v in $(grep -rho 'getenv("[A-Z_]*")' "$here/src" | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
        printf '%s\n' "$environment" | grep -q "\\b$v\\b" || fail "docs/cudachef.1's ENVIRONMENT does not name $v"
    done
}

# The page has no roff warnings, and man renders it.
test_manpage_renders() {
    checked=0
    if command -v groff >/dev/null 2>&1; then
        warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$here/docs/cudachef.1" 2>&1)
        [ -z "$warnings" ] || fail "groff warns: $warnings"
        checked=1
    fi
    if command -v mandoc >/dev/null 2>&1; then
        lint=$(mandoc -Tlint -W warning "$here/docs/cudachef.1" 2>&1)
        [ -z "$lint" ] || fail "mandoc -Tlint: $lint"
        checked=1
    fi
    [ "$checked" = 1 ] || skip "neither groff nor mandoc is installed (apt-get install man-db)"
}

# BUILD naming a folder that holds files but is no build folder (no .mode) is refused, and
# nothing in it is touched: the mode check would otherwise wipe its src/, kernels/ and tests/.
test_build_folder_guard() {
    guard=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-guard-XXXXXX") || { fail "mktemp"; return; }
    mkdir -p "$guard/notbuild/tests"
    echo mine >"$guard/notbuild/tests/keep.txt"
    if env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$here" --no-print-directory BUILD="$guard/notbuild" \
        CUDA=0 check-build-mode >"$guard/make.log" 2>&1; then
        fail "make accepted BUILD=$guard/notbuild"
    fi
    grep -q "is not a cudachef build folder" "$guard/make.log" || fail "no clear message: $(head -c 300 "$guard/make.log")"
    [ "$(cat "$guard/notbuild/tests/keep.txt" 2>/dev/null)" = mine ] || fail "a file in the folder was removed"
    [ -e "$guard/notbuild/.mode" ] && fail "the folder was made a build folder"
    rm -rf "$guard"
    return 0
}

# cannot_compile STALE: 0 (and the case skipped, saying what is stale) on a machine that cannot
# compile cudachef (its headers are missing: the GPU machine of the carried route) whose build is
# not current; else 1, and the case builds what it needs.
cannot_compile() {
    printf '#include <jansson.h>\n#include <curses.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1 && return 1
    skip "this machine cannot compile cudachef (no jansson or curses headers) and the carried build is not current: $1"
    return 0
}

# make install puts the program, the page and the data where PREFIX and DESTDIR say, beside files
# of another program that it must leave alone.
test_install() {
    mkdir -p "$stage/usr/bin" "$stage/usr/share/man/man1" "$tmp/elsewhere" "$tmp/home" "$tmp/tmpdir"
    echo other >"$stage/usr/bin/other-program"
    echo other >"$stage/usr/share/man/man1/other.1"
    # up to date first (others may be editing the tree): then installing must build nothing; a build
    # its stamp says is current is not touched (the GPU machine cannot compile)
    if ! stale=$("$here/scripts/build-stamp.sh" check "$build" 2>&1); then
        cannot_compile "$stale" && return
        make_in "$build/cudachef" >"$tmp/make.log" 2>&1 || { fail "make failed: $(tail -5 "$tmp/make.log")"; return; }
    fi
    make_in install DESTDIR="$stage" PREFIX=/usr >"$tmp/make.log" 2>&1 ||
        { fail "make install failed: $(tail -5 "$tmp/make.log")"; return; }
    grep -E "^(cc|gcc|ar|\S*nvcc) " "$tmp/make.log" && fail "make install rebuilt something"
    [ -x "$bin" ] || fail "no $bin"
    [ -f "$man" ] || fail "no $man"
    for f in lessons/01-meet-your-kitchen/lesson.ini lessons/glossary.en.md lessons/glossary.ko.md exercises/03-teams-and-cooks/bounds-check/solution.cu \
        kernels/kernels.def kernels/vector_add.cu assets/themes/default.ini assets/i18n/ko/core.json \
        src/kit/emu_table.c src/kit/emu_table.h src/kit/emu_kernel.h src/kit/kernel.h src/kit/kernel_glue.h src/kit/gpu_table.cu; do
        [ -f "$data/$f" ] || fail "no $data/$f"
    done
}

# The installed program finds its data from anywhere, with nothing set.
# gpu_missing: 0 when the backend asked for can cook here; else the case is skipped, saying why
# (make test-gpu on a machine without a GPU).
gpu_missing() {
    [ "$backend" = gpu ] || return 1
    "$build/cudachef" info --format json 2>/dev/null | grep -q '"backend": "gpu"' && return 1
    skip "no usable GPU here: the installed program cannot cook on one (make test does it on the emulator)"
    return 0
}

test_installed_program_runs() {
    [ -x "$bin" ] || { fail "not installed"; return; }
    gpu_missing && return
    cudachef info || fail "info: $(cat "$tmp/err")"
    cudachef list --check || fail "list --check: $(cat "$tmp/out" "$tmp/err")"
    grep -q "lessons loaded: [1-9]" "$tmp/out" || fail "list --check loaded no lesson: $(cat "$tmp/out")"
    cudachef read 1 || fail "read 1: $(cat "$tmp/err")"
    grep -q "^Lesson 1" "$tmp/out" || fail "read 1 printed no lesson"
    cudachef run vector-add --n 4 --threads-per-block 4 --backend "$backend" --trace "$tmp/named/trace.json"
    [ $? -eq 0 ] || fail "run vector-add: $(cat "$tmp/out" "$tmp/err")"
    grep -q "PASS" "$tmp/out" || fail "run vector-add did not pass"
    cudachef --lang ko list || fail "list --lang ko: $(cat "$tmp/err")"
}

# init, then grade an exercise's reference solution in the default workspace (HOME's): the check
# compiles it against the installed sources, which the program must find. Without one of them the
# same check cannot build.
test_installed_grade() {
    [ -x "$bin" ] || { fail "not installed"; return; }
    gpu_missing && return
    glue=src/kit/emu_table.c
    [ "$backend" = gpu ] && glue=src/kit/gpu_table.cu
    cudachef init || { fail "init: $(cat "$tmp/err")"; return; }
    cp "$data/exercises/03-teams-and-cooks/bounds-check/solution.cu" \
        "$tmp/home/cudachef-kitchen/03-teams-and-cooks/bounds-check.cu"
    cudachef grade --backend "$backend" --format json --output "$tmp/named/grade.json" bounds-check ||
        fail "grade: $(cat "$tmp/out" "$tmp/err" "$tmp/named/grade.json" 2>/dev/null)"
    grep -q '"status": "pass"' "$tmp/named/grade.json" 2>/dev/null || fail "grade did not pass"
    mv "$data/$glue" "$tmp/glue.saved"
    rm -rf "$tmp/home/.cache"
    cudachef grade --backend "$backend" bounds-check &&
        fail "grade passed without the installed $glue: the check did not use the installed sources"
    mv "$tmp/glue.saved" "$data/$glue"
}

# What the installed program wrote is in the workspace, the state folder (the pass is recorded),
# the cache or the files named; nothing in the folder it ran from or in TMPDIR (the compilers clean
# up after themselves).
test_writes_only_where_it_may() {
    gpu_missing && return
    stray=$(cd "$tmp" && find . -type f ! -path './stage/*' ! -path './home/cudachef-kitchen/*' ! -path './home/.local/state/cudachef/*' \
        ! -path './home/.cache/cudachef/*' ! -path './named/*' ! -path ./out ! -path ./err ! -path ./make.log | head -5)
    [ -z "$stray" ] || fail "files written outside the workspace, state, cache and named files: $stray"
    [ -f "$tmp/home/.local/state/cudachef/progress" ] || fail "no progress file in the state folder"
}

# The installed page renders with man.
test_installed_manpage_renders() {
    [ -f "$man" ] || { fail "not installed"; return; }
    if ! command -v man >/dev/null 2>&1; then
        skip "man is not installed (apt-get install man-db)"
        return
    fi
    MANWIDTH=80 man -l "$man" >"$tmp/page" 2>"$tmp/err"
    if grep -q "^NAME" "$tmp/page"; then
        return
    elif grep -q "unminimize" "$tmp/page" "$tmp/err"; then
        skip "man is the stub of a minimized system here (unminimize installs the real one)"
    else
        fail "man -l $man: $(head -c 300 "$tmp/err" "$tmp/page")"
    fi
}

# The GPU targets on a machine that cannot build cudachef (the compiler finds no header: CC=false,
# as on the GPU machine of the carried route): a carried build whose stamp is current is run (no
# GPU: SKIP and 0; a GPU: 0), and one whose sources changed since is refused, naming the file.
test_gpu_targets_carried() {
    carried=$(mktemp -d "${TMPDIR:-/tmp}/cudachef-carried-XXXXXX") || { fail "cannot make a folder"; return; }
    if ! stale=$("$here/scripts/build-stamp.sh" check "$build" 2>&1); then
        cannot_compile "$stale" && { rm -rf "$carried"; return; }
        make_in tests >"$tmp/make.log" 2>&1 || { fail "make tests failed: $(tail -5 "$tmp/make.log")"; return; }
    fi
    cp "$build/.mode" "$build/.flags" "$carried/" && ln -s "$(cd "$build" && pwd)/cudachef" "$carried/cudachef" &&
        sed "s#  $build/#  $carried/#" "$build/.built-from" >"$carried/.built-from" || { fail "cannot copy the stamp"; return; }
    out=$(CC=false "$here/scripts/gpu-ready.sh" "$carried" test-gpu 2>&1)
    st=$?
    case $st in
        0) [ "$backend" = gpu ] || fail "no GPU here, yet gpu-ready said there is one: $out" ;;
        3) printf '%s\n' "$out" | grep -q "test-gpu: SKIP: no usable GPU here" || fail "no SKIP line: $out" ;;
        *) fail "a current carried build was refused (exit $st): $out" ;;
    esac
    sed -i "s#^[0-9a-f]\([0-9a-f]*  src/base/chef.c\)\$#0\1#; s#^0\([0-9a-f]*  src/base/chef.c\)\$#1\1#" "$carried/.built-from"
    out=$(CC=false "$here/scripts/gpu-ready.sh" "$carried" test-gpu 2>&1)
    st=$?
    [ $st -eq 2 ] || fail "a stale carried build was not refused (exit $st): $out"
    printf '%s\n' "$out" | grep -q "cannot build cudachef.*src/base/chef.c.*make carry" ||
        fail "the refusal does not say what is stale and what to do: $out"
    rm -rf "$carried"
}

# make uninstall takes out every file install put there and nothing else.
test_uninstall() {
    make_in uninstall DESTDIR="$stage" PREFIX=/usr >"$tmp/make.log" 2>&1 ||
        { fail "make uninstall failed: $(tail -5 "$tmp/make.log")"; return; }
    left=$(cd "$stage" && find . -type f | sort | tr '\n' ' ')
    [ "$left" = "./usr/bin/other-program ./usr/share/man/man1/other.1 " ] ||
        fail "after make uninstall the stage holds: $left"
    [ -d "$data" ] && fail "$data is still there: $(find "$data" | head -3)"
    return 0
}

cases_begin 12
run_case test_manpage_lists_every_command
run_case test_manpage_lists_every_option
run_case test_manpage_lists_every_variable
run_case test_manpage_renders
run_case test_build_folder_guard
run_case test_gpu_targets_carried
mkdir -p "$tmp/named"
run_case test_install
run_case test_installed_program_runs
run_case test_installed_grade
run_case test_writes_only_where_it_may
run_case test_installed_manpage_renders
run_case test_uninstall
cases_end
