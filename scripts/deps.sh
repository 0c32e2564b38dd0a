#!/bin/sh
# deps.sh - makes sure the Debian packages a make target needs are installed.
#
# Usage: scripts/deps.sh PACKAGE...
# Installs the missing ones with apt-get when run as root (after one apt-get update); otherwise
# prints the exact command to run and exits 1. CUDACHEF_SKIP_DEPS=1 skips the check (for machines
# without dpkg, such as the GPU machine that runs prebuilt binaries).
set -u
[ "${CUDACHEF_SKIP_DEPS:-0}" = 1 ] && exit 0
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: dpkg-query not found; make sure these are installed: $*" >&2
    exit 0
fi
missing=""
for p in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "cudachef needs these Debian packages:$missing" >&2
    if command -v sudo >/dev/null 2>&1; then
        echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    else
        echo "run as root: apt-get update && apt-get install -y$missing" >&2
    fi
    exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || { echo "deps: apt-get update failed" >&2; exit 1; }
apt-get install -y -qq --no-install-recommends $missing >&2 || {
    echo "deps: apt-get install$missing failed" >&2
    exit 1
}
