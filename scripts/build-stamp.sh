#!/bin/sh
# build-stamp.sh - what a build folder was built from, so that a machine that must not compile (the
# GPU machine: no jansson, cmocka or libvterm headers, another CC) can tell a current build from a
# stale one without make, whose rules would start compiling there.
#
# Usage: scripts/build-stamp.sh write BUILD   after a complete build (make tests): BUILD/.built-from
#                                            gets the SHA-256 of every file the build compiles
#        scripts/build-stamp.sh check BUILD   0 when every one is unchanged; else names what is stale
#                                            or missing on stderr and exits 2
# The files: the sources and headers of src/, kernels/, tests/ (their kernels and fuzz targets) and
# bench/, the Makefile with its parts, and the build folder's own record of how it was built
# (.mode, CUDA=0 or 1, and .flags, the compilers and flags). Hashes, not times: a copied tree keeps
# its contents, not always its times. (A file edited while the build ran is taken as it was when
# the stamp was written, after the build: build again after editing.)
set -u
cd "$(dirname "$0")/.." || exit 2
what=${1:-}
build=${2:-build}
stamp="$build/.built-from"

# built_from: the files a build compiles, one per line, in a stable order.
built_from() {
    { ls Makefile tests/*.mk bench/*.mk "$build/.mode" "$build/.flags" 2>/dev/null
      find src kernels tests bench -path tests/fuzz/corpus -prune -o -type f \
          \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.def' -o -name '*.S' -o -name '*.list' \) -print
    } | LC_ALL=C sort
}

case "$what" in
write)
    [ -d "$build" ] || { echo "build-stamp: $build is not a build folder" >&2; exit 2; }
    built_from | while read -r f; do sha256sum "$f"; done >"$stamp.tmp" && mv "$stamp.tmp" "$stamp"
    ;;
check)
    if [ ! -f "$stamp" ]; then
        echo "error: $build was not built completely here (no $stamp): run make carry on a machine with the headers, then carry $build" >&2
        exit 2
    fi
    stale=$(sha256sum -c "$stamp" 2>/dev/null | sed -n 's/: FAILED.*$//p')
    added=$(built_from | while read -r f; do grep -q "  $f\$" "$stamp" || echo "$f"; done)
    if [ -n "$stale$added" ]; then
        list=$(printf '%s\n' $stale $added | head -5 | tr '\n' ' ')
        count=$(printf '%s\n' $stale $added | grep -c .)
        echo "error: $build is stale: $count file(s) changed since it was built (${list% }): run make carry where the headers are, then carry $build" >&2
        exit 2
    fi
    ;;
*)
    echo "usage: scripts/build-stamp.sh write|check BUILD" >&2
    exit 2
    ;;
esac
