#!/bin/sh
# gpu-ready.sh - what every GPU target (make test-gpu, bench-gpu, sanitize-gpu, ncu-check,
# model-check) does first: gets the build it needs, then looks for a GPU.
#
# Usage: scripts/gpu-ready.sh BUILD TARGET [GOAL...]   ($MAKE builds the GOALs; GPU_READY_DEPS
#        names the Debian packages they need)
#
# A machine that can compile cudachef (the C compiler finds the headers; deps.sh installs the
# missing Debian packages first where the folder has no carried build) builds the program, looks
# for a GPU, and only then builds the GOALs, as `make GOAL` would: after a plain `make`,
# make test-gpu builds the tests and runs them, and without a GPU it builds nothing more. A machine
# that cannot (the GPU machine of the build-here-carry-there route: no cmocka, jansson or libvterm
# headers, no package registry) runs the build carried there, if its stamp says it is current
# (scripts/build-stamp.sh); else it refuses, naming what is missing and what to do.
# Then the GPU: without one (cudachef info says the emulator would cook) one SKIP line, with the
# reason.
# Exit status: 0 built and a GPU is here; 3 no GPU (SKIP printed: the target exits 0); 2 refused.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}
target=${2:-gpu}
shift 2 2>/dev/null || shift $#
make=${MAKE:-make}
cc=${CC:-cc}

# missing_headers: the headers the build needs (the program's; the tests' too when there are GOALs)
# that the C compiler cannot find, one word each (none: it can build here).
missing_headers() {
    extra=
    [ "$(uname -m)" = x86_64 ] && extra=capstone/capstone.h
    [ -n "$goals" ] && extra="$extra cmocka.h vterm.h"
    for h in jansson.h ini.h md4c.h curses.h seccomp.h openssl/sha.h $extra; do
        case $h in cmocka.h) pre='#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>' ;; *) pre= ;; esac
        printf '%s\n#include <%s>\n' "$pre" "$h" | "$cc" -E -x c - >/dev/null 2>&1 || printf '%s ' "$h"
    done
}

goals="$*"
missing=$(missing_headers)
if [ -n "$missing" ] && [ ! -f "$build/.built-from" ]; then
    # nothing was carried here: install what the build needs, where this is Debian (deps.sh says
    # what to run where it cannot), and look again
    if [ -n "${GPU_READY_DEPS:-}" ] && scripts/deps.sh $GPU_READY_DEPS >&2; then
        missing=$(missing_headers)
    fi
fi
if [ -z "$missing" ]; then
    if ! $make --no-print-directory BUILD="$build" "$build/cudachef"; then
        echo "$target: the build failed (make $build/cudachef)" >&2
        exit 2
    fi
elif ! stale=$(scripts/build-stamp.sh check "$build" 2>&1); then
    echo "$target: this machine cannot build cudachef (the compiler finds no ${missing% };" \
        "make deps-test installs them), and ${stale#error: }" >&2
    exit 2
fi

bin="$build/cudachef"
if [ ! -x "$bin" ]; then
    echo "$target: $bin is missing: build cudachef first (make)" >&2
    exit 2
fi
info=$("$bin" info --format json 2>&1)
backend=$(printf '%s\n' "$info" | sed -n 's/^ *"backend": *"\([a-z]*\)".*/\1/p')
reason=$(printf '%s\n' "$info" | sed -n 's/^ *"no_gpu_reason": *"\(.*\)".*/\1/p')
if [ "$backend" != gpu ]; then
    echo "$target: SKIP: no usable GPU here (cudachef info: ${reason:-backend ${backend:-unknown}})"
    exit 3
fi
if [ -z "$missing" ] && [ -n "$*" ] && ! $make --no-print-directory BUILD="$build" "$@"; then
    echo "$target: the build failed (make $*)" >&2
    exit 2
fi
exit 0
