#!/usr/bin/env bash
# Counts the instructions rustc executes compiling the kwire library
# alone, under valgrind (cachegrind without cache simulation): a build
# figure that repeats to a few parts in a million on a busy machine, where
# timed builds swing by several percent. Dependencies are built first, not
# counted. Results: docs/performance.md, "The core build counted in
# instructions".
#
# usage: scripts/count-build.sh [cargo build options]
#   e.g. scripts/count-build.sh --no-default-features    (the core alone)
#        scripts/count-build.sh                          (default features)
# Environment: CARGO_TARGET_DIR (default target). Needs valgrind.
set -euo pipefail

# As cargo's RUSTC_WRAPPER: wrap only the compile of the kwire crate.
if [ -n "${KWIRE_COUNT_WRAP:-}" ]; then
    for arg in "$@"; do
        [ -n "${KWIRE_COUNT_OUT:-}" ] || break
        if [ "$arg" = kwire ]; then
            exec valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$KWIRE_COUNT_OUT" "$@"
        fi
    done
    exec "$@"
fi

command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install -y valgrind)" >&2; exit 1; }
cd "$(dirname "$0")/.."
SELF=$(pwd)/scripts/count-build.sh
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
# The same wrapper for both builds, so the second rebuilds only the library.
export KWIRE_COUNT_WRAP=1 RUSTC_WRAPPER=$SELF
cargo build --release --lib -q "$@"
touch src/lib.rs
KWIRE_COUNT_OUT=$OUT cargo build --release --lib -q -j1 "$@" 2>/dev/null
sed -n 's/^summary: //p' "$OUT" | python3 -c 'import sys; print(f"rustc instructions, kwire library: {int(sys.stdin.read()):,}")'
