#!/usr/bin/env bash
# The tests: `cargo test` with the arguments given (default: every crate of
# the workspace with every feature), then one closing line with how many
# tests were skipped and why. A test whose prerequisite is missing (the
# reference material, Kafka's releases, the oracle, a running cluster) says
# `skipped: ...` and passes; under CI=1 it fails instead.
# `bash interop/scripts/setup.sh` sets up all of them.
#
# Usage: bash scripts/test.sh [cargo test arguments]
#   KWIRE_BLESS=1  refresh the expected outputs instead of failing on them
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$target"
# Each skip appends a line here (kwire_testkit::skip): test, tab, message.
export KWIRE_SKIP_LOG="$target/skipped-tests.tsv"
: > "$KWIRE_SKIP_LOG"
# The one switch that refreshes expected outputs (kwire_testkit::bless)
# also drives insta's snapshots.
if [ -n "${KWIRE_BLESS:-}" ]; then
    export INSTA_UPDATE=always
fi
[ $# -gt 0 ] || set -- --workspace --all-features
cargo test "$@"
status=$?
if [ -s "$KWIRE_SKIP_LOG" ]; then
    # One line per remedy (the hint in parentheses that ends a message):
    # how many tests, and the first of their messages.
    sort -u "$KWIRE_SKIP_LOG" | awk -F'\t' '
        { hint = $2; sub(/^.*\(/, "", hint)
          m = $2; sub(/^skipped: /, "", m)
          if (!(hint in count)) { order[++n] = hint; first[hint] = m }
          count[hint]++ }
        END { for (i = 1; i <= n; i++) { h = order[i]
                  printf "%4d skipped as: %s\n", count[h], first[h] } }'
    tests=$(cut -f1 "$KWIRE_SKIP_LOG" | sort -u | wc -l)
    echo "test.sh: $tests tests skipped, for the reasons above (bash interop/scripts/setup.sh sets up what they need)"
else
    echo "test.sh: no test skipped"
fi
exit $status
